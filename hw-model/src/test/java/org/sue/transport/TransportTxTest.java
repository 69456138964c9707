package org.sue.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.tb.PacketBeats;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;
import org.sue.transport.model.TransportTxModel;

class TransportTxTest {
    private static final int LOCAL_XPU = 5;
    private static final int LOCAL_PARTITION = 7;

    /** 256-bit bus, 8 destinations, 16 KiB store, window 32, timeout 2000 cycles. */
    static TransportConfig small() {
        return TransportConfig.builder(256).destinations(8).storeBytes(16384).windowPdus(32).rtoCycles(2000)
                .ackDelay(100).ackCount(4).build();
    }

    @ParameterizedTest
    @CsvSource({"11,0.03", "12,0.1", "13,0.01"})
    void deliversEveryPduOnceInOrderOverALossyLink(long seed, double loss) {
        Run r = new Run(small(), seed, loss);
        r.outage(20_000, 6_000); // everything lost for a while: only the timeout recovers the last PDUs
        r.traffic(2500, 8);
        r.drain(400_000);
        r.checkDelivered();
        assertTrue(r.sim.peek("retransmitted_pdus") > 0, "retransmissions happened");
        assertTrue(r.sim.peek("timeouts") > 0, "timeouts happened");
        assertTrue(r.sim.peek("nacks_received") > 0, "NACKs were processed");
        assertTrue(r.goBacks > 0, "go-backs were seen on the wire");
        assertTrue(loss < 0.02 || r.sim.peek("pdus_held_for_retransmission") > 0, "new PDUs held for a go-back"
                + " returned their link credit reservation");
    }

    /**
     * A link that loses everything for 40,000 cycles (20 timeouts): each destination with PDUs outstanding is declared
     * unreachable after 4 timeouts without progress (dst_down, dst_unreachable, as the model counts them), then
     * probed with one PDU every probeCycles instead of a go-back every rtoCycles, and back (dst_up) at the first ACK
     * after the outage, which resends the rest at once: every PDU delivered once and in order.
     */
    @Test
    void aSilentDestinationIsDeclaredUnreachableProbedAndBack() {
        TransportConfig cfg = small().toBuilder().probeCycles(5000).build();
        Run r = new Run(cfg, 31, 0.01);
        r.outage(10_000, 40_000);
        r.traffic(1500, 8);
        r.drain(400_000);
        r.checkDelivered();
        long lost = r.sim.peek("destinations_lost");
        assertTrue(lost >= 4, "destinations declared unreachable: " + lost);
        assertEquals(lost, r.sim.peek("destinations_back"), "every one back");
        assertTrue(r.declaredCycles > 20_000, "declared for " + r.declaredCycles + " cycles");
        long probes = r.sim.peek("probes");
        assertTrue(probes >= lost && probes <= lost * (40_000 / 5000 + 1), "probes " + probes + ", one per"
                + " probeCycles at most");
    }

    /**
     * One of eight destinations goes silent (everything to it lost) for 40,000 cycles while traffic to the others goes
     * on, in a store of 2,048 beats that the others' PDUs fill in a few thousand cycles: the silent one takes no new
     * PDU after its first timeout and its unacknowledged records are moved from the store's head to its tail (section
     * 6.7), so the others keep their goodput; when it answers again every PDU of every destination has arrived once
     * and in order.
     */
    @Test
    void aSilentDestinationDoesNotHoldUpTheOthers() {
        Run r = new Run(small().toBuilder().storeBytes(65536).probeCycles(5000).build(), 41, 0);
        int dead = 3;
        r.traffic(300, 8);
        long window = 30_000;
        long bytesBefore = r.liveBytes(dead);
        r.trafficFor(window, 8);
        long before = r.liveBytes(dead) - bytesBefore;
        r.silence(dead, r.sim.cycle(), 40_000);
        r.trafficFor(10_000, 8); // its last PDUs time out, the store fills with the others' behind them
        bytesBefore = r.liveBytes(dead);
        r.trafficFor(window, 8);
        long during = r.liveBytes(dead) - bytesBefore;
        r.drain(400_000);
        r.checkDelivered();
        assertTrue(r.sim.peek("pdus_relocated") > 0, "records of the silent destination relocated");
        assertEquals(1, r.sim.peek("destinations_lost"), "the silent destination declared unreachable");
        assertTrue(during >= 0.9 * before, "the others' goodput: " + during + " bytes in " + window + " cycles while"
                + " one was silent, " + before + " before");
    }

    /** A resent PDU lost again: the receiver's second NACK restarts the go-back at once, no timeout needed. */
    @Test
    void aNackDuringAGoBackRestartsItWithoutATimeout() {
        Run r = new Run(small(), 21, 0);
        r.readyPercent = 100;
        r.validPercent = 100;
        r.dropSend(0, 10, 1); // PSN 10 lost: NACK(10), go-back from 10
        r.dropSend(0, 11, 2); // its resent PSN 11 lost too: NACK(11) arrives while the go-back still runs
        int sent = 0;
        while (sent < 120) {
            if (r.src.idle() && r.eligible(0)) {
                r.submit(0, 500);
                sent++;
            }
            r.cycle();
        }
        r.drain(small().rtoCycles()); // would need a timeout if the second NACK were ignored
        r.checkDelivered();
        assertEquals(0, r.sim.peek("timeouts"));
        assertEquals(2, r.sim.peek("nacks_received"));
        assertEquals(1, r.sim.peek("go_back_restarts"));
    }

    /**
     * Two ports: the same XPU ids on port 0 and port 1 are different connections (rows {port, XPU}) with their own
     * PSNs, ACKs, go-backs and eligibility bits.
     */
    @Test
    void twoPortsKeepTheSameXpuIdsApart() {
        Run r = new Run(small().withPorts(2), 31, 0.03);
        r.traffic(1500, 16);
        r.drain(400_000);
        r.checkDelivered(); // in order per connection: each numbered from PSN 0 on its own (the model checks the wire)
        assertTrue(r.submitted.get(3).size() > 0 && r.submitted.get(8 + 3).size() > 0, "XPU 3 used on both ports");
        assertTrue(r.sim.peek("retransmitted_pdus") > 0, "retransmissions happened");
    }

    /**
     * Connection ports hurried at random (their route left a port that went down): each of their connections with
     * PDUs unacknowledged goes back to una at the scanner's next visit, long before its timeout, and no hurried
     * go-back counts as a strike (the reference declares a destination unreachable only after timeouts).
     */
    @Test
    void hurriedConnectionsGoBackWithoutAStrike() {
        Run r = new Run(small().withPorts(2), 47, 0.03);
        r.hurryOneIn = 300;
        r.traffic(1500, 16);
        r.hurryOneIn = 0;
        r.drain(400_000);
        r.checkDelivered();
        assertTrue(r.sim.peek("hurried_go_backs") > 20, "hurried go-backs: " + r.sim.peek("hurried_go_backs"));
        assertEquals(0, r.declaredCycles, "no destination declared unreachable");
    }

    /**
     * The link's flow control holds VCs 0 and 1 (link_vc_ready low) for a while: no retransmission or ACK-only PDU
     * (VC 0) on them starts meanwhile, except one already offered when the hold began, while new PDUs on VCs 2 and 3
     * keep leaving; afterwards everything is delivered.
     */
    @Test
    void retransmissionsAndAckOnlyPdusWaitWhileTheLinkHoldsTheirVc() {
        // a store with room beside the relocation reserve (a largest PDU, a quarter of small()'s)
        Run r = new Run(small().toBuilder().storeBytes(32768).build(), 17, 0.05);
        r.traffic(300, 8);
        long holdFrom = r.sim.cycle();
        r.heldVcs = 0b0011;
        int sent = 0;
        while (r.sim.cycle() < holdFrom + 8000) {
            if (r.src.idle() && sent < 200) {
                int c = 2 + 4 * r.rnd.nextInt(2) + r.rnd.nextInt(2); // VC c % 4 is 2 or 3
                if (r.eligible(c)) {
                    r.submit(c, 1 + r.rnd.nextInt(300));
                    sent++;
                }
            }
            if (r.rnd.nextInt(100) == 0) {
                r.ackRequests.add(r.rnd.nextInt(8));
            }
            r.cycle();
        }
        long held = r.heldStarts;
        long ackOnlyBefore = r.sim.peek("ack_only_sent");
        r.heldVcs = 0;
        r.drain(400_000);
        r.checkDelivered();
        assertTrue(held <= 2, "at most one PDU per held source was already offered, got " + held);
        assertTrue(r.freshDuringHold > 50, "new PDUs on other VCs kept leaving: " + r.freshDuringHold);
        assertTrue(r.sim.peek("ack_only_sent") > ackOnlyBefore + 5, "the ACK-only PDUs waited and then left: "
                + (r.sim.peek("ack_only_sent") - ackOnlyBefore));
    }

    /**
     * The link holds every VC (as LLR in INIT holds every frame) while the peer is silent: the timeout's go-back cannot
     * start, and its later timeouts strike without another go-back (scan_waited, as the model counts them), so each
     * destination with PDUs outstanding is declared unreachable 4 timeouts after its last ACK, not never; once the
     * link lets go and the peer answers, every destination is back and every PDU delivered once and in order.
     */
    @Test
    void aGoBackTheLinkHoldsStillCountsTowardsUnreachable() {
        Run r = new Run(small(), 23, 0);
        r.traffic(200, 8);
        r.peerSilent = true;
        r.heldVcs = 0b1111;
        r.trafficFor(500, 8);
        r.idle(6 * small().rtoCycles());
        long lost = r.sim.peek("destinations_lost");
        assertTrue(lost >= 1, "destinations declared unreachable while their go-back waited: " + lost);
        assertEquals(r.waits, r.sim.peek("go_back_waits"));
        assertTrue(r.waits >= 3 * lost, "3 strikes after the first timeout each, got " + r.waits);
        assertTrue(r.heldStarts <= 1, "nothing but one PDU offered before the hold left on a held VC: " + r.heldStarts);
        r.heldVcs = 0;
        r.peerSilent = false;
        r.drain(400_000);
        r.checkDelivered();
        assertEquals(lost, r.sim.peek("destinations_back"), "every one back");
    }

    @Test
    void losslessTrafficNeedsNoRetransmission() {
        Run r = new Run(small(), 3, 0);
        r.traffic(800, 8);
        r.drain(100_000);
        r.checkDelivered();
        assertEquals(0, r.sim.peek("retransmitted_pdus"));
        assertEquals(0, r.sim.peek("timeouts"));
    }

    @Test
    void windowClosesADestinationUntilItsAcksArrive() {
        Run r = new Run(small(), 5, 0);
        r.peerSilent = true; // no ACKs: PDUs pile up
        int sent = 0;
        while (sent < 40 && r.sim.cycle() < 20_000) {
            if (r.src.idle() && r.eligible(2)) {
                r.submit(2, 40);
                sent++;
            }
            r.cycle();
        }
        r.idle(50);
        assertTrue(!r.eligible(2), "destination 2 closed after its window of 32");
        assertTrue(r.eligible(3), "others stay open");
        assertTrue(sent <= 32 + 4, "at most the window plus the in-flight slack entered, got " + sent);
        r.peerSilent = false;
        r.drain(200_000); // the timeout resends, the peer ACKs, the window opens
        r.checkDelivered();
        assertTrue(r.eligible(2));
    }

    @Test
    void newPdusLeaveAtOneBeatPerCycle() {
        Run r = new Run(small(), 9, 0);
        r.readyPercent = 100;
        r.validPercent = 100;
        r.peerSilent = true;
        long firstBeat = -1;
        int beats = 0;
        for (int i = 0; i < 24; i++) {
            r.queue.add(new int[] {i % 8, 32 * 3}); // three full beats each
            beats += 3;
        }
        while (r.out.packets().size() < 24 && r.sim.cycle() < 5000) {
            if (r.src.idle() && !r.queue.isEmpty()) {
                int[] p = r.queue.poll();
                r.submit(p[0], p[1]);
            }
            if (firstBeat < 0 && r.sim.peek("m_axis_tvalid") == 1) {
                firstBeat = r.sim.cycle();
            }
            r.cycle();
        }
        long lastBeat = r.out.packets().get(23).cycle();
        assertEquals(beats - 1, lastBeat - firstBeat, "no bubble between back-to-back PDUs");
    }

    @Test
    void invalidConfigurationsNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> small().toBuilder().ports(3).build()).getMessage().contains("ports"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> small().toBuilder().storeBytes(10000).build()).getMessage().contains("storeBytes"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> small().toBuilder().windowPdus(1 << 15).build()).getMessage().contains("windowPdus"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> small().toBuilder().opAck(2).build()).getMessage().contains("opAck"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> small().toBuilder().ackDelay(3000).build()).getMessage().contains("ackDelay"));
    }

    /** One transmitter under test, a lossy link each way and a peer receiver that ACKs every PDU and NACKs a gap once. */
    private static final class Run {
        final TransportConfig cfg;
        final Simulator sim;
        final Random rnd;
        final double loss;
        final PacketBeats src;
        final StreamMonitor out;
        final TransportTxModel model;
        final List<List<byte[]>> submitted = new ArrayList<>();
        final List<List<byte[]>> delivered = new ArrayList<>();
        final int[] expected;
        final boolean[] nackSent;
        final Deque<long[]> backward = new ArrayDeque<>(); // {arrival cycle, conn, op, rpsn}
        final Deque<int[]> queue = new ArrayDeque<>();
        final Deque<long[]> replies = new ArrayDeque<>();   // op/rpsn answered to each query, in order
        final Deque<Integer> ackRequests = new ArrayDeque<>();
        final Map<Long, Integer> dropSends = new HashMap<>(); // (connection, PSN) -> the one sending of it to lose
        final Map<Long, Integer> sends = new HashMap<>();
        long outageFrom = -1;
        long outageTo = -1;
        int silent = -1;
        long silentFrom;
        long silentTo;
        int readyPercent = 80;
        int validPercent = 90;
        boolean peerSilent;
        long[] pendingReply;
        boolean upExpected;   // the model saw an unreachable destination acknowledge last cycle
        long declaredCycles;  // cycles with some destination declared unreachable
        int seenPackets;
        int goBacks;
        int waits;            // timeouts while a go-back waited (scan_waited), as the model counted them
        int heldVcs;          // link_vc_ready low for these VCs
        int hurryOneIn;       // more ports: a random connection port hurried once in this many cycles (0: never)
        long heldStarts;      // retransmitted or ACK-only PDUs on a held VC leaving m_axis
        long freshDuringHold; // PDUs sent the first time while some VC is held
        long heldSince = -1;
        // link credit accounting per VC: picks (submitted PDUs) and starts reserve, held-back PDUs return, first beats charge
        final long[] reserved = new long[4];
        final long[] returned = new long[4];
        final long[] charged = new long[4];
        static final int DELAY = 60;

        Run(TransportConfig cfg, long seed, double loss) {
            this.cfg = cfg;
            this.loss = loss;
            rnd = new Random(seed);
            sim = Simulator.compile(Design.elaborate(new TransportTx(cfg)));
            model = new TransportTxModel(cfg.opAck(), cfg.opNack(), cfg.unreachableTimeouts());
            expected = new int[cfg.connections()];
            nackSent = new boolean[cfg.connections()];
            for (int i = 0; i < cfg.connections(); i++) {
                submitted.add(new ArrayList<>());
                delivered.add(new ArrayList<>());
            }
            sim.reset();
            sim.poke("local_xpu", LOCAL_XPU);
            sim.poke("local_partition", LOCAL_PARTITION);
            sim.poke("link_vc_ready", everyPort(cfg, 0xf));
            src = new PacketBeats(sim, "s_axis");
            out = new StreamMonitor(sim, "m_axis", null);
            while (sim.peek("init_busy") == 1) {
                cycle();
            }
        }

        void outage(long from, long length) {
            outageFrom = from;
            outageTo = from + length;
        }

        void dropSend(int c, int psn, int nth) {
            dropSends.put((long) c << 16 | psn, nth);
        }

        boolean eligible(int c) {
            return sim.peekBig("dst_ready").testBit(c);
        }

        boolean lost() {
            long now = sim.cycle();
            return now >= outageFrom && now < outageTo || rnd.nextDouble() < loss;
        }

        /** Everything to connection {@code c} lost from cycle {@code from} for {@code length} cycles. */
        void silence(int c, long from, long length) {
            silent = c;
            silentFrom = from;
            silentTo = from + length;
        }

        /** Bytes delivered so far to the connections other than {@code c}. */
        long liveBytes(int c) {
            long sum = 0;
            for (int i = 0; i < cfg.connections(); i++) {
                for (byte[] b : i == c ? List.<byte[]>of() : delivered.get(i)) {
                    sum += b.length;
                }
            }
            return sum;
        }

        void submit(int c, int bytes) {
            byte[] b = new byte[bytes];
            rnd.nextBytes(b);
            b[0] = (byte) (1 + rnd.nextInt(255)); // a command type, never 0
            submitted.get(c).add(b);
            model.newPdu(c, b);
            int d = cfg.destinations();
            BigInteger user = new SueMeta(c % d, 0, c % 4, 0, 0, 0, 0, c / d, false, bytes).pack();
            reserved[c % 4]++; // a pick
            src.start(b, user);
        }

        /** Random PDUs to random eligible destinations among the first {@code dests}. */
        void traffic(int pdus, int dests) {
            int sent = 0;
            long start = sim.cycle();
            while (sent < pdus) {
                if (sim.cycle() - start > 2000L * pdus) {
                    throw new AssertionError("traffic stuck after " + sent + " PDUs: dst_ready "
                            + sim.peekBig("dst_ready").toString(2) + ", store records " + sim.peek("store_records")
                            + ", beats " + sim.peek("store_used_beats") + ", delivered "
                            + delivered.stream().map(List::size).toList());
                }
                sent += trafficCycle(dests);
            }
        }

        /** Random PDUs to random eligible destinations among the first {@code dests} for {@code cycles} cycles. */
        void trafficFor(long cycles, int dests) {
            long end = sim.cycle() + cycles;
            while (sim.cycle() < end) {
                trafficCycle(dests);
            }
        }

        /** One cycle of random traffic: a PDU submitted (1) or not (0), now and then an ACK-only request. */
        private int trafficCycle(int dests) {
            int sent = 0;
            if (src.idle()) {
                int c = rnd.nextInt(dests);
                if (eligible(c) && rnd.nextInt(4) != 0) {
                    submit(c, 1 + rnd.nextInt(rnd.nextInt(8) == 0 ? 2000 : 200));
                    sent = 1;
                }
            }
            if (rnd.nextInt(200) == 0) {
                ackRequests.add(rnd.nextInt(cfg.connections()));
            }
            cycle();
            return sent;
        }

        void idle(int cycles) {
            for (int i = 0; i < cycles; i++) {
                cycle();
            }
        }

        void drain(long limit) {
            long start = sim.cycle();
            while (!src.idle() || !done()) {
                if (sim.cycle() - start > limit) {
                    throw new AssertionError("no progress: store records " + sim.peek("store_records")
                            + ", delivered " + delivered.stream().map(List::size).toList() + " of "
                            + submitted.stream().map(List::size).toList() + ", retransmitting "
                            + sim.peek("retransmitting_any"));
                }
                cycle();
            }
            idle(2 * cfg.connections() + 10); // a scanner round refreshes the window bits
        }

        /** Everything delivered and acknowledged, and every ACK-only PDU asked for started. */
        boolean done() {
            if (!ackRequests.isEmpty()) {
                return false;
            }
            for (int c = 0; c < cfg.connections(); c++) {
                if (delivered.get(c).size() != submitted.get(c).size()) {
                    return false;
                }
            }
            return sim.peek("store_records") == 0 && sim.peek("store_used_beats") == 0;
        }

        void checkDelivered() {
            for (int c = 0; c < cfg.connections(); c++) {
                assertEquals(submitted.get(c).size(), delivered.get(c).size(), "PDUs of connection " + c);
                for (int i = 0; i < submitted.get(c).size(); i++) {
                    assertArrayEquals(submitted.get(c).get(i), delivered.get(c).get(i),
                            "connection " + c + " PDU " + i);
                }
            }
            assertTrue(model.allAcknowledged());
            for (int vc = 0; vc < 4; vc++) {
                assertEquals(reserved[vc] - returned[vc], charged[vc], "every reservation of VC " + vc
                        + " charged or returned");
            }
            assertEquals(BigInteger.ONE.shiftLeft(cfg.connections()).subtract(BigInteger.ONE), sim.peekBig("dst_ready"),
                    "every destination eligible at the end");
        }

        /** One clock cycle: drive inputs, step, then look at what crossed. */
        void cycle() {
            long now = sim.cycle();
            boolean offering = !src.idle();
            if (offering) {
                src.offer(rnd.nextInt(100) < validPercent, rnd);
            } else {
                sim.poke("s_axis_tvalid", 0);
            }
            sim.poke("m_axis_tready", rnd.nextInt(100) < readyPercent ? 1 : 0);
            sim.poke("link_vc_ready", everyPort(cfg, ~heldVcs & 0xf));
            if (cfg.ports() > 1) {
                sim.poke("hurry", hurryOneIn > 0 && rnd.nextInt(hurryOneIn) == 0 ? 1L << rnd.nextInt(cfg.ports()) : 0);
            }
            heldSince = heldVcs == 0 ? -1 : heldSince < 0 ? now : heldSince;
            // ack_reply answers the query of the previous cycle
            if (pendingReply != null) {
                sim.poke("ack_reply_valid", 1);
                sim.poke("ack_reply_op", pendingReply[0]);
                sim.poke("ack_reply_rpsn", pendingReply[1]);
                replies.add(pendingReply);
                pendingReply = null;
            } else {
                sim.poke("ack_reply_valid", 0);
            }
            long[] ev = backward.peekFirst();
            boolean upNow = upExpected; // the ACK the transmitter takes this cycle made its destination reachable
            if (ev != null && ev[0] <= now) {
                backward.pollFirst();
                sim.poke("peer_ack_valid", 1);
                sim.poke("peer_ack_port", ev[1] / cfg.destinations());
                sim.poke("peer_ack_xpu", ev[1] % cfg.destinations());
                sim.poke("peer_ack_op", ev[2]);
                sim.poke("peer_ack_rpsn", ev[3]);
                assertEquals(upExpected ? 1 : 0, sim.peek("dst_up_valid"), "dst_up at cycle " + now);
                upExpected = model.ack((int) ev[1], (int) ev[2], (int) ev[3], now);
            } else {
                assertEquals(upExpected ? 1 : 0, sim.peek("dst_up_valid"), "dst_up at cycle " + now);
                upExpected = false;
                sim.poke("peer_ack_valid", 0);
            }
            boolean request = !ackRequests.isEmpty();
            sim.poke("ack_request_valid", request ? 1 : 0);
            int requested = request ? ackRequests.peekFirst() : 0;
            sim.poke("ack_request_port", requested / cfg.destinations());
            sim.poke("ack_request_xpu", requested % cfg.destinations());
            if (request && sim.peek("ack_request_ready") == 1) {
                ackRequests.pollFirst();
            }
            if (sim.peek("ack_query_valid") == 1) {
                pendingReply = new long[] {rnd.nextInt(4), rnd.nextInt(1 << 16)};
            }
            linkCredits();
            int scanned = (int) sim.peek("scan_prev");
            boolean declared = false;
            if (sim.peek("scan_resend") == 1) {
                TransportTxModel.Timeout t = sim.peek("scan_quiet") == 1 ? model.timeout(scanned, now, 4)
                        : model.hurried(scanned, now, 4);
                declared = t.declared();
                assertEquals(t.probe() ? 1 : 0, sim.peek("scan_down"), "a probe of connection " + scanned + " at " + now);
            } else if (sim.peek("scan_waited") == 1) {
                declared = model.waited(scanned);
                waits++;
            }
            assertEquals(declared ? 1 : 0, sim.peek("dst_down_valid"), "dst_down at cycle " + now);
            if (declared) {
                assertEquals(scanned % cfg.destinations(), sim.peek("dst_down_xpu"));
            }
            BigInteger down = sim.peekBig("dst_unreachable");
            declaredCycles += down.signum();
            for (int c = 0; c < cfg.connections(); c++) {
                if (c != scanned && !upNow && !upExpected) { // the scanned row and ACKs in flight change now
                    assertEquals(model.unreachable(c), down.testBit(c), "connection " + c + " unreachable at " + now);
                }
            }
            if (offering) {
                src.advance();
            }
            sim.step();
            while (seenPackets < out.packets().size()) {
                onPacket(out.packets().get(seenPackets++));
            }
        }

        /** Every frame charged was reserved before; a start happens only on a VC the link lets start. */
        private void linkCredits() {
            if (sim.peek("reserve_valid") == 1) {
                int vc = (int) sim.peek("reserve_vc");
                assertEquals(1, ~heldVcs >> vc & 1, "a start on VC " + vc + " while the link holds it");
                assertEquals(0, sim.peek("pick_vc_ready"), "no pick beside a start");
                reserved[vc]++;
            }
            if (sim.peek("unreserve_valid") == 1) {
                returned[(int) sim.peek("unreserve_vc")]++;
            }
            if (sim.peek("charge_valid") == 1) {
                int vc = (int) sim.peek("charge_vc");
                charged[vc]++;
                assertTrue(charged[vc] <= reserved[vc] - returned[vc], "VC " + vc + " charged more than reserved");
            }
        }

        private void onPacket(StreamMonitor.Packet p) {
            SueMeta m = SueMeta.unpack(p.user());
            long[] reply = replies.pollFirst();
            assertEquals(reply[0], m.op(), "op from ack_reply");
            assertEquals(reply[1], m.rpsn(), "rpsn from ack_reply");
            assertEquals(LOCAL_XPU, m.srcXpu());
            assertEquals(LOCAL_PARTITION, m.partition());
            assertEquals(p.bytes().length, m.len());
            boolean held = heldSince >= 0 && (heldVcs >> m.vc() & 1) == 1;
            if (p.bytes()[0] == 0) { // ACK-only
                assertEquals(1, p.bytes().length);
                assertEquals(0, m.psn());
                heldStarts += held ? 1 : 0;
                return;
            }
            assertTrue(m.dstXpu() < cfg.destinations() && m.port() < cfg.ports(), "a known connection: " + m);
            int c = m.port() * cfg.destinations() + m.dstXpu();
            if (model.onWire(c, m.psn(), p.bytes(), p.cycle())) {
                goBacks++;
            }
            long key = (long) c << 16 | m.psn();
            int nth = sends.merge(key, 1, Integer::sum);
            heldStarts += held && nth > 1 ? 1 : 0;
            freshDuringHold += heldSince >= 0 && nth == 1 ? 1 : 0;
            boolean silenced = c == silent && p.cycle() >= silentFrom && p.cycle() < silentTo;
            if (lost() || silenced || dropSends.getOrDefault(key, 0) == nth) {
                return;
            }
            peer(c, m.psn(), p.bytes(), p.cycle() + DELAY);
        }

        /** The receiver at the far end (docs/protocol.md 6.4), answering at once over the lossy backward link. */
        private void peer(int c, int psn, byte[] bytes, long at) {
            int diff = Math.floorMod(psn - expected[c], 1 << 16);
            if (diff == 0) {
                delivered.get(c).add(bytes);
                expected[c] = (expected[c] + 1) % (1 << 16);
                nackSent[c] = false;
                answer(at, c, 1, (expected[c] - 1) & 0xffff);
            } else if (diff < 1 << 15) {
                if (!nackSent[c]) {
                    nackSent[c] = true;
                    answer(at, c, 2, expected[c]);
                }
            } else {
                answer(at, c, 1, (expected[c] - 1) & 0xffff);
            }
        }

        private void answer(long at, int c, int op, int rpsn) {
            if (peerSilent || lost()) {
                return;
            }
            long arrival = Math.max(at + DELAY, backward.isEmpty() ? 0 : backward.peekLast()[0]);
            backward.addLast(new long[] {arrival, c, op, rpsn});
        }
    }

    /** {@code link_vc_ready} with the same VCs ready on every port (4 bits a port). */
    static long everyPort(TransportConfig cfg, int vcs) {
        long v = 0;
        for (int p = 0; p < cfg.ports(); p++) {
            v |= (long) vcs << (4 * p);
        }
        return v;
    }
}
