package org.sue.verilator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Yosys on generated Verilog, for latch checks and area/depth figures. Three depths of run, each flattened: the
 * elaboration ({@link #elaborate}: the front end and {@code proc}, where Yosys infers latches, then a structural
 * check), the gate-level synthesis that continues from it ({@link #synth}), and the gate-level synthesis of a top
 * module around its submodules kept as black boxes ({@link #synthTopModule}). Each lists the memories inferred as RAM
 * by name and shape, counted before memory_collect turns them into cells.
 */
public final class Yosys {
    private Yosys() {
    }

    private static final Pattern CELL_LINE = Pattern.compile("^\\s+(\\$?[\\w$]+)\\s+(\\d+)\\s*$");
    private static final Pattern CELLS = Pattern.compile("Number of cells:\\s+(\\d+)");
    private static final Pattern LTP = Pattern.compile("Longest topological path in \\S+ \\(length=(\\d+)\\)");
    /** A word-level cell type as {@code stat -width} lists it: {@code $dff_32} is a 32-bit flip-flop. */
    private static final Pattern WIDTH_SUFFIX = Pattern.compile("_(\\d+)$");

    /**
     * The whole design flattened to word-level cells, as far as every later synthesis step starts from: latches (Yosys
     * infers them in {@code proc} and nowhere later), multiple drivers and logic loops ({@code check -assert} fails
     * the run on either), flip-flop bits and memories. {@code cells} counts word-level cells; no depth (-1). Seconds
     * where {@link #synth} takes minutes on an instance.
     */
    public static SynthReport elaborate(List<Path> files, String top) {
        return run(readVerilog(files), top, false, false);
    }

    /**
     * {@code synth -flatten} of the whole design except memory_map (inferred RAMs stay $mem cells, as a real flow maps
     * them to SRAM or block RAM, so flip-flop and cell counts are logic only), then {@code ltp -noff} for the depth.
     */
    public static SynthReport synth(List<Path> files, String top) {
        return run(readVerilog(files), top, true, true);
    }

    /**
     * {@link #synth} of the top module alone: its submodules are read as black boxes (ports only), so this is the glue
     * that joins blocks synthesised on their own, in seconds. No depth (-1): a black box looks like a path from every
     * input to every output, so ltp would see loops everywhere.
     */
    public static SynthReport synthTopModule(List<Path> files, String top) {
        String topFile = top + ".v";
        if (files.stream().noneMatch(f -> f.getFileName().toString().equals(topFile))) {
            throw new IllegalArgumentException("no file " + topFile + " for the top module among " + files);
        }
        return run(readVerilog(files, f -> !f.getFileName().toString().equals(topFile)), top, true, false);
    }

    private static SynthReport run(String read, String top, boolean gates, boolean depth) {
        StringBuilder script = new StringBuilder(read).append("hierarchy -top ").append(top).append('\n')
                .append("proc; flatten; check -assert\n")
                .append("tee -o elab.stat stat -width; tee -q -o mems.il dump m:*\n");
        if (gates) {
            // synth's own script from where the elaboration left it, except memory_map. No opt between techmap and
            // abc: on the gate netlist of an instance it took a third of the run, and abc merges and folds the same
            // gates itself
            script.append("synth -flatten -top ").append(top).append(" -run coarse:fine\n")
                    .append("opt -fast -full; opt -full; techmap; abc -fast; opt -fast\n")
                    .append("synth -top ").append(top).append(" -run check\n")
                    .append("tee -o synth.stat stat\n");
        }
        if (depth) {
            script.append("tee -o ltp.txt ltp -noff\n");
        }
        try {
            Run run = run("yosys", top, script.toString(), 1800);
            Path dir = run.dir();
            String log = Files.exists(dir.resolve("yosys.log")) ? Files.readString(dir.resolve("yosys.log"))
                    : run.out().text();
            String elabStat = Files.readString(dir.resolve("elab.stat"));
            String stat = gates ? Files.readString(dir.resolve("synth.stat")) : elabStat;
            Map<String, Integer> types = cellTypes(stat);
            int ffs = bits(types, !gates, Yosys::isFlipFlop);
            int latches = bits(types, !gates, t -> t.contains("DLATCH") || t.matches("\\$_?SR(_.*)?"));
            if (log.contains("Latch inferred")) {
                latches = Math.max(latches, 1);
            }
            Matcher mc = Pattern.compile("Number of memories:\\s+(\\d+)").matcher(elabStat);
            int memories = mc.find() ? Integer.parseInt(mc.group(1)) : 0;
            long memBits = 0;
            Matcher mb = Pattern.compile("Number of memory bits:\\s+(\\d+)").matcher(elabStat);
            if (mb.find()) {
                memBits = Long.parseLong(mb.group(1));
            }
            Map<String, SynthReport.Memory> memoryShapes = memories(Files.readString(dir.resolve("mems.il")));
            Matcher c = CELLS.matcher(stat);
            int cells = c.find() ? Integer.parseInt(c.group(1)) : -1;
            Matcher l = LTP.matcher(depth ? Files.readString(dir.resolve("ltp.txt")) : "");
            int levels = l.find() ? Integer.parseInt(l.group(1)) : -1;
            deleteRun(dir);
            return new SynthReport(top, cells, ffs, latches, levels, memories, memBits, memoryShapes, types, log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Timing depth in 6-input LUTs: the longest register-to-register path in LUT levels, and the LUT and flip-flop counts. */
    public record LutDepth(String top, int levels, int luts, int flipFlops) {
    }

    /**
     * Maps the design to 6-input LUTs and measures its deepest path, as the timing-depth figures of
     * docs/performance.md are taken: {@code synth -flatten -run begin:fine}, {@code techmap}, {@code abc -lut 6}
     * (memories kept as memory cells), {@code ltp -noff}: the LUTs on the longest path between flip-flops, memories
     * and ports.
     */
    public static LutDepth lut6(List<Path> files, String top) {
        String script = readVerilog(files) + "synth -flatten -top " + top + " -run begin:fine\n"
                + "techmap; opt -fast; abc -lut 6; opt -fast\n"
                + "tee -o lut.stat stat\n"
                + "tee -o ltp.txt ltp -noff\n";
        try {
            Path dir = run("yosys (LUT6 mapping)", top, script, 3600).dir();
            Map<String, Integer> types = cellTypes(Files.readString(dir.resolve("lut.stat")));
            int luts = types.getOrDefault("$lut", 0);
            int ffs = bits(types, false, Yosys::isFlipFlop);
            Matcher l = LTP.matcher(Files.readString(dir.resolve("ltp.txt")));
            deleteRun(dir);
            return new LutDepth(top, l.find() ? Integer.parseInt(l.group(1)) : -1, luts, ffs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readVerilog(List<Path> files) {
        return readVerilog(files, f -> false);
    }

    /** Reads every file, those {@code blackBox} picks as black boxes (their modules' ports only). */
    private static String readVerilog(List<Path> files, Predicate<Path> blackBox) {
        StringBuilder s = new StringBuilder();
        for (Path f : files) {
            s.append(blackBox.test(f) ? "read_verilog -sv -lib " : "read_verilog -sv ").append(f.toAbsolutePath())
                    .append('\n');
        }
        return s.toString();
    }

    private static boolean isFlipFlop(String upperCaseType) {
        return upperCaseType.contains("DFF");
    }

    /**
     * Bits of the cells whose upper-case type {@code kind} picks: one per gate-level cell, or, word-level
     * ({@code stat -width}), the width its type ends with ({@code $dff_32}: 32).
     */
    private static int bits(Map<String, Integer> types, boolean wordLevel, Predicate<String> kind) {
        int bits = 0;
        for (Map.Entry<String, Integer> e : types.entrySet()) {
            String t = e.getKey().toUpperCase();
            if (kind.test(t)) {
                Matcher w = WIDTH_SUFFIX.matcher(t);
                bits += e.getValue() * (wordLevel && w.find() ? Integer.parseInt(w.group(1)) : 1);
            }
        }
        return bits;
    }

    /** A Yosys run in a fresh directory: its files and its output. */
    private record Run(Path dir, Tool.Output out) {
    }

    /** Runs the script (log in {@code yosys.log}); fails, naming {@code what} and the top, on a non-zero exit. */
    private static Run run(String what, String top, String script, int timeoutSeconds) throws IOException {
        Path dir = Files.createTempDirectory("sue-yosys");
        Files.writeString(dir.resolve("run.ys"), script);
        Tool.Output out = Tool.run(List.of("yosys", "-q", "-l", "yosys.log", "run.ys"), dir, timeoutSeconds);
        if (out.exitCode() != 0) {
            throw new IllegalStateException(what + " failed on " + top + " (exit " + out.exitCode() + "):\n"
                    + out.tail(30));
        }
        return new Run(dir, out);
    }

    /** A run's directory once its figures are read (a failed run's stays, for its log and script). */
    private static void deleteRun(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    /** The RTLIL {@code memory} lines of a dump: flattened name (instance path, dot-separated) to its shape. */
    static Map<String, SynthReport.Memory> memories(String dump) {
        Map<String, SynthReport.Memory> m = new TreeMap<>();
        for (String line : dump.split("\n")) {
            String[] t = line.trim().split("\\s+");
            if (t.length < 2 || !t[0].equals("memory")) {
                continue;
            }
            int width = 1;
            long size = 0;
            for (int i = 1; i + 1 < t.length; i += 2) {
                if (t[i].equals("width")) {
                    width = Integer.parseInt(t[i + 1]);
                } else if (t[i].equals("size")) {
                    size = Long.parseLong(t[i + 1]);
                }
            }
            String name = t[t.length - 1];
            m.put(name.startsWith("\\") ? name.substring(1) : name, new SynthReport.Memory(width, size));
        }
        return m;
    }

    private static Map<String, Integer> cellTypes(String stat) {
        Map<String, Integer> types = new TreeMap<>();
        boolean inCells = false;
        for (String line : stat.split("\n")) {
            if (line.contains("Number of cells:")) {
                inCells = true;
                continue;
            }
            if (inCells) {
                Matcher m = CELL_LINE.matcher(line);
                if (m.matches()) {
                    types.merge(m.group(1), Integer.parseInt(m.group(2)), Integer::sum);
                } else if (!line.isBlank()) {
                    inCells = false;
                }
            }
        }
        return types;
    }
}
