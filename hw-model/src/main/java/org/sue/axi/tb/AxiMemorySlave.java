package org.sue.axi.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.sue.axi.AxiConfig;
import org.sue.axi.model.AxiRequestReference;
import org.sue.axi.model.AxiRequestReference.Ax;
import org.sue.axi.model.AxiRequestReference.WBeat;
import org.sue.core.Layout;
import org.sue.lib.stream.tb.LayoutPorts;
import org.sue.sim.Simulator;

/**
 * A random AXI4 slave with a byte memory on a running simulation's master ports {@code <p>aw}, {@code <p>w},
 * {@code <p>b}, {@code <p>ar}, {@code <p>r} (IDs of {@code idWidth} bits): random ready on AW, W and AR, W taken only
 * for an AW taken (before or in the same cycle), a random latency before each B and each read's first beat, random gaps, R beats of
 * different IDs interleaved at random when asked, responses mostly OKAY with some SLVERR, EXOKAY and DECERR. Responses
 * of one ID keep the order of its requests. It checks the master's side of AXI4: FIXED or INCR only, FIXED at most 16
 * beats, no INCR across 4 KiB, WLAST on beat AxLEN exactly. Each cycle: {@link #drive}, then (every input poked)
 * {@link #taken}, then step; what moved is in the fields named {@code last*} until the next {@link #taken}.
 */
public final class AxiMemorySlave {
    /** A burst taken on AW or AR, with its master ID. */
    public record Burst(boolean write, Ax ax, List<WBeat> beats) {
    }

    /** An R beat that moved. */
    public record RBeat(int id, BigInteger data, int resp, boolean last) {
    }

    /** A B that moved. */
    public record B(int id, int resp) {
    }

    private record Due(long cycle, int id, int resp) {
    }

    private static final class Reading {
        final Ax ax;
        final long due;
        int beat;

        Reading(Ax ax, long due) {
            this.ax = ax;
            this.due = due;
        }
    }

    private final Simulator sim;
    private final AxiConfig axi;
    private final String p;
    private final Layout ax;
    private final Layout w;
    private final Layout b;
    private final Layout r;
    private final Map<Long, Byte> memory = new HashMap<>();
    private final ArrayDeque<Burst> writing = new ArrayDeque<>();
    private final List<Due> bs = new ArrayList<>();
    private final List<Reading> reads = new ArrayList<>();
    private final int readyPercent;
    private final int maxLatency;
    private final boolean interleave;
    private final int errorPercent;
    private final AxiMonitor monitor;
    private boolean awReady;
    private boolean wReady;
    private boolean arReady;
    private Due offeredB;
    private Reading offeredR;
    private RBeat offeredBeat;
    private Reading sticky;
    private long cycle;
    private long interleaved;
    private long readHits;
    public Burst lastAw;
    public Burst lastAr;
    public WBeat lastW;
    public B lastB;
    public RBeat lastR;
    public Burst lastWritten;

    public AxiMemorySlave(Simulator sim, AxiConfig axi, String prefix, int idWidth, int readyPercent, int maxLatency,
                          boolean interleave, int errorPercent) {
        this.sim = sim;
        this.axi = axi;
        this.p = prefix;
        this.ax = axi.ax(idWidth);
        this.w = axi.w();
        this.b = axi.b(idWidth);
        this.r = axi.r(idWidth);
        this.readyPercent = readyPercent;
        this.maxLatency = maxLatency;
        this.interleave = interleave;
        this.errorPercent = errorPercent;
        this.monitor = new AxiMonitor(sim, axi, prefix, idWidth, true);
    }

    /** The AXI4 monitor on these ports: the master under test must keep every rule, bursts included. */
    public AxiMonitor monitor() {
        return monitor;
    }

    /** Nothing outstanding: every burst taken was answered. */
    public boolean idle() {
        return writing.isEmpty() && bs.isEmpty() && reads.isEmpty() && offeredB == null && offeredBeat == null;
    }

    /** R beats sent while a burst of another ID was part way. */
    public long interleaved() {
        return interleaved;
    }

    /** Bytes read that a write had put in the memory. */
    public long readHits() {
        return readHits;
    }

    public Byte memory(long address) {
        return memory.get(address);
    }

    public Map<Long, Byte> memory() {
        return memory;
    }

    public void drive(Random rnd) {
        awReady = rnd.nextInt(100) < readyPercent;
        arReady = rnd.nextInt(100) < readyPercent;
        // W for a burst taken before, or for the one AW takes at this edge
        boolean burst = !writing.isEmpty() || awReady && sim.peek(p + "aw_valid") == 1;
        wReady = rnd.nextInt(100) < readyPercent && burst;
        sim.poke(p + "aw_ready", awReady ? 1 : 0);
        sim.poke(p + "ar_ready", arReady ? 1 : 0);
        sim.poke(p + "w_ready", wReady ? 1 : 0);
        if (offeredB == null && rnd.nextInt(100) < readyPercent) {
            offeredB = pickB();
        }
        sim.poke(p + "b_valid", offeredB != null ? 1 : 0);
        LayoutPorts.poke(sim, p + "b", b, offeredB == null ? BigInteger.ZERO
                : b.word().set("id", offeredB.id()).set("resp", offeredB.resp()).toBigInteger());
        if (offeredBeat == null && rnd.nextInt(100) < readyPercent) {
            offeredR = pickR(rnd);
            offeredBeat = offeredR == null ? null : beat(offeredR, rnd);
        }
        sim.poke(p + "r_valid", offeredBeat != null ? 1 : 0);
        LayoutPorts.poke(sim, p + "r", r, offeredBeat == null ? BigInteger.ZERO : r.word()
                .set("id", offeredBeat.id()).set("data", offeredBeat.data()).set("resp", offeredBeat.resp())
                .set("last", offeredBeat.last() ? 1 : 0).toBigInteger());
    }

    /** The oldest due B whose ID has no older B waiting. */
    private Due pickB() {
        Set<Integer> seen = new HashSet<>();
        for (Due d : bs) {
            if (seen.add(d.id()) && d.cycle() <= cycle) {
                bs.remove(d);
                return d;
            }
        }
        return null;
    }

    /** The read to send a beat of: the one in progress, or (interleaving) any oldest of its ID that is due. */
    private Reading pickR(Random rnd) {
        if (!interleave && sticky != null) {
            return sticky;
        }
        Set<Integer> seen = new HashSet<>();
        List<Reading> ready = new ArrayList<>();
        for (Reading rd : reads) {
            if (seen.add(rd.ax.id()) && rd.due <= cycle) {
                ready.add(rd);
            }
        }
        return ready.isEmpty() ? null : ready.get(rnd.nextInt(ready.size()));
    }

    private RBeat beat(Reading rd, Random rnd) {
        long address = AxiRequestReference.beatAddress(rd.ax, rd.beat) / axi.beatBytes() * axi.beatBytes();
        BigInteger data = BigInteger.ZERO;
        for (int lane = axi.beatBytes() - 1; lane >= 0; lane--) {
            Byte v = memory.get(address + lane);
            readHits += v == null ? 0 : 1;
            data = data.shiftLeft(8).or(BigInteger.valueOf(v == null ? (address + lane) * 7 & 0xFF : v & 0xFF));
        }
        return new RBeat(rd.ax.id(), data, response(rnd), rd.beat == rd.ax.len());
    }

    private int response(Random rnd) {
        int x = rnd.nextInt(100);
        return x >= errorPercent ? AxiConfig.OKAY : x % 4 == 0 ? AxiConfig.DECERR : x % 2 == 0 ? AxiConfig.SLVERR
                : AxiConfig.EXOKAY;
    }

    /** What moved at this edge (every input poked); checks the master's side. */
    public void taken(Random rnd) {
        monitor.check();
        lastAw = null;
        lastAr = null;
        lastW = null;
        lastB = null;
        lastR = null;
        lastWritten = null;
        if (awReady && sim.peek(p + "aw_valid") == 1) {
            lastAw = new Burst(true, checked(LayoutPorts.peek(sim, p + "aw", ax)), new ArrayList<>());
            writing.add(lastAw);
        }
        if (wReady && sim.peek(p + "w_valid") == 1) {
            BigInteger v = LayoutPorts.peek(sim, p + "w", w);
            lastW = new WBeat(w.field("data").getBig(v), w.field("strb").getBig(v), w.field("last").get(v) == 1);
            written(lastW, rnd);
        }
        if (arReady && sim.peek(p + "ar_valid") == 1) {
            lastAr = new Burst(false, checked(LayoutPorts.peek(sim, p + "ar", ax)), List.of());
            reads.add(new Reading(lastAr.ax(), cycle + 1 + rnd.nextInt(maxLatency + 1)));
        }
        if (offeredB != null && sim.peek(p + "b_ready") == 1) {
            lastB = new B(offeredB.id(), offeredB.resp());
            offeredB = null;
        }
        if (offeredBeat != null && sim.peek(p + "r_ready") == 1) {
            lastR = offeredBeat;
            offeredBeat = null;
            Reading now = offeredR;
            interleaved += reads.stream().anyMatch(x -> x != now && x.beat > 0) ? 1 : 0;
            offeredR.beat++;
            sticky = offeredR;
            if (lastR.last()) {
                reads.remove(offeredR);
                sticky = null;
            }
        }
        cycle++;
    }

    private void written(WBeat beat, Random rnd) {
        Burst burst = writing.peek();
        int k = burst.beats().size();
        if (beat.last() != (k == burst.ax().len())) {
            throw new AssertionError("W beat " + k + " of a burst of " + burst.ax().beats() + " has WLAST "
                    + beat.last());
        }
        long address = AxiRequestReference.beatAddress(burst.ax(), k) / axi.beatBytes() * axi.beatBytes();
        for (int lane = 0; lane < axi.beatBytes(); lane++) {
            if (beat.strb().testBit(lane)) {
                memory.put(address + lane, beat.data().shiftRight(8 * lane).byteValue());
            }
        }
        burst.beats().add(beat);
        if (beat.last()) {
            writing.poll();
            lastWritten = burst;
            bs.add(new Due(cycle + 1 + rnd.nextInt(maxLatency + 1), burst.ax().id(), response(rnd)));
        }
    }

    /** An AW or AR as the master issued it, checked against the AXI4 rules a master keeps. */
    private Ax checked(BigInteger v) {
        Ax a = new Ax(ax.field("addr").get(v), (int) ax.field("id").get(v), (int) ax.field("len").get(v),
                (int) ax.field("size").get(v), (int) ax.field("burst").get(v), (int) ax.field("lock").get(v),
                (int) ax.field("cache").get(v), (int) ax.field("prot").get(v), (int) ax.field("qos").get(v),
                (int) ax.field("region").get(v), axi.userWidth() == 0 ? 0 : (int) ax.field("user").get(v));
        long nb = 1L << a.size();
        long aligned = a.addr() / nb * nb;
        boolean ok = a.size() <= axi.fullSize() && (a.burst() == AxiConfig.FIXED ? a.len() < 16
                : a.burst() == AxiConfig.INCR && aligned / 4096 == (aligned + a.beats() * nb - 1) / 4096);
        if (!ok) {
            throw new AssertionError("the master issued a burst AXI4 forbids: " + a);
        }
        return a;
    }
}
