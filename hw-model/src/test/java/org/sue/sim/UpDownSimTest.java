package org.sue.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.HdlException;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Reg;

/** {@link Hw#upDown}: the candidate-select counter equals plain arithmetic, wrapping included. */
class UpDownSimTest {
    static final class Counters extends Component {
        final Port ups = in("ups", 3);
        final Port downs = in("downs", 2);
        final Port count = out("count", 4);

        Counters() {
            Reg value = reg("value", 4, 0);
            value.set(Hw.upDown(value, List.of(ups.bit(0), ups.bit(1), ups.bit(2)), List.of(downs.bit(0),
                    downs.bit(1))));
            count.set(value);
        }
    }

    @Test
    void equalsTheSumOfItsTermsModuloTheWidth() {
        Simulator sim = Simulator.compile(Design.elaborate(new Counters()));
        sim.reset();
        Random rnd = new Random(14);
        long expected = 0;
        boolean wrappedUp = false;
        boolean wrappedDown = false;
        for (int cycle = 0; cycle < 5000; cycle++) {
            int u = rnd.nextInt(8);
            int d = rnd.nextInt(4);
            sim.poke("ups", u);
            sim.poke("downs", d);
            sim.step();
            long next = expected + Integer.bitCount(u) - Integer.bitCount(d);
            wrappedUp |= next > 15;
            wrappedDown |= next < 0;
            expected = next & 15;
            assertEquals(expected, sim.peek("count"), "cycle " + cycle);
        }
        assertTrue(wrappedUp && wrappedDown, "the random walk crossed both ends");
    }

    @Test
    void refusesAWideTermNamingIt() {
        HdlException e = assertThrows(HdlException.class, () -> Design.elaborate(new Component() {
            {
                Port wide = in("wide", 2);
                Reg value = reg("value", 4, 0);
                value.set(Hw.upDown(value, List.of(wide), List.of()));
                out("count", 4).set(value);
            }
        }));
        assertTrue(e.getMessage().contains("must be 1 bit"), e.getMessage());
        assertTrue(e.getMessage().contains("UpDownSimTest.java"), e.getMessage());
    }
}
