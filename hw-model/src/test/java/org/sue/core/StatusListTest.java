package org.sue.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sue.sim.Simulator;

/** A child's count reported under the parent's own name and description, in the parent's status list. */
class StatusListTest {
    /** Counts the cycles {@code event} is high on a plain output, not in its own status list. */
    static final class Child extends Component {
        final Port event;
        final Port count;

        Child() {
            event = in("hit", 1);
            count = out("count", 32);
            count.set(saturatingCounter("count_reg", 32, event));
        }
    }

    static final class Parent extends Component {
        Parent() {
            Child child = child("child", new Child());
            Port event = in("hit", 1);
            child.event.set(event);
            statusCounter("events", event, "Cycles the event was high.");
            exposeStatus(child.count, "child_events", Status.Kind.COUNTER, "The same, as the child counts them.");
        }
    }

    @Test
    void aChildsOutputIsListedWithTheKindAndDescriptionGiven() {
        Parent parent = new Parent();
        Design design = Design.elaborate(parent);
        List<Status> list = parent.statusList();
        assertEquals(List.of("events", "child_events"), list.stream().map(Status::name).toList());
        assertEquals(Status.Kind.COUNTER, list.get(1).kind());
        assertEquals("The same, as the child counts them.", list.get(1).description());
        Simulator sim = Simulator.compile(design);
        sim.reset();
        for (int i = 0; i < 5; i++) {
            sim.poke("hit", i % 2);
            sim.step();
        }
        assertEquals(2, sim.peek("child_events"));
        assertEquals(sim.peek("events"), sim.peek("child_events"));
    }

    @Test
    void onlyAChildsPortCanBeExposed() {
        HdlException e = assertThrows(HdlException.class, () -> Design.elaborate(new Component() {
            {
                Port own = out("own", 1);
                own.set(Hw.bool(true));
                exposeStatus(own, "again", Status.Kind.FLAG, "Not a child's.");
            }
        }));
        assertTrue(e.getMessage().contains("not a port of a child"), e.getMessage());
    }
}
