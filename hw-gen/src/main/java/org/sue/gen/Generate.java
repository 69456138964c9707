package org.sue.gen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
import org.sue.instance.SueManagedInstance;

/**
 * The main job ({@code scripts/generate}): writes the Verilog of an {@link SueInstance} (the default one, or the one
 * a JSON configuration describes, {@link InstanceConfigJson}), one
 * file per module plus {@code files.f} ({@link #emitInstance}), then runs two instances back to back over a lossy link
 * ({@link TwoXpuJob}). The test suite emits every default design ({@link #emitDefaultDesigns}) for lint and synthesis.
 * Options: {@link GenerateOptions#USAGE}.
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

    /**
     * An {@link SueInstance} (behind its management port unless the settings say otherwise) with its submodules, one
     * file per module, {@code files.f}, the effective configuration ({@code sue_instance.json}, every default filled
     * in), a FuseSoC core ({@code sue_instance.core}) and, with the management port, the register map's files
     * ({@code registers.md}, {@code sue_regs.h}, {@code sue_regs.rdl}, {@code sue_regs.json}).
     */
    public static Emission emitInstance(InstanceConfigJson.Settings settings, Path out) throws IOException {
        return emitInstance(settings, out, GenerateOptions.DEFAULT_TOP, "the default configuration");
    }

    /**
     * The same, with the top under the stable name {@code topName} (Verilog: a wrapper module {@code <topName>.v};
     * VHDL: the configuration-named entity is the top) and {@code integration.md}, the integrator's page.
     */
    public static Emission emitInstance(InstanceConfigJson.Settings settings, Path out, String topName,
                                        String configuration) throws IOException {
        long t0 = System.nanoTime();
        HdlLanguage lang = settings.language();
        Component top = settings.top();
        VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(top, settings.reset()), out, lang);
        if (top instanceof SueManagedInstance managed) { // the register map's files beside the HDL
            RegisterMapFiles.write(managed.registerMap(), out);
        }
        List<Path> files = new ArrayList<>(r.files());
        String module = r.topModule();
        if (lang == HdlLanguage.VERILOG) {
            files.add(Files.writeString(out.resolve(topName + ".v"), IntegrationFiles.verilogWrapper(topName,
                    r.topModule(), top, r.hasClock(), settings.reset(), r.hasReset())));
            module = topName;
        }
        Files.writeString(out.resolve("integration.md"), IntegrationFiles.guide(module, top, settings.reset(),
                configuration));
        Path list = out.resolve("files.f");
        List<String> relative = VerilogEmitter.relativeLines(list, files);
        Files.write(list, relative);
        Files.writeString(out.resolve("sue_instance.json"), InstanceConfigJson.toJson(settings));
        Files.writeString(out.resolve("sue_instance.core"), fuseSocCore(module, relative, lang));
        System.out.printf("sue_instance -> %s (top module %s), %d module files (%.1f s)%n", r.topModule(), module,
                files.size(), (System.nanoTime() - t0) / 1e9);
        return new Emission(out, List.copyOf(files), Map.of("sue_instance", r), list);
    }

    /** A FuseSoC CAPI2 core: the module files (relative to the core file) and the top level. */
    static String fuseSocCore(String top, List<String> files, HdlLanguage lang) {
        StringBuilder b = new StringBuilder("CAPI=2:\n\nname: ::" + top.toLowerCase(java.util.Locale.ROOT)
                + ":0\ndescription: Scale Up Ethernet instance, generated by scripts/generate\n\nfilesets:\n  rtl:\n"
                + "    file_type: " + (lang == HdlLanguage.VHDL ? "vhdlSource-2008" : "verilogSource")
                + "\n    files:\n");
        for (String f : files) {
            b.append("      - ").append(f).append('\n');
        }
        b.append("\ntargets:\n  default:\n    filesets: [rtl]\n    toplevel: ").append(top).append('\n');
        b.append("  lint:\n    default_tool: verilator\n    filesets: [rtl]\n    toplevel: ").append(top).append('\n');
        b.append("    tools:\n      verilator:\n        mode: lint-only\n        verilator_options: [-Wall]\n");
        return b.toString();
    }

    public static void main(String[] args) throws IOException {
        GenerateOptions o;
        try {
            o = GenerateOptions.parse(args);
        } catch (GenerateOptions.UsageError e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(GenerateOptions.USAGE.lines().findFirst().orElseThrow() + "   (--help: each option)");
            System.exit(2);
            return;
        }
        if (o.help()) {
            System.out.println(GenerateOptions.USAGE);
            return;
        }
        InstanceConfigJson.Settings settings = InstanceConfigJson.Settings.defaults();
        if (o.config() != null) {
            try {
                settings = InstanceConfigJson.read(o.config());
            } catch (InstanceConfigJson.ConfigError e) {
                System.err.println("error: " + o.config() + ": " + e.getMessage());
                System.err.println("nothing was generated");
                System.exit(1);
                return;
            }
        }
        // the command line's --vhdl and --reset win over the file's output section
        settings = settings.withOutput(o.language() != null ? o.language() : settings.language(),
                o.reset() != null ? o.reset() : settings.reset());
        System.out.println("configuration: " + (o.config() == null ? "the default instance" : o.config()));
        Emission e = emitInstance(settings, o.out(), o.top(), o.config() == null ? "the default configuration"
                : "the configuration " + o.config().getFileName());
        System.out.println("wrote " + e.files().size() + " module files, " + e.fileList() + ", "
                + o.out().resolve("sue_instance.json") + " (the effective configuration) and "
                + o.out().resolve("sue_instance.core") + " (FuseSoC); how to connect it: "
                + o.out().resolve("integration.md"));
        if (settings.management()) {
            System.out.println("wrote the register map of its management port: " + o.out().resolve("registers.md")
                    + ", sue_regs.h, sue_regs.rdl, sue_regs.json");
        }
        if (o.simulate()) { // the capture goes under --out when one is given, else to build/sim beside build/rtl
            boolean defaultOut = o.out().equals(GenerateOptions.defaults().out());
            Path sim = defaultOut ? Path.of("build", "sim") : o.out().resolve("sim");
            if (settings.axi() != null) {
                AxiTwoXpuJob.run(settings.axi(), sim, 300);
            } else {
                TwoXpuJob.run(settings.instance(), sim, 2000);
            }
        }
    }
}
