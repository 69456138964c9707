package org.sue.lib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.model.CreditCounterReference;
import org.sue.sim.Simulator;

class CreditCounterTest {
    @ParameterizedTest
    @CsvSource({"1,1", "16,3", "255,8", "1000,4", "4096,12"})
    void matchesReferenceCycleByCycle(int max, int amountWidth) {
        Simulator sim = Simulator.compile(Design.elaborate(new CreditCounter(new CreditCounter.Config(max, amountWidth))));
        CreditCounterReference ref = new CreditCounterReference(max);
        Random rnd = new Random(max * 7L + amountWidth);
        sim.reset();
        boolean sawRefusal = false;
        boolean sawSaturation = false;
        for (int cycle = 0; cycle < 8000; cycle++) {
            boolean spending = (cycle / 1000) % 2 == 0; // alternate spending and refilling phases
            boolean consume = rnd.nextInt(3) < (spending ? 2 : 1);
            long camount = rnd.nextInt(1 << amountWidth);
            boolean give = rnd.nextInt(3) < (spending ? 1 : 2);
            long ramount = rnd.nextInt(1 << amountWidth);
            sim.poke("consume_valid", consume ? 1 : 0);
            sim.poke("consume_amount", camount);
            sim.poke("return_valid", give ? 1 : 0);
            sim.poke("return_amount", ramount);
            assertEquals(ref.credits(), sim.peek("credits"), "credits at cycle " + cycle);
            assertEquals(consume && ref.canConsume(camount) ? 1 : 0, sim.peek("consume_ok"), "consume_ok at " + cycle);
            assertEquals(ref.underflow() ? 1 : 0, sim.peek("underflow"));
            assertEquals(ref.overflow() ? 1 : 0, sim.peek("overflow"));
            sawRefusal |= consume && !ref.canConsume(camount);
            long before = ref.credits();
            ref.cycle(consume, camount, give, ramount);
            sawSaturation |= give && ref.credits() == max && before + ramount - (consume && camount <= before ? camount : 0) > max;
            sim.step();
        }
        assertTrue(sawRefusal && sawSaturation, "both saturation checks were exercised");
    }

    @Test
    void creditsAreConservedWhenUsedCorrectly() {
        int max = 64;
        Simulator sim = Simulator.compile(Design.elaborate(new CreditCounter(new CreditCounter.Config(max, 4))));
        sim.reset();
        Random rnd = new Random(3);
        long outstanding = 0;
        for (int cycle = 0; cycle < 2000; cycle++) {
            long want = 1 + rnd.nextInt(15);
            boolean consume = rnd.nextBoolean();
            long back = Math.min(outstanding, rnd.nextInt(16));
            sim.poke("consume_valid", consume ? 1 : 0);
            sim.poke("consume_amount", want);
            sim.poke("return_valid", back > 0 ? 1 : 0);
            sim.poke("return_amount", back);
            assertEquals(max - outstanding, sim.peek("credits"));
            if (sim.peek("consume_ok") == 1) {
                outstanding += want;
            }
            outstanding -= back;
            sim.step();
        }
        assertEquals(0, sim.peek("overflow"));
    }

    @Test
    void invalidParametersNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new CreditCounter.Config(0, 4))
                .getMessage().contains("maxCredits"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new CreditCounter.Config(8, 0))
                .getMessage().contains("amountWidth"));
    }
}
