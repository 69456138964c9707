package org.sue.lib.stream.model;

import java.math.BigInteger;
import java.util.ArrayDeque;

/** Transaction-level reference of {@link SyncFifo}: a bounded queue that refuses pushes when full. */
public final class SyncFifoReference {
    private final int depth;
    private final ArrayDeque<BigInteger> words = new ArrayDeque<>();
    private long overflows;

    public SyncFifoReference(int depth) {
        this.depth = depth;
    }

    /** Returns whether the word was accepted. */
    public boolean push(BigInteger word) {
        if (words.size() >= depth) {
            overflows++;
            return false;
        }
        words.addLast(word);
        return true;
    }

    public BigInteger pop() {
        if (words.isEmpty()) {
            throw new IllegalStateException("pop from an empty FIFO");
        }
        return words.removeFirst();
    }

    public int size() {
        return words.size();
    }

    public boolean full() {
        return words.size() >= depth;
    }

    public long overflows() {
        return overflows;
    }
}
