package org.sue.axi.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sue.axi.AxiConfig;
import org.sue.core.Layout;
import org.sue.sim.Simulator;

/**
 * An AXI4 protocol monitor on one interface of a running simulation, by port prefix ({@code s_}: SUE's slave, driven
 * by the SoC's master; {@code m_}: SUE's master, answered by the SoC's slave). It only reads ports. Once a cycle,
 * after every input of the cycle is poked and before the clock edge, {@link #check} throws an {@link AssertionError}
 * naming the cycle, the channel and the rule on the first violation of:
 * <ul>
 * <li>the handshake, on all five channels: valid, once high, stays high until ready, the payload unchanged;</li>
 * <li>with {@code checkBursts}, AMBA AXI4 A3.4.1 on AW and AR: AxBURST 3, AxSIZE wider than the bus, WRAP of a length
 * other than 2, 4, 8, 16 beats or unaligned, FIXED over 16 beats, INCR across 4 KiB;</li>
 * <li>W: AxLEN + 1 beats per AW in AW order, WLAST on the last only (W may lead its AW);</li>
 * <li>B only for a write whose AW and last W beat have moved, at an earlier edge; R only for a read of that ID
 * outstanding, AxLEN + 1 beats a burst with RLAST on the last only, the bursts of one ID in AR order;</li>
 * <li>at the end ({@link #assertQuiet}): nothing outstanding.</li>
 * </ul>
 * Per ID the B and R carry nothing that tells two transactions apart beyond the burst length, so the order of one
 * ID's responses is checked through RLAST: the beats of a read of one ID count against its oldest AR.
 */
public final class AxiMonitor {
    /** What moved so far: bursts on AW and AR, W beats, B responses, R beats and R bursts (beats with RLAST). */
    public record Counts(long aw, long w, long ar, long b, long r, long rBursts) {
    }

    /** A burst taken on AW or AR: its fields and, for a read, the R beats given so far. */
    private static final class Burst {
        final long addr;
        final int id;
        final int len;
        final int size;
        final int burst;
        final long cycle;
        int beats;

        Burst(long addr, int id, int len, int size, int burst, long cycle) {
            this.addr = addr;
            this.id = id;
            this.len = len;
            this.size = size;
            this.burst = burst;
            this.cycle = cycle;
        }

        @Override
        public String toString() {
            return "ID " + id + ", " + (len + 1) + " beats, taken at cycle " + cycle;
        }
    }

    /** One valid/ready channel: its handshake checked every cycle, its payload read when a beat waits or moves. */
    private final class Channel {
        final String name;
        final int valid;
        final int ready;
        final List<String> fields = new ArrayList<>();
        final Map<String, Integer> ports = new HashMap<>();
        long[][] held;
        long heldSince;
        boolean stalled;

        Channel(String channel, Layout layout) {
            name = prefix + channel;
            valid = sim.handle(name + "_valid");
            ready = sim.handle(name + "_ready");
            for (Layout.Field f : layout.fields()) {
                fields.add(f.name());
                ports.put(f.name(), sim.handle(name + "_" + f.name()));
            }
        }

        /** Whether a beat moves at this edge; a beat that waited at the last edge must still be offered, unchanged. */
        boolean sample() {
            boolean v = sim.peek(valid) == 1;
            boolean r = sim.peek(ready) == 1;
            if (stalled && !v) {
                fail(name, "handshake", "valid dropped before ready (the beat offered since cycle " + heldSince
                        + " never moved)");
            }
            if (stalled) {
                for (int i = 0; i < fields.size(); i++) {
                    long[] now = sim.peekWide(ports.get(fields.get(i)));
                    if (!Arrays.equals(now, held[i])) {
                        fail(name, "handshake", name + "_" + fields.get(i) + " changed while waiting for ready "
                                + "(offered since cycle " + heldSince + "): 0x" + hex(held[i]) + " -> 0x" + hex(now));
                    }
                }
            } else if (v && !r) {
                heldSince = sim.cycle();
                held = fields.stream().map(f -> sim.peekWide(ports.get(f))).toArray(long[][]::new);
            }
            stalled = v && !r;
            return v && r;
        }

        long get(String field) {
            return sim.peek(ports.get(field));
        }

        /** The AW or AR that moves at this edge. */
        Burst burst() {
            return new Burst(get("addr"), (int) get("id"), (int) get("len"), (int) get("size"), (int) get("burst"),
                    sim.cycle());
        }
    }

    private final Simulator sim;
    private final String prefix;
    private final int fullSize;
    private final int beatBytes;
    private final boolean checkBursts;
    private final Channel aw;
    private final Channel w;
    private final Channel ar;
    private final Channel b;
    private final Channel r;
    /** AWs in order whose W beats are not all in; the head owns the W beats now moving. */
    private final ArrayDeque<Burst> awaitingData = new ArrayDeque<>();
    /** W bursts whose WLAST moved before their AW: their beat counts, in order. */
    private final ArrayDeque<Integer> leadingBursts = new ArrayDeque<>();
    /** W beats of the burst in progress. */
    private int wBeats;
    /** Per ID, writes (AW and last W beat moved) awaiting their B, and reads awaiting their R beats, in order. */
    private final Map<Integer, ArrayDeque<Burst>> writes = new HashMap<>();
    private final Map<Integer, ArrayDeque<Burst>> reads = new HashMap<>();
    private long awCount;
    private long wCount;
    private long arCount;
    private long bCount;
    private long rCount;
    private long rBursts;

    /**
     * @param prefix      {@code s_} or {@code m_}: the ports {@code <prefix>aw_valid}, ...
     * @param idWidth     the interface's ID width (the master's is {@code AxiRemoteMaster.Config.masterIdWidth})
     * @param checkBursts check AW and AR against AXI4's burst rules (off for a master that breaks them on purpose)
     */
    public AxiMonitor(Simulator sim, AxiConfig axi, String prefix, int idWidth, boolean checkBursts) {
        this.sim = sim;
        this.prefix = prefix;
        this.fullSize = axi.fullSize();
        this.beatBytes = axi.beatBytes();
        this.checkBursts = checkBursts;
        aw = new Channel("aw", axi.ax(idWidth));
        w = new Channel("w", axi.w());
        ar = new Channel("ar", axi.ax(idWidth));
        b = new Channel("b", axi.b(idWidth));
        r = new Channel("r", axi.r(idWidth));
    }

    /**
     * One clock edge, every input poked. Responses are checked against what moved at earlier edges (a B never answers
     * a W beat of the same edge, nor an R beat an AR), then this edge's requests are recorded.
     */
    public void check() {
        boolean awMoves = aw.sample();
        boolean wMoves = w.sample();
        boolean arMoves = ar.sample();
        boolean bMoves = b.sample();
        boolean rMoves = r.sample();
        if (bMoves) {
            response();
        }
        if (rMoves) {
            readBeat();
        }
        if (awMoves) {
            address(aw, true);
        }
        if (wMoves) {
            writeBeat(w.get("last") == 1);
        }
        if (arMoves) {
            address(ar, false);
        }
    }

    private void address(Channel ch, boolean write) {
        Burst a = ch.burst();
        String rule = checkBursts ? forbidden(a) : null;
        if (rule != null) {
            fail(ch.name, "burst", rule + " (address 0x" + Long.toHexString(a.addr) + ", " + a + ")");
        }
        if (!write) {
            arCount++;
            reads.computeIfAbsent(a.id, k -> new ArrayDeque<>()).add(a);
            return;
        }
        awCount++;
        if (!leadingBursts.isEmpty()) { // its W beats, WLAST included, came first
            int beats = leadingBursts.poll();
            if (beats != a.len + 1) {
                fail(prefix + "w", "W beats", "the W burst that led this AW had " + beats + " beats, AWLEN + 1 is "
                        + (a.len + 1) + " (" + a + ")");
            }
            writes.computeIfAbsent(a.id, k -> new ArrayDeque<>()).add(a);
            return;
        }
        if (awaitingData.isEmpty() && wBeats > a.len) { // beats led it without WLAST where its last beat was
            fail(prefix + "w", "WLAST", "beat " + a.len + " of the W burst that led this AW had no WLAST (" + a + ")");
        }
        awaitingData.add(a);
    }

    private void writeBeat(boolean last) {
        wCount++;
        Burst head = awaitingData.peek();
        if (head == null) { // W ahead of its AW, as AXI4 allows: counted, checked when the AW comes
            wBeats++;
            if (last) {
                leadingBursts.add(wBeats);
                wBeats = 0;
            }
            return;
        }
        if (last != (wBeats == head.len)) {
            fail(prefix + "w", "WLAST", "W beat " + wBeats + " of the write of " + head + " has WLAST " + (last ? 1 : 0)
                    + "; it belongs on beat " + head.len + " only");
        }
        wBeats++;
        if (last) {
            awaitingData.poll();
            wBeats = 0;
            writes.computeIfAbsent(head.id, k -> new ArrayDeque<>()).add(head);
        }
    }

    private void response() {
        int id = (int) b.get("id");
        ArrayDeque<Burst> q = writes.get(id);
        if (q == null || q.isEmpty()) {
            boolean waiting = awaitingData.stream().anyMatch(x -> x.id == id);
            fail(b.name, "response ID", "B with ID " + id + " but no write of that ID is outstanding"
                    + (waiting ? " (one has its AW but not yet its last W beat)" : ""));
        }
        q.poll();
        bCount++;
    }

    private void readBeat() {
        int id = (int) r.get("id");
        boolean last = r.get("last") == 1;
        ArrayDeque<Burst> q = reads.get(id);
        if (q == null || q.isEmpty()) {
            fail(r.name, "response ID", "R beat with ID " + id + " but no read of that ID is outstanding");
        }
        Burst head = q.peek();
        if (last != (head.beats == head.len)) {
            fail(r.name, "RLAST", "R beat " + head.beats + " of the read of " + head + " has RLAST " + (last ? 1 : 0)
                    + "; it belongs on beat " + head.len + " only (the oldest read of an ID is answered first)");
        }
        head.beats++;
        rCount++;
        if (last) {
            q.poll();
            rBursts++;
        }
    }

    /** The AXI4 rule the burst breaks (AMBA AXI4 A3.4.1), or null. */
    private String forbidden(Burst a) {
        long nb = 1L << a.size;
        if (a.burst == 3) {
            return "AxBURST 3 is reserved";
        }
        if (a.size > fullSize) {
            return "AxSIZE " + a.size + " (" + nb + " bytes) is wider than the " + beatBytes + "-byte data bus";
        }
        if (a.burst == AxiConfig.WRAP && a.len != 1 && a.len != 3 && a.len != 7 && a.len != 15) {
            return "WRAP of " + (a.len + 1) + " beats (2, 4, 8 or 16 only)";
        }
        if (a.burst == AxiConfig.WRAP && a.addr % nb != 0) {
            return "WRAP address not aligned to its " + nb + "-byte transfers";
        }
        if (a.burst == AxiConfig.FIXED && a.len > 15) {
            return "FIXED of " + (a.len + 1) + " beats (16 at most)";
        }
        long aligned = a.addr / nb * nb;
        if (a.burst == AxiConfig.INCR && aligned / 4096 != (aligned + (a.len + 1) * nb - 1) / 4096) {
            return "INCR of " + (a.len + 1) + " x " + nb + " bytes crosses a 4 KiB boundary";
        }
        return null;
    }

    /** At the end of a run: throws if a transaction is still outstanding. */
    public void assertQuiet() {
        List<String> left = new ArrayList<>();
        if (!awaitingData.isEmpty()) {
            left.add(awaitingData.size() + " AW without all their W beats (first: " + awaitingData.peek() + ")");
        }
        if (awaitingData.isEmpty() && wBeats > 0 || !leadingBursts.isEmpty()) {
            left.add("W beats without their AW");
        }
        long bs = writes.values().stream().mapToLong(ArrayDeque::size).sum();
        if (bs > 0) {
            left.add(bs + " writes without their B");
        }
        long rs = reads.values().stream().mapToLong(ArrayDeque::size).sum();
        if (rs > 0) {
            left.add(rs + " reads without all their R beats");
        }
        if (!left.isEmpty()) {
            fail(prefix, "outstanding at the end", String.join("; ", left));
        }
    }

    /** What moved so far. */
    public Counts counts() {
        return new Counts(awCount, wCount, arCount, bCount, rCount, rBursts);
    }

    private void fail(String port, String rule, String detail) {
        throw new AssertionError("AXI4 monitor, cycle " + sim.cycle() + ", " + port + ": " + rule + ": " + detail);
    }

    private static String hex(long[] words) {
        BigInteger v = BigInteger.ZERO;
        for (int i = words.length - 1; i >= 0; i--) {
            v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(words[i])));
        }
        return v.toString(16);
    }
}
