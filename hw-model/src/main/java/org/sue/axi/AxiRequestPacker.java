package org.sue.axi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.sue.cmd.CommandControl;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.Signal;
import org.sue.core.Tag;
import org.sue.core.Wire;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Channel;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.net.SueMeta;

/**
 * The requests of the AXI4 slave, turned into commands (docs/protocol.md 13): each AW with its W beats, and each AR,
 * split into parts of at most one command's data (256 bytes) that the far master issues as bursts of their own.
 *
 * <ul>
 *   <li><b>Admission.</b> An AW or AR at its channel's head finds its destination XPU (address bits or AxUSER) and is
 *   judged: a burst AXI4 forbids (reserved type, WRAP length not 2/4/8/16, FIXED longer than 16, a size wider than
 *   the bus, an unaligned WRAP, an INCR across 4 KiB) is answered SLVERR, a destination at or above
 *   {@code destinations} DECERR, both by SUE itself on {@code local} with nothing sent. Per ID and direction a count
 *   of outstanding transactions and the one destination they go to (SUE itself counting as one): a request waits
 *   while its ID has transactions outstanding elsewhere or {@code maxOutstanding} of them, so that the responses of
 *   one ID come back in request order. {@code wdone}/{@code rdone} count a transaction complete (its B, its last R
 *   beat given to the SoC).</li>
 *   <li><b>Split.</b> One part a cycle: the next beats up to the part size within the current run (a WRAP burst is
 *   two runs, cut where it wraps); the part's address is the address of its first beat; a WRAP part becomes INCR,
 *   FIXED stays FIXED. An answered request is one part of all its beats.</li>
 *   <li><b>Write data.</b> The W beats of the parts go into a FIFO of beats; when a part's last beat is in, the
 *   part is ready, with its strobes. A part whose strobes are all high is one WRITE; one with a strobe low travels as
 *   WRITE_STROBED commands of at most one beat fewer, each carrying its beats' strobes in its first data beat. The W
 *   beats of an answered write are taken and dropped. WLAST is checked against the AW's length and counted when
 *   wrong ({@code wlast_errors}); the AW's length rules.</li>
 *   <li><b>Commands.</b> WRITE, WRITE_STROBED and READ commands on VC0 to the part's destination, one beat of
 *   {@code cmd} a bus beat, round robin between writes and reads by whole commands. Their ID is the command ID: the
 *   ID's epoch above AxID.</li>
 *   <li><b>Abandoning.</b> An ID whose outstanding transactions go to an XPU the transport has given up on is
 *   abandoned: its epoch moves on ({@code wr_epochs}, {@code rd_epochs}, so that the response side drops their late
 *   responses), it takes nothing new, and SUE answers each of those transactions SLVERR on {@code local}, oldest
 *   first, unless the response side has begun to give its response ({@code committed}). So is an ID none of whose
 *   outstanding transactions completed for {@code responseTimeoutCycles} (the far side took the request and never
 *   answered).</li>
 * </ul>
 */
public final class AxiRequestPacker extends Component {
    /**
     * @param responseTimeoutCycles an ID with transactions outstanding none of which completed for this long (to
     *                              half as long again) is abandoned as if the transport had given up; 0: never
     */
    public record Config(AxiConfig axi, @Tag("wq") int partQueue, @Tag("rt") int responseTimeoutCycles) {
        /** About 1 ms at 1 GHz: far beyond the transport's giving up (4 x 8192 cycles by default). */
        public static final int DEFAULT_RESPONSE_TIMEOUT = 1 << 20;
        public static final Bound RESPONSE_TIMEOUT = Bound.of(64, 1 << 30).orZero()
                .because("counted in ticks of half of it");

        public Config {
            if (axi == null) {
                throw new IllegalArgumentException("AxiRequestPacker axi must be given");
            }
            RESPONSE_TIMEOUT.check("AxiRequestPacker", "responseTimeoutCycles", responseTimeoutCycles);
        }

        public Config(AxiConfig axi, int responseTimeoutCycles) {
            this(axi, 4, responseTimeoutCycles);
        }

        public Config(AxiConfig axi) {
            this(axi, DEFAULT_RESPONSE_TIMEOUT);
        }
    }

    /** The key of a request SUE answers itself, beside the 10-bit destinations in an ID's entry. */
    private static final long LOCAL_KEY = 1L << SueMeta.XPU_WIDTH;

    private final AxiConfig axi;
    private final Layout part;
    private final Layout beat;
    public final Stream aw;
    public final Stream w;
    public final Stream ar;
    public final Flow wdone;
    public final Flow rdone;
    public final Stream cmd;
    public final Stream local;
    /**
     * Bit x high: the transport has given up on XPU x (docs/protocol.md 6.7); a new request to it gets SLVERR, and so
     * does every transaction outstanding to it.
     */
    public final Port dstUnreachable;
    /** Each ID's epoch for writes and for reads, ID i in bits [2i+1:2i]: the response side drops a response of another. */
    public final Port wrEpochs;
    public final Port rdEpochs;
    /** A response of this direction and ID the response side has begun to give: it completes its transaction itself. */
    public final Flow committed;

    public AxiRequestPacker(Config config) {
        super(config);
        this.axi = config.axi();
        this.part = axi.part();
        this.beat = axi.commandBeat();
        aw = Stream.slave(this, "aw", axi.ax());
        w = Stream.slave(this, "w", axi.w());
        ar = Stream.slave(this, "ar", axi.ax());
        Layout id = Layout.plain("id", axi.idWidth());
        wdone = Flow.slave(this, "wdone", id);
        rdone = Flow.slave(this, "rdone", id);
        cmd = Stream.master(this, "cmd", beat);
        local = Stream.master(this, "local", axi.localResponse());
        dstUnreachable = in("dst_unreachable", axi.destinations());
        int epochs = AxiConfig.EPOCH_BITS << axi.idWidth();
        wrEpochs = out("wr_epochs", epochs);
        rdEpochs = out("rd_epochs", epochs);
        committed = Flow.slave(this, "committed", axi.committed());

        // completions a cycle late, from registers: they come at the end of the response side's long paths
        Flow writesDone = wdone.stage("wdone_late");
        Flow readsDone = rdone.stage("rdone_late");
        Expr tick = responseTick(config.responseTimeoutCycles());
        Admitted writeIds = admit("wr", aw, writesDone, tick);
        Admitted readIds = admit("rd", ar, readsDone, tick);
        wrEpochs.set(Hw.cat(writeIds.ids().epochsMsbFirst()));
        rdEpochs.set(Hw.cat(readIds.ids().epochsMsbFirst()));
        Split writes = writeData(split("wr", writeIds, config.partQueue()), writeIds.ids());
        Split reads = readCommands(split("rd", readIds, config.partQueue()));
        Arbiter.roundRobinPackets("cmd_arb", List.of(writes.commands(), reads.commands())).out().into(cmd);
        // a cycle late like the completions, from a register: the response side's verdict is a long path
        Flow given = committed.stage("committed_late");
        Stream writesLost = abandoned("wr", writeIds.ids(), writesDone, given, writes.answerable());
        Stream readsLost = abandoned("rd", readIds.ids(), readsDone, given, reads.answerable());
        Arbiter.roundRobin("local_arb", List.of(writes.answered(), reads.answered(), writesLost, readsLost)).out()
                .into(local);
        lateStatusCounter("writes", aw.fire(), "AW requests taken");
        lateStatusCounter("reads", ar.fire(), "AR requests taken");
    }

    /**
     * Joins this request side to its response side (SUE's own answers, completions, epochs, responses under way);
     * returns the signals the join keeps inside.
     */
    public List<Signal> join(AxiResponseUnpacker responses) {
        local.into(responses.local);
        responses.wdone.into(wdone);
        responses.rdone.into(rdone);
        responses.committed.into(committed);
        responses.wrEpochs.set(wrEpochs);
        responses.rdEpochs.set(rdEpochs);
        List<Signal> inside = new ArrayList<>(List.of(wrEpochs, rdEpochs, responses.wrEpochs, responses.rdEpochs));
        for (Channel c : List.of(local, wdone, rdone, committed, responses.local, responses.wdone, responses.rdone,
                responses.committed)) {
            inside.addAll(c.signals());
        }
        return inside;
    }

    /**
     * A stage's outputs: commands toward the FIFO interface, requests SUE answers itself, and per ID whether its
     * oldest outstanding transaction may be answered by SUE (a write once its last W beat is in, a read always).
     */
    private record Split(Stream commands, Stream answered, List<Expr> answerable) {
    }

    /**
     * A judged request (its fields, destination and answer, OKAY: it is sent), whether its ID lets it go, and the
     * per-ID state.
     */
    private record Admitted(Stream head, Expr free, Ids ids) {
    }

    /**
     * Per ID of one direction: transactions taken and completed, whether the transport gave up on where they go
     * (abandoned: they are answered SLVERR), the epoch the ID's commands carry, and (reads) the lengths of the
     * outstanding bursts, at {ID, taken count}.
     */
    private record Ids(List<Reg> taken, List<Reg> completed, List<Reg> abandoned, List<Reg> epochs, Mem lengths) {
        List<Expr> epochsMsbFirst() {
            List<Expr> l = new ArrayList<>(epochs);
            java.util.Collections.reverse(l);
            return l;
        }
    }

    /**
     * A pulse every half response timeout, which the IDs count; none when the timeout is off. At the third tick after
     * an ID's last completion it has waited more than the timeout and at most half as long again.
     */
    private Expr responseTick(int timeoutCycles) {
        if (timeoutCycles == 0) {
            return Hw.bool(false);
        }
        int half = timeoutCycles / 2;
        int w = Hw.log2Up(half);
        Reg count = reg("response_tick_count", w, 0);
        Reg tick = reg("response_tick", 1, 0);
        Expr end = count.eq(half - 1);
        count.set(Hw.mux(end, Hw.zeros(w), count.add(1)));
        tick.set(end);
        return tick;
    }

    /** The scanner's finding: ID {@code id}'s transactions to {@code key} go where the transport has given up. */
    private record LostKey(Expr valid, Expr id, Expr key) {
    }

    /**
     * Whether the transport has given up on where an ID's transactions go, looked up for one ID a cycle in turn: one
     * select over the destinations per direction instead of one per ID. Registered twice (the ID's key, then the
     * destination's bit), so an ID is found within 2^idWidth + 2 cycles of its destination's bit rising; the finding
     * holds only while the ID's key is still the one looked up.
     */
    private LostKey lostKeys(String p, List<Reg> keys, List<Expr> downBits) {
        Reg idx = reg(p + "_scan_id", axi.idWidth(), 0);
        idx.set(idx.add(1));
        Reg scannedId = regNoReset(p + "_scan_key_id", axi.idWidth());
        Reg scannedKey = regNoReset(p + "_scan_key", SueMeta.XPU_WIDTH + 1);
        scannedId.set(idx);
        scannedKey.set(Hw.selectTree(keys, idx));
        Reg lostId = regNoReset(p + "_scan_lost_id", axi.idWidth());
        Reg lostKey = regNoReset(p + "_scan_lost_key", SueMeta.XPU_WIDTH + 1);
        Reg lost = reg(p + "_scan_lost", 1, 0);
        lostId.set(scannedId);
        lostKey.set(scannedKey);
        lost.set(scannedKey.bit(SueMeta.XPU_WIDTH).not().and(Hw.selectTree(downBits,
                scannedKey.bits(Hw.log2Up(axi.destinations()) - 1, 0))));
        return new LostKey(lost, lostId, lostKey);
    }

    /**
     * Admission of one channel's requests: a register stage judges each (destination, answer), then the ID rule. The
     * splitter drives the judged stream's ready (it has room and the ID is free); per ID, a count of the requests
     * taken and one of those reported done (their difference is what is outstanding) and the destination they go to.
     */
    private Admitted admit(String p, Stream in, Flow done, Expr tick) {
        Expr addr = in.get("addr");
        Expr dst = axi.dstFromUser() ? in.get("user").bits(SueMeta.XPU_WIDTH - 1, 0)
                : addr.bits(axi.dstLsb() + SueMeta.XPU_WIDTH - 1, axi.dstLsb());
        Expr decode = axi.destinations() == 1 << SueMeta.XPU_WIDTH ? Hw.bool(false) : dst.ge(axi.destinations());
        List<Expr> downBits = new ArrayList<>();
        for (int x = 0; x < axi.destinations(); x++) {
            downBits.add(dstUnreachable.bit(x));
        }
        Burst burst = illegalBurst(in);
        Expr illegal = burst.illegal();
        // unreachable: a configured destination the transport has given up on, for a burst that is otherwise legal;
        // its bit comes out of a select over every destination (5 LUT levels at 1024), so it enters each judged field
        // last, beside what the rest of the request decides
        Expr gaveUp = Hw.selectTree(downBits, dst.bits(Hw.log2Up(axi.destinations()) - 1, 0));
        Expr routable = illegal.or(decode).not(); // legal, to a configured XPU
        Expr down = gaveUp.and(routable);
        Expr resp = Hw.mux(down, Hw.lit(2, AxiConfig.SLVERR), Hw.mux(illegal, Hw.lit(2, AxiConfig.SLVERR),
                Hw.mux(decode, Hw.lit(2, AxiConfig.DECERR), Hw.lit(2, AxiConfig.OKAY))));
        int bw = AxiConfig.BEATS_WIDTH;
        List<Layout.Spec> fields = new ArrayList<>(specs(loaded()));
        fields.add(Layout.bits("key", SueMeta.XPU_WIDTH + 1));
        fields.add(Layout.bits("down", 1)); // answered SLVERR because the destination is unreachable
        Layout judged = Layout.of("judged", fields);
        // where the request goes, for the ID rule: its destination, or SUE itself when SUE answers it
        Expr key = Hw.mux(down.or(routable.not()), Hw.lit(SueMeta.XPU_WIDTH + 1, LOCAL_KEY),
                dst.resize(SueMeta.XPU_WIDTH + 1));
        // a WRAP burst is two runs of consecutive addresses: from its start to the window's end, then from the
        // window's start; any other burst, and an answered one, is one run
        Expr len = in.get("len");
        Expr size = in.get("size");
        Expr beats = len.resize(bw).add(1);
        Expr slot = addr.resize(15).shr(size).resize(bw).and(len.resize(bw)); // the start's place in its window
        // (only an INCR burst can cross its page, so a WRAP's split does not wait for that sum; nor for gaveUp: the
        // splitter gives an answered request one run of all its beats)
        Expr split = in.get("burst").eq(AxiConfig.WRAP).and(burst.wrong().or(decode).not());
        Expr lenLog = Hw.mux(len.bit(3), Hw.lit(4, 4), Hw.mux(len.bit(2), Hw.lit(4, 3),
                Hw.mux(len.bit(1), Hw.lit(4, 2), Hw.lit(4, 1)))); // windows of 2, 4, 8 or 16 beats
        Stream head = in.map(p + "_judging", judged, judged.expr().set("ax", in.payload()).set("dst", dst)
                .set("resp", resp).set("key", key).set("down", down)
                .set("first_run", Hw.mux(split, beats.sub(slot), beats))
                .set("second_run", Hw.mux(split, slot, Hw.zeros(bw)))
                .set("window", addr.bits(11, 0).and(Hw.ones(12).shl(size.resize(4).add(lenLog)))).build())
                .stage(p + "_judged");
        int cw = axi.countWidth();
        Expr id = head.get("ax.id");
        Expr take = head.fire();
        List<Expr> timeouts = new ArrayList<>();
        List<Reg> keys = new ArrayList<>();
        for (int i = 0; i < 1 << axi.idWidth(); i++) {
            keys.add(reg(p + "_dst_" + i, SueMeta.XPU_WIDTH + 1, 0)); // where the ID's outstanding transactions go
        }
        LostKey lost = lostKeys(p, keys, downBits);
        List<Expr> frees = new ArrayList<>();
        Ids ids = new Ids(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
                p.equals("rd") ? mem("rd_lengths", 1 << axi.idWidth() + cw, 8, ReadUnderWrite.READ_FIRST) : null);
        for (int i = 0; i < 1 << axi.idWidth(); i++) {
            // taken and completed counts; as many taken as completed: none outstanding; as many as limit: the most
            Reg taken = reg(p + "_taken_" + i, cw, 0);
            Reg completed = reg(p + "_completed_" + i, cw, 0);
            Reg limit = reg(p + "_limit_" + i, cw, axi.maxOutstanding());
            Reg k = keys.get(i);
            Reg abandoned = reg(p + "_abandoned_" + i, 1, 0);
            Reg epoch = reg(p + "_epoch_" + i, AxiConfig.EPOCH_BITS, 0);
            Expr none = taken.eq(completed);
            // an abandoned ID takes nothing until SUE has answered all it had outstanding
            frees.add(abandoned.not().and(none.or(k.eq(head.get("key")).and(taken.ne(limit)))));
            when(take.and(id.eq(i)), () -> {
                taken.set(taken.add(1));
                k.set(head.get("key"));
            });
            when(done.valid().and(done.get("id").eq(i)).and(none.not()), () -> {
                completed.set(completed.add(1));
                limit.set(limit.add(1));
            });
            // the transport gave up on where the ID's transactions went: they are abandoned, and the ID's commands
            // from now on carry the next epoch, so that the abandoned ones' late responses are dropped
            Expr found = lost.valid().and(lost.id().eq(i)).and(lost.key().eq(k));
            // ticks of half the response timeout since the ID's last completion (or since it had none outstanding)
            Reg waited = reg(p + "_waited_ticks_" + i, 2, 0);
            Expr completing = done.valid().and(done.get("id").eq(i));
            when(none.or(completing).or(abandoned), () -> waited.set(0))
                    .elseWhen(tick.and(waited.ne(3)), () -> waited.set(waited.add(1)));
            Expr timedOut = waited.eq(3);
            timeouts.add(timedOut.and(abandoned.not()));
            when(none, () -> abandoned.set(0)).elseWhen(found.or(timedOut).and(abandoned.not()), () -> {
                abandoned.set(1);
                epoch.set(epoch.add(1));
            });
            ids.taken().add(taken);
            ids.completed().add(completed);
            ids.abandoned().add(abandoned);
            ids.epochs().add(epoch);
        }
        if (ids.lengths() != null) { // a read's AxLEN, for answering it SLVERR should it be abandoned
            ids.lengths().write(take, Hw.cat(id, Hw.selectTree(ids.taken(), id)), head.get("ax.len"));
        }
        Expr free = wire(p + "_id_free", Hw.selectTree(frees, id));
        lateStatusCounter(p + "_response_timeouts", Hw.cat(timeouts).orR(), "IDs abandoned because none of their"
                + " outstanding transactions completed for responseTimeoutCycles");
        // counted a cycle late, from registers: the ID check is a long path already
        lateStatusCounter(p + "_id_waits", head.valid().and(free.not()),
                "cycles a request waited: its ID has transactions outstanding to another destination, or the most");
        lateStatusCounter(p + "_decode_errors", take.and(head.get("resp").eq(AxiConfig.DECERR)),
                "requests answered DECERR");
        lateStatusCounter(p + "_burst_errors", take.and(head.get("resp").eq(AxiConfig.SLVERR))
                .and(head.get("down").not()), "requests answered SLVERR: a burst AXI4 forbids");
        lateStatusCounter(p + "_unreachable_errors", take.and(head.get("down")),
                "requests answered SLVERR: the transport has given up on their destination");
        return new Admitted(head, free, ids);
    }

    /** A request as the splitter loads it: its fields, destination, answer, runs and WRAP window. */
    private Layout loaded() {
        int bw = AxiConfig.BEATS_WIDTH;
        return Layout.of("loaded", Layout.nested("ax", axi.ax()), Layout.bits("dst", SueMeta.XPU_WIDTH),
                Layout.bits("resp", 2), Layout.bits("first_run", bw), Layout.bits("second_run", bw),
                Layout.bits("window", 12));
    }

    private static List<Layout.Spec> specs(Layout l) {
        return l.fields().stream().map(f -> f.nested() == null ? Layout.bits(f.name(), f.width())
                : Layout.nested(f.name(), f.nested())).toList();
    }

    /** A burst AXI4 forbids. */
    private Burst illegalBurst(Stream head) {
        Expr len = head.get("len");
        Expr size = head.get("size");
        Expr burst = head.get("burst");
        Expr addr12 = head.get("addr").bits(11, 0);
        Expr belowSize = Hw.ones(12).shl(size).not(); // address bits below the beat size
        Expr wrapLen = len.eq(1).or(len.eq(3)).or(len.eq(7)).or(len.eq(15));
        Expr wrong = burst.eq(3)
                .or(burst.eq(AxiConfig.WRAP).and(wrapLen.not().or(addr12.and(belowSize).orR())))
                .or(burst.eq(AxiConfig.FIXED).and(len.gt(15)))
                .or(size.gt(axi.fullSize()));
        // INCR: the first beat's aligned address plus the burst's bytes must stay within the 4 KiB page; with AxSIZE
        // s that is: the beat index addr[11:s] plus AxLEN below 2^(12 - s). Formed for every size beside the others
        // (a short sum each) and chosen by AxSIZE, instead of a shift, an add and a compare in a row
        List<Expr> crossesBySize = new ArrayList<>();
        for (int s = 0; s < 8; s++) {
            int w = 12 - s;
            int sw = Math.max(w, 8) + 1;
            Expr sum = Hw.addShallow(addr12.bits(11, s).resize(sw), len.resize(sw));
            crossesBySize.add(sum.bits(sw - 1, w).orR());
        }
        Expr crosses = burst.eq(AxiConfig.INCR).and(Hw.selectTree(crossesBySize, size));
        return new Burst(wrong, crosses);
    }

    /** What AXI4 forbids of a burst: its kind, length, size or alignment ({@code wrong}), or an INCR across 4 KiB. */
    private record Burst(Expr wrong, Expr crosses) {
        Expr illegal() {
            return wrong.or(crosses);
        }
    }

    /**
     * The splitter: holds one request and hands out its parts, one a cycle, into a FIFO of {@code depth} parts; takes
     * the next request in the cycle its last part leaves. A part is at most a command's beats of the current run; a
     * legal burst stays within its 4 KiB page, so only the address's low 12 bits move from part to part: a full part's
     * bytes after this one's aligned start, or the window's start when a WRAP burst's first run ends.
     */
    private Stream split(String p, Admitted a, int depth) {
        Layout ax = axi.ax();
        int bw = AxiConfig.BEATS_WIDTH;
        int pb = axi.partBeats();
        Reg active = reg(p + "_active", 1, 0);
        Reg fields = reg(p + "_req_fields", ax.width(), 0);
        Reg dst = reg(p + "_req_dst", SueMeta.XPU_WIDTH, 0);
        Reg resp = reg(p + "_req_resp", 2, 0);
        Reg run = reg(p + "_run_left", bw, 0);       // beats left in the current run
        Reg runEnds = reg(p + "_run_ends", 1, 0);    // this part ends the run: the run has at most a part's beats
        Reg second = reg(p + "_second_run", bw, 0);  // beats of the run after this one
        Reg lastRun = reg(p + "_last_run", 1, 0);
        Reg low = reg(p + "_part_low", 12, 0);       // the part's address, bits 11..0
        Reg aligned = reg(p + "_size_mask", 12, 0);  // clears the address bits below the beat size
        Reg step = reg(p + "_step", bw, 0);          // bytes of a full part
        Reg window = reg(p + "_window", 12, 0);
        Reg epoch = reg(p + "_req_epoch", AxiConfig.EPOCH_BITS, 0); // the ID's epoch when the request was taken
        Expr burst = ax.get(fields, "burst");
        Wire n = wire(p + "_part_beats", Hw.mux(runEnds, run, Hw.lit(bw, pb)));
        Expr lastPart = runEnds.and(lastRun);
        // the request's length and low address bits are in run, second and low now; n is at most 256 beats
        unused(p + "_loaded", ax.get(fields, "len"), ax.get(fields, "addr").bits(11, 0), n.bit(bw - 1));
        Expr partAddr = Hw.cat(ax.get(fields, "addr").bits(axi.addrWidth() - 1, 12), low);
        Layout ctl = axi.requestControl();
        Layout.ExprBuilder asIssued = ctl.expr();
        ax.fields().stream().filter(f -> !f.name().equals("id")).forEach(f -> asIssued.set(f.name(), ax.get(fields,
                f.name())));
        asIssued.set("addr", partAddr).set("len", n.sub(1).resize(8)).set("id", Hw.cat(epoch, ax.get(fields, "id")))
                .set("burst", Hw.mux(burst.eq(AxiConfig.WRAP), Hw.lit(2, AxiConfig.INCR), burst)).set("last", lastPart);
        Stream out = Stream.of(this, p + "_part", active, part, part.expr()
                .set("control", asIssued.build()).set("dst", dst).set("resp", resp).build());
        when(out.fire(), () -> when(runEnds, () -> {
            run.set(second);
            runEnds.set(second.le(pb));
            lastRun.set(1);
            low.set(window);
        }).otherwise(() -> {
            run.set(run.sub(pb));
            runEnds.set(run.le(2 * pb));
            when(burst.ne(AxiConfig.FIXED), () -> low.set(low.and(aligned).add(step.resize(12))));
        }));
        Expr finishing = out.fire().and(lastPart);
        when(finishing, () -> active.set(0));
        // the next request loads as the last part leaves
        // the ID rule's verdict goes through a FIFO: the check waits on no logic after it, the loading on none before
        Stream judged = a.head().continueWhen(p + "_id_clear", a.free());
        List<Layout.Spec> withEpoch = new ArrayList<>(specs(loaded()));
        withEpoch.add(Layout.bits("epoch", AxiConfig.EPOCH_BITS));
        Layout loaded = Layout.of("loading", withEpoch);
        Layout.ExprBuilder fieldsOf = loaded.expr();
        loaded().fields().forEach(f -> fieldsOf.set(f.name(), judged.get(f.name())));
        fieldsOf.set("epoch", Hw.selectTree(a.ids().epochs(), judged.get("ax.id")));
        // falling through: a request the splitter can take loads the cycle after its verdict
        Stream head = judged.map(p + "_to_load", loaded, fieldsOf.build()).queueFallThrough(p + "_cleared", 4);
        head.ready().set(active.not().or(finishing));
        when(head.fire(), () -> {
            Expr in = head.get("ax");
            Expr size = ax.get(in, "size");
            active.set(1);
            fields.set(in);
            dst.set(head.get("dst"));
            resp.set(head.get("resp"));
            // a request SUE answers is one part of all its beats (a WRAP to an unreachable XPU was judged two runs)
            Expr answered = head.get("resp").orR();
            run.set(Hw.mux(answered, ax.get(in, "len").resize(bw).add(1), head.get("first_run")));
            runEnds.set(answered.or(head.get("first_run").le(pb)));
            second.set(head.get("second_run"));
            lastRun.set(answered.or(head.get("second_run").eq(0)));
            low.set(ax.get(in, "addr").bits(11, 0));
            aligned.set(Hw.ones(12).shl(size));
            step.set(Hw.lit(bw, pb).shl(size));
            window.set(head.get("window"));
            epoch.set(head.get("epoch"));
        });
        return out.queueFallThrough(p + "_parts", depth);
    }

    /**
     * W beats of the write parts into a FIFO of two parts, the strobes of each part gathered as its beats pass; a
     * part whose last beat is in is ready. An answered write's beats are dropped, its B answered when its last beat
     * has gone.
     */
    private Split writeData(Stream parts, Ids ids) {
        int pb = axi.partBeats();
        Layout ctl = axi.requestControl();
        Expr len = parts.get("control.len");
        Expr lastOfBurst = parts.get("control.last");
        Expr answered = parts.get("resp").orR();
        Reg index = reg("wr_beat", 8, 0); // the W beat's place in its part
        Expr lastBeat = index.eq(len);
        int strobeBits = 8 * axi.strobeBytes(pb);
        Reg strobes = reg("wr_strobes", strobeBits, 0);
        Reg full = reg("wr_full", 1, 1);
        Expr strb = w.get("strb");
        Expr at = Hw.cat(index.bits(Hw.log2Up(pb) - 1, 0), Hw.zeros(Hw.log2Up(axi.beatBytes())));
        Expr gathered = strobes.or(strb.resize(strobeBits).shl(at));
        Expr allFull = full.and(strb.andR());
        Layout readyPart = Layout.of("ready_part", Layout.nested("control", ctl),
                Layout.bits("dst", SueMeta.XPU_WIDTH), Layout.bits("strobes", strobeBits), Layout.bits("full", 1));
        // three ways out; each is a FIFO, whose room does not depend on what is offered
        Wire go = wire("wr_go", 1);
        Stream beatsIn = Stream.of(this, "wr_beat_in", go.and(answered.not()), Layout.plain("data", axi.dataWidth()),
                w.get("data"));
        Stream readyIn = Stream.of(this, "wr_ready_in", go.and(answered.not()).and(lastBeat), readyPart,
                readyPart.expr().set("control", parts.get("control"))
                        .set("dst", parts.get("dst")).set("strobes", gathered).set("full", allFull).build());
        Stream answerIn = Stream.of(this, "wr_answer_in", go.and(answered).and(lastBeat).and(lastOfBurst),
                axi.localResponse(), axi.localResponse().expr().set("write", 1).set("id", socId(parts.get("control")))
                        .set("resp", parts.get("resp")).build());
        Expr room = Hw.mux(answered, answerIn.ready().or(lastBeat.and(lastOfBurst).not()),
                beatsIn.ready().and(readyIn.ready().or(lastBeat.not())));
        go.set(w.valid().and(parts.valid()).and(room));
        w.ready().set(parts.valid().and(room));
        parts.ready().set(go.and(lastBeat));
        when(go, () -> {
            index.set(Hw.mux(lastBeat, Hw.lit(8, 0), index.add(1)));
            strobes.set(Hw.mux(lastBeat, Hw.zeros(strobeBits), gathered));
            full.set(lastBeat.or(allFull));
        });
        statusCounter("wlast_errors", go.and(w.get("last").ne(lastBeat.and(lastOfBurst))),
                "W beats whose WLAST disagrees with the AW's length (the length rules)");
        Stream cmds = writeCommands(readyIn.queue("wr_ready", 4), beatsIn.queue("wr_beats", 2 * pb + 4));
        Flow dataIn = Flow.of(this, "wr_data_in", go.and(lastBeat).and(lastOfBurst), Layout.plain("id",
                axi.idWidth()), socId(parts.get("control")));
        return new Split(cmds, answerIn.queue("wr_answers", 4), dataIn(dataIn, ids));
    }

    /** AxID of a request control (its command ID without the epoch). */
    private Expr socId(Expr control) {
        return axi.requestControl().get(control, "id").bits(axi.idWidth() - 1, 0);
    }

    /**
     * Per ID, whether its oldest outstanding write has all its W beats in: a count of the bursts whose last W beat
     * went in ({@code in}), ahead of the completed count (W beats come in AW order).
     */
    private List<Expr> dataIn(Flow in, Ids ids) {
        List<Expr> ahead = new ArrayList<>();
        for (int i = 0; i < 1 << axi.idWidth(); i++) {
            Reg bursts = reg("wr_data_in_" + i, axi.countWidth(), 0);
            when(in.valid().and(in.get("id").eq(i)), () -> bursts.set(bursts.add(1)));
            ahead.add(bursts.ne(ids.completed().get(i)));
        }
        return ahead;
    }

    /**
     * SUE's SLVERR answers for abandoned transactions, one at a time, oldest first per ID: an ID is a candidate while
     * it is abandoned with transactions outstanding, none of its answers is on the way, the response side has not
     * begun to give one of its responses ({@code given}: that one completes itself), and its oldest transaction is
     * ready to be answered ({@code ready}: for a write, all its W beats are in, since a B never comes before its
     * burst's last W beat; a read always is). Candidates are
     * registered, then the lowest one is taken and its answer offered the next cycle: a write's B, or a read's
     * AxLEN + 1 R beats, of which the response side gives those its part-responses have not given. Counted as
     * {@code abandoned}.
     */
    private Stream abandoned(String p, Ids ids, Flow done, Flow given, List<Expr> ready) {
        boolean write = p.equals("wr");
        int n = 1 << axi.idWidth();
        List<Expr> candidates = new ArrayList<>();
        List<Reg> answering = new ArrayList<>();
        Expr mine = given.valid().and(given.get("write").eq(write ? 1 : 0));
        for (int i = 0; i < n; i++) {
            Reg a = reg(p + "_answering_" + i, 1, 0);
            Reg candidate = reg(p + "_lost_candidate_" + i, 1, 0);
            // given is a cycle late: an ID is a candidate from the second cycle of its abandonment on, when
            // no response of it can still begin to be given unseen
            Reg abandonedBefore = reg(p + "_abandoned_before_" + i, 1, 0);
            abandonedBefore.set(ids.abandoned().get(i));
            Expr outstanding = ids.taken().get(i).ne(ids.completed().get(i));
            Expr beginGiven = mine.and(given.get("id").eq(i));
            // registered, so a completion this cycle may still change what it saw
            Expr completing = done.valid().and(done.get("id").eq(i));
            candidate.set(abandonedBefore.and(ids.abandoned().get(i)).and(outstanding).and(beginGiven.not())
                    .and(completing.not())
                    .and(ready.get(i)));
            candidates.add(candidate.and(a.not()));
            answering.add(a);
        }
        Reg offered = reg(p + "_lost_offered", 1, 0);
        Reg id = reg(p + "_lost_pick", axi.idWidth(), 0);
        Layout lr = axi.localResponse();
        Expr any = Hw.cat(candidates).orR();
        Expr pick = Arbiter.firstPick(candidates);
        Wire take = wire(p + "_lost_take", 1);
        Expr beats = write ? Hw.zeros(AxiConfig.BEATS_WIDTH) : ids.lengths().readSync(p + "_lost_len",
                Hw.cat(pick, Hw.selectTree(ids.completed(), pick)), take).resize(AxiConfig.BEATS_WIDTH).add(1);
        Stream out = Stream.of(this, p + "_lost", offered, lr, lr.expr().set("write", write ? 1 : 0).set("id", id)
                .set("resp", Hw.lit(2, AxiConfig.SLVERR)).set("beats", beats).build());
        take.set(any.and(offered.not().or(out.fire())));
        when(out.fire(), () -> offered.set(0));
        when(take, () -> {
            offered.set(1);
            id.set(pick);
        });
        for (int i = 0; i < n; i++) {
            Reg a = answering.get(i);
            int k = i;
            when(take.and(pick.eq(k)), () -> a.set(1))
                    .elseWhen(done.valid().and(done.get("id").eq(k)), () -> a.set(0));
        }
        lateStatusCounter(p + "_abandoned", out.fire(),
                "transactions answered SLVERR while outstanding: the transport gave up on their destination, or"
                        + " the response timeout passed");
        return out;
    }

    /**
     * A ready part as commands: one WRITE when its strobes are all high; else WRITE_STROBED commands of at most
     * {@link AxiConfig#strobedBeats} beats, each a beat of its beats' strobes and then the beats, addressed at its
     * first beat (a part is INCR or FIXED and within one page, so the address's low 12 bits move). Each command is
     * first described (its first beat's header, its beats, its strobes) into a register stage, then sent with its
     * data beats.
     */
    private Stream writeCommands(Stream ready, Stream beats) {
        Layout described = Layout.of("described", Layout.bits("head", beat.width()), Layout.bits("len", 8),
                Layout.bits("strobed", 1));
        return emit(describe(ready, described).stage("wr_described"), beats);
    }

    /**
     * One command of the part at the head a cycle, described; the part leaves with its last command. A strobed part
     * of n beats is one command when n fits {@link AxiConfig#strobedBeats} (sb), else two: sb beats, then n - sb
     * (a part has at most sb + 1 beats).
     */
    private Stream describe(Stream ready, Layout described) {
        Layout ctl = axi.requestControl();
        int sb = axi.strobedBeats();
        int laneBits = Hw.log2Up(axi.beatBytes());
        Expr control = ready.get("control");
        Expr strobed = ready.get("full").not();
        Expr len = ctl.get(control, "len");
        Expr size = ctl.get(control, "size");
        Reg second = reg("wr_second_command", 1, 0); // the strobed part's second command is next
        Expr endsPart = second.or(ready.get("full")).or(len.lt(sb));
        Expr commandLen = wire("wr_command_len", Hw.mux(second, len.sub(sb), Hw.mux(endsPart, len, Hw.lit(8, sb - 1))));
        // the second command starts sb beats on (a part is INCR or FIXED, within one page)
        Expr addr = ctl.get(control, "addr");
        Expr on = addr.bits(11, 0).and(Hw.ones(12).shl(size)).add(Hw.lit(12, sb).shl(size));
        Expr moved = Hw.mux(second.and(ctl.get(control, "burst").ne(AxiConfig.FIXED)), on, addr.bits(11, 0));
        Expr own = ctl.with(ctl.with(ctl.with(control, "addr", Hw.cat(addr.bits(axi.addrWidth() - 1, 12), moved)),
                "len", commandLen), "last", ctl.get(control, "last").and(endsPart));
        // beat k's strobes are bits [k x N/8, (k + 1) x N/8) of the part's; each command carries its own beats'
        Expr strobes = ready.get("strobes");
        int beatBits = axi.beatBytes();
        Expr kept = Hw.mux(second, strobes.shr(sb * beatBits), strobes.and(Hw.ones(sb * beatBits)
                .resize(strobes.width())));
        Expr type = Hw.mux(strobed, Hw.lit(8, AxiConfig.WRITE_STROBED), Hw.lit(8, AxiConfig.WRITE));
        Expr bytes = commandLen.resize(16).add(Hw.mux(strobed, Hw.lit(16, 2), Hw.lit(16, 1))).shl(laneBits);
        Expr head = beat.expr().set("data", kept.resize(axi.dataWidth())).set("control", CommandControl.of(type,
                bytes, own)).set("xpuid", ready.get("dst")).set("vc", AxiConfig.REQUEST_VC).set("tlast", 0).build();
        Stream out = Stream.of(this, "wr_describe", ready.valid(), described, described.expr().set("head", head)
                .set("len", commandLen).set("strobed", strobed).build());
        ready.ready().set(out.ready().and(endsPart));
        when(out.fire(), () -> second.set(endsPart.not()));
        return out;
    }

    /** A described command: its strobes beat first when it has one, then its data beats, the header on the first. */
    private Stream emit(Stream commands, Stream beats) {
        Expr head = commands.get("head");
        Expr strobed = commands.get("strobed");
        Reg strobesSent = reg("wr_strobes_sent", 1, 0);
        Reg index = reg("wr_out_beat", 8, 0); // the data beat within the command
        Expr needStrobes = wire("wr_need_strobes", strobed.and(strobesSent.not()));
        Expr lastBeat = index.eq(commands.get("len"));
        Expr dataBeat = beat.with(beat.with(head, "data", beats.data()), "tlast", lastBeat);
        Stream cmds = Stream.of(this, "wr_cmd", commands.valid().and(needStrobes.or(beats.valid())), beat,
                Hw.mux(needStrobes, head, dataBeat));
        Expr dataFire = cmds.fire().and(needStrobes.not());
        beats.ready().set(cmds.ready().and(commands.valid()).and(needStrobes.not()));
        commands.ready().set(dataFire.and(lastBeat));
        when(cmds.fire().and(needStrobes), () -> strobesSent.set(1));
        when(dataFire, () -> {
            index.set(Hw.mux(lastBeat, Hw.lit(8, 0), index.add(1)));
            when(lastBeat, () -> strobesSent.set(0));
        });
        Expr sentOne = dataFire.and(lastBeat);
        statusCounter("write_commands", sentOne.and(strobed.not()), "WRITE commands sent (parts of write bursts)");
        statusCounter("strobe_commands", sentOne.and(strobed), "WRITE_STROBED commands sent (parts with a strobe low)");
        return cmds;
    }

    /** Read parts: a READ command each, or, for an answered read, its R beats to give. */
    private Split readCommands(Stream parts) {
        Layout ctl = axi.requestControl();
        Expr control = parts.get("control");
        List<Stream> route = parts.demux("rd_route", parts.get("resp").orR(), 2);
        Stream cmds = route.get(0).map("rd_cmd", beat, beat.expr().set("data", Hw.zeros(axi.dataWidth()))
                .set("control", CommandControl.of(AxiConfig.READ, Hw.zeros(16), control))
                .set("xpuid", parts.get("dst")).set("vc", AxiConfig.REQUEST_VC).set("tlast", 1).build());
        Stream answers = route.get(1).map("rd_answer", axi.localResponse(), axi.localResponse().expr()
                .set("write", 0).set("id", socId(control)).set("resp", parts.get("resp"))
                .set("beats", ctl.get(control, "len").resize(AxiConfig.BEATS_WIDTH).add(1)).build());
        statusCounter("read_commands", cmds.fire(), "READ commands sent (parts of read bursts)");
        return new Split(cmds, answers, Collections.nCopies(1 << axi.idWidth(), Hw.bool(true)));
    }
}
