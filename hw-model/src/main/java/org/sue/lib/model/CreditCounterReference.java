package org.sue.lib.model;

/** Cycle-level reference of {@link CreditCounter}, written from its documented rules. */
public final class CreditCounterReference {
    private final int max;
    private long credits;
    private boolean underflow;
    private boolean overflow;

    public CreditCounterReference(int maxCredits) {
        this.max = maxCredits;
        this.credits = maxCredits;
    }

    /** Whether a consume of {@code amount} is granted this cycle. */
    public boolean canConsume(long amount) {
        return amount <= credits;
    }

    /** One clock edge with this cycle's requests. */
    public void cycle(boolean consume, long consumeAmount, boolean giveBack, long returnAmount) {
        long next = credits;
        if (consume) {
            if (consumeAmount <= credits) {
                next -= consumeAmount;
            } else {
                underflow = true;
            }
        }
        if (giveBack) {
            next += returnAmount;
        }
        if (next > max) {
            next = max;
            overflow = true;
        }
        credits = next;
    }

    public long credits() { return credits; }
    public boolean underflow() { return underflow; }
    public boolean overflow() { return overflow; }
}
