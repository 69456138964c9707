package org.sue.cmd.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Transaction-level reference of packing and scheduling (spec 4.4): per-{destination, VC} queues of commands; per VC
 * a list of the queues that hold commands, in the order they got their first command or finished their last turn;
 * round robin over the VCs with link credit; a picked queue whose destination has no transmit window goes back to
 * the end of its list; otherwise its turn gives the longest run of its commands that fits the PDU limit (at least
 * one), and it goes back to the end of its list if commands remain.
 *
 * <p>Time enters only as the order of three events, which a test takes from the hardware it checks: a command
 * arrives in its queue ({@link #append}), the scheduler picks a queue ({@link #pick}, with the gating at that
 * moment), and the pick's turn is taken ({@link #finish}: the PDU is cut from the commands queued then). A queue put
 * on a list can be picked {@code listLatency} ticks later ({@link #tick} advances time).
 */
public final class PackingModel {
    /** What a turn produced: a PDU of commands for {dst, vc}, or a skip (no window) when commands is empty. */
    public record Pdu(int dst, int vc, List<CommandCodec.Command> commands) {
    }

    /** A per-destination flow-control notification: queue {dst, vc} went to xoff ({@code on}) or back to xon. */
    public record Xoff(int dst, int vc, boolean on) {
    }

    private final int pduLimit;
    private final int listLatency;
    private final int xoffThreshold;
    private final int xonThreshold;
    private final Set<Integer> xoff = new HashSet<>();
    private final List<Xoff> notifications = new ArrayList<>();
    private final Map<Integer, ArrayDeque<CommandCodec.Command>> queues = new HashMap<>();
    private final List<ArrayDeque<long[]>> lists = new ArrayList<>(); // {queue, cycle it can be picked from}
    private final Map<Integer, Boolean> picked = new HashMap<>(); // queue -> its window was open at its pick
    private int lastVc = 3;
    private long now;

    /**
     * {@code xoffThreshold}: a queue reaching this many commands goes to xoff; {@code xonThreshold}: an xoff queue
     * falling to this many or fewer goes back to xon.
     */
    public PackingModel(int pduLimit, int listLatency, int xoffThreshold, int xonThreshold) {
        this.pduLimit = pduLimit;
        this.listLatency = listLatency;
        this.xoffThreshold = xoffThreshold;
        this.xonThreshold = xonThreshold;
        for (int v = 0; v < 4; v++) {
            lists.add(new ArrayDeque<>());
        }
    }

    public void tick() {
        now++;
    }

    public void append(int dst, int vc, CommandCodec.Command c) {
        int q = dst * 4 + vc;
        ArrayDeque<CommandCodec.Command> queue = queues.computeIfAbsent(q, k -> new ArrayDeque<>());
        queue.add(c);
        if (queue.size() == 1) {
            list(q);
        }
        if (queue.size() >= xoffThreshold && xoff.add(q)) {
            notifications.add(new Xoff(dst, vc, true));
        }
    }

    /** The queue picked now, as dst * 4 + vc, or -1 when no VC has both credit and a listed queue. */
    public int pick(int vcReady, BitSet dstReady) {
        for (int k = 1; k <= 4; k++) {
            int v = (lastVc + k) % 4;
            long[] head = lists.get(v).peek();
            if ((vcReady >> v & 1) == 0 || head == null || head[1] > now) {
                continue;
            }
            lists.get(v).poll();
            lastVc = v;
            int q = (int) head[0];
            picked.put(q, dstReady.get(q)); // a bit per queue {destination, VC}
            return q;
        }
        return -1;
    }

    /**
     * The picked queue's turn: with its window open, the longest run of its commands that fits the PDU limit leaves
     * the queue; it is listed again if it holds more.
     */
    public Pdu finish(int dst, int vc) {
        int q = dst * 4 + vc;
        Boolean window = picked.remove(q);
        if (window == null) {
            throw new IllegalStateException("turn of queue " + dst + "/" + vc + ", which was not picked");
        }
        ArrayDeque<CommandCodec.Command> queue = queues.get(q);
        List<CommandCodec.Command> pdu = new ArrayList<>();
        int bytes = 0;
        while (window && !queue.isEmpty() && (pdu.isEmpty()
                || bytes + CommandCodec.packedBytes(queue.peek()) <= pduLimit)) {
            bytes += CommandCodec.packedBytes(queue.peek());
            pdu.add(queue.poll());
        }
        if (!queue.isEmpty()) {
            list(q);
        }
        if (queue.size() <= xonThreshold && xoff.remove(q)) {
            notifications.add(new Xoff(dst, vc, false));
        }
        return new Pdu(dst, vc, pdu);
    }

    /** Every xoff/xon notification so far, in order. */
    public List<Xoff> notifications() {
        return notifications;
    }

    /** Queues currently in xoff. */
    public int queuesInXoff() {
        return xoff.size();
    }

    private void list(int q) {
        lists.get(q % 4).add(new long[] {q, now + listLatency});
    }

    /** Commands still queued. */
    public int queued() {
        return queues.values().stream().mapToInt(ArrayDeque::size).sum();
    }
}
