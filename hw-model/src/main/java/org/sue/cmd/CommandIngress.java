package org.sue.cmd;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.Stream;
import org.sue.net.SueMeta;

/**
 * Transmit side of the XPU command interface (spec Table 1, docs/protocol.md section 11): checks each command, repacks it
 * into its packed bytes (docs/protocol.md section 4) and hands it to the {@link PackingBuffer} as one packet on
 * {@code m_axis} (twice the XPU's data width, tuser {has_data, packed bytes, vc, dst}); returns the XPU's credits.
 *
 * <p><b>Beats.</b> A beat with {@code tx_cycle} = 0 starts a command: {@code tx_control} (byte 0 type, bytes 1..2
 * data length big-endian, then the control bytes), {@code tx_vc}, {@code xpuid} and the first {@code N/8} data bytes.
 * A command with data continues with {@code tx_cycle} = 1, 2, ... ({@code tx_valid} = 2 on every beat); the XPU may
 * idle between beats.
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
 * at beat 0. They come back when the packing buffer releases the command ({@code rel_*}) or when the command is
 * dropped, at most one of each kind per cycle, round robin over the VCs owed.
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
    public record Config(int dataWidth, CommandTable table, int destinations, int cmdCredits, int dataCredits,
                         int stagingBeats) {
        public Config(int dataWidth, CommandTable table, int destinations, int cmdCredits, int dataCredits) {
            this(dataWidth, table, destinations, cmdCredits, dataCredits, 16);
        }

        public Config {
            if (dataWidth != 256 && dataWidth != 512 && dataWidth != 1024) {
                throw new IllegalArgumentException("CommandIngress dataWidth must be 256, 512 or 1024 bits, got "
                        + dataWidth);
            }
            if (table == null || table.definedTypes().length == 0) {
                throw new IllegalArgumentException("CommandIngress table must define at least one command type");
            }
            if (destinations < 2 || destinations > 1024 || Integer.bitCount(destinations) != 1) {
                throw new IllegalArgumentException("CommandIngress destinations must be a power of two from 2 to"
                        + " 1024, got " + destinations);
            }
            if (cmdCredits < 1 || cmdCredits > 4095) {
                throw new IllegalArgumentException("CommandIngress cmdCredits must be 1..4095, got " + cmdCredits);
            }
            if (dataCredits < 0 || dataCredits > 4095) {
                throw new IllegalArgumentException("CommandIngress dataCredits must be 0..4095, got " + dataCredits);
            }
            int least = 2 * maxCommandBeats(dataWidth);
            if (stagingBeats < least || stagingBeats > 1024 || Integer.bitCount(stagingBeats) != 1) {
                throw new IllegalArgumentException("CommandIngress stagingBeats must be a power of two from " + least
                        + " (two largest commands) to 1024, got " + stagingBeats);
            }
        }

        /** Output beats of the largest command. */
        static int maxCommandBeats(int dataWidth) {
            int outBytes = dataWidth / 4;
            return (MAX_PACKED + outBytes - 1) / outBytes;
        }
    }

    static final int MAX_PACKED = PackedCommand.HEADER_BYTES + 2 * CommandTable.MAX_CONTROL_UNITS
            + CommandTable.MAX_DATA_BYTES;

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
    public final Port relValid;
    public final Port relVc;
    public final Port relData;
    public final Stream out;
    private final Config config;

    public CommandIngress(Config config) {
        this.config = config;
        int n = config.dataWidth();
        int beatBytes = n / 8;
        int outBytes = 2 * beatBytes;
        int capacity = outBytes + beatBytes; // accumulator: header + a beat + a beat, before a full beat leaves
        int fw = Hw.log2Up(capacity + 1);
        int cw = Hw.log2Up(outBytes + 1); // byte count of a staged beat
        int uw = PackingBuffer.COMMAND_USER_WIDTH;
        txCycle = in("tx_cycle", 4);
        txValid = in("tx_valid", 2);
        txVc = in("tx_vc", 2);
        xpuid = in("xpuid", 10);
        txControl = in("tx_control", CommandUnpacker.CONTROL_BITS);
        txData = in("tx_data", n);
        txErr = in("tx_err", 1);
        txCredit = out("tx_credit", 6);
        txResetIn = in("tx_reset_in", 1);
        txResetOut = out("tx_reset_out", 1);
        creditError = out("credit_error", 1);
        relValid = in("rel_valid", 1);
        relVc = in("rel_vc", 2);
        relData = in("rel_data", 1);
        out = Stream.master(this, new StreamConfig(2 * n, uw));

        // ---- the beat on the interface ----------------------------------------------------------------------------
        Reg resetting = reg("resetting", 1, 1);
        Expr live = wire("live", txValid.ne(0).and(resetting.not()).and(txResetIn.not()));
        Expr first = wire("first_beat", live.and(txCycle.eq(0)));
        Expr type = wire("cmd_type", txControl.bits(7, 0));
        Expr length = wire("data_length", Hw.cat(txControl.bits(15, 8), txControl.bits(23, 16)));
        CommandTable.Lookup typeInfo = config.table().lookup(type);
        Expr defined = wire("type_defined", typeInfo.defined());
        Expr units = wire("control_units", typeInfo.units());
        Expr typeHasData = wire("type_has_data", typeInfo.hasData());
        Expr withData = wire("with_data", txValid.eq(2));
        Expr badCommand = wire("bad_command", defined.not().or(length.gt(CommandTable.MAX_DATA_BYTES))
                .or(length.ne(0).and(typeHasData.not())).or(withData.ne(length.ne(0))));
        int dw = Hw.log2Up(config.destinations());
        Expr badDestination = wire("bad_destination", dw < 10 ? xpuid.bits(9, dw).orR() : Hw.lit(1, 0));
        Expr headerBytes = wire("header_bytes", Hw.cat(units, Hw.lit(1, 0)).resize(9).add(PackedCommand.HEADER_BYTES));
        Expr packedBytes = wire("packed_bytes", headerBytes.add(length.resize(9)).add(length.bit(0).resize(9)));
        Expr singleBeat = wire("single_beat", length.le(beatBytes));
        Expr beatsNeeded = wire("beats_needed", packedBytes.resize(10).add(outBytes - 1).shr(Hw.log2Up(outBytes))
                .resize(3));

        // ---- credits: what the XPU holds, and returns owed --------------------------------------------------------
        List<Reg> cmdAvail = new ArrayList<>();
        List<Reg> dataAvail = new ArrayList<>();
        List<Reg> cmdOwed = new ArrayList<>();
        List<Reg> dataOwed = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            cmdAvail.add(reg("cmd_avail_" + v, 12, config.cmdCredits()));
            dataAvail.add(reg("data_avail_" + v, 12, config.dataCredits()));
            cmdOwed.add(reg("cmd_owed_" + v, 13, 0));
            dataOwed.add(reg("data_owed_" + v, 13, 0));
        }
        Expr haveCredit = wire("have_credit", Hw.select(cmdAvail, txVc).ne(0)
                .and(withData.not().or(Hw.select(dataAvail, txVc).ne(0))));

        // ---- the command in progress (data beats still owed) -----------------------------------------------------
        Reg inCommand = reg("in_command", 1, 0);
        Reg skipping = reg("skipping", 1, 0);     // after a dropped beat 0: ignore beats up to the next beat 0
        Reg expect = reg("expect_cycle", 4, 0);
        Reg dataLeft = reg("data_left", 9, 0);    // data bytes still owed
        Reg padByte = reg("pad_byte", 1, 0);      // odd data length: one zero byte after the data
        Reg cmdVc = reg("cmd_vc", 2, 0);
        Reg cmdUser = reg("cmd_user", uw, 0);
        Expr continuation = wire("continuation", live.and(inCommand).and(txCycle.ne(0)));
        Expr inOrder = wire("in_order", txCycle.eq(expect).and(txValid.eq(2)));
        Expr contGood = wire("cont_good", continuation.and(inOrder).and(txErr.not()));
        Expr contTxErr = wire("cont_tx_err", continuation.and(inOrder).and(txErr));
        Expr contReserved = wire("cont_reserved", continuation.and(txValid.eq(3)));
        Expr contSequence = wire("cont_sequence", continuation.and(inOrder.not()).and(txValid.ne(3))
                .or(first.and(inCommand)));
        Expr cutByReset = wire("cut_by_reset", inCommand.and(txResetIn.or(resetting)));
        Expr stray = wire("stray_beat", live.and(inCommand.not()).and(skipping.not()).and(txCycle.ne(0)));
        // the unfinished command is dropped: its beats in staging roll back, its credits return
        Expr abandon = wire("abandon", contTxErr.or(contReserved).or(contSequence).or(cutByReset));

        // ---- staging memory: free room for a new command ----------------------------------------------------------
        int depth = config.stagingBeats();
        int aw = Hw.log2Up(depth);
        int pw = aw + 1;
        Reg wrPtr = reg("wr_ptr", pw, 0);
        Reg cmdStart = reg("cmd_start", pw, 0);
        Reg commitPtr = reg("commit_ptr", pw, 0);
        Reg rdPtr = reg("rd_ptr", pw, 0);
        Reg spillValid = reg("spill_valid", 1, 0);
        Expr wrBase = wire("wr_base", Hw.mux(abandon, cmdStart, wrPtr));
        Expr used = wire("used", wrBase.sub(rdPtr).add(spillValid.resize(pw)));
        Expr room = wire("room", Hw.lit(pw + 1, depth).sub(used.resize(pw + 1)).ge(beatsNeeded.resize(pw + 1)));

        // ---- decision on a beat 0 ---------------------------------------------------------------------------------
        Expr reserved = txValid.eq(3);
        Expr takeCredit = wire("take_credit", first.and(reserved.not()).and(haveCredit));
        Expr noCredit = wire("no_credit", first.and(reserved.not()).and(haveCredit.not()));
        Expr dropBad = wire("drop_bad_command", takeCredit.and(badCommand));
        Expr dropDst = wire("drop_bad_destination", takeCredit.and(badCommand.not()).and(badDestination));
        Expr checked = takeCredit.and(badCommand.not()).and(badDestination.not());
        Expr dropTxErr = wire("drop_tx_err_first", checked.and(txErr));
        Expr dropOverflow = wire("drop_overflow", checked.and(txErr.not()).and(room.not()));
        Expr start = wire("start", checked.and(txErr.not()).and(room));
        Expr startSingle = wire("start_single", start.and(singleBeat));
        Expr firstDropped = wire("first_dropped", first.and(start.not()));
        Expr returnFirst = wire("return_first", takeCredit.and(start.not())); // took credits, then dropped

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

        // ---- command state --------------------------------------------------------------------------------------
        Expr lastCont = wire("last_cont", contGood.and(dataLeft.le(beatBytes)));
        when(start.and(singleBeat.not()), () -> {
            inCommand.set(1);
            expect.set(1);
            dataLeft.set(length.sub(beatBytes).resize(9));
            padByte.set(length.bit(0));
            cmdVc.set(txVc);
            cmdUser.set(user(length.ne(0), packedBytes, txVc, xpuid));
        }).elseWhen(lastCont.or(abandon), () -> inCommand.set(0))
                .elseWhen(contGood, () -> {
                    expect.set(expect.add(1));
                    dataLeft.set(dataLeft.sub(beatBytes));
                });
        when(firstDropped.or(abandon.and(first.not())).or(stray), () -> skipping.set(1))
                .elseWhen(first, () -> skipping.set(0));
        counter("commands_accepted", startSingle.or(lastCont));

        // ---- accumulator: packed bytes, a full output beat leaves as soon as there is one ------------------------
        Reg acc = reg("acc", 8 * capacity, 0);
        Reg fill = reg("fill", fw, 0);
        int hb = PackedCommand.HEADER_BYTES + 2 * CommandTable.MAX_CONTROL_UNITS;
        // header: type, 0, length (big-endian), then the control bytes the table gives the type
        Expr control = txControl.bits(8 * (3 + hb - PackedCommand.HEADER_BYTES) - 1, 24)
                .and(Keep.bytesBelow(Hw.cat(units, Hw.lit(1, 0)).resize(5), hb - PackedCommand.HEADER_BYTES));
        Expr header = wire("header", Hw.cat(control, txControl.bits(23, 8), Hw.lit(8, 0), type));
        unused("control_tail", txControl.bits(CommandUnpacker.CONTROL_BITS - 1, 8 * (3 + hb - PackedCommand.HEADER_BYTES)));
        Expr firstData = txData.and(Keep.bytesBelow(length, beatBytes)).resize(8 * capacity);
        Expr contData = txData.and(Keep.bytesBelow(dataLeft, beatBytes)).resize(8 * capacity);
        Expr firstAcc = wire("first_acc", header.resize(8 * capacity)
                .or(firstData.shl(Hw.cat(headerBytes.bits(4, 0), Hw.lit(3, 0)))));
        Expr firstFill = Hw.mux(singleBeat, headerBytes.add(length.resize(9)), headerBytes.add(beatBytes)).resize(fw);
        Expr contAcc = acc.or(contData.shl(Hw.cat(fill, Hw.lit(3, 0))));
        Expr contFill = fill.add(Hw.mux(lastCont, dataLeft.resize(fw), Hw.lit(fw, beatBytes)));
        Expr nextAcc = wire("next_acc", Hw.mux(first, firstAcc, contAcc));
        Expr nextFill = wire("next_fill", Hw.mux(first, firstFill, contFill));
        Expr ends = wire("ends", startSingle.or(lastCont));
        Expr total = wire("total", nextFill.add(Hw.mux(first, length.bit(0), padByte).resize(fw)));
        Expr grows = wire("grows", start.or(contGood)); // bytes entered the accumulator this cycle
        Expr twoOut = wire("two_out", ends.and(total.gt(outBytes)));
        Expr fullOut = wire("full_out", grows.and(ends.not()).and(nextFill.ge(outBytes)));
        Expr emitA = wire("emit_a", ends.or(fullOut));
        Expr aLast = wire("a_last", ends.and(twoOut.not()));
        Expr aCount = Hw.mux(aLast, total.resize(cw), Hw.lit(cw, outBytes));
        Expr bCount = total.sub(outBytes).resize(cw);
        Expr beatUser = Hw.mux(first, user(length.ne(0), packedBytes, txVc, xpuid), cmdUser);
        Expr aData = nextAcc.bits(8 * outBytes - 1, 0);
        Expr bData = nextAcc.bits(8 * capacity - 1, 8 * outBytes).resize(8 * outBytes);
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

        // ---- staging writes: spill first, then this cycle's beats; one write per cycle ------------------------------
        int ew = 1 + cw + uw + 2 * n; // {last, count, user, data}
        Reg spill = reg("spill", ew, 0);
        Expr entryA = Hw.cat(aLast, aCount, beatUser, aData);
        Expr entryB = Hw.cat(Hw.lit(1, 1), bCount, beatUser, bData);
        Expr entry = wire("write_entry", Hw.mux(spillValid, spill, entryA));
        Expr write = wire("write", spillValid.or(emitA));
        // what waits: A behind the spill, or B behind A
        Expr keepA = spillValid.and(emitA);
        Expr keepB = spillValid.not().and(twoOut);
        Expr spillNow = keepA.or(keepB);
        Reg stagingError = reg("staging_error_flag", 1, 0); // three beats at once: cannot happen (see class doc)
        when(spillValid.and(twoOut), () -> stagingError.set(1));
        when(spillNow, () -> spill.set(Hw.mux(keepA, entryA, entryB)));
        spillValid.set(spillNow);
        Mem staging = mem("staging", depth, ew, ReadUnderWrite.READ_FIRST);
        staging.write(write, wrBase.bits(aw - 1, 0), entry);
        Expr written = wire("written", Hw.mux(write, wrBase.add(1), wrBase));
        wrPtr.set(written);
        when(start.and(singleBeat.not()), () -> cmdStart.set(written));
        when(write.and(entry.bit(ew - 1)), () -> commitPtr.set(written));

        // ---- read side: whole commands only ------------------------------------------------------------------------
        Reg outValid = reg("out_valid", 1, 0);
        Expr pop = wire("pop", outValid.and(out.tready()));
        Expr load = wire("load", rdPtr.ne(commitPtr).and(outValid.not().or(pop)));
        Expr word = staging.readSync("out_word", rdPtr.bits(aw - 1, 0), load);
        when(load, () -> {
            rdPtr.set(rdPtr.add(1));
            outValid.set(1);
        }).elseWhen(pop, () -> outValid.set(0));
        out.tvalid().set(outValid);
        out.tdata().set(word.bits(2 * n - 1, 0));
        out.tuser().set(word.bits(2 * n + uw - 1, 2 * n));
        out.tkeep().set(Keep.below(word.bits(2 * n + uw + cw - 1, 2 * n + uw), outBytes));
        out.tlast().set(word.bit(ew - 1));

        // ---- credit returns: releases and dropped commands; one of each kind per cycle -------------------------------
        Reg inFlight = reg("in_flight", 16, 0); // commands handed on and not yet released
        // a release with nothing handed on is the buffer's fault, not the XPU's: ignored, and the flag sticks
        Expr spurious = wire("release_spurious", relValid.and(inFlight.eq(0)).and(ends.not()));
        Expr released = wire("released", relValid.and(spurious.not()));
        Reg releaseError = reg("release_error_flag", 1, 0);
        when(spurious, () -> releaseError.set(1));
        inFlight.set(inFlight.add(ends.resize(16)).sub(released.resize(16)));
        Reg cmdReturn = reg("cmd_return", 3, 0);  // {valid, vc}
        Reg dataReturn = reg("data_return", 3, 0);
        // round robin over the VCs that are owed, so no VC's returns wait behind another's
        Reg cmdLast = reg("cmd_return_last", 2, SueMeta.VCS - 1);
        Reg dataLast = reg("data_return_last", 2, SueMeta.VCS - 1);
        Expr cmdPick = wire("cmd_pick", PackingBuffer.rotatingPick(nonZero(cmdOwed), cmdLast));
        Expr dataPick = wire("data_pick", PackingBuffer.rotatingPick(nonZero(dataOwed), dataLast));
        Expr cmdGive = wire("cmd_give", anyNonZero(cmdOwed).and(resetting.not()));
        Expr dataGive = wire("data_give", anyNonZero(dataOwed).and(resetting.not()));
        when(cmdGive, () -> cmdLast.set(cmdPick));
        when(dataGive, () -> dataLast.set(dataPick));
        cmdReturn.set(Hw.cat(cmdGive, cmdPick));
        dataReturn.set(Hw.cat(dataGive, dataPick));
        txCredit.set(Hw.cat(cmdReturn, dataReturn));
        for (int v = 0; v < SueMeta.VCS; v++) {
            int vv = v;
            Expr rel = released.and(relVc.eq(v));
            Expr cmdBack = rel.resize(13)
                    .add(returnFirst.and(txVc.eq(v)).resize(13))
                    .add(abandon.and(cmdVc.eq(v)).resize(13));
            Expr dataBack = rel.and(relData).resize(13)
                    .add(returnFirst.and(txVc.eq(v)).and(withData).resize(13))
                    .add(abandon.and(cmdVc.eq(v)).resize(13)); // only commands with data span beats
            Expr cmdOut = cmdGive.and(cmdPick.eq(v));
            Expr dataOut = dataGive.and(dataPick.eq(v));
            Expr took = takeCredit.and(txVc.eq(v));
            when(resetting, () -> {
                cmdOwed.get(vv).set(0);
                dataOwed.get(vv).set(0);
                cmdAvail.get(vv).set(config.cmdCredits());
                dataAvail.get(vv).set(config.dataCredits());
            }).otherwise(() -> {
                cmdOwed.get(vv).set(cmdOwed.get(vv).add(cmdBack).sub(cmdOut.resize(13)));
                dataOwed.get(vv).set(dataOwed.get(vv).add(dataBack).sub(dataOut.resize(13)));
                cmdAvail.get(vv).set(cmdAvail.get(vv).add(cmdOut.resize(12)).sub(took.resize(12)));
                dataAvail.get(vv).set(dataAvail.get(vv).add(dataOut.resize(12)).sub(took.and(withData).resize(12)));
            });
        }
        // reset: held until the XPU lets go and everything handed on is released
        when(txResetIn, () -> resetting.set(1))
                .elseWhen(resetting.and(inFlight.eq(0)).and(ends.not()), () -> resetting.set(0));
        Reg resetOut = reg("reset_out", 1, 1);
        resetOut.set(resetting.or(txResetIn));
        txResetOut.set(resetOut);
        out("internal_error", 1).set(stagingError.or(releaseError));
    }

    /** The packing buffer's tuser for a command: {has_data, packed bytes, vc, dst}. */
    private static Expr user(Expr hasData, Expr packedBytes, Expr vc, Expr dst) {
        return Hw.cat(hasData, packedBytes, vc, dst);
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

    @Override
    public String moduleName() {
        return "CommandIngress_n" + config.dataWidth() + "_d" + config.destinations();
    }

    @Override
    public Map<String, Object> parameters() {
        return Map.of("dataWidth", config.dataWidth(), "destinations", config.destinations(), "cmdCredits",
                config.cmdCredits(), "dataCredits", config.dataCredits(), "stagingBeats", config.stagingBeats());
    }
}
