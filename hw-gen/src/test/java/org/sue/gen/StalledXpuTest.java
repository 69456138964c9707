package org.sue.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.FaultScenarios;

/**
 * Two instances of the committed small FPGA configuration (LLR and PFC; and the same with CBFC) over links of 50
 * cycles, random commands both ways, both XPUs holding every receive credit for 20,000 cycles and then taking
 * commands again: flow control keeps the receive FIFOs from overflowing through the stall and the rush after it (no
 * {@code net_drops_overflow}), and every command arrives once and in order. Without PFC's shared threshold the
 * VCs, each paused at its own XOFF, overshoot it together and overflow the FIFO they share.
 */
class StalledXpuTest {
    @ParameterizedTest
    @ValueSource(strings = {"PFC", "CBFC", "PFC_WITHOUT_SHARED_THRESHOLD"})
    void aLongXpuStallLosesNothingAtTheReceiveFifo(String mode) throws Exception {
        SueInstance.Config small = InstanceConfigJson.read(ConfigsTest.CONFIGS.resolve("small_fpga.json")).instance();
        SueInstance.Config config = switch (mode) {
            case "PFC" -> small;
            case "CBFC" -> FaultScenarios.withCbfc(small);
            default -> small.withPfc(small.pfc().withSharedXoff(0));
        };
        FaultScenarios.Stall r = FaultScenarios.stalledXpus(config, 50, 20_000);
        assertTrue(r.ok(), r.result()); // the transport repairs what overflowed
        boolean shared = !mode.equals("PFC_WITHOUT_SHARED_THRESHOLD");
        assertEquals(shared, r.overflowDrops() == 0, "receive FIFO overflow drops: " + r.overflowDrops());
        assertTrue(config.pfc() == null || r.xoffFrames() > 0, "PFC paused the peers");
    }
}
