package org.sue.link.tb;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.link.LinkControl;
import org.sue.link.LlrConfig;
import org.sue.link.LlrRx;
import org.sue.link.LlrSideband;
import org.sue.link.LlrTx;
import org.sue.link.LlrTx.LlrTxState;
import org.sue.link.model.LlrTxModel;
import org.sue.sim.Simulator;

/**
 * One direction of an LLR link in the JVM simulator: an {@link LlrTx} sends frames over a faulty link to an
 * {@link LlrRx}, whose ACKs, NACKs and INIT_ECHOs come back over a faulty control channel (INITs go the other way).
 * Every frame that leaves the transmitter is checked against {@link LlrTxModel}; what the receiver passes on is
 * collected.
 */
public final class LlrLinkRun {
    /**
     * What the link does: frames lost or damaged (the receiving MAC flags them bad), control messages lost, the delay
     * each way, and an outage (everything lost, {@code link_up} low at the transmitter) from a cycle for a number of
     * cycles.
     */
    public record Faults(double frameLoss, double frameBad, double ctlLoss, int delay, long outageStart,
                         long outageCycles) {
        public static Faults clean(int delay) {
            return new Faults(0, 0, 0, delay, -1, 0);
        }

        public Faults withOutage(long start, long cycles) {
            return new Faults(frameLoss, frameBad, ctlLoss, delay, start, cycles);
        }

        boolean down(long cycle) {
            return cycle >= outageStart && cycle < outageStart + outageCycles;
        }
    }

    /**
     * Frames offered, what the receiver passed on (tuser: the error flag), both sides' counters; what the model
     * counted: frames replayed (since the last INIT), discarded, returns from FLUSH to INIT.
     */
    public record Result(List<byte[]> offered, List<Boolean> poisoned, List<StreamMonitor.Packet> delivered,
                         Map<String, Long> tx, Map<String, Long> rx, long cycles, long replayedFrames,
                         long replayedSinceInit, long discarded, long reinits, long framesOnLink) {
        /** The frames delivered without the error flag. */
        public List<byte[]> good() {
            return delivered.stream().filter(p -> p.user().signum() == 0).map(StreamMonitor.Packet::bytes).toList();
        }
    }

    private record Timed(long at, byte[] bytes, BigInteger user) {
    }

    private final LlrConfig config;
    private final Faults faults;

    public LlrLinkRun(LlrConfig config, Faults faults) {
        this.config = config;
        this.faults = faults;
    }

    /**
     * Offers {@code frames} random frames (one in {@code poisonEvery} poisoned, 0 for none), with the sender offering
     * {@code validPercent} of the cycles and the transmitting MAC ready {@code macReadyPercent} of them; runs until
     * everything is delivered and acknowledged or {@code maxCycles}.
     */
    public Result run(int frames, Random rnd, int poisonEvery, int validPercent, int macReadyPercent, long maxCycles) {
        Simulator tx = Simulator.compile(Design.elaborate(new LlrTx(config)));
        Simulator rx = Simulator.compile(Design.elaborate(new LlrRx(config)));
        tx.reset();
        rx.reset();
        List<byte[]> offered = new ArrayList<>();
        List<Boolean> poisoned = new ArrayList<>();
        StreamSource txIn = new StreamSource(tx, "s_axis");
        for (int i = 0; i < frames; i++) {
            byte[] b = new byte[1 + rnd.nextInt(rnd.nextInt(8) == 0 ? config.maxFrameBytes() : 3 * config.beatBytes())];
            rnd.nextBytes(b);
            boolean p = poisonEvery > 0 && rnd.nextInt(poisonEvery) == 0;
            offered.add(b);
            poisoned.add(p);
            txIn.add(b, BigInteger.valueOf(p ? 1 : 0));
        }
        LlrTxModel model = new LlrTxModel(offered, config);
        StreamSource rxIn = new StreamSource(rx, "s_axis");
        StreamMonitor delivered = new StreamMonitor(rx, "m_axis", null);
        ArrayDeque<Timed> onLink = new ArrayDeque<>();
        ArrayDeque<Timed> toRx = new ArrayDeque<>();
        ArrayDeque<Timed> toTx = new ArrayDeque<>();
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        LinkControl.Codes codes = config.codes();
        long framesOnLink = 0;
        long quiet = 0;
        long c = 0;
        for (; c < maxCycles && quiet < 4 * config.replayTimerCycles(); c++) {
            boolean down = faults.down(c);
            // transmitter inputs
            tx.poke("llr_enable", 1);
            tx.poke("link_up", down ? 0 : 1);
            tx.poke("m_axis_tready", rnd.nextInt(100) < macReadyPercent ? 1 : 0);
            tx.poke("ctl_out_ready", 1);
            deliver(tx, toTx, c);
            txIn.drive(rnd, validPercent);
            // receiver inputs
            rx.poke("llr_enable", 1);
            rx.poke("ctl_out_ready", 1);
            deliver(rx, toRx, c);
            while (!onLink.isEmpty() && onLink.peek().at() <= c) {
                Timed t = onLink.poll();
                rxIn.add(t.bytes(), t.user());
            }
            rxIn.drive(rnd, 100);

            // frames leaving the transmitter
            if (tx.peek("m_axis_tvalid") == 1 && tx.peek("m_axis_tready") == 1) {
                BigInteger user = tx.peekBig(tx.handle("m_axis_tuser"));
                writeBeat(tx, frame);
                if (tx.peek("m_axis_tlast") == 1) {
                    byte[] bytes = frame.toByteArray();
                    frame.reset();
                    boolean llr = field(user, "llr") == 1;
                    int seq = (int) field(user, "seq");
                    model.sent(bytes, llr, seq);
                    framesOnLink++;
                    boolean lost = down || rnd.nextDouble() < faults.frameLoss();
                    boolean bad = rnd.nextDouble() < faults.frameBad();
                    if (!lost) {
                        onLink.add(new Timed(c + faults.delay(), bytes, LlrSideband.received(user, bad)));
                    }
                }
            }
            // control messages each way
            boolean initSent = tx.peek("ctl_out_valid") == 1 && tx.peek("ctl_out_type") == codes.init();
            LlrTxState state = LlrTxState.of(tx.peek("tx_state"));
            model.cycle(state, !down, true, initSent);
            if (initSent) {
                model.init((int) tx.peek("ctl_out_value"));
            }
            if (tx.peek("ctl_out_valid") == 1) {
                send(tx, toRx, c, down, rnd);
            }
            if (rx.peek("ctl_out_valid") == 1) {
                send(rx, toTx, c, down, rnd);
            }
            if (tx.peek("ctl_in_valid") == 1 && (state == LlrTxState.ADVANCE || state == LlrTxState.REPLAY)
                    && (tx.peek("ctl_in_type") == codes.ack() || tx.peek("ctl_in_type") == codes.nack())) {
                model.acked((int) tx.peek("ctl_in_value"));
            }
            boolean busy = !txIn.idle() || !rxIn.idle() || !onLink.isEmpty() || tx.peek("outstanding_frames") != 0
                    || state != LlrTxState.ADVANCE;
            quiet = busy ? 0 : quiet + 1;
            txIn.advance();
            rxIn.advance();
            tx.step();
            rx.step();
        }
        Result r = new Result(offered, poisoned, delivered.packets(), counters(tx), counters(rx), c,
                model.replayed(), model.replayedSinceInit(), model.skipped(), model.reinits(), framesOnLink);
        tx.close();
        rx.close();
        return r;
    }

    private static long field(BigInteger user, String name) {
        return LlrSideband.TX.field(name).get(user);
    }

    private static void writeBeat(Simulator sim, ByteArrayOutputStream frame) {
        long[] d = sim.peekWide(sim.handle("m_axis_tdata"));
        long[] k = sim.peekWide(sim.handle("m_axis_tkeep"));
        int lanes = sim.signal("m_axis_tkeep").width();
        for (int i = 0; i < lanes; i++) {
            if (((k[i / 64] >>> (i % 64)) & 1) != 0) {
                frame.write((int) (d[i / 8] >>> (8 * (i % 8))));
            }
        }
    }

    /** A control message that left {@code sim} this cycle goes on the channel, unless lost. */
    private void send(Simulator sim, ArrayDeque<Timed> channel, long cycle, boolean down, Random rnd) {
        if (down || rnd.nextDouble() < faults.ctlLoss()) {
            return;
        }
        channel.add(new Timed(cycle + faults.delay(), null, ControlPorts.offered(sim)));
    }

    /** At most one message a cycle into {@code sim}'s ctl_in, in order. */
    private static void deliver(Simulator sim, ArrayDeque<Timed> channel, long cycle) {
        Timed t = channel.peek();
        ControlPorts.deliver(sim, t != null && t.at() <= cycle ? channel.poll().user() : null);
    }

    private static Map<String, Long> counters(Simulator sim) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (var p : sim.topPorts()) {
            String n = p.signal().name();
            if (n.startsWith("tx_") && !n.equals("tx_state") || n.startsWith("rx_") && !n.equals("rx_state")) {
                m.put(n, sim.peek(n));
            }
        }
        return m;
    }
}
