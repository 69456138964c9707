package org.sue.link;

import org.sue.core.Bound;
import org.sue.core.ConfigException;
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
 * @param reInitOnFlush        [ours] default true: leave FLUSH for INIT at once, whose INIT leaves as soon as
 *                             {@code link_up} is high, so LLR comes back by itself after a link flap; false: stay in
 *                             FLUSH until management takes {@code llr_enable} low (SAI's default)
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

    private static final String NAME = "LlrConfig";
    public static final Bound OUTSTANDING_FRAMES_MAX = Bound.of(1, 1 << 18);
    /** At least {@code maxFrameBytes} (a rule). */
    public static final Bound OUTSTANDING_BYTES_MAX = Bound.of(64, 1 << 24);
    public static final Bound MAX_FRAME_BYTES = Bound.of(64, 16384);
    public static final Bound REPLAY_TIMER_CYCLES = Bound.of(16, 1 << 30);
    public static final Bound REPLAY_COUNT_MAX = Bound.of(1, NO_REPLAY_LIMIT).because(NO_REPLAY_LIMIT + ": no limit");
    public static final Bound PCS_LOST_TIMEOUT_CYCLES = Bound.of(0, 1 << 30);
    /** At least {@code replayTimerCycles} unless 0 (a rule). */
    public static final Bound DATA_AGE_TIMEOUT_CYCLES = Bound.of(16, 1 << 30).orZero().because("0: no limit");
    public static final Bound CTLOS_SPACING_BYTES = Bound.of(400, 16384);
    /** Below {@code replayTimerCycles} (a rule). */
    public static final Bound ACK_IDLE_CYCLES = Bound.of(1, 1 << 30);
    public static final Bound INIT_RETRY_CYCLES = Bound.of(16, 1 << 30);

    public LlrConfig {
        StreamConfig.DATA_WIDTH.check(NAME, "dataWidth", dataWidth);
        OUTSTANDING_FRAMES_MAX.check(NAME, "outstandingFramesMax", outstandingFramesMax);
        MAX_FRAME_BYTES.check(NAME, "maxFrameBytes", maxFrameBytes);
        OUTSTANDING_BYTES_MAX.check(NAME, "outstandingBytesMax", outstandingBytesMax);
        if (outstandingBytesMax < maxFrameBytes) {
            throw new ConfigException(NAME, "{outstandingBytesMax} must be at least {maxFrameBytes} (" + maxFrameBytes
                    + "), got " + outstandingBytesMax);
        }
        REPLAY_TIMER_CYCLES.check(NAME, "replayTimerCycles", replayTimerCycles);
        REPLAY_COUNT_MAX.check(NAME, "replayCountMax", replayCountMax);
        PCS_LOST_TIMEOUT_CYCLES.check(NAME, "pcsLostTimeoutCycles", pcsLostTimeoutCycles);
        DATA_AGE_TIMEOUT_CYCLES.check(NAME, "dataAgeTimeoutCycles", dataAgeTimeoutCycles);
        if (dataAgeTimeoutCycles != 0 && dataAgeTimeoutCycles < replayTimerCycles) {
            throw new ConfigException(NAME, "{dataAgeTimeoutCycles} must be 0 (no limit) or at least"
                    + " {replayTimerCycles} (" + replayTimerCycles + "), got " + dataAgeTimeoutCycles);
        }
        if (initFrameAction == null || flushFrameAction == null || codes == null) {
            throw new IllegalArgumentException("LlrConfig initFrameAction, flushFrameAction and codes must be given");
        }
        CTLOS_SPACING_BYTES.check(NAME, "ctlosSpacingBytes", ctlosSpacingBytes);
        ACK_IDLE_CYCLES.check(NAME, "ackIdleCycles", ackIdleCycles);
        if (ackIdleCycles >= replayTimerCycles) {
            throw new ConfigException(NAME, "{ackIdleCycles} must be below {replayTimerCycles} (at most "
                    + (replayTimerCycles - 1) + "), got " + ackIdleCycles);
        }
        INIT_RETRY_CYCLES.check(NAME, "initRetryCycles", initRetryCycles);
    }

    /**
     * The 800G, 40 m profile of the published LLR examples (264 frames, 135,000 bytes, replay timer 5000 ns and 3
     * replays; one cycle taken as 1 ns), SAI defaults otherwise (frames best effort in INIT and FLUSH, CtlOS spacing
     * 2048 bytes); [ours]: re-init after a FLUSH, PCS-lost timeout 1000 cycles, data age 100,000
     * cycles, ACK after 256 idle cycles, INIT again after 2000 cycles.
     */
    public static LlrConfig defaults(int dataWidth) {
        return builder().build(dataWidth);
    }

    /** The defaults ({@link #defaults}), to change by name. */
    public static Builder builder() {
        return new Builder();
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

    /**
     * Parameters by name, the bus width given at {@link #build}; what is not set keeps its default ({@link #defaults}),
     * or follows what is: the outstanding bytes hold at least the largest frame, the data age is at least the replay
     * timer and the idle ACK comes before it.
     */
    public static final class Builder {
        private int outstandingFramesMax = 264;
        private Integer outstandingBytesMax; // not set: 135,000, at least maxFrameBytes
        private int maxFrameBytes = 9216;
        private int replayTimerCycles = 5000;
        private int replayCountMax = 3;
        private int pcsLostTimeoutCycles = 1000;
        private Integer dataAgeTimeoutCycles; // not set: 100,000, at least the replay timer
        private FrameAction initFrameAction = FrameAction.BEST_EFFORT;
        private FrameAction flushFrameAction = FrameAction.BEST_EFFORT;
        private boolean reInitOnFlush = true;
        private int ctlosSpacingBytes = 2048;
        private Integer ackIdleCycles; // not set: 256, below the replay timer
        private int initRetryCycles = 2000;
        private LinkControl.Codes codes = LinkControl.Codes.defaults();

        private Builder() {
        }

        public Builder outstandingFramesMax(int v) {
            outstandingFramesMax = v;
            return this;
        }

        public Builder outstandingBytesMax(int v) {
            outstandingBytesMax = v;
            return this;
        }

        public Builder maxFrameBytes(int v) {
            maxFrameBytes = v;
            return this;
        }

        public Builder replayTimerCycles(int v) {
            replayTimerCycles = v;
            return this;
        }

        public Builder replayCountMax(int v) {
            replayCountMax = v;
            return this;
        }

        public Builder pcsLostTimeoutCycles(int v) {
            pcsLostTimeoutCycles = v;
            return this;
        }

        public Builder dataAgeTimeoutCycles(int v) {
            dataAgeTimeoutCycles = v;
            return this;
        }

        public Builder initFrameAction(FrameAction v) {
            initFrameAction = v;
            return this;
        }

        public Builder flushFrameAction(FrameAction v) {
            flushFrameAction = v;
            return this;
        }

        public Builder reInitOnFlush(boolean v) {
            reInitOnFlush = v;
            return this;
        }

        public Builder ctlosSpacingBytes(int v) {
            ctlosSpacingBytes = v;
            return this;
        }

        public Builder ackIdleCycles(int v) {
            ackIdleCycles = v;
            return this;
        }

        public Builder initRetryCycles(int v) {
            initRetryCycles = v;
            return this;
        }

        public Builder codes(LinkControl.Codes v) {
            codes = v;
            return this;
        }

        public LlrConfig build(int dataWidth) {
            return new LlrConfig(dataWidth, outstandingFramesMax,
                    outstandingBytesMax != null ? outstandingBytesMax : Math.max(135_000, maxFrameBytes), maxFrameBytes,
                    replayTimerCycles, replayCountMax, pcsLostTimeoutCycles,
                    dataAgeTimeoutCycles != null ? dataAgeTimeoutCycles : Math.max(100_000, replayTimerCycles),
                    initFrameAction, flushFrameAction, reInitOnFlush, ctlosSpacingBytes,
                    ackIdleCycles != null ? ackIdleCycles : Math.max(1, Math.min(256, replayTimerCycles - 1)),
                    initRetryCycles, codes);
        }
    }
}
