package org.sue.cmd;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.Status;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.SueMeta;

/**
 * Transmit side of the XPU command interface (spec Table 1, docs/protocol.md section 11): checks each command, repacks it
 * into its packed bytes (docs/protocol.md section 4) and hands it to the {@link PackingBuffer} as one packet on
 * {@code m_axis} (twice the XPU's data width, tuser {has_data, packed bytes, vc, dst}); returns the XPU's credits.
 *
 * <p><b>Beats.</b> A beat with {@code tx_cycle} = 0 starts a command: {@code tx_control} (byte 0 type, bytes 1..2
 * data length big-endian, then the control bytes), {@code tx_vc}, {@code xpuid} and the first {@code N/8} data bytes.
 * A command with data continues with {@code tx_cycle} = 1, 2, ... ({@code tx_valid} = 2 on every beat); the XPU may
 * idle between beats. Every input but {@code rel_*} is registered on entry, so a beat is judged the cycle after it
 * is on the interface (and {@code tx_reset_in} takes effect a cycle late with it).
 *
 * <p><b>Drops</b> (each counted once, in this order of precedence; nothing of a dropped command reaches
 * {@code m_axis}): {@code drops_reserved_valid} ({@code tx_valid} = 3), {@code drops_no_credit} (the XPU did not hold
 * the command credit, or the data credit for {@code tx_valid} = 2; also sets the sticky {@code credit_error}),
 * {@code drops_bad_command} (undefined type, length over 256, data on a type without data, {@code tx_valid}
 * disagreeing with the length), {@code drops_bad_destination} ({@code xpuid} not below {@code destinations}),
 * {@code drops_tx_err} ({@code tx_err} on any beat), {@code drops_overflow} (no room in the staging buffer for the
 * whole command), {@code drops_sequence} (a beat out of order: a new {@code tx_cycle} = 0 while data beats are still
 * owed drops the unfinished command and starts the new one; any other misnumbered beat drops the command; beats after
 * a dropped beat 0 are ignored up to the next {@code tx_cycle} = 0), {@code drops_reset} (cut by {@code tx_reset_in}).
 * A dropped command that had taken credits gives them back at once.
 *
 * <p><b>Credits</b> ({@code tx_credit} = {cmd_credit, cmd_vc[1:0], data_credit, data_vc[1:0]}): per VC the XPU starts
 * with {@code cmdCredits} and {@code dataCredits}; a command takes one command credit and, with data, one data credit
 * at beat 0 (a credit the XPU could not yet have seen when it sent the beat, the one on {@code tx_credit} in the
 * cycle the beat is judged, does not count). They come back when the packing buffer releases the command
 * ({@code rel_*}) or when the command is dropped, at most one of each kind per cycle, round robin over the VCs owed.
 *
 * <p><b>Reset.</b> While {@code tx_reset_in} is high nothing is taken, and an unfinished command is dropped;
 * {@code tx_reset_out} stays high until {@code tx_reset_in} is low again and every command already handed on has been
 * released; then the XPU holds its initial credits again (credit returns owed before are void).
 *
 * <p>{@code internal_error} (sticky) flags what the ingress's own construction or its buffer should rule out: a beat
 * the staging could not take, or a release with no command handed on (ignored).
 *
 * <p><b>Datapath.</b> The packed bytes collect in an accumulator that emits a full output beat whenever it holds one;
 * beat 0 (header, control and up to N/8 data bytes) never fills one unless it ends the command, so a command never
 * needs more output beats than it had input beats, but its last input beat can complete two: the second waits one
 * cycle in a spill register. Output beats go into a staging memory whose write pointer rolls back when a command is
 * dropped after some of its beats were written; the read side shows only whole commands. A command is accepted only
 * if the staging memory has room for all of it, so it never overflows half-way.
 */
public final class CommandIngress extends Component {
    public record Config(@Tag("n") int dataWidth, CommandTable table, @Tag("d") int destinations,
                         @Tag("k") int cmdCredits, @Tag("kd") int dataCredits, @Tag("s") int stagingBeats) {
        private static final String NAME = "CommandIngress";
        /** The XPU's tx_data / rx_data width (spec Table 1). */
        public static final Bound DATA_WIDTH = Bound.powerOfTwo(256, 1024);
        /** Command credits per VC the XPU holds (a 12-bit count). */
        public static final Bound CMD_CREDITS = Bound.of(1, 4095);
        /** Data credits per VC the XPU holds (a 12-bit count). */
        public static final Bound DATA_CREDITS = Bound.of(0, 4095);

        public Config(int dataWidth, CommandTable table, int destinations, int cmdCredits, int dataCredits) {
            this(dataWidth, table, destinations, cmdCredits, dataCredits, 16);
        }

        public Config {
            DATA_WIDTH.check(NAME, "dataWidth", dataWidth);
            CommandTable.checkDefined(NAME, "table", table);
            SueMeta.DESTINATIONS.check(NAME, "destinations", destinations);
            CMD_CREDITS.check(NAME, "cmdCredits", cmdCredits);
            DATA_CREDITS.check(NAME, "dataCredits", dataCredits);
            int least = 2 * maxCommandBeats(dataWidth);
            if (stagingBeats < least || stagingBeats > 1024 || Integer.bitCount(stagingBeats) != 1) {
                throw new ConfigException(NAME, "{stagingBeats} must be a power of two from " + least + " (two"
                        + " largest commands) to 1024, got " + stagingBeats);
            }
        }

        /** Output beats of the largest command. */
        static int maxCommandBeats(int dataWidth) {
            int outBytes = dataWidth / 4;
            return (PackedCommand.MAX_PACKED_BYTES + outBytes - 1) / outBytes;
        }
    }

    /** {@code tx_cycle}: a beat's number in its command. */
    public static final int CYCLE_WIDTH = 4;
    /** {@code tx_valid}: 0 idle, 1 a command without data, 2 with data, 3 reserved. */
    public static final int VALID_WIDTH = 2;
    private static final int WITH_DATA = 2;
    private static final int RESERVED = 3;
    /** A credit return on {@code tx_credit}: {valid, vc}; the command credit's above the data credit's. */
    private static final int RETURN_WIDTH = 1 + SueMeta.VC_WIDTH;
    public static final int CREDIT_WIDTH = 2 * RETURN_WIDTH;
    /** Credits of a kind per VC, at most. */
    public static final int MAX_CREDITS = (int) Config.CMD_CREDITS.max();
    /** A count of credits the XPU holds. */
    private static final int HELD_WIDTH = Hw.log2Up(MAX_CREDITS + 1);
    /** Bytes of a command's header and control: at most {@link PackedCommand#MAX_CONTROL_ONLY_BYTES}. */
    private static final int HEADER_BYTES_WIDTH = Hw.log2Up(PackedCommand.MAX_CONTROL_ONLY_BYTES + 1);
    /** Output beats of a command, at most {@link Config#maxCommandBeats} at the narrowest data width. */
    private static final int BEATS_WIDTH = Hw.log2Up(Config.maxCommandBeats(256) + 1);

    public final Port txCycle;
    public final Port txValid;
    public final Port txVc;
    public final Port xpuid;
    public final Port txControl;
    public final Port txData;
    public final Port txErr;
    public final Port txCredit;
    public final Port txResetIn;
    public final Port txResetOut;
    public final Port creditError;
    /** The packing buffer released a command: its credits may go back ({@code rel_*}). */
    public final Flow release;
    public final Stream out;
    private final Config config;

    // sizes
    private final int n;
    private final int beatBytes;
    private final int outBytes;
    private final int capacity; // accumulator: header + a beat + a beat, before a full beat leaves
    private final int fw;
    private final int cw;       // byte count of a staged beat
    /** A staged output beat: data, tuser, byte count, last. */
    private final Layout staged;

    /**
     * The beat from the interface, a cycle later: tx_valid and tx_reset_in with it, its fields, whether it counts
     * ({@code live}: valid, no reset), is a beat 0, has data; and the command a beat 0 starts.
     */
    private record Beat(Expr valid, Expr resetIn, Expr cycle, Expr vc, Expr dst, Expr err, Expr data, Expr live,
                        Expr first, Expr withData, Command cmd) {
    }

    /**
     * What a beat 0 alone decides about its command: data length, packed header (type, 0, length, control), the
     * checks, header and packed bytes, whether it is a single beat, the output beats it needs.
     */
    private record Command(Expr length, Expr header, Expr badCommand, Expr badDestination, Expr headerBytes,
                           Expr packedBytes, Expr singleBeat, Expr beatsNeeded) {
    }

    /** Per VC, the credits the XPU holds and the returns owed; the returns shown on {@code tx_credit}. */
    private record Credits(List<Reg> cmdAvail, List<Reg> dataAvail, List<Reg> cmdOwed, List<Reg> dataOwed,
                           Reg cmdReturn, Reg dataReturn) {
    }

    /**
     * The command in progress: whether there is one, beats ignored after a dropped beat 0, the tx_cycle expected
     * next, data bytes still owed, the pad byte, its VC and tuser.
     */
    private record InProgress(Reg active, Reg skipping, Reg expect, Reg dataLeft, Reg padByte, Reg vc, Reg user) {
    }

    /** The staging memory's pointers: write, the unfinished command's start, committed, read; the spill's valid. */
    private record Pointers(Reg wr, Reg cmdStart, Reg commit, Reg rd, Reg spillValid) {
    }

    /**
     * A data beat of the command in progress: in order, with tx_err, reserved, out of sequence; the command cut by
     * reset; a stray data beat; the unfinished command dropped ({@code abandon}).
     */
    private record Continuation(Expr good, Expr txErr, Expr reserved, Expr sequence, Expr cutByReset, Expr stray,
                                Expr abandon) {
    }

    /** Where the staging write goes (back to the unfinished command's start if it is dropped); room for a command. */
    private record Room(Expr wrBase, Expr fits) {
    }

    /** A beat 0's verdict: it took credits, starts a command (of a single beat), or took credits and was dropped. */
    private record Verdict(Expr takeCredit, Expr start, Expr startSingle, Expr returnFirst) {
    }

    /** A command's last data beat arrived in order; a command ends (beat 0 alone, or its last data beat). */
    private record Progress(Expr lastCont, Expr ends) {
    }

    /** Output beat A leaves (a full beat, or a command's last); B follows A; their staging entries. */
    private record OutputBeats(Expr emitA, Expr twoOut, Expr entryA, Expr entryB) {
    }

    /** The staging memory, and its flag of three beats at once. */
    private record Staging(Mem memory, Reg error) {
    }

    /** Commands handed on and not yet released; a release taken; the flag of a release with none handed on. */
    private record Releases(Reg inFlight, Expr released, Reg error) {
    }

    public CommandIngress(Config config) {
        super(config);
        this.config = config;
        n = config.dataWidth();
        beatBytes = n / 8;
        outBytes = 2 * beatBytes;
        capacity = outBytes + beatBytes;
        fw = Hw.log2Up(capacity + 1);
        cw = Hw.log2Up(outBytes + 1);
        staged = Layout.of("staged", Layout.bits("data", 2 * n), Layout.bits("user", CommandUser.WIDTH),
                Layout.bits("count", cw), Layout.bits("last", 1));
        txCycle = in("tx_cycle", CYCLE_WIDTH);
        txValid = in("tx_valid", VALID_WIDTH);
        txVc = in("tx_vc", SueMeta.VC_WIDTH);
        xpuid = in("xpuid", SueMeta.XPU_WIDTH);
        txControl = in("tx_control", CommandUnpacker.CONTROL_BITS);
        txData = in("tx_data", n);
        txErr = in("tx_err", 1);
        txCredit = out("tx_credit", CREDIT_WIDTH);
        txResetIn = in("tx_reset_in", 1);
        txResetOut = out("tx_reset_out", 1);
        Reg creditErrorFlag = reg("credit_error_flag", 1, 0);
        creditError = status("credit_error", Status.Kind.FLAG, creditErrorFlag,
                "Sticky: the XPU sent a command without holding its credits.");
        release = Flow.slave(this, "rel", BufferCredits.COMMAND_EVENT);
        out = Stream.master(this, new StreamConfig(2 * n, CommandUser.WIDTH));

        Reg resetting = reg("resetting", 1, 1);
        Credits credits = credits();
        InProgress cmd = inProgress();
        Pointers ptr = pointers();
        Beat beat = registerBeat(resetting);
        Continuation cont = checkContinuation(beat, cmd, resetting);
        Room room = stagingRoom(beat, cont, ptr);
        Verdict verdict = judgeFirstBeat(beat, cont, room, credits, creditErrorFlag);
        Progress progress = trackCommand(beat, cont, verdict, cmd);
        OutputBeats beats = accumulate(beat, cont, verdict, progress, cmd);
        Staging staging = writeStaging(beat, verdict, room, beats, ptr);
        readWholeCommands(staging.memory(), ptr);
        Releases releases = releases(progress);
        returnCredits(beat, cont, verdict, credits, cmd, resetting, releases.released());
        resetHandshake(beat, progress, resetting, releases.inFlight());
        status("internal_error", Status.Kind.FLAG, staging.error().or(releases.error()), "Sticky: the staging"
                + " buffer was given three beats at once, or a release came with no command handed on (ignored); the"
                + " construction rules both out.");
    }

    /** The XPU starts with its credits; no returns owed. */
    private Credits credits() {
        List<Reg> cmdAvail = new ArrayList<>();
        List<Reg> dataAvail = new ArrayList<>();
        List<Reg> cmdOwed = new ArrayList<>();
        List<Reg> dataOwed = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            cmdAvail.add(reg("cmd_avail_" + v, HELD_WIDTH, config.cmdCredits()));
            dataAvail.add(reg("data_avail_" + v, HELD_WIDTH, config.dataCredits()));
            cmdOwed.add(reg("cmd_owed_" + v, HELD_WIDTH + 1, 0));
            dataOwed.add(reg("data_owed_" + v, HELD_WIDTH + 1, 0));
        }
        return new Credits(cmdAvail, dataAvail, cmdOwed, dataOwed, reg("cmd_return", RETURN_WIDTH, 0),
                reg("data_return", RETURN_WIDTH, 0));
    }

    private InProgress inProgress() {
        return new InProgress(reg("in_command", 1, 0), reg("skipping", 1, 0), reg("expect_cycle", CYCLE_WIDTH, 0),
                reg("data_left", CommandTable.LENGTH_WIDTH, 0), reg("pad_byte", 1, 0),
                reg("cmd_vc", SueMeta.VC_WIDTH, 0), reg("cmd_user", CommandUser.WIDTH, 0));
    }

    private Pointers pointers() {
        int pw = Hw.log2Up(config.stagingBeats()) + 1;
        return new Pointers(reg("wr_ptr", pw, 0), reg("cmd_start", pw, 0), reg("commit_ptr", pw, 0),
                reg("rd_ptr", pw, 0), reg("spill_valid", 1, 0));
    }

    /**
     * The beat on the interface is registered on entry with what it alone decides: a beat 0's command type looked up
     * in the table, its checks, its header and sizes. Everything after sees the beat a cycle late, tx_reset_in with
     * it, so the interface's handshakes keep their order; the first beat's judgement starts from registers instead
     * of from tx_control (docs/performance.md: 21 LUT levels through the checks into the staging and the credits).
     */
    private Beat registerBeat(Reg resetting) {
        // tx_control: type, data length (big-endian), then the control bytes
        Expr type = controlByte(0);
        Expr length16 = Hw.cat(controlByte(1), controlByte(2));
        CommandTable.Lookup typeInfo = config.table().lookup(type);
        Expr controlBytes = wire("control_bytes", Hw.cat(typeInfo.units(), Hw.lit(1, 0))); // 2-byte units
        Expr bad = typeInfo.defined().not().or(length16.gt(CommandTable.MAX_DATA_BYTES))
                .or(length16.ne(0).and(typeInfo.hasData().not())).or(txValid.eq(WITH_DATA).ne(length16.ne(0)));
        int dw = Hw.log2Up(config.destinations());
        Expr badDst = dw < SueMeta.XPU_WIDTH ? xpuid.bits(SueMeta.XPU_WIDTH - 1, dw).orR() : Hw.lit(1, 0);
        // from here on the length is narrower: only a command that passed the checks (at most 256 bytes) uses it
        Expr len = length16.resize(CommandTable.LENGTH_WIDTH);
        int bw = CommandUser.BYTES_WIDTH; // packed bytes
        Expr hBytes = wire("in_header_bytes", controlBytes.resize(bw).add(PackedCommand.HEADER_BYTES));
        // ceil(packed bytes / outBytes) with the small terms (header, padding, rounding) summed beside the length
        Expr smallTerms = hBytes.resize(bw + 1).add(outBytes - 1).add(len.bit(0).resize(bw + 1));
        // header: type, 0, length (big-endian), then the control bytes the table gives the type
        int maxControl = PackedCommand.MAX_CONTROL_ONLY_BYTES - PackedCommand.HEADER_BYTES;
        int controlEnd = 8 * (3 + maxControl); // tx_control: type, length, then at most maxControl bytes
        Expr control = txControl.bits(controlEnd - 1, 24).and(Keep.bytesBelow(controlBytes.resize(HEADER_BYTES_WIDTH),
                maxControl));
        unused("control_tail", txControl.bits(CommandUnpacker.CONTROL_BITS - 1, controlEnd));
        Layout beatLayout = Layout.of("beat", Layout.bits("cycle", CYCLE_WIDTH), Layout.bits("vc", SueMeta.VC_WIDTH),
                Layout.bits("xpuid", SueMeta.XPU_WIDTH), Layout.bits("err", 1), Layout.bits("data", n),
                Layout.bits("length", CommandTable.LENGTH_WIDTH),
                Layout.bits("header", 8 * PackedCommand.MAX_CONTROL_ONLY_BYTES), Layout.bits("bad_command", 1),
                Layout.bits("bad_destination", 1), Layout.bits("header_bytes", HEADER_BYTES_WIDTH),
                Layout.bits("packed_bytes", bw), Layout.bits("single_beat", 1), Layout.bits("beats_needed",
                        BEATS_WIDTH));
        Reg beat = regNoReset("beat", beatLayout.width());
        beat.set(beatLayout.expr().set("cycle", txCycle).set("vc", txVc).set("xpuid", xpuid).set("err", txErr)
                .set("data", txData).set("length", len)
                .set("header", Hw.cat(control, txControl.bits(23, 8), Hw.zeros(8), type))
                .set("bad_command", bad).set("bad_destination", badDst)
                .set("header_bytes", hBytes.resize(HEADER_BYTES_WIDTH))
                .set("packed_bytes", hBytes.add(len).add(len.bit(0).resize(bw)))
                .set("single_beat", length16.le(beatBytes))
                .set("beats_needed", len.resize(bw + 1).add(smallTerms).shr(Hw.log2Up(outBytes))
                        .resize(BEATS_WIDTH)).build());
        Reg validReg = reg("beat_valid", VALID_WIDTH, 0);
        Reg resetInReg = reg("beat_reset_in", 1, 0);
        validReg.set(txValid);
        resetInReg.set(txResetIn);
        Function<String, Expr> field = f -> wire("beat_" + f, beatLayout.get(beat, f));
        Expr cycle = field.apply("cycle");
        Expr vc = field.apply("vc");
        Expr dst = field.apply("xpuid");
        Expr err = field.apply("err");
        Expr data = field.apply("data");
        Command cmd = new Command(field.apply("length"), field.apply("header"), field.apply("bad_command"),
                field.apply("bad_destination"), field.apply("header_bytes").resize(bw), // at most 4 + 14
                field.apply("packed_bytes"), field.apply("single_beat"), field.apply("beats_needed"));
        Expr live = wire("live", validReg.ne(0).and(resetting.not()).and(resetInReg.not()));
        Expr first = wire("first_beat", live.and(cycle.eq(0)));
        Expr withData = wire("with_data", validReg.eq(WITH_DATA));
        return new Beat(validReg, resetInReg, cycle, vc, dst, err, data, live, first, withData, cmd);
    }

    /** Byte {@code i} of tx_control. */
    private Expr controlByte(int i) {
        return txControl.bits(8 * i + 7, 8 * i);
    }

    /** A data beat of the command in progress: in order, with tx_err, reserved, out of sequence, or cut by reset. */
    private Continuation checkContinuation(Beat beat, InProgress cmd, Reg resetting) {
        Expr continuation = wire("continuation", beat.live().and(cmd.active()).and(beat.cycle().ne(0)));
        Expr inOrder = wire("in_order", beat.cycle().eq(cmd.expect()).and(beat.valid().eq(WITH_DATA)));
        Expr good = wire("cont_good", continuation.and(inOrder).and(beat.err().not()));
        Expr txErr = wire("cont_tx_err", continuation.and(inOrder).and(beat.err()));
        Expr reserved = wire("cont_reserved", continuation.and(beat.valid().eq(RESERVED)));
        Expr sequence = wire("cont_sequence", continuation.and(inOrder.not()).and(beat.valid().ne(RESERVED))
                .or(beat.first().and(cmd.active())));
        Expr cutByReset = wire("cut_by_reset", cmd.active().and(beat.resetIn().or(resetting)));
        Expr stray = wire("stray_beat", beat.live().and(cmd.active().not()).and(cmd.skipping().not())
                .and(beat.cycle().ne(0)));
        // the unfinished command is dropped: its beats in staging roll back, its credits return
        Expr abandon = wire("abandon", txErr.or(reserved).or(sequence).or(cutByReset));
        return new Continuation(good, txErr, reserved, sequence, cutByReset, stray, abandon);
    }

    /** Free room in the staging memory for a whole new command. */
    private Room stagingRoom(Beat beat, Continuation cont, Pointers ptr) {
        int depth = config.stagingBeats();
        Expr wrBase = wire("wr_base", Hw.mux(cont.abandon(), ptr.cmdStart(), ptr.wr()));
        // the room for either write base, chosen by the late abandon after the compares
        Expr needed = beat.cmd().beatsNeeded();
        return new Room(wrBase, wire("room", Hw.mux(cont.abandon(), roomFrom(ptr.cmdStart(), ptr, needed, depth),
                roomFrom(ptr.wr(), ptr, needed, depth))));
    }

    private static Expr roomFrom(Expr base, Pointers ptr, Expr needed, int depth) {
        int pw = ptr.wr().width();
        Expr used = base.sub(ptr.rd()).add(ptr.spillValid().resize(pw));
        return Hw.lit(pw + 1, depth).sub(used.resize(pw + 1)).ge(needed.resize(pw + 1));
    }

    /** A beat 0 takes the credits, then is dropped for its first failing check or starts the command. */
    private Verdict judgeFirstBeat(Beat beat, Continuation cont, Room room, Credits credits, Reg creditErrorFlag) {
        Command cmd = beat.cmd();
        Expr first = beat.first();
        Expr reserved = beat.valid().eq(RESERVED);
        Expr haveCredit = wire("have_credit", held(credits.cmdAvail(), credits.cmdReturn(), beat.vc())
                .and(beat.withData().not().or(held(credits.dataAvail(), credits.dataReturn(), beat.vc()))));
        Expr takeCredit = wire("take_credit", first.and(reserved.not()).and(haveCredit));
        Expr noCredit = wire("no_credit", first.and(reserved.not()).and(haveCredit.not()));
        Expr dropBad = wire("drop_bad_command", takeCredit.and(cmd.badCommand()));
        Expr dropDst = wire("drop_bad_destination", takeCredit.and(cmd.badCommand().not())
                .and(cmd.badDestination()));
        Expr checked = takeCredit.and(cmd.badCommand().not()).and(cmd.badDestination().not());
        Expr dropTxErr = wire("drop_tx_err_first", checked.and(beat.err()));
        Expr dropOverflow = wire("drop_overflow", checked.and(beat.err().not()).and(room.fits().not()));
        Expr start = wire("start", checked.and(beat.err().not()).and(room.fits()));
        Expr startSingle = wire("start_single", start.and(cmd.singleBeat()));
        Expr returnFirst = wire("return_first", takeCredit.and(start.not())); // took credits, then dropped

        statusCounter("drops_reserved_valid", first.and(reserved).or(cont.reserved()),
                "Commands dropped for tx_valid = 3 (reserved).");
        statusCounter("drops_no_credit", noCredit,
                "Commands dropped because the XPU did not hold their command or data credit.");
        statusCounter("drops_bad_command", dropBad, "Commands dropped for an undefined type, a data length over 256,"
                + " data on a type without data, or tx_valid disagreeing with the length.");
        statusCounter("drops_bad_destination", dropDst,
                "Commands dropped for an xpuid not below the configured destinations.");
        statusCounter("drops_tx_err", dropTxErr.or(cont.txErr()), "Commands dropped for tx_err on one of their beats.");
        statusCounter("drops_overflow", dropOverflow,
                "Commands dropped for want of room for the whole command in the staging buffer.");
        statusCounter("drops_sequence", cont.sequence().or(cont.stray()),
                "Commands dropped for a beat out of sequence, and stray data beats outside a command.");
        statusCounter("drops_reset", cont.cutByReset(), "Commands cut by tx_reset_in.");
        when(noCredit, () -> creditErrorFlag.set(1));
        return new Verdict(takeCredit, start, startSingle, returnFirst);
    }

    /** The command in progress: which data beat comes next, and how many bytes it still owes. */
    private Progress trackCommand(Beat beat, Continuation cont, Verdict verdict, InProgress cmd) {
        Expr length = beat.cmd().length();
        Expr firstDropped = wire("first_dropped", beat.first().and(verdict.start().not()));
        Expr lastCont = wire("last_cont", cont.good().and(cmd.dataLeft().le(beatBytes)));
        when(verdict.start().and(beat.cmd().singleBeat().not()), () -> {
            cmd.active().set(1);
            cmd.expect().set(1);
            cmd.dataLeft().set(length.sub(beatBytes).resize(CommandTable.LENGTH_WIDTH));
            cmd.padByte().set(length.bit(0));
            cmd.vc().set(beat.vc());
            cmd.user().set(user(beat));
        }).elseWhen(lastCont.or(cont.abandon()), () -> cmd.active().set(0))
                .elseWhen(cont.good(), () -> {
                    cmd.expect().set(cmd.expect().add(1));
                    cmd.dataLeft().set(cmd.dataLeft().sub(beatBytes));
                });
        when(firstDropped.or(cont.abandon().and(beat.first().not())).or(cont.stray()), () -> cmd.skipping().set(1))
                .elseWhen(beat.first(), () -> cmd.skipping().set(0));
        Expr ends = wire("ends", verdict.startSingle().or(lastCont));
        statusCounter("commands_accepted", ends, "Commands handed on whole to the packing buffer.");
        return new Progress(lastCont, ends);
    }

    /**
     * Packed bytes collect in an accumulator; a full output beat leaves as soon as there is one, and a command's
     * last input beat may complete two ({@code entryA}, then {@code entryB}).
     */
    private OutputBeats accumulate(Beat beat, Continuation cont, Verdict verdict, Progress progress, InProgress cmd) {
        Command c = beat.cmd();
        Expr first = beat.first();
        Expr length = c.length();
        Expr headerBytes = c.headerBytes();
        Expr dataLeft = cmd.dataLeft();
        Reg acc = reg("acc", 8 * capacity, 0);
        Reg fill = reg("fill", fw, 0);
        Expr firstData = beat.data().and(Keep.bytesBelow(length, beatBytes)).resize(8 * capacity);
        Expr contData = beat.data().and(Keep.bytesBelow(dataLeft, beatBytes)).resize(8 * capacity);
        Expr firstAcc = wire("first_acc", c.header().resize(8 * capacity)
                .or(firstData.shl(Hw.cat(headerBytes.bits(HEADER_BYTES_WIDTH - 1, 0), Hw.lit(3, 0)))));
        Expr firstFill = Hw.mux(c.singleBeat(), headerBytes.add(length.resize(headerBytes.width())),
                headerBytes.add(beatBytes)).resize(fw);
        Expr contAcc = acc.or(contData.shl(Hw.cat(fill, Hw.lit(3, 0))));
        Expr contFill = fill.add(Hw.mux(progress.lastCont(), dataLeft.resize(fw), Hw.lit(fw, beatBytes)));
        Expr nextAcc = wire("next_acc", Hw.mux(first, firstAcc, contAcc));
        Expr nextFill = wire("next_fill", Hw.mux(first, firstFill, contFill));
        Expr total = wire("total", nextFill.add(Hw.mux(first, length.bit(0), cmd.padByte()).resize(fw)));
        Expr grows = wire("grows", verdict.start().or(cont.good())); // bytes entered the accumulator this cycle
        Expr ends = progress.ends();
        Expr twoOut = wire("two_out", ends.and(total.gt(outBytes)));
        Expr fullOut = wire("full_out", grows.and(ends.not()).and(nextFill.ge(outBytes)));
        Expr emitA = wire("emit_a", ends.or(fullOut));
        Expr aLast = wire("a_last", ends.and(twoOut.not()));
        Expr beatUser = Hw.mux(first, user(beat), cmd.user());
        Expr entryA = staged.expr().set("last", aLast).set("count", Hw.mux(aLast, total.resize(cw),
                Hw.lit(cw, outBytes))).set("user", beatUser).set("data", nextAcc.bits(8 * outBytes - 1, 0)).build();
        Expr entryB = staged.expr().set("last", 1).set("count", total.sub(outBytes).resize(cw)).set("user", beatUser)
                .set("data", nextAcc.bits(8 * capacity - 1, 8 * outBytes).resize(8 * outBytes)).build();
        when(fullOut, () -> {
            acc.set(nextAcc.shr(8 * outBytes));
            fill.set(nextFill.sub(outBytes));
        }).elseWhen(grows.and(ends.not()), () -> {
            acc.set(nextAcc);
            fill.set(nextFill);
        }).elseWhen(ends.or(cont.abandon()), () -> {
            acc.set(0);
            fill.set(0);
        });
        return new OutputBeats(emitA, twoOut, entryA, entryB);
    }

    /** One staging write a cycle: a waiting beat first, then this cycle's; a dropped command's beats roll back. */
    private Staging writeStaging(Beat beat, Verdict verdict, Room room, OutputBeats beats, Pointers ptr) {
        Reg spillValid = ptr.spillValid();
        Reg spill = reg("spill", staged.width(), 0);
        Expr entry = wire("write_entry", Hw.mux(spillValid, spill, beats.entryA()));
        Expr write = wire("write", spillValid.or(beats.emitA()));
        // what waits: A behind the spill, or B behind A
        Expr keepA = spillValid.and(beats.emitA());
        Expr keepB = spillValid.not().and(beats.twoOut());
        Expr spillNow = keepA.or(keepB);
        Reg stagingError = reg("staging_error_flag", 1, 0); // three beats at once: cannot happen (see class doc)
        when(spillValid.and(beats.twoOut()), () -> stagingError.set(1));
        when(spillNow, () -> spill.set(Hw.mux(keepA, beats.entryA(), beats.entryB())));
        spillValid.set(spillNow);
        Mem staging = mem("staging", config.stagingBeats(), staged.width(), ReadUnderWrite.READ_FIRST);
        int aw = staging.addressWidth();
        staging.write(write, room.wrBase().bits(aw - 1, 0), entry);
        Expr written = wire("written", Hw.mux(write, room.wrBase().add(1), room.wrBase()));
        ptr.wr().set(written);
        when(verdict.start().and(beat.cmd().singleBeat().not()), () -> ptr.cmdStart().set(written));
        when(write.and(staged.get(entry, "last")), () -> ptr.commit().set(written));
        return new Staging(staging, stagingError);
    }

    /** The read side shows whole commands only: up to the last committed beat. */
    private void readWholeCommands(Mem staging, Pointers ptr) {
        int aw = staging.addressWidth();
        Stream.RamRead word = Stream.fromRam("out", staging, ptr.rd().bits(aw - 1, 0), ptr.rd().ne(ptr.commit()),
                staged);
        when(word.load(), () -> ptr.rd().set(ptr.rd().add(1)));
        Stream beat = word.out();
        beat.translateInto(out, out.layout().expr().set(Stream.TDATA, beat.field("data"))
                .set(Stream.TKEEP, Keep.below(beat.field("count"), outBytes)).set(Stream.TLAST, beat.field("last"))
                .set(Stream.TUSER, beat.field("user")).build());
    }

    /** Releases from the packing buffer, against the commands handed on. */
    private Releases releases(Progress progress) {
        Reg inFlight = reg("in_flight", 16, 0); // commands handed on and not yet released
        // a release with nothing handed on is the buffer's fault, not the XPU's: ignored, and the flag sticks
        Expr spurious = wire("release_spurious", release.valid().and(inFlight.eq(0)).and(progress.ends().not()));
        Expr released = wire("released", release.valid().and(spurious.not()));
        Reg releaseError = reg("release_error_flag", 1, 0);
        when(spurious, () -> releaseError.set(1));
        inFlight.set(Hw.upDown(inFlight, List.of(progress.ends()), List.of(released)));
        return new Releases(inFlight, released, releaseError);
    }

    /**
     * Credits go back for released commands and for dropped ones that had taken them, at most one of each kind a
     * cycle, round robin over the VCs owed, so no VC's returns wait behind another's; during a reset the XPU's
     * initial credits are restored.
     */
    private void returnCredits(Beat beat, Continuation cont, Verdict verdict, Credits credits, InProgress cmd,
                               Reg resetting, Expr released) {
        Reg cmdLast = reg("cmd_return_last", SueMeta.VC_WIDTH, SueMeta.VCS - 1);
        Reg dataLast = reg("data_return_last", SueMeta.VC_WIDTH, SueMeta.VCS - 1);
        Expr cmdPick = wire("cmd_pick", Arbiter.rotatingPick(nonZero(credits.cmdOwed()), cmdLast));
        Expr dataPick = wire("data_pick", Arbiter.rotatingPick(nonZero(credits.dataOwed()), dataLast));
        Expr cmdGive = wire("cmd_give", anyNonZero(credits.cmdOwed()).and(resetting.not()));
        Expr dataGive = wire("data_give", anyNonZero(credits.dataOwed()).and(resetting.not()));
        when(cmdGive, () -> cmdLast.set(cmdPick));
        when(dataGive, () -> dataLast.set(dataPick));
        credits.cmdReturn().set(Hw.cat(cmdGive, cmdPick));
        credits.dataReturn().set(Hw.cat(dataGive, dataPick));
        txCredit.set(Hw.cat(credits.cmdReturn(), credits.dataReturn()));
        Expr relVc = release.field("vc");
        Expr vc = beat.vc();
        Expr abandon = cont.abandon();
        for (int v = 0; v < SueMeta.VCS; v++) {
            Expr rel = released.and(relVc.eq(v));
            List<Expr> cmdBack = List.of(rel, verdict.returnFirst().and(vc.eq(v)), abandon.and(cmd.vc().eq(v)));
            List<Expr> dataBack = List.of(rel.and(release.field("data")), verdict.returnFirst().and(vc.eq(v))
                    .and(beat.withData()), abandon.and(cmd.vc().eq(v))); // only commands with data span beats
            Expr cmdOut = cmdGive.and(cmdPick.eq(v));
            Expr dataOut = dataGive.and(dataPick.eq(v));
            Expr took = verdict.takeCredit().and(vc.eq(v));
            Reg cmdOwed = credits.cmdOwed().get(v);
            Reg dataOwed = credits.dataOwed().get(v);
            Reg cmdAvail = credits.cmdAvail().get(v);
            Reg dataAvail = credits.dataAvail().get(v);
            when(resetting, () -> {
                cmdOwed.set(0);
                dataOwed.set(0);
                cmdAvail.set(config.cmdCredits());
                dataAvail.set(config.dataCredits());
            }).otherwise(() -> {
                cmdOwed.set(Hw.upDown(cmdOwed, cmdBack, List.of(cmdOut)));
                dataOwed.set(Hw.upDown(dataOwed, dataBack, List.of(dataOut)));
                cmdAvail.set(Hw.upDown(cmdAvail, List.of(cmdOut), List.of(took)));
                dataAvail.set(Hw.upDown(dataAvail, List.of(dataOut), List.of(took.and(beat.withData()))));
            });
        }
    }

    /**
     * The reset handshake holds {@code tx_reset_out} until the XPU lets go of {@code tx_reset_in} and every command
     * handed on is released.
     */
    private void resetHandshake(Beat beat, Progress progress, Reg resetting, Reg inFlight) {
        when(beat.resetIn(), () -> resetting.set(1))
                .elseWhen(resetting.and(inFlight.eq(0)).and(progress.ends().not()), () -> resetting.set(0));
        Reg resetOut = reg("reset_out", 1, 1);
        resetOut.set(resetting.or(beat.resetIn()));
        txResetOut.set(resetOut);
    }

    /**
     * The XPU held a credit of the beat's VC when it sent the beat, a cycle ago: not the one {@code tx_credit} shows
     * now, which it had not seen then.
     */
    private static Expr held(List<Reg> avail, Reg returned, Expr vc) {
        Expr count = Hw.select(avail, vc);
        Expr unseen = returned.bit(SueMeta.VC_WIDTH).and(returned.bits(SueMeta.VC_WIDTH - 1, 0).eq(vc));
        return count.ne(0).and(count.ne(1).or(unseen.not()));
    }

    /** The packing buffer's tuser for the command starting on this beat. */
    private static Expr user(Beat beat) {
        return CommandUser.LAYOUT.expr().set(CommandUser.HAS_DATA, beat.cmd().length().ne(0))
                .set(CommandUser.BYTES, beat.cmd().packedBytes()).set(CommandUser.VC, beat.vc())
                .set(CommandUser.DST, beat.dst()).build();
    }

    private static Expr anyNonZero(List<Reg> regs) {
        return Hw.cat(nonZero(regs)).orR();
    }

    private static List<Expr> nonZero(List<Reg> regs) {
        List<Expr> list = new ArrayList<>();
        for (Reg r : regs) {
            list.add(r.ne(0));
        }
        return list;
    }

    public Config config() {
        return config;
    }
}
