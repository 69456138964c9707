package org.sue.instance.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Random;
import org.sue.link.MacControlDemux;
import org.sue.net.model.FrameCodec;

/**
 * One direction of the network between two SUE instances: frames enter when their last beat left the sender and come
 * out {@code delay} cycles later, unless lost. Faults, each seeded: independent loss at {@code lossRate}, a bit flip
 * at {@code bitErrorRate} per frame (the receiver's FCS check then fails), the MAC's error flag at {@code macErrorRate}, bursts (with {@code burstRate} per frame a
 * run of {@code burstLength} frames is lost) and an outage (every frame in a window of cycles is lost). It counts
 * what it did, so a test can hold the receiver's counters against it. With Link Layer Retry a frame carries its LLR
 * sideband, and link-control messages cross on a channel of their own (same delay, lost at the same rate and in the
 * outage). {@link #up} takes the link down and back at run time: while down it loses everything sent into it.
 * {@link #blackHole} loses the SUE frames only, while the link stays up: the far end's way to the peer is broken, not
 * the link (MAC Control frames and link-control messages still cross).
 *
 * <p>The sender and the receiver may run on two threads ({@link SideClock}): what crosses is synchronized, and the
 * receiver takes only what has arrived, which the delay keeps out of the sender's current window.
 */
public final class LinkModel {
    /** How a link misbehaves; all rates per frame. */
    public record Faults(double lossRate, double bitErrorRate, double macErrorRate, double burstRate,
                         int burstLength, long outageFrom, long outageLength, long dropFrame) {
        public static final Faults NONE = new Faults(0, 0, 0, 0, 0, -1, 0, -1);

        public static Faults loss(double rate) {
            return NONE.withLoss(rate);
        }

        /** Loses only the {@code n}-th frame (counted from 0). */
        public static Faults dropFrame(long n) {
            return new Faults(0, 0, 0, 0, 0, -1, 0, n);
        }

        public Faults withLoss(double rate) {
            return new Faults(rate, bitErrorRate, macErrorRate, burstRate, burstLength, outageFrom, outageLength,
                    dropFrame);
        }

        /** A bit flipped in the frame: the receiver's FCS check fails. */
        public Faults withBitErrors(double rate) {
            return new Faults(lossRate, rate, macErrorRate, burstRate, burstLength, outageFrom, outageLength,
                    dropFrame);
        }

        /** The frame arrives intact but the MAC flags it bad (s_axis_tuser), as after an uncorrectable FEC block. */
        public Faults withMacErrors(double rate) {
            return new Faults(lossRate, bitErrorRate, rate, burstRate, burstLength, outageFrom, outageLength,
                    dropFrame);
        }

        public Faults withBursts(double rate, int length) {
            return new Faults(lossRate, bitErrorRate, macErrorRate, rate, length, outageFrom, outageLength,
                    dropFrame);
        }

        public Faults withOutage(long from, long length) {
            return new Faults(lossRate, bitErrorRate, macErrorRate, burstRate, burstLength, from, length, dropFrame);
        }
    }

    /**
     * A frame in flight: its bytes, the cycle it reaches the receiver, whether its MAC flags it bad, and the LLR
     * sideband it was sent with (null without LLR).
     */
    public record InFlight(byte[] frame, long arrival, boolean macError, BigInteger sideband) {
        /** The receiving MAC finds the frame bad: it flags it, or its FCS check fails (a bit flipped on the way). */
        public boolean bad() {
            return macError || !FrameCodec.fcsOk(frame);
        }
    }

    /** A link-control message in flight. */
    public record Control(BigInteger message, long arrival) {
    }

    private final int delay;
    private final Faults faults;
    private final Random rnd;
    private final ArrayDeque<InFlight> flight = new ArrayDeque<>();
    private final ArrayDeque<Control> controls = new ArrayDeque<>();
    private int burstLeft;
    private boolean down;
    private boolean blackHole;
    private long sent;
    private long lost;
    private long damaged;
    private long flagged;
    private long lastLossCycle = -1;

    public LinkModel(int delay, Faults faults, Random rnd) {
        if (delay < 0) {
            throw new IllegalArgumentException("LinkModel delay must be at least 0 cycles, got " + delay);
        }
        this.delay = delay;
        this.faults = faults;
        this.rnd = rnd;
    }

    /** A frame left the sender at {@code cycle}. */
    public void send(byte[] frame, long cycle) {
        send(frame, null, cycle);
    }

    /**
     * Takes the link down ({@code false}) or brings it back: while down every frame and control message sent into it
     * is lost (frames counted in {@link #lost}); what was already on its way still arrives.
     */
    public LinkModel up(boolean on) {
        down = !on;
        return this;
    }

    /** Loses every frame but MAC Control frames sent into it while on ({@code true}); the link stays up. */
    public synchronized LinkModel blackHole(boolean on) {
        blackHole = on;
        return this;
    }

    public boolean isUp() {
        return !down;
    }

    /** A link-control message left the sender at {@code cycle}. */
    public synchronized void sendControl(BigInteger message, long cycle) {
        if (!down && !inOutage(cycle) && rnd.nextDouble() >= faults.lossRate()) {
            controls.addLast(new Control(message, cycle + delay));
        }
    }

    /** The next control message that has arrived by {@code cycle}, or null. */
    public synchronized BigInteger arrivedControl(long cycle) {
        Control c = controls.peekFirst();
        return c == null || c.arrival() > cycle ? null : controls.pollFirst().message();
    }

    private boolean inOutage(long cycle) {
        return cycle >= faults.outageFrom() && cycle < faults.outageFrom() + faults.outageLength();
    }

    /** A frame with its LLR sideband (null for none) left the sender at {@code cycle}. */
    public synchronized void send(byte[] frame, BigInteger sideband, long cycle) {
        boolean chosen = sent == faults.dropFrame();
        sent++;
        boolean inOutage = inOutage(cycle);
        if (burstLeft == 0 && faults.burstRate() > 0 && rnd.nextDouble() < faults.burstRate()) {
            burstLeft = faults.burstLength();
        }
        boolean swallowed = blackHole && !macControl(frame);
        if (chosen || inOutage || down || swallowed || burstLeft > 0 || rnd.nextDouble() < faults.lossRate()) {
            burstLeft = Math.max(0, burstLeft - 1);
            lost++;
            lastLossCycle = cycle;
            return;
        }
        byte[] f = frame.clone();
        // a frame the MAC flags is dropped for that alone, so it is never also counted as damaged
        boolean macError = faults.macErrorRate() > 0 && rnd.nextDouble() < faults.macErrorRate();
        if (macError) {
            flagged++;
        } else if (rnd.nextDouble() < faults.bitErrorRate()) {
            int bit = rnd.nextInt(8 * f.length);
            f[bit / 8] ^= (byte) (1 << (bit % 8));
            damaged++;
        }
        flight.addLast(new InFlight(f, cycle + delay, macError, sideband));
    }

    /** The next frame that has arrived by {@code cycle}, or null. */
    public synchronized InFlight arrived(long cycle) {
        InFlight f = flight.peekFirst();
        if (f == null || f.arrival() > cycle) {
            return null;
        }
        return flight.pollFirst();
    }

    public synchronized boolean empty() {
        return flight.isEmpty() && controls.isEmpty();
    }

    /** No frame on the way (control messages may be). */
    public synchronized boolean noFrameInFlight() {
        return flight.isEmpty();
    }

    /**
     * No data frame in flight: only link-level traffic that never ends (MAC Control frames such as the periodic
     * CC_Updates, control messages such as CF_Updates at their maximum spacing) may be.
     */
    public synchronized boolean noDataInFlight() {
        return flight.stream().allMatch(f -> macControl(f.frame()));
    }

    /** A MAC Control frame (PFC, CC_Update): link-level traffic, by its EtherType. */
    public static boolean macControl(byte[] frame) {
        return frame.length >= 14 && ((frame[12] & 0xff) << 8 | frame[13] & 0xff) == MacControlDemux.ETHER_TYPE;
    }

    public long sent() {
        return sent;
    }

    public long lost() {
        return lost;
    }

    public long damaged() {
        return damaged;
    }

    /** Frames delivered with the MAC's error flag. */
    public long flagged() {
        return flagged;
    }

    /** The cycle the last lost frame left its sender, -1 if none was lost. */
    public long lastLossCycle() {
        return lastLossCycle;
    }
}
