package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sue.instance.tb.FaultScenarios;

/**
 * One XPU (honouring xoff) sending to four destinations through a switch; one of them freezes for 40,000 cycles
 * (sends nothing, takes nothing) and comes back (docs/protocol.md 6.7): declared unreachable within
 * unreachableTimeouts timeouts, probed at most once per probeCycles, back at the first ACK after its return; the
 * three live destinations keep at least 90% of their goodput meanwhile, and every command of every destination is
 * delivered once and in order.
 */
class DeadDestinationTest {
    @Test
    void aFrozenDestinationIsDeclaredProbedAndBackWithNothingLost() {
        SueInstance.Config c = FaultScenarios.deadDestinationConfig();
        FaultScenarios.Death d = FaultScenarios.deadDestination(c, 40_000);
        System.out.println("dead destination: " + d);
        assertTrue(d.result().ok(), d.result().summary());
        assertEquals(1, d.declared(), "declared unreachable once");
        assertEquals(1, d.back(), "back once");
        // after the last ACK, unreachableTimeouts timeouts, each rtoCycles after the go-back before it ended (a go-back
        // resends up to windowPdus of the largest frames) and up to a scan late
        long rto = c.transport().rtoCycles();
        long goBack = (long) c.transport().windowPdus() * ((c.largestFrame() + 63) / 64);
        long bound = (c.transport().unreachableTimeouts() + 1) * (rto + goBack + c.transport().destinations());
        assertTrue(d.detectCycles() > 0 && d.detectCycles() <= bound, "declared after " + d.detectCycles()
                + " cycles, at most " + bound);
        assertTrue(d.probes() >= 1 && d.probes() <= 40_000 / c.transport().probeCycles() + 1, "probes " + d.probes());
        assertTrue(d.backCycles() >= 0 && d.backCycles() <= c.transport().probeCycles() + rto, "back after "
                + d.backCycles() + " cycles");
        // fenced: the dead destination's records leave the store's head, its commands wait under xoff
        assertTrue(d.liveDuring() >= 0.9 * d.liveBefore(), "live goodput " + d.liveDuring() + " bytes/cycle while"
                + " one destination was dead, " + d.liveBefore() + " before");
    }
}
