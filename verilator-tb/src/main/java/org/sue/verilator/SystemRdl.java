package org.sue.verilator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A SystemRDL syntax check: the tree-sitter SystemRDL grammar (npm package {@code tree-sitter-systemrdl}, its
 * generated C parser) with the tree-sitter runtime (Debian {@code libtree-sitter-dev}), driven by the project's
 * {@code tools/systemrdl/rdlcheck.c}. The grammar is fetched from the npm registry once into
 * {@code ~/.cache/sue-tools}; scripts/test installs the runtime.
 */
public final class SystemRdl {
    /** The grammar's version, fixed so that a check means the same thing on every machine. */
    public static final String GRAMMAR = "tree-sitter-systemrdl@0.7.0";
    private static final Path CACHE = Path.of(System.getProperty("user.home"), ".cache", "sue-tools", "systemrdl");

    private SystemRdl() {
    }

    /** The result of checking files: whether every one parsed, and the checker's report. */
    public record Check(boolean passed, String report) { }

    /** Parses {@code files} with the checker built from {@code checkerSource} into {@code workDir}. */
    public static Check check(Path checkerSource, Path workDir, List<Path> files) {
        Path binary = build(checkerSource, workDir);
        List<String> cmd = new ArrayList<>(List.of(binary.toString()));
        files.forEach(f -> cmd.add(f.toString()));
        Tool.Output out = Tool.run(cmd, workDir, 60);
        return new Check(out.exitCode() == 0, out.text());
    }

    private static synchronized Path build(Path checkerSource, Path workDir) {
        Path grammar = grammar();
        Path binary = workDir.resolve("rdlcheck");
        Tool.Output cc = Tool.run(List.of("gcc", "-O1", "-o", binary.toString(), checkerSource.toString(),
                grammar.resolve("parser.c").toString(), "-I", grammar.toString(), "-ltree-sitter"), workDir, 300);
        if (cc.exitCode() != 0) {
            throw new IllegalStateException("cannot build the SystemRDL checker (libtree-sitter-dev installed? "
                    + "scripts/test installs it):\n" + cc.tail(20));
        }
        return binary;
    }

    /** The grammar's {@code src} directory, fetched from the npm registry the first time. */
    private static Path grammar() {
        Path src = CACHE.resolve("node_modules").resolve("tree-sitter-systemrdl").resolve("src");
        if (Files.isRegularFile(src.resolve("parser.c"))) {
            return src;
        }
        try {
            Files.createDirectories(CACHE);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        // --ignore-scripts: only the generated parser is used, not the package's Node.js binding
        Tool.Output npm = Tool.run(List.of("npm", "install", "--prefix", CACHE.toString(), "--ignore-scripts",
                "--no-audit", "--no-fund", GRAMMAR), CACHE, 600);
        if (npm.exitCode() != 0 || !Files.isRegularFile(src.resolve("parser.c"))) {
            throw new IllegalStateException("cannot fetch " + GRAMMAR + " from the npm registry:\n" + npm.tail(20));
        }
        return src;
    }
}
