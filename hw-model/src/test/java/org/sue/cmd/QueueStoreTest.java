package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.cmd.tb.QueueStoreTraffic;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * Per-queue byte runs: every run reads back exactly the bytes of its commands (the traffic's own record of what it
 * sent is the reference), with cells reused many times over; every cell comes back once all is read; a backlog drains
 * one full beat per cycle whatever the command size; a reset with commands stored leaves nothing stale.
 */
class QueueStoreTest {
    static final class Run {
        final QueueStore.Config config;
        final Simulator sim;
        final QueueStoreTraffic traffic;
        final StreamMonitor monitor;
        final Random rnd;

        Run(QueueStore.Config config, long seed) {
            this.config = config;
            sim = Simulator.compile(Design.elaborate(new QueueStore(config)));
            sim.reset();
            traffic = new QueueStoreTraffic(config, sim);
            monitor = new StreamMonitor(sim, "m_axis", null);
            rnd = new Random(seed);
        }

        void cycles(int n) {
            for (int i = 0; i < n; i++) {
                traffic.drive(rnd);
                sim.step();
            }
        }

        /** Everything requested and read, and the last notices judged: then no cell may be in use. */
        void drain() {
            traffic.sendPercent = 0;
            traffic.requestPercent = 100;
            traffic.readyPercent = 100;
            int n = 0;
            while (!traffic.allRequested() || monitor.packets().size() < traffic.expectedRuns().size()) {
                cycles(1);
                assertTrue(++n < 200_000, "the store never drained");
            }
            cycles(QueueStore.NOTICE_DEPTH + 8);
            check();
            assertEquals(0, sim.peek("cells_in_use"), "cells still in use after everything was read");
        }

        void check() {
            List<QueueStoreTraffic.Run> expected = traffic.expectedRuns();
            List<StreamMonitor.Packet> got = monitor.packets();
            for (int i = 0; i < got.size(); i++) {
                assertEquals(expected.get(i).queue(), got.get(i).user().intValue(), "queue of run " + i);
                assertArrayEquals(expected.get(i).bytes(), got.get(i).bytes(), "bytes of run " + i + " (queue "
                        + expected.get(i).queue() + ", read at cycle " + got.get(i).cycle() + ")");
            }
            assertEquals(0, sim.peek("overflow_error"), "overflow_error");
        }
    }

    @ParameterizedTest
    @CsvSource({"256, 16, 2, 274", "1024, 64, 4, 274", "512, 32, 8, 40", "1024, 256, 1024, 274"})
    void everyRunReadsBackItsCommands(int cellWidth, int cells, int destinations, int maxCommand) {
        Run run = new Run(new QueueStore.Config(cellWidth, cells, destinations), cellWidth + cells + destinations);
        run.traffic.maxCommandBytes = maxCommand;
        run.traffic.queues = Math.min(run.traffic.queues, 12);
        for (int phase = 0; phase < 8; phase++) { // input faster or slower than the reads, runs short or long
            run.traffic.requestPercent = phase % 2 == 0 ? 20 : 90;
            run.traffic.readyPercent = phase % 3 == 0 ? 40 : 95;
            run.traffic.maxRunBytes = phase % 4 == 1 ? 300 : 2048;
            run.cycles(2500);
            run.check();
        }
        assertTrue(run.traffic.expectedRuns().size() > 400, "runs read: " + run.traffic.expectedRuns().size());
        assertTrue(run.traffic.sent > 8L * cells, "cells reused: " + run.traffic.sent + " commands through "
                + cells + " cells");
        run.drain();
    }

    /**
     * Commands of 1 to {@code maxCommand} bytes to 8 queues, stored first, then read as runs of up to 2 KiB: from
     * the first beat to the last, one full beat every cycle.
     */
    @ParameterizedTest
    @CsvSource({"1024, 16", "512, 16", "1024, 128", "256, 274"})
    void aBacklogOfSmallCommandsDrainsAFullBeatPerCycle(int cellWidth, int maxCommand) {
        Run run = new Run(new QueueStore.Config(cellWidth, 1024, 64), 5);
        run.traffic.maxCommandBytes = maxCommand;
        run.traffic.queues = 8;
        run.traffic.sendPercent = 100;
        run.traffic.requestPercent = 0;
        while (run.sim.peek("cells_in_use") < 900) {
            run.cycles(1);
        }
        run.traffic.sendPercent = 0;
        run.traffic.requestPercent = 100;
        run.traffic.readyPercent = 100;
        run.traffic.maxRunBytes = 2048;
        long beats = run.monitor.beats();
        long first = -1;
        long last = -1;
        while (!run.traffic.allRequested() || run.monitor.packets().size() < run.traffic.expectedRuns().size()) {
            run.cycles(1);
            if (run.monitor.beats() > beats) {
                first = first < 0 ? run.sim.cycle() : first;
                last = run.sim.cycle();
            }
        }
        long drained = run.monitor.beats() - beats;
        assertTrue(drained > 800, drained + " beats drained");
        assertEquals(last - first + 1, drained, "cycles from the first beat to the last, a beat in each");
        run.drain();
    }

    /**
     * An input beat in every cycle, with runs requested as soon as their commands are stored: the runs' notices are
     * judged beside the beats, so the reader keeps up, the input is never refused and the cells in use stay few.
     */
    @ParameterizedTest
    @CsvSource({"1024, 1, 274", "1024, 8, 64", "512, 64, 16", "256, 4, 274"})
    void readsKeepUpWithAnInputBeatInEveryCycle(int cellWidth, int queues, int maxCommand) {
        Run run = new Run(new QueueStore.Config(cellWidth, 1024, 64), queues);
        run.traffic.maxCommandBytes = maxCommand;
        run.traffic.queues = queues;
        run.traffic.sendPercent = 100;
        run.traffic.requestPercent = 100;
        run.traffic.readyPercent = 100;
        run.traffic.maxRunBytes = 2048;
        while (run.sim.peek("init_busy") == 1) {
            run.cycles(1);
        }
        int refused = 0;
        long mostInUse = 0;
        for (int i = 0; i < 20_000; i++) {
            run.traffic.drive(run.rnd);
            refused += run.sim.peek("s_axis_tvalid") == 1 && run.sim.peek("s_axis_tready") == 0 ? 1 : 0;
            run.sim.step();
            mostInUse = Math.max(mostInUse, run.sim.peek("cells_in_use"));
        }
        assertEquals(0, refused, "cycles an input beat was refused");
        assertTrue(mostInUse < 200, "cells in use reached " + mostInUse + " of 1024");
        run.check();
        run.drain();
    }

    /** A reset while queues hold commands: the tail table is cleared, so nothing stale is written after it. */
    @Test
    void aResetWithCommandsStoredLeavesNothingStale() {
        QueueStore.Config config = new QueueStore.Config(256, 32, 4);
        Run first = new Run(config, 3);
        first.traffic.requestPercent = 10;
        first.cycles(600);
        first.sim.poke("s_axis_tvalid", 0); // the sender is reset too: what it offered is gone
        first.sim.poke("rd_valid", 0);
        first.sim.reset();
        QueueStoreTraffic after = new QueueStoreTraffic(config, first.sim);
        StreamMonitor monitor = new StreamMonitor(first.sim, "m_axis", null);
        Random rnd = new Random(4);
        int initCycles = 0;
        while (first.sim.peek("init_busy") == 1) {
            first.sim.step();
            initCycles++;
        }
        assertEquals(config.destinations() * SueMeta.VCS, initCycles, "one cycle per queue to clear the table");
        for (int i = 0; i < 6000; i++) {
            after.drive(rnd);
            first.sim.step();
        }
        after.sendPercent = 0;
        after.requestPercent = 100;
        after.readyPercent = 100;
        for (int i = 0; i < 3000; i++) {
            after.drive(rnd);
            first.sim.step();
        }
        assertTrue(after.allRequested(), "all requested");
        assertEquals(after.expectedRuns().size(), monitor.packets().size(), "runs read after the reset");
        for (int i = 0; i < monitor.packets().size(); i++) {
            assertArrayEquals(after.expectedRuns().get(i).bytes(), monitor.packets().get(i).bytes(), "run " + i);
        }
        assertEquals(0, first.sim.peek("cells_in_use"), "cells in use after the drain");
    }

    @Test
    void invalidParametersNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new QueueStore.Config(128, 64, 4))
                .getMessage().contains("cellWidth"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new QueueStore.Config(512, 100, 4))
                .getMessage().contains("cells"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new QueueStore.Config(512, 64, 3))
                .getMessage().contains("destinations"));
    }
}
