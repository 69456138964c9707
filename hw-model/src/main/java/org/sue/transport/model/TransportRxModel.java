package org.sue.transport.model;

import org.sue.transport.TransportConfig;

/**
 * Reference of the transport receiver, transaction by transaction, from docs/protocol.md sections 6.3 and 6.4: what
 * becomes of each PDU, what a PDU to an XPU carries, when an ACK-only PDU is asked for at once, and the counters.
 * Events are applied in the order the hardware takes them; a reply and a decision of the same cycle are applied
 * reply first (the reply shows the state before the cycle, and an owed flag the decision sets survives it).
 */
public final class TransportRxModel {
    /** What becomes of a PDU. */
    public enum Verdict { ACCEPT, OUT_OF_ORDER, DUPLICATE, ACK_ONLY, UNKNOWN_SOURCE }

    /**
     * A PDU's verdict; {@code owesNack}: it made a NACK owed; {@code urgent}: an ACK-only PDU is wanted at once (a
     * NACK became owed, or {@code ackCount} PDUs were accepted since the ACK became owed or since the last urgent
     * request).
     */
    public record Decision(Verdict verdict, boolean owesNack, boolean urgent) {
        public boolean delivered() {
            return verdict == Verdict.ACCEPT;
        }
    }

    /** What a PDU to an XPU carries in its RH: op (0 none) and rpsn. */
    public record Reply(int op, int rpsn) {
    }

    private static final int PSN_MASK = 0xFFFF;

    private final TransportConfig config;
    private final int[] expected;
    private final boolean[] seen;
    private final boolean[] ackOwed;
    private final boolean[] nackOwed;
    private final boolean[] nackSent;
    private final int[] acceptedSinceOwed;
    private long accepted;
    private long outOfOrderDropped;
    private long duplicatesDropped;
    private long ackOnlyReceived;
    private long unknownSourceDropped;
    private long acksSent;
    private long nacksSent;

    public TransportRxModel(TransportConfig config) {
        this.config = config;
        int d = config.destinations();
        expected = new int[d];
        seen = new boolean[d];
        ackOwed = new boolean[d];
        nackOwed = new boolean[d];
        nackSent = new boolean[d];
        acceptedSinceOwed = new int[d];
    }

    /** A PDU that passed the framing checks, from RH {@code xpuid} = src with that psn. */
    public Decision onPdu(int src, int psn, boolean ackOnly) {
        if (src < 0 || src >= config.destinations()) {
            unknownSourceDropped++;
            return new Decision(Verdict.UNKNOWN_SOURCE, false, false);
        }
        if (ackOnly) {
            ackOnlyReceived++;
            return new Decision(Verdict.ACK_ONLY, false, false);
        }
        int diff = (psn - expected[src]) & PSN_MASK;
        if (diff == 0) {
            accepted++;
            expected[src] = (expected[src] + 1) & PSN_MASK;
            seen[src] = true;
            int since = (ackOwed[src] ? acceptedSinceOwed[src] : 0) + 1;
            boolean reached = since == config.ackCount();
            acceptedSinceOwed[src] = reached ? 0 : since;
            ackOwed[src] = true;
            nackOwed[src] = false;
            nackSent[src] = false;
            return new Decision(Verdict.ACCEPT, false, reached);
        }
        if (diff < 1 << 15) {
            outOfOrderDropped++;
            boolean owes = !nackSent[src];
            if (owes) {
                nackOwed[src] = true;
                nackSent[src] = true;
            }
            return new Decision(Verdict.OUT_OF_ORDER, owes, owes);
        }
        duplicatesDropped++;
        if (!ackOwed[src]) {
            acceptedSinceOwed[src] = 0;
        }
        ackOwed[src] = true;
        return new Decision(Verdict.DUPLICATE, false, false);
    }

    /** The transmit side frames a PDU to {@code xpu}: what it carries; the ACK or NACK owed to xpu is sent. */
    public Reply reply(int xpu) {
        if (xpu < 0 || xpu >= config.destinations()) {
            return new Reply(0, 0);
        }
        Reply r;
        if (nackOwed[xpu]) {
            r = new Reply(config.opNack(), expected[xpu]);
            nacksSent++;
        } else if (seen[xpu]) {
            r = new Reply(config.opAck(), (expected[xpu] - 1) & PSN_MASK);
            acksSent++;
        } else {
            r = new Reply(0, 0);
        }
        ackOwed[xpu] = false;
        nackOwed[xpu] = false;
        return r;
    }

    /** An ACK or NACK is owed to xpu. */
    public boolean owed(int xpu) {
        return xpu >= 0 && xpu < config.destinations() && (ackOwed[xpu] || nackOwed[xpu]);
    }

    public boolean nackOwed(int xpu) {
        return nackOwed[xpu];
    }

    public int expected(int src) {
        return expected[src];
    }

    public long accepted() { return accepted; }
    public long outOfOrderDropped() { return outOfOrderDropped; }
    public long duplicatesDropped() { return duplicatesDropped; }
    public long ackOnlyReceived() { return ackOnlyReceived; }
    public long unknownSourceDropped() { return unknownSourceDropped; }
    public long acksSent() { return acksSent; }
    public long nacksSent() { return nacksSent; }

    public TransportConfig config() {
        return config;
    }
}
