package org.sue.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.sue.core.Design;
import org.sue.gen.VerilogEmitter;
import org.sue.sim.JvmReplay;
import org.sue.sim.Simulator;
import org.sue.verilator.ReplayResult;
import org.sue.verilator.VerilatorReplay;

/**
 * JVM simulation next to Verilator on the same recorded vectors of one design: cycles per second of each (parsing,
 * builds and comparisons of the harness excluded, the best of the runs), their ratio, and the time from the
 * elaborated design to its first simulated cycle. The replays alternate, J V J V J V, and
 * {@code <name>_sim_speed_ratio} is the median of the pairs' ratios: a noisy neighbour slows both of a pair alike, so
 * the ratio moves much less between runs than the best of each does.
 *
 * <ul>
 * <li>{@code <name>_jvm_cycles_per_s}: the replay on a simulator of the design compiled before in this JVM, after
 * replays until the JIT has compiled the model's code ({@link #warmUp}), as Verilator's C++ is compiled before it
 * runs.
 * <li>{@code <name>_jvm_cold_cycles_per_s}: the first replay in a fresh JVM, the JIT's warm-up included.
 * <li>{@code <name>_jvm_first_cycle_s}: code generation, in-memory compilation and one cycle, measured in a fresh
 * JVM ({@link FirstCycle}) so the compiler's own warm-up counts, as it does for the first simulator of a test run.
 * <li>{@code <name>_verilator_first_cycle_s}: Verilog emission plus the Verilator build of the replay harness, built
 * into a fresh cache directory so the build is never a cache hit.
 * </ul>
 *
 * <p>Alone ({@code main}): the four designs of the bench, or those named as arguments; {@code --jvm-only} skips
 * Verilator (for quick before/after measurements of the simulator).
 */
public final class SimSpeedBench {
    private SimSpeedBench() {
    }

    /** Replays of each simulator, alternated in pairs: an odd number, so the pairs' ratios have a middle one. */
    static final int PAIRS = 3;

    /** One design with the stimulus whose recording both simulators replay. */
    record Case(String name, String what, Supplier<Design> design, Recorder recorder) {
    }

    /** Records the vectors of a design into a manifest. */
    interface Recorder {
        void record(Design design, Path manifest);
    }

    /** The designs of the bench, by figure prefix. */
    static Map<String, Case> cases() {
        Map<String, Case> m = new LinkedHashMap<>();
        for (Case c : List.of(Bench.crcCase(), FramingBench.receiverCase(), CommandPathBench.speedCase(),
                QueueStoreBench.speedCase(), SueBench.speedCase(), SueBench.portsSpeedCase(2),
                SueBench.portsSpeedCase(4), AxiBench.speedCase())) {
            m.put(c.name(), c);
        }
        return m;
    }

    /**
     * The JVM is warm when its best replay has not improved by more than this in the last {@value #WARM_WINDOW_S} s
     * and the last {@value #WARM_WINDOW_REPLAYS} replays.
     */
    static final double WARM_GAIN = 0.02;
    static final double WARM_WINDOW_S = 10;
    /** A design replayed at a few thousand cycles per second takes seconds a replay: 10 s are only two of them. */
    static final int WARM_WINDOW_REPLAYS = 4;
    /**
     * And the JIT is idle: its compilers spent less than this share of the last replay's time compiling (the best
     * replay of a multi-port instance stood still for 10 s at half its speed while C2 still compiled its methods).
     */
    static final double WARM_JIT_SHARE = 0.05;
    /** Seconds of warming up at most. */
    static final double WARM_LIMIT_S = 300;
    /**
     * And at least this many times the first replay's time: the rules above called the AXI4 instance warm at 20,939
     * cycles/s, which then reached 50,309 after 150 s of replays (C2 compiles its methods in bursts, with quiet
     * replays between them), so a design slow to warm is given time in proportion to how slow it starts.
     */
    static final double WARM_MIN_FIRST_REPLAYS = 30;

    /**
     * Replays on the JVM until it is warm: HotSpot's optimising tier compiles the large generated methods of an
     * instance one by one, on the one thread this machine gives it, so the instance's replays go on getting faster
     * for some 40 seconds (7,100 cycles/s in the first replay of 20,000 cycles, 45,000 after 40), in steps, with dips
     * between them. Warm: the best replay has not improved by more than {@value #WARM_GAIN} in the last
     * {@value #WARM_WINDOW_S} s and {@value #WARM_WINDOW_REPLAYS} replays, the JIT was idle in the last one
     * ({@link #WARM_JIT_SHARE}) and {@value #WARM_MIN_FIRST_REPLAYS} times the first replay's time has passed, or
     * {@value #WARM_LIMIT_S} s have passed.
     */
    private static void warmUp(Case c, Design design, Path manifest) {
        long t0 = System.nanoTime();
        double best = 0;
        double since = 0; // when the best last improved by more than WARM_GAIN, s
        int replays = 0;
        int sinceReplay = 0; // the replay that improved it
        double now = 0;
        double jitShare = 1; // of the last replay's time, compiling
        double first = Double.POSITIVE_INFINITY; // the first replay's time, s
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        while ((now - since < WARM_WINDOW_S || replays - sinceReplay < WARM_WINDOW_REPLAYS
                || jitShare >= WARM_JIT_SHARE || now < WARM_MIN_FIRST_REPLAYS * first) && now < WARM_LIMIT_S) {
            long compiling = jit.getTotalCompilationTime();
            double before = now;
            double speed = jvmReplay(c, design, manifest).cyclesPerSecond();
            replays++;
            now = (System.nanoTime() - t0) / 1e9;
            first = Math.min(first, now);
            jitShare = (jit.getTotalCompilationTime() - compiling) / 1e3 / Math.max(1e-3, now - before);
            if (speed > best * (1 + WARM_GAIN)) {
                since = now;
                sinceReplay = replays;
            }
            best = Math.max(best, speed);
        }
        System.out.printf("%s: JVM warm after %d replays, %.0f s (best %.0f cycles/s; the JIT compiling %.0f %% of"
                + " the last replay's time)%n", c.what(), replays, now, best, 100 * jitShare);
    }

    /** Best cycles per second of each simulator, without and with the parsing of the vector text. */
    record Speeds(double jvm, double verilator, double jvmWithParsing, double verilatorWithParsing, long cycles) {
    }

    /** Records the case's vectors, replays them on both simulators and puts the five figures of {@code c.name()}. */
    static Speeds measure(Case c, Path out, BiConsumer<String, Double> put, boolean verilator) {
        Design design = c.design().get();
        Path manifest = out.resolve(c.name() + "_speed.json");
        c.recorder().record(design, manifest);

        double[] fresh = FirstCycle.inFreshJvm(c.name(), manifest);
        put.accept(c.name() + "_jvm_first_cycle_s", Bench.round(fresh[0], 3));
        put.accept(c.name() + "_jvm_cold_cycles_per_s", (double) Math.round(fresh[1]));
        warmUp(c, design, manifest);
        if (!verilator) {
            double jvm = 0;
            long cycles = 0;
            for (int run = 0; run < PAIRS; run++) {
                JvmReplay.Result r = jvmReplay(c, design, manifest);
                jvm = Math.max(jvm, r.cyclesPerSecond());
                cycles = r.cycles();
            }
            put.accept(c.name() + "_jvm_cycles_per_s", (double) Math.round(jvm));
            System.out.printf("%s: JVM %.0f cycles/s%n", c.what(), jvm);
            return new Speeds(jvm, Double.NaN, Double.NaN, Double.NaN, cycles);
        }

        // the Verilator harness built first (into a fresh cache: the build is timed), then J V J V ... so that a
        // noisy neighbour slows both alike; the ratio is the median of the pairs'
        Path rtlDir = out.resolve("rtl-" + c.name() + "-speed");
        String cache = System.getProperty("sue.verilator.cache");
        double[] jvm = new double[PAIRS];
        double[] ver = new double[PAIRS];
        double[] ratio = new double[PAIRS];
        double jvmWithParsing = 0;
        double verWithParsing = 0;
        long cycles = 0;
        try {
            System.setProperty("sue.verilator.cache", Files.createTempDirectory("sue-first-cycle").toString());
            long t0 = System.nanoTime();
            VerilogEmitter.Result v = VerilogEmitter.emit(design, rtlDir);
            double emitSeconds = (System.nanoTime() - t0) / 1e9;
            ReplayResult built = verilatorReplay(c, v, manifest, out);
            put.accept(c.name() + "_verilator_first_cycle_s", Bench.round(emitSeconds + built.buildSeconds(), 3));
            for (int run = 0; run < PAIRS; run++) {
                JvmReplay.Result j = jvmReplay(c, design, manifest);
                ReplayResult r = verilatorReplay(c, v, manifest, out);
                jvm[run] = j.cyclesPerSecond();
                ver[run] = r.cyclesPerSecond();
                ratio[run] = jvm[run] / ver[run];
                jvmWithParsing = Math.max(jvmWithParsing, j.replayCyclesPerSecond());
                verWithParsing = Math.max(verWithParsing, r.replayCyclesPerSecond());
                cycles = j.cycles();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteFreshCache();
            if (cache == null) {
                System.clearProperty("sue.verilator.cache");
            } else {
                System.setProperty("sue.verilator.cache", cache);
            }
        }
        double jbest = java.util.Arrays.stream(jvm).max().orElseThrow();
        double vbest = java.util.Arrays.stream(ver).max().orElseThrow();
        java.util.Arrays.sort(ratio);
        double median = ratio[PAIRS / 2];
        put.accept(c.name() + "_jvm_cycles_per_s", (double) Math.round(jbest));
        put.accept(c.name() + "_verilator_cycles_per_s", (double) Math.round(vbest));
        put.accept(c.name() + "_sim_speed_ratio", Bench.round(median, 3));
        System.out.printf("%s: JVM %.0f cycles/s, Verilator %.0f cycles/s (the best of %d each), ratio %.3f (the"
                + " median of the pairs, %.3f to %.3f)%n", c.what(), jbest, vbest, PAIRS, median, ratio[0],
                ratio[PAIRS - 1]);
        return new Speeds(jbest, vbest, jvmWithParsing, verWithParsing, cycles);
    }

    private static JvmReplay.Result jvmReplay(Case c, Design design, Path manifest) {
        JvmReplay.Result r = JvmReplay.replay(Simulator.compile(design), manifest);
        if (!r.passed()) {
            throw new IllegalStateException("JVM replay mismatch on the " + c.what() + ": " + r.firstMismatches());
        }
        return r;
    }

    private static ReplayResult verilatorReplay(Case c, VerilogEmitter.Result v, Path manifest, Path out) {
        ReplayResult r = VerilatorReplay.replay(v.files(), v.topModule(), manifest, Set.of(), out.resolve("waves"));
        if (!r.passed()) {
            throw new IllegalStateException("Verilator replay mismatch on the " + c.what() + ": "
                    + r.firstMismatches());
        }
        return r;
    }

    private static void deleteFreshCache() {
        Path dir = VerilatorReplay.cacheRoot();
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            System.out.println("[bench] could not delete " + dir + ": " + e.getMessage());
        }
    }

    public static void main(String[] args) throws IOException {
        boolean verilator = true;
        List<String> names = new ArrayList<>();
        for (String a : args) {
            if (a.equals("--jvm-only")) {
                verilator = false;
            } else {
                names.add(a);
            }
        }
        Map<String, Case> all = cases();
        if (names.isEmpty()) {
            names.addAll(all.keySet());
        }
        Path out = Path.of("build", "bench");
        Files.createDirectories(out);
        Map<String, Double> figures = new LinkedHashMap<>();
        for (String n : names) {
            Case c = all.get(n);
            if (c == null) {
                throw new IllegalArgumentException("no design " + n + "; known: " + all.keySet());
            }
            measure(c, out, figures::put, verilator);
        }
        figures.forEach((k, v) -> System.out.println(k + " = " + v));
    }

    /** Run in a child JVM: elaborates one case's design, then times compile + first cycle. */
    static final class FirstCycle {
        private FirstCycle() {
        }

        /** {seconds to the first cycle, cycles per second of a first replay of the manifest}. */
        static double[] inFreshJvm(String name, Path manifest) {
            List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xss16m", "-cp", System.getProperty("java.class.path"), FirstCycle.class.getName(), name,
                    manifest.toAbsolutePath().toString());
            try {
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                String text = new String(p.getInputStream().readAllBytes());
                if (p.waitFor() != 0) {
                    throw new IllegalStateException("first-cycle run of " + name + " failed:\n" + text);
                }
                for (String line : text.split("\n")) {
                    if (line.startsWith("FIRST_CYCLE_S ")) {
                        String[] f = line.trim().split(" ");
                        return new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[2])};
                    }
                }
                throw new IllegalStateException("first-cycle run of " + name + " printed no figure:\n" + text);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        public static void main(String[] args) {
            Design design = cases().get(args[0]).design().get();
            long t0 = System.nanoTime();
            Simulator sim = Simulator.compile(design);
            sim.reset();
            double s = (System.nanoTime() - t0) / 1e9;
            JvmReplay.Result r = JvmReplay.replay(Simulator.compile(design), Path.of(args[1]));
            if (!r.passed()) {
                throw new IllegalStateException("JVM replay mismatch: " + r.firstMismatches());
            }
            System.out.println("FIRST_CYCLE_S " + s + " " + r.cyclesPerSecond());
        }
    }
}
