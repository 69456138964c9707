package org.sue.gen;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.sue.core.Design;
import scala.Console$;
import spinal.core.SpinalConfig;
import spinal.core.SpinalReport;
import spinal.core.SpinalVerilog$;
import spinal.core.SpinalVhdl$;
import spinal.core.VHDL$;
import spinal.core.Verilog$;

/**
 * Emits an elaborated design as Verilog (or VHDL) through SpinalHDL: one file per module, identical modules shared,
 * plus a file list {@code <top>.f} (paths relative to it). SpinalHDL keeps global state, so emissions are
 * serialised.
 *
 * <p>Quiet: SpinalHDL's own lines ({@code [Runtime]}, {@code [Progress]}, {@code [Warning]}, {@code [Done]}) are kept
 * back and printed (to standard error) only when the emission fails; {@code -D}{@value #VERBOSE}{@code =true} shows
 * them as they come.
 */
public final class VerilogEmitter {
    private VerilogEmitter() {
    }

    /** The system property that lets SpinalHDL print its progress ({@code true}); quiet otherwise. */
    public static final String VERBOSE = "sue.emit.verbose";

    /** What was written. */
    public record Result(String topModule, List<Path> files, Path fileList, boolean hasClock, boolean hasReset) {
    }

    /**
     * Every module keeps the name our core gave it. SpinalHDL shares one module between components whose Verilog is
     * identical, and renames ({@code Name_1}, ...) a component whose module name is already taken by a different
     * layout: that happens when moduleName() leaves out a parameter that changes the structure, and would silently
     * give a module another name than the one the design (and its tests and file lists) expect.
     */
    private static void checkModuleNames(LoweredComponent top) {
        Map<String, Map<String, String>> emittedAs = new TreeMap<>(); // our name -> SpinalHDL's name -> a path
        Set<String> ours = new HashSet<>();
        Deque<spinal.core.Component> todo = new ArrayDeque<>(List.of(top));
        while (!todo.isEmpty()) {
            spinal.core.Component c = todo.pop();
            if (c instanceof LoweredComponent lc) {
                String name = lc.source().moduleName();
                ours.add(name);
                emittedAs.computeIfAbsent(name, k -> new TreeMap<>()).putIfAbsent(lc.definitionName(),
                        lc.source().path());
            }
            todo.addAll(scala.jdk.javaapi.CollectionConverters.asJava(c.children()));
        }
        for (Map.Entry<String, Map<String, String>> e : emittedAs.entrySet()) {
            Map<String, String> as = e.getValue();
            if (as.size() > 1 || !ours.contains(as.keySet().iterator().next())) {
                throw new IllegalStateException("module name '" + e.getKey() + "' is shared by components that differ"
                        + " in structure (" + String.join(", ", as.values()) + "); SpinalHDL would emit them as "
                        + as.keySet() + ". Put the parameters that change the structure into moduleName().");
            }
        }
    }

    /**
     * The lines of a file list: each file relative to the list's folder, with '/' separators, so that the folder can
     * be moved or archived (tools read them with {@code -F}, relative to the list).
     */
    static List<String> relativeLines(Path list, java.util.Collection<Path> files) {
        Path base = list.toAbsolutePath().normalize().getParent();
        List<String> lines = new ArrayList<>();
        for (Path f : files) {
            lines.add(base.relativize(f.toAbsolutePath().normalize()).toString().replace('\\', '/'));
        }
        return lines;
    }

    public static Result emit(Design design, Path targetDir) {
        return emit(design, targetDir, HdlLanguage.VERILOG);
    }

    public static synchronized Result emit(Design design, Path targetDir, HdlLanguage language) {
        try {
            Files.createDirectories(targetDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        boolean verilog = language == HdlLanguage.VERILOG;
        SpinalConfig config = SpinalConfigs.create(Map.ofEntries(
                Map.entry("mode", verilog ? Verilog$.MODULE$ : VHDL$.MODULE$),
                Map.entry("targetDirectory", targetDir.toString()),
                Map.entry("oneFilePerComponent", true),
                Map.entry("genLineComments", false),
                // deterministic output: no "Git hash" comment (it changes with every commit of the calling repo)
                Map.entry("headerWithRepoHash", false),
                // our own <top>.f replaces SpinalHDL's <top>.lst
                Map.entry("printFilelist", false),
                // no when_<File>_l<line> names: a condition that is a signal is used as it is, another is written
                // inline or named by the lowering (a name must not change when unrelated Java lines move)
                Map.entry("nameWhenByFile", false),
                // Verilog: each assignment is one expression, as written in Java. The cut puts arbitrary
                // sub-expressions in _zz_ wires (1-bit ones as [0:0]); VHDL keeps it: GHDL refuses the deep
                // parentheses of, e.g., SpinalHDL's xor chain of a 1024-bit parity without it
                Map.entry("cutLongExpressions", !verilog),
                // a when that drives registers with and without reset is written in two always blocks: its
                // condition repeated inline in both, not put in a _zz_when wire
                Map.entry("inlineConditionalExpression", true),
                // states are localparams; SpinalHDL's debug strings of them would be unread regs (lint UNUSEDSIGNAL),
                // the JVM simulator's waveforms show the state names instead
                Map.entry("_withEnumString", false),
                // widths are checked by our core; SpinalHDL's default limit (4096) would reject long concatenations
                Map.entry("bitVectorWidthMax", 1 << 24)));
        ClockUse clocks = new ClockUse(design.top());
        scala.Function0<LoweredComponent> top = () -> {
            LoweredComponent c = new LoweredComponent(design.top(), design, clocks, new StateEnums(), language);
            c.postInitCallback();
            return c;
        };
        SpinalReport<LoweredComponent> report = quietly(() -> verilog ? SpinalVerilog$.MODULE$.apply(config, top)
                : SpinalVhdl$.MODULE$.apply(config, top));
        checkModuleNames(report.toplevel());
        List<Path> files = new ArrayList<>();
        report.generatedSourcesPaths().foreach(p -> files.add(Path.of(p)));
        dropEmptyEnumDefines(targetDir, files);
        String topName = report.toplevelName();
        Path list = targetDir.resolve(topName + ".f");
        try {
            Files.write(list, relativeLines(list, files));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Result(topName, List.copyOf(files), list, clocks.needsClock(design.top()),
                clocks.needsReset(design.top()));
    }

    /**
     * Runs SpinalHDL with its printing (Scala's {@code println}, which goes to {@code scala.Console.out}, a per-thread
     * variable that threads started meanwhile inherit) captured, unless {@value #VERBOSE} is set; what it printed is
     * shown on standard error if it fails.
     */
    private static <T> T quietly(scala.Function0<T> spinal) {
        if (Boolean.getBoolean(VERBOSE)) {
            return spinal.apply();
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try {
            return Console$.MODULE$.withOut(printed, spinal);
        } catch (Throwable e) { // SpinalExit is a checked exception that Scala does not declare
            System.err.print(printed.toString(StandardCharsets.UTF_8));
            throw e;
        }
    }

    /**
     * With one file per module, SpinalHDL also writes {@code enumdefine.v} once a design has a state register; our
     * states are localparams of their modules, so it holds no definition: it goes, rather than stand unlisted.
     */
    private static void dropEmptyEnumDefines(Path targetDir, List<Path> files) {
        Path defines = targetDir.resolve("enumdefine.v");
        try {
            if (Files.exists(defines) && !Files.readString(defines).contains("`define")) {
                Files.delete(defines);
                files.removeIf(f -> f.getFileName().toString().equals("enumdefine.v"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
