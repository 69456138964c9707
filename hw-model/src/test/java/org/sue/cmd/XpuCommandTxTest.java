package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.cmd.tb.XpuCommandTxRun;
import org.sue.core.ConfigException;
import org.sue.core.Design;
import org.sue.sim.Simulator;

class XpuCommandTxTest {
    /** Random commands against a SUE that checks every start against the credits and returns them late. */
    @ParameterizedTest
    @CsvSource({"512,4,2,80,60", "256,16,8,100,300", "1024,1,1,100,5"})
    void everyBeatLeavesInOrderAndNoCommandStartsWithoutCredit(int width, int cmd, int data, int validPercent,
                                                              int delay) {
        Simulator sim = Simulator.compile(Design.elaborate(new XpuCommandTx(new XpuCommandTx.Config(width, cmd, data))));
        sim.reset();
        XpuCommandTxRun run = new XpuCommandTxRun(sim, width, cmd, data, 500, width + cmd, validPercent, delay);
        Random rnd = new Random(width);
        for (long cycle = 0; !run.finished(); cycle++) {
            run.cycle(rnd);
            sim.step();
            assertTrue(cycle < 200_000, "the run did not finish");
        }
        assertEquals(500, run.commands());
        assertEquals(500, sim.peek("commands_sent"));
        assertTrue(sim.peek("credit_waits") > 0, "the credits held commands back");
    }

    @Test
    void invalidCreditsNameTheParameter() {
        assertTrue(assertThrows(ConfigException.class, () -> new XpuCommandTx.Config(512, 0, 0)).getMessage()
                .contains("cmdCredits"));
        assertTrue(assertThrows(ConfigException.class, () -> new XpuCommandTx.Config(512, 4, 8)).getMessage()
                .contains("dataCredits"));
    }
}
