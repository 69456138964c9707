package org.sue.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sue.core.ConfigException;
import org.sue.core.Design;
import org.sue.sim.Simulator;
import org.sue.transport.tb.ConnectionRouterFollower;
import org.sue.transport.tb.ConnectionRouterTraffic;

/**
 * {@link ConnectionRouter} alone against its reference ({@code ConnectionRouterModel}) every cycle, under ports going
 * down and up, PDUs decided and ended and connections stuck at random (docs/protocol.md 10.6, 10.8).
 */
class ConnectionRouterTest {
    /** Short, so that detours end and start again many times in a run. */
    private static final int PROBE_CYCLES = 64;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void followsItsReferenceEveryCycle(int ports) {
        ConnectionRouter.Config config = new ConnectionRouter.Config(ports, 16, PROBE_CYCLES);
        Simulator sim = Simulator.compile(Design.elaborate(new ConnectionRouter(config)));
        sim.reset();
        ConnectionRouterFollower follower = new ConnectionRouterFollower(sim, "", config);
        ConnectionRouterTraffic traffic = new ConnectionRouterTraffic(ports);
        Random rnd = new Random(ports);
        long waited = 0;
        for (int c = 0; c < 20_000; c++) {
            traffic.drive(sim, c, rnd);
            waited += sim.peek("moving") != 0 ? 1 : 0;
            sim.step();
        }
        assertEquals(List.of(), follower.mismatches());
        assertTrue(follower.moves() > 100, "routes moved " + follower.moves() + " times");
        assertTrue(follower.fleeings() > 20, "routes fled a port that was down " + follower.fleeings() + " times");
        assertTrue(waited > 1000, "routes waited for their counts: " + waited + " cycles with a move pending");
        assertTrue(follower.detouredCycles() > 1000, "connections detoured in " + follower.detouredCycles()
                + " cycles");
        long probes = sim.peek("home_probes");
        assertTrue(probes > 5, "detoured connections sent home " + probes + " times");
    }

    @Test
    void threePortsAreRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> new ConnectionRouter.Config(3, 16,
                PROBE_CYCLES));
        assertTrue(e.getMessage().contains("ports must be 2 or 4, got 3"), e.getMessage());
    }
}
