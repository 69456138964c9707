package org.sue.gen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.ResetStyle;

/**
 * The main job ({@code scripts/generate}): writes the Verilog of every default design into one folder, one file per
 * module plus {@code files.f}, then runs the framing loopback simulation ({@link LoopbackJob}) and the command path
 * loopback ({@link CommandLoopbackJob}).
 * Arguments: [output folder, default build/rtl] [--vhdl] [--reset=SYNC_HIGH|SYNC_LOW|ASYNC_HIGH|ASYNC_LOW].
 */
public final class Generate {
    private Generate() {
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
        Set<Path> files = new LinkedHashSet<>();
        for (Map.Entry<String, Supplier<Component>> e : DefaultDesigns.all().entrySet()) {
            long t0 = System.nanoTime();
            VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(e.getValue().get(), reset), out, lang);
            files.addAll(r.files());
            System.out.printf("%-18s -> %-50s %2d module file(s) (%.2f s)%n", e.getKey(), r.topModule(),
                    r.files().size(), (System.nanoTime() - t0) / 1e9);
        }
        List<String> lines = new ArrayList<>();
        for (Path f : files) {
            lines.add(f.toAbsolutePath().toString());
        }
        Path list = out.resolve("files.f");
        Files.write(list, lines);
        System.out.println("wrote " + files.size() + " files and " + list);
        LoopbackJob.run(Path.of("build", "sim"));
        CommandLoopbackJob.run();
    }
}
