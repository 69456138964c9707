package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.link.PfcConfig;
import org.sue.net.HeaderFormat;

/**
 * PFC in the SUE instance (docs/protocol.md section 9): two instances whose XPUs drain their receive side slowly,
 * both directions saturated on VCs 0 and 1. Without flow control the receive FIFOs overflow (the transport then
 * recovers by retransmission); with PFC they never do, and nothing deadlocks.
 */
class SueInstancePfcTest {
    /** Commands with 200..256 data bytes (PDUs of several commands), on VC 0 or 1. */
    private static final TwoXpuRun.Mix TWO_VCS = TwoXpuRun.twoVcs(200, 256);

    private static final int DELAY = 20;

    private static TwoXpuRun slowXpus(SueInstance.Config c) {
        return new TwoXpuRun(c, DELAY, LinkModel.Faults.NONE, 3, null).rxReturnPercent(4);
    }

    /** With and without 16 KiB FIFOs per VC behind the transport (XOFF 2 KiB plus about 9 KiB of headroom fit). */
    @ParameterizedTest
    @ValueSource(ints = {0, 256})
    void pfcKeepsASlowXpusReceiveFifoFromOverflowing(int rxVcFifoDepth) {
        TwoXpuRun run = slowXpus(SmallInstance.withPfc(HeaderFormat.ETH_IPV4_UDP).withRxVcFifoDepth(rxVcFifoDepth));
        TwoXpuRun.Result r = run.run(1200, 1200, TWO_VCS, 60_000, null);
        SueInstanceTest.check(r);
        assertEquals(0, run.peekA("net_drops_overflow") + run.peekB("net_drops_overflow"), "no overflow drops");
        assertTrue(run.peekA("pfc_xoff_frames_sent") > 0 && run.peekB("pfc_xoff_frames_sent") > 0,
                "both receivers asked for pauses");
        assertEquals(run.peekA("pfc_frames_sent"), run.peekB("pfc_frames_received"), "A's PFC frames reached B");
        assertEquals(run.peekB("pfc_frames_sent"), run.peekA("pfc_frames_received"), "B's PFC frames reached A");
        for (int v = 0; v < 4; v++) {
            assertEquals(0, run.peekA("rx_fifo_level_" + v) + run.peekB("rx_fifo_level_" + v), "FIFO empty at the end");
        }
    }

    /** The same load without flow control overflows the FIFOs: what the test above shows PFC prevents. */
    @Test
    void withoutFlowControlTheSameLoadOverflows() {
        SueInstance.Config c = SmallInstance.withPfc(HeaderFormat.ETH_IPV4_UDP).withPfc(null);
        TwoXpuRun run = slowXpus(c);
        TwoXpuRun.Result r = run.run(1200, 1200, TWO_VCS, 60_000, null);
        SueInstanceTest.check(r);
        assertTrue(run.peekA("net_drops_overflow") + run.peekB("net_drops_overflow") > 0, "the FIFOs overflowed");
        assertTrue(r.aToB().retransmitted() + r.bToA().retransmitted() > 0, "the transport recovered the drops");
    }

    /** PFC frames lost or damaged on the link: the refresh and the next change mend it; still no overflow. */
    @Test
    void pfcSurvivesALossyLink() {
        LinkModel.Faults faults = LinkModel.Faults.loss(0.01).withBitErrors(0.01);
        TwoXpuRun run = new TwoXpuRun(SmallInstance.withPfc(HeaderFormat.ETH_IPV4_UDP), DELAY, faults, 5, null)
                .rxReturnPercent(4);
        TwoXpuRun.Result r = run.run(800, 800, TWO_VCS, 80_000, null);
        SueInstanceTest.check(r);
        assertEquals(0, run.peekA("net_drops_overflow") + run.peekB("net_drops_overflow"), "no overflow drops");
    }

    /**
     * PFC with Link Layer Retry over the same lossy link: LLR repairs the data frames on the link (replays, and no
     * frame of the framing lost), the PFC frames pass beside the replay buffer (unnumbered: a lost one is mended
     * by the next); still no overflow, the FIFOs empty at the end.
     */
    @Test
    void pfcWithLlrOverALossyLink() {
        LinkModel.Faults faults = LinkModel.Faults.loss(0.01).withBitErrors(0.01);
        SueInstance.Config c = SmallInstance.withPfc(HeaderFormat.ETH_IPV4_UDP).withLlr(SmallInstance.llr(DELAY));
        TwoXpuRun run = new TwoXpuRun(c, DELAY, faults, 5, null).rxReturnPercent(4);
        TwoXpuRun.Result r = run.run(800, 800, TWO_VCS, 80_000, null);
        SueInstanceTest.check(r);
        run.idle(5000);
        assertEquals(0, run.peekA("net_drops_overflow") + run.peekB("net_drops_overflow"), "no overflow drops");
        assertTrue(run.peekA("pfc_xoff_frames_sent") > 0 && run.peekB("pfc_xoff_frames_sent") > 0,
                "both receivers asked for pauses");
        for (String side : new String[] {"A", "B"}) {
            assertTrue(run.peek(side, "llr_rx_replay") > 0, side + ": LLR repaired frames");
        }
        for (int v = 0; v < 4; v++) {
            assertEquals(0, run.peekA("rx_fifo_level_" + v) + run.peekB("rx_fifo_level_" + v), "FIFO empty at the end");
        }
    }

    @Test
    void configurationErrorsNameTheParameter() {
        SueInstance.Config c = SmallInstance.config(HeaderFormat.ETH_IPV4_UDP);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withPfc(PfcConfig.defaults(1024)))
                .getMessage().contains("pfc.dataWidth"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withPfc(PfcConfig.defaults(512)
                .withThresholds(4096, 2048))).getMessage().contains("pfc.xoffBytes"));
    }

}
