package org.sue.gen;

import java.nio.file.Path;
import java.util.List;
import org.sue.axi.AxiConfig;
import org.sue.axi.tb.AxiWriteReadRun;
import org.sue.instance.SueAxiInstance;
import org.sue.instance.tb.AxiTwoXpuRun;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.TwoXpuRun;

/**
 * The main job's simulation for an instance whose XPU speaks AXI4: two of them back to back over a link that loses
 * one frame in a thousand, each SoC's master writing random bursts into the other XPU's memory and reading them back
 * ({@link AxiTwoXpuRun}), checked end to end, with a one-screen summary; both directions' frames go to
 * {@code <dir>/two_xpu_axi.pcap}.
 */
public final class AxiTwoXpuJob {
    private AxiTwoXpuJob() {
    }

    public static void run(SueAxiInstance.Config config, Path dir, int burstsEachWay) {
        Path pcap = dir.resolve("two_xpu_axi.pcap");
        System.out.printf("%ntwo XPUs on AXI4, SUE instance (%s), link delay 200 cycles, frame loss 1e-3: each SoC"
                + " writes %d random bursts into the other's memory, then reads them back%n",
                TwoXpuRun.describe(config.sue()), burstsEachWay);
        long t0 = System.nanoTime();
        AxiTwoXpuRun run = new AxiTwoXpuRun(config, 200, LinkModel.Faults.loss(1e-3), 2026,
                AxiTwoXpuRun.Traffic.random(burstsEachWay, 80), pcap);
        long t1 = System.nanoTime();
        AxiTwoXpuRun.Result r;
        try (Progress progress = Progress.open()) {
            r = run.run(200_000, cycles -> progress.show(String.format("  %,d cycles simulated, %,.0f cycles/s",
                    cycles, cycles / ((System.nanoTime() - t1) / 1e9))));
        }
        double secs = (System.nanoTime() - t1) / 1e9;
        System.out.printf("  %,d cycles in %.1f s (%,.0f cycles/s per instance; %.1f s to build both)%n", r.cycles(),
                secs, r.cycles() / secs, (t1 - t0) / 1e9);
        System.out.println("  master -> memory  writes OKAY/SLVERR/DECERR  reads OKAY/SLVERR/DECERR  bytes written"
                + "  bytes read  B/cycle  write latency p50/p99/max  read latency p50/p99/max");
        line("A -> B", r.a(), r.cycles());
        line("B -> A", r.b(), r.cycles());
        TwoXpuJob.linkLayer(config.sue(), run.side("A")::counter, run.side("B")::counter);
        System.out.printf("  every answer as the byte model says, one per request, in order per ID: yes (checked as"
                + " they came); credits all back: %s; retransmit stores empty: %s; receiver counters agree with the"
                + " link: %s%n", TwoXpuJob.yes(r.creditsBack()), TwoXpuJob.yes(r.storesEmpty()),
                r.countersMismatch() == null ? "yes" : r.countersMismatch());
        System.out.println("  frames of both directions: " + pcap);
        if (!r.ok()) {
            throw new IllegalStateException("the AXI4 two-XPU run did not settle: " + r);
        }
    }

    private static void line(String name, AxiTwoXpuRun.Side side, long cycles) {
        AxiWriteReadRun.Stats s = side.stats();
        System.out.printf("  %-16s %25s %24s %14d %11d %8.2f %26s %25s%n", name, answers(s.writes), answers(s.reads),
                s.bytesWritten, s.bytesRead, (double) (s.bytesWritten + s.bytesRead) / cycles,
                percentiles(s.writeLatencies), percentiles(s.readLatencies));
    }

    private static String answers(long[] byResp) {
        return byResp[AxiConfig.OKAY] + byResp[AxiConfig.EXOKAY] + "/" + byResp[AxiConfig.SLVERR] + "/"
                + byResp[AxiConfig.DECERR];
    }

    private static String percentiles(List<Long> latencies) {
        List<Long> sorted = latencies.stream().sorted().toList();
        if (sorted.isEmpty()) {
            return "-";
        }
        return at(sorted, 0.5) + "/" + at(sorted, 0.99) + "/" + sorted.get(sorted.size() - 1);
    }

    private static long at(List<Long> sorted, double p) {
        return sorted.get((int) Math.min(sorted.size() - 1, Math.floor(p * sorted.size())));
    }
}
