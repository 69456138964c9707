package org.sue.link;

import org.sue.core.Bound;
import org.sue.core.ConfigException;
import org.sue.core.Tag;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.NetConfig;
import org.sue.net.SueMeta;

/**
 * Parameters of Priority-based Flow Control (IEEE 802.1Qbb) on one port (docs/protocol.md section 9), shared by
 * {@link PfcPause} (obeys the peer's PFC frames) and {@link PfcGenerator} (sends them for this port's receive
 * buffers).
 *
 * @param dataWidth     bits of the frame bus
 * @param vcClasses     the priority (0..7) of each VC, 3 bits per VC, VC 0 in the low bits ({@link #classes})
 * @param bitsPerCycle  line bits per clock cycle, a power of two 64..4096: a quantum of 512 bit times lasts
 *                      {@code 512 / bitsPerCycle} cycles ([ours]: the bus carries the line rate, so the default is
 *                      the bus width)
 * @param pauseQuanta   the pause time an XOFF frame asks for (1..65535 quanta)
 * @param refreshCycles an XOFF is sent again after this many cycles while its class stays off; below the pause time
 *                      so that the peer never resumes on its own
 * @param xoffBytes     a VC's receive buffer at or above this many bytes turns its class off
 * @param xonBytes      a class goes back on when all its VCs' buffers are at or below this many bytes
 * @param sharedXoffBytes the VCs' buffers together ({@code level_total}) at or above this many bytes turn every class
 *                      off, until they are at or below half of it; 0: no shared threshold (no {@code level_total}).
 *                      For VCs that share one buffer: a VC's XOFF alone keeps it lossless only if the buffer holds
 *                      every VC's XOFF plus headroom at once, the shared threshold with one headroom
 *                      ({@link #headroomBytes})
 */
public record PfcConfig(@Tag("w") int dataWidth, @Tag("m") int vcClasses, int bitsPerCycle, int pauseQuanta,
                        int refreshCycles, @Tag("xoff") int xoffBytes, @Tag("xon") int xonBytes,
                        int sharedXoffBytes) {
    public static final int CLASSES = 8;
    /** Bits of a receive-buffer level input. */
    public static final int LEVEL_WIDTH = 24;
    /** The PFC frame's destination, the IEEE 802.3 MAC Control address. */
    public static final long DESTINATION = 0x0180C2000001L;
    public static final int ETHER_TYPE = 0x8808;
    public static final int OPCODE = 0x0101;

    private static final String NAME = "PfcConfig";
    /** A class: an 802.1Q priority. */
    public static final Bound PRIORITY = NetConfig.PCP;
    public static final Bound BITS_PER_CYCLE = Bound.powerOfTwo(64, 4096);
    public static final Bound PAUSE_QUANTA = Bound.of(1, 0xFFFF);
    /** Below the pause time (a rule). */
    public static final Bound REFRESH_CYCLES = Bound.of(16, 1 << 30);
    public static final Bound XOFF_BYTES = Bound.of(1, (1 << LEVEL_WIDTH) - 1);
    /** Below {@code xoffBytes} (a rule). */
    public static final Bound XON_BYTES = Bound.of(0, (1 << LEVEL_WIDTH) - 2);
    /** 0: none. */
    public static final Bound SHARED_XOFF_BYTES = Bound.of(0, (1 << LEVEL_WIDTH) - 1);
    /**
     * [ours] The one-way link delay (cable, MAC and PHY, in cycles) the default shared threshold leaves headroom for
     * ({@link Builder#build(int, long, long)}).
     */
    public static final int DEFAULT_LINK_DELAY_CYCLES = 64;

    public PfcConfig {
        StreamConfig.DATA_WIDTH.check(NAME, "dataWidth", dataWidth);
        Bound.of(0, (1 << 3 * SueMeta.VCS) - 1).check(NAME, "vcClasses", vcClasses);
        BITS_PER_CYCLE.check(NAME, "bitsPerCycle", bitsPerCycle);
        PAUSE_QUANTA.check(NAME, "pauseQuanta", pauseQuanta);
        REFRESH_CYCLES.check(NAME, "refreshCycles", refreshCycles);
        long pause = pauseCycles(pauseQuanta, bitsPerCycle);
        if (refreshCycles >= pause) {
            throw new ConfigException(NAME, "{refreshCycles} must be below the pause time, {pauseQuanta} x 512 /"
                    + " {bitsPerCycle} = " + pause + " cycles (at most " + (pause - 1) + "), got " + refreshCycles);
        }
        XOFF_BYTES.check(NAME, "xoffBytes", xoffBytes);
        XON_BYTES.check(NAME, "xonBytes", xonBytes);
        if (xonBytes >= xoffBytes) {
            throw new ConfigException(NAME, "{xonBytes} must be below {xoffBytes} (at most " + (xoffBytes - 1)
                    + "), got " + xonBytes);
        }
        SHARED_XOFF_BYTES.check(NAME, "sharedXoffBytes", sharedXoffBytes);
    }

    /** Whether the VCs' buffers together have a threshold ({@code level_total}). */
    public boolean shared() {
        return sharedXoffBytes != 0;
    }

    /**
     * Bytes the peer can still deliver after a buffer reaches a threshold (docs/protocol.md 9.3): the largest frame
     * this port is sending, the PFC frame's beats and 4 cycles, the link delay both ways, and the frames the peer has
     * started or committed to ({@code peerFramesAhead} largest frames: pauses act between frames).
     */
    public static long headroomBytes(int dataWidth, int largestFrame, int peerFramesAhead, long linkDelayCycles) {
        int beat = dataWidth / 8;
        return (1L + peerFramesAhead) * largestFrame + (2 * linkDelayCycles + 4 + (64 + beat - 1) / beat) * beat;
    }

    /** {@code vcClasses} from the priority of VC 0, 1, 2, 3. */
    public static int classes(int... perVc) {
        if (perVc.length != SueMeta.VCS) {
            throw new IllegalArgumentException("PfcConfig.classes needs a priority for each of the " + SueMeta.VCS
                    + " VCs, got " + perVc.length);
        }
        int packed = 0;
        for (int v = 0; v < perVc.length; v++) {
            if (!PRIORITY.contains(perVc[v])) {
                throw new ConfigException(NAME, "priority of VC " + v + " in {vcClasses} must be " + PRIORITY.text()
                        + ", got " + perVc[v]);
            }
            packed |= perVc[v] << 3 * v;
        }
        return packed;
    }

    /**
     * VC v at priority v, the bus carrying the line rate, pauses of 65535 quanta refreshed at half their time;
     * [ours] XOFF at 16 KiB in a VC's buffer, XON at 8 KiB.
     */
    public static PfcConfig defaults(int dataWidth) {
        return builder().build(dataWidth);
    }

    /** The defaults ({@link #defaults}), to change by name. */
    public static Builder builder() {
        return new Builder();
    }

    /** The same with other thresholds. */
    public PfcConfig withThresholds(int xoff, int xon) {
        return new PfcConfig(dataWidth, vcClasses, bitsPerCycle, pauseQuanta, refreshCycles, xoff, xon,
                sharedXoffBytes);
    }

    /** The same with another shared threshold (0: none). */
    public PfcConfig withSharedXoff(int bytes) {
        return new PfcConfig(dataWidth, vcClasses, bitsPerCycle, pauseQuanta, refreshCycles, xoffBytes, xonBytes,
                bytes);
    }

    /** The same with another VC to priority map, pause and refresh. */
    public PfcConfig withPause(int classes, int quanta, int refresh) {
        return new PfcConfig(dataWidth, classes, bitsPerCycle, quanta, refresh, xoffBytes, xonBytes, sharedXoffBytes);
    }

    public int classOf(int vc) {
        return vcClasses >> 3 * vc & 7;
    }

    /** The priorities some VC maps to: the class-enable vector of the frames this port sends. */
    public int usedClasses() {
        int used = 0;
        for (int v = 0; v < SueMeta.VCS; v++) {
            used |= 1 << classOf(v);
        }
        return used;
    }

    /** Cycles a pause of {@code quanta} lasts: {@code ceil(quanta x 512 / bitsPerCycle)}. */
    public long pauseCycles(int quanta) {
        return pauseCycles(quanta, bitsPerCycle);
    }

    private static long pauseCycles(int quanta, int bitsPerCycle) {
        return ((long) quanta * 512 + bitsPerCycle - 1) / bitsPerCycle;
    }

    /**
     * Parameters by name, the bus width given at {@link #build}; what is not set keeps its default ({@link #defaults})
     * where that fits the parameters that are set, and follows them where it would not: the refresh comes at half the
     * pause time when the default refresh would not come before the pause ends, XON is half of XOFF when the default
     * XON is not below it, and for a receive buffer the VCs share ({@link #build(int, long, long)}) XOFF is at most an
     * eighth of it and the shared threshold leaves the headroom below its top.
     */
    public static final class Builder {
        private int vcClasses = classes(0, 1, 2, 3);
        private Integer bitsPerCycle; // not set: the bus width
        private int pauseQuanta = 0xFFFF;
        private Integer refreshCycles;
        private Integer xoffBytes;
        private Integer xonBytes;
        private Integer sharedXoffBytes;

        private Builder() {
        }

        public Builder vcClasses(int v) {
            vcClasses = v;
            return this;
        }

        public Builder bitsPerCycle(int v) {
            bitsPerCycle = v;
            return this;
        }

        public Builder pauseQuanta(int v) {
            pauseQuanta = v;
            return this;
        }

        public Builder refreshCycles(int v) {
            refreshCycles = v;
            return this;
        }

        public Builder xoffBytes(int v) {
            xoffBytes = v;
            return this;
        }

        public Builder xonBytes(int v) {
            xonBytes = v;
            return this;
        }

        /** 0: no shared threshold. */
        public Builder sharedXoffBytes(int v) {
            sharedXoffBytes = v;
            return this;
        }

        /** For buffers of their own per VC: no shared threshold unless set. */
        public PfcConfig build(int dataWidth) {
            return build(dataWidth, Long.MAX_VALUE, 0);
        }

        /**
         * For a port whose VCs share a receive buffer of {@code sharedBytes}: XOFF, unless set, at most an eighth of
         * it, so that the four VCs' XOFF levels take half of it and leave the rest for the frames in flight; the
         * shared threshold, unless set, {@code headroomBytes} below its top (at least 1).
         */
        public PfcConfig build(int dataWidth, long sharedBytes, long headroomBytes) {
            int bits = bitsPerCycle != null ? bitsPerCycle : dataWidth;
            long pause = pauseCycles(pauseQuanta, bits);
            long usual = pauseCycles(0xFFFF, dataWidth) / 2;
            long refresh = refreshCycles != null ? refreshCycles : usual < pause ? usual : pause / 2;
            int xoff = xoffBytes != null ? xoffBytes : (int) Math.max(1, Math.min(16384, sharedBytes / 8));
            int xon = xonBytes != null ? xonBytes : 8192 < xoff ? 8192 : xoff / 2;
            int shared = sharedXoffBytes != null ? sharedXoffBytes : sharedBytes == Long.MAX_VALUE ? 0
                    : (int) Math.max(1, Math.min(SHARED_XOFF_BYTES.max(), sharedBytes - headroomBytes));
            return new PfcConfig(dataWidth, vcClasses, bits, pauseQuanta, (int) Math.min(refresh, 1 << 30), xoff,
                    xon, shared);
        }
    }
}
