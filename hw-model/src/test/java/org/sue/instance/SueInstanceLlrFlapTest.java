package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.link.FrameAction;
import org.sue.link.LlrConfig;
import org.sue.link.LlrTx.LlrTxState;
import org.sue.net.HeaderFormat;

/**
 * A link flap under LLR with its default FLUSH rules (docs/protocol.md 7.3): mid-traffic the link between two
 * instances goes down (every frame and control message lost, {@code link_up} low on both sides) for twice the
 * PCS-lost timeout and comes back.
 */
class SueInstanceLlrFlapTest {
    private static final int DELAY = 50;
    private static final String[] SIDES = {"A", "B"};

    /**
     * Both sides flush and re-initialise by themselves, once, their INIT held until the link is back; LLR is then in
     * ADVANCE on both sides (the port down from the flush to the INIT_ECHO, not before the PCS-lost timeout), the transport resends what the flushes lost (every command arrives exactly once and in
     * order), and LLR goes on repairing the link's losses after the flap.
     */
    @Test
    void afterALinkFlapLlrComesBackByItselfOnBothSides() {
        SueInstance.Config config = SmallInstance.withLlr(HeaderFormat.ETH_IPV4_UDP, DELAY);
        assertTrue(config.llr().reInitOnFlush(), "the default");
        long from = 6000;
        long down = 2L * config.llr().pcsLostTimeoutCycles();
        TwoXpuRun run = new TwoXpuRun(config, DELAY, LinkModel.Faults.loss(0.01).withOutage(from, down), 11, null);
        run.add(3000, 3000, TwoXpuRun.RANDOM);
        run.idle(from - run.now());
        for (String side : SIDES) {
            assertEquals(LlrTxState.ADVANCE, state(run, side), side + ": LLR up before the flap");
            assertTrue(run.peek(side, "llr_tx_replay") > 0, side + ": and repairing losses");
        }
        // the port's changes so far: up at the start (LLR off while the sides are set up), down in INIT, up again
        long[] cameUp = {run.peek("A", "port_came_up"), run.peek("B", "port_came_up")};
        long[] wentDown = {run.peek("A", "port_went_down"), run.peek("B", "port_went_down")};
        assertTrue(delivered(run.gotAToB()) > 0 && delivered(run.gotAToB()) < 3000, "the flap comes mid-traffic");
        run.linkUp(false);
        run.idle(down / 4);
        for (int i = 0; i < 2; i++) { // a blip LLR would repair: the port stays up
            assertPort(run, SIDES[i], 1, cameUp[i], wentDown[i]);
        }
        run.idle(down - down / 4);
        long[] replaysBefore = new long[2];
        for (int i = 0; i < 2; i++) {
            String side = SIDES[i];
            assertEquals(LlrTxState.INIT, state(run, side), side + ": flushed, re-initialising, INIT held");
            assertEquals(1, run.peek(side, "llr_tx_reinit"), side + ": one re-init");
            assertEquals(1, run.peek(side, "llr_tx_init_ctl_os"), side + ": no INIT into the dead link");
            replaysBefore[i] = run.peek(side, "llr_tx_replay");
            assertPort(run, side, 0, cameUp[i], wentDown[i] + 1);
        }
        run.linkUp(true);
        run.idle(4 * DELAY);
        for (String side : SIDES) {
            assertEquals(LlrTxState.ADVANCE, state(run, side), side + ": INIT, INIT_ECHO, ADVANCE within a round trip");
        }
        assertTrue(delivered(run.gotAToB()) < 3000 && delivered(run.gotBToA()) < 3000, "traffic after the flap");
        TwoXpuRun.Result r = run.run(0, 0, 60_000, null);
        SueInstanceTest.check(r);
        assertTrue(r.aToB().retransmitted() + r.bToA().retransmitted() > 0, "the transport resent what LLR flushed");
        for (int i = 0; i < 2; i++) {
            String side = SIDES[i];
            assertEquals(LlrTxState.ADVANCE, state(run, side), side);
            assertEquals(1, run.peek(side, "llr_tx_reinit"), side + ": still one re-init");
            assertEquals(2, run.peek(side, "llr_tx_init_ctl_os"), side + ": one INIT at the start, one after the flap");
            assertTrue(run.peek(side, "llr_tx_replay") > replaysBefore[i], side + ": losses after the flap replayed");
            assertPort(run, side, 1, cameUp[i] + 1, wentDown[i] + 1);
        }
    }

    /**
     * Commands queued before LLR's INIT handshake is done wait for it (docs/protocol.md 7.8: nothing is picked while
     * the port is down): with a link of 200 cycles each way, none of the PDUs goes out unnumbered, where INIT's frame
     * action BEST_EFFORT (the default) would have sent the first 400 cycles' worth without LLR's protection.
     */
    @Test
    void nothingIsPickedBeforeLlrIsUp() {
        int delay = 200;
        LlrConfig llr = SmallInstance.llr(delay);
        SueInstance.Config config = SmallInstance.withLlr(HeaderFormat.ETH_IPV4_UDP, delay).withLlr(llr.withFlush(
                FrameAction.BEST_EFFORT, FrameAction.BEST_EFFORT, true, llr.pcsLostTimeoutCycles(),
                llr.dataAgeTimeoutCycles()));
        TwoXpuRun run = new TwoXpuRun(config, delay, LinkModel.Faults.NONE, 5, null);
        run.add(500, 500, TwoXpuRun.RANDOM);
        run.idle(delay);
        assertEquals(0, run.peek("A", "port_up"), "A's LLR in INIT, the port down");
        assertEquals(0, run.peek("A", "tp_tx_pdus_sent"), "no PDU picked while the port is down");
        TwoXpuRun.Result r = run.run(0, 0, 60_000, null);
        SueInstanceTest.check(r);
        for (String side : SIDES) {
            assertTrue(run.side(side).arrivedWithoutNumber() == 0, side + ": every frame numbered");
        }
    }

    /** The port's status (docs/protocol.md 7.8): up, and the times it came up and went down. */
    private static void assertPort(TwoXpuRun run, String side, long up, long cameUp, long wentDown) {
        assertEquals(up, run.peek(side, "port_up"), side + ": port_up");
        assertEquals(cameUp, run.peek(side, "port_came_up"), side + ": port_came_up");
        assertEquals(wentDown, run.peek(side, "port_went_down"), side + ": port_went_down");
    }

    private static LlrTxState state(TwoXpuRun run, String side) {
        return LlrTxState.of(run.peek(side, "llr_tx_state"));
    }

    private static int delivered(Map<Integer, java.util.List<org.sue.cmd.model.CommandCodec.Command>> got) {
        return got.values().stream().mapToInt(java.util.List::size).sum();
    }
}
