package org.sue.axi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.axi.tb.AxiMonitor;
import org.sue.axi.tb.AxiWriteReadRun;
import org.sue.cmd.CommandLoopback;
import org.sue.cmd.CommandPath;
import org.sue.core.Design;
import org.sue.sim.Simulator;

/**
 * The AXI4 pair over SUE's real command path ({@link AxiCommandLoopback}: the bridge on a command path closed on
 * itself). {@link AxiWriteReadRun}: writes of every burst type then reads of the same bursts return exactly what an independent
 * byte model of the writes says; nothing dropped on the way.
 */
class AxiBridgeTest {
    @ParameterizedTest
    @CsvSource({"512,90,80", "256,70,60"})
    void writesThenReadsThroughTheCommandPath(int width, int validPercent, int readyPercent) {
        AxiConfig axi = new AxiConfig(width, 48, 4, 0, 8, false, 36, 4);
        CommandPath.Config path = CommandPath.Config.builder(axi.commandTable()).dataWidth(width).destinations(8)
                .cells(512).cmdCredits(16).dataCredits(8).build();
        AxiBridge.Config bridge = new AxiBridge.Config(axi, 4, 4, 16, 8, 8, 4);
        int requests = 120;
        Simulator sim = Simulator.compile(Design.elaborate(new AxiCommandLoopback(new AxiCommandLoopback.Config(bridge,
                new CommandLoopback.Config(path, 8, 4)))));
        sim.reset();
        AxiWriteReadRun run = new AxiWriteReadRun(sim, axi, 2, requests, width, validPercent, readyPercent);
        Random rnd = new Random(width);
        for (long cycle = 0; !run.finished(); cycle++) {
            run.cycle(rnd);
            sim.step();
            assertTrue(cycle < 400_000, "the run did not finish");
        }
        run.assertQuiet();
        AxiMonitor.Counts seen = run.monitor().counts(); // every burst went through the monitored slave
        assertEquals(List.of((long) requests, (long) requests, (long) requests, (long) requests),
                List.of(seen.aw(), seen.b(), seen.ar(), seen.rBursts()), seen.toString());
        for (String drop : List.of("sue_drops_no_credit", "sue_drops_bad_command", "sue_drops_bad_destination",
                "rx_drops_vc", "rx_overflow_error", "m_bad_commands", "s_bad_commands")) {
            assertEquals(0, sim.peek(drop), drop);
        }
        assertTrue(sim.peek("sue_commands_accepted") > 0);
    }

    /**
     * Two and four pairs on one FIFO interface, each with its own SoC master and memory, all busy at once: every pair's
     * requests reach its own far master and its answers come back to it alone (the pair travels in the IDs' top
     * bits), each checked against its own byte model.
     */
    @ParameterizedTest
    @CsvSource({"2,512", "4,256"})
    void pairsShareTheFifoInterface(int pairs, int width) {
        AxiConfig axi = new AxiConfig(width, 48, 3, 0, 8, false, 36, 4);
        CommandPath.Config path = CommandPath.Config.builder(new AxiBridge.Config(axi, 4, 4, 16, 8, 8, 4, pairs)
                .wire().commandTable()).dataWidth(width).destinations(8).cells(512).cmdCredits(16).dataCredits(8)
                .build();
        AxiBridge.Config bridge = new AxiBridge.Config(axi, 4, 4, 16, 8, 8, 4, pairs);
        Simulator sim = Simulator.compile(Design.elaborate(new AxiCommandLoopback(new AxiCommandLoopback.Config(bridge,
                new CommandLoopback.Config(path, 8, 4)))));
        sim.reset();
        List<AxiWriteReadRun> runs = new java.util.ArrayList<>();
        for (int p = 0; p < pairs; p++) {
            runs.add(new AxiWriteReadRun(sim, axi, Integer.toString(p), 2, 40, width + p, 85, 75));
        }
        Random rnd = new Random(pairs);
        for (long cycle = 0; !runs.stream().allMatch(AxiWriteReadRun::finished); cycle++) {
            runs.forEach(r -> r.drive(rnd));
            runs.forEach(r -> r.taken(rnd));
            sim.step();
            assertTrue(cycle < 400_000, "the run did not finish");
        }
        for (int p = 0; p < pairs; p++) {
            runs.get(p).assertQuiet();
            AxiMonitor.Counts seen = runs.get(p).monitor().counts();
            assertEquals(List.of(40L, 40L, 40L, 40L), List.of(seen.aw(), seen.b(), seen.ar(), seen.rBursts()),
                    "pair " + p + ": " + seen);
            assertEquals(0, sim.peek("m" + p + "_bad_commands") + sim.peek("s" + p + "_bad_commands"));
            assertTrue(sim.peek("m" + p + "_writes_issued") > 0, "pair " + p + "'s far master took its requests");
        }
    }
}
