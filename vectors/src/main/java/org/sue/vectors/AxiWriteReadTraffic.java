package org.sue.vectors;

import java.util.Random;
import org.sue.axi.AxiConfig;
import org.sue.axi.tb.AxiWriteReadRun;
import org.sue.sim.Simulator;

/**
 * An SoC's writes then reads through a design with an AXI4 slave and its own far master ({@link AxiWriteReadRun}),
 * checked against a byte model of the writes while the vectors are recorded.
 */
public final class AxiWriteReadTraffic implements GoldenScenario.Stimulus {
    private final AxiConfig axi;
    private final int masterIdWidth;
    private final int requests;
    private AxiWriteReadRun run;

    public AxiWriteReadTraffic(AxiConfig axi, int masterIdWidth, int requests) {
        this.axi = axi;
        this.masterIdWidth = masterIdWidth;
        this.requests = requests;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (run == null) {
            run = new AxiWriteReadRun(sim, axi, masterIdWidth, requests, rnd.nextLong(), 85, 75);
        }
        if (!run.finished()) {
            run.cycle(rnd);
        }
    }
}
