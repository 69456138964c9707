package org.sue.axi.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.sue.axi.AxiConfig;
import org.sue.axi.model.AxiCommand;
import org.sue.axi.model.AxiRemoteMasterReference;
import org.sue.axi.model.AxiRemoteMasterReference.Part;
import org.sue.axi.model.AxiRequestReference;
import org.sue.axi.model.AxiRequestReference.Ax;
import org.sue.axi.model.AxiRequestReference.WBeat;
import org.sue.cmd.CommandControl;
import org.sue.core.Layout;
import org.sue.lib.stream.tb.LayoutSink;
import org.sue.lib.stream.tb.LayoutSource;
import org.sue.sim.Simulator;

/**
 * Drives an {@code AxiRemoteMaster}: random requests of several source XPUs (legal bursts of every type from
 * {@link RandomBursts}, in a few 4 KiB pages so that reads see earlier writes), made into WRITE, WRITE_STROBED and
 * READ commands by {@link AxiRequestReference} and interleaved between the sources a command at a time, with a command
 * of an unknown type now and then, random gaps on {@code req} and random ready on {@code rsp}; an
 * {@link AxiMemorySlave} answers on the master ports. It checks, before the run, that the reference makes each write's
 * commands back into the write's own beats and strobes; and as things happen: every AW, AR and W beat (strobes
 * included) against {@link AxiRemoteMasterReference}, in issue order; the ID remapping (the outstanding parts of one
 * master ID share one {source, ID}, which no other master ID has outstanding, at most {@code maxPartsPerEntry} of
 * them); every response command (a WRITE_RESPONSE per write part, a READ_RESPONSE per read part) against the
 * reference given the slave's answers, in order per {type, source, ID}; and at the end the slave's memory against the
 * reference's writes.
 */
public final class AxiRemoteMasterRun {
    /**
     * What the run sends and how the slave behaves.
     *
     * @param requests          AXI requests, each made into its commands (about half writes unless page traffic)
     * @param sources           source XPUs sending them (XPU ids 10, 17, 24, ...), any number (more than the
     *                          master's {@code remapEntries} make parts wait for entries)
     * @param validPercent      chance a new command beat is offered on {@code req} in a cycle
     * @param readyPercent      chance {@code rsp} is ready in a cycle
     * @param slaveReadyPercent chance of AW/W/AR ready and of a B or R beat offered, per cycle
     * @param maxLatency        cycles at most from the last W beat to its B, from AR to the first R beat
     * @param interleave        R beats of different IDs interleaved at random
     * @param errorPercent      responses (B, each R beat) not OKAY: SLVERR, EXOKAY, DECERR
     */
    public record Options(int requests, long seed, int sources, int validPercent, int readyPercent,
                          int slaveReadyPercent, int maxLatency, boolean interleave, int errorPercent,
                          Traffic traffic) {
    }

    /**
     * A random mix, or only 4 KiB INCR bursts of full beats (writes, writes with one strobe low in each part's first
     * beat so that every part travels as WRITE_STROBED commands, or reads), no unknown commands.
     */
    public enum Traffic { MIXED, PAGE_WRITES, PAGE_STROBED_WRITES, PAGE_READS }

    private final Simulator sim;
    private final AxiConfig axi;
    private final int maxParts;
    private final Options o;
    private final LayoutSource req;
    private final LayoutSink rsp;
    private final AxiMemorySlave slave;
    private final AxiRemoteMasterReference ref;
    private final ArrayDeque<Part> writeParts = new ArrayDeque<>();
    private final ArrayDeque<Part> readParts = new ArrayDeque<>();
    private final ArrayDeque<Part> wData = new ArrayDeque<>();
    private final Map<Integer, ArrayDeque<Part>> writesOut = new HashMap<>();
    private final Map<Integer, ArrayDeque<Part>> readsOut = new HashMap<>();
    private final Map<Integer, List<BigInteger>> rData = new HashMap<>();
    private final Map<Integer, List<Integer>> rResp = new HashMap<>();
    private final Map<String, ArrayDeque<AxiCommand>> expected = new HashMap<>();
    private final Map<Long, Byte> shadow = new HashMap<>();
    private final AxiCommandBeats beats;
    private int gathered;
    private final Map<String, Long> counts = new HashMap<>();
    private long cycle;
    private long stalled;
    private int wBeat;

    public AxiRemoteMasterRun(Simulator sim, AxiConfig axi, int idWidth, int maxParts, Options o) {
        this.sim = sim;
        this.axi = axi;
        this.maxParts = maxParts;
        this.o = o;
        req = new LayoutSource(sim, "req", axi.commandBeat());
        rsp = new LayoutSink(sim, "rsp", axi.commandBeat());
        slave = new AxiMemorySlave(sim, axi, "m_", idWidth, o.slaveReadyPercent(), o.maxLatency(), o.interleave(),
                o.errorPercent());
        ref = new AxiRemoteMasterReference(axi);
        beats = new AxiCommandBeats(axi);
        generate(new Random(o.seed()));
    }

    private void generate(Random rnd) {
        RandomBursts bursts = new RandomBursts(axi, rnd);
        AxiRequestReference requests = new AxiRequestReference(axi);
        List<ArrayDeque<AxiCommand>> bySource = new ArrayList<>();
        for (int s = 0; s < o.sources(); s++) {
            bySource.add(new ArrayDeque<>());
        }
        for (int i = 0; i < o.requests(); i++) {
            int source = rnd.nextInt(o.sources());
            boolean mixed = o.traffic() == Traffic.MIXED;
            boolean write = mixed ? rnd.nextBoolean() : o.traffic() != Traffic.PAGE_READS;
            Ax a = mixed ? bursts.request(0, false) : bursts.page(0);
            // a few pages only, so that reads find earlier writes
            a = new Ax(a.addr() & 0xFFF | (long) rnd.nextInt(4) << 12, a.id(), a.len(), a.size(), a.burst(),
                    a.lock(), a.cache(), a.prot(), a.qos(), a.region(), a.user());
            List<WBeat> beats = write ? bursts.beats(a, !mixed) : List.of();
            if (o.traffic() == Traffic.PAGE_STROBED_WRITES) {
                beats = strobed(beats);
            }
            List<AxiCommand> cmds = write ? requests.write(a, beats).commands() : requests.read(a).commands();
            if (write) {
                checkDecoded(a, beats, cmds);
            }
            for (AxiCommand c : cmds) {
                bySource.get(source).add(new AxiCommand(c.control(), 10 + 7 * source, c.vc(), c.data()));
            }
        }
        List<Integer> left = new ArrayList<>();
        for (int s = 0; s < o.sources(); s++) {
            left.add(s);
        }
        while (!left.isEmpty()) {
            int pick = rnd.nextInt(left.size());
            ArrayDeque<AxiCommand> q = bySource.get(left.get(pick));
            if (o.traffic() == Traffic.MIXED && rnd.nextInt(40) == 0) {
                send(new AxiCommand(BigInteger.valueOf(rnd.nextBoolean() ? AxiConfig.WRITE_RESPONSE : 9)
                        .or(BigInteger.valueOf(rnd.nextInt(3 * axi.beatBytes())).shiftLeft(16)), 3, 0, null), rnd);
            }
            send(q.poll(), rnd);
            if (q.isEmpty()) {
                left.remove(pick);
            }
        }
    }

    /** Beats with byte 0's strobe low in each part's first beat. */
    private List<WBeat> strobed(List<WBeat> beats) {
        List<WBeat> list = new ArrayList<>();
        for (int k = 0; k < beats.size(); k++) {
            WBeat b = beats.get(k);
            list.add(k % axi.partBeats() == 0 ? new WBeat(b.data(), b.strb().clearBit(0), b.last()) : b);
        }
        return list;
    }

    /**
     * The reference makes the WRITE and WRITE_STROBED commands of a write back into its beats: the same data and
     * strobes, in order (a check of the reference's strobes against the request side's, independent of the RTL).
     */
    private void checkDecoded(Ax aw, List<WBeat> beats, List<AxiCommand> cmds) {
        AxiRemoteMasterReference decoder = new AxiRemoteMasterReference(axi);
        List<WBeat> got = new ArrayList<>();
        for (AxiCommand c : cmds) {
            Part p = decoder.take(c);
            p.beats().forEach(b -> got.add(new WBeat(b.data(), b.strb(), false)));
        }
        List<WBeat> want = beats.stream().map(b -> new WBeat(b.data(), b.strb(), false)).toList();
        if (!want.equals(got)) {
            throw new AssertionError("the reference decodes the commands of " + aw + " as " + got + ", written "
                    + want);
        }
    }

    /** A command to {@code req}, and what the reference makes of it. */
    private void send(AxiCommand c, Random rnd) {
        int length = (int) (CommandControl.LAYOUT.field("length_hi").get(c.control()) << 8
                | CommandControl.LAYOUT.field("length_lo").get(c.control()));
        byte[] data = c.data() != null ? c.data() : randomBytes(length, rnd);
        AxiCommand cmd = new AxiCommand(c.control(), c.xpuid(), c.vc(), data);
        Part p = ref.take(cmd);
        if (p != null) {
            (p.write() ? writeParts : readParts).add(p);
            count(p.write() ? "writes_issued" : "reads_issued", 1);
            count(p.write() ? "write_responses" : "read_responses", 1);
            count("multi_part_writes", p.write() && !p.last() ? 1 : 0);
        }
        count("strobed_commands", cmd.type() == AxiConfig.WRITE_STROBED ? 1 : 0);
        count("bad_commands", p == null ? 1 : 0);
        beats.beats(cmd).forEach(req::add);
    }

    private static byte[] randomBytes(int n, Random rnd) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    private void count(String name, long n) {
        counts.merge(name, n, Long::sum);
    }

    public Map<String, Long> expectedCounts() {
        return Map.copyOf(counts);
    }

    /**
     * How often the cases that matter happened: write responses not OKAY ({@code error_responses}), write bursts of
     * several parts ({@code multi_part_writes}: their parts before the last), R beats interleaved, bytes read back
     * that a write had put there.
     */
    public Map<String, Long> cases() {
        return Map.of("error_responses", counts.getOrDefault("error_responses", 0L), "multi_part_writes",
                counts.getOrDefault("multi_part_writes", 0L), "interleaved", slave.interleaved(), "read_hits",
                slave.readHits());
    }

    public boolean finished() {
        return req.idle() && writeParts.isEmpty() && readParts.isEmpty() && slave.idle()
                && expected.values().stream().allMatch(ArrayDeque::isEmpty) && gathered == 0;
    }

    /** One cycle's inputs, then what moves at the edge, checked. Call before each step. */
    public void cycle(Random rnd) {
        req.drive(rnd, o.validPercent());
        rsp.drive(rnd, o.readyPercent());
        slave.drive(rnd);
        boolean moved = req.taken() != null;
        slave.taken(rnd);
        moved |= slave.lastAw != null || slave.lastW != null || slave.lastAr != null || slave.lastB != null
                || slave.lastR != null;
        if (slave.lastAw != null) {
            issued(true, slave.lastAw.ax(), writeParts, writesOut);
        }
        if (slave.lastW != null) {
            wBeat(slave.lastW);
        }
        if (slave.lastAr != null) {
            issued(false, slave.lastAr.ax(), readParts, readsOut);
        }
        if (slave.lastB != null) {
            Part p = writesOut.get(slave.lastB.id()).poll();
            count("error_responses", slave.lastB.resp() != AxiConfig.OKAY ? 1 : 0);
            expect(ref.writeAnswered(p, slave.lastB.resp()), p);
        }
        if (slave.lastR != null) {
            rBeat(slave.lastR);
        }
        BigInteger beat = rsp.taken();
        if (beat != null) {
            gather(beat);
        }
        stalled = moved || beat != null ? 0 : stalled + 1;
        cycle++;
    }

    /** An AW or AR against the next part of its direction; the remapping rules. */
    private void issued(boolean write, Ax got, ArrayDeque<Part> parts, Map<Integer, ArrayDeque<Part>> out) {
        Part p = parts.poll();
        if (p == null) {
            throw new AssertionError("cycle " + cycle + ": " + (write ? "AW" : "AR") + " " + got + " not expected");
        }
        Ax want = p.ax();
        Ax asIssued = new Ax(want.addr(), got.id(), want.len(), want.size(), want.burst(), want.lock(), want.cache(),
                want.prot(), want.qos(), want.region(), want.user());
        if (!asIssued.equals(got)) {
            throw new AssertionError("cycle " + cycle + ": " + (write ? "AW " : "AR ") + got + ", expected " + want);
        }
        for (Map.Entry<Integer, ArrayDeque<Part>> e : out.entrySet()) {
            for (Part q : e.getValue()) {
                if ((e.getKey() == got.id()) != (q.key() == p.key())) {
                    throw new AssertionError("cycle " + cycle + ": part of source " + p.source() + " ID "
                            + want.id() + " issued as master ID " + got.id() + " while master ID " + e.getKey()
                            + " has a part of source " + q.source() + " ID " + q.ax().id() + " outstanding");
                }
            }
        }
        ArrayDeque<Part> mine = out.computeIfAbsent(got.id(), k -> new ArrayDeque<>());
        if (mine.size() >= maxParts) {
            throw new AssertionError("cycle " + cycle + ": master ID " + got.id() + " has more than " + maxParts
                    + " parts outstanding");
        }
        mine.add(p);
        if (write) {
            wData.add(p);
        }
    }

    private void wBeat(WBeat got) {
        Part p = wData.peek();
        WBeat want = p.beats().get(wBeat);
        if (!want.equals(got)) {
            throw new AssertionError("cycle " + cycle + ": W beat " + wBeat + " " + got + ", expected " + want);
        }
        long address = AxiRequestReference.beatAddress(p.ax(), wBeat) / axi.beatBytes() * axi.beatBytes();
        for (int lane = 0; lane < axi.beatBytes(); lane++) {
            if (want.strb().testBit(lane)) {
                shadow.put(address + lane, want.data().shiftRight(8 * lane).byteValue());
            }
        }
        wBeat++;
        if (want.last()) {
            wData.poll();
            wBeat = 0;
        }
    }

    private void rBeat(AxiMemorySlave.RBeat beat) {
        rData.computeIfAbsent(beat.id(), k -> new ArrayList<>()).add(beat.data());
        rResp.computeIfAbsent(beat.id(), k -> new ArrayList<>()).add(beat.resp());
        if (!beat.last()) {
            return;
        }
        Part p = readsOut.get(beat.id()).poll();
        List<BigInteger> data = rData.remove(beat.id());
        if (data.size() != p.ax().beats()) {
            throw new AssertionError("cycle " + cycle + ": the slave sent " + data.size() + " beats for " + p.ax());
        }
        expect(ref.readAnswered(p, data, rResp.remove(beat.id())), p);
    }

    private void expect(AxiCommand c, Part p) {
        if (c != null) {
            expected.computeIfAbsent(key(c.type(), p.source(), p.ax().id()), k -> new ArrayDeque<>()).add(c);
        }
    }

    private static String key(int type, int source, int id) {
        return type + "/" + source + "/" + id;
    }

    private void gather(BigInteger beat) {
        gathered++;
        AxiCommand got = beats.add(beat);
        if (got == null) {
            return;
        }
        int expectedBeats = Math.max(1, (got.data().length + axi.beatBytes() - 1) / axi.beatBytes());
        if (expectedBeats != gathered) {
            throw new AssertionError("cycle " + cycle + ": a response of " + got.data().length + " bytes in "
                    + gathered + " beats");
        }
        gathered = 0;
        Layout l = got.type() == AxiConfig.WRITE_RESPONSE ? axi.writeResponseControl() : axi.readResponseControl();
        int id = (int) l.field("id").get(got.bits());
        ArrayDeque<AxiCommand> q = expected.get(key(got.type(), got.xpuid(), id));
        AxiCommand want = q == null ? null : q.poll();
        if (want == null || !want.equals(got)) {
            throw new AssertionError("cycle " + cycle + ": response " + got + ", expected " + want);
        }
    }

    /** At the end: nothing outstanding on the master's ports (the AXI4 monitor's count). */
    public void assertQuiet() {
        slave.monitor().assertQuiet();
    }

    /** The slave's memory holds every byte the reference's writes put there. */
    public void checkMemory() {
        for (Map.Entry<Long, Byte> e : shadow.entrySet()) {
            Byte got = slave.memory(e.getKey());
            if (!e.getValue().equals(got)) {
                throw new AssertionError("memory at 0x" + Long.toHexString(e.getKey()) + " holds " + got
                        + ", the writes left " + e.getValue());
            }
        }
        if (shadow.size() != slave.memory().size()) {
            throw new AssertionError("the slave's memory has " + slave.memory().size() + " bytes written, the "
                    + "reference " + shadow.size());
        }
    }

    /** Cycles since a beat last moved on any port (a deadlock shows as this growing without end). */
    public long stalled() {
        return stalled;
    }

    public long cycles() {
        return cycle;
    }
}
