package org.sue.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;
import org.sue.core.Design;
import org.sue.core.ResetStyle;
import org.sue.gen.DefaultDesigns;
import org.sue.gen.Progress;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.SmallInstance;
import org.sue.link.CbfcConfig;
import org.sue.link.FrameAction;
import org.sue.link.LlrConfig;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.vectors.GoldenFiles;
import org.sue.vectors.GoldenScenario;
import org.sue.net.HeaderFormat;
import org.sue.vectors.SueInstancePeerTraffic;

/**
 * Figures of a whole SUE instance for {@code scripts/bench}, two instances back to back in the JVM simulator; the
 * transport's figures on the default instance's core (no LLR or flow control, {@code withoutLinkLayer}), the MACs
 * taking every beat:
 *
 * <ul>
 * <li>{@code e2e_latency_cycles}: one command with 64 data bytes into idle SUE A, from its first beat on A's
 * {@code tx_*} to its first beat on B's {@code rx_*}, zero link delay (target 78: 100 ns at 781 MHz for both sides);
 * {@code e2e_latency_cycles_llr_cbfc} the same through the default instance's LLR and CBFC.
 * <li>{@code goodput_loss_<p>}: command bytes delivered per cycle with frame loss p, relative to the lossless run;
 * saturating 256-byte commands from A to B on one VC, link round trip 1600 cycles. The receiver's frame FIFO is
 * {@value #RX_FIFO} beats here: without link flow control (CBFC, PFC) it must hold what a go-back sends at link rate
 * beyond what the XPU drains, or the go-back's own overflow losses start the next one; with 128 beats goodput
 * collapses (0.27 at 1e-4). {@code goodput_gbn_bound_<p>}:
 * the go-back-N efficiency (1 - p) / (1 + (N - 1) p), N = frames per round trip from the lossless run.
 * <li>{@code retx_recovery_cycles}: one lost PDU (the 200th frame), from the cycle it left A to the cycle delivery
 * resumed at B, same round trip.
 * <li>{@code goodput_llr_loss_<p>}, {@code llr_recovery_cycles}: the same with Link Layer Retry beneath the transport
 * (sized for the link: twice its round trip's bytes outstanding, 409,600 bytes in 3,200 frames of 128 bytes or more;
 * replay timer 3 x round trip + 500 cycles; frames held during INIT), and the end-to-end retransmissions it leaves
 * ({@code llr_transport_retransmitted_<p>}).
 * <li>{@code llr_goodput_fer_<p>}, {@code nollr_goodput_fer_<p>}, {@code llr_replay_cycles}: see
 * {@link #llrOnAShortLink}.
 * <li>{@code sue_cells}, {@code sue_ffs}, {@code sue_mem_bits}: Yosys, the default instance (LLR and CBFC).
 * <li>{@code sue_jvm_cycles_per_s}, {@code sue_verilator_cycles_per_s} and the other figures of {@link SimSpeedBench}:
 * 20,000 recorded cycles of one default instance against a peer instance over a lossy link, replayed.
 * </ul>
 */
public final class SueBench {
    private SueBench() {
    }

    static final int RTT = 1600;
    static final int LINK_RTT = 200;
    static final int RX_FIFO = 2048;

    /** Alone: {@code java ... org.sue.bench.SueBench}, the figures printed, nothing written; {@code flow}: only
     * the flow-control figures. */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("flow")) {
            flowControl((k, v) -> System.out.println(k + " = " + v));
            return;
        }
        if (args.length > 0 && args[0].equals("llr")) {
            llrOnAShortLink((k, v) -> System.out.println(k + " = " + v));
            return;
        }
        measure((k, v) -> System.out.println(k + " = " + v), Path.of("build", "bench"));
    }

    static void measure(BiConsumer<String, Double> put, Path out) {
        SueInstance.Config config = SueInstance.Config.defaults().withoutLinkLayer();
        // latency: one command into an idle pair, no link delay; the core, and the default port's link layer
        for (SueInstance.Config c : List.of(config, SueInstance.Config.defaults())) {
            TwoXpuRun.Result one = new TwoXpuRun(c, 0, LinkModel.Faults.NONE, 1, null).macReadyPercent(100)
                    .run(1, 0, TwoXpuRun.fixed(64), 10_000, null);
            boolean core = c.llr() == null;
            put.accept(core ? "e2e_latency_cycles" : "e2e_latency_cycles_llr_cbfc", (double) one.aToB().latency(0));
            System.out.printf("sue: one 64-byte command, idle, zero link delay, %s: %d cycles XPU A to XPU B%n",
                    core ? "no link layer" : "LLR and CBFC", one.aToB().latency(0));
        }

        int commands = 30_000;
        double lossless = 0;
        double framesPerRtt = 0;
        SueInstance.Config deep = config.withRxFifoDepth(RX_FIFO);
        for (double p : new double[] {0, 1e-4, 1e-3, 1e-2}) {
            long t0 = System.nanoTime();
            TwoXpuRun.Result r;
            try (Progress progress = Progress.open()) {
                String what = "  goodput run, loss " + p + ": %,d cycles, %,.0f cycles/s";
                r = new TwoXpuRun(deep, RTT / 2, LinkModel.Faults.loss(p), 5, null).rxReturnPercent(100)
                        .txValidPercent(100).macReadyPercent(100).run(commands, 0, TwoXpuRun.fixed(256), 200_000,
                                cycles -> progress.show(String.format(what, cycles,
                                        cycles / ((System.nanoTime() - t0) / 1e9))));
            }
            if (!r.ok()) {
                throw new IllegalStateException("goodput run with loss " + p + " lost or reordered commands");
            }
            TwoXpuRun.Direction d = r.aToB();
            double rate = d.bytesPerCycle();
            if (p == 0) {
                lossless = rate;
                framesPerRtt = RTT / ((double) d.deliverySpan() / d.frames());
                put.accept("goodput_bytes_per_cycle_lossless", Bench.round(rate, 1));
                put.accept("goodput_frames_per_rtt", Bench.round(framesPerRtt, 1));
                System.out.printf("sue: lossless goodput %.1f command bytes/cycle, %.1f frames per %d-cycle round trip"
                        + " (%.0f s)%n", rate, framesPerRtt, RTT, (System.nanoTime() - t0) / 1e9);
            } else {
                String key = p == 1e-4 ? "1e-4" : p == 1e-3 ? "1e-3" : "1e-2";
                double bound = (1 - p) / (1 + (framesPerRtt - 1) * p);
                put.accept("goodput_loss_" + key, Bench.round(rate / lossless, 3));
                put.accept("goodput_gbn_bound_" + key, Bench.round(bound, 3));
                System.out.printf("sue: loss %s: goodput %.3f of lossless (go-back-N bound %.3f), %d frames lost,"
                        + " %d retransmitted, %d timeouts (%.0f s)%n", key, rate / lossless, bound, d.framesLost(),
                        d.retransmitted(), d.timeouts(), (System.nanoTime() - t0) / 1e9);
            }
        }

        long recovery = recovery(deep, RTT / 2);
        put.accept("retx_recovery_cycles", (double) recovery);
        System.out.printf("sue: one lost PDU, round trip %d cycles: delivery resumed %d cycles after it left A%n", RTT,
                recovery);

        // LLR sized for this link: twice its round trip's bytes outstanding (what the port sends while a frame's ACK
        // comes back, and as much again for a replay), in frames of 128 bytes or more
        int outstanding = 2 * RTT * config.busWidth() / 8;
        SueInstance.Config llr = deep.withLlr(LlrConfig.defaults(config.busWidth()).withLimits(outstanding / 128,
                outstanding, 3 * RTT + 500, LlrConfig.NO_REPLAY_LIMIT).withFlush(FrameAction.BLOCK, FrameAction.BLOCK,
                true, 1000, 0));
        for (double p : new double[] {1e-3, 1e-2}) {
            long t0 = System.nanoTime();
            TwoXpuRun.Result r = new TwoXpuRun(llr, RTT / 2, LinkModel.Faults.loss(p), 5, null).rxReturnPercent(100)
                    .txValidPercent(100).macReadyPercent(100).run(commands, 0, TwoXpuRun.fixed(256), 200_000, null);
            if (!r.ok()) {
                throw new IllegalStateException("LLR goodput run with loss " + p + " lost or reordered commands");
            }
            TwoXpuRun.Direction d = r.aToB();
            double rate = d.bytesPerCycle();
            String key = p == 1e-3 ? "1e-3" : "1e-2";
            put.accept("goodput_llr_loss_" + key, Bench.round(rate / lossless, 3));
            put.accept("llr_transport_retransmitted_" + key, (double) d.retransmitted());
            System.out.printf("sue: loss %s with LLR: goodput %.3f of lossless, %d frames lost on the link, %d PDUs"
                    + " retransmitted end to end (%.0f s)%n", key, rate / lossless, d.framesLost(), d.retransmitted(),
                    (System.nanoTime() - t0) / 1e9);
        }
        long llrRecovery = recovery(llr, RTT / 2);
        put.accept("llr_recovery_cycles", (double) llrRecovery);
        System.out.printf("sue: one lost frame with LLR: delivery resumed %d cycles after it left A%n", llrRecovery);

        llrOnAShortLink(put);
        flowControl(put);
        SimSpeedBench.measure(speedCase(), out, put, true);
        FramingBench.synthFigures("sue", Design.elaborate(new SueInstance(SueInstance.Config.defaults())), out, put);
    }

    /**
     * Link flow control on the small instance (512-bit bus): {@code rx_overflow_drops_<none|pfc|cbfc>}, receive-FIFO
     * overflow drops with XPUs that take a receive credit back on 4% of cycles, both directions saturated on two VCs
     * (0 with PFC and CBFC); {@code cbfc_utilisation_<k>bdp}: command bytes delivered per cycle with CBFC, one
     * direction saturated, a link of 100 cycles each way (a credit loop of about 200 cycles), and k times the
     * bandwidth-delay product of credits (200 cycles x 64 bytes = 100 credits of 128 bytes) on the port and the VC,
     * relative to the same run without flow control; {@code cbfc_utilisation_<k>bdp_analytic} = min(1, k).
     */
    static void flowControl(BiConsumer<String, Double> put) {
        TwoXpuRun.Mix twoVcs = TwoXpuRun.twoVcs(200, 256);
        HeaderFormat f = HeaderFormat.ETH_IPV4_UDP;
        SueInstance.Config pfc = SmallInstance.withPfc(f);
        for (SueInstance.Config c : List.of(pfc.withPfc(null), pfc, SmallInstance.withCbfc(f))) {
            TwoXpuRun run = new TwoXpuRun(c, 20, LinkModel.Faults.NONE, 3, null).rxReturnPercent(4)
                    .macReadyPercent(100);
            if (!run.run(1200, 1200, twoVcs, 60_000, null).ok()) {
                throw new IllegalStateException("slow-receiver run lost or reordered commands");
            }
            String key = c.pfc() != null ? "pfc" : c.cbfc() != null ? "cbfc" : "none";
            long drops = run.peekA("net_drops_overflow") + run.peekB("net_drops_overflow");
            put.accept("rx_overflow_drops_" + key, (double) drops);
            System.out.printf("sue: slow receiving XPUs, flow control %s: %d receive-FIFO overflow drops%n", key,
                    drops);
        }
        // per-VC receive FIFOs of 512 beats (32 KiB): each must hold the 2 x BDP case's 200 credits of 128 bytes
        SueInstance.Config plain = SmallInstance.withCbfc(f).withCbfc(null).withRxVcFifoDepth(512);
        double base = utilisation(plain);
        int bdp = 100;
        for (double k : new double[] {0.5, 1, 2}) {
            int credits = (int) (k * bdp);
            CbfcConfig cbfc = CbfcConfig.defaults(512).withLimits(credits, credits, 1536, 2000).withSpacing(800, 16384);
            double u = utilisation(plain.withCbfc(cbfc)) / base;
            String key = "cbfc_utilisation_" + (k == 0.5 ? "0.5" : String.valueOf((int) k)) + "bdp";
            put.accept(key, Bench.round(u, 3));
            put.accept(key + "_analytic", Math.min(1, k));
            System.out.printf("sue: CBFC with %d credits (%.1f x BDP): utilisation %.3f of no flow control"
                    + " (analytic %.2f)%n", credits, k, u, Math.min(1, k));
        }
    }

    /** Command bytes per cycle from A to B, 2000 commands of 256 bytes on VC 0, link 100 cycles each way. */
    private static double utilisation(SueInstance.Config c) {
        TwoXpuRun.Result r = new TwoXpuRun(c, 100, LinkModel.Faults.NONE, 7, null).rxReturnPercent(100)
                .txValidPercent(100).macReadyPercent(100).run(2000, 0, TwoXpuRun.fixed(256), 60_000, null);
        if (!r.ok()) {
            throw new IllegalStateException("utilisation run lost or reordered commands");
        }
        return r.aToB().bytesPerCycle();
    }

    /**
     * What LLR buys on links of {@value #LINK_RTT} cycles round trip under a transport whose round trip is
     * {@value #RTT}: {@code llr_goodput_fer_<p>} and {@code nollr_goodput_fer_<p>}, command bytes delivered per cycle
     * when each link loses a frame with probability p, relative to error-free links, with the default instance's LLR
     * and without it (then the transport's go-back-N recovers). The instances meet at a switch
     * ({@link org.sue.instance.tb.Relay}): a link of {@value #LINK_RTT}/2 cycles from each to it and
     * {@value #RTT}/2 - {@value #LINK_RTT} cycles across it, so the transport's round trip is {@value #RTT} cycles and
     * LLR's, hop by hop, {@value #LINK_RTT}; with LLR the switch's ports run it too. {@code llr_replay_cycles}: the instances back to back on one such link, one frame
     * (the 200th) lost, from the cycle it left A to the cycle delivery resumed at B.
     */
    static void llrOnAShortLink(BiConsumer<String, Double> put) {
        SueInstance.Config plain = SueInstance.Config.defaults().withoutLinkLayer().withRxFifoDepth(RX_FIFO);
        SueInstance.Config llr = plain.withLlr(SueInstance.Config.defaults().llr());
        int delay = LINK_RTT / 2;
        int fabric = RTT / 2 - LINK_RTT;
        double lossless = goodput(plain, delay, fabric, 0);
        for (double p : new double[] {1e-3, 1e-2}) {
            String key = p == 1e-3 ? "1e-3" : "1e-2";
            for (SueInstance.Config c : List.of(plain, llr)) {
                long t0 = System.nanoTime();
                double g = goodput(c, delay, fabric, p) / lossless;
                String name = (c.llr() != null ? "llr" : "nollr") + "_goodput_fer_" + key;
                put.accept(name, Bench.round(g, 3));
                System.out.printf("sue: links of %d cycles round trip, transport round trip %d, frame error rate %s"
                        + " per link, %s: goodput %.3f of error-free links (%.0f s)%n", LINK_RTT, RTT, key,
                        c.llr() != null ? "LLR" : "no LLR", g, (System.nanoTime() - t0) / 1e9);
            }
        }
        long replay = recovery(llr, delay);
        put.accept("llr_replay_cycles", (double) replay);
        System.out.printf("sue: one lost frame, LLR, link round trip %d cycles: delivery resumed %d cycles after it"
                + " left A%n", LINK_RTT, replay);
    }

    /**
     * Command bytes per cycle from A to B through the relay, 256-byte commands saturating one VC, frame loss p on
     * each link: the mean of three seeds (at 1e-2 a lost NACK, which LLR's replay timer of 5000 cycles covers, moves
     * one run's figure by several percent).
     */
    private static double goodput(SueInstance.Config c, int delay, int fabric, double p) {
        long[] seeds = {5, 6, 7};
        double sum = 0;
        for (long seed : seeds) {
            TwoXpuRun.Result r = TwoXpuRun.throughRelay(c, delay, fabric, LinkModel.Faults.loss(p), seed)
                    .rxReturnPercent(100).txValidPercent(100).run(20_000, 0, TwoXpuRun.fixed(256), 200_000, null);
            if (!r.ok()) {
                throw new IllegalStateException("goodput run with loss " + p + " lost or reordered commands");
            }
            TwoXpuRun.Direction d = r.aToB();
            sum += d.bytesPerCycle();
            System.out.printf("  seed %d: %,d frames lost, %,d PDUs retransmitted end to end, %d timeouts%n", seed,
                    d.framesLost(), d.retransmitted(), d.timeouts());
        }
        return sum / seeds.length;
    }

    /** One frame (the 200th) lost: cycles from when it left A to when delivery resumed at B. */
    private static long recovery(SueInstance.Config config, int delay) {
        TwoXpuRun.Result lost = new TwoXpuRun(config, delay, LinkModel.Faults.dropFrame(200), 6, null)
                .rxReturnPercent(100).txValidPercent(100).run(4000, 0, TwoXpuRun.fixed(256), 200_000, null);
        return lost.aToB().longestPauseEnd() - lost.aToB().lastLossCycle();
    }

    /** 20,000 cycles of the default instance against a peer (commands both ways, 1% loss), for the speed figures. */
    static SimSpeedBench.Case speedCase() {
        return speedCase("sue", "SUE instance", SueInstance.Config.defaults());
    }

    /**
     * The instances of configs/two_port.json and configs/four_port.json ({@link DefaultDesigns#portsInstance}: 2 x 512
     * bits strict, 4 x 256 bits unordered) against their scripted peer in the same way: figures {@code sue_p2_*} and
     * {@code sue_p4_*}.
     */
    static SimSpeedBench.Case portsSpeedCase(int ports) {
        return speedCase("sue_p" + ports, "SUE instance with " + ports + " ports", DefaultDesigns.portsInstance(ports));
    }

    /** 20,000 cycles of {@code config} against its scripted peer over a 50-cycle link that loses 1% of the frames. */
    private static SimSpeedBench.Case speedCase(String name, String what, SueInstance.Config config) {
        GoldenScenario scenario = new GoldenScenario(name + "_speed", () -> new SueInstance(config),
                ResetStyle.SYNC_HIGH, 20_000, () -> new SueInstancePeerTraffic(config, ResetStyle.SYNC_HIGH, 50,
                        LinkModel.Faults.loss(0.01)));
        return new SimSpeedBench.Case(name, what, () -> GoldenFiles.elaborate(scenario),
                (design, manifest) -> GoldenFiles.record(scenario, manifest));
    }
}
