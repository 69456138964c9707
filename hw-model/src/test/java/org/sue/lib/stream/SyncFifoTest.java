package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.model.SyncFifoReference;
import org.sue.sim.Simulator;

/** JVM simulation of the RTL FIFO against the queue reference, with random push/pop pressure. */
class SyncFifoTest {
    @ParameterizedTest
    @CsvSource({"1,2", "8,4", "64,16", "65,5", "144,7", "512,8"})
    void matchesQueueReferenceUnderRandomTraffic(int width, int depth) {
        Simulator sim = Simulator.compile(Design.elaborate(new SyncFifo(new SyncFifo.Config(width, depth))));
        SyncFifoReference ref = new SyncFifoReference(depth);
        Random rnd = new Random(width * 1000L + depth);
        sim.reset();
        long pops = 0;
        long credits = 0;
        long pushes = 0;
        boolean stalled = false; // a push refused at the last edge is offered again, unchanged
        BigInteger data = BigInteger.ZERO;
        for (int cycle = 0; cycle < 3000; cycle++) {
            // phases: fill (pop rarely), drain (push rarely), mixed
            int phase = (cycle / 300) % 3;
            boolean pushValid = rnd.nextInt(10) < (phase == 1 ? 2 : 7) || stalled;
            boolean popReady = rnd.nextInt(10) < (phase == 0 ? 2 : 7);
            BigInteger fresh = new BigInteger(width, rnd);
            data = stalled ? data : fresh;
            sim.poke("push_valid", pushValid ? 1 : 0);
            sim.poke("push_data", data);
            sim.poke("pop_ready", popReady ? 1 : 0);

            assertEquals(ref.size(), sim.peek("level"), "level at cycle " + cycle);
            assertEquals(ref.full() ? 0 : 1, sim.peek("push_ready"), "push_ready at cycle " + cycle);
            assertEquals(ref.overflows() > 0 ? 1 : 0, sim.peek("overflow"), "sticky overflow at cycle " + cycle);
            credits += sim.peek("credit_return");
            // push first (capacity as at the start of the cycle), then pop the head
            if (pushValid && ref.push(data)) {
                pushes++;
            }
            stalled = pushValid && sim.peek("push_ready") == 0;
            if (sim.peek("pop_valid") == 1 && popReady) {
                assertEquals(ref.pop(), sim.peekBig("pop_data"), "popped word at cycle " + cycle);
                pops++;
            }
            sim.step();
        }
        // drain (a push still waiting goes in first)
        sim.poke("pop_ready", 1);
        for (int i = 0; i < depth + 4; i++) {
            sim.poke("push_valid", stalled ? 1 : 0);
            if (stalled && sim.peek("push_ready") == 1) {
                assertTrue(ref.push(data));
                pushes++;
                stalled = false;
            }
            credits += sim.peek("credit_return");
            if (sim.peek("pop_valid") == 1) {
                assertEquals(ref.pop(), sim.peekBig("pop_data"));
                pops++;
            }
            sim.step();
        }
        credits += sim.peek("credit_return");
        assertEquals(0, ref.size(), "everything pushed came out");
        assertEquals(pushes, pops);
        assertEquals(pops, credits, "one credit returned per pop");
        assertTrue(ref.overflows() > 0, "the test exercised pushes while full");
        assertEquals(1, sim.peek("overflow"));
    }

    @Test
    void fullThroughputOnePushAndOnePopPerCycle() {
        Simulator sim = Simulator.compile(Design.elaborate(new SyncFifo(new SyncFifo.Config(32, 4))));
        sim.reset();
        sim.poke("push_valid", 1);
        sim.poke("pop_ready", 1);
        long popped = 0;
        for (int i = 0; i < 100; i++) {
            sim.poke("push_data", i);
            if (sim.peek("pop_valid") == 1) {
                assertEquals(popped, sim.peek("pop_data"));
                popped++;
            }
            assertEquals(1, sim.peek("push_ready"), "never full when popping every cycle");
            sim.step();
        }
        assertEquals(98, popped, "two cycles of latency, then one word per cycle");
    }

    @Test
    void invalidParametersNameTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SyncFifo.Config(8, 1));
        assertTrue(e.getMessage().contains("depth"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new SyncFifo.Config(0, 8));
        assertTrue(e.getMessage().contains("width"), e.getMessage());
    }
}
