package org.sue.vectors;

import java.nio.file.Path;

/**
 * Rewrites the committed golden vectors from the JVM simulation, on purpose. Run through scripts/regen-vectors, which
 * then shows the diff to review before committing. Arguments: scenario names (default: all).
 */
public final class RegenVectors {
    private RegenVectors() {
    }

    public static void main(String[] args) {
        for (GoldenScenario s : GoldenScenarios.all()) {
            if (args.length > 0 && !java.util.List.of(args).contains(s.name())) {
                continue;
            }
            Path m = GoldenFiles.manifest(s);
            long t0 = System.nanoTime();
            GoldenFiles.record(s, m);
            System.out.printf("wrote %s (%d cycles, %.1f s)%n", GoldenFiles.repoRoot().relativize(m), s.cycles() + 2,
                    (System.nanoTime() - t0) / 1e9);
        }
    }
}
