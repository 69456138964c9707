package org.sue.lib.stream.model;

/**
 * Cycle-level reference of {@code CreditSender}, written from its rules: a count that starts at {@code credits}, one
 * spent per beat sent (only while the count is not zero), one back per return, a return that would pass
 * {@code credits} dropped and counted.
 */
public final class CreditSenderReference {
    private final int credits;
    private int count;
    private long excessReturns;

    public CreditSenderReference(int credits) {
        this.credits = credits;
        this.count = credits;
    }

    /** A beat offered this cycle may leave: a credit is held. */
    public boolean ready() {
        return count > 0;
    }

    /**
     * One clock edge: a beat offered ({@code valid}) and a credit return ({@code giveBack}) in this cycle. Returns
     * whether the beat left.
     */
    public boolean cycle(boolean valid, boolean giveBack) {
        boolean sent = valid && ready();
        int next = count - (sent ? 1 : 0);
        if (giveBack) {
            if (next < credits) {
                next++;
            } else {
                excessReturns++;
            }
        }
        count = next;
        return sent;
    }

    public int credits() {
        return count;
    }

    public long excessReturns() {
        return excessReturns;
    }
}
