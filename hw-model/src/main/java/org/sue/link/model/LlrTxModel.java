package org.sue.link.model;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sue.link.LinkControl;

/**
 * Plain-Java reference of what LLR transmit may send (docs/protocol.md section 7.3), checked frame by frame as frames
 * leave: a frame without a sequence number, or with the next new number, is the next frame offered (numbers count up
 * by one from the last INIT's); any other numbered frame is a replay, byte for byte the frame first sent with that
 * number; at no time are more than {@code outstandingFramesMax} frames unacknowledged by the ACKs it took. Frames the transmitter discards (the DISCARD action) are skipped when {@code discardAllowed}.
 */
public final class LlrTxModel {
    private static final int MASK = (1 << LinkControl.SEQ_WIDTH) - 1;
    private final List<byte[]> offered;
    private final int framesMax;
    private final boolean discardAllowed;
    private final Map<Integer, byte[]> numbered = new HashMap<>();
    private int nextOffered;
    private int una;
    private int next;
    private boolean started;
    private long replayed;
    private long skipped;

    public LlrTxModel(List<byte[]> offered, int framesMax, boolean discardAllowed) {
        this.offered = offered;
        this.framesMax = framesMax;
        this.discardAllowed = discardAllowed;
    }

    /** The INIT the transmitter sent: numbering starts (again) at {@code value}, nothing is outstanding. */
    public void init(int value) {
        next = value & MASK;
        una = next;
        started = true;
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

    /** Offered frames the transmitter discarded. */
    public long skipped() {
        return skipped;
    }

    /** Offered frames that left (or were discarded). */
    public int taken() {
        return nextOffered;
    }
}
