package org.sue.axi.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.sue.axi.AxiConfig;
import org.sue.axi.model.AxiRequestReference;
import org.sue.axi.model.AxiRequestReference.Ax;
import org.sue.axi.model.AxiRequestReference.LocalResponse;
import org.sue.axi.model.AxiRequestReference.WBeat;
import org.sue.core.Layout;
import org.sue.lib.stream.tb.LayoutSink;
import org.sue.lib.stream.tb.LayoutSource;
import org.sue.sim.Simulator;

/**
 * An SoC's master and slave around a design with one AXI4 slave ({@code s_aw}, {@code s_w}, {@code s_ar},
 * {@code s_b}, {@code s_r}) whose requests reach its own AXI4 master ({@code m_*}, a random {@link AxiMemorySlave})
 * through the command mapping. Writes of every burst type (narrow, unaligned, partial strobes; some illegal, some to
 * unconfigured XPUs), each to a 4 KiB page of its own, then reads of the same bursts. Checked as they come: every B
 * and every R beat as an independent byte model of the writes says, in order per ID; at the end of the writes the
 * memory holds exactly the bytes written.
 *
 * <p>With {@link #givingUpAllowed} a transaction expected OKAY may instead be answered SLVERR (the transport gave up
 * on its destination, docs/protocol.md 13.3): the bytes of such a write are unknown from then on (it may still land),
 * and a read's beats from the first SLVERR on carry zeros; counts, order per ID and RLAST are checked as always.
 */
public final class AxiWriteReadRun {
    private final Simulator sim;
    private final AxiConfig axi;
    private final int validPercent;
    private final int readyPercent;
    private final AxiMemorySlave far;
    private final AxiMemorySlave own;
    private final int[] targets;
    private final LayoutSource aw;
    private final LayoutSource w;
    private final LayoutSource ar;
    private final LayoutSink b;
    private final LayoutSink r;
    /** The SoC master's side is broken on purpose (illegal bursts for SLVERR), so bursts are not checked there. */
    private final AxiMonitor monitor;
    private final Map<Long, Byte> model = new HashMap<>();
    /** Bytes of the writes answered SLVERR instead of OKAY: they may hold the write's bytes or not. */
    private final java.util.Set<Long> unknown = new java.util.HashSet<>();
    private boolean givingUpAllowed;
    private final List<Ax> writes = new ArrayList<>();
    private final Map<Integer, ArrayDeque<Object>> expected = new HashMap<>();
    private final AxiRequestReference rules;
    /** Per ID, the bursts taken on AW (AR) and not yet answered: {cycle taken, data bytes}. */
    private final Map<Integer, ArrayDeque<long[]>> awTaken = new HashMap<>();
    private final Map<Integer, ArrayDeque<long[]>> arTaken = new HashMap<>();
    private final Stats stats = new Stats();
    private boolean reading;
    private long cycle;
    private long writesDone = -1;
    private int pauseBeforeReads;

    /**
     * What the run saw: B and completed reads by response (index: OKAY, EXOKAY, SLVERR, DECERR), the data bytes of
     * the bursts answered OKAY, and each transaction's latency (AW or AR taken to its B or last R beat), in cycles.
     */
    public static final class Stats {
        public final long[] writes = new long[4];
        public final long[] reads = new long[4];
        public long bytesWritten;
        public long bytesRead;
        /** The cycles the first burst was taken and the last one answered, writes {0, 1} and reads {2, 3}. */
        public final long[] span = {-1, -1, -1, -1};
        public final List<Long> writeLatencies = new ArrayList<>();
        public final List<Long> readLatencies = new ArrayList<>();

        /** The figures of several runs together (several pairs of one XPU): counts added, spans joined. */
        public static Stats sum(List<Stats> parts) {
            Stats t = new Stats();
            for (Stats s : parts) {
                for (int k = 0; k < 4; k++) {
                    t.writes[k] += s.writes[k];
                    t.reads[k] += s.reads[k];
                    boolean first = k % 2 == 0;
                    if (s.span[k] >= 0 && (t.span[k] < 0 || first == s.span[k] < t.span[k])) {
                        t.span[k] = s.span[k];
                    }
                }
                t.bytesWritten += s.bytesWritten;
                t.bytesRead += s.bytesRead;
                t.writeLatencies.addAll(s.writeLatencies);
                t.readLatencies.addAll(s.readLatencies);
            }
            return t;
        }

        public long writesAnswered() {
            return java.util.Arrays.stream(writes).sum();
        }

        public long readsAnswered() {
            return java.util.Arrays.stream(reads).sum();
        }

        /** Data bytes of the writes answered OKAY per cycle, from the first AW taken to the last B. */
        public double writeBytesPerCycle() {
            return (double) bytesWritten / (span[1] - span[0] + 1);
        }

        /** Data bytes of the reads answered OKAY per cycle, from the first AR taken to the last R beat. */
        public double readBytesPerCycle() {
            return (double) bytesRead / (span[3] - span[2] + 1);
        }
    }

    /**
     * The design's requests reach its own master, whose random memory slave this run drives; the bursts go to XPUs
     * 0..3 (or the configured ones, if fewer).
     *
     * @param masterIdWidth the far master's AxID width ({@code AxiRemoteMaster.Config.masterIdWidth})
     */
    public AxiWriteReadRun(Simulator sim, AxiConfig axi, int masterIdWidth, int requests, long seed, int validPercent,
                           int readyPercent) {
        this(sim, axi, "", masterIdWidth, requests, seed, validPercent, readyPercent);
    }

    /**
     * Like the constructor above on the pair whose slave's ports are {@code s<pair>_*} and master's {@code m<pair>_*}
     * (a bridge with several pairs; "" for {@code s_*}, {@code m_*}).
     */
    public AxiWriteReadRun(Simulator sim, AxiConfig axi, String pair, int masterIdWidth, int requests, long seed,
                           int validPercent, int readyPercent) {
        this(sim, axi, "s" + pair + "_", new AxiMemorySlave(sim, axi, "m" + pair + "_", masterIdWidth, 70, 20, true,
                0), true, IntStream.range(0, Math.min(4, axi.destinations())).toArray(), requests, 0, seed,
                validPercent, readyPercent);
    }

    /**
     * @param slave      the prefix of the slave's ports this run drives ({@code s_})
     * @param far        the memory the requests reach (on this design's master or another's)
     * @param drivesFar  whether this run drives {@code far} with its cycles (it is on this design)
     * @param targets    the XPUs the bursts go to (a few more go to unconfigured ones, if there are any)
     * @param burstBytes above 0: every burst a legal INCR of that many bytes in full beats with full strobes, aligned
     *                   to its size (throughput runs); 0: random bursts of every kind
     */
    public AxiWriteReadRun(Simulator sim, AxiConfig axi, String slave, AxiMemorySlave far, boolean drivesFar,
                           int[] targets, int requests, int burstBytes, long seed, int validPercent,
                           int readyPercent) {
        this.sim = sim;
        this.axi = axi;
        this.validPercent = validPercent;
        this.readyPercent = readyPercent;
        this.rules = new AxiRequestReference(axi);
        this.far = far;
        this.own = drivesFar ? far : null;
        this.targets = targets.clone();
        aw = new LayoutSource(sim, slave + "aw", axi.ax());
        w = new LayoutSource(sim, slave + "w", axi.w());
        ar = new LayoutSource(sim, slave + "ar", axi.ax());
        b = new LayoutSink(sim, slave + "b", axi.b());
        r = new LayoutSink(sim, slave + "r", axi.r());
        monitor = new AxiMonitor(sim, axi, slave, axi.idWidth(), false);
        writes(requests, burstBytes, new Random(seed));
    }

    private void writes(int requests, int burstBytes, Random rnd) {
        RandomBursts bursts = new RandomBursts(axi, rnd);
        for (int i = 0; i < requests; i++) {
            boolean illegal = burstBytes == 0 && rnd.nextInt(25) == 0;
            int unconfigured = 1024 - axi.destinations();
            int dst = burstBytes == 0 && unconfigured > 0 && rnd.nextInt(12) == 0
                    ? axi.destinations() + rnd.nextInt(unconfigured) : targets[rnd.nextInt(targets.length)];
            Ax a = burstBytes > 0 ? bursts.sized(dst, burstBytes) : bursts.request(dst, illegal);
            Ax paged = new Ax(a.addr() & ~(0xFFFFFL << 12) | (long) (i + 1) << 12, a.id(), a.len(), a.size(),
                    a.burst(), a.lock(), a.cache(), a.prot(), a.qos(), a.region(), a.user()); // a page of its own
            List<WBeat> beats = bursts.beats(paged, burstBytes > 0);
            aw.add(paged.pack(axi));
            beats.forEach(x -> w.add(axi.w().word().set("data", x.data()).set("strb", x.strb())
                    .set("last", x.last() ? 1 : 0).toBigInteger()));
            LocalResponse answer = rules.answer(paged, true);
            queue(paged.id()).add(new WantB(answer == null ? AxiConfig.OKAY : answer.resp(), paged, beats));
            if (answer == null) {
                for (int k = 0; k < beats.size(); k++) {
                    long at = beatLine(paged, k);
                    for (int lane = 0; lane < axi.beatBytes(); lane++) {
                        if (beats.get(k).strb().testBit(lane)) {
                            model.put(at + lane, beats.get(k).data().shiftRight(8 * lane).byteValue());
                        }
                    }
                }
            }
            writes.add(paged);
        }
    }

    /** Reads of every burst written: each beat's lanes from the model, or what the memory holds unwritten. */
    private void reads() {
        for (Ax a : writes) {
            ar.add(a.pack(axi));
            LocalResponse answer = rules.answer(a, false);
            for (int k = 0; k < a.beats(); k++) {
                BigInteger data = BigInteger.ZERO;
                BigInteger known = BigInteger.ZERO;
                long at = beatLine(a, k);
                for (int lane = axi.beatBytes() - 1; answer == null && lane >= 0; lane--) {
                    Byte v = model.get(at + lane);
                    data = data.shiftLeft(8).or(BigInteger.valueOf(v == null ? (at + lane) * 7 & 0xFF : v & 0xFF));
                    known = known.shiftLeft(8).or(BigInteger.valueOf(unknown.contains(at + lane) ? 0 : 0xFF));
                }
                queue(a.id()).add(new WantR(data, answer == null ? known : BigInteger.ZERO.not(),
                        answer == null ? AxiConfig.OKAY : answer.resp(), k == a.len()));
            }
        }
    }

    /** A B expected: its response, and the write's burst and beats. */
    private record WantB(int resp, Ax burst, List<WBeat> beats) {
    }

    /** An R beat expected: its data where {@code known} has bits (the rest unknown), response and RLAST. */
    private record WantR(BigInteger data, BigInteger known, int resp, boolean last) {
    }

    /**
     * Lets a transaction expected OKAY be answered SLVERR, as when the transport gives up on its destination while
     * it is outstanding or before it is taken.
     */
    public AxiWriteReadRun givingUpAllowed() {
        givingUpAllowed = true;
        return this;
    }

    private long beatLine(Ax a, int k) {
        return AxiRequestReference.beatAddress(a, k) / axi.beatBytes() * axi.beatBytes();
    }

    private ArrayDeque<Object> queue(int id) {
        return expected.computeIfAbsent(id, k -> new ArrayDeque<>());
    }

    /** The reads start {@code cycles} after the last write is answered (an idle system for a latency). */
    public AxiWriteReadRun pauseBeforeReads(int cycles) {
        pauseBeforeReads = cycles;
        return this;
    }

    /** The writes answered and checked, then the reads. */
    public boolean finished() {
        return reading && expected.values().stream().allMatch(ArrayDeque::isEmpty);
    }

    /** R beats the far slave interleaved across IDs. */
    public long interleaved() {
        return far.interleaved();
    }

    /** One cycle: {@link #drive}, then {@link #taken} (for a design this run drives alone). */
    public void cycle(Random rnd) {
        drive(rnd);
        taken(rnd);
    }

    /** The inputs of a cycle: the master's channels, and the memory slave if this run drives it. */
    public void drive(Random rnd) {
        if (!reading && expected.values().stream().allMatch(ArrayDeque::isEmpty) && writesDone < 0) {
            checkMemory();
            writesDone = cycle;
        }
        if (!reading && writesDone >= 0 && cycle >= writesDone + pauseBeforeReads) {
            reading = true;
            reads();
        }
        aw.drive(rnd, validPercent);
        w.drive(rnd, validPercent);
        ar.drive(rnd, validPercent);
        b.drive(rnd, readyPercent);
        r.drive(rnd, readyPercent);
        if (own != null) {
            own.drive(rnd);
        }
    }

    /** What moved at the clock edge to come, once every input of the design is driven: checked against the model. */
    public void taken(Random rnd) {
        monitor.check();
        took(aw.taken(), awTaken);
        w.taken();
        took(ar.taken(), arTaken);
        Layout bl = axi.b();
        Layout rl = axi.r();
        BigInteger gotB = b.taken();
        if (gotB != null) {
            Object want = queue((int) bl.field("id").get(gotB)).poll();
            int resp = (int) bl.field("resp").get(gotB);
            check(want instanceof WantB wb && (wb.resp() == resp || givenUp(wb.resp(), resp)), "B "
                    + gotB.toString(16));
            if (resp != ((WantB) want).resp()) {
                forget((WantB) want);
            }
            answered(gotB, bl, awTaken, stats.writes, stats.writeLatencies);
        }
        BigInteger gotR = r.taken();
        if (gotR != null) {
            Object want = queue((int) rl.field("id").get(gotR)).poll();
            BigInteger data = rl.field("data").getBig(gotR);
            int resp = (int) rl.field("resp").get(gotR);
            boolean last = rl.field("last").get(gotR) == 1;
            check(want instanceof WantR wr && wr.last() == last && (wr.resp() == resp
                    && data.and(wr.known()).equals(wr.data().and(wr.known()))
                    || givenUp(wr.resp(), resp) && data.signum() == 0), "R beat of ID " + rl.field("id").get(gotR));
            if (rl.field("last").get(gotR) == 1) {
                answered(gotR, rl, arTaken, stats.reads, stats.readLatencies);
            }
        }
        if (own != null) {
            own.taken(rnd);
        }
        cycle++;
    }

    /** The AXI4 monitor on the slave {@code s_}. */
    public AxiMonitor monitor() {
        return monitor;
    }

    /** At the end: nothing outstanding on the slave, nor on the master if this run drives its memory. */
    public void assertQuiet() {
        monitor.assertQuiet();
        if (own != null) {
            own.monitor().assertQuiet();
        }
    }

    /** What the run saw so far. */
    public Stats stats() {
        return stats;
    }

    private void took(BigInteger ax, Map<Integer, ArrayDeque<long[]>> taken) {
        if (ax != null) {
            Ax a = Ax.unpack(axi, ax);
            taken.computeIfAbsent(a.id(), k -> new ArrayDeque<>()).add(new long[] {cycle, (long) a.beats() << a.size()});
            int first = taken == arTaken ? 2 : 0;
            if (stats.span[first] < 0) {
                stats.span[first] = cycle;
            }
        }
    }

    /** A B or a last R beat: its response counted, its latency and, if OKAY, its burst's bytes. */
    private void answered(BigInteger got, Layout l, Map<Integer, ArrayDeque<long[]>> taken, long[] byResp,
                          List<Long> latencies) {
        int resp = (int) l.field("resp").get(got);
        long[] burst = taken.get((int) l.field("id").get(got)).poll();
        byResp[resp]++;
        latencies.add(cycle - burst[0]);
        stats.span[taken == arTaken ? 3 : 1] = cycle;
        if (resp == AxiConfig.OKAY && taken == arTaken) {
            stats.bytesRead += burst[1];
        } else if (resp == AxiConfig.OKAY) {
            stats.bytesWritten += burst[1];
        }
    }

    /** SLVERR where OKAY was expected: allowed when the transport may give up. */
    private boolean givenUp(int want, int got) {
        return givingUpAllowed && want == AxiConfig.OKAY && got == AxiConfig.SLVERR;
    }

    /** A write answered SLVERR instead of OKAY: its bytes are unknown from now on. */
    private void forget(WantB want) {
        for (int k = 0; k < want.beats().size(); k++) {
            long at = beatLine(want.burst(), k);
            for (int lane = 0; lane < axi.beatBytes(); lane++) {
                if (want.beats().get(k).strb().testBit(lane)) {
                    model.remove(at + lane);
                    unknown.add(at + lane);
                }
            }
        }
    }

    private void checkMemory() {
        for (Map.Entry<Long, Byte> e : model.entrySet()) {
            check(e.getValue().equals(far.memory(e.getKey())), "memory byte 0x" + Long.toHexString(e.getKey()));
        }
        check(far.memory().keySet().stream().allMatch(k -> model.containsKey(k) || unknown.contains(k)),
                "bytes written beyond the writes");
    }

    private void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("cycle " + cycle + ": " + what);
        }
    }
}
