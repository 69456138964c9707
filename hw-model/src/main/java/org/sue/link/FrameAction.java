package org.sue.link;

/** What LLR transmit does with an eligible frame while it cannot sequence it (INIT, FLUSH): SAI LLR frame actions. */
public enum FrameAction {
    /** take the frame and drop it (counted as {@code tx_discard}) */
    DISCARD,
    /** hold it until frames may be sequenced again */
    BLOCK,
    /** send it without a sequence number, outside the replay buffer */
    BEST_EFFORT
}
