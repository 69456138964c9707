package org.sue.instance.tb;

import org.sue.instance.SueInstance;
import org.sue.link.CbfcConfig;
import org.sue.net.HeaderFormat;

/**
 * The fault scenarios the tests and the bench share (docs/protocol.md 6.7, 9.4): XPUs that stop taking commands for a
 * long time, and a destination that dies and comes back.
 */
public final class FaultScenarios {
    private FaultScenarios() {
    }

    /**
     * Two XPUs held: overflow drops at both receive FIFOs, whether every command arrived once and in order, and the
     * PFC XOFF frames both sides sent (0 without PFC).
     */
    public record Stall(long overflowDrops, boolean ok, long xoffFrames, String result) {
    }

    /** {@code config} with CBFC in place of its flow control: the defaults for its bus, FIFO and largest frame. */
    public static SueInstance.Config withCbfc(SueInstance.Config config) {
        return config.withPfc(null).withCbfc(CbfcConfig.builder().build(config.busWidth(), config.rxFifoBytes(),
                config.largestFrame()));
    }

    /**
     * Two instances over links of {@code delay} cycles, random commands both ways (4,000 each), both XPUs holding
     * every receive credit for {@code stallCycles} after 2,000 cycles of traffic, then taking commands again.
     */
    public static Stall stalledXpus(SueInstance.Config config, int delay, long stallCycles) {
        TwoXpuRun run = new TwoXpuRun(config, delay, LinkModel.Faults.NONE, 3, null);
        run.add(4000, 4000, TwoXpuRun.RANDOM);
        run.idle(2000);
        run.rxHeldVcs(0xf);
        run.idle(stallCycles);
        run.rxHeldVcs(0);
        TwoXpuRun.Result r = run.run(0, 0, 200_000, null);
        long xoff = config.pfc() == null ? 0 : run.peekA("pfc_xoff_frames_sent") + run.peekB("pfc_xoff_frames_sent");
        return new Stall(run.peekA("net_drops_overflow") + run.peekB("net_drops_overflow"), r.ok(), xoff,
                r.toString());
    }

    /**
     * A destination's death: when XPU 1 declared it unreachable and how often it probed it, the other destinations'
     * goodput (command bytes per cycle from XPU 1, together) before and during the death, the cycles from its return
     * to XPU 1 seeing it back, and the run's end.
     */
    public record Death(long detectCycles, long probes, double liveBefore, double liveDuring, long backCycles,
                        long declared, long back, MultiXpuRun.Result result) {
    }

    /**
     * The instance {@link #deadDestination} runs: {@link SmallInstance}'s (512-bit port, 16 destinations) without LLR
     * or link flow control (the switch has none), a 64 KiB retransmit store, timeouts after 3,000 cycles and probes
     * every 8,000.
     */
    public static SueInstance.Config deadDestinationConfig() {
        SueInstance.Config c = SmallInstance.config(HeaderFormat.ETH_IPV4_UDP);
        return c.withTransport(c.transport().toBuilder().storeBytes(65536).probeCycles(8000).build());
    }

    /**
     * XPU 1 sends 256-byte commands round robin to XPUs 2..5 through a switch (links of 20 cycles); after 9,000
     * cycles XPU 5 freezes for {@code deadCycles}, then goes on; run to the end.
     */
    public static Death deadDestination(SueInstance.Config config, long deadCycles) {
        MultiXpuRun run = new MultiXpuRun(config, 5, 20, LinkModel.Faults.NONE, 4, 7).honorXoff(true);
        int[] live = {2, 3, 4};
        run.addRoundRobin(1, new int[] {2, 3, 4, 5}, 4000, TwoXpuRun.fixed(256));
        run.idle(3000);
        long t0 = run.now();
        run.idle(6000);
        double before = liveGoodput(run, live, t0);
        run.freeze(5, true);
        long died = run.now();
        long detect = -1;
        while (run.now() - died < deadCycles) {
            run.idle(100);
            if (detect < 0 && run.side(1).counter("tp_tx_destinations_lost") > 0) {
                detect = run.now() - died;
            }
        }
        double during = liveGoodput(run, live, died);
        long probes = run.side(1).counter("tp_tx_probes");
        run.freeze(5, false);
        long returned = run.now();
        long back = -1;
        while (back < 0 && run.now() - returned < 10 * config.transport().probeCycles()) {
            run.idle(10);
            if (run.side(1).counter("tp_tx_destinations_back") > 0) {
                back = run.now() - returned;
            }
        }
        MultiXpuRun.Result r = run.run(200_000, null);
        return new Death(detect, probes, before, during, back, run.side(1).counter("tp_tx_destinations_lost"),
                run.side(1).counter("tp_tx_destinations_back"), r);
    }

    private static double liveGoodput(MultiXpuRun run, int[] live, long from) {
        double sum = 0;
        for (int d : live) {
            sum += run.goodput(1, d, from, run.now());
        }
        return sum;
    }
}
