package org.sue.lib.stream.tb;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.sue.sim.Simulator;

/**
 * Watches one stream interface of a running simulation (any level of the hierarchy: "m_axis" or "tx.m_axis") and
 * collects every packet that crosses it: a beat crosses when tvalid (and tready, if the interface has one) is high
 * at the clock edge. Checks the bus rules on the way (lane 0 set in every beat except an empty last beat, full beats
 * except the last). Packets go to a list and, if given, to a sink such as a pcap file.
 */
public final class StreamMonitor implements Simulator.CycleListener {
    /** A packet as it crossed: its bytes, its tuser (zero if the interface has none) and the cycle of its last beat. */
    public record Packet(byte[] bytes, BigInteger user, long cycle) {
    }

    private final int data;
    private final int keep;
    private final int valid;
    private final int last;
    private final int ready;
    private final int user;
    private final int lanes;
    private final BiConsumer<byte[], Long> sink;
    private Consumer<Packet> packetSink;
    private final List<Packet> packets = new ArrayList<>();
    private ByteArrayOutputStream current = new ByteArrayOutputStream();
    private long beats;
    private long firstBeatCycle = -1;

    /** {@code prefix} e.g. "m_axis" for m_axis_tdata...; {@code sink} may be null. */
    public StreamMonitor(Simulator sim, String prefix, BiConsumer<byte[], Long> sink) {
        data = sim.handle(prefix + "_tdata");
        keep = sim.handle(prefix + "_tkeep");
        valid = sim.handle(prefix + "_tvalid");
        last = sim.handle(prefix + "_tlast");
        ready = has(sim, prefix + "_tready") ? sim.handle(prefix + "_tready") : -1;
        user = has(sim, prefix + "_tuser") ? sim.handle(prefix + "_tuser") : -1;
        lanes = sim.signal(prefix + "_tkeep").width();
        this.sink = sink;
        sim.addListener(this);
    }

    /** Also hands every packet, with its tuser and cycle, to {@code sink} as it completes. */
    public StreamMonitor onPacket(Consumer<Packet> sink) {
        packetSink = sink;
        return this;
    }

    private static boolean has(Simulator sim, String name) {
        try {
            sim.handle(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public void sample(Simulator sim, long cycle) {
        if (sim.peek(valid) == 0 || (ready >= 0 && sim.peek(ready) == 0)) {
            return;
        }
        if (beats++ == 0) {
            firstBeatCycle = cycle;
        }
        long[] d = sim.peekWide(data);
        long[] k = sim.peekWide(keep);
        boolean isLast = sim.peek(last) == 1;
        for (int i = 0; i < lanes; i++) {
            if (((k[i / 64] >>> (i % 64)) & 1) != 0) {
                current.write((int) (d[i / 8] >>> (8 * (i % 8))));
            } else if (!isLast) {
                throw new IllegalStateException("stream rule broken at cycle " + cycle + ": lane " + i
                        + " empty in a beat that is not the last");
            }
        }
        if (isLast) {
            byte[] bytes = current.toByteArray();
            Packet p = new Packet(bytes, user >= 0 ? sim.peekBig(user) : BigInteger.ZERO, cycle);
            packets.add(p);
            if (packetSink != null) {
                packetSink.accept(p);
            }
            if (sink != null) {
                sink.accept(bytes, cycle);
            }
            current = new ByteArrayOutputStream();
        }
    }

    public List<Packet> packets() {
        return packets;
    }

    /** The cycle of the first beat that crossed, -1 before. */
    public long firstBeatCycle() {
        return firstBeatCycle;
    }

    /** Beats that crossed so far. */
    public long beats() {
        return beats;
    }

    @Override
    public void close() {
    }
}
