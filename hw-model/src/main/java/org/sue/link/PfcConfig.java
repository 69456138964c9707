package org.sue.link;

import org.sue.core.Tag;
import org.sue.lib.stream.StreamConfig;
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
 */
public record PfcConfig(@Tag("w") int dataWidth, @Tag("m") int vcClasses, int bitsPerCycle, int pauseQuanta,
                        int refreshCycles, @Tag("xoff") int xoffBytes, @Tag("xon") int xonBytes) {
    public static final int CLASSES = 8;
    /** Bits of a receive-buffer level input. */
    public static final int LEVEL_WIDTH = 24;
    /** The PFC frame's destination, the IEEE 802.3 MAC Control address. */
    public static final long DESTINATION = 0x0180C2000001L;
    public static final int ETHER_TYPE = 0x8808;
    public static final int OPCODE = 0x0101;

    public PfcConfig {
        new StreamConfig(dataWidth, 1); // validates the bus width
        check("vcClasses", vcClasses, 0, (1 << 3 * SueMeta.VCS) - 1);
        if (bitsPerCycle < 64 || bitsPerCycle > 4096 || Integer.bitCount(bitsPerCycle) != 1) {
            throw new IllegalArgumentException("PfcConfig bitsPerCycle must be a power of two 64..4096, got "
                    + bitsPerCycle);
        }
        check("pauseQuanta", pauseQuanta, 1, 0xFFFF);
        long pause = pauseCycles(pauseQuanta, bitsPerCycle);
        check("refreshCycles", refreshCycles, 16, pause - 1);
        check("xoffBytes", xoffBytes, 1, (1 << LEVEL_WIDTH) - 1);
        check("xonBytes", xonBytes, 0, xoffBytes - 1);
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("PfcConfig " + name + " must be " + min + ".." + max + ", got " + value);
        }
    }

    /** {@code vcClasses} from the priority of VC 0, 1, 2, 3. */
    public static int classes(int... perVc) {
        if (perVc.length != SueMeta.VCS) {
            throw new IllegalArgumentException("PfcConfig.classes needs a priority for each of the " + SueMeta.VCS
                    + " VCs, got " + perVc.length);
        }
        int packed = 0;
        for (int v = 0; v < perVc.length; v++) {
            if (perVc[v] < 0 || perVc[v] >= CLASSES) {
                throw new IllegalArgumentException("PfcConfig priority of VC " + v + " must be 0..7, got " + perVc[v]);
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
        int quanta = 0xFFFF;
        return new PfcConfig(dataWidth, classes(0, 1, 2, 3), dataWidth, quanta,
                (int) (pauseCycles(quanta, dataWidth) / 2), 16384, 8192);
    }

    /** The same with other thresholds. */
    public PfcConfig withThresholds(int xoff, int xon) {
        return new PfcConfig(dataWidth, vcClasses, bitsPerCycle, pauseQuanta, refreshCycles, xoff, xon);
    }

    /** The same with another VC to priority map, pause and refresh. */
    public PfcConfig withPause(int classes, int quanta, int refresh) {
        return new PfcConfig(dataWidth, classes, bitsPerCycle, quanta, refresh, xoffBytes, xonBytes);
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
}
