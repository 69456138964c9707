package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.cmd.model.BufferCreditsReference;
import org.sue.cmd.tb.BufferTraffic;
import org.sue.core.Design;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * Credits returned by buffer space: the block matches its reference cycle by cycle; the buffer can never be asked to
 * hold more than its cells; one VC alone can fill the shared cells; a VC that cannot drain does not stop the others;
 * after a drain the XPU holds its initial credits.
 */
class BufferCreditsTest {
    /** Runs the traffic against the block and its reference, checking both and the overflow bound every cycle. */
    static final class Run {
        final BufferCredits.Config config;
        final Simulator sim;
        final BufferCreditsReference ref;
        final BufferTraffic traffic;
        final Random rnd;
        long peakCells;

        Run(BufferCredits.Config config, long seed) {
            this.config = config;
            sim = Simulator.compile(Design.elaborate(new BufferCredits(config)));
            sim.reset();
            ref = new BufferCreditsReference(config);
            traffic = new BufferTraffic(config);
            rnd = new Random(seed);
        }

        void cycles(int n) {
            for (int i = 0; i < n; i++) {
                BufferCreditsReference.Release r = ref.output();
                assertEquals(r != null ? 1 : 0, sim.peek("rel_valid"), "rel_valid at cycle " + sim.cycle());
                if (r != null) {
                    assertEquals(r.vc(), sim.peek("rel_vc"), "rel_vc at cycle " + sim.cycle());
                    assertEquals(r.data() ? 1 : 0, sim.peek("rel_data"), "rel_data at cycle " + sim.cycle());
                }
                traffic.drive(sim, rnd);
                long worst = traffic.worstCaseCells();
                assertTrue(worst <= config.cells(), "at cycle " + sim.cycle() + " the buffer could have to hold "
                        + worst + " cells of " + config.cells());
                peakCells = Math.max(peakCells, traffic.totalCellsInBuffer());
                ref.cycle(sim.peek("cell_used_valid") == 1 ? (int) sim.peek("cell_used_vc") : -1,
                        sim.peek("cmd_stored_valid") == 1 ? (int) sim.peek("cmd_stored_vc") : -1,
                        sim.peek("cmd_stored_data") == 1,
                        sim.peek("cell_freed_valid") == 1 ? (int) sim.peek("cell_freed_vc") : -1,
                        (int) sim.peek("cell_returned_vc"), (int) sim.peek("cell_returned_count"));
                sim.step();
            }
        }

        void drainAll() {
            java.util.Arrays.fill(traffic.blocked, false);
            traffic.sendPercent = 0;
            traffic.drainPercent = 100;
            int n = 0;
            while (!(traffic.drained() && traffic.creditsBack())) {
                cycles(1);
                assertTrue(++n < 100_000, "credits never came back");
            }
            cycles(1); // the block counts the last cycle's events at the next edge
        }
    }

    @ParameterizedTest
    @CsvSource({"256, 64, 8, 4", "64, 32, 2, 1", "4096, 128, 64, 32", "300, 128, 20, 0"})
    void matchesReferenceAndNeverOverfills(int cells, int cellBytes, int cmdCredits, int dataCredits) {
        Run run = new Run(new BufferCredits.Config(cells, cellBytes, cmdCredits, dataCredits), cells + cellBytes);
        for (int phase = 0; phase < 12; phase++) { // drain fast, slow, and with VCs blocked at random
            run.traffic.drainPercent = phase % 3 == 0 ? 90 : 20;
            for (int v = 0; v < SueMeta.VCS; v++) {
                run.traffic.blocked[v] = phase % 4 == 3 && run.rnd.nextBoolean();
            }
            run.cycles(cells * 6);
        }
        assertTrue(run.traffic.commandsSent() > cells, "traffic flowed: " + run.traffic.commandsSent());
        run.drainAll();
        for (int v = 0; v < SueMeta.VCS; v++) {
            assertEquals(run.config.reserve(), run.ref.charge(v), "charge of VC " + v + " back at its reserve");
        }
    }

    /** One VC with nowhere to go: it fills its reserve and all the shared cells, beyond what its credits allow. */
    @Test
    void oneVcFillsTheSharedCells() {
        BufferCredits.Config config = new BufferCredits.Config(4096, 128, 64, 32);
        Run run = new Run(config, 7);
        run.traffic.activeVcs = 1;
        run.traffic.blocked[0] = true;
        run.traffic.sendPercent = 100;
        run.cycles(12_000);
        // all but the other VCs' reserves, less what its own credits and one command may still take
        long held = run.traffic.cellsInBuffer(0);
        long room = config.shared() + config.reserve();
        assertTrue(held > room - config.reserve() - config.cmdCost() - config.dataCost(), "VC 0 holds " + held
                + " cells; it may fill " + room + " of " + config.cells());
        run.drainAll();
    }

    /** VC 0 cannot drain; the other VCs keep flowing at the drain rate, using their reserves. */
    @Test
    void aBlockedVcDoesNotStopTheOthers() {
        BufferCredits.Config config = new BufferCredits.Config(256, 64, 8, 4);
        Run run = new Run(config, 11);
        run.traffic.blocked[0] = true;
        run.traffic.drainPercent = 100;
        run.cycles(5000); // VC 0 fills everything it may
        long[] before = new long[SueMeta.VCS];
        for (int v = 0; v < SueMeta.VCS; v++) {
            before[v] = run.traffic.releases(v);
        }
        run.cycles(5000);
        for (int v = 1; v < SueMeta.VCS; v++) {
            long flowed = run.traffic.releases(v) - before[v];
            assertTrue(flowed > 500, "VC " + v + " returned " + flowed + " commands' credits in 5000 cycles");
        }
        assertTrue(run.traffic.cellsInBuffer(0) > config.reserve(), "VC 0 holds more than its reserve: "
                + run.traffic.cellsInBuffer(0));
        run.drainAll();
    }

    @Test
    void invalidParametersNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new BufferCredits.Config(4096, 16, 64, 32))
                .getMessage().contains("cellBytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new BufferCredits.Config(4096, 128, 0, 0))
                .getMessage().contains("cmdCredits"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new BufferCredits.Config(4096, 128, 64, 65))
                .getMessage().contains("dataCredits"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new BufferCredits.Config(100, 128, 20, 10))
                .getMessage().contains("cells (100)"));
    }
}
