package org.sue.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.lib.stream.tb.PacketBeats;
import org.sue.transport.model.TransportRxModel;
import org.sue.transport.model.TransportRxModel.Verdict;
import org.sue.transport.tb.TransportRxTraffic;
import org.sue.transport.tb.TransportRxTraffic.Pdu;

/**
 * {@link TransportRx} against {@link TransportRxModel}: every decision (which PDUs leave on m_axis, unchanged), every
 * peer_ack, reply and counter, the ACK request rules, full throughput, and the configuration errors.
 */
class TransportRxTest {
    static TransportConfig small(int busWidth, int destinations, int ackDelay, int ackCount) {
        return TransportConfig.builder(busWidth).destinations(destinations).storeBytes(16384).windowPdus(64)
                .rtoCycles(Math.max(512, 2 * destinations)).ackDelay(ackDelay).ackCount(ackCount).build();
    }

    @ParameterizedTest
    @CsvSource({"512, 8, 40, 4, 6, 1", "1024, 64, 60, 3, 8, 2", "256, 1024, 100, 16, 10, 3", "512, 2, 30, 1, 2, 4"})
    void matchesTheModelUnderRandomTraffic(int busWidth, int destinations, int ackDelay, int ackCount, int sources,
                                           long seed) {
        TransportConfig config = small(busWidth, destinations, ackDelay, ackCount);
        TransportRxBench bench = new TransportRxBench(config);
        Random rnd = new Random(seed);
        TransportRxTraffic traffic = new TransportRxTraffic(config, bench.sim, rnd, sources);
        for (int c = 0; c < 12000; c++) {
            if (c % 1000 == 0) { // new rates: from idle links to a stalled output
                traffic.validPercent = 20 + rnd.nextInt(81);
                traffic.outReadyPercent = 20 + rnd.nextInt(81);
                traffic.queryPercent = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(30);
                traffic.requestReadyPercent = 50 + rnd.nextInt(51);
            }
            traffic.drive(rnd);
            bench.entered(traffic.takeEntered());
            bench.cycle(traffic.queried());
        }
        // drain: no more PDUs or queries; every owed ACK must still be requested
        traffic.quiet = true;
        traffic.queryPercent = 0;
        traffic.outReadyPercent = 100;
        traffic.requestReadyPercent = 100;
        for (int c = 0; c < 2 * ackDelay + 200; c++) {
            traffic.drive(rnd);
            bench.entered(traffic.takeEntered());
            bench.cycle(traffic.queried());
        }
        assertTrue(traffic.idle());
        bench.finish();

        // the interesting cases happened
        for (Verdict v : Verdict.values()) {
            if (v != Verdict.UNKNOWN_SOURCE || destinations < 1024) {
                assertTrue(bench.verdicts.getOrDefault(v, 0) > 20, v + " only " + bench.verdicts);
            }
        }
        assertTrue(bench.replyOps.keySet().containsAll(List.of(1, 2)), "ACK and NACK replies " + bench.replyOps);
        assertTrue(bench.backToBackSameSource > 20, bench.backToBackSameSource + " one-beat PDUs of one source"
                + " accepted in consecutive cycles");
        long urgent = bench.requests.stream().filter(r -> r[2] == 1).count();
        assertTrue(urgent > 10 && bench.requests.size() - urgent > 10, bench.requests.size() + " requests, "
                + urgent + " urgent");
        System.out.printf("TransportRx w%d d%d: %s, replies %s, %d requests (%d urgent), %d back-to-back%n",
                busWidth, destinations, bench.verdicts, bench.replyOps, bench.requests.size(), urgent,
                bench.backToBackSameSource);
    }

    /**
     * One-beat PDUs of one source every cycle through a PSN wrap, then PDUs of all sizes from three sources: no
     * cycle without a beat in and out.
     */
    @Test
    void fullThroughputIncludingBackToBackOneBeatPdusOfOneSource() {
        TransportConfig config = small(512, 16, 200, 16);
        TransportRxBench bench = new TransportRxBench(config);
        PacketBeats beats = new PacketBeats(bench.sim, "s_axis");
        Random rnd = new Random(9);
        int onePdus = 70000; // past 65535: expected wraps to 0
        int[] next = new int[3];
        int beatsIn = 0;
        long firstIn = bench.sim.cycle();
        int sent = 0;
        int mixed = 600;
        while (sent < onePdus + mixed) {
            if (beats.idle()) {
                Pdu p;
                if (sent < onePdus) {
                    p = TransportRxBench.onePdu(3, sent, false, config.beatBytes());
                } else {
                    int s = rnd.nextInt(3);
                    p = pdu(rnd, 5 + s, next[s]++, 1 + rnd.nextInt(4 * config.beatBytes()));
                }
                beats.start(p.bytes(), p.user());
                bench.entered(List.of(p));
                sent++;
            }
            beats.offer(true, null);
            assertEquals(1, bench.sim.peek("s_axis_tready"), "s_axis ready at " + bench.sim.cycle());
            beats.advance();
            beatsIn++;
            bench.cycle(-1);
        }
        long lastIn = bench.sim.cycle() - 1;
        bench.sim.poke("s_axis_tvalid", 0);
        for (int c = 0; c < 600; c++) {
            bench.sim.poke("ack_query_valid", c == 0 ? 1 : 0); // the ACK of the 70000th PDU: PSN 69999 mod 2^16
            bench.sim.poke("ack_query_xpu", 3);
            bench.cycle(c == 0 ? 3 : -1);
        }
        bench.finish();
        assertEquals(onePdus + mixed, bench.model.accepted());
        assertEquals(beatsIn, lastIn - firstIn + 1, "a beat in every cycle");
        assertEquals(beatsIn, bench.out.beats());
        assertTrue(bench.backToBackSameSource >= onePdus - 1, bench.backToBackSameSource + " back to back");
        assertEquals(onePdus % 65536, bench.model.expected(3));
        long outSpan = bench.out.packets().get(bench.out.packets().size() - 1).cycle() - bench.out.firstBeatCycle() + 1;
        assertEquals(beatsIn, outSpan, "a beat out in every cycle");
    }

    /**
     * Two ports: XPU 3 on port 0 and XPU 3 on port 1 are two connections, each with its own expected PSN, owed ACK or
     * NACK and requests; the port travels on peer_ack and ack_request.
     */
    @Test
    void twoPortsKeepTheSameXpuIdsApart() {
        TransportConfig config = small(512, 8, 40, 4).withPorts(2);
        org.sue.sim.Simulator sim = org.sue.sim.Simulator.compile(org.sue.core.Design.elaborate(new TransportRx(config)));
        sim.reset();
        sim.poke("m_axis_tready", 1);
        sim.poke("ack_request_ready", 0);
        PacketBeats beats = new PacketBeats(sim, "s_axis");
        int[][] pdus = {{0, 0}, {1, 0}, {0, 1}, {1, 2}}; // {port, PSN} from XPU 3: the last one skips PSN 1 of port 1
        List<Long> peerPorts = new java.util.ArrayList<>();
        for (int[] p : pdus) {
            byte[] b = {9, 1, 2, 3};
            beats.start(b, new org.sue.net.SueMeta(0, 3, 0, p[1], 0, 0, 0, p[0], false, b.length).pack());
            while (!beats.idle()) {
                beats.offer(true, null);
                beats.advance();
                sim.step();
                if (sim.peek("peer_ack_valid") == 1) {
                    peerPorts.add(sim.peek("peer_ack_port"));
                }
            }
        }
        for (int i = 0; i < 4; i++) {
            sim.poke("s_axis_tvalid", 0);
            sim.step();
            if (sim.peek("peer_ack_valid") == 1) {
                peerPorts.add(sim.peek("peer_ack_port"));
            }
        }
        assertEquals(3, sim.peek("accepted"), "PSN 0 of each port and PSN 1 of port 0");
        assertEquals(1, sim.peek("out_of_order_dropped"), "PSN 2 of port 1");
        assertEquals(0, sim.peek("duplicates_dropped"), "port 1's PSN 0 is not port 0's");
        assertEquals(List.of(0L, 1L, 0L, 1L), peerPorts);
        // the NACK is urgent: requested at once, for port 1
        assertEquals(1, sim.peek("ack_request_valid"));
        assertEquals(1, sim.peek("ack_request_port"));
        assertEquals(3, sim.peek("ack_request_xpu"));
        long[][] replies = new long[2][];
        for (int port = 0; port < 2; port++) {
            sim.poke("ack_query_valid", 1);
            sim.poke("ack_query_port", port);
            sim.poke("ack_query_xpu", 3);
            sim.step();
            sim.poke("ack_query_valid", 0);
            replies[port] = new long[] {sim.peek("ack_reply_op"), sim.peek("ack_reply_rpsn")};
            sim.step();
        }
        assertArrayEquals(new long[] {config.opAck(), 1}, replies[0], "port 0: ACK of PSN 1");
        assertArrayEquals(new long[] {config.opNack(), 1}, replies[1], "port 1: NACK, PSN 1 expected");
    }

    static Pdu pdu(Random rnd, int src, int psn, int bytes) {
        Pdu one = TransportRxBench.onePdu(src, psn, false, 64);
        byte[] b = new byte[bytes];
        rnd.nextBytes(b);
        b[0] = 9;
        org.sue.net.SueMeta m = org.sue.net.SueMeta.unpack(one.user());
        java.math.BigInteger user = new org.sue.net.SueMeta(m.dstXpu(), src, 2, psn & 0xFFFF, 2, 77, 5, 0, false,
                bytes).pack();
        return new Pdu(src, psn & 0xFFFF, false, 2, 77, b, user);
    }

    /** ACK request timing, directed: delayed, cancelled by a reply, urgent by count and by NACK, owed again. */
    @Test
    void ackRequestsFollowTheRules() {
        int delay = 40;
        TransportConfig config = small(512, 8, delay, 4);
        Directed t = new Directed(config);

        // an accepted PDU: requested ackDelay (+1: the output register) after its decision, once
        long d = t.send(3, 0);
        t.idle(3 * delay);
        assertEquals(List.of(d + delay + 1), t.bench.requestCycles(3), "delayed ACK of XPU 3 decided at " + d);

        // a PDU to the XPU carried the ACK: no request
        t.send(5, 0);
        t.idle(10);
        t.query(5, new TransportRxModel.Reply(1, 0));
        t.idle(3 * delay);
        assertEquals(List.of(), t.bench.requestCycles(5), "XPU 5's ACK went on a PDU");

        // ackCount PDUs back to back: requested at once (and again when the first one's delay ends)
        long first = t.send(2, 0);
        t.send(2, 1);
        t.send(2, 2);
        long fourth = t.send(2, 3);
        t.idle(3 * delay);
        assertEquals(List.of(fourth + 3, first + delay + 1), t.bench.requestCycles(2), "urgent then due, XPU 2");

        // a gap: NACK at once; the next gap sends none until the expected PSN arrives
        long gap = t.send(6, 3);
        t.idle(6);
        assertEquals(List.of(gap + 3), t.bench.requestCycles(6), "urgent NACK");
        t.query(6, new TransportRxModel.Reply(2, 0));
        t.send(6, 5);
        t.idle(6);
        t.query(6, new TransportRxModel.Reply(0, 0));
        assertEquals(1, t.bench.requestCycles(6).size(), "one NACK until the expected PSN arrives");
        t.send(6, 0);
        t.send(6, 2); // a new gap after an accept: NACK again
        t.idle(6);
        assertEquals(2, t.bench.requestCycles(6).size(), "a NACK after the next gap");
        t.query(6, new TransportRxModel.Reply(2, 1));
        t.send(6, 0); // duplicate: owes an ACK of PSN 0
        t.idle(3 * delay);
        t.query(6, new TransportRxModel.Reply(1, 0));

        // owed, carried by a reply while queued, owed again: requested not before ackDelay after the second owe
        long owe1 = t.send(1, 0);
        t.idle(5);
        t.query(1, new TransportRxModel.Reply(1, 0));
        t.idle(10);
        long owe2 = t.send(1, 1);
        t.idle(3 * delay);
        List<Long> one = t.bench.requestCycles(1);
        assertEquals(1, one.size(), "one request for XPU 1: " + one);
        assertTrue(one.get(0) - owe2 > delay && one.get(0) <= owe1 + 2 * delay + 4, "request for XPU 1 at "
                + one.get(0) + ", owed at " + owe1 + " and again at " + owe2);

        // ACK-only and unknown sources change nothing
        t.sendAckOnly(4);
        t.send(200, 0);
        t.idle(3 * delay);
        assertEquals(List.of(), t.bench.requestCycles(4));
        t.bench.finish();
        assertEquals(1, t.bench.sim.peek("unknown_source_dropped"));
        assertEquals(1, t.bench.sim.peek("ack_only_received"));
    }

    /** Drives one-beat PDUs and queries one at a time, with the bench checking everything. */
    static final class Directed {
        final TransportRxBench bench;
        final PacketBeats beats;

        Directed(TransportConfig config) {
            bench = new TransportRxBench(config);
            beats = new PacketBeats(bench.sim, "s_axis");
        }

        /** A one-beat PDU; returns the cycle it was decided in. */
        long send(int src, int psn) {
            return send(TransportRxBench.onePdu(src, psn, false, bench.config.beatBytes()));
        }

        long sendAckOnly(int src) {
            return send(TransportRxBench.onePdu(src, 0, true, bench.config.beatBytes()));
        }

        private long send(Pdu p) {
            beats.start(p.bytes(), p.user());
            beats.offer(true, null);
            assertEquals(1, bench.sim.peek("s_axis_tready"));
            beats.advance();
            bench.entered(List.of(p));
            long decided = bench.sim.cycle() + 1;
            bench.cycle(-1);
            bench.sim.poke("s_axis_tvalid", 0);
            return decided;
        }

        void idle(int cycles) {
            for (int i = 0; i < cycles; i++) {
                bench.cycle(-1);
            }
        }

        /** A query; the bench checks the reply against the model, this against what the rules say it is. */
        void query(int xpu, TransportRxModel.Reply expected) {
            bench.sim.poke("ack_query_valid", 1);
            bench.sim.poke("ack_query_xpu", xpu);
            bench.cycle(xpu);
            bench.sim.poke("ack_query_valid", 0);
            assertEquals(expected, new TransportRxModel.Reply((int) bench.sim.peek("ack_reply_op"),
                    (int) bench.sim.peek("ack_reply_rpsn")), "reply to " + xpu);
            bench.cycle(-1);
        }
    }

    @Test
    void invalidConfigurationsNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> small(512, 12, 40, 4)).getMessage()
                .contains("destinations"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> small(512, 8, 0, 4)).getMessage()
                .contains("ackDelay"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> small(512, 8, 40, 33)).getMessage()
                .contains("ackCount"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> small(512, 8, 40, 4).toBuilder().opNack(1)
                .build()).getMessage().contains("opNack"));
    }
}
