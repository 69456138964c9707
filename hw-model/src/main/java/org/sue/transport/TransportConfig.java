package org.sue.transport;

import org.sue.core.Hw;
import org.sue.core.Tag;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.FrameFormat;
import org.sue.net.SueMeta;

/**
 * Parameters of one port's transport (docs/protocol.md section 6), shared by {@link TransportTx} and
 * {@link TransportRx}.
 *
 * @param busWidth    bits of the PDU bus (the packing buffer's cells, the framing's stream)
 * @param destinations connections per port: remote XPUs 0 .. destinations - 1 (power of two, 2..1024)
 * @param ports       SUE ports whose connections this transport keeps: 1, 2 or 4 (tables hold
 *                    {@code ports x destinations} rows, {port, XPU}; the PDU's port is its {@code port} field)
 * @param storeBytes  retransmit store per port, bytes (a power of two of bus beats, at least 4 largest PDUs); one
 *                    store of {@code ports x storeBytes} is shared by all connections
 * @param windowPdus  unacknowledged PDUs per connection before it stops being eligible (4 .. 2^14)
 * @param rtoCycles   retransmit timeout, cycles without progress (section 6.5)
 * @param ackDelay    cycles an owed ACK waits for a PDU to ride on before an ACK-only PDU carries it
 * @param ackCount    accepted PDUs from one XPU that make its owed ACK leave at once
 * @param opAck       RH {@code op} code of an ACK (1..3)
 * @param opNack      RH {@code op} code of a NACK (1..3, not {@code opAck})
 */
public record TransportConfig(@Tag("w") int busWidth, @Tag("d") int destinations, @Tag("p") int ports,
                              @Tag("s") int storeBytes, @Tag("win") int windowPdus, @Tag("rto") int rtoCycles,
                              @Tag("ad") int ackDelay, @Tag("ak") int ackCount, int opAck, int opNack) {
    /** The largest PDU (RH and padding included) the framing carries: what one store record may hold. */
    public static final int MAX_PDU_BYTES = FrameFormat.MAX_PDU_BYTES;
    /** Width of the free-running cycle counter the timers compare against. */
    public static final int TIME_WIDTH = 32;

    public TransportConfig {
        new StreamConfig(busWidth, SueMeta.WIDTH); // validates the bus width
        if (destinations < 2 || destinations > 1 << SueMeta.XPU_WIDTH || Integer.bitCount(destinations) != 1) {
            throw new IllegalArgumentException("TransportConfig destinations must be a power of two from 2 to "
                    + (1 << SueMeta.XPU_WIDTH) + ", got " + destinations);
        }
        if (ports != 1 && ports != 2 && ports != 4) {
            throw new IllegalArgumentException("TransportConfig ports must be 1, 2 or 4, got " + ports);
        }
        int beatBytes = busWidth / 8;
        long beats = storeBytes / beatBytes;
        if (storeBytes % beatBytes != 0 || Long.bitCount(beats) != 1 || storeBytes < 4L * MAX_PDU_BYTES
                || beats * ports > 1 << 20) {
            throw new IllegalArgumentException("TransportConfig storeBytes must be a power of two of " + beatBytes
                    + "-byte bus beats, at least 4 PDUs of " + MAX_PDU_BYTES + " bytes (" + 4 * MAX_PDU_BYTES
                    + ") and at most 2^20 beats for all " + ports + " port(s), got " + storeBytes);
        }
        if (windowPdus < 4 || windowPdus > 1 << 14) {
            throw new IllegalArgumentException("TransportConfig windowPdus must be 4..16384 (PSN comparisons need"
                    + " the window below 2^15), got " + windowPdus);
        }
        if (rtoCycles < 2 * ports * destinations || rtoCycles > 1 << 30) {
            throw new IllegalArgumentException("TransportConfig rtoCycles must be " + 2 * ports * destinations
                    + " (twice the timeout scan over the connections) .. 2^30, got " + rtoCycles);
        }
        if (ackDelay < 1 || ackDelay >= rtoCycles) {
            throw new IllegalArgumentException("TransportConfig ackDelay must be 1 .. rtoCycles - 1 (" + (rtoCycles - 1)
                    + "): an ACK must beat the sender's timeout, got " + ackDelay);
        }
        if (ackCount < 1 || ackCount > windowPdus / 2) {
            throw new IllegalArgumentException("TransportConfig ackCount must be 1 .. windowPdus / 2 ("
                    + windowPdus / 2 + "), got " + ackCount);
        }
        if (opAck < 1 || opAck > 3 || opNack < 1 || opNack > 3 || opAck == opNack) {
            throw new IllegalArgumentException("TransportConfig opAck and opNack must be distinct codes 1..3 (0 means"
                    + " none), got opAck=" + opAck + " opNack=" + opNack);
        }
    }

    /** The defaults: 1024 destinations, 256 KiB store, window 1024, timeout 8192 cycles, ACK after 512 cycles or 16 PDUs. */
    public static TransportConfig defaults(int busWidth) {
        return new TransportConfig(busWidth, 1024, 1, 262144, 1024, 8192, 512, 16, 1, 2);
    }

    public TransportConfig withDestinations(int d) {
        return new TransportConfig(busWidth, d, ports, storeBytes, windowPdus, Math.max(rtoCycles, 2 * ports * d),
                ackDelay, ackCount, opAck, opNack);
    }

    public TransportConfig withPorts(int p) {
        return new TransportConfig(busWidth, destinations, p, storeBytes, windowPdus,
                Math.max(rtoCycles, 2 * p * destinations), ackDelay, ackCount, opAck, opNack);
    }

    public int beatBytes() {
        return busWidth / 8;
    }

    /** Bus beats the retransmit store holds (all ports). */
    public int storeBeats() {
        return storeBytes / beatBytes() * ports;
    }

    /** Connections: one per {port, remote XPU}. */
    public int connections() {
        return ports * destinations;
    }

    /** Bits of a port number in a connection index (0 with one port). */
    public int portWidth() {
        return Integer.numberOfTrailingZeros(ports);
    }

    /** Bits of a connection index. */
    public int connectionWidth() {
        return Hw.log2Up(connections());
    }
}
