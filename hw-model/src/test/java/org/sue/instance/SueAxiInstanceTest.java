package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.sue.axi.AxiConfig;
import org.sue.axi.AxiCredits;
import org.sue.axi.AxiRemoteMaster;
import org.sue.axi.tb.AxiMemorySlave;
import org.sue.core.ConfigException;
import org.sue.core.Design;
import org.sue.core.Layout;
import org.sue.instance.tb.XpuSide;
import org.sue.lib.stream.tb.LayoutPorts;
import org.sue.sim.Simulator;
import org.sue.instance.tb.AxiTwoXpuRun;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.net.HeaderFormat;

/**
 * Two XPUs exchanging memory reads and writes over AXI4 (docs/protocol.md 13), both ways at once, over a link that
 * loses and damages frames, with Link Layer Retry and CBFC on.
 */
class SueAxiInstanceTest {
    /**
     * B stops answering (its MAC takes nothing, what reaches it is lost) while A has a read and a write outstanding to
     * it: once A's transport gives up on B, both are answered SLVERR at once, and a new read and a new write to B too,
     * all counted; when B comes back, the late responses of the two are dropped (nothing reaches A's SoC twice), and
     * a new read with the first one's ID completes from B's memory.
     */
    @Test
    void requestsToADestinationTheTransportGaveUpOnGetSlverr() {
        Pair p = new Pair(SueAxiInstance.Config.of(SmallInstance.config(HeaderFormat.ETH_IPV4_UDP),
                SmallInstance.axiPair()));
        Simulator simA = p.simA;
        AxiConfig axi = p.axi;
        p.b.frozen(true);
        read(simA, axi, 1, p::step);
        write(simA, axi, 4, p::step);
        p.run(200);
        assertEquals(List.of(), p.answers, "B is frozen: no answer yet");
        for (int i = 0; i < 40_000 && (simA.peek("tp_tx_dst_unreachable") >> 2 & 1) == 0; i++) {
            p.step();
        }
        assertEquals(1, simA.peek("tp_tx_dst_unreachable") >> 2 & 1, "A's transport gave up on B");
        p.run(30);
        assertEquals(Set.of(new Answer(false, 1, AxiConfig.SLVERR, true), new Answer(true, 4, AxiConfig.SLVERR, true)),
                Set.copyOf(p.answers), "the outstanding read and write: SLVERR once B is given up on");
        assertEquals(2, p.answers.size());
        assertEquals(1, simA.peek("s_rd_abandoned"));
        assertEquals(1, simA.peek("s_wr_abandoned"));
        p.answers.clear();
        read(simA, axi, 2, p::step);
        write(simA, axi, 3, p::step);
        p.run(30);
        assertEquals(Set.of(new Answer(false, 2, AxiConfig.SLVERR, true), new Answer(true, 3, AxiConfig.SLVERR, true)),
                Set.copyOf(p.answers), "a new read and a new write to B: SLVERR at once");
        assertEquals(1, simA.peek("s_rd_unreachable_errors"));
        assertEquals(1, simA.peek("s_wr_unreachable_errors"));
        // B comes back: the probe gets through, the first read and write reach B's memory, their responses are stale
        p.answers.clear();
        p.b.frozen(false);
        for (int i = 0; i < 60_000 && simA.peek("s_stale_responses") < 2; i++) {
            p.step();
        }
        assertEquals(2, simA.peek("s_stale_responses"), "the late responses of the two given up on, dropped");
        assertEquals(0, simA.peek("tp_tx_dst_unreachable") >> 2 & 1, "B reachable again");
        p.rereadAnswersOnce(axi);
    }

    /**
     * B's SoC slave takes nothing (its master's requests wait at B), while B's transport acknowledges everything: A's
     * transport never gives up, and A's read and write are answered SLVERR by the response timeout (between 4,000 and
     * 6,000 cycles); when B's slave wakes, their late responses are dropped, and a new read completes from B's memory.
     */
    @Test
    void requestsAFarSlaveNeverAnswersTimeOutWithSlverr() {
        SueInstance.Config sue = SmallInstance.config(HeaderFormat.ETH_IPV4_UDP);
        AxiConfig axi = SmallInstance.axiPair();
        Pair p = new Pair(SueAxiInstance.Config.with(sue, SueAxiInstance.Config.bridgeFor(sue, axi)
                .withResponseTimeout(4000), SueAxiInstance.Form.WRAPPER, AxiCredits.defaults(), AxiCredits.defaults()));
        Simulator simA = p.simA;
        p.slaveHung = true;
        long from = simA.cycle();
        read(simA, axi, 1, p::step);
        write(simA, axi, 4, p::step);
        while (p.answers.size() < 2 && simA.cycle() < from + 10_000) {
            p.step();
        }
        long waited = simA.cycle() - from;
        assertEquals(Set.of(new Answer(false, 1, AxiConfig.SLVERR, true), new Answer(true, 4, AxiConfig.SLVERR, true)),
                Set.copyOf(p.answers), "the read and the write: SLVERR by the response timeout");
        assertTrue(waited > 4000 && waited <= 6000 + 200, "answered after " + waited + " cycles");
        p.run(5); // the counters count a cycle late
        assertEquals(0, simA.peek("tp_tx_destinations_lost"), "A's transport never gave up: B acknowledged");
        assertEquals(1, simA.peek("s_rd_response_timeouts"));
        assertEquals(1, simA.peek("s_wr_response_timeouts"));
        assertEquals(1, simA.peek("s_rd_abandoned"));
        assertEquals(1, simA.peek("s_wr_abandoned"));
        p.answers.clear();
        p.slaveHung = false;
        for (int i = 0; i < 5_000 && simA.peek("s_stale_responses") < 2; i++) {
            p.step();
        }
        assertEquals(2, simA.peek("s_stale_responses"), "the late responses of the two timed out, dropped");
        p.rereadAnswersOnce(axi);
    }

    /**
     * Two small AXI4 instances A (XPU 1) and B (XPU 2) on a clean 10-cycle link, B's master on a memory; every B and
     * R beat A's SoC is given, with A's B and R always ready. {@code slaveHung}: B's SoC slave takes and answers
     * nothing.
     */
    private static final class Pair {
        final AxiConfig axi;
        final Simulator simA;
        final Simulator simB;
        final XpuSide a;
        final XpuSide b;
        final AxiMemorySlave memory;
        final Random rnd = new Random(5);
        final List<Answer> answers = new ArrayList<>();
        boolean slaveHung;

        Pair(SueAxiInstance.Config config) {
            axi = config.bridge().axi();
            Design design = Design.elaborate(new SueAxiInstance(config));
            simA = Simulator.compile(design);
            simB = Simulator.compile(design);
            simA.reset();
            simB.reset();
            a = new XpuSide("A", 1, config.sue(), simA, List.of(new LinkModel(10, LinkModel.Faults.NONE, new Random(1))), rnd,
                    null, false);
            b = new XpuSide("B", 2, config.sue(), simB, List.of(new LinkModel(10, LinkModel.Faults.NONE, new Random(2))), rnd,
                    null, false);
            a.connect(b);
            b.connect(a);
            memory = new AxiMemorySlave(simB, axi, "m_", new AxiRemoteMaster.Config(axi).masterIdWidth(), 100, 0,
                    true, 0);
            step();
            a.endSetUp();
            b.endSetUp();
            simA.poke("s_r_ready", 1);
            simA.poke("s_b_ready", 1);
        }

        void step() {
            long now = simA.cycle();
            if (slaveHung) {
                for (String port : List.of("m_aw_ready", "m_w_ready", "m_ar_ready", "m_b_valid", "m_r_valid")) {
                    simB.poke(port, 0);
                }
            } else {
                memory.drive(rnd);
            }
            a.drive(now);
            b.drive(now);
            if (!slaveHung) {
                memory.taken(rnd);
            }
            if (simA.peek("s_b_valid") == 1) {
                answers.add(new Answer(true, (int) simA.peek("s_b_id"), (int) simA.peek("s_b_resp"), true));
            }
            if (simA.peek("s_r_valid") == 1) {
                answers.add(new Answer(false, (int) simA.peek("s_r_id"), (int) simA.peek("s_r_resp"),
                        simA.peek("s_r_last") == 1));
            }
            simA.step();
            simB.step();
        }

        void run(int cycles) {
            for (int i = 0; i < cycles; i++) {
                step();
            }
        }

        /** A new read with ID 1 to B after the ones answered SLVERR: B's answer, once. */
        void rereadAnswersOnce(AxiConfig axi) {
            answers.clear();
            read(simA, axi, 1, this::step);
            for (int i = 0; i < 2_000 && answers.isEmpty(); i++) {
                step();
            }
            run(200);
            assertEquals(List.of(new Answer(false, 1, AxiConfig.OKAY, true)), answers,
                    "a new read with the first one's ID: B's answer, once");
        }
    }

    /** A B (write) or an R beat: its ID, response and RLAST. */
    private record Answer(boolean write, int id, int resp, boolean last) {
    }

    /** Offers a one-beat read with ID {@code id} to B until taken. */
    private static void read(Simulator sim, AxiConfig axi, int id, Runnable step) {
        LayoutPorts.poke(sim, "s_ar", axi.ax(), request(axi, id));
        sim.poke("s_ar_valid", 1);
        for (int i = 0; i < 100; i++) {
            boolean taken = sim.peek("s_ar_ready") == 1;
            step.run();
            if (taken) {
                sim.poke("s_ar_valid", 0);
                return;
            }
        }
        throw new AssertionError("AR not taken");
    }

    /** Offers a one-beat write with ID {@code id} to B (AW and its W beat) until both are taken. */
    private static void write(Simulator sim, AxiConfig axi, int id, Runnable step) {
        LayoutPorts.poke(sim, "s_aw", axi.ax(), request(axi, id));
        LayoutPorts.poke(sim, "s_w", axi.w(), axi.w().word().set("strb", BigInteger.ONE.shiftLeft(axi.beatBytes())
                .subtract(BigInteger.ONE)).set("last", 1).toBigInteger());
        sim.poke("s_aw_valid", 1);
        sim.poke("s_w_valid", 1);
        for (int i = 0; i < 100 && (sim.peek("s_aw_valid") == 1 || sim.peek("s_w_valid") == 1); i++) {
            boolean awTaken = sim.peek("s_aw_ready") == 1;
            boolean wTaken = sim.peek("s_w_ready") == 1;
            step.run();
            sim.poke("s_aw_valid", awTaken ? 0 : sim.peek("s_aw_valid"));
            sim.poke("s_w_valid", wTaken ? 0 : sim.peek("s_w_valid"));
        }
        assertEquals(0, sim.peek("s_aw_valid") | sim.peek("s_w_valid"), "AW and W taken");
    }

    /** A one-beat INCR request with ID {@code id} to XPU 2 (B). */
    private static BigInteger request(AxiConfig axi, int id) {
        return axi.ax().word().set("addr", BigInteger.valueOf(2L << axi.dstLsb() | 0x1000L * id)).set("id", id)
                .set("size", axi.fullSize()).set("burst", AxiConfig.INCR).toBigInteger();
    }

    /** Two AXI4 pairs on each instance, all four SoC masters busy at once: each pair's traffic reaches its peer pair. */
    @Test
    void twoPairsShareEachInstance() {
        AxiTwoXpuRun run = new AxiTwoXpuRun(SmallInstance.axi(HeaderFormat.ETH_IPV4_UDP, 20, SmallInstance.axiPair())
                .withPairs(2), 20, LinkModel.Faults.loss(0.005), 3, AxiTwoXpuRun.Traffic.random(30, 80), null);
        AxiTwoXpuRun.Result r = run.run(100_000, null);
        assertTrue(r.ok(), r.toString());
        assertEquals(4, run.socs().size());
        for (var soc : run.socs()) {
            assertEquals(30, soc.stats().writesAnswered());
            assertEquals(30, soc.stats().readsAnswered());
        }
        assertTrue(run.side("A").counter("m1_writes_issued") > 0 && run.side("B").counter("m0_reads_issued") > 0);
    }

    /**
     * Random reads and writes both ways while B's network stops for long enough that A's transport gives up on B
     * (during A's writes, or during its reads), then comes back: every request still gets exactly one answer, in order
     * per ID, with the bytes the model says or SLVERR; transactions of that direction were answered SLVERR while
     * outstanding, their late responses dropped, and at the end every credit is back and the stores are empty. With
     * 2 ports every port to B is dead: A gives up on the connection its requests to B are pinned to (docs/protocol.md
     * 13.10).
     */
    @ParameterizedTest
    @CsvSource({"300, wr, false, 1", "3500, rd, false, 1", "300, wr, true, 1", "300, wr, true, 2"})
    void trafficBothWaysSurvivesAPeerThatStopsAndReturns(int freezeAfter, String direction, boolean llr, int ports) {
        // with LLR and CBFC on the direct link, A's LLR sits in INIT holding every frame and B returns no credits:
        // the go-back waits at the link, and its timeouts still strike (docs/protocol.md 6.7)
        SueAxiInstance.Config config = ports > 1 ? multiPort(ports) : llr ? SmallInstance.axi(HeaderFormat.ETH_IPV4_UDP,
                20, SmallInstance.axiPair()) : SueAxiInstance.Config.of(SmallInstance.config(HeaderFormat.ETH_IPV4_UDP),
                SmallInstance.axiPair());
        AxiTwoXpuRun run = new AxiTwoXpuRun(config, 20, LinkModel.Faults.loss(0.005), 11,
                AxiTwoXpuRun.Traffic.random(60, 70), null).freezeB(freezeAfter, 20_000);
        AxiTwoXpuRun.Result r = run.run(100_000, null);
        assertTrue(r.ok(), r.toString());
        for (AxiTwoXpuRun.Side s : new AxiTwoXpuRun.Side[] {r.a(), r.b()}) {
            assertEquals(60, s.stats().writesAnswered());
            assertEquals(60, s.stats().readsAnswered());
        }
        XpuSide a = run.side("A");
        long lost = a.counter("tp_tx_destinations_lost"); // with more ports, a connection per port carrying traffic
        assertTrue(ports == 1 ? lost == 1 : lost >= 1, "connections to B given up on: " + lost);
        assertTrue(a.counter("s_" + direction + "_abandoned") > 0, "answered SLVERR while outstanding");
        assertTrue(a.counter("s_stale_responses") > 0, "late responses dropped");
    }

    /**
     * Two and four ports, a link per port losing frames, random reads and writes both ways, port 1's link down for
     * 4,000 cycles mid-run (docs/protocol.md 10.6): every request answered once, with the bytes the model says,
     * nothing given up on; port 1's connections detoured while it was down.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void morePortsCarryTheTrafficThroughAPortFailure(int ports) {
        SueAxiInstance.Config config = multiPort(ports);
        AxiTwoXpuRun run = new AxiTwoXpuRun(config, 20, LinkModel.Faults.loss(0.005), 5,
                AxiTwoXpuRun.Traffic.random(40, 80), null);
        run.cycles(1500);
        long[] wentDown = {run.side("A").counter("p1_port_went_down"), run.side("B").counter("p1_port_went_down")};
        run.portUp(1, false);
        run.cycles(4000);
        run.portUp(1, true);
        AxiTwoXpuRun.Result r = run.run(100_000, null);
        assertTrue(r.ok(), r.toString());
        int pairs = config.bridge().pairs(); // each its SoC master
        for (AxiTwoXpuRun.Side s : new AxiTwoXpuRun.Side[] {r.a(), r.b()}) {
            assertEquals(40 * pairs, s.stats().writesAnswered());
            assertEquals(40 * pairs, s.stats().readsAnswered());
        }
        for (int i = 0; i < 2; i++) {
            String side = i == 0 ? "A" : "B";
            XpuSide x = run.side(side);
            assertEquals(0, x.counter("tp_tx_destinations_lost"), side + ": no connection given up");
            for (int p = 0; p < pairs; p++) {
                String px = config.bridge().prefix("s", p);
                assertEquals(0, x.counter(px + "wr_abandoned") + x.counter(px + "rd_abandoned"), side + ": " + px
                        + " abandoned nothing");
            }
            assertEquals(wentDown[i] + 1, x.counter("p1_port_went_down"), side + ": port 1 went down once");
            assertTrue(x.counter("route_detoured_pdus") > 0, side + ": its connections detoured");
            for (int p = 0; p < ports; p++) {
                assertTrue(x.toPeer(p).sent() > 0, side + ": port " + p + " carried frames");
            }
        }
    }

    /** {@link SmallInstance#multiPort} with {@code ports} ports, its XPU on AXI4. */
    private static SueAxiInstance.Config multiPort(int ports) {
        SueInstance.Config sue = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, 20);
        return SueAxiInstance.Config.of(sue, AxiConfig.defaults(sue.path().dataWidth(), sue.path().destinations()));
    }

    /** Unordered mode would hand the far master a burst's parts out of order: refused, naming the parameter. */
    @Test
    void unorderedModeIsRefused() {
        SueInstance.Config sue = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, 2, 20)
                .withOrdering(SueInstance.Config.Ordering.UNORDERED);
        ConfigException e = assertThrows(ConfigException.class, () -> SueAxiInstance.Config.of(sue,
                AxiConfig.defaults(sue.path().dataWidth(), sue.path().destinations())));
        assertTrue(e.getMessage().contains("sue.transport.ordering"), e.getMessage());
    }

    @Test
    void readsAndWritesBothWaysOverALossyLink() {
        AxiTwoXpuRun run = new AxiTwoXpuRun(SmallInstance.axi(HeaderFormat.ETH_IPV4_UDP, 20, SmallInstance.axiPair()),
                20, LinkModel.Faults.loss(0.01).withBitErrors(0.01), 7, AxiTwoXpuRun.Traffic.random(60, 70), null);
        AxiTwoXpuRun.Result r = run.run(100_000, null);
        System.out.println(r);
        assertTrue(r.ok(), r.toString());
        for (AxiTwoXpuRun.Side s : new AxiTwoXpuRun.Side[] {r.a(), r.b()}) {
            assertEquals(60, s.stats().writesAnswered());
            assertEquals(60, s.stats().readsAnswered());
            assertTrue(s.stats().writes[AxiConfig.OKAY] > 0 && s.stats().writes[AxiConfig.DECERR] > 0);
            assertTrue(s.lost() + s.damaged() > 0, "the link lost or damaged frames");
        }
    }
}
