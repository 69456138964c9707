package org.sue.axi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.sue.core.ConfigException;
import org.sue.core.Port;

/** The credit form's ports as docs/protocol.md 13.10 names them, on the pair and on its wrapper; the credits' rules. */
class AxiCreditPairTest {
    static final AxiCreditPair.Config PAIR = new AxiCreditPair.Config(AxiBridge.Config.of(AxiConfig.defaults(512, 16),
            16, 8, 8, 4), new AxiCredits(2, 8, 3, 4, 16), AxiCredits.defaults());

    @Test
    void everyChannelHasValidPayloadAndACreditNoReady() {
        Map<String, Port> pair = new AxiCreditPair(PAIR).ports().stream().collect(Collectors.toMap(Port::name,
                p -> p));
        Map<String, Port> wrapper = new AxiCreditWrapper(PAIR.wrapper()).ports().stream().collect(
                Collectors.toMap(Port::name, p -> p));
        for (AxiCredits.Loop loop : PAIR.loops()) {
            String n = loop.name();
            assertFalse(pair.containsKey(n + "_ready"), n + " has no ready in credit form");
            assertEquals(loop.intoSue(), pair.get(n + "_valid").isInput(), n + "_valid");
            assertEquals(!loop.intoSue(), pair.get(n + "_credit").isInput(), n + "_credit");
            for (var f : loop.layout().fields()) {
                assertEquals(f.width(), pair.get(n + "_" + f.name()).width(), n + "_" + f.name());
                assertEquals(f.width(), wrapper.get(n + "_" + f.name()).width(), "wrapper " + n + "_" + f.name());
            }
            // the wrapper: valid/ready toward the SoC, the pair's credit form mirrored toward SUE
            assertEquals(loop.intoSue(), wrapper.get(n + "_valid").isInput(), "wrapper " + n + "_valid");
            assertEquals(!loop.intoSue(), wrapper.get(n + "_ready").isInput(), "wrapper " + n + "_ready");
            assertEquals(loop.intoSue(), wrapper.get("sue_" + n + "_credit").isInput(), "wrapper sue_" + n + "_credit");
            assertTrue(pair.containsKey(n + (loop.intoSue() ? "_overflow_beats" : "_excess_returns")));
        }
        assertEquals(3, PAIR.loops().stream().filter(l -> l.name().equals("s_ar")).findFirst().orElseThrow().credits());
        assertTrue(pair.containsKey("tx_valid") && pair.containsKey("rx_credit"), "the FIFO interface as AxiBridge's");
    }

    @Test
    void creditsOutsideTheirRangeNameTheChannel() {
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> new AxiCredits(4, 0, 4, 4, 8)).getMessage().contains("AxiCredits w must be"));
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> new AxiCredits(4, 8, 4, 4, 5000)).getMessage().contains("AxiCredits r must be"));
    }
}
