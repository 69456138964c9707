package org.sue.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.ResetStyle;

class CounterSimTest {
    static final class Counter extends Component {
        final Port enable = in("enable", 1);
        final Port count = out("count", 8);
        final Port wrapped = out("wrapped", 1);

        Counter() {
            Reg value = reg("value", 8, 5);
            when(enable, () -> value.set(value.add(1)));
            count.set(value);
            wrapped.set(value.eq(255));
        }
    }

    @Test
    void countsWrapsAndResets() {
        for (ResetStyle style : ResetStyle.values()) {
            Simulator sim = Simulator.compile(Design.elaborate(new Counter(), style));
            sim.reset();
            assertEquals(5, sim.peek("count"), style.name());
            sim.poke("enable", 1);
            sim.step(3);
            assertEquals(8, sim.peek("count"));
            sim.poke("enable", 0);
            sim.step(3);
            assertEquals(8, sim.peek("count"));
            sim.poke("enable", 1);
            sim.step(247);
            assertEquals(255, sim.peek("count"));
            assertEquals(1, sim.peek("wrapped"));
            sim.step();
            assertEquals(0, sim.peek("count"));
            sim.setReset(true);
            if (style.async()) {
                assertEquals(5, sim.peek("count"), "asynchronous reset acts before the edge");
            } else {
                assertEquals(0, sim.peek("count"), "synchronous reset waits for the edge");
            }
            sim.step();
            assertEquals(5, sim.peek("count"));
        }
    }
}
