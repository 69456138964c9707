package org.sue.instance.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
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
 * One port of a {@link Relay} or {@link SwitchModel}: the link in from an instance, the link out to it, an output
 * queue, and with Link Layer Retry the port's LLR transmitter and receiver ({@link LlrTx}, {@link LlrRx} in the JVM
 * simulator, their messages on the links' control channel), so each hop repairs its own losses. A good frame that
 * arrives goes to the owner's {@link Forward}; a bad one (FCS or the MAC's flag) is dropped, as a store-and-forward
 * switch does (with LLR its good copy follows, replayed). Frames queued with {@link #enqueue} leave when due, one
 * after the other at a beat a cycle; a full queue drops what no longer fits.
 */
final class SwitchPort {
    /** Where a good frame that arrived at cycle {@code cycle} goes. */
    interface Forward {
        void frame(byte[] frame, long cycle);
    }

    /** A frame queued to leave: its bytes and the first cycle it may. */
    private record Queued(byte[] frame, long at) {
    }

    private final LinkModel in;
    private final LinkModel out;
    private final int beatBytes;
    private final long queueBytesMax;
    private final ArrayDeque<Queued> toSend = new ArrayDeque<>();
    private final Simulator tx;
    private final Simulator rx;
    private final StreamSource txIn;
    private final StreamSource rxIn;
    private Forward forward;
    private long queuedBytes;
    private long freeAt;
    private long dropped;
    private long queueDrops;

    /**
     * @param llr           the instances' Link Layer Retry, or null for none
     * @param busWidth      bits a cycle out of the port
     * @param queueBytesMax the output queue's size in bytes, 0 for no limit
     * @param in            the link from the instance, {@code out} the one to it
     */
    SwitchPort(LlrConfig llr, int busWidth, long queueBytesMax, LinkModel in, LinkModel out) {
        if (queueBytesMax < 0) {
            throw new IllegalArgumentException("switch port queueBytesMax must be at least 0, got " + queueBytesMax);
        }
        this.in = in;
        this.out = out;
        this.beatBytes = busWidth / 8;
        this.queueBytesMax = queueBytesMax;
        if (llr == null) {
            tx = rx = null;
            txIn = rxIn = null;
            return;
        }
        tx = Simulator.compile(Design.elaborate(new LlrTx(llr)));
        rx = Simulator.compile(Design.elaborate(new LlrRx(llr)));
        tx.reset();
        rx.reset();
        txIn = new StreamSource(tx, "s_axis");
        rxIn = new StreamSource(rx, "s_axis");
        new StreamMonitor(tx, "m_axis", null).onPacket(p -> out.send(p.bytes(), p.user(), p.cycle()));
        new StreamMonitor(rx, "m_axis", null).onPacket(p -> {
            if (p.user().signum() != 0) { // LLR passes a bad copy of the expected frame on, flagged
                dropped++;
            } else {
                forward.frame(p.bytes(), p.cycle());
            }
        });
        for (Simulator s : new Simulator[] {tx, rx}) {
            s.poke("llr_enable", 0); // on at the first drive, so the INIT goes out while the link is driven
            s.poke("ctl_out_ready", 1);
        }
        tx.poke("link_up", 1);
        tx.poke("m_axis_tready", 1);
    }

    void forwardTo(Forward f) {
        forward = f;
    }

    /** Queues a frame to leave from cycle {@code at} on; false (and counted) if the queue has no room for it. */
    boolean enqueue(byte[] frame, long at) {
        if (queueBytesMax > 0 && queuedBytes + frame.length > queueBytesMax) {
            queueDrops++;
            return false;
        }
        queuedBytes += frame.length;
        toSend.add(new Queued(frame, at));
        return true;
    }

    /** Empties the output queue; returns the frames dropped. */
    int flush() {
        int n = toSend.size();
        toSend.clear();
        queuedBytes = 0;
        return n;
    }

    /** Inputs of one cycle, before the clock edge: what arrived goes to the owner, the queue's head out when due. */
    void drive(long now) {
        if (tx == null) {
            for (LinkModel.InFlight f = in.arrived(now); f != null; f = in.arrived(now)) {
                if (f.bad()) {
                    dropped++;
                } else {
                    forward.frame(f.frame(), now);
                }
            }
            Queued c = toSend.peek();
            if (c != null && c.at() <= now && now >= freeAt) {
                dequeue();
                int beats = (c.frame().length + beatBytes - 1) / beatBytes;
                freeAt = now + beats;
                out.send(c.frame(), freeAt - 1); // the link takes a frame as its last beat leaves
            }
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
            txIn.add(dequeue().frame(), BigInteger.ZERO);
        }
        rxIn.drive(null, 100);
        txIn.drive(null, 100);
        rxIn.advance();
        txIn.advance();
    }

    private Queued dequeue() {
        Queued q = toSend.poll();
        queuedBytes -= q.frame().length;
        return q;
    }

    void step() {
        if (tx != null) {
            tx.step();
            rx.step();
        }
    }

    /** With LLR: the PCS status the port's transmitter sees. */
    void linkUp(boolean up) {
        if (tx != null) {
            tx.poke("link_up", up ? 1 : 0);
        }
    }

    /** Nothing queued, none in the port's LLR, no data frame on the link out. */
    boolean idle() {
        return toSend.isEmpty() && out.noDataInFlight() && (tx == null || txIn.idle() && rxIn.idle());
    }

    LinkModel in() {
        return in;
    }

    LinkModel out() {
        return out;
    }

    /** Frames that arrived bad and were dropped. */
    long dropped() {
        return dropped;
    }

    /** Frames the full output queue dropped. */
    long queueDrops() {
        return queueDrops;
    }

    /** Bytes in the output queue (with LLR: not yet handed to the port's transmitter). */
    long queuedBytes() {
        return queuedBytes;
    }
}
