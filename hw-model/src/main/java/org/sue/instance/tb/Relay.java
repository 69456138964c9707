package org.sue.instance.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Random;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.link.LlrConfig;
import org.sue.link.LlrRx;
import org.sue.link.LlrSideband;
import org.sue.link.LlrTx;
import org.sue.link.tb.ControlPorts;
import org.sue.sim.Simulator;

/**
 * A switch between the two sides of a {@link TwoXpuRun}, for runs whose transport round trip is longer than one
 * link's: each side's link ends at a port of the relay, and a frame a port takes in crosses the relay in
 * {@code fabricDelay} cycles to the other port, which sends it on at one beat per cycle. The fabric loses nothing and
 * holds what a port cannot send yet. With Link Layer Retry each port is an LLR endpoint configured like the
 * instances ({@link LlrTx} and {@link LlrRx} in the JVM simulator, their messages on the link's control channel), so
 * each hop repairs its own losses, as LLR works hop by hop. Either way a port drops what arrives bad (a
 * store-and-forward switch checks the FCS): with LLR the good copy follows, replayed.
 */
public final class Relay {
    /** A frame crossing the fabric: its bytes and the cycle it reaches the far port. */
    private record Crossing(byte[] frame, long at) {
    }

    private final int fabricDelay;
    private final int beatBytes;
    private final Port towardsA;
    private final Port towardsB;

    /**
     * @param llr         the instances' Link Layer Retry, or null for none
     * @param busWidth    bits a cycle on each port
     * @param fabricDelay cycles from a frame's last beat in at one port to its first beat out at the other
     * @param fromA       the link from side A to the relay; {@code toA} the one back, and likewise for B
     */
    public Relay(LlrConfig llr, int busWidth, int fabricDelay, LinkModel fromA, LinkModel toA, LinkModel fromB,
                 LinkModel toB) {
        if (fabricDelay < 0) {
            throw new IllegalArgumentException("Relay fabricDelay must be at least 0 cycles, got " + fabricDelay);
        }
        this.fabricDelay = fabricDelay;
        this.beatBytes = busWidth / 8;
        towardsA = new Port(llr, fromA, toA);
        towardsB = new Port(llr, fromB, toB);
        towardsA.other = towardsB;
        towardsB.other = towardsA;
    }

    /** Inputs of one cycle, before the clock edge. */
    public void drive(long now) {
        towardsA.drive(now);
        towardsB.drive(now);
    }

    public void step() {
        towardsA.step();
        towardsB.step();
    }

    /** No frame in the fabric, in a port or on the links out of the relay. */
    public boolean noDataInFlight() {
        return towardsA.idle() && towardsB.idle();
    }

    /** Frames that arrived bad (FCS or the MAC's flag) and were dropped: a store-and-forward switch. */
    public long dropped() {
        return towardsA.dropped + towardsB.dropped;
    }

    /** One port: the link in from its side, the link out to it, and with LLR the port's transmitter and receiver. */
    private final class Port {
        final LinkModel in;
        final LinkModel out;
        final ArrayDeque<Crossing> toSend = new ArrayDeque<>();
        final Simulator tx;
        final Simulator rx;
        final StreamSource txIn;
        final StreamSource rxIn;
        final StreamMonitor rxOut;
        Port other;
        long freeAt;
        long dropped;

        Port(LlrConfig llr, LinkModel in, LinkModel out) {
            this.in = in;
            this.out = out;
            if (llr == null) {
                tx = rx = null;
                txIn = rxIn = null;
                rxOut = null;
                return;
            }
            tx = Simulator.compile(Design.elaborate(new LlrTx(llr)));
            rx = Simulator.compile(Design.elaborate(new LlrRx(llr)));
            tx.reset();
            rx.reset();
            txIn = new StreamSource(tx, "s_axis");
            rxIn = new StreamSource(rx, "s_axis");
            StreamMonitor txOut = new StreamMonitor(tx, "m_axis", null);
            txOut.onPacket(p -> out.send(p.bytes(), p.user(), p.cycle()));
            rxOut = new StreamMonitor(rx, "m_axis", null);
            rxOut.onPacket(p -> {
                if (p.user().signum() != 0) { // LLR passes a bad copy of the expected frame on, flagged
                    dropped++;
                } else {
                    other.toSend.add(new Crossing(p.bytes(), p.cycle() + fabricDelay));
                }
            });
            for (Simulator s : new Simulator[] {tx, rx}) {
                s.poke("llr_enable", 0); // on at the first drive, so the INIT goes out while the link is driven
                s.poke("ctl_out_ready", 1);
            }
            tx.poke("link_up", 1);
            tx.poke("m_axis_tready", 1);
        }

        void drive(long now) {
            if (tx == null) {
                forward(now);
                return;
            }
            // messages: both halves' out on the link, each message in to both (each takes its own types)
            for (Simulator s : new Simulator[] {rx, tx}) {
                s.poke("llr_enable", 1);
                BigInteger m = ControlPorts.offered(s);
                if (m != null) {
                    out.sendControl(m, now);
                }
            }
            BigInteger m = in.arrivedControl(now);
            ControlPorts.deliver(tx, m);
            ControlPorts.deliver(rx, m);
            for (LinkModel.InFlight f = in.arrived(now); f != null; f = in.arrived(now)) {
                rxIn.add(f.frame(), LlrSideband.received(f.sideband(), f.bad()));
            }
            while (!toSend.isEmpty() && toSend.peek().at() <= now) {
                Crossing c = toSend.poll();
                txIn.add(c.frame(), BigInteger.ZERO);
            }
            rxIn.drive(null, 100);
            txIn.drive(null, 100);
            rxIn.advance();
            txIn.advance();
        }

        /** Without LLR: good frames into the fabric, the next one out when the port is free, a beat a cycle. */
        private void forward(long now) {
            for (LinkModel.InFlight f = in.arrived(now); f != null; f = in.arrived(now)) {
                if (f.bad()) {
                    dropped++;
                } else {
                    other.toSend.add(new Crossing(f.frame(), now + fabricDelay));
                }
            }
            Crossing c = toSend.peek();
            if (c != null && c.at() <= now && now >= freeAt) {
                toSend.poll();
                int beats = (c.frame().length + beatBytes - 1) / beatBytes;
                freeAt = now + beats;
                out.send(c.frame(), freeAt - 1); // the link takes a frame as its last beat leaves
            }
        }

        void step() {
            if (tx != null) {
                tx.step();
                rx.step();
            }
        }

        boolean idle() {
            return toSend.isEmpty() && out.noDataInFlight() && (tx == null || txIn.idle() && rxIn.idle());
        }
    }
}
