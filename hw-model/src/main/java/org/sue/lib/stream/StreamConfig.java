package org.sue.lib.stream;

import org.sue.core.Tag;
/**
 * Shape of the project's packet-stream bus: {@code tdata} of dataWidth bits (dataWidth/8 byte lanes, lane 0 first on
 * the wire), {@code tkeep} per lane (all ones except on the last beat, where it is contiguous from lane 0),
 * {@code tvalid}/{@code tready}, {@code tlast}, and {@code tuser} per-packet metadata held for every beat of a packet.
 */
public record StreamConfig(@Tag("w") int dataWidth, @Tag("u") int userWidth) {
    public StreamConfig {
        if (dataWidth < 64 || dataWidth > 4096 || Integer.bitCount(dataWidth) != 1) {
            throw new IllegalArgumentException("StreamConfig dataWidth must be a power of two from 64 to 4096 bits, got "
                    + dataWidth);
        }
        if (userWidth < 1 || userWidth > 1024) {
            throw new IllegalArgumentException("StreamConfig userWidth must be 1..1024 bits, got " + userWidth);
        }
    }

    public int lanes() {
        return dataWidth / 8;
    }

    /** The payload of a stream of this shape: tdata, tkeep, tlast, tuser. */
    public org.sue.core.Layout layout() {
        return Stream.packet(dataWidth, userWidth);
    }
}
