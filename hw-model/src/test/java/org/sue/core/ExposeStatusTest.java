package org.sue.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sue.sim.Simulator;

/** A child's status exposed one at a time under the parent's name keeps its value and kind, with a new description. */
class ExposeStatusTest {
    static final class Child extends Component {
        final Port tick = in("tick", 1);
        final Port events;
        final Port plain;

        Child() {
            events = statusCounter("events", tick, "Ticks seen");
            plain = out("plain", 1);
            plain.set(tick);
        }
    }

    static final class Parent extends Component {
        Parent(boolean misuse) {
            Child c = child("child", new Child());
            c.tick.set(in("tick", 1));
            exposeStatus(misuse ? c.plain : c.events, "ticks_counted", "Ticks the child counted");
            if (!misuse) {
                unused("plain", c.plain);
            }
        }
    }

    @Test
    void exposedUnderItsNewNameWithTheChildsKind() {
        Parent p = new Parent(false);
        Simulator sim = Simulator.compile(Design.elaborate(p));
        List<Status> list = p.statusList();
        assertEquals(1, list.size());
        assertEquals("ticks_counted", list.get(0).name());
        assertEquals(Status.Kind.COUNTER, list.get(0).kind());
        assertEquals("Ticks the child counted", list.get(0).description());
        sim.reset();
        sim.poke("tick", 1);
        sim.step(3);
        assertEquals(3, sim.peek("ticks_counted"));
    }

    @Test
    void aPortOutsideTheChildsStatusListIsRefusedAtItsLine() {
        HdlException e = assertThrows(HdlException.class, () -> new Parent(true));
        assertTrue(e.getMessage().contains("port 'plain' is not in the status list of")
                && e.getMessage().contains("ExposeStatusTest.java"), e.getMessage());
    }
}
