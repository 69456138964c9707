package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.cmd.tb.XpuCommandRxRun;
import org.sue.core.ConfigException;
import org.sue.core.Design;
import org.sue.sim.Simulator;

class XpuCommandRxTest {
    /** SUE delivering within the credits: every beat on its VC's output in order, every credit back, no overflow. */
    @ParameterizedTest
    @CsvSource({"512,4,2,2,90,50", "256,8,8,4,100,100", "1024,2,1,1,70,30"})
    void everyCommandReachesItsVcAndEveryCreditComesBack(int width, int cmd, int data, int vcs, int validPercent,
                                                         int readyPercent) {
        Simulator sim = Simulator.compile(Design.elaborate(new XpuCommandRx(new XpuCommandRx.Config(width, cmd, data,
                vcs))));
        sim.reset();
        XpuCommandRxRun run = new XpuCommandRxRun(sim, width, cmd, data, vcs, 600, width + vcs, validPercent,
                readyPercent);
        Random rnd = new Random(width);
        for (long cycle = 0; !run.finished(); cycle++) {
            run.cycle(rnd);
            sim.step();
            assertTrue(cycle < 300_000, "the run did not finish");
        }
        assertEquals(run.dropped(), sim.peek("drops_vc"));
        assertTrue(vcs == 4 || run.dropped() > 0);
        assertEquals(0, sim.peek("overflow_error"));
    }

    @Test
    void invalidParametersNameTheirParameters() {
        assertTrue(assertThrows(ConfigException.class, () -> new XpuCommandRx.Config(512, 4, 2, 0)).getMessage()
                .contains("vcs"));
        assertTrue(assertThrows(ConfigException.class, () -> new XpuCommandRx.Config(512, 2, 4, 2)).getMessage()
                .contains("dataCredits"));
    }
}
