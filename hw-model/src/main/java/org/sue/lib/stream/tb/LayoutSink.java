package org.sue.lib.stream.tb;

import java.math.BigInteger;
import java.util.Random;
import org.sue.core.Layout;
import org.sue.sim.Simulator;

/**
 * Takes payloads of a {@link Layout} from a stream output of a running simulation with a random ready
 * ({@code <name>_ready}); a flow (no ready) with {@code readyPercent} 100. Each cycle: {@link #drive}, then, once
 * every input is poked, {@link #taken}, then step.
 */
public final class LayoutSink {
    private final Simulator sim;
    private final String name;
    private final Layout layout;
    private final boolean hasReady;
    private boolean ready;

    public LayoutSink(Simulator sim, String name, Layout layout) {
        this.sim = sim;
        this.name = name;
        this.layout = layout;
        this.hasReady = sim.topPorts().stream().anyMatch(s -> s.signal().name().equals(name + "_ready"));
    }

    public void drive(Random rnd, int readyPercent) {
        ready = rnd.nextInt(100) < readyPercent;
        if (hasReady) {
            sim.poke(name + "_ready", ready ? 1 : 0);
        }
    }

    /** The payload that moves at this edge, or null. */
    public BigInteger taken() {
        if ((hasReady && !ready) || sim.peek(name + "_valid") == 0) {
            return null;
        }
        return LayoutPorts.peek(sim, name, layout);
    }
}
