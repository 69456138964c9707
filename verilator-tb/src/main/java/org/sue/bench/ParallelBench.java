package org.sue.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.MultiXpuRun;
import org.sue.instance.tb.SideClock;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.net.HeaderFormat;

/**
 * Many instances on many cores for {@code scripts/bench parallel} (docs/performance.md "Many instances in parallel"):
 * the same seeded run with its sides in lockstep on one thread and side by side on {@value #CORES} ({@link SideClock}),
 * alternated (1 2 1 2 1 2) so that a noisy neighbour hits both alike:
 * <ul>
 * <li>{@code two_xpu_cycles_per_s_<1|2>_cores}: the default instance twice over a {@value #DELAY}-cycle link, 12,000
 * commands each way, MACs stalling as in the tests (the best of three runs each, cycles of the run per second of wall
 * time, the JIT warm); {@code two_xpu_parallel_speedup}: the median of the three pairs' ratios;</li>
 * <li>{@code four_xpu_cycles_per_s_<1|2>_cores}, {@code four_xpu_parallel_speedup}: four small instances with LLR
 * behind a switch, every XPU sending 1,500 commands to every other;</li>
 * <li>{@code side_clock_window_us}: what a window costs beyond the sides' own work (two sides that do nothing, a window
 * of one cycle: hand-over to the pool and back).</li>
 * </ul>
 */
final class ParallelBench {
    private ParallelBench() {
    }

    static final int CORES = 2;
    static final int DELAY = 50;
    private static final int PAIRS = 3;
    private static final int WARM_UP = 6;

    static void measure(BiConsumer<String, Double> put) {
        SueInstance.Config big = SueInstance.Config.defaults();
        compare(put, "two_xpu", () -> {
            TwoXpuRun run = new TwoXpuRun(big, DELAY, LinkModel.Faults.NONE, 3, null);
            long t0 = System.nanoTime();
            TwoXpuRun.Result r = run.run(12_000, 12_000, 200_000, null);
            return new long[] {r.cycles(), System.nanoTime() - t0};
        });
        SueInstance.Config small = SmallInstance.withLlr(HeaderFormat.ETH_IPV4_UDP, 25);
        compare(put, "four_xpu", () -> {
            MultiXpuRun run = new MultiXpuRun(small, 4, 25, LinkModel.Faults.NONE, 40, 5);
            for (int x = 1; x <= run.xpus(); x++) {
                for (int to = 1; to <= run.xpus(); to++) {
                    if (to != x) {
                        run.side(x).add(to, 1500, TwoXpuRun.RANDOM);
                    }
                }
            }
            long t0 = System.nanoTime();
            MultiXpuRun.Result r = run.run(200_000, null);
            return new long[] {r.cycles(), System.nanoTime() - t0};
        });
        put.accept("side_clock_window_us", Bench.round(windowCost(), 2));
    }

    /**
     * Runs {@code run} (cycles, nanoseconds) alternately on 1 and {@value #CORES} threads, after {@value #WARM_UP}
     * runs for the JIT (the instance's model takes about a minute of runs to reach its speed).
     */
    private static void compare(BiConsumer<String, Double> put, String name, Supplier<long[]> run) {
        for (int i = 0; i < WARM_UP; i++) {
            SideClock.withThreads(i % 2 == 0 ? 1 : CORES, run);
        }
        double[] one = new double[PAIRS];
        double[] two = new double[PAIRS];
        double[] ratio = new double[PAIRS];
        for (int i = 0; i < PAIRS; i++) {
            long[] a = SideClock.withThreads(1, run);
            long[] b = SideClock.withThreads(CORES, run);
            one[i] = a[0] * 1e9 / a[1];
            two[i] = b[0] * 1e9 / b[1];
            ratio[i] = two[i] / one[i];
            System.out.printf("parallel: %s pair %d: %.0f cycles/s on 1 thread, %.0f on %d (x%.2f), %d cycles%n", name,
                    i + 1, one[i], two[i], CORES, ratio[i], a[0]);
        }
        Arrays.sort(ratio);
        put.accept(name + "_cycles_per_s_1_cores", (double) Math.round(Arrays.stream(one).max().orElseThrow()));
        put.accept(name + "_cycles_per_s_" + CORES + "_cores", (double) Math.round(Arrays.stream(two).max()
                .orElseThrow()));
        put.accept(name + "_parallel_speedup", Bench.round(ratio[PAIRS / 2], 2));
    }

    /** Microseconds per window of two sides that do nothing, on {@value #CORES} threads (the best of five). */
    private static double windowCost() {
        List<SideClock.Side> idle = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            idle.add(new SideClock.Side(now -> { }, () -> { }));
        }
        long[] cycle = {0};
        SideClock clock = SideClock.withThreads(CORES, () -> new SideClock(idle, () -> cycle[0], 1, true));
        clock.onWindowEnd(() -> cycle[0]++);
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            int windows = 100_000;
            long t0 = System.nanoTime();
            for (int w = 0; w < windows; w++) {
                clock.run(1);
            }
            best = Math.min(best, (System.nanoTime() - t0) / 1e3 / windows);
        }
        System.out.printf("parallel: a window costs %.2f us beyond the sides' work%n", best);
        return best;
    }
}
