package org.sue.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Hw;
import org.sue.core.Port;

/**
 * {@link Hw#subCarrySelect}, {@link Hw#inCircularRange} and {@link Hw#atOrAfter} equal the plain modular arithmetic
 * they replace.
 */
class WrappingArithmeticSimTest {
    static final class Arithmetic extends Component {
        Arithmetic(int width) {
            Port a = in("a", width);
            Port b = in("b", width);
            Port c = in("c", width);
            out("d", width).set(Hw.subCarrySelect(a, b));
            out("in_range", 1).set(Hw.inCircularRange(a, b, c));
            out("at_or_after", 1).set(Hw.atOrAfter(a, b));
        }
    }

    @Test
    void equalPlainSubtractionAndCompareModuloTheWidth() {
        for (int width : new int[] {1, 3, 5, 8, 16, 20, 32}) {
            Simulator sim = Simulator.compile(Design.elaborate(new Arithmetic(width)));
            sim.reset();
            Random rnd = new Random(width);
            long mask = (1L << width) - 1;
            for (int i = 0; i < 20000; i++) {
                long a = rnd.nextLong() & mask;
                // near values too, so long borrow runs and the range's ends occur
                long b = i % 2 == 0 ? rnd.nextLong() & mask : (a + rnd.nextInt(5) - 2) & mask;
                long c = i % 3 == 0 ? rnd.nextLong() & mask : (b + rnd.nextInt(9) - 4) & mask;
                sim.poke("a", a);
                sim.poke("b", b);
                sim.poke("c", c);
                sim.step();
                String what = width + " bits: a " + a + ", b " + b + ", c " + c;
                assertEquals((a - b) & mask, sim.peek("d"), what);
                assertEquals(((a - b) & mask) <= ((c - b) & mask) ? 1 : 0, sim.peek("in_range"), what);
                assertEquals(((a - b) & mask) < 1L << (width - 1) ? 1 : 0, sim.peek("at_or_after"), what);
            }
        }
    }
}
