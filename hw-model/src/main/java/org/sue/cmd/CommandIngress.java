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

    // the beat from the interface, a cycle later, with what it alone decides
    private final Reg resetting;
    private Expr resetIn;
    private Expr valid;
    private Expr cycle;
    private Expr vc;
    private Expr dst;
    private Expr err;
    private Expr data;
    private Expr live;
    private Expr first;
    private Expr length;
    private Expr withData;
    private Expr header;
    private Expr badCommand;
    private Expr badDestination;
    private Expr headerBytes;
    private Expr packedBytes;
    private Expr singleBeat;
    private Expr beatsNeeded;
    // credits the XPU holds and returns owed, per VC
    private final List<Reg> cmdAvail = new ArrayList<>();
    private final List<Reg> dataAvail = new ArrayList<>();
    private final List<Reg> cmdOwed = new ArrayList<>();
    private final List<Reg> dataOwed = new ArrayList<>();
    private final Reg cmdReturn;
    private final Reg dataReturn;
    // the command in progress
    private final Reg inCommand;
    private final Reg skipping;
    private final Reg expect;
    private final Reg dataLeft;
    private final Reg padByte;
    private final Reg cmdVc;
    private final Reg cmdUser;
    private Expr contGood;
    private Expr contTxErr;
    private Expr contReserved;
    private Expr contSequence;
    private Expr cutByReset;
    private Expr stray;
    private Expr abandon;
    // staging memory
    private final Reg wrPtr;
    private final Reg cmdStart;
    private final Reg commitPtr;
    private final Reg rdPtr;
    private final Reg spillValid;
    private Expr wrBase;
    private Expr room;
    // beat 0
    private Expr takeCredit;
    private Expr start;
    private Expr startSingle;
    private Expr returnFirst;
    private Expr lastCont;
    private Expr ends;
    // accumulator
    private Expr emitA;
    private Expr twoOut;
    private Expr entryA;
    private Expr entryB;
    private Reg stagingError;

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
        txCycle = in("tx_cycle", 4);
        txValid = in("tx_valid", 2);
        txVc = in("tx_vc", SueMeta.VC_WIDTH);
        xpuid = in("xpuid", SueMeta.XPU_WIDTH);
        txControl = in("tx_control", CommandUnpacker.CONTROL_BITS);
        txData = in("tx_data", n);
        txErr = in("tx_err", 1);
        txCredit = out("tx_credit", 6);
        txResetIn = in("tx_reset_in", 1);
        txResetOut = out("tx_reset_out", 1);
        creditError = out("credit_error", 1);
        release = Flow.slave(this, "rel", BufferCredits.COMMAND_EVENT);
        out = Stream.master(this, new StreamConfig(2 * n, CommandUser.WIDTH));

        resetting = reg("resetting", 1, 1);
        for (int v = 0; v < SueMeta.VCS; v++) {
            cmdAvail.add(reg("cmd_avail_" + v, 12, config.cmdCredits()));
            dataAvail.add(reg("data_avail_" + v, 12, config.dataCredits()));
            cmdOwed.add(reg("cmd_owed_" + v, 13, 0));
            dataOwed.add(reg("data_owed_" + v, 13, 0));
        }
        inCommand = reg("in_command", 1, 0);
        skipping = reg("skipping", 1, 0);     // after a dropped beat 0: ignore beats up to the next beat 0
        expect = reg("expect_cycle", 4, 0);
        dataLeft = reg("data_left", 9, 0);    // data bytes still owed
        padByte = reg("pad_byte", 1, 0);      // odd data length: one zero byte after the data
        cmdVc = reg("cmd_vc", SueMeta.VC_WIDTH, 0);
        cmdUser = reg("cmd_user", CommandUser.WIDTH, 0);
        cmdReturn = reg("cmd_return", 3, 0);  // {valid, vc}: shown on tx_credit
        dataReturn = reg("data_return", 3, 0);
        int pw = Hw.log2Up(config.stagingBeats()) + 1;
        wrPtr = reg("wr_ptr", pw, 0);
        cmdStart = reg("cmd_start", pw, 0);
        commitPtr = reg("commit_ptr", pw, 0);
        rdPtr = reg("rd_ptr", pw, 0);
        spillValid = reg("spill_valid", 1, 0);

        registerBeat();
        checkContinuation();
        stagingRoom();
        judgeFirstBeat();
        trackCommand();
        accumulate();
        Mem staging = writeStaging();
        readWholeCommands(staging);
        returnCredits();
    }

    /**
     * The beat on the interface is registered on entry with what it alone decides: a beat 0's command type looked up
     * in the table, its checks, its header and sizes. Everything after sees the beat a cycle late, tx_reset_in with
     * it, so the interface's handshakes keep their order; the first beat's judgement starts from registers instead
     * of from tx_control (docs/performance.md: 21 LUT levels through the checks into the staging and the credits).
     */
    private void registerBeat() {
        Expr type = txControl.bits(7, 0);
        Expr length16 = Hw.cat(txControl.bits(15, 8), txControl.bits(23, 16));
        CommandTable.Lookup typeInfo = config.table().lookup(type);
        Expr controlBytes = wire("control_bytes", Hw.cat(typeInfo.units(), Hw.lit(1, 0))); // 2-byte units
        Expr bad = typeInfo.defined().not().or(length16.gt(CommandTable.MAX_DATA_BYTES))
                .or(length16.ne(0).and(typeInfo.hasData().not())).or(txValid.eq(2).ne(length16.ne(0)));
        int dw = Hw.log2Up(config.destinations());
        Expr badDst = dw < SueMeta.XPU_WIDTH ? xpuid.bits(SueMeta.XPU_WIDTH - 1, dw).orR() : Hw.lit(1, 0);
        // from here on the length has 9 bits: only a command that passed the checks (at most 256 bytes) uses it
        Expr len = length16.resize(9);
        Expr hBytes = wire("in_header_bytes", controlBytes.resize(9).add(PackedCommand.HEADER_BYTES));
        // ceil(packed bytes / outBytes) with the small terms (header, padding, rounding) summed beside the length
        Expr smallTerms = hBytes.resize(10).add(outBytes - 1).add(len.bit(0).resize(10));
        // header: type, 0, length (big-endian), then the control bytes the table gives the type
        int maxControl = PackedCommand.MAX_CONTROL_ONLY_BYTES - PackedCommand.HEADER_BYTES;
        int controlEnd = 8 * (3 + maxControl); // tx_control: type, length, then at most maxControl bytes
        Expr control = txControl.bits(controlEnd - 1, 24).and(Keep.bytesBelow(controlBytes.resize(5), maxControl));
        unused("control_tail", txControl.bits(CommandUnpacker.CONTROL_BITS - 1, controlEnd));
        Layout beatLayout = Layout.of("beat", Layout.bits("cycle", 4), Layout.bits("vc", SueMeta.VC_WIDTH),
                Layout.bits("xpuid", SueMeta.XPU_WIDTH), Layout.bits("err", 1), Layout.bits("data", n),
                Layout.bits("length", 9), Layout.bits("header", 8 * PackedCommand.MAX_CONTROL_ONLY_BYTES),
                Layout.bits("bad_command", 1), Layout.bits("bad_destination", 1), Layout.bits("header_bytes", 5),
                Layout.bits("packed_bytes", 9), Layout.bits("single_beat", 1), Layout.bits("beats_needed", 3));
        Reg beat = regNoReset("beat", beatLayout.width());
        beat.set(beatLayout.expr().set("cycle", txCycle).set("vc", txVc).set("xpuid", xpuid).set("err", txErr)
                .set("data", txData).set("length", len)
                .set("header", Hw.cat(control, txControl.bits(23, 8), Hw.lit(8, 0), type))
                .set("bad_command", bad).set("bad_destination", badDst).set("header_bytes", hBytes.resize(5))
                .set("packed_bytes", hBytes.add(len).add(len.bit(0).resize(9)))
                .set("single_beat", length16.le(beatBytes))
                .set("beats_needed", len.resize(10).add(smallTerms).shr(Hw.log2Up(outBytes)).resize(3)).build());
        Reg validReg = reg("beat_valid", 2, 0);
        Reg resetInReg = reg("beat_reset_in", 1, 0);
        validReg.set(txValid);
        resetInReg.set(txResetIn);
        valid = validReg;
        resetIn = resetInReg;
        Function<String, Expr> field = f -> wire("beat_" + f, beatLayout.get(beat, f));
        cycle = field.apply("cycle");
        vc = field.apply("vc");
        dst = field.apply("xpuid");
        err = field.apply("err");
        data = field.apply("data");
        length = field.apply("length");
        header = field.apply("header");
        badCommand = field.apply("bad_command");
        badDestination = field.apply("bad_destination");
        headerBytes = field.apply("header_bytes").resize(9); // at most 4 + 14
        packedBytes = field.apply("packed_bytes");
        singleBeat = field.apply("single_beat");
        beatsNeeded = field.apply("beats_needed");
        live = wire("live", valid.ne(0).and(resetting.not()).and(resetIn.not()));
        first = wire("first_beat", live.and(cycle.eq(0)));
        withData = wire("with_data", valid.eq(2));
    }

    /** A data beat of the command in progress: in order, with tx_err, reserved, out of sequence, or cut by reset. */
    private void checkContinuation() {
        Expr continuation = wire("continuation", live.and(inCommand).and(cycle.ne(0)));
        Expr inOrder = wire("in_order", cycle.eq(expect).and(valid.eq(2)));
        contGood = wire("cont_good", continuation.and(inOrder).and(err.not()));
        contTxErr = wire("cont_tx_err", continuation.and(inOrder).and(err));
        contReserved = wire("cont_reserved", continuation.and(valid.eq(3)));
        contSequence = wire("cont_sequence", continuation.and(inOrder.not()).and(valid.ne(3))
                .or(first.and(inCommand)));
        cutByReset = wire("cut_by_reset", inCommand.and(resetIn.or(resetting)));
        stray = wire("stray_beat", live.and(inCommand.not()).and(skipping.not()).and(cycle.ne(0)));
        // the unfinished command is dropped: its beats in staging roll back, its credits return
        abandon = wire("abandon", contTxErr.or(contReserved).or(contSequence).or(cutByReset));
    }

    /** Free room in the staging memory for a whole new command. */
    private void stagingRoom() {
        int depth = config.stagingBeats();
        wrBase = wire("wr_base", Hw.mux(abandon, cmdStart, wrPtr));
        // the room for either write base, chosen by the late abandon after the compares
        room = wire("room", Hw.mux(abandon, roomFrom(cmdStart, depth), roomFrom(wrPtr, depth)));
    }

    private Expr roomFrom(Expr base, int depth) {
        int pw = wrPtr.width();
        Expr used = base.sub(rdPtr).add(spillValid.resize(pw));
        return Hw.lit(pw + 1, depth).sub(used.resize(pw + 1)).ge(beatsNeeded.resize(pw + 1));
    }

    /** A beat 0 takes the credits, then is dropped for its first failing check or starts the command. */
    private void judgeFirstBeat() {
        Expr reserved = valid.eq(3);
        Expr haveCredit = wire("have_credit", held(cmdAvail, cmdReturn)
                .and(withData.not().or(held(dataAvail, dataReturn))));
        takeCredit = wire("take_credit", first.and(reserved.not()).and(haveCredit));
        Expr noCredit = wire("no_credit", first.and(reserved.not()).and(haveCredit.not()));
        Expr dropBad = wire("drop_bad_command", takeCredit.and(badCommand));
        Expr dropDst = wire("drop_bad_destination", takeCredit.and(badCommand.not()).and(badDestination));
        Expr checked = takeCredit.and(badCommand.not()).and(badDestination.not());
        Expr dropTxErr = wire("drop_tx_err_first", checked.and(err));
        Expr dropOverflow = wire("drop_overflow", checked.and(err.not()).and(room.not()));
        start = wire("start", checked.and(err.not()).and(room));
        startSingle = wire("start_single", start.and(singleBeat));
        returnFirst = wire("return_first", takeCredit.and(start.not())); // took credits, then dropped

        counter("drops_reserved_valid", first.and(reserved).or(contReserved));
        counter("drops_no_credit", noCredit);
        counter("drops_bad_command", dropBad);
        counter("drops_bad_destination", dropDst);
        counter("drops_tx_err", dropTxErr.or(contTxErr));
        counter("drops_overflow", dropOverflow);
        counter("drops_sequence", contSequence.or(stray));
        counter("drops_reset", cutByReset);
        Reg creditErrorFlag = reg("credit_error_flag", 1, 0);
        when(noCredit, () -> creditErrorFlag.set(1));
        creditError.set(creditErrorFlag);
    }

    /** The command in progress: which data beat comes next, and how many bytes it still owes. */
    private void trackCommand() {
        Expr firstDropped = wire("first_dropped", first.and(start.not()));
        lastCont = wire("last_cont", contGood.and(dataLeft.le(beatBytes)));
        when(start.and(singleBeat.not()), () -> {
            inCommand.set(1);
            expect.set(1);
            dataLeft.set(length.sub(beatBytes).resize(9));
            padByte.set(length.bit(0));
            cmdVc.set(vc);
            cmdUser.set(user());
        }).elseWhen(lastCont.or(abandon), () -> inCommand.set(0))
                .elseWhen(contGood, () -> {
                    expect.set(expect.add(1));
                    dataLeft.set(dataLeft.sub(beatBytes));
                });
        when(firstDropped.or(abandon.and(first.not())).or(stray), () -> skipping.set(1))
                .elseWhen(first, () -> skipping.set(0));
        ends = wire("ends", startSingle.or(lastCont));
        counter("commands_accepted", ends);
    }

    /**
     * Packed bytes collect in an accumulator; a full output beat leaves as soon as there is one, and a command's
     * last input beat may complete two ({@code entryA}, then {@code entryB}).
     */
    private void accumulate() {
        Reg acc = reg("acc", 8 * capacity, 0);
        Reg fill = reg("fill", fw, 0);
        Expr firstData = data.and(Keep.bytesBelow(length, beatBytes)).resize(8 * capacity);
        Expr contData = data.and(Keep.bytesBelow(dataLeft, beatBytes)).resize(8 * capacity);
        Expr firstAcc = wire("first_acc", header.resize(8 * capacity)
                .or(firstData.shl(Hw.cat(headerBytes.bits(4, 0), Hw.lit(3, 0)))));
        Expr firstFill = Hw.mux(singleBeat, headerBytes.add(length.resize(9)), headerBytes.add(beatBytes)).resize(fw);
        Expr contAcc = acc.or(contData.shl(Hw.cat(fill, Hw.lit(3, 0))));
        Expr contFill = fill.add(Hw.mux(lastCont, dataLeft.resize(fw), Hw.lit(fw, beatBytes)));
        Expr nextAcc = wire("next_acc", Hw.mux(first, firstAcc, contAcc));
        Expr nextFill = wire("next_fill", Hw.mux(first, firstFill, contFill));
        Expr total = wire("total", nextFill.add(Hw.mux(first, length.bit(0), padByte).resize(fw)));
        Expr grows = wire("grows", start.or(contGood)); // bytes entered the accumulator this cycle
        twoOut = wire("two_out", ends.and(total.gt(outBytes)));
        Expr fullOut = wire("full_out", grows.and(ends.not()).and(nextFill.ge(outBytes)));
        emitA = wire("emit_a", ends.or(fullOut));
        Expr aLast = wire("a_last", ends.and(twoOut.not()));
        Expr beatUser = Hw.mux(first, user(), cmdUser);
        entryA = staged.expr().set("last", aLast).set("count", Hw.mux(aLast, total.resize(cw), Hw.lit(cw, outBytes)))
                .set("user", beatUser).set("data", nextAcc.bits(8 * outBytes - 1, 0)).build();
        entryB = staged.expr().set("last", 1).set("count", total.sub(outBytes).resize(cw)).set("user", beatUser)
                .set("data", nextAcc.bits(8 * capacity - 1, 8 * outBytes).resize(8 * outBytes)).build();
        when(fullOut, () -> {
            acc.set(nextAcc.shr(8 * outBytes));
            fill.set(nextFill.sub(outBytes));
        }).elseWhen(grows.and(ends.not()), () -> {
            acc.set(nextAcc);
            fill.set(nextFill);
        }).elseWhen(ends.or(abandon), () -> {
            acc.set(0);
            fill.set(0);
        });
    }

    /** One staging write a cycle: a waiting beat first, then this cycle's; a dropped command's beats roll back. */
    private Mem writeStaging() {
        Reg spill = reg("spill", staged.width(), 0);
        Expr entry = wire("write_entry", Hw.mux(spillValid, spill, entryA));
        Expr write = wire("write", spillValid.or(emitA));
        // what waits: A behind the spill, or B behind A
        Expr keepA = spillValid.and(emitA);
        Expr keepB = spillValid.not().and(twoOut);
        Expr spillNow = keepA.or(keepB);
        stagingError = reg("staging_error_flag", 1, 0); // three beats at once: cannot happen (see class doc)
        when(spillValid.and(twoOut), () -> stagingError.set(1));
        when(spillNow, () -> spill.set(Hw.mux(keepA, entryA, entryB)));
        spillValid.set(spillNow);
        Mem staging = mem("staging", config.stagingBeats(), staged.width(), ReadUnderWrite.READ_FIRST);
        int aw = staging.addressWidth();
        staging.write(write, wrBase.bits(aw - 1, 0), entry);
        Expr written = wire("written", Hw.mux(write, wrBase.add(1), wrBase));
        wrPtr.set(written);
        when(start.and(singleBeat.not()), () -> cmdStart.set(written));
        when(write.and(staged.get(entry, "last")), () -> commitPtr.set(written));
        return staging;
    }

    /** The read side shows whole commands only: up to the last committed beat. */
    private void readWholeCommands(Mem staging) {
        int aw = staging.addressWidth();
        Stream.RamRead word = Stream.fromRam("out", staging, rdPtr.bits(aw - 1, 0), rdPtr.ne(commitPtr), staged);
        when(word.load(), () -> rdPtr.set(rdPtr.add(1)));
        Stream beat = word.out();
        out.tvalid().set(beat.valid());
        out.tdata().set(beat.field("data"));
        out.tuser().set(beat.field("user"));
        out.tkeep().set(Keep.below(beat.field("count"), outBytes));
        out.tlast().set(beat.field("last"));
        beat.ready().set(out.tready());
    }

    /**
     * Credits go back for released commands and for dropped ones that had taken them, at most one of each kind a
     * cycle, round robin over the VCs owed; the reset handshake holds {@code tx_reset_out} until every command handed
     * on is released, then restores the XPU's initial credits.
     */
    private void returnCredits() {
        Reg inFlight = reg("in_flight", 16, 0); // commands handed on and not yet released
        // a release with nothing handed on is the buffer's fault, not the XPU's: ignored, and the flag sticks
        Expr spurious = wire("release_spurious", release.valid().and(inFlight.eq(0)).and(ends.not()));
        Expr released = wire("released", release.valid().and(spurious.not()));
        Reg releaseError = reg("release_error_flag", 1, 0);
        when(spurious, () -> releaseError.set(1));
        inFlight.set(Hw.upDown(inFlight, List.of(ends), List.of(released)));
        // round robin over the VCs that are owed, so no VC's returns wait behind another's
        Reg cmdLast = reg("cmd_return_last", SueMeta.VC_WIDTH, SueMeta.VCS - 1);
        Reg dataLast = reg("data_return_last", SueMeta.VC_WIDTH, SueMeta.VCS - 1);
        Expr cmdPick = wire("cmd_pick", Arbiter.rotatingPick(nonZero(cmdOwed), cmdLast));
        Expr dataPick = wire("data_pick", Arbiter.rotatingPick(nonZero(dataOwed), dataLast));
        Expr cmdGive = wire("cmd_give", anyNonZero(cmdOwed).and(resetting.not()));
        Expr dataGive = wire("data_give", anyNonZero(dataOwed).and(resetting.not()));
        when(cmdGive, () -> cmdLast.set(cmdPick));
        when(dataGive, () -> dataLast.set(dataPick));
        cmdReturn.set(Hw.cat(cmdGive, cmdPick));
        dataReturn.set(Hw.cat(dataGive, dataPick));
        txCredit.set(Hw.cat(cmdReturn, dataReturn));
        Expr relVc = release.field("vc");
        for (int v = 0; v < SueMeta.VCS; v++) {
            int vv = v;
            Expr rel = released.and(relVc.eq(v));
            List<Expr> cmdBack = List.of(rel, returnFirst.and(vc.eq(v)), abandon.and(cmdVc.eq(v)));
            List<Expr> dataBack = List.of(rel.and(release.field("data")), returnFirst.and(vc.eq(v)).and(withData),
                    abandon.and(cmdVc.eq(v))); // only commands with data span beats
            Expr cmdOut = cmdGive.and(cmdPick.eq(v));
            Expr dataOut = dataGive.and(dataPick.eq(v));
            Expr took = takeCredit.and(vc.eq(v));
            when(resetting, () -> {
                cmdOwed.get(vv).set(0);
                dataOwed.get(vv).set(0);
                cmdAvail.get(vv).set(config.cmdCredits());
                dataAvail.get(vv).set(config.dataCredits());
            }).otherwise(() -> {
                cmdOwed.get(vv).set(Hw.upDown(cmdOwed.get(vv), cmdBack, List.of(cmdOut)));
                dataOwed.get(vv).set(Hw.upDown(dataOwed.get(vv), dataBack, List.of(dataOut)));
                cmdAvail.get(vv).set(Hw.upDown(cmdAvail.get(vv), List.of(cmdOut), List.of(took)));
                dataAvail.get(vv).set(Hw.upDown(dataAvail.get(vv), List.of(dataOut), List.of(took.and(withData))));
            });
        }
        // reset: held until the XPU lets go and everything handed on is released
        when(resetIn, () -> resetting.set(1))
                .elseWhen(resetting.and(inFlight.eq(0)).and(ends.not()), () -> resetting.set(0));
        Reg resetOut = reg("reset_out", 1, 1);
        resetOut.set(resetting.or(resetIn));
        txResetOut.set(resetOut);
        out("internal_error", 1).set(stagingError.or(releaseError));
    }

    /**
     * The XPU held a credit of the beat's VC when it sent the beat, a cycle ago: not the one {@code tx_credit} shows
     * now, which it had not seen then.
     */
    private Expr held(List<Reg> avail, Reg returned) {
        Expr count = Hw.select(avail, vc);
        Expr unseen = returned.bit(SueMeta.VC_WIDTH).and(returned.bits(SueMeta.VC_WIDTH - 1, 0).eq(vc));
        return count.ne(0).and(count.ne(1).or(unseen.not()));
    }

    /** The packing buffer's tuser for the command starting on this beat. */
    private Expr user() {
        return CommandUser.LAYOUT.expr().set(CommandUser.HAS_DATA, length.ne(0)).set(CommandUser.BYTES, packedBytes)
                .set(CommandUser.VC, vc).set(CommandUser.DST, dst).build();
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
