package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Layout;
import org.sue.core.Reg;
import org.sue.core.Tag;
import org.sue.lib.stream.tb.LayoutSink;
import org.sue.lib.stream.tb.LayoutSource;
import org.sue.sim.Simulator;

/**
 * A {@link CreditSender} and a {@link CreditReceiver} closed into one loop, {@code stages} registers each way between
 * them (the wires of a real link): the round trip is 2 cycles plus 2 per stage, and the loop moves one beat a cycle
 * exactly when the credits cover it, {@code credits / roundTrip} beats a cycle when they do not.
 */
class CreditLoopTest {
    static final class Loop extends Component {
        record Config(@Tag("c") int credits, @Tag("s") int stages) {
        }

        Loop(Config c) {
            super(c);
            Layout word = Layout.plain("data", 16);
            CreditSender tx = child("tx", new CreditSender(new CreditSender.Config(16, c.credits())));
            CreditReceiver rx = child("rx", new CreditReceiver(new CreditReceiver.Config(16, c.credits())));
            Stream.slave(this, "in", word).into(tx.in);
            rx.out.into(Stream.master(this, "out", word));
            Flow beats = tx.out;
            Expr credit = rx.creditReturn;
            for (int i = 0; i < c.stages(); i++) {
                beats = beats.stage("beat_stage" + i);
                Reg r = reg("credit_stage" + i, 1, 0);
                r.set(credit);
                credit = r;
            }
            beats.into(rx.in);
            tx.creditReturn.set(credit);
            exposeStatus(tx, "tx_");
            exposeStatus(rx, "rx_");
        }
    }

    @ParameterizedTest
    @CsvSource({"2,0,1.0", "1,0,0.5", "4,1,1.0", "3,1,0.75", "2,1,0.5", "6,2,1.0", "16,2,1.0", "5,2,0.8333"})
    void oneBeatACycleExactlyWhenTheCreditsCoverTheRoundTrip(int credits, int stages, double rate) {
        Simulator sim = Simulator.compile(Design.elaborate(new Loop(new Loop.Config(credits, stages))));
        sim.reset();
        Layout word = Layout.plain("data", 16);
        LayoutSource in = new LayoutSource(sim, "in", word);
        LayoutSink out = new LayoutSink(sim, "out", word);
        int beats = 20_000;
        for (int i = 0; i < beats; i++) {
            in.add(BigInteger.valueOf(i & 0xFFFF));
        }
        Random rnd = new Random(credits);
        long first = -1;
        long last = 0;
        int n = 0;
        for (long cycle = 0; n < beats; cycle++) {
            in.drive(rnd, 100);
            out.drive(rnd, 100);
            in.taken();
            BigInteger got = out.taken();
            if (got != null) {
                assertEquals(n & 0xFFFF, got.intValue(), "beat " + n);
                first = first < 0 ? cycle : first;
                last = cycle;
                n++;
            }
            sim.step();
            assertTrue(cycle < 100_000);
        }
        double measured = (double) (beats - 1) / (last - first);
        assertEquals(rate, measured, 0.001, "beats per cycle, credits " + credits + ", stages " + stages);
    }

    /** Random gaps and stalls on both ends: every beat through in order, all credits back at the end. */
    @ParameterizedTest
    @CsvSource({"1,0", "4,1", "5,3"})
    void randomTrafficKeepsOrderAndCredits(int credits, int stages) {
        Simulator sim = Simulator.compile(Design.elaborate(new Loop(new Loop.Config(credits, stages))));
        sim.reset();
        Layout word = Layout.plain("data", 16);
        LayoutSource in = new LayoutSource(sim, "in", word);
        LayoutSink out = new LayoutSink(sim, "out", word);
        Random rnd = new Random(credits * 10L + stages);
        List<BigInteger> sent = new ArrayList<>();
        List<BigInteger> got = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            BigInteger w = BigInteger.valueOf(rnd.nextInt(1 << 16));
            in.add(w);
            sent.add(w);
        }
        for (long cycle = 0; got.size() < sent.size(); cycle++) {
            in.drive(rnd, 70);
            out.drive(rnd, 60);
            in.taken();
            BigInteger b = out.taken();
            if (b != null) {
                got.add(b);
            }
            sim.step();
            assertTrue(cycle < 200_000);
        }
        sim.step(2L * stages + 3);
        assertEquals(sent, got);
        assertEquals(credits, sim.peek("tx_credits"), "every credit back");
        assertEquals(0, sim.peek("tx_excess_returns") + sim.peek("rx_overflow_beats"), "no violation");
    }
}
