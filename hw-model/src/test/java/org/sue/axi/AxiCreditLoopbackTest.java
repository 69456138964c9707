package org.sue.axi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.axi.tb.AxiWriteReadRun;
import org.sue.cmd.CommandLoopback;
import org.sue.cmd.CommandPath;
import org.sue.core.Design;
import org.sue.sim.Simulator;

/**
 * The AXI4 pair in the spec's credit form over SUE's real command path ({@link AxiCreditLoopback}: the wrapper, a
 * credit loop on every channel, the bridge, the command path closed on itself). {@link AxiWriteReadRun} with random
 * valid and ready on the SoC's side: writes of every burst type then reads of the same bursts return exactly what an
 * independent byte model of the writes says; no loop is ever overrun or over-credited, and at the end every sender
 * holds all its credits again.
 */
class AxiCreditLoopbackTest {
    static final List<String> CHANNELS = List.of("s_aw", "s_w", "s_ar", "s_b", "s_r", "m_aw", "m_w", "m_ar", "m_b",
            "m_r");

    @ParameterizedTest
    @CsvSource({"512,90,80,4,8", "256,70,60,1,2", "512,100,100,2,16"})
    void writesThenReadsThroughEveryCreditLoop(int width, int validPercent, int readyPercent, int addrCredits,
                                               int dataCredits) {
        AxiConfig axi = new AxiConfig(width, 48, 4, 0, 8, false, 36, 4);
        CommandPath.Config path = CommandPath.Config.builder(axi.commandTable()).dataWidth(width).destinations(8)
                .cells(512).cmdCredits(16).dataCredits(8).build();
        AxiCredits credits = new AxiCredits(addrCredits, dataCredits, addrCredits, addrCredits, dataCredits);
        AxiCreditPair.Config pair = new AxiCreditPair.Config(new AxiBridge.Config(axi, 4, 4, 16, 8, 8, 4), credits,
                credits);
        Simulator sim = Simulator.compile(Design.elaborate(new AxiCreditLoopback(new AxiCreditLoopback.Config(pair,
                new CommandLoopback.Config(path, 8, 4)))));
        sim.reset();
        AxiWriteReadRun run = new AxiWriteReadRun(sim, axi, 2, 100, width, validPercent, readyPercent);
        Random rnd = new Random(width + addrCredits);
        long cycle = 0;
        for (; !run.finished(); cycle++) {
            run.cycle(rnd);
            sim.step();
            assertTrue(cycle < 400_000, "the run did not finish");
        }
        sim.step(8); // the last credits on their way back
        for (String drop : List.of("sue_drops_no_credit", "sue_drops_bad_command", "sue_drops_bad_destination",
                "rx_drops_vc", "rx_overflow_error", "m_bad_commands", "s_bad_commands")) {
            assertEquals(0, sim.peek(drop), drop);
        }
        for (AxiCredits.Loop loop : pair.loops()) {
            String n = loop.name();
            // SUE's buffers are the pair's receivers, the SoC's the wrapper's: each loop's receiver on one side
            String rx = (loop.intoSue() ? "sue_" : "soc_") + n;
            String tx = (loop.intoSue() ? "soc_" : "sue_") + n;
            assertEquals(0, sim.peek(rx + "_overflow_beats"), rx + "_overflow_beats");
            assertEquals(0, sim.peek(tx + "_excess_returns"), tx + "_excess_returns");
            assertEquals(loop.credits(), sim.peek(tx + "_credits"), tx + " holds all its credits again");
        }
        assertTrue(sim.peek("sue_commands_accepted") > 0);
    }
}
