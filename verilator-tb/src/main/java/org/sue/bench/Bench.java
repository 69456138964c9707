package org.sue.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.sue.core.Design;
import org.sue.gen.DefaultDesigns;
import org.sue.gen.VerilogEmitter;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;
import org.sue.verilator.SynthReport;
import org.sue.verilator.Yosys;

/**
 * {@code scripts/bench}: JVM simulation vs Verilator on the same design and vectors, throughput, latency and Yosys
 * figures. Writes every figure to build/bench.json ({@code scripts/perf-tables} makes docs/performance.md's tables
 * of it) and ends with the summary line of the headline case. Arguments: cycles to replay (default 200,000) and
 * the sections to run ({@link #SECTIONS}, default all); a partial run replaces its own figures in the file.
 */
public final class Bench {
    private Bench() {
    }

    private static final Map<String, Double> FIGURES = new LinkedHashMap<>();

    /** {@code v} to {@code decimals} decimal places: how the sections round the figures they write. */
    static double round(double v, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(v * scale) / scale;
    }

    /** The bench's sections, in the order a full run measures them; {@code scripts/bench SECTION ...} runs some. */
    static final List<String> SECTIONS = List.of("crc", "framing", "cmdpath", "queue_store", "sue", "line_rate",
            "faults", "axi", "mgmt", "parallel", "ports", "ports_switch", "failover", "lut6");

    public static void main(String[] args) throws IOException {
        long cycles = 200_000;
        Set<String> sections = new LinkedHashSet<>();
        for (String a : args) {
            if (a.matches("[0-9]+")) {
                cycles = Long.parseLong(a);
            } else if (SECTIONS.contains(a)) {
                sections.add(a);
            } else {
                throw new IllegalArgumentException("unknown argument " + a + "; usage: scripts/bench [CYCLES] [SECTION"
                        + " ...], sections " + SECTIONS);
            }
        }
        boolean all = sections.isEmpty();
        Path out = Path.of("build", "bench");
        Files.createDirectories(out);
        Path file = Path.of("build", "bench.json");
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        Map<String, Object> json = new LinkedHashMap<>();
        if (!all && Files.exists(file)) { // a partial run replaces its own figures and keeps the others
            mapper.readTree(file.toFile()).fields().forEachRemaining(e -> json.put(e.getKey(), e.getValue()));
        }

        SimSpeedBench.Speeds speeds = null;
        if (all || sections.contains("crc")) {
            speeds = crc(cycles, out);
        }
        if (all || sections.contains("framing")) { // efficiency, latency, synthesis per block
            FramingBench.measure(Bench::put, out);
        }
        if (all || sections.contains("cmdpath")) { // packing efficiency, latency, synthesis, simulator speed
            CommandPathBench.measure(Bench::put, out);
        }
        if (all || sections.contains("queue_store")) { // the packing buffer's dense storage: drain rate, synthesis
            QueueStoreBench.measure(Bench::put, out);
        }
        if (all || sections.contains("sue")) { // end-to-end latency, goodput under loss, recovery, synthesis
            SueBench.measure(Bench::put, out);
        }
        if (all || sections.contains("line_rate")) { // saturated throughput end to end against the port's capacity
            LineRateBench.measure(Bench::put);
        }
        if (all || sections.contains("faults")) { // peers that stall or die, link flaps: drops, detection, recovery
            FaultBench.measure(Bench::put);
        }
        if (all || sections.contains("axi")) { // the AXI4 interface: throughput and latency beside FIFO's, synthesis
            AxiBench.measure(Bench::put, out);
        }
        if (all || sections.contains("mgmt")) { // the management port: latency, register block and instance area
            MgmtBench.measure(Bench::put, out);
        }
        if (all || sections.contains("ports")) { // 1, 2 and 4 ports on one transport: the ports' aggregate
            PortsBench.measure(Bench::put, out);
        } else if (sections.contains("ports_switch")) { // the aggregate to many destinations behind switches
            PortsBench.switched(Bench::put);
        }
        if (all || sections.contains("ports") || sections.contains("failover")) { // a port dying under traffic
            FailoverBench.measure(Bench::put);
        }
        if (all || sections.contains("parallel")) { // multi-instance runs on one thread and on two
            ParallelBench.measure(Bench::put);
        }
        if (all || sections.contains("lut6")) { // every default design (the instances too) mapped to 6-input LUTs
            timingDepth(out);
        }

        FIGURES.forEach((k, val) -> json.put(k, val == Math.rint(val) && Math.abs(val) < 1e15 ? (Object) val.longValue() : val));
        Files.writeString(file, mapper.writeValueAsString(json) + "\n");

        System.out.println();
        System.out.println("| figure | value |");
        System.out.println("|---|---|");
        FIGURES.keySet().forEach(k -> System.out.printf("| %s | %s |%n", k, json.get(k)));
        System.out.println();
        System.out.println("wrote " + file + (all ? "" : " (" + FIGURES.size() + " figures of " + sections
                + " replaced, the others kept)"));
        if (speeds != null) {
            System.out.printf("jvm_cycles_per_s=%d verilator_cycles_per_s=%d ratio=%.3f (%d cycles replayed per run,"
                    + " best of 3; vector parsing and builds excluded)%n", Math.round(speeds.jvm()),
                    Math.round(speeds.verilator()), speeds.jvm() / speeds.verilator(), speeds.cycles());
        }
    }

    /**
     * The headline case, the 1024-bit CRC-32: vectors of back-to-back frames of 64..4096 bytes recorded from the JVM
     * model, replayed by the JVM simulator and by Verilator on the generated Verilog (builds and vector parsing
     * excluded), the same replays with parsing, the model driven from memory, and its synthesis figures.
     */
    private static SimSpeedBench.Speeds crc(long cycles, Path out) {
        Design design = crcDesign();
        Stream stream = new Stream(new Random(42));
        SimSpeedBench.Speeds speeds = SimSpeedBench.measure(crcCase(cycles, stream), out, Bench::put, true);
        put("crc1024_bytes_per_cycle", Math.round(10.0 * stream.bytes / stream.beats) / 10.0);
        put("crc1024_bus_bytes", 128);
        put("crc1024_latency_cycles", CRC_CONFIG.latency());
        put("jvm_replay_with_parsing_cycles_per_s", Math.round(speeds.jvmWithParsing()));
        put("verilator_replay_with_parsing_cycles_per_s", Math.round(speeds.verilatorWithParsing()));
        put("bench_cycles", speeds.cycles());
        // the JVM simulation alone: stimulus precomputed in memory, no file parsing or output comparison
        put("jvm_sim_only_cycles_per_s", Math.round(simulationOnly(design, 200_000)));
        VerilogEmitter.Result v = VerilogEmitter.emit(design, out.resolve("rtl"));
        SynthReport s = Yosys.synth(v.files(), v.topModule());
        put("crc1024_cells", s.cells());
        put("crc1024_ffs", s.flipFlops());
        put("crc1024_depth", s.depth());
        return speeds;
    }

    /** The Verilog of default design {@code name} ({@link DefaultDesigns#all()}) written into {@code dir}. */
    static VerilogEmitter.Result defaultDesign(String name, Path dir) {
        return VerilogEmitter.emit(Design.elaborate(DefaultDesigns.all().get(name).get()), dir);
    }

    /**
     * {@code lut6_depth_<design>}, {@code lut6_luts_<design>}, {@code lut6_ffs_<design>} for every default design.
     * Yosys is single-threaded and an instance takes it about 20 minutes and 6 GB, so the designs are mapped on up to
     * three cores at once, in {@link DefaultDesigns#all()}'s order (the instances first).
     */
    private static void timingDepth(Path out) {
        Set<String> designs = DefaultDesigns.all().keySet();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(3, Runtime.getRuntime().availableProcessors()));
        Map<String, Future<Yosys.LutDepth>> runs = new LinkedHashMap<>();
        for (String name : designs) {
            runs.put(name, pool.submit(() -> {
                VerilogEmitter.Result rtl = defaultDesign(name, out.resolve("lut6-" + name));
                Yosys.LutDepth d = Yosys.lut6(rtl.files(), rtl.topModule());
                System.out.printf("lut6 %-26s %3d levels %8d LUTs %7d flip-flops%n", name, d.levels(), d.luts(),
                        d.flipFlops());
                return d;
            }));
        }
        pool.shutdown();
        for (Map.Entry<String, Future<Yosys.LutDepth>> run : runs.entrySet()) {
            String name = run.getKey();
            Yosys.LutDepth d;
            try {
                d = run.getValue().get();
            } catch (InterruptedException | ExecutionException e) {
                pool.shutdownNow();
                throw new IllegalStateException("LUT6 mapping of " + name + " failed", e);
            }
            put("lut6_depth_" + name, d.levels());
            put("lut6_luts_" + name, d.luts());
            put("lut6_ffs_" + name, d.flipFlops());
        }
    }

    static final ParallelCrc.Config CRC_CONFIG = new ParallelCrc.Config(CrcParams.CRC32, 1024);

    static Design crcDesign() {
        return Design.elaborate(new ParallelCrc(CRC_CONFIG));
    }

    /** The headline case: the 1024-bit CRC-32 on {@code cycles} cycles of back-to-back frames. */
    static SimSpeedBench.Case crcCase(long cycles, Stream stream) {
        return new SimSpeedBench.Case("crc1024", "CRC-32, 1024 bits", Bench::crcDesign, (design, manifest) -> {
            System.out.printf("recording %d cycles of back-to-back frames through ParallelCrc_crc32_w1024 ...%n", cycles);
            try (Simulator sim = Simulator.compile(design)) {
                sim.record(manifest);
                sim.reset();
                for (long c = 0; c < cycles; c++) {
                    stream.drive(sim);
                    sim.step();
                }
            }
        });
    }

    static SimSpeedBench.Case crcCase() {
        return crcCase(200_000, new Stream(new Random(42)));
    }

    private static void put(String name, double value) {
        FIGURES.put(name, value);
    }

    /** Cycles per second of the compiled model driven from prepared arrays (best of three 1-second-ish runs). */
    private static double simulationOnly(Design design, int cycles) {
        Random rnd = new Random(7);
        long[][] data = new long[1024][16];
        for (long[] d : data) {
            for (int i = 0; i < d.length; i++) {
                d[i] = rnd.nextLong();
            }
        }
        long[] keepAll = {-1L, -1L};
        Simulator sim = Simulator.compile(design);
        int hValid = sim.handle("s_axis_tvalid");
        int hData = sim.handle("s_axis_tdata");
        int hKeep = sim.handle("s_axis_tkeep");
        int hLast = sim.handle("s_axis_tlast");
        int hCrc = sim.handle("crc_value");
        sim.reset();
        sim.poke(hValid, 1);
        sim.poke(hKeep, keepAll);
        double best = 0;
        long sink = 0;
        for (int run = 0; run < 4; run++) {
            long t0 = System.nanoTime();
            for (int c = 0; c < cycles; c++) {
                sim.poke(hData, data[c & 1023]);
                sim.poke(hLast, (c & 31) == 31 ? 1 : 0);
                sink += sim.peek(hCrc);
                sim.step();
            }
            best = Math.max(best, cycles * 1e9 / (System.nanoTime() - t0));
        }
        if (sink == 42) {
            System.out.println(); // keeps the loop's results alive
        }
        return best;
    }

    /** Back-to-back frames of 64..4096 bytes, no idle cycles. */
    static final class Stream {
        private final Random rnd;
        private int remaining;
        long bytes;
        long beats;

        Stream(Random rnd) {
            this.rnd = rnd;
        }

        void drive(Simulator sim) {
            if (remaining == 0) {
                remaining = 64 + rnd.nextInt(4033);
            }
            int n = Math.min(128, remaining);
            remaining -= n;
            byte[] bytesOfBeat = new byte[n];
            rnd.nextBytes(bytesOfBeat);
            long[] data = Beats.data(bytesOfBeat, 0, n, 128);
            long[] keep = Beats.keep(n, 128);
            sim.poke("s_axis_tvalid", 1);
            sim.poke("s_axis_tdata", data);
            sim.poke("s_axis_tkeep", keep);
            sim.poke("s_axis_tlast", remaining == 0 ? 1 : 0);
            bytes += n;
            beats++;
        }
    }
}
