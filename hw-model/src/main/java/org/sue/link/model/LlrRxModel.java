package org.sue.link.model;

import java.util.LinkedHashMap;
import java.util.Map;
import org.sue.link.LinkControl;

/**
 * Plain-Java reference of LLR receive (docs/protocol.md section 7.4): which frames pass, the state, the counters.
 * A frame's decision is made on its first beat ({@link #passes}, {@link #kind}); the events of one cycle are applied
 * in the order {@link #frameEnd}, {@link #nackSent}, {@link #init}, {@link #disable}, each later one overriding the
 * state the earlier ones left. When the NACK leaves is the hardware's choice (the control channel may wait), so the
 * test tells the model.
 */
public final class LlrRxModel {
    public enum State { OFF, SEND_ACKS, SEND_NACK, NACK_SENT }

    /** How a frame's sequence number compares with the expected one. */
    public enum Kind { EXPECTED, MISSING, DUPLICATE }

    private static final int MASK = (1 << LinkControl.SEQ_WIDTH) - 1;
    private State state = State.OFF;
    private int expected;
    private final Map<String, Long> counters = new LinkedHashMap<>();

    public LlrRxModel() {
        for (String c : new String[] {"rx_init_ctl_os", "rx_ok", "rx_poisoned", "rx_bad", "rx_expected_seq_good",
            "rx_expected_seq_poisoned", "rx_expected_seq_bad", "rx_missing_seq", "rx_duplicate_seq", "rx_replay"}) {
            counters.put(c, 0L);
        }
    }

    public State state() {
        return state;
    }

    /** The last good sequence number: what an ACK or a NACK carries. */
    public int lastGood() {
        return (expected - 1) & MASK;
    }

    public Map<String, Long> counters() {
        return counters;
    }

    public Kind kind(int seq) {
        int diff = (seq - expected) & MASK;
        return diff == 0 ? Kind.EXPECTED : diff < 1 << (LinkControl.SEQ_WIDTH - 1) ? Kind.MISSING : Kind.DUPLICATE;
    }

    /** Whether a frame passes, decided on its first beat. */
    public boolean passes(boolean llr, int seq) {
        return !llr || state == State.OFF || kind(seq) == Kind.EXPECTED;
    }

    /** {@code llr_enable} low. */
    public void disable() {
        state = State.OFF;
    }

    /** An INIT control message arrived; {@code enabled}: {@code llr_enable} is high. */
    public void init(int value, boolean enabled) {
        count("rx_init_ctl_os");
        if (enabled) {
            state = State.SEND_ACKS;
            expected = value & MASK;
        }
    }

    /** The NACK asked for has left (a frame ending in the same cycle may have moved the state on already). */
    public void nackSent() {
        if (state == State.SEND_NACK) {
            state = State.NACK_SENT;
        }
    }

    /**
     * The last beat of a frame; {@code kind} as decided on its first beat ({@link #kind}, null for a frame without a
     * sequence number or while OFF then).
     */
    public void frameEnd(Kind kind, boolean bad, boolean poisoned) {
        if (kind == null) {
            return;
        }
        count(bad ? "rx_bad" : poisoned ? "rx_poisoned" : "rx_ok");
        switch (kind) {
            case EXPECTED -> {
                count(bad ? "rx_expected_seq_bad" : poisoned ? "rx_expected_seq_poisoned" : "rx_expected_seq_good");
                if (!bad) {
                    expected = (expected + 1) & MASK;
                    if (state == State.SEND_NACK || state == State.NACK_SENT) {
                        count("rx_replay");
                        state = State.SEND_ACKS;
                    }
                } else if (state == State.SEND_ACKS || state == State.NACK_SENT) {
                    state = State.SEND_NACK;
                }
            }
            case MISSING -> {
                count("rx_missing_seq");
                if (state == State.SEND_ACKS) {
                    state = State.SEND_NACK;
                }
            }
            case DUPLICATE -> count("rx_duplicate_seq");
            default -> throw new IllegalStateException();
        }
    }

    private void count(String name) {
        counters.merge(name, 1L, Long::sum);
    }
}
