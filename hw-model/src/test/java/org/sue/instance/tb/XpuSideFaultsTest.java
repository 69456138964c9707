package org.sue.instance.tb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.tb.CommandSender;
import org.sue.instance.SueInstance;
import org.sue.net.HeaderFormat;

/** Each fault knob of {@link XpuSide} does what it says, and the exactly-once checks account for what it cuts. */
class XpuSideFaultsTest {
    private static final SueInstance.Config SMALL = SmallInstance.config(HeaderFormat.ETH_IPV4_UDP);

    /** Drives both sides until {@code until} holds, at most {@code cycles} cycles. */
    private static void idleUntil(TwoXpuRun run, java.util.function.BooleanSupplier until, int cycles) {
        for (int i = 0; i < cycles && !until.getAsBoolean(); i++) {
            run.idle(1);
        }
        assertTrue(until.getAsBoolean(), "not reached in " + cycles + " cycles");
    }

    @Test
    void aTransmitResetLosesOnlyTheCutCommandAndGivesTheCreditsBack() {
        TwoXpuRun run = new TwoXpuRun(SMALL, 20, LinkModel.Faults.NONE, 11, null);
        XpuSide a = run.side("A");
        a.add(60, TwoXpuRun.fixed(200, 2)); // 7 beats each
        idleUntil(run, () -> a.tx().sent() >= 20 && a.tx().midCommand(), 5000);
        long sentBefore = a.tx().sent();
        CommandSender.Abandoned cut = a.txReset(3);
        assertNotNull(cut, "a command was cut mid-way");
        assertEquals(59, a.commandsSent(), "the cut command no longer counts as sent");
        idleUntil(run, () -> !a.tx().inReset(), 5000);
        assertTrue(a.tx().creditsBack(), "the XPU holds its initial credits after the reset");
        assertEquals(sentBefore, a.tx().sent(), "nothing sent during the reset");
        assertEquals(1, a.counter("drops_reset"), "SUE dropped the one command cut");
        TwoXpuRun.Result r = run.run(0, 0, 20_000, null);
        assertTrue(r.ok(), "all but the cut command delivered once, in order: " + r);
        assertEquals(59, r.aToB().delivered());
        List<CommandCodec.Command> got = run.gotAToB().get(cut.vc());
        assertFalse(got.contains(cut.command()), "the cut command is not delivered");
    }

    @Test
    void aReceiveResetLosesTheCutCommandAndTheRestOfItsPduOnly() {
        TwoXpuRun run = new TwoXpuRun(SMALL, 20, LinkModel.Faults.NONE, 12, null).rxReturnPercent(100);
        XpuSide a = run.side("A");
        XpuSide b = run.side("B");
        a.add(80, TwoXpuRun.fixed(200, 2));
        idleUntil(run, () -> b.rx().delivered().size() >= 10 && b.rx().bytesOwed() > 64, 10_000);
        b.rxReset(2);
        run.idle(3);
        assertEquals(1, b.receiveResetCuts());
        assertEquals(1, b.counter("rx_drops_reset"), "SUE counts the same cut");
        assertTrue(b.rx().creditsBack(), "the receiving XPU holds nothing after the reset");
        TwoXpuRun.Result r = run.run(0, 0, 20_000, null);
        assertTrue(r.ok(), "delivered once and in order but for the gap: " + r);
        int lost = b.lostFrom(a);
        assertTrue(lost >= 1 && lost <= 3, lost + " lost: the cut command and the rest of its PDU (at most 3 of"
                + " 200 bytes in a 1 KiB PDU)");
        assertEquals(80 - lost, r.aToB().delivered());
    }

    @Test
    void receiveCreditsHeldForAWindowStopTheVcThenFlow() {
        TwoXpuRun run = new TwoXpuRun(SMALL, 20, LinkModel.Faults.NONE, 13, null).rxReturnPercent(100);
        XpuSide b = run.side("B");
        run.side("A").add(100, TwoXpuRun.fixed(64));
        b.holdRxCredits(1, 4000);
        run.idle(3990);
        assertEquals(SMALL.rxDataCredits(), b.rx().delivered().size(), "one command per data credit, then none");
        TwoXpuRun.Result r = run.run(0, 0, 20_000, null);
        assertTrue(r.ok(), r.toString());
        assertEquals(100, r.aToB().delivered());
    }

    @Test
    void macBackpressureSlowsThePortAndLosesNothing() {
        TwoXpuRun run = new TwoXpuRun(SMALL, 20, LinkModel.Faults.NONE, 14, null).txValidPercent(100)
                .rxReturnPercent(100);
        run.side("A").macReadyPercent(30, 99);
        TwoXpuRun.Result r = run.run(300, 0, TwoXpuRun.fixed(256), 50_000, null);
        assertTrue(r.ok(), r.toString());
        double portBytes = SMALL.busWidth() / 8.0;
        assertTrue(r.aToB().bytesPerCycle() < 0.35 * portBytes, r.aToB().bytesPerCycle() + " command bytes a cycle"
                + " through a port that takes a beat 30% of the cycles");
    }

    @Test
    void aLinkDownLosesFramesThatLlrAndTheTransportRecover() {
        SueInstance.Config config = SmallInstance.withLlr(HeaderFormat.ETH_IPV4_UDP, 20);
        TwoXpuRun run = new TwoXpuRun(config, 20, LinkModel.Faults.NONE, 15, null);
        run.add(600, 600, TwoXpuRun.RANDOM);
        run.idle(500);
        run.linkUp(false);
        run.idle(200); // what was on the wire lands
        XpuSide b = run.side("B");
        int delivered = b.rx().delivered().size();
        long lost = b.fromPeer().lost();
        run.idle(2000);
        assertEquals(delivered, b.rx().delivered().size(), "nothing crosses a link that is down");
        assertTrue(delivered < 600, "the link went down with commands still to send");
        System.out.println("link down: frames lost A->B " + (b.fromPeer().lost() - lost));
        run.linkUp(true);
        TwoXpuRun.Result r = run.run(0, 0, 50_000, null);
        assertTrue(r.ok(), r.toString());
        assertEquals(600, r.aToB().delivered());
        assertEquals(600, r.bToA().delivered());
    }

    @Test
    void llrEnableIsAKnob() {
        SueInstance.Config config = SmallInstance.withLlr(HeaderFormat.ETH_IPV4_UDP, 20);
        TwoXpuRun run = new TwoXpuRun(config, 20, LinkModel.Faults.NONE, 16, null);
        run.side("A").llrEnable(false);
        run.side("B").llrEnable(false);
        TwoXpuRun.Result off = run.run(50, 50, 20_000, null);
        assertTrue(off.ok(), off.toString());
        assertEquals(0, run.peekB("llr_rx_ok"), "no numbered frame while LLR is off");
        run.side("A").llrEnable(true);
        run.side("B").llrEnable(true);
        TwoXpuRun.Result on = run.run(50, 50, 20_000, null);
        assertTrue(on.ok(), on.toString());
        assertTrue(run.peekB("llr_rx_ok") > 0, "numbered frames once LLR is on");
    }
}
