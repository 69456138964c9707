package org.sue.vectors;

import java.util.Random;
import org.sue.axi.AxiConfig;
import org.sue.axi.tb.AxiRequestRun;
import org.sue.sim.Simulator;

/**
 * Random AXI4 requests into an {@code AxiRequestPacker} ({@link AxiRequestRun}: every burst type, partial and narrow
 * writes, illegal bursts, unconfigured destinations, completions a random time after each transaction's last command),
 * checked against the reference while the vectors are recorded.
 */
public final class AxiRequestTraffic implements GoldenScenario.Stimulus {
    private final AxiConfig axi;
    private final int requests;
    private AxiRequestRun run;

    public AxiRequestTraffic(AxiConfig axi, int requests) {
        this.axi = axi;
        this.requests = requests;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (run == null) {
            run = new AxiRequestRun(sim, axi, requests, rnd.nextLong(), 80, 70);
        }
        run.cycle(rnd);
    }
}
