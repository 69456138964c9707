package org.sue.vectors;

import java.util.Random;
import org.sue.axi.AxiConfig;
import org.sue.axi.tb.AxiResponseRun;
import org.sue.sim.Simulator;

/**
 * Random responses into an {@code AxiResponseUnpacker} ({@link AxiResponseRun}: write and read responses of the far
 * XPUs, answers by SUE, commands of other types), checked against the reference while the vectors are recorded.
 */
public final class AxiResponseTraffic implements GoldenScenario.Stimulus {
    private final AxiConfig axi;
    private final int responses;
    private AxiResponseRun run;

    public AxiResponseTraffic(AxiConfig axi, int responses) {
        this.axi = axi;
        this.responses = responses;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (run == null) {
            run = new AxiResponseRun(sim, axi, responses, rnd.nextLong(), 80, 70);
        }
        run.cycle(rnd);
    }
}
