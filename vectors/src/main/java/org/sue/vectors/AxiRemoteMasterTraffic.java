package org.sue.vectors;

import java.util.Random;
import org.sue.axi.AxiRemoteMaster;
import org.sue.axi.tb.AxiRemoteMasterRun;
import org.sue.sim.Simulator;

/**
 * Request commands of several source XPUs into an {@code AxiRemoteMaster}, against a random memory slave with
 * interleaved R beats and some error responses ({@link AxiRemoteMasterRun}), checked while the vectors are recorded.
 */
public final class AxiRemoteMasterTraffic implements GoldenScenario.Stimulus {
    private final AxiRemoteMaster.Config config;
    private final int sources;
    private AxiRemoteMasterRun run;

    public AxiRemoteMasterTraffic(AxiRemoteMaster.Config config, int sources) {
        this.config = config;
        this.sources = sources;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (run == null) {
            run = new AxiRemoteMasterRun(sim, config.axi(), config.masterIdWidth(), config.maxPartsPerEntry(),
                    new AxiRemoteMasterRun.Options(120, rnd.nextLong(), sources, 85, 70, 70, 30, true, 10,
                            AxiRemoteMasterRun.Traffic.MIXED));
        }
        run.cycle(rnd);
    }
}
