package org.sue.vectors;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;
import org.sue.lib.stream.tb.PacketBeats;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * Drives a {@link org.sue.transport.TransportTx}: random PDUs to random eligible destinations ({@code dst_ready}, as
 * the packing buffer picks), random backpressure, and a peer that watches {@code m_axis}: it accepts the expected PSN
 * (losing one PDU in 16), NACKs a gap once, re-ACKs a duplicate, and answers after a delay on {@code peer_ack};
 * {@code ack_query} gets a random {@code ack_reply} the next cycle; now and then an {@code ack_request}. Losses make
 * the vectors cover NACK go-backs and, with the short timeout of the scenario, timeouts. Optionally one
 * destination's peer is dead for a window of cycles (takes and answers nothing): it is declared unreachable, probed,
 * and comes back.
 */
public final class TransportTxTraffic implements GoldenScenario.Stimulus {
    private static final int DELAY = 24;
    private final int destinations;
    private final int maxBytes;
    private final int[] expected;
    private final boolean[] nackSent;
    private final Deque<long[]> answers = new ArrayDeque<>(); // {cycle, xpu, op, rpsn}
    private PacketBeats beats;
    private boolean outFirst = true;
    private boolean replyDue;
    private int requestXpu = -1;
    private int linkVcReady = 0xf;
    private final int dead;
    private final long deadFrom;
    private final long deadTo;

    public TransportTxTraffic(int destinations, int maxBytes) {
        this(destinations, maxBytes, -1, 0, 0);
    }

    /** The peer of destination {@code dead} takes and answers nothing from cycle {@code deadFrom} to {@code deadTo}. */
    public TransportTxTraffic(int destinations, int maxBytes, int dead, long deadFrom, long deadTo) {
        this.destinations = destinations;
        this.maxBytes = maxBytes;
        this.dead = dead;
        this.deadFrom = deadFrom;
        this.deadTo = deadTo;
        expected = new int[destinations];
        nackSent = new boolean[destinations];
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (beats == null) {
            beats = new PacketBeats(sim, "s_axis");
            sim.poke("local_xpu", 0x155);
            sim.poke("local_partition", 0x2a);
        }
        boolean ready = rnd.nextInt(6) > 0;
        sim.poke("m_axis_tready", ready ? 1 : 0);
        // the link's flow control now and then holds a few VCs (retransmissions and ACK-only PDUs wait)
        if (rnd.nextInt(64) == 0) {
            linkVcReady = rnd.nextInt(3) == 0 ? rnd.nextInt(16) : 0xf;
        }
        sim.poke("link_vc_ready", linkVcReady);
        sim.poke("ack_reply_valid", replyDue ? 1 : 0);
        sim.poke("ack_reply_op", rnd.nextInt(4));
        sim.poke("ack_reply_rpsn", rnd.nextInt(1 << 16));
        long[] a = answers.peekFirst();
        boolean answer = a != null && a[0] <= cycle;
        sim.poke("peer_ack_valid", answer ? 1 : 0);
        sim.poke("peer_ack_xpu", answer ? a[1] : rnd.nextInt(destinations));
        sim.poke("peer_ack_op", answer ? a[2] : rnd.nextInt(4));
        sim.poke("peer_ack_rpsn", answer ? a[3] : rnd.nextInt(1 << 16));
        if (answer) {
            answers.pollFirst();
        }
        if (requestXpu < 0 && rnd.nextInt(100) == 0) {
            requestXpu = rnd.nextInt(destinations);
        }
        sim.poke("ack_request_valid", requestXpu >= 0 ? 1 : 0);
        sim.poke("ack_request_xpu", Math.max(requestXpu, 0));
        int dst = rnd.nextInt(destinations);
        if (beats.idle() && rnd.nextInt(3) == 0 && sim.peekBig("dst_ready").testBit(dst)) { // as the packing buffer
            byte[] pdu = new byte[1 + rnd.nextInt(maxBytes)];
            rnd.nextBytes(pdu);
            pdu[0] = (byte) (1 + rnd.nextInt(255));
            beats.start(pdu, new SueMeta(dst, 0, rnd.nextInt(4), 0, 0, 0, 0, 0, false, pdu.length).pack());
        }
        boolean offering = !beats.idle();
        if (offering) {
            beats.offer(rnd.nextInt(8) > 0, rnd);
        } else {
            sim.poke("s_axis_tvalid", 0);
        }
        // everything is driven: look at what crosses in this cycle
        if (offering) {
            beats.advance();
        }
        if (requestXpu >= 0 && sim.peek("ack_request_ready") == 1) {
            requestXpu = -1;
        }
        replyDue = sim.peek("ack_query_valid") == 1;
        if (ready && sim.peek("m_axis_tvalid") == 1) {
            if (outFirst && (sim.peekWide("m_axis_tdata")[0] & 0xff) != 0) {
                SueMeta m = SueMeta.unpack(sim.peekBig("m_axis_tuser"));
                peer(cycle, m.dstXpu() % destinations, m.psn(), rnd);
            }
            outFirst = sim.peek("m_axis_tlast") == 1;
        }
    }

    private void peer(long cycle, int c, int psn, Random rnd) {
        if (c == dead && cycle >= deadFrom && cycle < deadTo) {
            return;
        }
        int diff = Math.floorMod(psn - expected[c], 1 << 16);
        if (diff == 0 && rnd.nextInt(16) != 0) {
            expected[c] = (expected[c] + 1) & 0xffff;
            nackSent[c] = false;
            answers.addLast(new long[] {cycle + DELAY, c, 1, (expected[c] - 1) & 0xffff});
        } else if (diff == 0 || diff < 1 << 15) {
            if (diff != 0 && !nackSent[c]) {
                nackSent[c] = true;
                answers.addLast(new long[] {cycle + DELAY, c, 2, expected[c]});
            }
        } else {
            answers.addLast(new long[] {cycle + DELAY, c, 1, (expected[c] - 1) & 0xffff});
        }
    }
}
