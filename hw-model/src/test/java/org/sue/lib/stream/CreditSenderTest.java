package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.ConfigException;
import org.sue.core.Design;
import org.sue.core.Layout;
import org.sue.lib.stream.model.CreditSenderReference;
import org.sue.lib.stream.tb.LayoutSource;
import org.sue.sim.Simulator;

/**
 * {@link CreditSender} against {@link CreditSenderReference} every cycle: random beats in, a test receiver with
 * {@code credits} entries that drains at random and returns each credit a random delay later (one pulse a cycle), and
 * now and then a return the receiver does not owe while the count is full (dropped, counted).
 */
class CreditSenderTest {
    @ParameterizedTest
    @CsvSource({"8,1,0,80,60", "8,2,4,90,50", "33,4,2,70,80", "64,8,9,100,40", "5,31,1,85,90"})
    void matchesReferenceAndNeverOverrunsTheReceiver(int width, int credits, int maxDelay, int validPercent,
                                                     int drainPercent) {
        Simulator sim = Simulator.compile(Design.elaborate(new CreditSender(new CreditSender.Config(width, credits))));
        CreditSenderReference ref = new CreditSenderReference(credits);
        Random rnd = new Random(width * 17L + credits);
        sim.reset();
        LayoutSource in = new LayoutSource(sim, "in", Layout.plain("data", width));
        List<BigInteger> offered = new ArrayList<>();
        for (int i = 0; i < 6000; i++) {
            BigInteger w = new BigInteger(width, rnd);
            in.add(w);
            offered.add(w);
        }
        ArrayDeque<BigInteger> buffer = new ArrayDeque<>(); // the test receiver's entries
        ArrayDeque<Long> due = new ArrayDeque<>(); // cycles at which a credit pulse is owed, one a cycle at most
        List<BigInteger> received = new ArrayList<>();
        long excessInjected = 0;
        for (long cycle = 0; cycle < 40_000 && (received.size() < offered.size() || !due.isEmpty()); cycle++) {
            boolean owed = !due.isEmpty() && due.peekFirst() <= cycle;
            boolean pause = cycle % 500 >= 470; // no new beats: the credits come back, the count fills
            in.drive(rnd, pause ? 0 : validPercent);
            // a return not owed, where the count is full and nothing is spent: it must be dropped
            boolean excess = pause && !owed && ref.credits() == credits && sim.peek("in_valid") == 0
                    && rnd.nextInt(3) == 0;
            boolean giveBack = owed || excess;
            sim.poke("credit_return", giveBack ? 1 : 0);
            excessInjected += excess ? 1 : 0;
            if (owed) {
                due.pollFirst();
            }
            assertEquals(ref.ready() ? 1 : 0, sim.peek("in_ready"), "in_ready at cycle " + cycle);
            assertEquals(ref.credits(), sim.peek("credits"), "credits at cycle " + cycle);
            assertEquals(ref.excessReturns(), sim.peek("excess_returns"), "excess_returns at cycle " + cycle);
            boolean valid = sim.peek("in_valid") == 1;
            assertEquals(valid && ref.ready() ? 1 : 0, sim.peek("out_valid"), "out_valid at cycle " + cycle);
            if (sim.peek("out_valid") == 1) {
                assertTrue(buffer.size() < credits, "a beat sent without a credit at cycle " + cycle);
                buffer.add(sim.peekBig("out_data"));
            }
            BigInteger taken = in.taken();
            assertEquals(ref.cycle(valid, giveBack), taken != null, "beat taken at cycle " + cycle);
            sim.step();
            if (!buffer.isEmpty() && rnd.nextInt(100) < drainPercent) {
                received.add(buffer.poll());
                long at = Math.max(cycle + 1 + rnd.nextInt(maxDelay + 1), due.isEmpty() ? 0 : due.peekLast() + 1);
                due.add(at);
            }
        }
        assertEquals(offered, received, "every beat, in order");
        assertEquals(credits, ref.credits(), "the count is back at its start");
        assertEquals(credits, sim.peek("credits"));
        assertTrue(excessInjected > 0 && ref.excessReturns() == excessInjected, "excess returns counted: "
                + ref.excessReturns() + " of " + excessInjected);
        assertEquals(excessInjected, sim.peek("excess_returns"));
    }

    @Test
    void invalidParametersNameTheParameter() {
        assertTrue(assertThrows(ConfigException.class, () -> new CreditSender.Config(0, 4)).getMessage()
                .contains("width"));
        assertTrue(assertThrows(ConfigException.class, () -> new CreditSender.Config(8, 0)).getMessage()
                .contains("credits"));
    }
}
