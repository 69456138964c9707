package org.sue.lib.stream.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Random;
import org.sue.core.Layout;
import org.sue.sim.Simulator;

/**
 * Offers payloads of a {@link Layout} on a stream input of a running simulation ({@code <name>_valid},
 * {@code <name>_ready}, {@code <name>_<field>}): random gaps between beats, never under a waiting one (the stream
 * rule). Each cycle: {@link #drive} before the design's other inputs settle, {@link #taken} once every input of the
 * cycle is poked (ready may depend on them), then step.
 */
public final class LayoutSource {
    private final Simulator sim;
    private final String name;
    private final Layout layout;
    private final ArrayDeque<BigInteger> queue = new ArrayDeque<>();
    private boolean offered;

    public LayoutSource(Simulator sim, String name, Layout layout) {
        this.sim = sim;
        this.name = name;
        this.layout = layout;
    }

    public void add(BigInteger payload) {
        queue.add(payload);
    }

    /** Nothing waiting and nothing offered. */
    public boolean idle() {
        return queue.isEmpty();
    }

    public int waiting() {
        return queue.size();
    }

    /** Offers the head with probability {@code validPercent}, or keeps offering the beat not yet taken. */
    public void drive(Random rnd, int validPercent) {
        boolean gap = rnd.nextInt(100) >= validPercent; // drawn every cycle, so the stream of draws does not depend on stalls
        offered = !queue.isEmpty() && (offered || !gap);
        sim.poke(name + "_valid", offered ? 1 : 0);
        LayoutPorts.poke(sim, name, layout, offered ? queue.peek() : BigInteger.ZERO);
    }

    /** The payload taken at this edge, or null. */
    public BigInteger taken() {
        if (!offered || sim.peek(name + "_ready") == 0) {
            return null;
        }
        offered = false;
        return queue.poll();
    }
}
