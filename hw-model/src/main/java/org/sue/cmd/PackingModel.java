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
 * and goes back to the end of its list if commands remain. A queue whose run ended on the limit may go on at once
 * with its next run ({@link #pickAgain}) when no listed queue could be picked instead.
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
    // queue -> commands taken by each of its picks, until their finish
    private final Map<Integer, ArrayDeque<Integer>> pendingTake = new HashMap<>();
    // queue -> commands it held at its last pick and no PDU has taken yet: all a queue that goes on may take
    private final Map<Integer, Integer> leftAtPick = new HashMap<>();
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
            return take(q, dstReady.get(q / 4), queues.get(q).size());
        }
        return null;
    }

    /**
     * The queue just served goes on with its next run: allowed only when its last run ended on the PDU limit and no
     * listed queue could be picked now.
     */
    public Pdu pickAgain(int dst, int vc, int vcReady) {
        for (int v = 0; v < 4; v++) {
            long[] head = lists.get(v).peek();
            if ((vcReady >> v & 1) == 1 && head != null && head[1] <= now) {
                throw new IllegalStateException("queue " + dst + "/" + vc + " went on while queue " + head[0] / 4
                        + "/" + head[0] % 4 + " could be picked");
            }
        }
        int q = dst * 4 + vc;
        int left = leftAtPick.getOrDefault(q, 0);
        if (left == 0) {
            throw new IllegalStateException("queue " + dst + "/" + vc + " went on with nothing left");
        }
        return take(q, true, left);
    }

    /**
     * The longest run that fits the PDU limit of the queue's next {@code limit} commands after those already
     * picked.
     */
    private Pdu take(int q, boolean window, int limit) {
        List<CommandCodec.Command> pdu = new ArrayList<>();
        if (window) {
            int skip = pendingTake.getOrDefault(q, new ArrayDeque<>()).stream().mapToInt(Integer::intValue).sum();
            int bytes = 0;
            for (CommandCodec.Command c : queues.get(q)) {
                if (skip-- > 0) {
                    continue;
                }
                int n = CommandCodec.packedBytes(c);
                if (pdu.size() == limit || bytes + n > pduLimit) {
                    break;
                }
                bytes += n;
                pdu.add(c);
            }
        }
        leftAtPick.put(q, window ? limit - pdu.size() : 0);
        pendingTake.computeIfAbsent(q, k -> new ArrayDeque<>()).add(pdu.size());
        return new Pdu(q / 4, q % 4, pdu);
    }

    /**
     * The oldest pick's update lands: its taken commands leave the queue, and it is listed again if it holds more,
     * unless it went on with its next run ({@code wentOn}).
     */
    public void finish(int dst, int vc, boolean wentOn) {
        int q = dst * 4 + vc;
        ArrayDeque<CommandCodec.Command> queue = queues.get(q);
        ArrayDeque<Integer> pending = pendingTake.get(q);
        if (pending == null || pending.isEmpty()) {
            throw new IllegalStateException("finish of queue " + dst + "/" + vc + " that was not picked");
        }
        int taken = pending.poll();
        if (pending.isEmpty()) {
            pendingTake.remove(q);
        }
        for (int i = 0; i < taken; i++) {
            queue.poll();
        }
        if (!queue.isEmpty() && !wentOn) {
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
