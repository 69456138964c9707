package org.sue.verilator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Generic Yosys synthesis ({@code synth -top X}, flattened) of generated Verilog, for latch checks and area/depth
 * figures. A first pass that stops before memory mapping counts the memories that were inferred as RAM and lists
 * them by name and shape.
 */
public final class Yosys {
    private Yosys() {
    }

    private static final Pattern CELL_LINE = Pattern.compile("^\\s+(\\$?[\\w$]+)\\s+(\\d+)\\s*$");
    private static final Pattern CELLS = Pattern.compile("Number of cells:\\s+(\\d+)");
    private static final Pattern LTP = Pattern.compile("Longest topological path in \\S+ \\(length=(\\d+)\\)");

    public static SynthReport synth(List<Path> files, String top) {
        StringBuilder script = new StringBuilder(readVerilog(files));
        // RAMs first: stat counts the inferred memories (and their bits) before memory_collect turns them into cells
        script.append("hierarchy -top ").append(top).append('\n')
                .append("proc; flatten; opt -fast; tee -o mem.stat stat; tee -q -o mems.il dump m:*\n")
                .append("design -reset\n").append(readVerilog(files));
        // synth's own script, except memory_map: inferred RAMs stay $mem cells (a real flow maps them to SRAM or
        // block RAM), so flip-flop and cell counts are logic only and large tables do not explode into flip-flops.
        // No opt between techmap and abc: on the gate netlist of an instance it took a third of the run, and abc
        // merges and folds the same gates itself
        script.append("synth -flatten -top ").append(top).append(" -run begin:fine\n")
                .append("opt -fast -full; opt -full; techmap; abc -fast; opt -fast\n")
                .append("synth -top ").append(top).append(" -run check\n")
                .append("tee -o synth.stat stat\n")
                .append("tee -o ltp.txt ltp -noff\n");
        try {
            Run run = run("yosys", top, script.toString(), 1800);
            Path dir = run.dir();
            String log = Files.exists(dir.resolve("yosys.log")) ? Files.readString(dir.resolve("yosys.log"))
                    : run.out().text();
            String stat = Files.readString(dir.resolve("synth.stat"));
            String memStat = Files.readString(dir.resolve("mem.stat"));
            String ltp = Files.readString(dir.resolve("ltp.txt"));
            Map<String, Integer> types = cellTypes(stat);
            int ffs = 0;
            int latches = 0;
            for (Map.Entry<String, Integer> e : types.entrySet()) {
                String t = e.getKey().toUpperCase();
                if (t.contains("DFF")) {
                    ffs += e.getValue();
                } else if (t.contains("DLATCH") || t.startsWith("$_SR_") || t.equals("$SR")) {
                    latches += e.getValue();
                }
            }
            if (log.contains("Latch inferred")) {
                latches = Math.max(latches, 1);
            }
            Matcher mc = Pattern.compile("Number of memories:\\s+(\\d+)").matcher(memStat);
            int memories = mc.find() ? Integer.parseInt(mc.group(1)) : 0;
            long memBits = 0;
            Matcher mb = Pattern.compile("Number of memory bits:\\s+(\\d+)").matcher(memStat);
            if (mb.find()) {
                memBits = Long.parseLong(mb.group(1));
            }
            Map<String, SynthReport.Memory> memoryShapes = memories(Files.readString(dir.resolve("mems.il")));
            Matcher c = CELLS.matcher(stat);
            int cells = c.find() ? Integer.parseInt(c.group(1)) : -1;
            Matcher l = LTP.matcher(ltp);
            int depth = l.find() ? Integer.parseInt(l.group(1)) : -1;
            return new SynthReport(top, cells, ffs, latches, depth, memories, memBits, memoryShapes, types, log);
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
            int ffs = types.entrySet().stream().filter(e -> e.getKey().toUpperCase().contains("DFF"))
                    .mapToInt(Map.Entry::getValue).sum();
            Matcher l = LTP.matcher(Files.readString(dir.resolve("ltp.txt")));
            return new LutDepth(top, l.find() ? Integer.parseInt(l.group(1)) : -1, luts, ffs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readVerilog(List<Path> files) {
        StringBuilder s = new StringBuilder();
        for (Path f : files) {
            s.append("read_verilog -sv ").append(f.toAbsolutePath()).append('\n');
        }
        return s.toString();
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
