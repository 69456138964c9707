package org.sue.axi.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.sue.axi.AxiConfig;
import org.sue.axi.model.AxiRequestReference;
import org.sue.axi.model.AxiRequestReference.Ax;
import org.sue.axi.model.AxiCommand;
import org.sue.axi.model.AxiRequestReference.LocalResponse;
import org.sue.axi.model.AxiRequestReference.Outcome;
import org.sue.axi.model.AxiRequestReference.WBeat;
import org.sue.core.Layout;
import org.sue.lib.stream.tb.LayoutSink;
import org.sue.lib.stream.tb.LayoutSource;
import org.sue.sim.Simulator;

/**
 * Drives an {@code AxiRequestPacker} with random requests (every burst type, narrow and partial writes, illegal bursts,
 * destinations not configured, wrong WLASTs, a few IDs to a few destinations so that the ID rule bites), random gaps
 * on AW, W and AR and random ready on {@code cmd} and {@code local}, and completes each transaction a random time after
 * its last command or its answer left, on {@code wdone}/{@code rdone}. It checks, as things happen: every command and
 * every answer against {@link AxiRequestReference}, in request order per direction; and the ID rule: when a request's
 * first command or answer appears, the transactions of its ID and direction not yet completed go to the same
 * destination and are fewer than {@code maxOutstanding}.
 */
public final class AxiRequestRun {
    /** A request on its way: direction, ID, where it goes (destinations; {@code 1024}: answered by SUE). */
    private record Tx(boolean write, int id, int key) {
    }

    private record Expected(AxiCommand command, Tx tx, boolean first, boolean last) {
    }

    private record Due(long cycle, int id) {
    }

    private static final int LOCAL = 1024;

    /** What the run sends: a random mix, or only 4 KiB INCR bursts of full beats to one destination. */
    public enum Traffic { MIXED, PAGE_WRITES, PAGE_READS }

    private final Simulator sim;
    private final AxiConfig axi;
    private final int validPercent;
    private final int readyPercent;
    private final LayoutSource aw;
    private final LayoutSource w;
    private final LayoutSource ar;
    private final LayoutSink cmd;
    private final LayoutSink local;
    private final ArrayDeque<Expected> writeCommands = new ArrayDeque<>();
    private final ArrayDeque<Expected> readCommands = new ArrayDeque<>();
    private final ArrayDeque<Tx> writeAnswers = new ArrayDeque<>();
    private final ArrayDeque<Tx> readAnswers = new ArrayDeque<>();
    private final ArrayDeque<LocalResponse> answerValues = new ArrayDeque<>();
    private final ArrayDeque<LocalResponse> readAnswerValues = new ArrayDeque<>();
    private final Map<Boolean, Map<Integer, List<Tx>>> outstanding = Map.of(true, new HashMap<>(), false, new HashMap<>());
    private final ArrayDeque<Due> writeDone = new ArrayDeque<>();
    private final ArrayDeque<Due> readDone = new ArrayDeque<>();
    private final AxiCommandBeats gathered;
    private final Map<String, Long> counts = new HashMap<>();
    private long cycle;

    /**
     * @param requests     writes and reads, about half each
     * @param destinations the configured XPUs the legal requests go to (the first few); a request in ten goes to an
     *                     XPU not configured (when there is one), one in twenty breaks an AXI4 rule
     */
    public AxiRequestRun(Simulator sim, AxiConfig axi, int requests, long seed, int validPercent, int readyPercent) {
        this(sim, axi, Traffic.MIXED, requests, seed, validPercent, readyPercent);
    }

    public AxiRequestRun(Simulator sim, AxiConfig axi, Traffic traffic, int requests, long seed, int validPercent,
                         int readyPercent) {
        this(sim, axi, traffic, -1, requests, seed, validPercent, readyPercent);
    }

    /**
     * @param unreachable an XPU the transport has given up on for the whole run ({@code dst_unreachable}), or -1:
     *                    the legal requests to it are answered SLVERR
     */
    public AxiRequestRun(Simulator sim, AxiConfig axi, Traffic traffic, int unreachable, int requests, long seed,
                         int validPercent, int readyPercent) {
        this.sim = sim;
        this.axi = axi;
        this.validPercent = validPercent;
        this.readyPercent = readyPercent;
        aw = new LayoutSource(sim, "aw", axi.ax());
        w = new LayoutSource(sim, "w", axi.w());
        ar = new LayoutSource(sim, "ar", axi.ax());
        cmd = new LayoutSink(sim, "cmd", axi.commandBeat());
        local = new LayoutSink(sim, "local", axi.localResponse());
        gathered = new AxiCommandBeats(axi);
        sim.poke("dst_unreachable", unreachable < 0 ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(unreachable));
        generate(traffic, unreachable, requests, new Random(seed));
    }

    private void generate(Traffic traffic, int unreachable, int requests, Random rnd) {
        RandomBursts bursts = new RandomBursts(axi, rnd);
        AxiRequestReference ref = new AxiRequestReference(axi);
        if (unreachable >= 0) {
            ref.unreachable.add(unreachable);
        }
        Layout wl = axi.w();
        for (int i = 0; i < requests; i++) {
            boolean mixed = traffic == Traffic.MIXED;
            boolean write = mixed ? rnd.nextBoolean() : traffic == Traffic.PAGE_WRITES;
            boolean illegal = mixed && rnd.nextInt(20) == 0;
            int dst = !mixed ? 0 : axi.destinations() < 1024 && rnd.nextInt(10) == 0
                    ? axi.destinations() + rnd.nextInt(1024 - axi.destinations())
                    : rnd.nextInt(Math.min(3, axi.destinations()));
            Ax a = mixed ? bursts.request(dst, illegal) : bursts.page(dst);
            Outcome o;
            if (write) {
                List<WBeat> beats = bursts.beats(a, !mixed);
                o = ref.write(a, beats);
                aw.add(a.pack(axi));
                for (WBeat b : beats) {
                    boolean last = mixed && rnd.nextInt(200) == 0 ? !b.last() : b.last();
                    count("wlast_errors", last != b.last() ? 1 : 0);
                    w.add(wl.word().set("data", b.data()).set("strb", b.strb()).set("last", last ? 1 : 0)
                            .toBigInteger());
                }
            } else {
                o = ref.read(a);
                ar.add(a.pack(axi));
            }
            count(write ? "writes" : "reads", 1);
            Tx tx = new Tx(write, a.id(), o.answer() != null ? LOCAL : o.dst());
            if (o.answer() != null) {
                (write ? writeAnswers : readAnswers).add(tx);
                (write ? answerValues : readAnswerValues).add(o.answer());
                count(o.answer().resp() == AxiConfig.DECERR ? "decode_errors" : ref.legal(a) ? "unreachable_errors"
                        : "burst_errors", 1);
            }
            for (int c = 0; c < o.commands().size(); c++) {
                AxiCommand command = o.commands().get(c);
                (write ? writeCommands : readCommands).add(new Expected(command, tx, c == 0,
                        c == o.commands().size() - 1));
                count(command.type() == AxiConfig.WRITE ? "write_commands"
                        : command.type() == AxiConfig.READ ? "read_commands" : "strobe_commands", 1);
            }
        }
    }

    private void count(String name, long n) {
        counts.merge(name, n, Long::sum);
    }

    /** What the run's requests should have made the counters: counter name to value. */
    public Map<String, Long> expectedCounts() {
        return Map.copyOf(counts);
    }

    /** Every request sent, every command and answer seen, every transaction completed. */
    public boolean finished() {
        return aw.idle() && w.idle() && ar.idle() && writeCommands.isEmpty() && readCommands.isEmpty()
                && writeAnswers.isEmpty() && readAnswers.isEmpty() && writeDone.isEmpty() && readDone.isEmpty();
    }

    /** One cycle's inputs, then what moves at the edge, checked. Call before each step. */
    public void cycle(Random rnd) {
        aw.drive(rnd, validPercent);
        w.drive(rnd, validPercent);
        ar.drive(rnd, validPercent);
        cmd.drive(rnd, readyPercent);
        local.drive(rnd, readyPercent);
        complete("wdone", writeDone, true);
        complete("rdone", readDone, false);
        aw.taken();
        w.taken();
        ar.taken();
        BigInteger beat = cmd.taken();
        if (beat != null) {
            gather(beat, rnd);
        }
        BigInteger answer = local.taken();
        if (answer != null) {
            answered(answer, rnd);
        }
        cycle++;
    }

    /** The oldest completion that is due, on its flow. */
    private void complete(String flow, ArrayDeque<Due> due, boolean write) {
        boolean now = !due.isEmpty() && due.peek().cycle() <= cycle;
        int id = now ? due.poll().id() : 0;
        sim.poke(flow + "_valid", now ? 1 : 0);
        sim.poke(flow + "_id", id);
        if (now) {
            outstanding.get(write).get(id).remove(0);
        }
    }

    private void gather(BigInteger beat, Random rnd) {
        AxiCommand got = gathered.add(beat);
        if (got == null) {
            return;
        }
        ArrayDeque<Expected> list = got.type() == AxiConfig.READ ? readCommands : writeCommands;
        Expected e = list.poll();
        if (e == null || !e.command().equals(got)) {
            throw new AssertionError("cycle " + cycle + ": command " + got + ", expected " + (e == null ? "none"
                    : e.command()));
        }
        if (e.first()) {
            issued(e.tx());
        }
        if (e.last()) {
            (e.tx().write() ? writeDone : readDone).add(new Due(cycle + 1 + rnd.nextInt(40), e.tx().id()));
        }
    }

    private void answered(BigInteger packed, Random rnd) {
        Layout l = axi.localResponse();
        boolean write = l.field("write").get(packed) == 1;
        LocalResponse got = new LocalResponse(write, (int) l.field("id").get(packed), (int) l.field("resp").get(packed),
                (int) l.field("beats").get(packed));
        LocalResponse want = (write ? answerValues : readAnswerValues).poll();
        Tx tx = (write ? writeAnswers : readAnswers).poll();
        if (!got.equals(want)) {
            throw new AssertionError("cycle " + cycle + ": answer " + got + ", expected " + want);
        }
        issued(tx);
        (write ? writeDone : readDone).add(new Due(cycle + 1 + rnd.nextInt(40), tx.id()));
    }

    /** The ID rule, as a transaction's first output appears; it stays outstanding until its completion is given. */
    private void issued(Tx tx) {
        List<Tx> same = outstanding.get(tx.write()).computeIfAbsent(tx.id(), k -> new ArrayList<>());
        for (Tx t : same) {
            if (t.key() != tx.key()) {
                throw new AssertionError("cycle " + cycle + ": ID " + tx.id() + (tx.write() ? " write" : " read")
                        + " to " + tx.key() + " while one to " + t.key() + " is outstanding");
            }
        }
        if (same.size() >= axi.maxOutstanding()) {
            throw new AssertionError("cycle " + cycle + ": ID " + tx.id() + " has more than " + axi.maxOutstanding()
                    + " outstanding");
        }
        same.add(tx);
    }
}
