package org.sue.link;

import org.sue.core.Hw;
import org.sue.core.Tag;
import org.sue.lib.stream.StreamConfig;

/**
 * Parameters of Link Layer Retry on one port (docs/protocol.md section 7), shared by {@link LlrTx} and
 * {@link LlrRx}; names follow the SAI LLR profile. Times are in clock cycles.
 *
 * @param dataWidth            bits of the frame bus
 * @param outstandingFramesMax unacknowledged frames at which no new eligible frame leaves (1 .. 2^18)
 * @param outstandingBytesMax  unacknowledged bytes at which no new eligible frame leaves (counted in whole bus
 *                             beats); the replay buffer holds this plus one largest frame
 * @param maxFrameBytes        the largest frame sent (64 .. 16384): sizes the replay buffer
 * @param replayTimerCycles    cycles without an advancing ACK, while frames are unacknowledged, before the whole
 *                             buffer is replayed
 * @param replayCountMax       timer replays without an advancing ACK before FLUSH (1..254; 255 = no limit)
 * @param pcsLostTimeoutCycles cycles {@code link_up} may be low before FLUSH
 * @param dataAgeTimeoutCycles cycles a frame may wait for its ACK before FLUSH; 0 = no limit
 * @param initFrameAction      eligible frames during INIT
 * @param flushFrameAction     eligible frames during FLUSH
 * @param reInitOnFlush        leave FLUSH for INIT at once; otherwise wait until {@code llr_enable} is taken low
 * @param ctlosSpacingBytes    receive: an ACK at least every this many bytes of accepted frames (400 .. 16384)
 * @param ackIdleCycles        receive, [ours]: an owed ACK also leaves after this many cycles without a new frame
 * @param initRetryCycles      transmit, [ours]: INIT is sent again after this many cycles without its INIT_ECHO
 * @param codes                link-control type codes
 */
public record LlrConfig(@Tag("w") int dataWidth, @Tag("of") int outstandingFramesMax,
                        @Tag("ob") int outstandingBytesMax, int maxFrameBytes, int replayTimerCycles,
                        int replayCountMax, int pcsLostTimeoutCycles, int dataAgeTimeoutCycles,
                        FrameAction initFrameAction, FrameAction flushFrameAction, boolean reInitOnFlush,
                        int ctlosSpacingBytes, int ackIdleCycles, int initRetryCycles, LinkControl.Codes codes) {
    /** {@code replayCountMax} that means no limit (SAI). */
    public static final int NO_REPLAY_LIMIT = 255;
    /** Width of the free-running cycle counter the timers compare against. */
    public static final int TIME_WIDTH = 32;

    public LlrConfig {
        new StreamConfig(dataWidth, 1); // validates the bus width
        check("outstandingFramesMax", outstandingFramesMax, 1, 1 << 18);
        check("maxFrameBytes", maxFrameBytes, 64, 16384);
        check("outstandingBytesMax", outstandingBytesMax, maxFrameBytes, 1 << 24);
        check("replayTimerCycles", replayTimerCycles, 16, 1 << 30);
        check("replayCountMax", replayCountMax, 1, NO_REPLAY_LIMIT);
        check("pcsLostTimeoutCycles", pcsLostTimeoutCycles, 0, 1 << 30);
        if (dataAgeTimeoutCycles != 0) {
            check("dataAgeTimeoutCycles", dataAgeTimeoutCycles, replayTimerCycles, 1 << 30);
        }
        if (initFrameAction == null || flushFrameAction == null || codes == null) {
            throw new IllegalArgumentException("LlrConfig initFrameAction, flushFrameAction and codes must be given");
        }
        check("ctlosSpacingBytes", ctlosSpacingBytes, 400, 16384);
        check("ackIdleCycles", ackIdleCycles, 1, replayTimerCycles - 1);
        check("initRetryCycles", initRetryCycles, 16, 1 << 30);
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("LlrConfig " + name + " must be " + min + ".." + max + ", got " + value);
        }
    }

    /**
     * The 800G, 40 m profile of the published LLR examples (264 frames, 135,000 bytes, replay timer 5000 ns and 3
     * replays; one cycle taken as 1 ns), SAI defaults otherwise (frames best effort in INIT and FLUSH, no re-init,
     * CtlOS spacing 2048 bytes); [ours]: PCS-lost timeout 1000 cycles, data age 100,000 cycles, ACK after 256 idle
     * cycles, INIT again after 2000 cycles.
     */
    public static LlrConfig defaults(int dataWidth) {
        return new LlrConfig(dataWidth, 264, 135_000, 9216, 5000, 3, 1000, 100_000, FrameAction.BEST_EFFORT,
                FrameAction.BEST_EFFORT, false, 2048, 256, 2000, LinkControl.Codes.defaults());
    }

    /** The same with other limits and timers (tests and small instances). */
    public LlrConfig withLimits(int frames, int bytes, int replayTimer, int replayCount) {
        return new LlrConfig(dataWidth, frames, bytes, maxFrameBytes, replayTimer, replayCount, pcsLostTimeoutCycles,
                dataAgeTimeoutCycles == 0 ? 0 : Math.max(dataAgeTimeoutCycles, replayTimer), initFrameAction,
                flushFrameAction, reInitOnFlush, ctlosSpacingBytes, Math.min(ackIdleCycles, replayTimer - 1),
                initRetryCycles, codes);
    }

    public LlrConfig withFlush(FrameAction init, FrameAction flush, boolean reInit, int pcsLostTimeout, int dataAge) {
        return new LlrConfig(dataWidth, outstandingFramesMax, outstandingBytesMax, maxFrameBytes, replayTimerCycles,
                replayCountMax, pcsLostTimeout, dataAge, init, flush, reInit, ctlosSpacingBytes, ackIdleCycles,
                initRetryCycles, codes);
    }

    public LlrConfig withMaxFrameBytes(int bytes) {
        return new LlrConfig(dataWidth, outstandingFramesMax, Math.max(outstandingBytesMax, bytes), bytes,
                replayTimerCycles, replayCountMax, pcsLostTimeoutCycles, dataAgeTimeoutCycles, initFrameAction,
                flushFrameAction, reInitOnFlush, ctlosSpacingBytes, ackIdleCycles, initRetryCycles, codes);
    }

    public int beatBytes() {
        return dataWidth / 8;
    }

    /** Beats of the replay buffer: the outstanding bytes and one largest frame, rounded up to a power of two. */
    public int bufferBeats() {
        long beats = ((long) outstandingBytesMax + maxFrameBytes + beatBytes() - 1) / beatBytes() + 1;
        return 1 << Hw.log2Up(beats);
    }

    /** Records of the replay buffer, one per outstanding frame, indexed by sequence number. */
    public int recordCount() {
        return 1 << Hw.log2Up(outstandingFramesMax + 1L);
    }

    /** Bus beats of the largest frame. */
    public int maxFrameBeats() {
        return (maxFrameBytes + beatBytes() - 1) / beatBytes();
    }
}
