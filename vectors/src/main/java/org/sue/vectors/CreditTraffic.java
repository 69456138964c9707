package org.sue.vectors;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Random;
import org.sue.core.Layout;
import org.sue.lib.stream.tb.LayoutSource;
import org.sue.sim.Simulator;

/**
 * Stimuli of the two ends of a credit loop ({@code CreditReceiver}, {@code CreditSender}): the other end played by
 * the testbench, credits returned a random 0 to 3 cycles late, and once every 1000 cycles a stretch where the
 * testbench breaks the loop's rules (a sender ignoring its credits; a receiver returning credits it does not owe).
 */
final class CreditTraffic {
    private CreditTraffic() {
    }

    /** A sender to a {@code CreditReceiver}: within its credits, except cycles 800 to 899 of every 1000. */
    static GoldenScenario.Stimulus toReceiver(int width, int credits) {
        ArrayDeque<Long> returns = new ArrayDeque<>();
        int[] held = {credits};
        return (Simulator sim, long cycle, Random rnd) -> {
            long phase = cycle % 1000;
            boolean cheating = phase >= 800 && phase < 900;
            boolean draining = phase >= 900 && phase < 950;
            if (phase == 950) { // drained: the sender starts over with all its credits
                held[0] = credits;
                returns.clear();
            }
            while (!returns.isEmpty() && returns.peekFirst() <= cycle) {
                returns.pollFirst();
                held[0]++;
            }
            if (sim.peek("credit_return") == 1 && !cheating && !draining) {
                returns.add(cycle + 1 + rnd.nextInt(4));
            }
            boolean send = !draining && (cheating ? rnd.nextInt(4) != 0 : held[0] > 0 && rnd.nextInt(100) < 80);
            held[0] -= send && !cheating ? 1 : 0;
            sim.poke("in_valid", send ? 1 : 0);
            sim.poke("in_data", new BigInteger(width, rnd));
            sim.poke("out_ready", !cheating && (draining || rnd.nextInt(100) < 70) ? 1 : 0);
        };
    }

    /**
     * A receiver of {@code credits} entries behind a {@code CreditSender}: it drains at random and returns each credit
     * late; in cycles 900 to 999 of every 1000 no beats are offered and, once the count is full, some returns are not
     * owed.
     */
    static GoldenScenario.Stimulus fromSender(int width, int credits) {
        return new GoldenScenario.Stimulus() {
            private LayoutSource in;
            private final ArrayDeque<Long> due = new ArrayDeque<>();
            private int buffered;
            private boolean lastSent;

            @Override
            public void drive(Simulator sim, long cycle, Random rnd) {
                if (in == null) {
                    in = new LayoutSource(sim, "in", Layout.plain("data", width));
                }
                while (in.waiting() < 4) {
                    in.add(new BigInteger(width, rnd));
                }
                // the beat of the last cycle is in the buffer; one leaves now and then, its credit owed later
                buffered += lastSent ? 1 : 0;
                if (buffered > 0 && rnd.nextInt(100) < 60) {
                    buffered--;
                    due.add(Math.max(cycle + rnd.nextInt(4), due.isEmpty() ? 0 : due.peekLast() + 1));
                }
                boolean pause = cycle % 1000 >= 900;
                in.drive(rnd, pause ? 0 : 85);
                boolean owed = !due.isEmpty() && due.peekFirst() <= cycle;
                if (owed) {
                    due.pollFirst();
                }
                boolean excess = pause && !owed && buffered == 0 && due.isEmpty() && rnd.nextInt(8) == 0;
                sim.poke("credit_return", owed || excess ? 1 : 0);
                lastSent = sim.peek("out_valid") == 1;
                in.taken();
            }
        };
    }
}
