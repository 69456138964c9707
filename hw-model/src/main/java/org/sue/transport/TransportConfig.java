package org.sue.transport;

import org.sue.core.Bound;
import org.sue.core.ConfigException;
import org.sue.core.Hw;
import org.sue.core.Tag;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.FrameFormat;
import org.sue.net.SueMeta;

/**
 * Parameters of one port's transport (docs/protocol.md section 6), shared by {@link TransportTx} and
 * {@link TransportRx}.
 *
 * @param busWidth    bits of the port's bus (the transport's PDUs, the framing's stream)
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
 * @param unreachableTimeouts consecutive timeouts of a connection without an advancing ACK that declare its
 *                    destination unreachable (1..15; section 6.7)
 * @param probeCycles cycles without progress before an unreachable destination is probed again (one PDU instead of a
 *                    go-back; at least {@code rtoCycles}); with more ports also the interval at which detoured
 *                    connections try their own port again (docs/protocol.md 10.8)
 */
public record TransportConfig(@Tag("w") int busWidth, @Tag("d") int destinations, @Tag("p") int ports,
                              @Tag("s") int storeBytes, @Tag("win") int windowPdus, @Tag("rto") int rtoCycles,
                              @Tag("ad") int ackDelay, @Tag("ak") int ackCount, int opAck, int opNack,
                              int unreachableTimeouts, int probeCycles) {
    /** The largest PDU (RH and padding included) the framing carries: what one store record may hold. */
    public static final int MAX_PDU_BYTES = FrameFormat.MAX_PDU_BYTES;
    /** Width of the free-running cycle counter the timers compare against. */
    public static final int TIME_WIDTH = 32;

    private static final String NAME = "TransportConfig";
    public static final Bound PORTS = Bound.powerOfTwo(1, 4);
    /** A power of two of bus beats, at least 4 largest PDUs; at most 2^20 beats for all ports (a rule). */
    public static final Bound STORE_BYTES = Bound.powerOfTwo(4L * MAX_PDU_BYTES, 1L << 29);
    public static final Bound WINDOW_PDUS = Bound.of(4, 1 << 14).because("PSN comparisons need the window below 2^15");
    /** At least twice the timeout scan over the connections (a rule). */
    public static final Bound RTO_CYCLES = Bound.of(4, 1 << 30);
    /** Below {@code rtoCycles} (a rule). */
    public static final Bound ACK_DELAY = Bound.of(1, 1 << 30);
    /** At most {@code windowPdus / 2} (a rule). */
    public static final Bound ACK_COUNT = Bound.of(1, 1 << 13);
    public static final Bound OP_CODE = Bound.of(1, 3).because("0 means none");
    /** Strikes are counted in 4 bits. */
    public static final Bound UNREACHABLE_TIMEOUTS = Bound.of(1, 15);
    /** At least {@code rtoCycles} (a rule); below half the clock's range. */
    public static final Bound PROBE_CYCLES = Bound.of(4, 1 << 30);
    /** [ours] Timeouts without progress that declare a destination unreachable, unless set. */
    public static final int DEFAULT_UNREACHABLE_TIMEOUTS = 4;
    /** [ours] The probe interval, unless set: this many timeouts (at most {@link #PROBE_CYCLES}' top). */
    public static final int DEFAULT_PROBE_RTOS = 8;
    /** Beats of the retransmit store for all ports, at most. */
    public static final int MAX_STORE_BEATS = 1 << 20;

    public TransportConfig {
        StreamConfig.DATA_WIDTH.check(NAME, "busWidth", busWidth);
        SueMeta.DESTINATIONS.check(NAME, "destinations", destinations);
        PORTS.check(NAME, "ports", ports);
        STORE_BYTES.check(NAME, "storeBytes", storeBytes);
        long beats = (long) storeBytes / (busWidth / 8) * ports;
        if (beats > MAX_STORE_BEATS) {
            throw new ConfigException(NAME, "{storeBytes} must be at most " + MAX_STORE_BEATS / ports * (busWidth / 8)
                    + " (2^20 bus beats of " + busWidth / 8 + " bytes for all {ports} port(s)), got " + storeBytes);
        }
        WINDOW_PDUS.check(NAME, "windowPdus", windowPdus);
        RTO_CYCLES.check(NAME, "rtoCycles", rtoCycles);
        if (rtoCycles < 2 * ports * destinations) {
            throw new ConfigException(NAME, "{rtoCycles} must be at least " + 2 * ports * destinations + " (twice the"
                    + " timeout scan over {ports} x {destinations} connections), got " + rtoCycles);
        }
        ACK_DELAY.check(NAME, "ackDelay", ackDelay);
        if (ackDelay >= rtoCycles) {
            throw new ConfigException(NAME, "{ackDelay} must be below {rtoCycles} (at most " + (rtoCycles - 1)
                    + "): an ACK must beat the sender's timeout, got " + ackDelay);
        }
        ACK_COUNT.check(NAME, "ackCount", ackCount);
        if (ackCount > windowPdus / 2) {
            throw new ConfigException(NAME, "{ackCount} must be at most half of {windowPdus} (" + windowPdus / 2
                    + "), got " + ackCount);
        }
        OP_CODE.check(NAME, "opAck", opAck);
        OP_CODE.check(NAME, "opNack", opNack);
        if (opAck == opNack) {
            throw new ConfigException(NAME, "{opNack} must differ from {opAck} (" + opAck + "), got " + opNack);
        }
        UNREACHABLE_TIMEOUTS.check(NAME, "unreachableTimeouts", unreachableTimeouts);
        PROBE_CYCLES.check(NAME, "probeCycles", probeCycles);
        if (probeCycles < rtoCycles) {
            throw new ConfigException(NAME, "{probeCycles} must be at least {rtoCycles} (" + rtoCycles + "), got "
                    + probeCycles);
        }
    }

    /** The defaults: 1024 destinations, 256 KiB store, window 1024, timeout 8192 cycles, ACK after 512 cycles or 16 PDUs. */
    public static TransportConfig defaults(int busWidth) {
        return builder(busWidth).build();
    }

    /** This configuration, to change by name. */
    public Builder toBuilder() {
        return builder(busWidth).destinations(destinations).ports(ports).storeBytes(storeBytes).windowPdus(windowPdus)
                .rtoCycles(rtoCycles).ackDelay(ackDelay).ackCount(ackCount).opAck(opAck).opNack(opNack)
                .unreachableTimeouts(unreachableTimeouts).probeCycles(probeCycles);
    }

    /** The defaults for a bus, to change by name. */
    public static Builder builder(int busWidth) {
        return new Builder(busWidth);
    }

    public TransportConfig withDestinations(int d) {
        int rto = Math.max(rtoCycles, 2 * ports * d);
        return new TransportConfig(busWidth, d, ports, storeBytes, windowPdus, rto, ackDelay, ackCount, opAck, opNack,
                unreachableTimeouts, Math.max(probeCycles, rto));
    }

    public TransportConfig withPorts(int p) {
        int rto = Math.max(rtoCycles, 2 * p * destinations);
        return new TransportConfig(busWidth, destinations, p, storeBytes, windowPdus, rto, ackDelay, ackCount, opAck,
                opNack, unreachableTimeouts, Math.max(probeCycles, rto));
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

    /** Parameters by name; what is not set keeps its default ({@link #defaults}). */
    public static final class Builder {
        private int busWidth;
        private int destinations = 1024;
        private int ports = 1;
        private int storeBytes = 262144;
        private int windowPdus = 1024;
        private Integer rtoCycles; // not set: 8192, or twice the timeout scan if that is longer
        private int ackDelay = 512;
        private int ackCount = 16;
        private int opAck = 1;
        private int opNack = 2;
        private int unreachableTimeouts = DEFAULT_UNREACHABLE_TIMEOUTS;
        private Integer probeCycles; // not set: DEFAULT_PROBE_RTOS timeouts

        private Builder(int busWidth) {
            this.busWidth = busWidth;
        }

        public Builder busWidth(int v) {
            busWidth = v;
            return this;
        }

        public Builder destinations(int v) {
            destinations = v;
            return this;
        }

        public Builder ports(int v) {
            ports = v;
            return this;
        }

        public Builder storeBytes(int v) {
            storeBytes = v;
            return this;
        }

        public Builder windowPdus(int v) {
            windowPdus = v;
            return this;
        }

        public Builder rtoCycles(int v) {
            rtoCycles = v;
            return this;
        }

        public Builder ackDelay(int v) {
            ackDelay = v;
            return this;
        }

        public Builder ackCount(int v) {
            ackCount = v;
            return this;
        }

        public Builder opAck(int v) {
            opAck = v;
            return this;
        }

        public Builder opNack(int v) {
            opNack = v;
            return this;
        }

        public Builder unreachableTimeouts(int v) {
            unreachableTimeouts = v;
            return this;
        }

        public Builder probeCycles(int v) {
            probeCycles = v;
            return this;
        }

        public TransportConfig build() {
            int rto = rtoCycles != null ? rtoCycles : Math.max(8192, 2 * ports * destinations);
            int probe = probeCycles != null ? probeCycles
                    : (int) Math.min(PROBE_CYCLES.max(), (long) DEFAULT_PROBE_RTOS * rto);
            return new TransportConfig(busWidth, destinations, ports, storeBytes, windowPdus, rto, ackDelay, ackCount,
                    opAck, opNack, unreachableTimeouts, probe);
        }
    }
}
