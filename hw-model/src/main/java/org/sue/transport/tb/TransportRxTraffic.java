package org.sue.transport.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.sue.lib.stream.tb.PacketBeats;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;
import org.sue.transport.TransportConfig;
import org.sue.transport.model.TransportRxModel;

/**
 * Drives every input of a {@link org.sue.transport.TransportRx} for one cycle at a time: PDUs from a few active
 * sources on {@code s_axis} (in order, after a gap, repeated, far off, ACK-only, from unknown sources, and bursts of
 * one-beat in-order PDUs from one source offered every cycle), random {@code m_axis_tready} and
 * {@code ack_request_ready}, random {@code ack_query}s. PSNs are chosen against the receiver's expected PSN, which
 * follows from the PDUs alone (replies never change it), so the mix stays interesting for the whole run.
 */
public final class TransportRxTraffic {
    /** A PDU as offered: its source, PSN, whether it is ACK-only, its bytes and tuser. */
    public record Pdu(int src, int psn, boolean ackOnly, int op, int rpsn, byte[] bytes, BigInteger user) {
    }

    private final TransportConfig config;
    private final Simulator sim;
    private final int lanes;
    private final int[] active;
    /** The receiver's expected PSNs as this traffic will leave them: picks in-order, late and early PSNs. */
    private final TransportRxModel plan;
    private final ArrayDeque<Pdu> pending = new ArrayDeque<>();
    private final List<Pdu> firstBeatsTaken = new ArrayList<>();
    private PacketBeats beats;
    private Pdu current;
    private boolean firstTaken;
    private boolean burst;
    private int queried = -1;

    public int validPercent = 85;
    public int outReadyPercent = 75;
    public int queryPercent = 10;
    public int requestReadyPercent = 80;
    /** Percent of new PDUs that start a burst of one-beat PDUs. */
    public int burstPercent = 4;
    /** Percent of queries to an XPU outside the active sources (possibly unknown). */
    public int strayQueryPercent = 5;
    /** Largest PDU in bytes. */
    public int maxBytes;
    /** Plan no more PDUs (those planned still go). */
    public boolean quiet;

    public TransportRxTraffic(TransportConfig config, Simulator sim, Random rnd, int activeSources) {
        this.config = config;
        this.sim = sim;
        this.lanes = config.beatBytes();
        this.maxBytes = 3 * lanes;
        this.plan = new TransportRxModel(config);
        active = new int[activeSources];
        for (int i = 0; i < activeSources; i++) {
            active[i] = i == 0 ? 0 : i == 1 ? config.destinations() - 1 : rnd.nextInt(config.destinations());
        }
    }

    /** The active sources. */
    public int[] active() {
        return active.clone();
    }

    /** Pokes every input of this cycle; call once per cycle, then step the simulator. */
    public void drive(Random rnd) {
        if (beats == null) {
            beats = new PacketBeats(sim, "s_axis");
        }
        sim.poke("m_axis_tready", rnd.nextInt(100) < outReadyPercent ? 1 : 0);
        sim.poke("ack_request_ready", rnd.nextInt(100) < requestReadyPercent ? 1 : 0);
        queried = -1;
        if (rnd.nextInt(100) < queryPercent) {
            queried = rnd.nextInt(100) < strayQueryPercent ? rnd.nextInt(1 << SueMeta.XPU_WIDTH)
                    : active[rnd.nextInt(active.length)];
        }
        sim.poke("ack_query_valid", queried >= 0 ? 1 : 0);
        sim.poke("ack_query_xpu", Math.max(queried, 0));

        if (current == null && !(quiet && pending.isEmpty())) {
            if (pending.isEmpty()) {
                plan(rnd);
            }
            current = pending.poll();
            firstTaken = false;
            beats.start(current.bytes(), current.user());
        }
        if (current == null) {
            sim.poke("s_axis_tvalid", 0);
            return;
        }
        boolean valid = beats.offer(burst || rnd.nextInt(100) < validPercent, null);
        boolean taken = valid && sim.peek("s_axis_tready") == 1;
        if (taken && !firstTaken) {
            firstTaken = true;
            firstBeatsTaken.add(current);
        }
        if (beats.advance()) {
            current = null;
            burst = !pending.isEmpty() && burst;
        }
    }

    /** The XPU queried in this cycle, -1 if none. */
    public int queried() {
        return queried;
    }

    /** PDUs whose first beat entered since the last call, in order. */
    public List<Pdu> takeEntered() {
        List<Pdu> l = new ArrayList<>(firstBeatsTaken);
        firstBeatsTaken.clear();
        return l;
    }

    /** Nothing is offered or under way. */
    public boolean idle() {
        return current == null && pending.isEmpty();
    }

    private void plan(Random rnd) {
        int src = active[rnd.nextInt(active.length)];
        if (rnd.nextInt(100) < burstPercent) {
            burst = true;
            for (int i = 2 + rnd.nextInt(12); i > 0; i--) {
                pending.add(pdu(rnd, src, plan.expected(src), false, 1 + rnd.nextInt(lanes)));
            }
            return;
        }
        burst = false;
        int kind = rnd.nextInt(100);
        int bytes = 1 + rnd.nextInt(maxBytes);
        if (kind < 6 && config.destinations() < 1 << SueMeta.XPU_WIDTH) {
            src = config.destinations() + rnd.nextInt((1 << SueMeta.XPU_WIDTH) - config.destinations());
            pending.add(pdu(rnd, src, rnd.nextInt(1 << 16), rnd.nextInt(4) == 0, bytes));
        } else if (kind < 14) {
            pending.add(pdu(rnd, src, rnd.nextInt(1 << 16) * (rnd.nextInt(2)), true, 1 + rnd.nextInt(60)));
        } else if (kind < 24) {
            pending.add(pdu(rnd, src, plan.expected(src) + 1 + rnd.nextInt(4), false, bytes)); // a gap
        } else if (kind < 34) {
            pending.add(pdu(rnd, src, plan.expected(src) - 1 - rnd.nextInt(4), false, bytes)); // a repeat
        } else if (kind < 37) {
            pending.add(pdu(rnd, src, rnd.nextInt(1 << 16), false, bytes)); // anywhere
        } else {
            pending.add(pdu(rnd, src, plan.expected(src), false, bytes));
        }
    }

    private Pdu pdu(Random rnd, int src, int psn, boolean ackOnly, int length) {
        psn &= 0xFFFF;
        byte[] b = new byte[length];
        if (!ackOnly) {
            rnd.nextBytes(b);
            b[0] = (byte) (1 + rnd.nextInt(255)); // a command type, never 0
        }
        int op = rnd.nextInt(4);
        int rpsn = rnd.nextInt(1 << 16);
        SueMeta meta = new SueMeta(rnd.nextInt(1 << SueMeta.XPU_WIDTH), src, rnd.nextInt(SueMeta.VCS), psn, op, rpsn,
                rnd.nextInt(1 << 10), 0, false, length);
        plan.onPdu(src, psn, ackOnly);
        return new Pdu(src, psn, ackOnly, op, rpsn, b, meta.pack());
    }
}
