package org.sue.axi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.axi.tb.AxiResponseRun;
import org.sue.core.Design;
import org.sue.sim.Simulator;

class AxiResponseUnpackerTest {
    /**
     * Random responses and answers by SUE with random gaps and ready ({@link AxiResponseRun}: per ID every B and R
     * beat of the reference in order, parts never interleaved); then a completion for each B and each RLAST, and the
     * counters.
     */
    @ParameterizedTest
    @CsvSource({"512,80,70", "256,100,100", "1024,60,40"})
    void responsesBecomeTheReferenceBeatsInOrderPerId(int width, int validPercent, int readyPercent) {
        AxiConfig axi = new AxiConfig(width, 48, 4, 0, 16, false, 36, 8);
        Simulator sim = Simulator.compile(Design.elaborate(new AxiResponseUnpacker(
                new AxiResponseUnpacker.Config(axi))));
        sim.reset();
        AxiResponseRun run = new AxiResponseRun(sim, axi, 400, width, validPercent, readyPercent);
        Random rnd = new Random(width);
        for (long cycle = 0; !run.finished(); cycle++) {
            run.cycle(rnd);
            sim.step();
            assertTrue(cycle < 200_000, "the run did not finish");
        }
        sim.step(); // some counters count a cycle after the event
        Map<String, Long> want = run.expectedCounts();
        assertEquals(want.get("write_responses"), run.completions()[0]);
        assertEquals(want.get("read_bursts"), run.completions()[1]);
        for (Map.Entry<String, Long> e : want.entrySet()) {
            assertEquals(e.getValue(), sim.peek(e.getKey()), e.getKey());
        }
    }
}
