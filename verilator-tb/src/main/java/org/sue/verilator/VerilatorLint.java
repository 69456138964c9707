package org.sue.verilator;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code verilator --lint-only -Wall}: every warning is a finding; none means clean. */
public final class VerilatorLint {
    private VerilatorLint() {
    }

    /** Returns the warning and error lines (empty when clean). */
    public static List<String> lint(List<Path> files, String topModule) {
        List<String> cmd = new ArrayList<>(List.of("verilator", "--lint-only", "-Wall", "--top-module", topModule));
        files.forEach(f -> cmd.add(f.toString()));
        Tool.Output out = Tool.run(cmd, null, 300);
        List<String> findings = new ArrayList<>();
        for (String line : out.text().split("\n")) {
            if (line.startsWith("%Warning") || (line.startsWith("%Error") && !line.startsWith("%Error: Exiting due to"))) {
                findings.add(line);
            }
        }
        if (out.exitCode() != 0 && findings.isEmpty()) {
            findings.add("verilator exited with " + out.exitCode() + ": " + out.tail(10));
        }
        return findings;
    }
}
