package org.sue.vectors;

import java.util.Random;
import org.sue.cmd.CommandIngress;
import org.sue.cmd.tb.FaultyXpu;
import org.sue.sim.Simulator;

/**
 * Drives a {@link CommandIngress} through a {@link FaultyXpu}: random commands, a quarter of them with one mistake
 * (every drop reason), some sent without credit, random gaps, m_axis ready 85% of the cycles, releases echoed back.
 */
public final class FaultyCommandTraffic implements GoldenScenario.Stimulus {
    private final CommandIngress.Config config;
    private FaultyXpu xpu;

    public FaultyCommandTraffic(CommandIngress.Config config) {
        this.config = config;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (xpu == null) {
            xpu = new FaultyXpu(sim, config, null);
            xpu.readyPercent = 85;
            xpu.releaseDelay = 10;
        }
        while (xpu.pendingBeats() < 4) {
            xpu.queueCommand(rnd, rnd.nextInt(4) == 0);
        }
        xpu.drive(rnd, 85);
    }
}
