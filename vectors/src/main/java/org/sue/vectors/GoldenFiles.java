package org.sue.vectors;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.sue.core.Design;
import org.sue.sim.Simulator;

/** Where the committed golden vectors live, and how a scenario is turned into a vector file. */
public final class GoldenFiles {
    private GoldenFiles() {
    }

    /** The repository root: system property {@code sue.repo.root}, else the nearest parent holding vectors/golden. */
    public static Path repoRoot() {
        String prop = System.getProperty("sue.repo.root");
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop).toAbsolutePath().normalize();
        }
        Path p = Path.of("").toAbsolutePath();
        while (p != null) {
            if (Files.isDirectory(p.resolve("vectors").resolve("golden"))) {
                return p;
            }
            p = p.getParent();
        }
        throw new IllegalStateException("cannot find the repository root (no vectors/golden above "
                + Path.of("").toAbsolutePath() + "); set -Dsue.repo.root");
    }

    public static Path goldenDir() {
        return repoRoot().resolve("vectors").resolve("golden");
    }

    public static Path manifest(GoldenScenario s) {
        return goldenDir().resolve(s.name() + ".json");
    }

    public static Design elaborate(GoldenScenario s) {
        return Design.elaborate(s.build().get(), s.resetStyle());
    }

    /** Runs the scenario in the JVM simulation and records every port of every cycle into {@code manifestJson}. */
    public static void record(GoldenScenario s, Path manifestJson) {
        try (Simulator sim = Simulator.compile(elaborate(s))) {
            sim.record(manifestJson);
            run(s, sim, s.stimulus().get());
        }
    }

    /**
     * Runs the scenario as {@link #record} does (two cycles of reset, then the stimulus every cycle) on {@code sim},
     * with {@code stimulus} made by the caller, so a test can look at what the stimulus saw.
     */
    public static void run(GoldenScenario s, Simulator sim, GoldenScenario.Stimulus stimulus) {
        Random rnd = new Random(s.seed());
        sim.setReset(true);
        sim.step(2);
        sim.setReset(false);
        for (long c = 0; c < s.cycles(); c++) {
            stimulus.drive(sim, c, rnd);
            sim.step();
        }
    }
}
