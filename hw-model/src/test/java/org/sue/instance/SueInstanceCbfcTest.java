package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.link.CbfcConfig;
import org.sue.link.LinkControl;
import org.sue.link.LlrConfig;
import org.sue.net.HeaderFormat;

/**
 * CBFC in the SUE instance (docs/protocol.md section 8): two instances whose XPUs drain their receive side slowly,
 * both directions saturated on VCs 0 and 1 (the load that overflows the FIFOs without flow control, see
 * SueInstancePfcTest). The credits keep every FIFO from overflowing; frames lost on the link leak credits that the
 * CC_Updates bring back, so at the end every credit is back on both sides.
 */
class SueInstanceCbfcTest {
    /** Commands with 200..256 data bytes (PDUs of several commands), on VC 0 or 1. */
    private static final TwoXpuRun.Mix TWO_VCS = TwoXpuRun.twoVcs(200, 256);

    private static final int DELAY = 20;

    @Test
    void creditsKeepASlowXpusReceiveFifoFromOverflowing() {
        TwoXpuRun run = new TwoXpuRun(SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP), DELAY,
                LinkModel.Faults.NONE, 3, null).rxReturnPercent(4);
        TwoXpuRun.Result r = run.run(1200, 1200, TWO_VCS, 60_000, null);
        SueInstanceTest.check(r);
        run.idle(5000);
        for (String side : new String[] {"A", "B"}) {
            assertEquals(0, run.peek(side, "cbfc_cf_update_errors"), side + ": every CF_Update right");
            assertEquals(0, run.peek(side, "cbfc_cc_credits_recovered"), side + ": a lossless link loses nothing,"
                    + " and no CC_Update overtakes the frames before it");
            assertTrue(run.peek(side, "cbfc_s_cu_watermark_0") > 64, side + ": VC 0 used its credits");
            noOverflowAndEveryCreditBack(run, side);
        }
    }

    /** Frames and CF_Updates lost on the link: the CC_Updates recover the lost frames' credits; nothing overflows. */
    @Test
    void ccUpdatesRecoverTheCreditsOfLostFrames() {
        LinkModel.Faults faults = LinkModel.Faults.loss(0.01).withBitErrors(0.01);
        TwoXpuRun run = new TwoXpuRun(SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP), DELAY, faults, 5, null)
                .rxReturnPercent(4);
        TwoXpuRun.Result r = run.run(800, 800, TWO_VCS, 80_000, null);
        SueInstanceTest.check(r);
        run.idle(5000);
        for (String side : new String[] {"A", "B"}) {
            assertTrue(run.peek(side, "cbfc_cc_credits_recovered") > 0, side + ": lost frames' credits recovered");
            noOverflowAndEveryCreditBack(run, side);
        }
    }

    /**
     * CBFC with Link Layer Retry over the same lossy link: LLR repairs every frame on the link, CC_Updates included,
     * and replays them in order, so no CC_Update arrives before a frame it counts: nothing is "recovered" although
     * the link loses and damages frames, and every credit is back at the end.
     */
    @Test
    void withLlrNoCreditLeaksAndNoCcUpdateOvertakesAReplay() {
        LinkModel.Faults faults = LinkModel.Faults.loss(0.01).withBitErrors(0.01);
        SueInstance.Config c = SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP).withLlr(SmallInstance.llr(DELAY));
        TwoXpuRun run = new TwoXpuRun(c, DELAY, faults, 5, null).rxReturnPercent(4);
        TwoXpuRun.Result r = run.run(800, 800, TWO_VCS, 80_000, null);
        SueInstanceTest.check(r);
        assertEquals(0, r.aToB().retransmitted() + r.bToA().retransmitted(), "LLR left the transport nothing to do");
        run.idle(5000);
        for (String side : new String[] {"A", "B"}) {
            assertTrue(run.peek(side, "llr_rx_replay") > 0, side + ": LLR repaired frames");
            assertTrue(run.peek(side, "cbfc_cc_updates_received") > 0, side + ": CC_Updates arrived");
            assertEquals(0, run.peek(side, "cbfc_cc_credits_recovered"), side + ": no frame lost, none overtaken");
            assertEquals(0, run.peek(side, "cbfc_cf_update_errors"), side + ": every CF_Update right");
            noOverflowAndEveryCreditBack(run, side);
        }
    }

    /**
     * CBFC with an LLR that gives up: XPUs that take everything at once keep frames in flight, and a link outage of
     * 4000 cycles makes LLR's replay timer expire once too often (at most 1 replay), so it flushes its buffer and
     * starts again with INIT; the flushed frames (CC_Updates among them) are lost to the link layer. The transport resends their PDUs, and the CC_Updates after the outage give
     * their credits back: every credit is back at the end.
     */
    @Test
    void whenLlrFlushesCcUpdatesRecoverTheLostCredits() {
        LlrConfig giveUp = SmallInstance.llr(DELAY).withLimits(64, 32768, 4 * DELAY + 200, 1);
        SueInstance.Config c = SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP).withLlr(giveUp);
        LinkModel.Faults outage = LinkModel.Faults.NONE.withOutage(6000, 4000);
        TwoXpuRun run = new TwoXpuRun(c, DELAY, outage, 7, null).rxReturnPercent(100);
        TwoXpuRun.Result r = run.run(800, 800, TWO_VCS, 80_000, null);
        SueInstanceTest.check(r);
        assertTrue(r.aToB().retransmitted() + r.bToA().retransmitted() > 0, "the transport resent what LLR flushed");
        run.idle(5000);
        assertTrue(run.peekA("cbfc_cc_credits_recovered") + run.peekB("cbfc_cc_credits_recovered") > 0,
                "the flushed frames' credits recovered");
        for (String side : new String[] {"A", "B"}) {
            assertEquals(0, run.peek(side, "cbfc_cf_update_errors"), side + ": every CF_Update right");
            noOverflowAndEveryCreditBack(run, side);
        }
    }

    /**
     * Both receiving XPUs keep their VC 0 credits: with a FIFO per VC behind the transport, VC 0 backs up to its link
     * credits while every VC 1 command arrives; without them, VC 0's PDU at the head of the shared FIFO holds VC 1
     * back too. Once VC 0's credits flow again, everything arrives, no FIFO overflowed and every credit is back.
     */
    @ParameterizedTest
    @CsvSource({"256, true", "0, false"})
    void aVcWhoseXpuHoldsItsCreditsDoesNotStopTheOther(int rxVcFifoDepth, boolean perVc) {
        TwoXpuRun run = new TwoXpuRun(SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP)
                .withRxVcFifoDepth(rxVcFifoDepth), DELAY, LinkModel.Faults.NONE, 9, null).rxHeldVcs(1);
        run.add(600, 600, TWO_VCS);
        run.idle(30_000);
        String[][] directions = {{"A", "B"}, {"B", "A"}};
        for (String[] d : directions) {
            var sent = d[0].equals("A") ? run.sentAToB() : run.sentBToA();
            var got = d[0].equals("A") ? run.gotAToB() : run.gotBToA();
            int vc0 = got.getOrDefault(0, java.util.List.of()).size();
            int vc1 = got.getOrDefault(1, java.util.List.of()).size();
            assertTrue(vc0 < sent.get(0).size(), d[1] + ": VC 0 backed up (" + vc0 + " delivered)");
            if (perVc) {
                assertEquals(sent.get(1), got.get(1), d[1] + ": every VC 1 command delivered meanwhile (VC 0: "
                        + vc0 + " of " + sent.get(0).size() + ")");
            } else {
                assertTrue(vc1 < sent.get(1).size() / 2, d[1] + ": VC 1 waits behind VC 0 (" + vc1 + " of "
                        + sent.get(1).size() + ")");
            }
        }
        run.rxHeldVcs(0);
        SueInstanceTest.check(run.run(0, 0, TWO_VCS, 60_000, null));
        run.idle(5000);
        for (String side : new String[] {"A", "B"}) {
            noOverflowAndEveryCreditBack(run, side);
        }
    }

    @Test
    void configurationErrorsNameTheParameter() {
        var c = SmallInstance.config(HeaderFormat.ETH_IPV4_UDP).withRxFifoDepth(512);
        CbfcConfig good = CbfcConfig.defaults(512).withLimits(128, 256, 1536, 2000);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withCbfc(CbfcConfig.defaults(1024)
                .withLimits(128, 256, 1536, 2000))).getMessage().contains("cbfc.dataWidth"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withCbfc(good.withLimits(128, 256, 1024,
                2000))).getMessage().contains("cbfc.maxFrameBytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withCbfc(good.withCredits(0b0111, 128, 0)))
                .getMessage().contains("cbfc.losslessVcs"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withCbfc(good.withLimits(128, 512, 1536,
                2000))).getMessage().contains("cbfc.portCreditLimit"));
        CbfcConfig otherCodes = CbfcConfig.builder().vcCreditLimit(128).portCreditLimit(256).maxFrameBytes(1536)
                .ccTimerCycles(2000).codes(new LinkControl.Codes(1, 2, 3, 4, 0x11)).build(512);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withLlr(SmallInstance.llr(DELAY))
                .withCbfc(otherCodes)).getMessage().contains("cbfc.codes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withCbfc(good).withRxVcFifoDepth(128))
                .getMessage().contains("cbfc.vcCreditLimit x cbfc.creditSize"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withRxVcFifoDepth(1))
                .getMessage().contains("rxVcFifoDepth"));
    }

    /** No overflow drop, no charge past a limit, and every credit back: nothing in use or reserved anywhere. */
    private static void noOverflowAndEveryCreditBack(TwoXpuRun run, String side) {
        assertEquals(0, run.peek(side, "net_drops_overflow"), side + ": no overflow drops");
        assertEquals(0, run.peek(side, "cbfc_credit_overdraws"), side + ": no charge past a limit");
        for (int v = 0; v < 4; v++) {
            assertEquals(0, run.peek(side, "cbfc_s_cu_" + v), side + ": VC " + v + " credits in use at the end");
            assertEquals(0, run.peek(side, "cbfc_reserved_" + v), side + ": VC " + v + " credits reserved at the end");
        }
        assertEquals(0, run.peek(side, "cbfc_s_p_cu"), side + ": port credits in use at the end");
    }

}
