package org.sue.lib.stream.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Random;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;

/**
 * Offers packets on a stream input of a running simulation, beat by beat, honouring tready when the interface has
 * one (a MAC-side input without tready takes every beat). Call {@link #drive} once per cycle before stepping;
 * {@code validPercent} below 100 leaves random gaps between beats. A beat once offered stays offered, unchanged,
 * until it is taken (the stream protocol, {@link StreamProtocolChecker}).
 */
public final class StreamSource {
    private final Simulator sim;
    private final String prefix;
    private final int lanes;
    private final boolean hasReady;
    private final boolean hasUser;
    private final ArrayDeque<byte[]> packets = new ArrayDeque<>();
    private final ArrayDeque<BigInteger> users = new ArrayDeque<>();
    private int offset;
    private boolean offered;
    /** The beat offered at the last edge was not taken: it is offered again. */
    private boolean stalled;
    private long firstBeatCycle = -1;

    public StreamSource(Simulator sim, String prefix) {
        this.sim = sim;
        this.prefix = prefix;
        this.lanes = sim.signal(prefix + "_tkeep").width();
        this.hasReady = sim.topPorts().stream().anyMatch(s -> s.signal().name().equals(prefix + "_tready"));
        this.hasUser = sim.topPorts().stream().anyMatch(s -> s.signal().name().equals(prefix + "_tuser"));
    }

    public void add(byte[] packet, BigInteger user) {
        if (packet.length == 0) {
            throw new IllegalArgumentException("a stream packet has at least one byte");
        }
        packets.add(packet);
        users.add(user);
    }

    public boolean idle() {
        return packets.isEmpty();
    }

    /** The cycle at which the first beat was taken, -1 before. */
    public long firstBeatCycle() {
        return firstBeatCycle;
    }

    /** Settles this cycle's inputs. Call {@link #advance} after the clock edge decision, before the next drive. */
    public void drive(Random rnd, int validPercent) {
        byte[] p = packets.peek();
        boolean gap = p != null && validPercent < 100 && rnd.nextInt(100) >= validPercent; // drawn even when stalled
        offered = p != null && (stalled || !gap);
        sim.poke(prefix + "_tvalid", offered ? 1 : 0);
        if (offered) {
            int n = Math.min(lanes, p.length - offset);
            sim.poke(prefix + "_tdata", Beats.data(p, offset, n, lanes));
            sim.poke(prefix + "_tkeep", Beats.keep(n, lanes));
            sim.poke(prefix + "_tlast", offset + n >= p.length ? 1 : 0);
            if (hasUser) {
                sim.poke(prefix + "_tuser", users.peek());
            }
        }
    }

    /** Call just before {@code sim.step()}: notes whether the offered beat is taken at this edge. */
    public void advance() {
        stalled = offered && hasReady && sim.peek(prefix + "_tready") == 0;
        if (!offered || stalled) {
            return;
        }
        if (firstBeatCycle < 0) {
            firstBeatCycle = sim.cycle();
        }
        offset += lanes;
        if (offset >= packets.peek().length) {
            packets.poll();
            users.poll();
            offset = 0;
        }
    }
}
