package org.sue.lib.stream.model;

import java.math.BigInteger;
import java.util.ArrayDeque;

/**
 * Transaction-level reference of {@code CreditReceiver}, written from its rules: at most {@code credits} beats held; a
 * beat arriving while that many are held (a leaving beat's place not yet free) is dropped and counted; beats leave in
 * arrival order, one credit back for each; a beat arriving while none is held may leave in the same cycle.
 */
public final class CreditReceiverReference {
    private final int credits;
    private final ArrayDeque<BigInteger> held = new ArrayDeque<>();
    private long overflowBeats;
    private long returned;

    public CreditReceiverReference(int credits) {
        this.credits = credits;
    }

    /**
     * One clock edge: a beat arriving ({@code in}, null for none) and whether the oldest beat left. Returns the beat
     * that left, or null.
     */
    public BigInteger cycle(BigInteger in, boolean leave) {
        boolean room = held.size() < credits; // judged before this edge's leaving beat
        if (in != null) {
            if (room) {
                held.addLast(in);
            } else {
                overflowBeats++;
            }
        }
        BigInteger left = leave ? held.removeFirst() : null; // the arriving beat, when none was held
        if (left != null) {
            returned++;
        }
        return left;
    }

    /** The beat that leaves next, or null. */
    public BigInteger head() {
        return held.peekFirst();
    }

    public int held() {
        return held.size();
    }

    public long overflowBeats() {
        return overflowBeats;
    }

    /** Credits given back: one per beat that left. */
    public long returned() {
        return returned;
    }
}
