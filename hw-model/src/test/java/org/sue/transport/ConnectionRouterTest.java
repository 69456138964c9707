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
 * down and up and PDUs decided and ended at random (docs/protocol.md 10.6).
 */
class ConnectionRouterTest {
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void followsItsReferenceEveryCycle(int ports) {
        Simulator sim = Simulator.compile(Design.elaborate(new ConnectionRouter(ports)));
        sim.reset();
        ConnectionRouterFollower follower = new ConnectionRouterFollower(sim, "", ports);
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
    }

    @Test
    void threePortsAreRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> new ConnectionRouter(3));
        assertTrue(e.getMessage().contains("ports must be 2 or 4, got 3"), e.getMessage());
    }
}
