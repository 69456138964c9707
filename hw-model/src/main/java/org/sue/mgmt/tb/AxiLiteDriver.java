package org.sue.mgmt.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.sue.core.Layout;
import org.sue.lib.stream.tb.LayoutSink;
import org.sue.lib.stream.tb.LayoutSource;
import org.sue.mgmt.AxiLite;
import org.sue.sim.Simulator;

/**
 * A software master on an AXI4-Lite target port of a running simulation ({@code <name>_aw_*} ...): queues writes
 * and reads, offers AW, W and AR each with its own random gaps, takes B and R with a random ready, and checks the
 * protocol as it goes (every request answered once and in order, no response without a request). Each cycle:
 * {@link #drive}, then the design's other inputs, then {@link #taken}, then step.
 */
public final class AxiLiteDriver {
    /** An access and its answer ({@code data} of a read; -1 until answered). */
    public static final class Access {
        public final boolean write;
        public final long address;
        public final long data;
        public final int strobes;
        private long resp = -1;
        private long readData = -1;
        private Consumer<Access> onDone;

        private Access(boolean write, long address, long data, int strobes) {
            this.write = write;
            this.address = address;
            this.data = data;
            this.strobes = strobes;
        }

        public boolean done() {
            return resp >= 0;
        }

        public long resp() {
            return resp;
        }

        public long readData() {
            return readData;
        }

        @Override
        public String toString() {
            return (write ? "write 0x" + Long.toHexString(data) + " strb " + strobes + " to" : "read of") + " 0x"
                    + Long.toHexString(address);
        }
    }

    private final Simulator sim;
    private final String name;
    /** The AW and AR payload of this port's address width. */
    private final Layout addressLayout;
    private final LayoutSource aw;
    private final LayoutSource w;
    private final LayoutSource ar;
    private final LayoutSink b;
    private final LayoutSink r;
    private final ArrayDeque<Access> writes = new ArrayDeque<>();
    private final ArrayDeque<Access> reads = new ArrayDeque<>();
    private final List<Access> all = new ArrayList<>();
    private int validPercent = 100;
    private int readyPercent = 100;

    public AxiLiteDriver(Simulator sim, String name) {
        this.sim = sim;
        this.name = name;
        addressLayout = AxiLite.address(sim.signal(name + "_aw_addr").width());
        aw = new LayoutSource(sim, name + "_aw", addressLayout);
        w = new LayoutSource(sim, name + "_w", AxiLite.WRITE_DATA);
        ar = new LayoutSource(sim, name + "_ar", addressLayout);
        b = new LayoutSink(sim, name + "_b", AxiLite.WRITE_RESPONSE);
        r = new LayoutSink(sim, name + "_r", AxiLite.READ_DATA);
    }

    /** Random gaps before requests and random ready on responses (100: none). */
    public AxiLiteDriver pace(int validPercent, int readyPercent) {
        this.validPercent = validPercent;
        this.readyPercent = readyPercent;
        return this;
    }

    public Access write(long address, long data, int strobes) {
        Access a = new Access(true, address, data, strobes);
        aw.add(addressLayout.word().set("addr", address).toBigInteger());
        w.add(AxiLite.WRITE_DATA.word().set("data", data).set("strb", strobes).toBigInteger());
        writes.add(a);
        all.add(a);
        return a;
    }

    public Access read(long address) {
        Access a = new Access(false, address, 0, 0);
        ar.add(addressLayout.word().set("addr", address).toBigInteger());
        reads.add(a);
        all.add(a);
        return a;
    }

    /** Every access queued so far has been answered. */
    public boolean idle() {
        return all.stream().allMatch(Access::done);
    }

    public void drive(Random rnd) {
        aw.drive(rnd, validPercent);
        w.drive(rnd, validPercent);
        ar.drive(rnd, validPercent);
        b.drive(rnd, readyPercent);
        r.drive(rnd, readyPercent);
    }

    /** Takes this cycle's handshakes; call once every input of the cycle is poked. */
    public void taken() {
        aw.taken();
        w.taken();
        ar.taken();
        BigInteger resp = b.taken();
        if (resp != null) {
            Access a = answered(writes, "B");
            a.resp = AxiLite.WRITE_RESPONSE.field("resp").get(resp);
        }
        BigInteger data = r.taken();
        if (data != null) {
            Access a = answered(reads, "R");
            a.resp = AxiLite.READ_DATA.field("resp").get(data);
            a.readData = AxiLite.READ_DATA.field("data").get(data);
        }
    }

    private Access answered(ArrayDeque<Access> waiting, String channel) {
        Access a = waiting.poll();
        if (a == null) {
            throw new AssertionError(name + ": " + channel + " response at cycle " + sim.cycle()
                    + " without a request waiting for it");
        }
        return a;
    }

    /** Runs the simulation until every queued access is answered (at most {@code maxCycles}). */
    public void finish(Random rnd, long maxCycles) {
        for (long c = 0; !idle(); c++) {
            if (c == maxCycles) {
                throw new AssertionError(name + ": " + writes.size() + " writes and " + reads.size()
                        + " reads unanswered after " + maxCycles + " cycles, first " + (writes.isEmpty()
                        ? reads.peek() : writes.peek()));
            }
            cycle(rnd);
        }
    }

    /** One cycle when the design's other inputs are already poked: drive, take, step. */
    public void cycle(Random rnd) {
        drive(rnd);
        taken();
        sim.step();
    }
}
