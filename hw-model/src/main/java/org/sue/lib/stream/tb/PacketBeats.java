package org.sue.lib.stream.tb;

import java.math.BigInteger;
import java.util.Random;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;

/**
 * One packet at a time offered beat by beat on a packet-stream input of a running simulation ({@code <prefix>_t*}):
 * the testbench decides each cycle whether to offer the next beat, this class pokes it and, after the testbench's other
 * inputs, takes it when the input is ready. The stimulus that makes the packets keeps its own random sequence. A beat
 * once offered stays offered, unchanged, until it is taken (the stream protocol, {@link StreamProtocolChecker}).
 */
public final class PacketBeats {
    private final Simulator sim;
    private final String prefix;
    private final int lanes;
    private final boolean hasReady;
    private byte[] packet;
    private BigInteger user;
    private int offset;
    private boolean offered;
    /** The beat offered at the last edge was not taken: it is offered again as it was. */
    private boolean stalled;

    public PacketBeats(Simulator sim, String prefix) {
        this.sim = sim;
        this.prefix = prefix;
        this.lanes = sim.signal(prefix + "_tkeep").width();
        this.hasReady = sim.topPorts().stream().anyMatch(s -> s.signal().name().equals(prefix + "_tready"));
    }

    /** No packet in progress: start the next one. */
    public boolean idle() {
        return packet == null;
    }

    /** The next packet (at least one byte) and its tuser (null for an input without tuser). */
    public void start(byte[] bytes, BigInteger tuser) {
        if (bytes.length == 0) {
            throw new IllegalArgumentException("a packet has at least one byte");
        }
        packet = bytes;
        user = tuser;
        offset = 0;
    }

    /**
     * Pokes valid and the current beat, or, while the beat offered at the last edge waits to be taken, leaves it
     * offered as it is, whatever {@code valid} says; returns whether a beat is offered. With {@code garbage}, the data
     * lanes past a new beat's bytes carry random words drawn from it (a well-behaved receiver ignores them).
     */
    public boolean offer(boolean valid, Random garbage) {
        if (stalled) {
            return true;
        }
        int n = Math.min(lanes, packet.length - offset);
        long[] data = Beats.data(packet, offset, n, lanes);
        if (garbage != null) {
            for (int w = n / 8 + 1; w < data.length; w++) {
                data[w] = garbage.nextLong();
            }
        }
        offered = valid;
        sim.poke(prefix + "_tvalid", valid ? 1 : 0);
        sim.poke(prefix + "_tdata", data);
        sim.poke(prefix + "_tkeep", Beats.keep(n, lanes));
        sim.poke(prefix + "_tlast", offset + n >= packet.length ? 1 : 0);
        if (user != null) {
            sim.poke(prefix + "_tuser", user);
        }
        return valid;
    }

    /** Call once the cycle's inputs are all set: the offered beat moves if the input is ready; true when the packet ended. */
    public boolean advance() {
        stalled = offered && hasReady && sim.peek(prefix + "_tready") == 0;
        if (!offered || stalled) {
            return false;
        }
        offset += lanes;
        if (offset >= packet.length) {
            packet = null;
            return true;
        }
        return false;
    }
}
