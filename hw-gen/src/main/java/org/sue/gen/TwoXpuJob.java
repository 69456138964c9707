package org.sue.gen;

import java.nio.file.Path;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.TwoXpuRun;

/**
 * The main job's simulation: two SUE instances of the default configuration back to back over a link that loses one
 * frame in a thousand, commands both ways, checked end to end, with a one-screen summary; both directions' frames go
 * to {@code <dir>/two_xpu.pcap}.
 */
public final class TwoXpuJob {
    private TwoXpuJob() {
    }

    public static void run(SueInstance.Config config, Path dir, int commandsEachWay) {
        Path pcap = dir.resolve("two_xpu.pcap");
        System.out.printf("%ntwo XPUs, SUE instance (%s), link delay 200 cycles, frame loss 1e-3:"
                + " %d random commands each way%n", TwoXpuRun.describe(config), commandsEachWay);
        long t0 = System.nanoTime();
        TwoXpuRun run = new TwoXpuRun(config, 200, LinkModel.Faults.loss(1e-3), 2026, pcap);
        long t1 = System.nanoTime();
        TwoXpuRun.Result r;
        try (Progress progress = Progress.open()) {
            r = run.run(commandsEachWay, commandsEachWay, 200_000, cycles -> progress.show(String.format(
                    "  %,d cycles simulated, %,.0f cycles/s", cycles, cycles / ((System.nanoTime() - t1) / 1e9))));
        }
        double secs = (System.nanoTime() - t1) / 1e9;
        System.out.printf("  %,d cycles in %.1f s (%,.0f cycles/s per instance; %.1f s to build both)%n", r.cycles(),
                secs, r.cycles() / secs, (t1 - t0) / 1e9);
        System.out.println("  direction  commands  delivered  frames  lost  retransmitted  NACKs  timeouts  ACK-only"
                + "  goodput B/cycle  latency p50/p99/max");
        line("A -> B", r.aToB(), r.cycles());
        line("B -> A", r.bToA(), r.cycles());
        System.out.printf("  delivered once, unchanged, in order: %s; credits all back: %s; retransmit stores empty:"
                + " %s; receiver counters agree with the link: %s%n", yes(r.intact()), yes(r.creditsBack()),
                yes(r.storesEmpty()), r.countersMismatch() == null ? "yes" : r.countersMismatch());
        System.out.println("  frames of both directions: " + pcap);
        if (!r.ok()) {
            throw new IllegalStateException("the two-XPU run lost, duplicated, reordered or changed commands");
        }
    }

    private static void line(String name, TwoXpuRun.Direction d, long cycles) {
        System.out.printf("  %-9s %9d %10d %7d %5d %14d %6d %9d %9d %16.2f  %d/%d/%d%n", name, d.commands(),
                d.delivered(), d.frames(), d.framesLost(), d.retransmitted(), d.nacksSent(), d.timeouts(),
                d.acksOnly(), (double) d.bytes() / cycles, d.latency(0.5), d.latency(0.99), d.latency(1.0));
    }

    private static String yes(boolean b) {
        return b ? "yes" : "NO";
    }
}
