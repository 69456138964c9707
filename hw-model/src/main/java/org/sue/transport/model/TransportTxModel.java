package org.sue.transport.model;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reference of a transport's transmit side at the level of PDUs and ACK events (docs/protocol.md sections 6.1, 6.2,
 * 6.5), written from the rules: PSNs per connection from 0, cumulative ACK inside the window, NACK(n) as ACK(n - 1)
 * plus a go-back to n unless the connection is already going back, a timeout's go-back to the oldest unacknowledged
 * PSN. {@link #onWire} checks a PDU the transmitter sent: either the next of its connection's sequence or the start of
 * a go-back the rules allow, with the bytes first sent under that PSN.
 */
public final class TransportTxModel {
    /** What an ACK or NACK did. */
    public enum AckOutcome { ADVANCED, NO_ADVANCE, OUT_OF_WINDOW, GO_BACK, IGNORED_WHILE_GOING_BACK, NONE }

    private static final int PSN_MOD = 1 << 16;
    private final int opAck;
    private final int opNack;
    private final Map<Integer, Connection> connections = new HashMap<>();

    private static final class Connection {
        int next;
        int una;
        int lastOnWire = -1;      // PSN of the last PDU on the wire, -1 before the first
        int goingBackTo = -1;     // the PSN that ends the current go-back (the newest stored when it began), -1 if none
        final Set<Integer> goBacks = new HashSet<>();
        final Deque<int[]> recentUna = new ArrayDeque<>(); // {cycle, una}
        final Map<Integer, byte[]> stored = new HashMap<>();
    }

    public TransportTxModel(int opAck, int opNack) {
        this.opAck = opAck;
        this.opNack = opNack;
    }

    private Connection conn(int c) {
        return connections.computeIfAbsent(c, k -> new Connection());
    }

    /** A new PDU entered for connection {@code c}: its PSN. */
    public int newPdu(int c, byte[] bytes) {
        Connection k = conn(c);
        int psn = k.next;
        k.stored.put(psn, bytes.clone());
        k.next = (k.next + 1) % PSN_MOD;
        return psn;
    }

    /** An ACK or NACK from the peer of {@code c} (op 0: nothing). */
    public AckOutcome ack(int c, int op, int rpsn, long cycle) {
        Connection k = conn(c);
        if (op != opAck && op != opNack) {
            return AckOutcome.NONE;
        }
        int acked = op == opAck ? (rpsn + 1) % PSN_MOD : rpsn;
        int advance = Math.floorMod(acked - k.una, PSN_MOD);
        if (advance > Math.floorMod(k.next - k.una, PSN_MOD)) {
            return AckOutcome.OUT_OF_WINDOW;
        }
        for (int p = k.una; p != acked; p = (p + 1) % PSN_MOD) {
            k.stored.remove(p);
        }
        k.una = acked;
        k.recentUna.addLast(new int[] {(int) cycle, acked});
        if (op == opNack && acked != k.next) {
            // the transmitter's go-back may end a few cycles before its last PDU is on the wire, so a NACK in that gap
            // may start another one: allowed either way, reported as the rules see it
            k.goBacks.add(acked);
            return k.goingBackTo >= 0 ? AckOutcome.IGNORED_WHILE_GOING_BACK : AckOutcome.GO_BACK;
        }
        return advance == 0 ? AckOutcome.NO_ADVANCE : AckOutcome.ADVANCED;
    }

    /** The transmitter timed out on some connection around this cycle: a go-back to a recent una is allowed. */
    public void timeout(long cycle, int slack) {
        for (Connection k : connections.values()) {
            if (k.next != k.una) {
                k.goBacks.add(k.una);
                for (int[] u : k.recentUna) {
                    if (u[0] >= cycle - slack) {
                        k.goBacks.add(u[1]);
                    }
                }
            }
        }
    }

    /**
     * A data PDU of connection {@code c} left the transmitter with {@code psn} and {@code bytes}; throws when the rules
     * do not allow it. Returns true when it was a retransmission.
     */
    public boolean onWire(int c, int psn, byte[] bytes, long cycle) {
        Connection k = conn(c);
        while (!k.recentUna.isEmpty() && k.recentUna.peekFirst()[0] < cycle - 64) {
            k.recentUna.removeFirst();
        }
        byte[] first = k.stored.get(psn);
        boolean continues = psn == (k.lastOnWire + 1) % PSN_MOD;
        boolean goBack = !continues && k.goBacks.contains(psn);
        if (!continues && !goBack) {
            throw new IllegalStateException("connection " + c + " sent PSN " + psn + " at cycle " + cycle
                    + " after PSN " + k.lastOnWire + "; allowed go-backs " + k.goBacks + ", una " + k.una + ", next "
                    + k.next);
        }
        boolean retransmission = goBack || k.goingBackTo >= 0;
        if (first == null && Math.floorMod(psn - k.una, PSN_MOD) < Math.floorMod(k.next - k.una, PSN_MOD)) {
            throw new IllegalStateException("connection " + c + " PSN " + psn + " is not stored");
        }
        if (first != null && !Arrays.equals(first, bytes)) {
            throw new IllegalStateException("connection " + c + " PSN " + psn + " at cycle " + cycle
                    + " differs from the PDU first sent with it");
        }
        if (goBack) {
            k.goBacks.clear();
            k.goingBackTo = (k.next - 1 + PSN_MOD) % PSN_MOD;
        }
        if (k.goingBackTo == psn) {
            k.goingBackTo = -1;
        }
        k.lastOnWire = psn;
        return retransmission;
    }

    /** Every PDU of every connection acknowledged. */
    public boolean allAcknowledged() {
        return connections.values().stream().allMatch(k -> k.una == k.next);
    }

    public int next(int c) {
        return conn(c).next;
    }

    public int una(int c) {
        return conn(c).una;
    }
}
