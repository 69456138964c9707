package org.sue.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.link.tb.LlrLinkRun;

/**
 * LLR transmit and receive joined by a faulty link: every frame leaves the transmitter as {@link
 * org.sue.link.model.LlrTxModel} allows, and the receiver passes on every good frame exactly once and in order,
 * whatever the link loses or damages, frames or control messages.
 */
class LlrLinkTest {
    static List<byte[]> notPoisoned(LlrLinkRun.Result r) {
        List<byte[]> l = new ArrayList<>();
        for (int i = 0; i < r.offered().size(); i++) {
            if (!r.poisoned().get(i)) {
                l.add(r.offered().get(i));
            }
        }
        return l;
    }

    static void assertExactlyOnceInOrder(List<byte[]> expected, List<byte[]> got) {
        assertEquals(expected.size(), got.size(), "good frames delivered");
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), got.get(i), "good frame " + i);
        }
    }

    @ParameterizedTest
    @CsvSource({"256,0.01,0.02,0.05,40,1", "512,0.03,0.03,0.2,120,2", "1024,0.0,0.05,0.0,10,3"})
    void aFaultyLinkDeliversEveryFrameOnceInOrder(int width, double loss, double bad, double ctlLoss, int delay,
                                                  long seed) {
        // frames wait for INIT to complete: best effort before it would not be protected
        LlrConfig cfg = LlrConfig.defaults(width).withMaxFrameBytes(2048).withLimits(40, 16384, 1500,
                LlrConfig.NO_REPLAY_LIMIT).withFlush(FrameAction.BLOCK, FrameAction.BLOCK, false, 1000, 0);
        LlrLinkRun.Result r = new LlrLinkRun(cfg, new LlrLinkRun.Faults(loss, bad, ctlLoss, delay, -1, 0))
                .run(1500, new Random(seed), 20, 90, 90, 400_000);
        assertExactlyOnceInOrder(notPoisoned(r), r.good());
        long poisoned = r.offered().size() - notPoisoned(r).size();
        assertEquals(poisoned, r.rx().get("rx_expected_seq_poisoned"), "each poisoned frame is taken once");
        assertEquals(poisoned + r.rx().get("rx_expected_seq_bad"), r.delivered().size() - r.good().size(),
                "passed on flagged: the poisoned frames and the damaged copies of expected ones");
        assertEquals(0, r.tx().get("rx_ack_nack_seq_error"), "the receiver's ACKs are all in window");
        assertEquals(r.framesOnLink(), r.tx().get("tx_ok") + r.tx().get("tx_poisoned"));
        if (loss + bad > 0) {
            assertTrue(r.replayedFrames() > 0 && r.tx().get("tx_replay") > 0, "replays happened: " + r.tx());
        }
    }

    /** What arrives is the offered frames in order, without repeats, minus those lost in an outage. */
    static void assertInOrderWithoutRepeats(LlrLinkRun.Result r) {
        int i = 0;
        for (byte[] g : r.good()) {
            while (i < r.offered().size() && !java.util.Arrays.equals(r.offered().get(i), g)) {
                i++;
            }
            assertTrue(i < r.offered().size(), "a delivered frame out of order or repeated");
            i++;
        }
    }

    /** A long outage: the transmitter flushes, re-initialises, and the frames after it arrive in order. */
    @Test
    void anOutageFlushesAndTheLinkComesBack() {
        LlrConfig cfg = LlrConfig.defaults(512).withMaxFrameBytes(2048).withLimits(40, 16384, 800, 3)
                .withFlush(FrameAction.BLOCK, FrameAction.DISCARD, true, 500, 0);
        LlrLinkRun.Result r = new LlrLinkRun(cfg, LlrLinkRun.Faults.clean(20).withOutage(3000, 5000))
                .run(1500, new Random(4), 0, 90, 100, 400_000);
        List<byte[]> good = r.good();
        assertInOrderWithoutRepeats(r);
        assertTrue(r.tx().get("tx_discard") > 0, "frames were discarded in FLUSH: " + r.tx());
        assertTrue(r.tx().get("tx_init_ctl_os") >= 2, "re-initialised after the flush: " + r.tx());
        assertTrue(good.size() > r.offered().size() / 2, "most frames arrive: " + good.size());
        assertEquals(r.discarded(), r.tx().get("tx_discard"), "the frames missing from the output were discarded");
        long lost = r.offered().size() - r.discarded() - good.size();
        assertTrue(lost <= cfg.outstandingFramesMax(), lost + " frames lost: more than the buffer held at the flush");
    }

    /**
     * A link flap with the default re-init: {@code link_up} low for twice the PCS-lost timeout on a link that also
     * loses frames. The transmitter flushes and re-initialises by itself (once, counted), its INIT held until the
     * link is back (INIT, INIT_ECHO, ADVANCE), and later losses are replayed again.
     */
    @Test
    void aLinkFlapReInitialisesByDefaultAndLossesAreReplayedAfterIt() {
        LlrConfig cfg = LlrConfig.builder().maxFrameBytes(2048).outstandingFramesMax(40).outstandingBytesMax(16384)
                .replayTimerCycles(800).replayCountMax(LlrConfig.NO_REPLAY_LIMIT).dataAgeTimeoutCycles(0)
                .initFrameAction(FrameAction.BLOCK).flushFrameAction(FrameAction.BLOCK).build(512);
        assertTrue(cfg.reInitOnFlush(), "the default");
        int down = 2 * cfg.pcsLostTimeoutCycles();
        LlrLinkRun.Result r = new LlrLinkRun(cfg, new LlrLinkRun.Faults(0.01, 0, 0, 20, 3000, down))
                .run(2000, new Random(5), 0, 90, 100, 400_000);
        assertInOrderWithoutRepeats(r);
        assertEquals(1, r.reinits(), "one return from FLUSH to INIT, as the model expects it");
        assertEquals(1, r.tx().get("tx_reinit"), "counted: " + r.tx());
        assertEquals(2, r.tx().get("tx_init_ctl_os"), "one INIT at the start, one as the link came back: " + r.tx());
        assertTrue(r.replayedSinceInit() > 0, "a loss after the re-init replayed: " + r.tx());
        long lost = r.offered().size() - r.good().size();
        assertTrue(lost > 0 && lost <= cfg.outstandingFramesMax(), lost + " frames lost: only what the flush emptied");
        assertEquals(0, r.tx().get("rx_ack_nack_seq_error"), "the receiver's ACKs are all in window after the INIT");
    }
}
