package org.sue.verilator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs an external tool and captures its combined output. */
final class Tool {
    private Tool() {
    }

    record Output(int exitCode, String text) {
        String tail(int lines) {
            String[] all = text.split("\n");
            int from = Math.max(0, all.length - lines);
            return String.join("\n", java.util.Arrays.asList(all).subList(from, all.length));
        }
    }

    static Output run(List<String> command, Path workDir, long timeoutSeconds) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            if (workDir != null) {
                pb.directory(workDir.toFile());
            }
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(command.get(0) + " timed out after " + timeoutSeconds + " s");
            }
            return new Output(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command.get(0) + " (is it installed? scripts/test installs it)",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Whether a command of that name is on the PATH. */
    static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** First line of {@code verilator --version}, part of every build cache key. */
    static synchronized String verilatorVersion() {
        if (verilatorVersion == null) {
            verilatorVersion = run(List.of("verilator", "--version"), null, 60).text().trim();
        }
        return verilatorVersion;
    }

    private static String verilatorVersion;
}
