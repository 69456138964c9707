package org.sue.gen;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.sue.core.ResetStyle;

/**
 * The command line of {@code scripts/generate}: what to write where, and whether to run the simulation afterwards.
 * {@link #parse} refuses anything it does not know with a {@link UsageError} that names the argument.
 *
 * @param config   the instance's JSON configuration, null for the default instance
 * @param out      folder of the HDL files
 * @param language Verilog or VHDL; null: the configuration's
 * @param reset    reset style of every register; null: the configuration's
 * @param simulate run the two-XPU simulation after writing
 * @param help     print the usage and nothing else
 * @param top      name of the Verilog top module wrapping the configuration-named one
 */
public record GenerateOptions(Path config, Path out, HdlLanguage language, ResetStyle reset, boolean simulate,
                              boolean help, String top) {
    /** The top's name unless {@code --top} says otherwise. */
    public static final String DEFAULT_TOP = "sue_instance";

    public static final String USAGE = """
            usage: scripts/generate [--config FILE] [--out DIR] [--vhdl] [--reset STYLE] [--top NAME] [--no-sim] [--help]
              --config FILE  the SUE instance's JSON configuration (default: the default instance)
              --out DIR      folder for the HDL files, one per module, and files.f (default: build/rtl)
              --vhdl         write VHDL instead of Verilog (default: the configuration's output.language)
              --reset STYLE  SYNC_HIGH, SYNC_LOW, ASYNC_HIGH or ASYNC_LOW (default: the configuration's
                             output.reset, SYNC_HIGH)
              --top NAME     name of the Verilog top module, a wrapper of the configuration-named one that keeps
                             its name when the configuration changes (default: sue_instance)
              --no-sim       only write the HDL, skip the two-XPU simulation
              --help         this text""";

    /** A command line that cannot be followed; the message says which argument and why. */
    public static final class UsageError extends Exception {
        public UsageError(String message) {
            super(message);
        }
    }

    /** The options, as the usage lists them ({@code -h} is {@code --help}). */
    private static final List<String> OPTIONS = List.of("--config", "--out", "--vhdl", "--reset", "--top", "--no-sim",
            "--help");

    public static GenerateOptions defaults() {
        return new GenerateOptions(null, Path.of("build", "rtl"), null, null, true, false, DEFAULT_TOP);
    }

    public static GenerateOptions parse(String... args) throws UsageError {
        GenerateOptions o = defaults();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) { // --out=DIR is --out DIR
                value = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            if (a.equals("-h")) {
                a = "--help";
            }
            if (!OPTIONS.contains(a)) {
                throw new UsageError(a.startsWith("-") ? a + ": unknown option; known: " + String.join(", ", OPTIONS)
                        : a + ": unexpected argument (the configuration is given with --config, the output folder"
                        + " with --out)");
            }
            boolean takesValue = a.equals("--config") || a.equals("--out") || a.equals("--reset") || a.equals("--top");
            if (takesValue && value == null) {
                if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
                    throw new UsageError(a + ": needs a value");
                }
                value = args[++i];
            }
            if (!takesValue && value != null) {
                throw new UsageError(a + "=" + value + ": " + a + " takes no value");
            }
            if (takesValue && value.isEmpty()) {
                throw new UsageError(a + ": needs a value");
            }
            o = switch (a) {
                case "--help" -> o.with(null, null, null, null, null, true);
                case "--vhdl" -> o.with(null, null, HdlLanguage.VHDL, null, null, null);
                case "--no-sim" -> o.with(null, null, null, null, false, null);
                case "--config" -> o.with(Path.of(value), null, null, null, null, null);
                case "--out" -> o.with(null, Path.of(value), null, null, null, null);
                case "--reset" -> o.with(null, null, null, reset(value), null, null);
                case "--top" -> o.withTop(topName(value));
                default -> throw new IllegalStateException(a); // not in OPTIONS
            };
        }
        return o;
    }

    private static ResetStyle reset(String v) throws UsageError {
        try {
            return ResetStyle.valueOf(v.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageError("--reset " + v + ": not one of " + Arrays.stream(ResetStyle.values())
                    .map(Enum::name).collect(Collectors.joining(", ")));
        }
    }

    private GenerateOptions with(Path c, Path o, HdlLanguage l, ResetStyle r, Boolean sim, Boolean h) {
        return new GenerateOptions(c != null ? c : config, o != null ? o : out, l != null ? l : language,
                r != null ? r : reset, sim != null ? sim : simulate, h != null ? h : help, top);
    }

    private GenerateOptions withTop(String name) {
        return new GenerateOptions(config, out, language, reset, simulate, help, name);
    }

    private static String topName(String v) throws UsageError {
        if (!v.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new UsageError("--top " + v + ": a module name of lower-case letters, digits and '_', starting with"
                    + " a letter");
        }
        return v;
    }
}
