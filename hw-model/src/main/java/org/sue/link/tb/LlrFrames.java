package org.sue.link.tb;

import java.math.BigInteger;
import java.util.Random;
import org.sue.link.LinkControl;
import org.sue.link.LlrSideband;

/**
 * Frames as an LLR receiver may see them from a link: mostly the next sequence number, with losses (a jump ahead),
 * replays (a step back, or {@link #goBackTo} as the sender's answer to a NACK), stray numbers, frames without a
 * sequence number, bad and poisoned frames; one to three beats of random bytes each.
 */
public final class LlrFrames {
    /** A frame and its MAC sideband. */
    public record Frame(byte[] bytes, boolean llr, int seq, boolean bad, boolean poisoned) {
        public BigInteger rxUser() {
            return LlrSideband.RX.word().set("seq", seq).set("llr", llr ? 1 : 0).set("bad", bad ? 1 : 0)
                    .set("poisoned", poisoned ? 1 : 0).toBigInteger();
        }
    }

    private static final int MASK = (1 << LinkControl.SEQ_WIDTH) - 1;
    private final Random rnd;
    private final int lanes;
    private int next;

    public LlrFrames(Random rnd, int lanes) {
        this.rnd = rnd;
        this.lanes = lanes;
        this.next = rnd.nextInt(1 << LinkControl.SEQ_WIDTH);
    }

    /** The sequence number the sender would use next. */
    public int nextSeq() {
        return next;
    }

    /** Continue from {@code seq}, as a sender does on a NACK or when its replay timer fires. */
    public void goBackTo(int seq) {
        next = seq & MASK;
    }

    public Frame next() {
        byte[] b = new byte[1 + rnd.nextInt(3 * lanes)];
        rnd.nextBytes(b);
        int r = rnd.nextInt(100);
        if (r < 5) {
            return new Frame(b, false, 0, rnd.nextInt(10) == 0, false);
        }
        if (r < 9) {
            next = (next + 1 + rnd.nextInt(3)) & MASK; // lost frames
        } else if (r < 13) {
            next = (next - 1 - rnd.nextInt(6)) & MASK; // a replay from further back
        }
        int seq = r == 13 ? rnd.nextInt(1 << LinkControl.SEQ_WIDTH) : next;
        next = (seq + 1) & MASK;
        int status = rnd.nextInt(100);
        return new Frame(b, true, seq, status < 5, status >= 5 && status < 8);
    }
}
