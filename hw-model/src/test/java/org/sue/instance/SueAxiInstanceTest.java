package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sue.axi.AxiConfig;
import org.sue.instance.tb.AxiTwoXpuRun;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.net.HeaderFormat;

/**
 * Two XPUs exchanging memory reads and writes over AXI4 (docs/protocol.md 13), both ways at once, over a link that
 * loses and damages frames, with Link Layer Retry and CBFC on.
 */
class SueAxiInstanceTest {
    @Test
    void readsAndWritesBothWaysOverALossyLink() {
        AxiTwoXpuRun run = new AxiTwoXpuRun(SmallInstance.axi(HeaderFormat.ETH_IPV4_UDP, 20, SmallInstance.axiPair()),
                20, LinkModel.Faults.loss(0.01).withBitErrors(0.01), 7, AxiTwoXpuRun.Traffic.random(60, 70), null);
        AxiTwoXpuRun.Result r = run.run(100_000, null);
        System.out.println(r);
        assertTrue(r.ok(), r.toString());
        for (AxiTwoXpuRun.Side s : new AxiTwoXpuRun.Side[] {r.a(), r.b()}) {
            assertEquals(60, s.stats().writesAnswered());
            assertEquals(60, s.stats().readsAnswered());
            assertTrue(s.stats().writes[AxiConfig.OKAY] > 0 && s.stats().writes[AxiConfig.DECERR] > 0);
            assertTrue(s.lost() + s.damaged() > 0, "the link lost or damaged frames");
        }
    }
}
