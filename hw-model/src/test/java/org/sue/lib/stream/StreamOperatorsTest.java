package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.HdlException;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.sim.StreamProtocolChecker;
import org.sue.core.Reg;
import org.sue.sim.Simulator;

/**
 * Each stream operator between an input and an output stream, under random valid and ready: the beats that leave
 * are exactly the ones the operator's rule lets through, in order (the reference is the list of beats taken at the
 * input), one beat per cycle when nothing stalls, and the registered operators cut the path they promise to cut.
 */
class StreamOperatorsTest {
    static final Layout WORD = Layout.of("word", Layout.bits("value", 12), Layout.bits("tag", 4));

    /** in -> op -> out, with a 1-bit {@code cond} input for the conditional operators. */
    static final class OneOp extends Component {
        OneOp(BiFunction<Stream, Expr, Stream> op) {
            Stream in = Stream.slave(this, "in", WORD);
            Port cond = in("cond", 1);
            Stream out = Stream.master(this, "out", WORD);
            op.apply(in, cond).into(out);
        }
    }

    record Run(List<Long> taken, List<Long> takenWhileCond, List<Long> delivered, long cycles) {
    }

    /** Offers 0, 1, 2, ... with the given valid / ready / cond probabilities (percent) for {@code cycles}. */
    static Run run(Simulator sim, int validPct, int readyPct, int condPct, long cycles, long seed) {
        Random rnd = new Random(seed);
        sim.reset();
        long next = 0;
        List<Long> taken = new ArrayList<>();
        List<Long> takenWhileCond = new ArrayList<>();
        List<Long> delivered = new ArrayList<>();
        boolean offering = false;
        for (long c = 0; c < cycles; c++) {
            // a producer keeps its beat offered until taken
            offering = offering || rnd.nextInt(100) < validPct;
            boolean cond = rnd.nextInt(100) < condPct;
            sim.poke("in_valid", offering ? 1 : 0);
            sim.poke("in_value", next & 0xfff);
            sim.poke("in_tag", next >> 12 & 0xf);
            sim.poke("cond", cond ? 1 : 0);
            sim.poke("out_ready", rnd.nextInt(100) < readyPct ? 1 : 0);
            if (offering && sim.peek("in_ready") == 1) {
                (cond ? takenWhileCond : taken).add(next);
                next++;
                offering = false;
            }
            if (sim.peek("out_valid") == 1 && sim.peek("out_ready") == 1) {
                delivered.add(sim.peek("out_tag") << 12 | sim.peek("out_value"));
            }
            sim.step();
        }
        return new Run(taken, takenWhileCond, delivered, cycles);
    }

    static Simulator sim(BiFunction<Stream, Expr, Stream> op) {
        return Simulator.compile(Design.elaborate(new OneOp(op)));
    }

    static void assertPrefix(List<Long> all, List<Long> delivered, int inFlight) {
        assertTrue(delivered.size() <= all.size() && all.size() - delivered.size() <= inFlight,
                all.size() + " taken, " + delivered.size() + " delivered");
        assertEquals(all.subList(0, delivered.size()), delivered, "beats leave in order, none lost or repeated");
    }

    @Test
    void registerStagesAndQueuesPassEveryBeatInOrderAtFullRate() {
        List<BiFunction<Stream, Expr, Stream>> ops = List.of((s, c) -> s.stage(), (s, c) -> s.skid(),
                (s, c) -> s.queue(4), (s, c) -> s.stage().skid().queue(3));
        for (BiFunction<Stream, Expr, Stream> op : ops) {
            Simulator sim = sim(op);
            for (int[] rates : new int[][] {{100, 100}, {60, 40}, {30, 90}, {90, 20}}) {
                Run r = run(sim, rates[0], rates[1], 0, 3000, rates[0] * 7 + rates[1]);
                List<Long> all = new ArrayList<>(r.taken());
                all.addAll(r.takenWhileCond());
                assertPrefix(all, r.delivered(), 8);
                if (rates[0] == 100 && rates[1] == 100) {
                    assertTrue(r.delivered().size() >= r.cycles() - 8, "one beat per cycle: " + r.delivered().size()
                            + " in " + r.cycles() + " cycles");
                }
            }
        }
    }

    @Test
    void stageRegistersValidAndSkidRegistersReady() {
        Simulator stage = sim((s, c) -> s.stage());
        stage.reset();
        stage.poke("in_valid", 1);
        stage.poke("out_ready", 0);
        stage.step(); // one beat held
        for (int v = 0; v < 2; v++) {
            stage.poke("in_valid", v);
            assertEquals(1, stage.peek("out_valid"), "out_valid comes from a register, not from in_valid");
        }
        Simulator skid = sim((s, c) -> s.skid());
        skid.reset();
        skid.poke("in_valid", 1);
        skid.poke("out_ready", 0);
        skid.step(); // the beat waits in the buffer
        for (int r = 0; r < 2; r++) {
            skid.poke("out_ready", r);
            assertEquals(0, skid.peek("in_ready"), "in_ready comes from a register, not from out_ready");
        }
    }

    @Test
    void haltWhenHoldsBeatsAndContinueWhenIsItsInverse() {
        for (boolean halt : new boolean[] {true, false}) {
            Simulator sim = sim(halt ? Stream::haltWhen : Stream::continueWhen);
            // cond here changes every cycle, also while a beat waits at out: the gate then drops out_valid before
            // out_ready (the operator passes a withdrawal on; first at cycle 4). Not checked until the operator holds
            // what it offers or says that cond must not rise under a waiting beat.
            StreamProtocolChecker.on(sim).exempt("out");
            Run r = run(sim, 70, 70, 50, 2000, 5);
            if (halt) {
                assertEquals(List.of(), r.takenWhileCond(), "nothing moves while halted");
                assertEquals(r.taken(), r.delivered());
            } else {
                assertEquals(List.of(), r.taken(), "nothing moves unless continued");
                assertEquals(r.takenWhileCond(), r.delivered());
            }
            assertTrue(r.delivered().size() > 300, r.delivered().size() + " beats moved");
        }
    }

    @Test
    void throwWhenDropsExactlyTheBeatsOfferedWhileTheConditionHolds() {
        Simulator sim = sim(Stream::throwWhen);
        // as with haltWhen: a cond that rises while a beat waits at out takes it back (out_valid drops before
        // out_ready, first at cycle 12). Not checked until the operator or its contract changes.
        StreamProtocolChecker.on(sim).exempt("out");
        Run r = run(sim, 70, 60, 30, 2000, 6);
        assertEquals(r.taken(), r.delivered(), "beats taken without the condition pass, in order");
        assertTrue(r.takenWhileCond().size() > 100, "beats were dropped: " + r.takenWhileCond().size());
    }

    /** in -> fork(2) -> out_a, out_b. */
    static final class Fork extends Component {
        Fork() {
            Stream in = Stream.slave(this, "in", WORD);
            List<Stream> outs = in.fork(2);
            outs.get(0).into(Stream.master(this, "out_a", WORD));
            outs.get(1).into(Stream.master(this, "out_b", WORD));
        }
    }

    @Test
    void forkDeliversEveryBeatToEachOutputAtItsOwnPace() {
        Simulator sim = Simulator.compile(Design.elaborate(new Fork()));
        Random rnd = new Random(7);
        sim.reset();
        List<Long> taken = new ArrayList<>();
        List<Long> a = new ArrayList<>();
        List<Long> b = new ArrayList<>();
        long next = 0;
        int fullRateCycles = 0;
        for (int c = 0; c < 3000; c++) {
            boolean allReady = c >= 2500;
            sim.poke("in_valid", 1);
            sim.poke("in_value", next);
            sim.poke("out_a_ready", allReady || rnd.nextBoolean() ? 1 : 0);
            sim.poke("out_b_ready", allReady || rnd.nextInt(3) == 0 ? 1 : 0);
            for (String o : List.of("a", "b")) {
                if (sim.peek("out_" + o + "_valid") == 1 && sim.peek("out_" + o + "_ready") == 1) {
                    (o.equals("a") ? a : b).add(sim.peek("out_" + o + "_value"));
                }
            }
            if (sim.peek("in_ready") == 1) {
                taken.add(next);
                next = (next + 1) & 0xfff;
                fullRateCycles += allReady ? 1 : 0;
            }
            sim.step();
        }
        assertPrefix(taken, a, 1);
        assertPrefix(taken, b, 1);
        assertEquals(500, fullRateCycles, "with both outputs ready, one beat per cycle");
    }

    /** Three inputs into an arbiter; the chosen index is an output. */
    static final class Arb extends Component {
        Arb(java.util.function.Function<List<Stream>, Arbiter.Arbitration> arbiter) {
            List<Stream> ins = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ins.add(Stream.slave(this, "in" + i, WORD));
            }
            Arbiter.Arbitration a = arbiter.apply(ins);
            a.out().into(Stream.master(this, "out", WORD));
            out("chosen", 2).set(a.chosen());
        }
    }

    @Test
    void roundRobinArbiterIsFairKeepsEachInputInOrderAndHoldsAnOfferedBeat() {
        Simulator sim = Simulator.compile(Design.elaborate(new Arb(ins -> Arbiter.roundRobin("arb", ins))));
        Random rnd = new Random(8);
        sim.reset();
        long[] next = new long[3];
        boolean[] offering = new boolean[3];
        List<List<Long>> delivered = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<Long> grants = new ArrayList<>();
        long offeredPayload = -1;
        for (int c = 0; c < 4000; c++) {
            boolean saturated = c >= 3000;
            for (int i = 0; i < 3; i++) {
                offering[i] |= saturated || rnd.nextInt(100) < 40;
                sim.poke("in" + i + "_valid", offering[i] ? 1 : 0);
                sim.poke("in" + i + "_value", next[i]);
                sim.poke("in" + i + "_tag", i);
            }
            sim.poke("out_ready", saturated || rnd.nextInt(100) < 50 ? 1 : 0);
            if (offeredPayload >= 0) {
                assertEquals(1, sim.peek("out_valid"), "an offered beat stays offered");
                assertEquals(offeredPayload, sim.peek("out_tag") << 12 | sim.peek("out_value"),
                        "and keeps its payload until taken (cycle " + c + ")");
            }
            offeredPayload = -1;
            if (sim.peek("out_valid") == 1) {
                int tag = (int) sim.peek("out_tag");
                if (sim.peek("out_ready") == 1) {
                    delivered.get(tag).add(sim.peek("out_value"));
                    if (saturated) {
                        grants.add((long) tag);
                    }
                } else {
                    offeredPayload = sim.peek("out_tag") << 12 | sim.peek("out_value");
                }
            }
            for (int i = 0; i < 3; i++) {
                if (offering[i] && sim.peek("in" + i + "_ready") == 1) {
                    next[i] = (next[i] + 1) & 0xfff;
                    offering[i] = false;
                }
            }
            sim.step();
        }
        for (int i = 0; i < 3; i++) {
            List<Long> d = delivered.get(i);
            for (int k = 0; k < d.size(); k++) {
                assertEquals((long) (k & 0xfff), d.get(k), "input " + i + " beat " + k);
            }
        }
        assertEquals(1000, grants.size(), "saturated: one beat per cycle");
        for (int k = 3; k < grants.size(); k++) {
            assertEquals(grants.get(k - 3), grants.get(k), "saturated inputs take turns: " + grants.subList(0, 12));
        }
    }

    @Test
    void priorityArbiterServesTheLowestInputFirstAndLocksAsAsked() {
        for (Arbiter.Lock lock : List.of(Arbiter.Lock.BEAT, Arbiter.Lock.NONE)) {
            Simulator sim = Simulator.compile(Design.elaborate(new Arb(ins -> Arbiter.priority("arb", ins, lock))));
            if (lock == Arbiter.Lock.NONE) {
                StreamProtocolChecker.on(sim).exempt("out"); // unlocked: a higher input may replace a waiting beat
            }
            Random rnd = new Random(9);
            sim.reset();
            long[] next = new long[3];
            boolean[] offering = new boolean[3];
            int switchedWhileStalled = 0;
            long stalledTag = -1;
            for (int c = 0; c < 3000; c++) {
                for (int i = 0; i < 3; i++) {
                    offering[i] |= rnd.nextInt(100) < 30;
                    sim.poke("in" + i + "_valid", offering[i] ? 1 : 0);
                    sim.poke("in" + i + "_value", next[i]);
                    sim.poke("in" + i + "_tag", i);
                }
                sim.poke("out_ready", rnd.nextInt(100) < 50 ? 1 : 0);
                int lowest = offering[0] ? 0 : offering[1] ? 1 : offering[2] ? 2 : -1;
                if (sim.peek("out_valid") == 1) {
                    long tag = sim.peek("out_tag");
                    if (stalledTag >= 0 && tag != stalledTag) {
                        switchedWhileStalled++;
                    }
                    if (lock == Arbiter.Lock.NONE || stalledTag < 0) {
                        assertEquals(lowest, (int) tag, "the lowest input with a beat wins (cycle " + c + ")");
                    }
                    stalledTag = sim.peek("out_ready") == 1 ? -1 : tag;
                } else {
                    assertEquals(-1, lowest, "valid whenever an input is");
                    stalledTag = -1;
                }
                for (int i = 0; i < 3; i++) {
                    if (offering[i] && sim.peek("in" + i + "_ready") == 1) {
                        assertEquals(sim.peek("out_ready") == 1 && sim.peek("out_tag") == i ? 1 : 0, 1);
                        next[i] = (next[i] + 1) & 0xfff;
                        offering[i] = false;
                    }
                }
                sim.step();
            }
            if (lock == Arbiter.Lock.BEAT) {
                assertEquals(0, switchedWhileStalled, "a locked choice holds while the output stalls");
            } else {
                assertTrue(switchedWhileStalled > 10, "unlocked, a higher input takes over a stalled output: "
                        + switchedWhileStalled);
            }
        }
    }

    /** in -> demux by {@code cond} -> out_a (0) / out_b (1); out_b's ready also drives a mux back: see below. */
    static final class DemuxMux extends Component {
        DemuxMux() {
            Stream in = Stream.slave(this, "in", WORD);
            Port sel = in("cond", 1);
            List<Stream> outs = in.demux("split", sel, 2);
            outs.get(0).into(Stream.master(this, "out_a", WORD));
            Stream.mux("join", List.of(Stream.slave(this, "other", WORD), outs.get(1)), in("pick", 1))
                    .into(Stream.master(this, "out_b", WORD));
        }
    }

    @Test
    void demuxSendsEachBeatWhereItsSelectSaysAndMuxPassesTheChosenInput() {
        Simulator sim = Simulator.compile(Design.elaborate(new DemuxMux()));
        StreamProtocolChecker.on(sim).exempt("out_b"); // the test moves the mux's select under a waiting beat
        Random rnd = new Random(10);
        sim.reset();
        List<Long> toA = new ArrayList<>();
        List<Long> toB = new ArrayList<>();
        List<Long> atA = new ArrayList<>();
        List<Long> atB = new ArrayList<>();
        long next = 0;
        boolean offering = false;
        boolean sel = false;
        for (int c = 0; c < 3000; c++) {
            if (!offering) {
                offering = rnd.nextInt(100) < 70;
                sel = rnd.nextBoolean();
            }
            boolean pick = rnd.nextInt(100) < 70;
            sim.poke("in_valid", offering ? 1 : 0);
            sim.poke("in_value", next);
            sim.poke("cond", sel ? 1 : 0);
            sim.poke("pick", pick ? 1 : 0);
            sim.poke("other_valid", 1);
            sim.poke("other_value", 0xfff);
            sim.poke("out_a_ready", rnd.nextInt(100) < 60 ? 1 : 0);
            sim.poke("out_b_ready", rnd.nextInt(100) < 60 ? 1 : 0);
            if (sim.peek("out_a_valid") == 1 && sim.peek("out_a_ready") == 1) {
                atA.add(sim.peek("out_a_value"));
            }
            if (sim.peek("out_b_valid") == 1 && sim.peek("out_b_ready") == 1) {
                long v = sim.peek("out_b_value");
                assertEquals(pick ? 1 : 0, v == 0xfff ? 0 : 1, "the mux passes the input pick names");
                assertEquals(pick ? 0 : 1, sim.peek("other_ready"), "and only that input sees ready");
                if (v != 0xfff) {
                    atB.add(v);
                }
            }
            if (offering && sim.peek("in_ready") == 1) {
                (sel ? toB : toA).add(next);
                next = (next + 1) % 0xfff;
                offering = false;
            }
            sim.step();
        }
        assertEquals(toA, atA, "beats with select 0 reach out_a, in order");
        assertEquals(toB, atB, "beats with select 1 reach out_b, in order");
        assertTrue(toA.size() > 300 && toB.size() > 300, toA.size() + " / " + toB.size());
    }

    /** A stream and a flow of packets, each retagged: into a new tuser, and without one / with it left zero. */
    static final class Retag extends Component {
        Retag() {
            Stream s = Stream.slave(this, "s", Stream.packet(16, 4));
            s.retagged("s_tagged", Stream.packet(16, 2), s.tuser().bits(3, 2)).into(Stream.master(this, "s_out",
                    Stream.packet(16, 2)));
            Flow f = Flow.slave(this, "f", Stream.packet(16, 1));
            f.retagged("f_bare", Stream.packet(16, 0), null).into(Flow.master(this, "f_out", Stream.packet(16, 0)));
            f.retagged("f_tagged", Stream.packet(16, 3), null).into(Flow.master(this, "f_zero", Stream.packet(16, 3)));
        }
    }

    @Test
    void retaggedKeepsTheBeatAndSetsTheNewTuser() {
        Simulator sim = Simulator.compile(Design.elaborate(new Retag()));
        // the test offers and withdraws beats at random: it checks the payload path, not the handshake rule
        StreamProtocolChecker.on(sim).exempt("s").exempt("s_out");
        Random rnd = new Random(12);
        for (int c = 0; c < 200; c++) {
            long data = rnd.nextInt(1 << 16);
            long keep = rnd.nextInt(4);
            long last = rnd.nextInt(2);
            long user = rnd.nextInt(16);
            boolean valid = rnd.nextBoolean();
            boolean ready = rnd.nextBoolean();
            for (String in : List.of("s", "f")) {
                sim.poke(in + "_tvalid", valid ? 1 : 0);
                sim.poke(in + "_tdata", data);
                sim.poke(in + "_tkeep", keep);
                sim.poke(in + "_tlast", last);
                sim.poke(in + "_tuser", in.equals("s") ? user : user & 1);
            }
            sim.poke("s_out_tready", ready ? 1 : 0);
            assertEquals(ready ? 1 : 0, sim.peek("s_tready"), "the stream's handshake passes");
            for (String out : List.of("s_out", "f_out", "f_zero")) {
                assertEquals(valid ? 1 : 0, sim.peek(out + "_tvalid"), out);
                assertEquals(data, sim.peek(out + "_tdata"), out);
                assertEquals(keep, sim.peek(out + "_tkeep"), out);
                assertEquals(last, sim.peek(out + "_tlast"), out);
            }
            assertEquals(user >> 2, sim.peek("s_out_tuser"), "the new tuser");
            assertEquals(0, sim.peek("f_zero_tuser"), "no user given: zero");
            sim.step();
        }
    }

    /** in -> a FIFO of {@code depth} words in registers under {@link FifoControl} -> out. */
    static final class RegisterFifo extends Component {
        RegisterFifo(int depth) {
            Stream in = Stream.slave(this, "in", WORD);
            Stream out = Stream.master(this, "out", WORD);
            FifoControl fifo = FifoControl.of("q", depth, in);
            List<Expr> words = new ArrayList<>();
            for (int k = 0; k < depth; k++) {
                Reg word = regNoReset("q_word_" + k, WORD.width());
                when(fifo.write().and(fifo.wrPtr().eq(k)), () -> word.set(in.payload()));
                words.add(word);
            }
            Reg head = regNoReset("q_head", WORD.width());
            when(fifo.load(), () -> head.set(Hw.select(words, fifo.rdPtr())));
            fifo.output("head", WORD, head).into(out);
        }
    }

    @Test
    void fifoControlOverRegistersHasTheCyclesOfASyncFifo() {
        for (int depth : new int[] {3, 4}) {
            Simulator regs = Simulator.compile(Design.elaborate(new RegisterFifo(depth)));
            Simulator fifo = sim((s, c) -> s.queue(depth));
            for (int[] rates : new int[][] {{100, 100}, {70, 30}, {30, 70}, {100, 0}}) {
                Random rnd = new Random(depth * 100 + rates[0] + rates[1]);
                regs.reset();
                fifo.reset();
                long next = 0;
                List<Long> taken = new ArrayList<>();
                List<Long> delivered = new ArrayList<>();
                int firstOut = -1;
                boolean valid = false;
                for (int c = 0; c < 2000; c++) {
                    valid = valid || rnd.nextInt(100) < rates[0]; // an offered word stays offered until taken
                    boolean ready = rnd.nextInt(100) < rates[1];
                    for (Simulator sim : List.of(regs, fifo)) {
                        sim.poke("in_valid", valid ? 1 : 0);
                        sim.poke("in_value", next & 0xfff);
                        sim.poke("out_ready", ready ? 1 : 0);
                    }
                    String at = "depth " + depth + ", rates " + rates[0] + "/" + rates[1] + ", cycle " + c;
                    assertEquals(fifo.peek("in_ready"), regs.peek("in_ready"), "in_ready, " + at);
                    assertEquals(fifo.peek("out_valid"), regs.peek("out_valid"), "out_valid, " + at);
                    if (regs.peek("out_valid") == 1) {
                        assertEquals(fifo.peek("out_value"), regs.peek("out_value"), "out_value, " + at);
                        firstOut = firstOut < 0 ? c : firstOut;
                        if (ready) {
                            delivered.add(regs.peek("out_value"));
                        }
                    }
                    if (valid && regs.peek("in_ready") == 1) {
                        taken.add(next & 0xfff);
                        next++;
                        valid = false;
                    }
                    regs.step();
                    fifo.step();
                }
                assertPrefix(taken, delivered, depth);
                if (rates[0] == 100) {
                    assertEquals(2, firstOut, "a word pushed into the empty FIFO shows two cycles later");
                }
                if (rates[1] == 100) {
                    assertTrue(delivered.size() >= 2000 - 2, "one word per cycle: " + delivered.size());
                }
                if (rates[1] == 0) {
                    assertEquals(depth, taken.size(), "full at " + depth + " words");
                }
            }
        }
    }

    @Test
    void misuseNamesTheProblemAndTheLine() {
        HdlException fields = assertThrows(HdlException.class, () -> Design.elaborate(new Component() {
            {
                Stream.slave(this, "in", WORD).into(Stream.master(this, "out", Layout.plain("data", 16)));
            }
        }));
        assertTrue(fields.getMessage().contains("fields [value, tag] and [data] differ"), fields.getMessage());
        HdlException select = assertThrows(HdlException.class, () -> Design.elaborate(new Component() {
            {
                Stream.slave(this, "in", WORD).demux("split", in("s", 2), 2);
            }
        }));
        assertTrue(select.getMessage().contains("demux 'split' to 2 outputs needs at least 2 outputs and a select of 1"
                + " bits, got 2") && select.getMessage().contains("StreamOperatorsTest.java"), select.getMessage());
        HdlException depth = assertThrows(HdlException.class, () -> Design.elaborate(new Component() {
            {
                FifoControl.of("q", 1, Stream.slave(this, "in", WORD));
            }
        }));
        assertTrue(depth.getMessage().contains("FIFO control 'q': depth must be at least 2, got 1")
                && depth.getMessage().contains("StreamOperatorsTest.java"), depth.getMessage());
    }
}
