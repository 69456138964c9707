package org.sue.cmd;

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
 * the end of its list; otherwise it gives the longest run of its commands that fits the PDU limit (at least one),
 * and goes back to the end of its list if commands remain.
 *
 * <p>Time enters only as the order of three events, which a test takes from the hardware it checks: a command
 * arrives in its queue ({@link #append}), the scheduler picks ({@link #pick}, with the gating at that moment), and
 * a pick's queue update lands ({@link #finish}; until then the picked commands still count as queued, so an
 * arrival does not re-list the queue). A queue put on a list can be picked {@code listLatency} events-ticks later
 * ({@link #tick} advances time).
 */
public final class PackingModel {
    /** What a pick produced: a PDU of commands for {dst, vc}, or a skip (no window) when commands is empty. */
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
    private final Map<Integer, Integer> pendingTake = new HashMap<>(); // queue -> commands taken, until finish
    private int lastVc = 3;
    private long now;

    /**
     * {@code xoffThreshold}: a queue reaching this many commands (picked ones included) goes to xoff;
     * {@code xonThreshold}: an xoff queue falling to this many or fewer goes back to xon.
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

    /** A pick, or null when no VC has both credit and a listed queue. */
    public Pdu pick(int vcReady, BitSet dstReady) {
        for (int k = 1; k <= 4; k++) {
            int v = (lastVc + k) % 4;
            long[] head = lists.get(v).peek();
            if ((vcReady >> v & 1) == 0 || head == null || head[1] > now) {
                continue;
            }
            lists.get(v).poll();
            lastVc = v;
            int q = (int) head[0];
            List<CommandCodec.Command> pdu = new ArrayList<>();
            if (dstReady.get(q / 4)) {
                int bytes = 0;
                for (CommandCodec.Command c : queues.get(q)) {
                    int n = CommandCodec.packedBytes(c);
                    if (bytes + n > pduLimit) {
                        break;
                    }
                    bytes += n;
                    pdu.add(c);
                }
            }
            pendingTake.put(q, pdu.size());
            return new Pdu(q / 4, v, pdu);
        }
        return null;
    }

    /** The picked queue's update lands: its taken commands leave it, and it is listed again if it holds more. */
    public void finish(int dst, int vc) {
        int q = dst * 4 + vc;
        ArrayDeque<CommandCodec.Command> queue = queues.get(q);
        Integer taken = pendingTake.remove(q);
        if (taken == null) {
            throw new IllegalStateException("finish of queue " + dst + "/" + vc + " that was not picked");
        }
        for (int i = 0; i < taken; i++) {
            queue.poll();
        }
        if (!queue.isEmpty()) {
            list(q);
        }
        if (queue.size() <= xonThreshold && xoff.remove(q)) {
            notifications.add(new Xoff(dst, vc, false));
        }
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

    /** Commands still queued (picked ones count until their finish). */
    public int queued() {
        return queues.values().stream().mapToInt(ArrayDeque::size).sum();
    }
}
