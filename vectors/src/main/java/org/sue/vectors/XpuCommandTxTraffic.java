package org.sue.vectors;

import java.util.Random;
import org.sue.cmd.tb.XpuCommandTxRun;
import org.sue.sim.Simulator;

/** Random commands through an {@code XpuCommandTx} against a SUE that returns credits late ({@link XpuCommandTxRun}). */
public final class XpuCommandTxTraffic implements GoldenScenario.Stimulus {
    private final int width;
    private final int cmdCredits;
    private final int dataCredits;
    private XpuCommandTxRun run;

    public XpuCommandTxTraffic(int width, int cmdCredits, int dataCredits) {
        this.width = width;
        this.cmdCredits = cmdCredits;
        this.dataCredits = dataCredits;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (run == null) {
            run = new XpuCommandTxRun(sim, width, cmdCredits, dataCredits, 300, rnd.nextLong(), 85, 40);
        }
        run.cycle(rnd);
    }
}
