package org.sue.lib.stream;

import org.sue.core.Bound;
import org.sue.core.Tag;
/**
 * Shape of the project's packet-stream bus: {@code tdata} of dataWidth bits (dataWidth/8 byte lanes, lane 0 first on
 * the wire), {@code tkeep} per lane (all ones except on the last beat, where it is contiguous from lane 0),
 * {@code tvalid}/{@code tready}, {@code tlast}, and {@code tuser} per-packet metadata held for every beat of a packet.
 */
public record StreamConfig(@Tag("w") int dataWidth, @Tag("u") int userWidth) {
    /** Bits of a stream's data: a power of two from 64 to 4096. */
    public static final Bound DATA_WIDTH = Bound.powerOfTwo(64, 4096);

    public StreamConfig {
        DATA_WIDTH.check("StreamConfig", "dataWidth", dataWidth);
        Bound.of(1, 1024).check("StreamConfig", "userWidth", userWidth);
    }

    public int lanes() {
        return dataWidth / 8;
    }

    /** The payload of a stream of this shape: tdata, tkeep, tlast, tuser. */
    public org.sue.core.Layout layout() {
        return Stream.packet(dataWidth, userWidth);
    }
}
