package org.sue.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Hw;
import org.sue.core.Port;

/**
 * {@link Hw#subCarrySelect}, {@link Hw#addShallow}, {@link Hw#subShallow}, {@link Hw#sumShallow}, {@link Hw#sumAbove},
 * {@link Hw#inCircularRange} and {@link Hw#atOrAfter} equal the plain modular arithmetic they replace.
 */
class WrappingArithmeticSimTest {
    static final class Arithmetic extends Component {
        Arithmetic(int width) {
            Port a = in("a", width);
            Port b = in("b", width);
            Port c = in("c", width);
            out("d", width).set(Hw.subCarrySelect(a, b));
            out("sum", width).set(Hw.addShallow(a, b));
            out("difference", width).set(Hw.subShallow(a, b));
            out("sum_carry_in", width).set(Hw.addShallow(a, b, true));
            out("sum_of_three", width).set(Hw.sumShallow(List.of(a, b, c), true));
            out("sum_of_five", width).set(Hw.sumShallow(List.of(a, b, c, a.not(), b), false));
            out("above", 1).set(Hw.sumAbove(List.of(a, b, c), aboveLimit(width)));
            out("in_range", 1).set(Hw.inCircularRange(a, b, c));
            out("at_or_after", 1).set(Hw.atOrAfter(a, b));
        }
    }

    /** Half way up the three terms' range, so sums on both sides of it are common. */
    static long aboveLimit(int width) {
        return 3 * ((1L << width) - 1) / 2;
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
                // near values and near complements too, so long borrow and carry runs and the range's ends occur
                long b = switch (i % 3) {
                    case 0 -> rnd.nextLong() & mask;
                    case 1 -> (a + rnd.nextInt(5) - 2) & mask;
                    default -> (~a + rnd.nextInt(5) - 2) & mask;
                };
                long c = i % 3 == 0 ? rnd.nextLong() & mask : (b + rnd.nextInt(9) - 4) & mask;
                if (i % 5 == 4) { // the three terms' sum at the sumAbove limit or one off it, where it fits
                    c = Math.min(mask, Math.max(0, aboveLimit(width) - a - b + rnd.nextInt(3) - 1));
                }
                sim.poke("a", a);
                sim.poke("b", b);
                sim.poke("c", c);
                sim.step();
                String what = width + " bits: a " + a + ", b " + b + ", c " + c;
                assertEquals((a - b) & mask, sim.peek("d"), what);
                assertEquals((a + b) & mask, sim.peek("sum"), what);
                assertEquals((a - b) & mask, sim.peek("difference"), what);
                assertEquals((a + b + 1) & mask, sim.peek("sum_carry_in"), what);
                assertEquals((a + b + c + 1) & mask, sim.peek("sum_of_three"), what);
                assertEquals((a + b + c + ~a + b) & mask, sim.peek("sum_of_five"), what);
                assertEquals(a + b + c > aboveLimit(width) ? 1 : 0, sim.peek("above"), what);
                assertEquals(((a - b) & mask) <= ((c - b) & mask) ? 1 : 0, sim.peek("in_range"), what);
                assertEquals(((a - b) & mask) < 1L << (width - 1) ? 1 : 0, sim.peek("at_or_after"), what);
            }
        }
    }
}
