package org.sue.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.link.tb.ControlPorts;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * The CBFC sender and receiver joined over a link of 100 cycles each way that loses data frames (the receiver's
 * {@link MacControlDemux} takes the CC_Updates out of the frames, in order), and a control
 * channel that loses CF_Updates; a scheduler that picks every VC as fast as vc_ready lets it (reserving, then
 * charging two cycles later, now and then giving the reservation back), and an XPU that drains each VC at its own
 * slow rate, VC 3 stopping for long stretches.
 *
 * <p>Independent truth: the testbench's own receive buffers. No VC's buffer ever holds more credits than its limit,
 * nor the port more than the port's (no overflow); every VC keeps moving (no deadlock: VC 0 is not held back by VC
 * 3); and at the end, with the buffers drained and a CC_Update through, every credit is back: the sender's in-use
 * counts are zero, and the receiver recovered exactly the credits of the frames the link lost.
 */
class CbfcLinkTest {
    private static final int LINK = 100;

    @ParameterizedTest
    @CsvSource({"512,0.02,1", "1024,0.05,2", "256,0,3"})
    void noOverflowNoDeadlockAndLostCreditsComeBack(int width, double loss, long seed) {
        CbfcConfig cfg = CbfcConfig.defaults(width).withLimits(100, 250, 1500, 3000).withSpacing(800, 16384);
        Simulator tx = Simulator.compile(Design.elaborate(new CbfcSender(cfg)));
        Simulator rx = Simulator.compile(Design.elaborate(new CbfcReceiver(cfg)));
        tx.reset();
        rx.reset();
        Random rnd = new Random(seed);
        int lanes = cfg.beatBytes();
        StreamSource toMac = new StreamSource(tx, "s_axis");
        Simulator demux = Simulator.compile(Design.elaborate(new MacControlDemux(new MacControlDemux.Config(width))));
        demux.reset();
        StreamSource fromLink = new StreamSource(demux, "s_axis");
        ArrayDeque<long[]> picks = new ArrayDeque<>();      // {cycle, vc} waiting for their charge
        ArrayDeque<Object[]> link = new ArrayDeque<>();     // frames on the link: {arrival, vc (-1 CC_Update), bytes}
        ArrayDeque<Integer> dataVcs = new ArrayDeque<>();   // VCs of the data frames given to the demultiplexer
        java.io.ByteArrayOutputStream leaving = new java.io.ByteArrayOutputStream();
        int arriving = 0;
        ArrayDeque<Object[]> ctl = new ArrayDeque<>();      // {arrival, message}
        List<ArrayDeque<Integer>> buffers = new ArrayList<>();
        int[] held = new int[SueMeta.VCS];
        long[] delivered = new long[SueMeta.VCS];
        for (int v = 0; v < SueMeta.VCS; v++) {
            buffers.add(new ArrayDeque<>());
        }
        tx.poke("local_mac", 0x020000000001L);
        ArrayDeque<Integer> frameVcs = new ArrayDeque<>();  // VCs of the frames given to the sender, in order
        long lostCredits = 0;
        int rr = 0;
        long end = 60_000;
        long c = 0;
        for (; c < end + 20_000; c++) {
            boolean picking = c < end;
            // the scheduler: one pick a cycle at most, round robin over the ready VCs
            int ready = (int) tx.peek("vc_ready");
            int reserveVc = -1;
            for (int k = 1; k <= SueMeta.VCS && picking && picks.size() < 3; k++) {
                int v = (rr + k) % SueMeta.VCS;
                if ((ready >> v & 1) == 1) {
                    reserveVc = v;
                    rr = v;
                    break;
                }
            }
            poke(tx, "reserve", reserveVc);
            if (reserveVc >= 0) {
                picks.add(new long[] {c, reserveVc});
                held[reserveVc]++;
            }
            int chargeVc = -1;
            int unreserveVc = -1;
            int bytes = 64 + rnd.nextInt(cfg.maxFrameBytes() - 63);
            if (!picks.isEmpty() && picks.peek()[0] <= c - 2) {
                int v = (int) picks.poll()[1];
                held[v]--;
                if (rnd.nextInt(10) == 0) {
                    unreserveVc = v; // the transport held it back
                } else {
                    chargeVc = v;
                    byte[] f = new byte[bytes];
                    rnd.nextBytes(f);
                    f[12] = 0x08; // an IPv4 EtherType: never MAC Control
                    f[13] = 0;
                    toMac.add(f, BigInteger.valueOf(v));
                    frameVcs.add(v);
                }
            }
            poke(tx, "charge", chargeVc);
            tx.poke("charge_bytes", bytes);
            tx.poke("charge_reserved", 1);
            poke(tx, "unreserve", unreserveVc);
            toMac.drive(rnd, 100);
            tx.poke("m_axis_tready", rnd.nextInt(10) > 0 ? 1 : 0);
            // every frame's bytes as they leave; on the link from its last beat (a store-and-forward view)
            if (tx.peek("m_axis_tvalid") == 1 && tx.peek("m_axis_tready") == 1) {
                int n = Long.bitCount(tx.peekWide("m_axis_tkeep")[0]) + (lanes > 64
                        ? Long.bitCount(tx.peekWide("m_axis_tkeep")[1]) : 0);
                byte[] data = tx.peekBig("m_axis_tdata").toByteArray();
                for (int i = 0; i < n; i++) {
                    int at = data.length - 1 - i;
                    leaving.write(at >= 0 ? data[at] : 0);
                }
                if (tx.peek("m_axis_tlast") == 1) {
                    byte[] f = leaving.toByteArray();
                    leaving.reset();
                    boolean isCc = tx.peek("m_axis_tuser") == 1;
                    int v = isCc ? -1 : frameVcs.poll();
                    boolean lost = !isCc && rnd.nextDouble() < loss;
                    if (lost && cfg.lossless(v)) {
                        lostCredits += cfg.credits(f.length);
                    }
                    if (!lost) {
                        link.add(new Object[] {c + LINK, v, f});
                    }
                }
            }
            // the receiver: the demultiplexer sends CC_Updates to the block, data frames into their buffers
            if (!link.isEmpty() && (long) link.peek()[0] <= c && fromLink.idle()) {
                Object[] f = link.poll();
                fromLink.add((byte[]) f[2], BigInteger.ZERO);
                if ((int) f[1] >= 0) {
                    dataVcs.add((int) f[1]);
                }
            }
            fromLink.drive(rnd, 100);
            demuxOutput(demux, rx);
            int[] enq = null;
            if (demux.peek("m_axis_tvalid") == 1) {
                arriving += Long.bitCount(demux.peekWide("m_axis_tkeep")[0]) + (lanes > 64
                        ? Long.bitCount(demux.peekWide("m_axis_tkeep")[1]) : 0);
                if (demux.peek("m_axis_tlast") == 1) {
                    enq = new int[] {dataVcs.poll(), arriving};
                    buffers.get(enq[0]).add(enq[1]);
                    arriving = 0;
                }
            }
            rx.poke("enqueue_valid", enq != null ? 1 : 0);
            rx.poke("enqueue_vc", enq != null ? enq[0] : 0);
            rx.poke("enqueue_bytes", enq != null ? enq[1] : 0);
            // the XPU drains one frame a cycle at most: VC v at 1/(2+3v), VC 3 stopped for stretches
            int[] deq = null;
            int d = rnd.nextInt(SueMeta.VCS);
            boolean stopped = d == 3 && c % 10_000 < 6_000 && c < end;
            if (!stopped && rnd.nextInt(2 + 3 * d) == 0 && !buffers.get(d).isEmpty()) {
                deq = new int[] {d, buffers.get(d).poll()};
                delivered[d]++;
            }
            rx.poke("dequeue_valid", deq != null ? 1 : 0);
            rx.poke("dequeue_vc", deq != null ? deq[0] : 0);
            rx.poke("dequeue_bytes", deq != null ? deq[1] : 0);
            // CF_Updates over the control channel, some lost
            rx.poke("ctl_out_ready", 1);
            BigInteger m = ControlPorts.offered(rx);
            if (m != null && rnd.nextInt(20) > 0) {
                ctl.add(new Object[] {c + LINK, m});
            }
            ControlPorts.deliver(tx, !ctl.isEmpty() && (long) ctl.peek()[0] <= c ? (BigInteger) ctl.poll()[1] : null);

            // no buffer holds more than its credits
            long port = 0;
            for (int v = 0; v < SueMeta.VCS; v++) {
                long credits = buffers.get(v).stream().mapToLong(cfg::credits).sum();
                port += credits;
                assertTrue(credits <= cfg.vcCreditLimit(), "VC " + v + " buffer holds " + credits
                        + " credits at cycle " + c);
            }
            assertTrue(port <= cfg.portCreditLimit(), "port buffers hold " + port + " credits at cycle " + c);
            toMac.advance();
            fromLink.advance();
            tx.step();
            rx.step();
            demux.step();
        }
        for (int v = 0; v < SueMeta.VCS; v++) {
            assertTrue(delivered[v] > 100, "VC " + v + " delivered only " + delivered[v] + " frames");
            assertEquals(0, tx.peek("s_cu_" + v), "VC " + v + " credits still in use");
            assertEquals(0, tx.peek("reserved_" + v), "VC " + v + " reservations left");
            assertEquals(tx.peek("s_cc_" + v), rx.peek("r_cc_" + v), "VC " + v + " consumed counts agree");
            assertEquals(rx.peek("r_cf_" + v), tx.peek("s_cf_" + v), "VC " + v + " freed counts agree");
        }
        assertEquals(0, tx.peek("s_p_cu"));
        assertEquals(lostCredits, rx.peek("cc_credits_recovered"), "credits of the frames the link lost");
        assertEquals(0, tx.peek("credit_overdraws"));
        assertEquals(0, tx.peek("cf_update_errors"));
        assertTrue(loss == 0 || lostCredits > 0);
    }

    /** The demultiplexer's control frames straight into the receiver's s_axis_cc (both are flows). */
    private static void demuxOutput(Simulator demux, Simulator rx) {
        rx.poke("s_axis_cc_tvalid", demux.peek("m_axis_ctl_tvalid"));
        rx.poke("s_axis_cc_tdata", demux.peekWide("m_axis_ctl_tdata"));
        rx.poke("s_axis_cc_tkeep", demux.peekWide("m_axis_ctl_tkeep"));
        rx.poke("s_axis_cc_tlast", demux.peek("m_axis_ctl_tlast"));
        rx.poke("s_axis_cc_tuser", demux.peek("m_axis_ctl_tuser"));
    }

    private static void poke(Simulator sim, String stream, int vc) {
        sim.poke(stream + "_valid", vc >= 0 ? 1 : 0);
        sim.poke(stream + "_vc", Math.max(vc, 0));
    }
}
