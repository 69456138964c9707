package org.sue.verilator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * GHDL's check of generated VHDL: {@code ghdl -a} on every file (in the order given: packages, then each entity
 * before the ones that instantiate it), then {@code ghdl -e} on the top entity. The standard is GHDL's default,
 * VHDL-93 with GHDL's relaxed rules ({@code --std=93c}), as in SpinalHDL's own GHDL simulation flow; every warning
 * is an error (an instance left unbound, say), so a clean run prints nothing.
 */
public final class Ghdl {
    private Ghdl() {
    }

    public static final List<String> FLAGS = List.of("--std=93c", "--warn-error");

    /** Returns GHDL's messages (empty when the files analyse and the top elaborates cleanly). */
    public static List<String> check(List<Path> files, String top) {
        Path work;
        try {
            work = Files.createTempDirectory("sue-ghdl");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            List<String> analyse = new ArrayList<>(List.of("ghdl", "-a"));
            analyse.addAll(FLAGS);
            analyse.add("--workdir=" + work);
            files.forEach(f -> analyse.add(f.toAbsolutePath().toString()));
            Tool.Output a = Tool.run(analyse, work, 600);
            if (a.exitCode() != 0 || !a.text().isBlank()) {
                return findings("ghdl -a", a);
            }
            List<String> elaborate = new ArrayList<>(List.of("ghdl", "-e"));
            elaborate.addAll(FLAGS);
            elaborate.add("--workdir=" + work);
            elaborate.add(top);
            Tool.Output e = Tool.run(elaborate, work, 600);
            if (e.exitCode() != 0 || !e.text().isBlank()) {
                return findings("ghdl -e " + top, e);
            }
            return List.of();
        } finally {
            deleteTree(work);
        }
    }

    private static List<String> findings(String step, Tool.Output out) {
        List<String> lines = new ArrayList<>();
        for (String line : out.text().split("\n")) {
            if (!line.isBlank() && lines.size() < 20) {
                lines.add(line);
            }
        }
        if (lines.isEmpty()) {
            lines.add(step + " exited with " + out.exitCode());
        } else {
            lines.set(0, step + ": " + lines.get(0));
        }
        return lines;
    }

    private static void deleteTree(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temporary folder is harmless
        }
    }
}
