package org.sue.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.core.Design;
import org.sue.link.LlrTx.LlrTxState;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.sim.Simulator;

/**
 * LLR transmit against a scripted peer: the outstanding limits hold frames back, ACKs outside the window are counted
 * and change nothing, replays without an ACK end in FLUSH after {@code replayCountMax}, a frame too old flushes, a
 * lost link flushes (and with {@code reInitOnFlush} re-initialises, its INIT held until the link is back), and with LLR off frames pass
 * without numbers.
 */
class LlrTxTest {
    /**
     * A transmitter with frames queued once it is through INIT, a MAC always ready and a peer that answers INIT at
     * once (frames offered while it is still OFF, just out of reset, would leave without numbers).
     */
    static final class Bench {
        final LlrConfig cfg;
        final Simulator sim;
        final StreamSource source;
        final StreamMonitor sent;
        int ackValue = -1;
        boolean ackIsNack;
        boolean linkUp = true;
        boolean enable = true;

        Bench(LlrConfig cfg, int frames, int bytes) {
            this(cfg, frames, bytes, true);
        }

        Bench(LlrConfig cfg, int frames, int bytes, boolean enable) {
            this.cfg = cfg;
            this.enable = enable;
            sim = Simulator.compile(Design.elaborate(new LlrTx(cfg)));
            sim.reset();
            source = new StreamSource(sim, "s_axis");
            sent = new StreamMonitor(sim, "m_axis", null);
            run(5);
            assertEquals(enable ? LlrTxState.ADVANCE : LlrTxState.OFF, state());
            Random rnd = new Random(frames);
            for (int i = 0; i < frames; i++) {
                byte[] b = new byte[bytes];
                rnd.nextBytes(b);
                source.add(b, BigInteger.ZERO);
            }
        }

        void run(long cycles) {
            for (long c = 0; c < cycles; c++) {
                boolean echo = sim.peek("ctl_out_valid") == 1; // the INIT just sent, echoed straight back
                sim.poke("ctl_in_valid", echo || ackValue >= 0 ? 1 : 0);
                sim.poke("ctl_in_type", echo ? cfg.codes().initEcho() : ackIsNack ? cfg.codes().nack()
                        : cfg.codes().ack());
                sim.poke("ctl_in_value", echo ? sim.peek("ctl_out_value") : Math.max(ackValue, 0));
                sim.poke("ctl_in_vc", 0);
                ackValue = -1;
                sim.poke("ctl_out_ready", 1);
                sim.poke("m_axis_tready", 1);
                sim.poke("llr_enable", enable ? 1 : 0);
                sim.poke("link_up", linkUp ? 1 : 0);
                source.drive(null, 100);
                LlrTxState s = state();
                boolean usable = s == LlrTxState.ADVANCE || s == LlrTxState.REPLAY || s == LlrTxState.OFF && linkUp;
                assertEquals(usable ? 1 : 0, sim.peek("link_usable"), "link_usable in " + s + ", link_up " + linkUp);
                source.advance();
                sim.step();
            }
        }

        LlrTxState state() {
            return LlrTxState.of(sim.peek("tx_state"));
        }

        /** An ACK (or NACK, with {@code ackIsNack}) of {@code seq}, modulo 2^20, in the next cycle. */
        void ack(long seq) {
            ackValue = (int) (seq & 0xfffff);
        }

        long numbered() {
            return sent.packets().stream().filter(p -> LlrSideband.TX.field("llr").get(p.user()) == 1).count();
        }
    }

    /** Frames wait during INIT (the default would send the first ones without numbers). */
    static LlrConfig config(int frames, int bytes) {
        return LlrConfig.defaults(512).withMaxFrameBytes(1024).withLimits(frames, bytes, 100_000, 3)
                .withFlush(FrameAction.BLOCK, FrameAction.BEST_EFFORT, false, 1000, 0);
    }

    @Test
    void theOutstandingLimitsHoldFramesBack() {
        Bench byFrames = new Bench(config(12, 100_000), 100, 100);
        byFrames.run(2000);
        assertEquals(12, byFrames.numbered(), "frames limit");
        assertEquals(12, byFrames.sim.peek("outstanding_frames"));
        // 2-beat frames: after 3000 bytes (47 beats of 64 bytes) no new frame starts: 24 frames, 48 beats
        Bench byBytes = new Bench(config(100, 3000), 100, 100);
        byBytes.run(2000);
        assertEquals(24, byBytes.numbered(), "bytes limit, counted in whole beats");
        byBytes.ack(byBytes.sim.peek("una") + 9); // frees ten frames
        byBytes.run(200);
        assertEquals(34, byBytes.numbered(), "ten more after an ACK of ten");
        assertEquals(0, byBytes.sim.peek("rx_ack_nack_seq_error"));
    }

    @Test
    void anAckOutsideTheWindowIsCountedAndIgnored() {
        Bench b = new Bench(config(12, 100_000), 100, 100);
        b.run(500);
        long una = b.sim.peek("una");
        b.ack(una + 40); // beyond the newest frame sent
        b.run(5);
        b.ack(una - 3); // older than the oldest unacknowledged
        b.run(5);
        assertEquals(2, b.sim.peek("rx_ack_nack_seq_error"));
        assertEquals(una, b.sim.peek("una"));
        assertEquals(12, b.numbered());
        b.ack(una - 1); // acknowledges nothing new: in the window, no error
        b.run(5);
        assertEquals(2, b.sim.peek("rx_ack_nack_seq_error"));
    }

    @Test
    void aNackReplaysTheFramesAfterIt() {
        Bench b = new Bench(config(12, 100_000), 12, 200);
        b.run(500);
        long una = b.sim.peek("una");
        b.ack(una + 4);
        b.ackIsNack = true;
        b.run(300);
        assertEquals(12 + 7, b.sent.packets().size(), "frames 5..11 sent again");
        for (int i = 0; i < 7; i++) {
            StreamMonitor.Packet replay = b.sent.packets().get(12 + i);
            assertEquals(una + 5 + i, LlrSideband.TX.field("seq").get(replay.user()), "number of replay " + i);
            assertEquals(java.util.Arrays.toString(b.sent.packets().get(5 + i).bytes()),
                    java.util.Arrays.toString(replay.bytes()), "bytes of replay " + i);
        }
        assertEquals(1, b.sim.peek("tx_replay"));
        assertEquals(LlrTxState.ADVANCE, b.state());
    }

    @Test
    void replaysWithoutAnAckEndInFlush() {
        LlrConfig cfg = config(8, 100_000).withLimits(8, 100_000, 300, 3);
        Bench b = new Bench(cfg, 8, 100);
        b.run(300 * 4 + 400);
        assertEquals(3, b.sim.peek("tx_replay"), "three timer replays");
        assertEquals(8 * 4, b.numbered(), "each replay sends all eight again");
        assertEquals(LlrTxState.FLUSH, b.state(), "then FLUSH, and it stays (no re-init)");
        assertEquals(0, b.sim.peek("outstanding_frames"), "the buffer is emptied");
        assertEquals(0, b.sim.peek("tx_reinit"));
        b.enable = false; // management takes LLR down and up again
        b.run(5);
        assertEquals(LlrTxState.OFF, b.state());
        b.enable = true;
        b.run(5);
        assertEquals(LlrTxState.ADVANCE, b.state(), "INIT, answered at once");
        assertEquals(2, b.sim.peek("tx_init_ctl_os"));
    }

    /**
     * A lost link's FLUSH that falls due during a timer replay, at every point of it: it waits for the replayed frame
     * on the output to end and starts no other, so every frame the MAC sees is whole (a cut one would run into the
     * next, here one sent best effort after the flush).
     */
    @Test
    void aFlushDuringAReplayCutsNoFrame() {
        LlrConfig cfg = LlrConfig.defaults(512).withMaxFrameBytes(1024).withLimits(8, 100_000, 300,
                LlrConfig.NO_REPLAY_LIMIT).withFlush(FrameAction.BLOCK, FrameAction.BEST_EFFORT, false, 100, 0);
        Bench probe = new Bench(cfg, 8, 100);
        while (probe.state() != LlrTxState.REPLAY) {
            probe.run(1);
        }
        long replayAt = probe.sim.cycle();
        for (int offset = 0; offset < 20; offset++) {
            Bench b = new Bench(cfg, 8, 100);
            b.run(replayAt - b.sim.cycle() - 101 + offset); // the flush falls due offset cycles into the replay
            b.linkUp = false;
            b.run(300);
            assertEquals(LlrTxState.FLUSH, b.state(), "flushed, offset " + offset);
            b.source.add(new byte[100], BigInteger.ZERO); // sent best effort in FLUSH: it would end a cut frame
            b.run(20);
            for (StreamMonitor.Packet p : b.sent.packets()) {
                assertEquals(100, p.bytes().length, "a whole frame, offset " + offset + ", cycle " + p.cycle());
            }
        }
    }

    @Test
    void anOldFrameOrALostLinkFlushes() {
        LlrConfig aged = LlrConfig.defaults(512).withMaxFrameBytes(1024).withLimits(8, 100_000, 300,
                LlrConfig.NO_REPLAY_LIMIT).withFlush(FrameAction.BLOCK, FrameAction.BEST_EFFORT, false, 1000, 2000);
        Bench b = new Bench(aged, 8, 100);
        b.run(1900);
        assertTrue(b.state() == LlrTxState.ADVANCE || b.state() == LlrTxState.REPLAY,
                "replaying, not yet too old");
        b.run(300);
        assertEquals(LlrTxState.FLUSH, b.state(), "the oldest frame waited 2000 cycles");

        Bench lost = new Bench(aged.withFlush(FrameAction.BLOCK, FrameAction.BEST_EFFORT, true, 100, 0), 8, 100);
        lost.run(50);
        lost.linkUp = false;
        lost.run(100);
        assertEquals(LlrTxState.ADVANCE, lost.state(), "down for 100 cycles: not yet");
        lost.run(10);
        assertEquals(LlrTxState.INIT, lost.state(), "flushed after 101 cycles, and re-initialised at once");
        assertEquals(1, lost.sim.peek("tx_reinit"));
        lost.run(5000);
        assertEquals(1, lost.sim.peek("tx_init_ctl_os"), "no INIT into a dead link, though INIT is due again");
        lost.linkUp = true;
        lost.run(5);
        assertEquals(LlrTxState.ADVANCE, lost.state(), "the INIT left as the link came back, answered at once");
        assertEquals(2, lost.sim.peek("tx_init_ctl_os"));
        assertEquals(1, lost.sim.peek("tx_reinit"));
    }

    @Test
    void withLlrOffFramesPassWithoutNumbers() {
        Bench b = new Bench(config(12, 100_000), 30, 150, false);
        b.run(300);
        assertEquals(30, b.sent.packets().size());
        assertEquals(0, b.numbered());
        assertEquals(LlrTxState.OFF, b.state());
        assertEquals(30, b.sim.peek("tx_ok"));
    }
}
