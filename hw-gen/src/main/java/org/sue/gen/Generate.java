package org.sue.gen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.ResetStyle;
import org.sue.instance.SueInstance;

/**
 * The main job ({@code scripts/generate}): writes the Verilog of the default configuration's {@link SueInstance}, one
 * file per module plus {@code files.f} ({@link #emitInstance}), then runs two instances back to back over a lossy link
 * ({@link TwoXpuJob}). The test suite emits every default design ({@link #emitDefaultDesigns}) for lint and synthesis.
 * Arguments: [output folder, default build/rtl] [--vhdl] [--reset=SYNC_HIGH|SYNC_LOW|ASYNC_HIGH|ASYNC_LOW].
 */
public final class Generate {
    private Generate() {
    }

    /** What {@link #emitDefaultDesigns} wrote: every module file, each design's result, and the folder's file list. */
    public record Emission(Path folder, List<Path> files, Map<String, VerilogEmitter.Result> designs, Path fileList) {
    }

    /**
     * Writes every default design ({@link DefaultDesigns}) into one folder, as {@code scripts/generate} does: one file
     * per module (a module shared by designs is written once per design, identically), each design's own
     * {@code <top>.f}, and {@code files.f} naming every file, relative to the folder (use {@code verilator -F}, which
     * reads paths relative to the list, not {@code -f}).
     */
    public static Emission emitDefaultDesigns(Path out, HdlLanguage lang, ResetStyle reset, boolean verbose)
            throws IOException {
        Set<Path> files = new LinkedHashSet<>();
        Map<String, VerilogEmitter.Result> designs = new LinkedHashMap<>();
        for (Map.Entry<String, Supplier<Component>> e : DefaultDesigns.all().entrySet()) {
            long t0 = System.nanoTime();
            VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(e.getValue().get(), reset), out, lang);
            files.addAll(r.files());
            designs.put(e.getKey(), r);
            if (verbose) {
                System.out.printf("%-18s -> %-50s %2d module file(s) (%.2f s)%n", e.getKey(), r.topModule(),
                        r.files().size(), (System.nanoTime() - t0) / 1e9);
            }
        }
        Path list = out.resolve("files.f");
        Files.write(list, VerilogEmitter.relativeLines(list, files));
        return new Emission(out, List.copyOf(files), designs, list);
    }

    /** The default {@link SueInstance} with its submodules, one file per module, and {@code files.f}. */
    public static Emission emitInstance(Path out, HdlLanguage lang, ResetStyle reset) throws IOException {
        long t0 = System.nanoTime();
        VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(new SueInstance(SueInstance.Config.defaults()),
                reset), out, lang);
        Path list = out.resolve("files.f");
        Files.write(list, VerilogEmitter.relativeLines(list, r.files()));
        System.out.printf("sue_instance -> %s, %d module files (%.1f s)%n", r.topModule(), r.files().size(),
                (System.nanoTime() - t0) / 1e9);
        return new Emission(out, List.copyOf(r.files()), Map.of("sue_instance", r), list);
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of("build", "rtl");
        HdlLanguage lang = HdlLanguage.VERILOG;
        ResetStyle reset = ResetStyle.SYNC_HIGH;
        for (String a : args) {
            if (a.equals("--vhdl")) {
                lang = HdlLanguage.VHDL;
            } else if (a.startsWith("--reset=")) {
                reset = ResetStyle.valueOf(a.substring("--reset=".length()));
            } else if (a.startsWith("--")) {
                throw new IllegalArgumentException("unknown option " + a + " (use --vhdl, --reset=STYLE)");
            } else {
                out = Path.of(a);
            }
        }
        Emission e = emitInstance(out, lang, reset);
        System.out.println("wrote " + e.files().size() + " files and " + e.fileList());
        TwoXpuJob.run(Path.of("build", "sim"), 2000);
    }
}
