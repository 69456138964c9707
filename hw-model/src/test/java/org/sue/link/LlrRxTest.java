package org.sue.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.link.model.LlrRxModel;
import org.sue.link.tb.LlrFrames;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.sim.Simulator;

/**
 * LLR receive against {@link LlrRxModel}: frames in order, lost, replayed, out of range, bad, poisoned and without a
 * sequence number, INITs, {@code llr_enable} taken away, the control channel stalling. Every frame passes or is
 * discarded as the model says, every counter equals the model's, every ACK and NACK carries the model's last good
 * sequence number in a state that allows it, and each message leaves the output stage unchanged and in order.
 */
class LlrRxTest {
    @ParameterizedTest
    @CsvSource({"256,1", "512,2", "1024,3"})
    void framesAndMessagesFollowTheModel(int width, long seed) {
        LlrConfig cfg = LlrConfig.defaults(width).withLimits(64, 16384, 400, 3);
        Simulator sim = Simulator.compile(Design.elaborate(new LlrRx(cfg)));
        sim.reset();
        Random rnd = new Random(seed);
        StreamSource source = new StreamSource(sim, "s_axis");
        StreamMonitor delivered = new StreamMonitor(sim, "m_axis", null);
        LlrFrames traffic = new LlrFrames(rnd, cfg.beatBytes());
        List<LlrFrames.Frame> frames = new ArrayList<>(); // made as the source needs them: the sender reacts
        LlrRxModel model = new LlrRxModel();
        List<LlrFrames.Frame> passed = new ArrayList<>();
        ArrayDeque<long[]> messages = new ArrayDeque<>(); // {type, value} as they entered the output stage
        LinkControl.Codes codes = cfg.codes();
        int frame = 0;
        boolean firstBeat = true;
        LlrRxModel.Kind kind = null;
        int enabledFor = 1;
        long acks = 0;
        long nacks = 0;
        int acked = traffic.nextSeq() - 1;
        long heard = 0;
        for (long c = 0; c < 60_000 && (frames.size() < 3000 || frame < frames.size() || !messages.isEmpty()); c++) {
            if (source.idle() && frames.size() < 3000) {
                LlrFrames.Frame f = traffic.next();
                frames.add(f);
                source.add(f.bytes(), f.rxUser());
            }
            // inputs
            boolean enable = enabledFor > 0 || rnd.nextInt(60) == 0;
            enabledFor = enable ? (enabledFor > 0 ? enabledFor - 1 : 3000 + rnd.nextInt(3000)) : 0;
            if (enabledFor == 0 && rnd.nextInt(4) > 0) {
                enable = true; // short absences
            }
            sim.poke("llr_enable", enable ? 1 : 0);
            boolean init = c == 2 || rnd.nextInt(900) == 0;
            int otherType = rnd.nextInt(200) == 0 ? codes.ack() : 0; // not for the receive side: ignored
            int initValue = c == 2 ? traffic.nextSeq() : rnd.nextBoolean() ? traffic.nextSeq() : rnd.nextInt(1 << 20);
            sim.poke("ctl_in_valid", init || otherType != 0 ? 1 : 0);
            sim.poke("ctl_in_type", init ? codes.init() : otherType);
            sim.poke("ctl_in_value", initValue);
            sim.poke("ctl_in_vc", 0);
            sim.poke("ctl_out_ready", rnd.nextInt(3) > 0 ? 1 : 0);
            source.drive(rnd, c < 20 ? 0 : 75);

            // this cycle's decisions, from the state before the edge
            boolean beat = sim.peek("s_axis_tvalid") == 1;
            boolean last = beat && sim.peek("s_axis_tlast") == 1;
            LlrFrames.Frame f = frame < frames.size() ? frames.get(frame) : null;
            if (beat && firstBeat) {
                boolean passes = model.passes(f.llr(), f.seq());
                kind = f.llr() && model.state() != LlrRxModel.State.OFF ? model.kind(f.seq()) : null;
                if (passes) {
                    passed.add(f);
                }
            }
            int lastGood = (int) sim.peek("last_good");
            assertEquals(model.lastGood(), lastGood, "last good sequence number at cycle " + c);
            if (sim.peek("ack_sent") == 1) {
                assertEquals(LlrRxModel.State.SEND_ACKS, model.state(), "an ACK at cycle " + c);
                messages.add(new long[] {codes.ack(), lastGood});
                acks++;
            }
            if (sim.peek("nack_sent") == 1) {
                assertEquals(LlrRxModel.State.SEND_NACK, model.state(), "a NACK at cycle " + c);
                messages.add(new long[] {codes.nack(), lastGood});
                nacks++;
            }
            if (sim.peek("echo_sent") == 1) {
                messages.add(new long[] {codes.initEcho(), sim.peek("echo_value")});
            }
            if (sim.peek("ctl_out_valid") == 1 && sim.peek("ctl_out_ready") == 1) {
                long[] m = messages.poll();
                assertTrue(m != null, "a message out of nowhere at cycle " + c);
                assertEquals(m[0], sim.peek("ctl_out_type"), "message type at cycle " + c);
                assertEquals(m[1], sim.peek("ctl_out_value"), "message value at cycle " + c);
                // the sender: an ACK frees, a NACK (unless lost) replays after it
                if (m[0] == codes.ack() || m[0] == codes.nack()) {
                    acked = (int) m[1];
                    heard = c;
                }
                if (m[0] == codes.nack() && rnd.nextInt(10) > 0) {
                    traffic.goBackTo(acked + 1);
                }
            }
            if (c - heard > 600) { // the sender's replay timer
                traffic.goBackTo(acked + 1);
                heard = c;
            }
            // the edge
            if (last) {
                model.frameEnd(kind, f.bad(), f.poisoned());
            }
            if (sim.peek("nack_sent") == 1) {
                model.nackSent();
            }
            if (init) {
                model.init(initValue, enable);
            }
            if (!enable) {
                model.disable();
            }
            if (beat) {
                firstBeat = last;
                frame += last ? 1 : 0;
            }
            source.advance();
            sim.step();
        }
        assertEquals(frames.size(), frame, "every frame went in");
        assertEquals(passed.size(), delivered.packets().size(), "frames passed on");
        for (int i = 0; i < passed.size(); i++) {
            assertArrayEquals(passed.get(i).bytes(), delivered.packets().get(i).bytes(), "frame passed " + i);
            assertEquals(passed.get(i).bad() || passed.get(i).poisoned() ? 1 : 0,
                    delivered.packets().get(i).user().intValue(), "error flag of frame passed " + i);
        }
        for (Map.Entry<String, Long> e : model.counters().entrySet()) {
            assertEquals(e.getValue(), sim.peek(e.getKey()), e.getKey());
        }
        assertEquals(acks, sim.peek("tx_ack_ctl_os"));
        assertEquals(nacks, sim.peek("tx_nack_ctl_os"));
        assertTrue(acks > 50 && nacks > 20 && model.counters().get("rx_replay") > 10
                && model.counters().get("rx_duplicate_seq") > 10, "the traffic reached every case: acks " + acks
                + ", nacks " + nacks + ", " + model.counters());
    }
}
