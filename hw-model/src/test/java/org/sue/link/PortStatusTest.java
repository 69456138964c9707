package org.sue.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.core.Design;
import org.sue.sim.Simulator;

/** The port's status against its rule: up a cycle after the link is usable, every change counted once. */
class PortStatusTest {
    @Test
    void upFollowsUsableACycleLaterAndEveryChangeIsCounted() {
        Simulator sim = Simulator.compile(Design.elaborate(new PortStatus()));
        sim.reset();
        Random rnd = new Random(5);
        boolean up = false;
        long downs = 0;
        long ups = 0;
        boolean usable = false;
        for (int c = 0; c < 5000; c++) {
            if (rnd.nextInt(c % 1000 < 500 ? 3 : 100) == 0) { // flapping, then long runs
                usable = !usable;
            }
            sim.poke("usable", usable ? 1 : 0);
            sim.step();
            downs += up && !usable ? 1 : 0;
            ups += !up && usable ? 1 : 0;
            up = usable;
            assertEquals(up ? 1 : 0, sim.peek("up"), "cycle " + c);
            assertEquals(downs, sim.peek("went_down"), "cycle " + c);
            assertEquals(ups, sim.peek("came_up"), "cycle " + c);
        }
        assertTrue(downs > 50, "the stimulus flaps: " + downs);
    }
}
