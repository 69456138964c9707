package org.sue.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;
import org.sue.transport.model.TransportRxModel;
import org.sue.transport.model.TransportRxModel.Verdict;
import org.sue.transport.tb.TransportRxTraffic.Pdu;

/**
 * A {@link TransportRx} under simulation, checked against {@link TransportRxModel} every cycle. Call {@link #cycle}
 * once per cycle after poking the inputs: it checks what the outputs say about the cycle before and steps.
 *
 * <p>Order of events: a query in cycle t is answered from the state before t and a decision of cycle t (seen as
 * {@code peer_ack} in t + 1) comes after it, so the model takes the reply first. Every PDU from a known source shows
 * on {@code peer_ack}, in order; the unknown ones before it were decided before it.
 *
 * <p>ACK requests: one entering the output register in cycle e was chosen in e - 1 from the state before e - 1;
 * then something was owed to its XPU, and either the ACK or NACK became owed at least {@code ackDelay} cycles before
 * or an urgent request for it is outstanding. Every owed ACK or NACK is replied or requested within
 * {@code 2 ackDelay + requestSlack} cycles of becoming owed.
 */
final class TransportRxBench {
    final TransportConfig config;
    final Simulator sim;
    final TransportRxModel model;
    final StreamMonitor out;
    final List<Pdu> expectedOut = new ArrayList<>();
    final Map<Verdict, Integer> verdicts = new EnumMap<>(Verdict.class);
    final Map<Integer, Integer> replyOps = new java.util.TreeMap<>();
    /** Requests as they entered the output: {cycle, xpu, urgent (1) or due (0)}. */
    final List<long[]> requests = new ArrayList<>();
    /** {vc, len} of the PDUs not delivered, as the model decided them and as {@code discarded} reported them. */
    final List<List<Integer>> expectedDiscarded = new ArrayList<>();
    final List<List<Integer>> discarded = new ArrayList<>();
    /** Decisions: {cycle, src, verdict ordinal}. */
    final List<long[]> decisions = new ArrayList<>();
    /** Cycles allowed beyond 2 ackDelay for a request to leave (others before it, ack_request_ready low). */
    int requestSlack = 120;
    int backToBackSameSource;

    private final ArrayDeque<Pdu> undecided = new ArrayDeque<>();
    private final long[] oweSince;
    private final boolean[] requested;
    private final int[] pendingUrgent;
    private int previousQuery = -1;
    private boolean requestHeld;
    private long lastAcceptCycle = -10;
    private int lastAcceptSrc = -1;

    TransportRxBench(TransportConfig config) {
        this.config = config;
        sim = Simulator.compile(Design.elaborate(new TransportRx(config)));
        model = new TransportRxModel(config);
        out = new StreamMonitor(sim, "m_axis", null);
        oweSince = new long[config.destinations()];
        Arrays.fill(oweSince, -1);
        requested = new boolean[config.destinations()];
        pendingUrgent = new int[config.destinations()];
        sim.poke("s_axis_tvalid", 0);
        sim.poke("ack_query_valid", 0);
        sim.poke("m_axis_tready", 1);
        sim.poke("ack_request_ready", 1);
        sim.reset();
    }

    /** PDUs whose first beat entered s_axis in this cycle (in order). */
    void entered(List<Pdu> pdus) {
        undecided.addAll(pdus);
    }

    /** Checks the outputs of this cycle (inputs poked, {@code queried} the XPU of this cycle's query or -1), steps. */
    void cycle(int queried) {
        long c = sim.cycle();
        // a request entering the output register: chosen in c - 1 from the state before c - 1
        boolean requestValid = sim.peek("ack_request_valid") == 1;
        if (requestValid && !requestHeld) {
            request(c, (int) sim.peek("ack_request_xpu"));
        }
        requestHeld = requestValid && sim.peek("ack_request_ready") == 0;
        // the reply to the query of c - 1
        if (previousQuery >= 0) {
            assertEquals(1, sim.peek("ack_reply_valid"), "reply the cycle after the query at " + (c - 1));
            TransportRxModel.Reply want = model.reply(previousQuery);
            assertEquals(want, new TransportRxModel.Reply((int) sim.peek("ack_reply_op"),
                    (int) sim.peek("ack_reply_rpsn")), "reply to XPU " + previousQuery + " queried at " + (c - 1));
            replyOps.merge(want.op(), 1, Integer::sum);
            if (previousQuery < config.destinations() && !model.owed(previousQuery)) {
                oweSince[previousQuery] = -1;
            }
        } else {
            assertEquals(0, sim.peek("ack_reply_valid"), "no query at " + (c - 1));
        }
        // the decision of c - 1
        if (sim.peek("peer_ack_valid") == 1) {
            while (!undecided.isEmpty() && undecided.peek().src() >= config.destinations()) {
                decide(c - 1, undecided.poll());
            }
            Pdu p = undecided.poll();
            assertTrue(p != null, "peer_ack at " + c + " without a PDU from a known source");
            assertEquals(List.of(p.src(), p.op(), p.rpsn()), List.of((int) sim.peek("peer_ack_xpu"),
                    (int) sim.peek("peer_ack_op"), (int) sim.peek("peer_ack_rpsn")), "peer_ack of the PDU at " + c);
            decide(c - 1, p);
        }
        if (sim.peek("discarded_valid") == 1) {
            discarded.add(List.of((int) sim.peek("discarded_vc"), (int) sim.peek("discarded_len")));
        }
        checkCounters(false);
        for (int x = 0; x < config.destinations(); x++) {
            if (oweSince[x] >= 0 && !requested[x]) {
                assertTrue(c - oweSince[x] <= 2L * config.ackDelay() + requestSlack, "XPU " + x + " owed since "
                        + oweSince[x] + " neither replied nor requested by " + c);
            }
        }
        previousQuery = queried;
        sim.step();
    }

    private void request(long c, int x) {
        assertTrue(x < config.destinations(), "request for unknown XPU " + x + " at " + c);
        assertTrue(model.owed(x), "request at " + c + " for XPU " + x + " to which nothing is owed");
        boolean due = oweSince[x] >= 0 && c - 1 - oweSince[x] >= config.ackDelay();
        if (!due) {
            assertTrue(pendingUrgent[x] > 0, "request at " + c + " for XPU " + x + " owed only since " + oweSince[x]
                    + " and nothing urgent");
            pendingUrgent[x]--;
        }
        requested[x] = true;
        requests.add(new long[] {c, x, due ? 0 : 1});
    }

    private void decide(long cycle, Pdu p) {
        boolean wasOwed = p.src() < config.destinations() && model.owed(p.src());
        TransportRxModel.Decision d = model.onPdu(p.src(), p.psn(), p.ackOnly());
        verdicts.merge(d.verdict(), 1, Integer::sum);
        decisions.add(new long[] {cycle, p.src(), d.verdict().ordinal()});
        if (d.delivered()) {
            expectedOut.add(p);
            if (lastAcceptCycle == cycle - 1 && lastAcceptSrc == p.src() && p.bytes().length <= config.beatBytes()) {
                backToBackSameSource++;
            }
            lastAcceptCycle = cycle;
            lastAcceptSrc = p.src();
        } else {
            SueMeta meta = SueMeta.unpack(p.user());
            expectedDiscarded.add(List.of(meta.vc(), meta.len()));
        }
        if (p.src() < config.destinations()) {
            if (!wasOwed && model.owed(p.src())) {
                oweSince[p.src()] = cycle;
                requested[p.src()] = false;
            }
            if (d.urgent()) {
                pendingUrgent[p.src()]++;
            }
        }
    }

    /** Counters against the model; unknown-source drops only when every PDU was decided ({@code all}). */
    void checkCounters(boolean all) {
        assertEquals(model.accepted(), sim.peek("accepted"), "accepted at " + sim.cycle());
        assertEquals(model.outOfOrderDropped(), sim.peek("out_of_order_dropped"), "out_of_order_dropped");
        assertEquals(model.duplicatesDropped(), sim.peek("duplicates_dropped"), "duplicates_dropped");
        assertEquals(model.ackOnlyReceived(), sim.peek("ack_only_received"), "ack_only_received");
        assertEquals(model.acksSent(), sim.peek("acks_sent"), "acks_sent at " + sim.cycle());
        assertEquals(model.nacksSent(), sim.peek("nacks_sent"), "nacks_sent at " + sim.cycle());
        if (all) {
            assertEquals(model.unknownSourceDropped(), sim.peek("unknown_source_dropped"), "unknown_source_dropped");
        }
    }

    /** After the traffic ended and the pipeline drained: the rest decided, every accepted PDU out, unchanged. */
    void finish() {
        while (!undecided.isEmpty()) {
            Pdu p = undecided.poll();
            assertTrue(p.src() >= config.destinations(), "PDU from " + p.src() + " never decided");
            decide(sim.cycle(), p);
        }
        checkCounters(true);
        List<StreamMonitor.Packet> got = out.packets();
        assertEquals(expectedOut.size(), got.size(), "PDUs delivered");
        for (int i = 0; i < got.size(); i++) {
            assertArrayEquals(expectedOut.get(i).bytes(), got.get(i).bytes(), "bytes of delivered PDU " + i);
            assertEquals(expectedOut.get(i).user(), got.get(i).user(), "tuser of delivered PDU " + i);
        }
        for (int x = 0; x < config.destinations(); x++) {
            assertFalse(oweSince[x] >= 0 && !requested[x], "XPU " + x + " still owed and never requested");
        }
        assertEquals(expectedDiscarded, discarded, "{vc, len} on discarded of every PDU not delivered, in order");
    }

    /** The requests for XPU x, by the cycle they entered the output. */
    List<Long> requestCycles(int x) {
        return requests.stream().filter(r -> r[1] == x).map(r -> r[0]).toList();
    }

    /** The cycle of the last decision on a PDU from src. */
    long lastDecision(int src) {
        for (int i = decisions.size() - 1; i >= 0; i--) {
            if (decisions.get(i)[1] == src) {
                return decisions.get(i)[0];
            }
        }
        return -1;
    }

    /** A one-beat PDU, SueMeta with the given source and PSN. */
    static Pdu onePdu(int src, int psn, boolean ackOnly, int beatBytes) {
        byte[] b = new byte[Math.min(beatBytes, 16)];
        if (!ackOnly) {
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) (i + 1 + psn);
            }
            b[0] = (byte) 7;
        }
        BigInteger user = new SueMeta(0, src, 0, psn & 0xFFFF, 1, 0, 0, 0, false, b.length).pack();
        return new Pdu(src, psn & 0xFFFF, ackOnly, 1, 0, b, user);
    }
}
