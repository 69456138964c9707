package org.sue.verilator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.sue.gen.VerilogEmitter;
import org.sue.vectors.GoldenFiles;
import org.sue.vectors.GoldenScenario;
import org.sue.vectors.GoldenScenarios;

/**
 * Third layer: the generated Verilog, run by Verilator, reproduces the committed golden vectors (which the JVM model
 * reproduces too, see GoldenVectorsReproduceTest): every output port, every cycle.
 */
class CrossCheckTest {
    static final Path OUT = Path.of("target", "crosscheck").toAbsolutePath();

    static VerilogEmitter.Result emit(GoldenScenario s) {
        return VerilogEmitter.emit(GoldenFiles.elaborate(s), OUT.resolve(s.name()));
    }

    static Set<String> absentPorts(VerilogEmitter.Result r, GoldenScenario s) {
        Set<String> absent = new HashSet<>();
        if (!r.hasReset()) {
            absent.add(s.resetStyle().portName());
        }
        return absent;
    }

    @TestFactory
    Stream<DynamicTest> verilatorReplaysEveryGoldenFile() {
        return InParallel.tests(GoldenScenarios.all(), GoldenScenario::name, s -> {
            VerilogEmitter.Result v = emit(s);
            ReplayResult r = VerilatorReplay.replay(v.files(), v.topModule(), GoldenFiles.manifest(s),
                    absentPorts(v, s), OUT.resolve("waves"));
            assertTrue(r.passed(), s.name() + ": " + r.mismatchCount() + " mismatches, first: " + r.firstMismatches()
                    + "; waveform " + r.waveform());
            assertEquals(s.cycles() + 2, r.cycles(), "every cycle of the file was replayed");
            // again with every register and memory at random power-up values, as a 4-state simulator or silicon
            // would start: the vectors' don't-care marks must cover whatever power-up state leaks to the outputs
            long seed = Math.floorMod(s.seed(), 1_000_000_007L);
            ReplayResult random = VerilatorReplay.replay(v.files(), v.topModule(), GoldenFiles.manifest(s),
                    absentPorts(v, s), OUT.resolve("waves"), seed);
            assertTrue(random.passed(), s.name() + " from random power-up values (seed " + seed + "): "
                    + random.mismatchCount() + " mismatches, first: " + random.firstMismatches() + "; waveform "
                    + random.waveform());
        });
    }

    @Test
    void aBrokenVerilogIsCaughtWithCyclePortAndWaveform() throws Exception {
        GoldenScenario s = GoldenScenarios.byName("fifo_w72_d5");
        VerilogEmitter.Result v = emit(s);
        Path broken = OUT.resolve("broken").resolve(v.files().get(0).getFileName());
        Files.createDirectories(broken.getParent());
        String text = Files.readString(v.files().get(0));
        String sabotaged = text.replace("assign write = (push_valid && (! full));", "assign write = push_valid;");
        assertFalse(text.equals(sabotaged), "the sabotage applies to the generated FIFO");
        Files.writeString(broken, sabotaged);
        ReplayResult r = VerilatorReplay.replay(List.of(broken), v.topModule(), GoldenFiles.manifest(s), Set.of(),
                OUT.resolve("waves-broken"));
        assertFalse(r.passed(), "a FIFO that writes while full must be caught");
        assertTrue(r.firstMismatches().get(0).matches("cycle \\d+ port \\w+: expected [0-9a-f]+, got [0-9a-f]+"),
                r.firstMismatches().get(0));
        assertNotNull(r.waveform());
        assertTrue(Files.size(r.waveform()) > 1000, "a VCD waveform was left at " + r.waveform());
    }

    @Test
    void aSecondReplayReusesTheCachedBuild() {
        GoldenScenario s = GoldenScenarios.byName("credit_counter_m16_a3_sync_low");
        VerilogEmitter.Result v = emit(s);
        VerilatorReplay.replay(v.files(), v.topModule(), GoldenFiles.manifest(s), absentPorts(v, s), OUT);
        ReplayResult again = VerilatorReplay.replay(v.files(), v.topModule(), GoldenFiles.manifest(s),
                absentPorts(v, s), OUT);
        assertFalse(again.rebuilt(), "same Verilog, flags and harness: no rebuild");
        assertTrue(again.passed());
    }
}
