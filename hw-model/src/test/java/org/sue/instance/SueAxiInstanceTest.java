package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.axi.AxiConfig;
import org.sue.axi.AxiRemoteMaster;
import org.sue.axi.tb.AxiMemorySlave;
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
     * B stops answering (its MAC takes nothing, what reaches it is lost): A's read to it waits; once A's transport
     * gives up on B, a new read and a new write to B are answered SLVERR at once and counted; when B comes back, the
     * first read completes with the bytes B's memory holds.
     */
    @Test
    void requestsToADestinationTheTransportGaveUpOnGetSlverrAtOnce() {
        AxiConfig axi = SmallInstance.axiPair();
        SueAxiInstance.Config config = SueAxiInstance.Config.of(SmallInstance.config(HeaderFormat.ETH_IPV4_UDP), axi);
        Design design = Design.elaborate(new SueAxiInstance(config));
        Simulator simA = Simulator.compile(design);
        Simulator simB = Simulator.compile(design);
        simA.reset();
        simB.reset();
        Random rnd = new Random(5);
        XpuSide a = new XpuSide("A", 1, config.sue(), simA, new LinkModel(10, LinkModel.Faults.NONE, new Random(1)),
                rnd, null, false);
        XpuSide b = new XpuSide("B", 2, config.sue(), simB, new LinkModel(10, LinkModel.Faults.NONE, new Random(2)),
                rnd, null, false);
        a.connect(b);
        b.connect(a);
        AxiMemorySlave memory = new AxiMemorySlave(simB, axi, "m_", new AxiRemoteMaster.Config(axi).masterIdWidth(),
                100, 0, true, 0);
        Runnable step = () -> {
            long now = simA.cycle();
            memory.drive(rnd);
            a.drive(now);
            b.drive(now);
            memory.taken(rnd);
            simA.step();
            simB.step();
        };
        step.run();
        a.endSetUp();
        b.endSetUp();
        simA.poke("s_r_ready", 1);
        simA.poke("s_b_ready", 1);
        b.frozen(true);
        RBeat first = read(simA, axi, 1, step, 100);
        assertEquals(null, first, "B is frozen: no answer yet");
        for (int i = 0; i < 40_000 && (simA.peek("tp_tx_dst_unreachable") >> 2 & 1) == 0; i++) {
            step.run();
        }
        assertEquals(1, simA.peek("tp_tx_dst_unreachable") >> 2 & 1, "A's transport gave up on B");
        RBeat refused = read(simA, axi, 2, step, 30);
        assertEquals(new RBeat(2, AxiConfig.SLVERR), refused, "a new read to B: SLVERR at once");
        assertEquals(1, simA.peek("s_rd_unreachable_errors"));
        // a write: AW and its one W beat, answered SLVERR
        Layout ax = axi.ax();
        LayoutPorts.poke(simA, "s_aw", ax, request(axi, 3));
        LayoutPorts.poke(simA, "s_w", axi.w(), axi.w().word().set("strb", BigInteger.ONE.shiftLeft(32)
                .subtract(BigInteger.ONE)).set("last", 1).toBigInteger());
        simA.poke("s_aw_valid", 1);
        simA.poke("s_w_valid", 1);
        int resp = -1;
        for (int i = 0; i < 30 && resp < 0; i++) {
            boolean awTaken = simA.peek("s_aw_ready") == 1;
            boolean wTaken = simA.peek("s_w_ready") == 1;
            resp = simA.peek("s_b_valid") == 1 ? (int) simA.peek("s_b_resp") : -1;
            step.run();
            simA.poke("s_aw_valid", awTaken ? 0 : simA.peek("s_aw_valid"));
            simA.poke("s_w_valid", wTaken ? 0 : simA.peek("s_w_valid"));
        }
        assertEquals(AxiConfig.SLVERR, resp, "a new write to B: SLVERR at once");
        assertEquals(1, simA.peek("s_wr_unreachable_errors"));
        // B comes back: the transport's probe gets through and the first read completes from B's memory
        b.frozen(false);
        RBeat late = read(simA, axi, -1, step, 60_000);
        assertEquals(new RBeat(1, AxiConfig.OKAY), late, "the first read, once B is back");
        assertEquals(0, simA.peek("tp_tx_dst_unreachable") >> 2 & 1, "B reachable again");
    }

    /** An R beat's ID and response. */
    private record RBeat(int id, int resp) {
    }

    /** A one-beat INCR request with ID {@code id} to XPU 2 (B). */
    private static BigInteger request(AxiConfig axi, int id) {
        return axi.ax().word().set("addr", BigInteger.valueOf(2L << axi.dstLsb() | 0x1000L * id)).set("id", id)
                .set("size", axi.fullSize()).set("burst", AxiConfig.INCR).toBigInteger();
    }

    /**
     * Offers a read with ID {@code id} (none with -1) and steps up to {@code cycles} until its R beat (one beat, so
     * RLAST) comes; null if none does.
     */
    private static RBeat read(Simulator sim, AxiConfig axi, int id, Runnable step, int cycles) {
        if (id >= 0) {
            LayoutPorts.poke(sim, "s_ar", axi.ax(), request(axi, id));
            sim.poke("s_ar_valid", 1);
        }
        for (int i = 0; i < cycles; i++) {
            boolean taken = sim.peek("s_ar_valid") == 1 && sim.peek("s_ar_ready") == 1;
            RBeat r = sim.peek("s_r_valid") == 1 ? new RBeat((int) sim.peek("s_r_id"), (int) sim.peek("s_r_resp"))
                    : null;
            step.run();
            if (taken) {
                sim.poke("s_ar_valid", 0);
            }
            if (r != null) {
                return r;
            }
        }
        return null;
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
