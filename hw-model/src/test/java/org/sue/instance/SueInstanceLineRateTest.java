package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.instance.tb.LineRate;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.TwoXpuRun;

/**
 * An XPU that sends saturating commands to one destination fills its port: B's XPU receives at least 0.9 of the
 * command bytes per cycle the port can carry after every header ({@link LineRate#capacity}), counted in cycles. Each
 * XPU width starts from its own defaults (its port as wide as the XPU interface), with LLR and CBFC on.
 */
class SueInstanceLineRateTest {
    @ParameterizedTest
    @CsvSource({"1024, 256, 1", "1024, 256, 4", "512, 128, 1", "256, 256, 4"})
    void saturatedCommandsFillThePort(int xpuWidth, int dataBytes, int vcs) {
        SueInstance.Config config = SueInstance.Config.builder().path(p -> p.dataWidth(xpuWidth)).build();
        LineRate.Result r = LineRate.measure(config, dataBytes, vcs, 2, LinkModel.Faults.NONE, 1500, 1);
        assertTrue(r.ratio() >= 0.9, String.format("%s, %d-byte commands on %d VCs: %.1f command bytes/cycle of %.1f"
                + " (%.3f)", TwoXpuRun.describe(config), dataBytes, vcs, r.bytesPerCycle(), r.capacity(), r.ratio()));
    }
}
