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
import org.sue.lib.stream.model.CreditReceiverReference;
import org.sue.sim.Simulator;

/**
 * {@link CreditReceiver} against {@link CreditReceiverReference}: a test sender that spends its credits and gets each
 * back a random delay after the pulse, random ready on the output, and phases where the sender ignores its credits
 * while the output stalls (every beat beyond the credits dropped and counted, nothing held touched).
 */
class CreditReceiverTest {
    @ParameterizedTest
    @CsvSource({"8,1,0,70", "8,2,3,60", "33,4,5,50", "72,5,2,80", "16,16,8,40", "130,7,0,90"})
    void matchesReferenceUnderRandomCreditsAndViolations(int width, int credits, int maxDelay, int readyPercent) {
        Simulator sim = Simulator.compile(Design.elaborate(new CreditReceiver(new CreditReceiver.Config(width,
                credits))));
        CreditReceiverReference ref = new CreditReceiverReference(credits);
        Random rnd = new Random(width * 31L + credits);
        sim.reset();
        int senderCredits = credits;
        ArrayDeque<Long> returns = new ArrayDeque<>(); // cycles from which a returned credit may be spent
        List<BigInteger> accepted = new ArrayList<>();
        List<BigInteger> received = new ArrayList<>();
        long[] pulses = {0};
        for (int cycle = 0; cycle < 12_000; cycle++) {
            boolean cheating = cycle % 3000 >= 2700; // the sender ignores its credits, the output stalls
            while (!returns.isEmpty() && returns.peekFirst() <= cycle) {
                returns.pollFirst();
                senderCredits++;
            }
            boolean send = cheating ? rnd.nextInt(4) != 0 : senderCredits > 0 && rnd.nextInt(100) < 85;
            BigInteger word = new BigInteger(width, rnd);
            boolean ready = !cheating && rnd.nextInt(100) < readyPercent;
            sim.poke("in_valid", send ? 1 : 0);
            sim.poke("in_data", send ? word : BigInteger.ZERO);
            sim.poke("out_ready", ready ? 1 : 0);

            assertEquals(ref.overflowBeats(), sim.peek("overflow_beats"), "overflow_beats at cycle " + cycle);
            boolean leave = ready && sim.peek("out_valid") == 1;
            long overflowBefore = ref.overflowBeats();
            BigInteger left = ref.cycle(send ? word : null, leave);
            if (leave) {
                assertEquals(left, sim.peekBig("out_data"), "beat leaving at cycle " + cycle);
                received.add(left);
            }
            if (send && ref.overflowBeats() == overflowBefore) {
                accepted.add(word);
            }
            if (!cheating) {
                // a sender within its credits never finds the receiver full: the credits are exact
                assertEquals(overflowBefore, ref.overflowBeats(), "a beat within the credits dropped at " + cycle);
                senderCredits -= send ? 1 : 0;
            }
            if (sim.peek("credit_return") == 1) {
                pulses[0]++;
                if (!cheating) {
                    returns.add(cycle + 1L + rnd.nextInt(maxDelay + 1));
                }
            }
            sim.step();
            if (cycle % 3000 == 2999) {
                // the sender starts over: drain, then every credit is back with it
                drain(sim, ref, received, pulses);
                senderCredits = credits;
                returns.clear();
            }
        }
        assertEquals(accepted, received, "every beat taken came out, in order");
        assertTrue(accepted.size() > 2000, "beats moved: " + accepted.size());
        assertTrue(ref.overflowBeats() > 100, "beats without a credit arrived: " + ref.overflowBeats());
        assertEquals(ref.overflowBeats(), sim.peek("overflow_beats"));
        assertEquals(ref.returned(), pulses[0], "one credit pulse per beat that left");
        assertEquals(received.size(), pulses[0]);
    }

    /**
     * The credits of an orderly sender all come back: after its last beat, the output drained, its count and the
     * returns on the way make {@code credits} again.
     */
    @ParameterizedTest
    @CsvSource({"1,0", "3,2", "6,7"})
    void everyCreditComesBack(int credits, int maxDelay) {
        Simulator sim = Simulator.compile(Design.elaborate(new CreditReceiver(new CreditReceiver.Config(12,
                credits))));
        Random rnd = new Random(credits);
        sim.reset();
        int senderCredits = credits;
        ArrayDeque<Long> returns = new ArrayDeque<>();
        long sent = 0;
        for (int cycle = 0; cycle < 5000 || senderCredits < credits; cycle++) {
            while (!returns.isEmpty() && returns.peekFirst() <= cycle) {
                returns.pollFirst();
                senderCredits++;
            }
            boolean send = cycle < 5000 && senderCredits > 0 && rnd.nextBoolean();
            sim.poke("in_valid", send ? 1 : 0);
            sim.poke("in_data", cycle & 0xFFF);
            sim.poke("out_ready", rnd.nextInt(3) == 0 ? 0 : 1);
            senderCredits -= send ? 1 : 0;
            sent += send ? 1 : 0;
            if (sim.peek("credit_return") == 1) {
                returns.add(cycle + 1L + rnd.nextInt(maxDelay + 1));
            }
            sim.step();
            assertTrue(cycle < 6000, "the receiver did not drain");
        }
        assertEquals(credits, senderCredits, "the sender holds all its credits again");
        for (int i = 0; i < 10; i++) {
            assertEquals(0, sim.peek("credit_return") | sim.peek("out_valid"), "no credit beyond the beats sent");
            sim.step();
        }
        assertTrue(sent > 500, "beats sent: " + sent);
        assertEquals(0, sim.peek("overflow_beats"));
    }

    /** The output always ready, nothing sent, until the reference holds nothing; the credit pulses counted. */
    private static void drain(Simulator sim, CreditReceiverReference ref, List<BigInteger> received, long[] pulses) {
        sim.poke("in_valid", 0);
        sim.poke("out_ready", 1);
        for (int i = ref.held() + 6; i > 0; i--) {
            pulses[0] += sim.peek("credit_return");
            if (sim.peek("out_valid") == 1) {
                received.add(sim.peekBig("out_data"));
                assertEquals(ref.cycle(null, true), received.get(received.size() - 1));
            }
            sim.step();
        }
        assertEquals(0, ref.held());
        assertEquals(0, sim.peek("out_valid"));
    }

    @Test
    void invalidParametersNameTheParameter() {
        assertTrue(assertThrows(ConfigException.class, () -> new CreditReceiver.Config(0, 4)).getMessage()
                .contains("width"));
        assertTrue(assertThrows(ConfigException.class, () -> new CreditReceiver.Config(8, 0)).getMessage()
                .contains("credits"));
        assertTrue(assertThrows(ConfigException.class, () -> new CreditReceiver.Config(8, 5000)).getMessage()
                .contains("credits"));
    }
}
