package org.sue.sim;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.sue.core.Port;

/**
 * Checks the handshake contract of {@link org.sue.lib.stream.Stream} on every stream of a simulation's top-level
 * ports, at every clock edge: once valid is high and the beat has not moved (ready low at the edge), valid stays
 * high and every payload port keeps its value at the next edge (AXI4-Stream's rule too). On an input it checks the
 * testbench, on an output the block. Flows (no ready) are exempt; so is every stream in a cycle with the reset
 * asserted, and a beat stalled before a reset is owed nothing after it.
 *
 * <p>A stream is a valid port {@code <name>_valid} with a ready port {@code <name>_ready} going the other way
 * ({@code <axis>_tvalid}, {@code <axis>_tready} for packet streams); its payload is what the design declares
 * ({@link org.sue.core.Component#payloads}). Every simulator of a test run has one: {@link Simulator} attaches it
 * when the system property {@value #PROPERTY} is {@code true} (every module's surefire configuration sets it), and
 * always before it records golden vectors. A test that withdraws valid on purpose says so with {@link #exempt}.
 *
 * <p>Cost: valid and ready read per stream and cycle; the payload read only while a beat waits, copied once when it
 * starts to wait.
 */
public final class StreamProtocolChecker implements Simulator.CycleListener {
    /** The system property that makes every {@link Simulator} check its streams. */
    public static final String PROPERTY = "sue.streamCheck";

    /** A broken handshake: cycle, stream, port, the value at the stalled edge and the new one. */
    public static final class Violation extends IllegalStateException {
        Violation(String message) {
            super(message);
        }
    }

    /**
     * One stream as columns of a table of port values: its valid, its ready and its payload ports, and whether it is
     * an input of the design (driven by the testbench).
     */
    public record Watched(String name, boolean input, int valid, int ready, int[] payload) {
    }

    private final List<String> columns;
    private final Watched[] streams;
    private final boolean[] exempt;
    private final boolean[] stalled;
    /** Per stream: valid, then each payload port, as they were at the edge where the beat stalled. */
    private final long[][][] held;
    /** For a simulation: the top-level ports' ids (by column), values read this cycle, the reset's asserted level. */
    private int[] ids;
    private long[][] values;
    private long resetAsserted;

    /** A checker of {@code streams}, whose columns index a table of values with one name per column. */
    public StreamProtocolChecker(List<String> columns, List<Watched> streams) {
        this.columns = List.copyOf(columns);
        this.streams = streams.toArray(Watched[]::new);
        exempt = new boolean[this.streams.length];
        stalled = new boolean[this.streams.length];
        held = new long[this.streams.length][][];
        for (int s = 0; s < held.length; s++) {
            held[s] = new long[1 + this.streams[s].payload.length][];
        }
    }

    /** The checker attached to {@code sim}, attached now if it has none. */
    public static StreamProtocolChecker on(Simulator sim) {
        StreamProtocolChecker c = sim.listener(StreamProtocolChecker.class);
        if (c == null) {
            List<String> names = sim.topPorts().stream().map(s -> s.signal().name()).toList();
            c = new StreamProtocolChecker(names, streams(sim));
            c.ids = sim.topPorts().stream().mapToInt(SimSignal::id).toArray();
            c.values = sim.newPortBuffers();
            c.resetAsserted = sim.design().resetStyle().activeHigh() ? 1 : 0;
            sim.addListener(c);
        }
        return c;
    }

    /** The streams among the top-level ports of the simulated design, columns in {@link Simulator#topPorts} order. */
    static List<Watched> streams(Simulator sim) {
        List<SimSignal> ports = sim.topPorts();
        Map<Port, List<Port>> payloads = sim.design().top().payloads();
        List<Watched> found = new ArrayList<>();
        for (int v = 0; v < ports.size(); v++) {
            String valid = ports.get(v).signal().name();
            String name = valid.endsWith("_tvalid") ? valid.substring(0, valid.length() - 7)
                    : valid.endsWith("_valid") ? valid.substring(0, valid.length() - 6) : null;
            if (name == null) {
                continue;
            }
            String ready = name + (valid.endsWith("_tvalid") ? "_tready" : "_ready");
            boolean input = ports.get(v).settable();
            int r = indexOf(ports, ready);
            if (r < 0 || ports.get(r).settable() == input) {
                continue; // a flow: nothing can stall it
            }
            List<Port> payload = payloads.getOrDefault((Port) ports.get(v).signal(), List.of());
            found.add(new Watched(name, input, v, r, payload.stream().mapToInt(p -> indexOf(ports, p.name()))
                    .toArray()));
        }
        return found;
    }

    private static int indexOf(List<SimSignal> ports, String name) {
        for (int i = 0; i < ports.size(); i++) {
            if (ports.get(i).signal().name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The streams this checker watches. */
    public List<Watched> streams() {
        return List.of(streams);
    }

    /**
     * Stops checking stream {@code name} (as in {@code <name>_valid}): for a test whose source withdraws valid or
     * changes its offer on purpose, to see that a block tolerates it. Say at the call why.
     */
    public StreamProtocolChecker exempt(String name) {
        for (int s = 0; s < streams.length; s++) {
            if (streams[s].name.equals(name)) {
                exempt[s] = true;
                return this;
            }
        }
        throw new IllegalArgumentException("no stream '" + name + "' to exempt; streams: "
                + Arrays.stream(streams).map(Watched::name).toList());
    }

    /** Reads valid and ready of every stream, the payload only of a stream whose beat waits or starts to wait. */
    @Override
    public void sample(Simulator sim, long cycle) {
        for (int s = 0; s < streams.length; s++) {
            Watched w = streams[s];
            if (exempt[s]) {
                continue;
            }
            sim.peekInto(ids[w.valid], values[w.valid]);
            sim.peekInto(ids[w.ready], values[w.ready]);
            if (stalled[s] || !isZero(values[w.valid]) && isZero(values[w.ready])) {
                for (int p : w.payload) {
                    sim.peekInto(ids[p], values[p]);
                }
            }
        }
        check(cycle, values, sim.resetPortValue() == resetAsserted);
    }

    /**
     * Checks one clock edge: {@code values} holds every column's value as it settled before the edge, {@code reset}
     * says whether the reset is asserted. Throws {@link Violation} on the first broken rule.
     */
    public void check(long cycle, long[][] values, boolean reset) {
        for (int s = 0; s < streams.length; s++) {
            if (exempt[s]) {
                continue;
            }
            Watched w = streams[s];
            long[][] h = held[s];
            if (stalled[s] && !reset) {
                expectHeld(cycle, w, w.valid, h[0], values[w.valid], "dropped before the beat moved");
                for (int p = 0; p < w.payload.length; p++) {
                    expectHeld(cycle, w, w.payload[p], h[p + 1], values[w.payload[p]], "changed while stalled");
                }
            }
            boolean was = stalled[s];
            stalled[s] = !reset && !isZero(values[w.valid]) && isZero(values[w.ready]);
            if (stalled[s] && !was) {
                h[0] = values[w.valid].clone();
                for (int p = 0; p < w.payload.length; p++) {
                    h[p + 1] = values[w.payload[p]].clone();
                }
            }
        }
    }

    private void expectHeld(long cycle, Watched w, int column, long[] before, long[] now, String what) {
        if (!Arrays.equals(before, now)) {
            String port = columns.get(column);
            throw new Violation("stream protocol broken at cycle " + cycle + " on " + (w.input ? "input" : "output")
                    + " stream '" + w.name + "' (" + (w.input ? "the testbench" : "the block") + " drives it): " + port
                    + " " + what + ": 0x" + hex(before) + " -> 0x" + hex(now) + " (" + columns.get(w.ready)
                    + " was low at the edge of cycle " + (cycle - 1) + ")");
        }
    }

    private static boolean isZero(long[] words) {
        for (long x : words) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    private static String hex(long[] words) {
        BigInteger v = BigInteger.ZERO;
        for (int i = words.length - 1; i >= 0; i--) {
            v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(words[i])));
        }
        return v.toString(16);
    }

    @Override
    public void close() {
    }
}
