package org.sue.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.sue.sim.JvmReplay;
import org.sue.sim.Simulator;

/**
 * The JVM model must still produce the committed golden vectors: replaying each file's inputs gives exactly its
 * outputs, and re-running its scenario writes the same bytes. A failure means the model changed; if on purpose, run
 * scripts/regen-vectors and review the diff.
 */
class GoldenVectorsReproduceTest {
    @TempDir
    Path tmp;

    @TestFactory
    Stream<DynamicTest> everyGoldenFileIsReproduced() {
        return GoldenScenarios.all().stream().map(s -> DynamicTest.dynamicTest(s.name(), () -> {
            Path committed = GoldenFiles.manifest(s);
            assertTrue(Files.exists(committed), committed + " is missing: run scripts/regen-vectors");
            try (Simulator sim = Simulator.compile(GoldenFiles.elaborate(s))) {
                JvmReplay.Result r = JvmReplay.replay(sim, committed);
                assertTrue(r.passed(), s.name() + ": " + r.mismatchCount() + " mismatches, first: " + r.firstMismatches());
                assertTrue(r.cycles() > s.cycles(), "the whole file was replayed");
            }
            Path again = tmp.resolve(s.name() + ".json");
            GoldenFiles.record(s, again);
            String body = s.name() + ".vec";
            assertEquals(Files.readString(committed.resolveSibling(body)), Files.readString(again.resolveSibling(body)),
                    s.name() + ": the scenario no longer writes the committed vectors");
        }));
    }
}
