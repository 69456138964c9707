package org.sue.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Port;
import org.sue.core.Reg;

/**
 * Which models run on HotSpot's first tier alone (docs/performance.md, "The simulators"): a model of
 * {@link SimCompiler#FIRST_TIER_FIELDS} fields or more is generated into the package the directive keeps C2 off, a
 * smaller one beside it; the directive is accepted by this JVM; and a model of each kind simulates as it should.
 */
class JitDirectivesTest {
    /** A chain of {@code n} 8-bit registers from {@code a} to {@code y}. */
    static final class Chain extends Component {
        Chain(int n) {
            Port a = in("a", 8);
            Port y = out("y", 8);
            Expr last = a;
            for (int i = 0; i < n; i++) {
                Reg r = reg("r" + i, 8, 0);
                r.set(last);
                last = r;
            }
            y.set(last);
        }
    }

    @Test
    void largeModelsGoToTheFirstTierPackageAndSmallOnesStay() {
        SimCompiler small = new SimCompiler(Design.elaborate(new Chain(4)));
        small.generate();
        assertEquals(JitDirectives.PACKAGE, small.className.substring(0, small.className.lastIndexOf('.')));
        SimCompiler large = new SimCompiler(Design.elaborate(new Chain(SimCompiler.FIRST_TIER_FIELDS)));
        large.generate();
        assertEquals(JitDirectives.FIRST_TIER_PACKAGE, large.className.substring(0,
                large.className.lastIndexOf('.')));
        assertTrue(JitDirectives.install(), "HotSpot takes the directive");
        for (int n : new int[] {4, SimCompiler.FIRST_TIER_FIELDS}) {
            Simulator sim = Simulator.compile(Design.elaborate(new Chain(n)));
            sim.reset();
            for (int cycle = 0; cycle < n + 3; cycle++) {
                sim.poke("a", (cycle + 1) & 0xff);
                sim.step();
                assertEquals(cycle + 1 >= n ? (cycle + 2 - n) & 0xff : 0, sim.peek("y"), "chain of " + n + ", cycle "
                        + cycle);
            }
        }
    }
}
