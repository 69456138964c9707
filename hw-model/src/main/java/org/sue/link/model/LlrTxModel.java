package org.sue.link.model;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sue.link.FrameAction;
import org.sue.link.LinkControl;
import org.sue.link.LlrConfig;
import org.sue.link.LlrTx.LlrTxState;

/**
 * Plain-Java reference of what LLR transmit may send (docs/protocol.md section 7.3), checked frame by frame as frames
 * leave: a frame without a sequence number, or with the next new number, is the next frame offered (numbers count up
 * by one from the last INIT's, and an INIT after the first carries the next new number); any other numbered frame is
 * a replay, byte for byte the frame first sent with that number; at no time are more than
 * {@code outstandingFramesMax} frames unacknowledged by the ACKs it took. Frames the transmitter discards (the DISCARD
 * action) are skipped. Cycle by cycle ({@link #cycle}), the rule of a FLUSH: with {@code reInitOnFlush} it is
 * followed by INIT while {@code llr_enable} is high, each such return counted; without, it lasts until
 * {@code llr_enable} is low; and an INIT leaves only while {@code link_up} is high.
 */
public final class LlrTxModel {
    private static final int MASK = (1 << LinkControl.SEQ_WIDTH) - 1;
    private final List<byte[]> offered;
    private final int framesMax;
    private final boolean discardAllowed;
    private final boolean reInitOnFlush;
    private final Map<Integer, byte[]> numbered = new HashMap<>();
    private int nextOffered;
    private int una;
    private int next;
    private boolean started;
    private long replayed;
    private long replayedSinceInit;
    private long skipped;
    private long reinits;
    private LlrTxState lastState;
    private boolean lastEnable;

    public LlrTxModel(List<byte[]> offered, LlrConfig config) {
        this.offered = offered;
        this.framesMax = config.outstandingFramesMax();
        this.discardAllowed = config.initFrameAction() == FrameAction.DISCARD
                || config.flushFrameAction() == FrameAction.DISCARD;
        this.reInitOnFlush = config.reInitOnFlush();
    }

    /** The INIT the transmitter sent: numbering starts (again) at {@code value}, nothing is outstanding. */
    public void init(int value) {
        if (started && (value & MASK) != next) {
            throw new AssertionError("INIT with " + value + ", not the next new number " + next);
        }
        next = value & MASK;
        una = next;
        started = true;
        replayedSinceInit = 0;
    }

    /**
     * The transmitter's state this cycle, its {@code link_up} and {@code llr_enable}, and whether an INIT leaves;
     * throws if the state does not follow from the last cycle's by the rule of a FLUSH.
     */
    public void cycle(LlrTxState state, boolean linkUp, boolean enable, boolean initSent) {
        if (initSent && !linkUp) {
            throw new AssertionError("an INIT sent while link_up is low");
        }
        if (lastState == LlrTxState.FLUSH) {
            boolean reInit = reInitOnFlush && lastEnable;
            boolean off = state == LlrTxState.OFF && !lastEnable;
            if (state != (reInit ? LlrTxState.INIT : LlrTxState.FLUSH) && !off) {
                throw new AssertionError(state + " after FLUSH with llr_enable " + lastEnable
                        + (reInitOnFlush ? " (re-init on flush)" : " (no re-init)"));
            }
            reinits += reInit ? 1 : 0;
        }
        lastState = state;
        lastEnable = enable;
    }

    /** An ACK or NACK the transmitter took (it was in ADVANCE or REPLAY): frees up to {@code value} if in window. */
    public void acked(int value) {
        int covered = (value + 1 - una) & MASK;
        if (covered <= ((next - una) & MASK)) {
            una = (value + 1) & MASK;
        }
    }

    /** A frame left the transmitter; throws if it may not have. */
    public void sent(byte[] bytes, boolean llr, int seq) {
        if (!llr) {
            takeOffered(bytes, " without a number");
            return;
        }
        if (!started) {
            throw new AssertionError("frame numbered " + seq + " before any INIT");
        }
        if (seq == next) {
            takeOffered(bytes, " numbered " + seq);
            numbered.put(seq, bytes);
            next = (next + 1) & MASK;
            int outstanding = (next - una) & MASK;
            if (outstanding > framesMax) {
                throw new AssertionError(outstanding + " frames unacknowledged, more than " + framesMax);
            }
            return;
        }
        byte[] first = numbered.get(seq);
        if (first == null || !Arrays.equals(first, bytes)) {
            throw new AssertionError("frame numbered " + seq + " is not a replay of the frame first sent with it"
                    + " (next new number " + next + ")");
        }
        replayed++;
        replayedSinceInit++;
    }

    private boolean isNextOffered(byte[] bytes) {
        return nextOffered < offered.size() && Arrays.equals(offered.get(nextOffered), bytes);
    }

    private void takeOffered(byte[] bytes, String what) {
        while (discardAllowed && nextOffered < offered.size() && !isNextOffered(bytes)) {
            nextOffered++;
            skipped++;
        }
        if (!isNextOffered(bytes)) {
            throw new AssertionError("a new frame" + what + " is not the next frame offered (#" + nextOffered + ")");
        }
        nextOffered++;
    }

    public long replayed() {
        return replayed;
    }

    /** Replayed frames since the last INIT. */
    public long replayedSinceInit() {
        return replayedSinceInit;
    }

    /** Returns from FLUSH to INIT by {@code reInitOnFlush}. */
    public long reinits() {
        return reinits;
    }

    /** Offered frames the transmitter discarded. */
    public long skipped() {
        return skipped;
    }

    /** Offered frames that left (or were discarded). */
    public int taken() {
        return nextOffered;
    }
}
