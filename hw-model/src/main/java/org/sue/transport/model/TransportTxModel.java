package org.sue.transport.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reference of a transport's transmit side at the level of PDUs and ACK events (docs/protocol.md sections 6.1, 6.2,
 * 6.5), written from the rules: PSNs per connection from 0, cumulative ACK inside the window, NACK(n) as ACK(n - 1)
 * plus a go-back to n (also while the connection is going back: the go-back starts again from n), a timeout's go-back
 * to the oldest unacknowledged PSN. {@link #onWire} checks a PDU the transmitter sent: either the next of its
 * connection's sequence or a jump to a go-back asked for since the last jump (or past its start, to a PSN whose
 * predecessors were acknowledged since it was asked for), never to one older than the last jump's, with the bytes
 * first sent under that PSN. Reachability (section 6.7): {@code unreachableTimeouts} timeouts without
 * an ACK moving una in between declare the destination unreachable (a timeout while a go-back waits counts without
 * another go-back); its timeouts are then probes, a go-back of one PDU; an ACK moving una makes it reachable again.
 */
public final class TransportTxModel {
    private static final int PSN_MOD = 1 << 16;
    private final int opAck;
    private final int opNack;
    private final int unreachableTimeouts;
    private final Map<Integer, Connection> connections = new HashMap<>();

    private static final class Connection {
        int next;
        int una;
        int lastOnWire = -1;      // PSN of the last PDU on the wire, -1 before the first
        int newest = -1;          // PSN of the newest PDU on the wire
        final List<Integer> goBacks = new ArrayList<>(); // go-backs asked for since the last jump, oldest first
        final Deque<int[]> recentUna = new ArrayDeque<>(); // {cycle, una before an ACK moved it}
        final Map<Integer, byte[]> stored = new HashMap<>();
        int strikes;              // timeouts since una last moved (saturating at 15)
        boolean down;             // declared unreachable
        boolean probing;          // the last go-back asked for is a probe
        boolean probeSent;        // the last jump was a probe: nothing may continue it
    }

    /** What a timeout was: a probe of an unreachable destination, and the one that declared it so. */
    public record Timeout(boolean probe, boolean declared) {
    }

    public TransportTxModel(int opAck, int opNack, int unreachableTimeouts) {
        this.opAck = opAck;
        this.opNack = opNack;
        this.unreachableTimeouts = unreachableTimeouts;
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

    /**
     * An ACK or NACK from the peer of {@code c} (op 0: nothing) at {@code cycle}; true when it made an unreachable
     * destination reachable again.
     */
    public boolean ack(int c, int op, int rpsn, long cycle) {
        Connection k = conn(c);
        if (op != opAck && op != opNack) {
            return false;
        }
        int acked = op == opAck ? (rpsn + 1) % PSN_MOD : rpsn;
        int advance = Math.floorMod(acked - k.una, PSN_MOD);
        if (advance > Math.floorMod(k.next - k.una, PSN_MOD)) {
            return false; // outside the window: ignored
        }
        boolean recovered = advance != 0 && k.down;
        if (advance != 0) {
            k.strikes = 0;
            k.down = false;
        }
        for (int p = k.una; p != acked; p = (p + 1) % PSN_MOD) {
            k.stored.remove(p);
        }
        k.recentUna.addLast(new int[] {(int) cycle, k.una});
        k.una = acked;
        if ((op == opNack || recovered) && acked != k.next) { // a destination back gets the rest at once
            k.goBacks.add(acked);
            k.probing = false;
        }
        return recovered;
    }

    /**
     * The transmitter timed out on connection {@code c} at {@code cycle}: a go-back to its oldest unacknowledged PSN,
     * as the transmitter saw it up to {@code slack} cycles earlier (its table read precedes the decision).
     */
    public Timeout timeout(int c, long cycle, int slack) {
        Connection k = goBackToUna(c, cycle, slack, "timed out");
        boolean declared = strike(k);
        k.probing = k.down;
        return new Timeout(k.down, declared);
    }

    /**
     * Connection {@code c} was hurried at {@code cycle} (its route left a port that went down, docs/protocol.md
     * 10.6): the same go-back as a timeout's, without a strike; a probe if its destination is unreachable.
     */
    public Timeout hurried(int c, long cycle, int slack) {
        Connection k = goBackToUna(c, cycle, slack, "was hurried");
        k.probing = k.down;
        return new Timeout(k.down, false);
    }

    private Connection goBackToUna(int c, long cycle, int slack, String what) {
        Connection k = conn(c);
        if (k.next == k.una && k.recentUna.stream().noneMatch(u -> u[0] >= cycle - slack)) {
            throw new IllegalStateException("connection " + c + " " + what + " at cycle " + cycle
                    + " with nothing unacknowledged");
        }
        for (int[] u : k.recentUna) {
            if (u[0] >= cycle - slack) {
                k.goBacks.add(u[1]);
            }
        }
        k.goBacks.add(k.una);
        return k;
    }

    /**
     * Connection {@code c} timed out while its go-back waited (the link held it): a strike, no go-back; true when it
     * declared the destination unreachable.
     */
    public boolean waited(int c) {
        return strike(conn(c));
    }

    private boolean strike(Connection k) {
        k.strikes = Math.min(15, k.strikes + 1);
        boolean declared = k.strikes == unreachableTimeouts;
        k.down = k.strikes >= unreachableTimeouts;
        return declared;
    }

    /** Whether connection {@code c}'s destination is declared unreachable. */
    public boolean unreachable(int c) {
        return conn(c).down;
    }

    /**
     * A data PDU of connection {@code c} left the transmitter with {@code psn} and {@code bytes}; throws when the rules
     * do not allow it. Returns true when it was a jump back (the start of a go-back).
     */
    public boolean onWire(int c, int psn, byte[] bytes, long cycle) {
        Connection k = conn(c);
        while (!k.recentUna.isEmpty() && k.recentUna.peekFirst()[0] < cycle - 64) {
            k.recentUna.removeFirst();
        }
        // a probe is one PDU: after it, a go-back asked for, or a new PDU taken before the destination was declared
        boolean continues = k.probeSent ? psn == (k.newest + 1) % PSN_MOD : psn == (k.lastOnWire + 1) % PSN_MOD;
        int jump = continues ? -1 : jumpTo(k, psn);
        if (!continues && jump < 0) {
            throw new IllegalStateException("connection " + c + " sent PSN " + psn + " at cycle " + cycle
                    + " after PSN " + k.lastOnWire + "; go-backs asked for " + k.goBacks + ", una " + k.una + ", next "
                    + k.next);
        }
        byte[] first = k.stored.get(psn);
        if (first == null && Math.floorMod(psn - k.una, PSN_MOD) < Math.floorMod(k.next - k.una, PSN_MOD)) {
            throw new IllegalStateException("connection " + c + " PSN " + psn + " is not stored");
        }
        if (first != null && !Arrays.equals(first, bytes)) {
            throw new IllegalStateException("connection " + c + " PSN " + psn + " at cycle " + cycle
                    + " differs from the PDU first sent with it");
        }
        if (jump >= 0) {
            k.probeSent = k.probing && jump == k.goBacks.size() - 1;
            k.probing = false;
        }
        k.goBacks.subList(0, jump + 1).clear(); // this go-back and the ones asked for before it are done
        k.lastOnWire = psn;
        if (k.newest < 0 || Math.floorMod(psn - k.newest, PSN_MOD) < PSN_MOD / 2) {
            k.newest = psn;
        }
        return jump >= 0;
    }

    /**
     * The go-back asked for that a jump to {@code psn} makes (the last if several): one to {@code psn}, or to an older
     * PSN whose PDUs up to {@code psn} were acknowledged meanwhile (the store freed them, so the go-back starts at the
     * first it still holds); -1 for none.
     */
    private static int jumpTo(Connection k, int psn) {
        for (int j = k.goBacks.size() - 1; j >= 0; j--) {
            int skipped = Math.floorMod(psn - k.goBacks.get(j), PSN_MOD);
            if (skipped == 0 || skipped < PSN_MOD / 2 && skipped <= Math.floorMod(k.una - k.goBacks.get(j), PSN_MOD)) {
                return j;
            }
        }
        return -1;
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
