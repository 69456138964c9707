package org.sue.vectors;

import java.util.Random;
import org.sue.cmd.tb.XpuCommandRxRun;
import org.sue.sim.Simulator;

/** SUE delivering random commands within the credits into an {@code XpuCommandRx} ({@link XpuCommandRxRun}). */
public final class XpuCommandRxTraffic implements GoldenScenario.Stimulus {
    private final int width;
    private final int cmdCredits;
    private final int dataCredits;
    private final int vcs;
    private XpuCommandRxRun run;

    public XpuCommandRxTraffic(int width, int cmdCredits, int dataCredits, int vcs) {
        this.width = width;
        this.cmdCredits = cmdCredits;
        this.dataCredits = dataCredits;
        this.vcs = vcs;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (run == null) {
            run = new XpuCommandRxRun(sim, width, cmdCredits, dataCredits, vcs, 300, rnd.nextLong(), 85, 60);
        }
        run.cycle(rnd);
    }
}
