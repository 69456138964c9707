package org.sue.cmd;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.sue.core.Component;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Wire;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.SueMeta;

/**
 * Receive side of the command interface (spec Table 2): takes received PDUs (packed commands, docs/protocol.md section 4,
 * as the framing receiver delivers them, SueMeta on tuser) and hands their commands to the XPU one at a time, in PDU
 * order, while the XPU has credit for them.
 *
 * <p>The PDU's bytes collect in a byte window; the command at the window's front is decoded there (type, length,
 * table lookup) and leaves in one or more beats: beat 0 carries {@code rx_control} and the first
 * {@code dataWidth/8} data bytes, later beats the rest of the data, numbered by {@code rx_cycle}. Consumption moves
 * the window by whole 2-byte units; a new input beat is written behind what is left. So a command-only command
 * leaves every cycle and a command with data at one data beat per cycle. The next PDU's first beat is taken in the
 * cycle the current PDU ends.
 *
 * <p>Malformed commands end their PDU as {@link CommandCodec#unpack} does (same checks, same order): the commands
 * before them are delivered, the rest of the PDU is dropped and counted per reason ({@code drops_<reason>}); a zero
 * type byte is padding and ends the PDU without a count. The framing receiver delivers a PDU only if its R-CRC was
 * good. Without per-VC buffers it is this block's receive buffer: while the XPU has no credit, this block stops
 * taking beats, whatever the VC of the PDUs behind. With them ({@code vcBufferDepth}) each VC's
 * PDUs wait in a FIFO of their own and a VC without credit steps aside for the others.
 *
 * <p>Credits ({@code rx_credit} = {cmd_credit, cmd_vc[1:0], data_credit, data_vc[1:0]}): per VC the XPU starts with
 * {@code cmdCredits} command slots and {@code dataCredits} 256-byte data buffers; each command takes one slot and,
 * if it has data, one data buffer, at beat 0. Returning more than the initial count sets the sticky
 * {@code credit_error}. While {@code rx_reset_in} is high nothing is delivered and the credits return to their
 * initial counts; a command cut by it loses its remaining data beats and its PDU, counted in {@code drops_reset}.
 */
public final class CommandUnpacker extends Component {
    public record Config(@Tag("s") int streamWidth, @Tag("d") int dataWidth, CommandTable table,
                         @Tag("k") int cmdCredits, @Tag("kd") int dataCredits, @Tag("vb") int vcBufferDepth) {
        /** PDUs unpacked in the order they arrive, no per-VC buffers. */
        public Config(int streamWidth, int dataWidth, CommandTable table, int cmdCredits, int dataCredits) {
            this(streamWidth, dataWidth, table, cmdCredits, dataCredits, 0);
        }

        public Config {
            new StreamConfig(streamWidth, SueMeta.WIDTH); // validates streamWidth
            if (dataWidth != 256 && dataWidth != 512 && dataWidth != 1024) {
                throw new IllegalArgumentException("CommandUnpacker dataWidth must be 256, 512 or 1024 bits, got "
                        + dataWidth);
            }
            if (dataWidth > streamWidth) {
                throw new IllegalArgumentException("CommandUnpacker dataWidth (" + dataWidth
                        + ") must not exceed streamWidth (" + streamWidth + ")");
            }
            if (table == null || table.definedTypes().length == 0) {
                throw new IllegalArgumentException("CommandUnpacker table must define at least one command type");
            }
            if (cmdCredits < 1 || cmdCredits > 4095) {
                throw new IllegalArgumentException("CommandUnpacker cmdCredits must be 1..4095, got " + cmdCredits);
            }
            if (dataCredits < 0 || dataCredits > 4095) {
                throw new IllegalArgumentException("CommandUnpacker dataCredits must be 0..4095, got " + dataCredits);
            }
            if (vcBufferDepth != 0 && (vcBufferDepth < 2 || vcBufferDepth > 65536)) {
                throw new IllegalArgumentException("CommandUnpacker vcBufferDepth must be 0 (no per-VC buffers) or"
                        + " 2..65536 beats, got " + vcBufferDepth);
            }
        }

        public Config withVcBuffers(int depth) {
            return new Config(streamWidth, dataWidth, table, cmdCredits, dataCredits, depth);
        }

        public boolean perVc() {
            return vcBufferDepth > 0;
        }
    }

    public static final int CONTROL_BITS = 144;

    public final Stream in;
    public final Port rxCycle;
    public final Port rxValid;
    public final Port rxVc;
    public final Port xpuid;
    public final Port rxControl;
    public final Port rxData;
    public final Port rxCredit;
    public final Port rxResetIn;
    public final Port rxResetOut;
    public final Port creditError;
    /** With per-VC buffers: {vc, len} of each PDU that left its VC's FIFO; else null. */
    public final Stream freed;
    private final Config config;

    public CommandUnpacker(Config config) {
        super(config);
        this.config = config;
        int lanes = config.streamWidth() / 8;
        int beatBytes = config.dataWidth() / 8;
        int capacity = lanes + beatBytes + 32; // holds a whole input beat behind the largest first beat's need
        int fw = Hw.log2Up(capacity + 1);
        in = Stream.slave(this, new StreamConfig(config.streamWidth(), SueMeta.WIDTH));
        rxCycle = out("rx_cycle", 4);
        rxValid = out("rx_valid", 2);
        rxVc = out("rx_vc", 2);
        xpuid = out("xpuid", 10);
        rxControl = out("rx_control", CONTROL_BITS);
        rxData = out("rx_data", config.dataWidth());
        rxCredit = in("rx_credit", 6);
        rxResetIn = in("rx_reset_in", 1);
        rxResetOut = out("rx_reset_out", 1);
        creditError = out("credit_error", 1);

        Reg window = reg("window", 8 * capacity, 0); // bytes at and above fill are zero
        Reg fill = reg("fill", fw, 0);
        Reg remaining = reg("remaining", SueMeta.LEN.width(), 0); // PDU bytes not yet consumed
        Reg lastIn = reg("last_in", 1, 1); // the PDU's last beat is in the window (1 between PDUs)
        Reg dropping = reg("dropping", 1, 0); // swallowing the rest of a PDU up to its last beat
        Reg inData = reg("in_data", 1, 0); // between the beats of a command with data
        Reg dataLeft = reg("data_left", 9, 0);
        Reg beat = reg("beat", 4, 0);
        Reg src = reg("src", 10, 0);
        Reg vc = reg("vc", 2, 0); // with per-VC buffers: the VC whose context is in the registers above
        // the PDU stream the window reads: `in`, or with per-VC buffers the chosen VC's FIFO
        VcContexts vcs = config.perVc() ? new VcContexts(vc) : null;
        Stream pdus = vcs == null ? in : vcs.pdus;
        freed = vcs == null ? null : vcs.freed;

        // ---- the command at the front of the window ---------------------------------------------------------------
        Expr type = wire("cmd_type", byteAt(window, 0));
        Expr length = wire("data_length", Hw.cat(byteAt(window, 2), byteAt(window, 3)));
        CommandTable.Lookup typeInfo = config.table().lookup(type);
        Expr defined = wire("type_defined", typeInfo.defined());
        Expr units = wire("control_units", typeInfo.units());
        Expr hasData = wire("type_has_data", typeInfo.hasData());
        Expr headerBytes = wire("header_bytes", Hw.cat(units, Hw.lit(1, 0)).resize(5).add(PackedCommand.HEADER_BYTES));
        Expr shortCommand = wire("short_command", length.le(beatBytes));
        Expr tooLong = wire("data_too_long", length.gt(CommandTable.MAX_DATA_BYTES));
        // The byte counts are compared as differences from the registers (rem - length, fill - length), one per
        // control length the table uses, picked by the type: no chain of adders in front of the compares. The
        // decision reads them only after data_too_long, so the length has at most 9 bits there; the fill side only
        // for short commands (length <= beatBytes). Differences keep a sign bit.
        int rw = remaining.width() + 1;
        int sw = fw + 1;
        Expr len = length.bits(Hw.log2Up(CommandTable.MAX_DATA_BYTES + 1) - 1, 0);
        Expr shortLen = length.bits(Hw.log2Up(beatBytes + 1) - 1, 0);
        Expr odd = length.bit(0); // the data is padded to whole 2-byte units
        Expr remAfterData = wire("rem_after_data", remaining.resize(rw).sub(len.resize(rw)));
        Expr remAfterPadded = wire("rem_after_padded", remAfterData.sub(odd.resize(rw)));
        Expr fillAfterPadded = wire("fill_after_padded",
                fill.resize(sw).sub(shortLen.resize(sw)).sub(odd.resize(sw)));
        int[] unitsUsed = config.table().unitsUsed();
        // header + length > rem
        Expr runsPast = wire("runs_past_pdu", byUnits(units, unitsUsed,
                u -> signedLess(remAfterData, PackedCommand.HEADER_BYTES + 2 * u)));
        // header + padded length >= rem: beat 0 takes the rest of the PDU
        Expr endsPdu = wire("ends_pdu", byUnits(units, unitsUsed,
                u -> signedLess(remAfterPadded, PackedCommand.HEADER_BYTES + 2 * u + 1)));
        Expr fillBelowRem = wire("fill_below_rem", fill.resize(remaining.width()).lt(remaining));
        // the window holds less than beat 0 needs: the rest of the PDU, the padded command, or header and a data beat
        Expr firstWaits = wire("first_waits", Hw.mux(shortCommand,
                Hw.mux(endsPdu, fillBelowRem, byUnits(units, unitsUsed,
                        u -> signedLess(fillAfterPadded, PackedCommand.HEADER_BYTES + 2 * u))),
                byUnits(units, unitsUsed, u -> fill.lt(PackedCommand.HEADER_BYTES + 2 * u + beatBytes))));

        // ---- data beats after beat 0 ---------------------------------------------------------------------------------
        Expr lastData = wire("last_data", dataLeft.le(beatBytes));
        Expr dataOdd = dataLeft.bit(0);
        Expr remAfterLast = wire("rem_after_last",
                remaining.resize(rw).sub(dataLeft.resize(rw)).sub(dataOdd.resize(rw)));
        Expr fillAfterLast = wire("fill_after_last",
                fill.resize(sw).sub(dataLeft.resize(sw)).sub(dataOdd.resize(sw)));
        Expr dataEndsPdu = wire("data_ends_pdu", lastData.and(signedLess(remAfterLast, 1)));
        Expr dataWaits = wire("data_waits", Hw.mux(lastData, Hw.mux(dataEndsPdu, fillBelowRem, fillAfterLast.msb()),
                fill.lt(beatBytes)));

        // ---- a delivered beat that does not end the PDU: its step in 2-byte units, the fill and remaining after it --
        int cw = Hw.log2Up((PackedCommand.MAX_CONTROL_ONLY_BYTES + beatBytes) / 2 + 1);
        Expr stepUnits = wire("step_units", Hw.mux(inData,
                Hw.mux(lastData, dataLeft.bits(cw, 1).resize(cw).add(dataOdd.resize(cw)), Hw.lit(cw, beatBytes / 2)),
                Hw.mux(shortCommand, headerBytes.bits(4, 1).resize(cw).add(shortLen.bits(shortLen.width() - 1, 1)
                        .resize(cw)).add(odd.resize(cw)), headerBytes.bits(4, 1).resize(cw).add(beatBytes / 2))));
        Expr fillAfterStep = wire("fill_after_step", Hw.mux(inData,
                Hw.mux(lastData, fillAfterLast.bits(fw - 1, 0), fill.sub(beatBytes)),
                byUnits(units, unitsUsed, u -> Hw.mux(shortCommand,
                        fillAfterPadded.bits(fw - 1, 0).sub(PackedCommand.HEADER_BYTES + 2 * u),
                        fill.sub(PackedCommand.HEADER_BYTES + 2 * u + beatBytes)))));
        Expr remAfterStep = wire("rem_after_step", Hw.mux(inData,
                Hw.mux(lastData, remAfterLast.bits(rw - 2, 0), remaining.sub(beatBytes)),
                byUnits(units, unitsUsed, u -> Hw.mux(shortCommand,
                        remAfterPadded.bits(rw - 2, 0).sub(PackedCommand.HEADER_BYTES + 2 * u),
                        remaining.sub(PackedCommand.HEADER_BYTES + 2 * u + beatBytes)))));

        // ---- credits ----------------------------------------------------------------------------------------------
        List<Reg> cmdAvail = new ArrayList<>();
        List<Reg> dataAvail = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            cmdAvail.add(reg("cmd_avail_" + v, 12, config.cmdCredits()));
            dataAvail.add(reg("data_avail_" + v, 12, config.dataCredits()));
        }
        Expr haveCmd = wire("have_cmd_credit", Hw.select(cmdAvail, vc).ne(0));
        Expr haveData = wire("have_data_credit", Hw.select(dataAvail, vc).ne(0));
        Expr creditOk = wire("credit_ok", haveCmd.and(length.eq(0).or(haveData)).and(rxResetIn.not()));

        // ---- one decision per cycle: deliver a beat, wait, or end the PDU (normally or malformed) ---------------------
        Wire fire = wire("fire", 1);          // a beat goes to the XPU
        Wire done = wire("pdu_done", 1);      // nothing more of this PDU is delivered
        Wire malformed = wire("malformed", 3); // PackedCommand.Malformed ordinal + 1
        Wire cutByReset = wire("cut_by_reset", 1);
        fire.set(0);
        done.set(0);
        malformed.set(0);
        cutByReset.set(0);
        Expr shortStream = lastIn; // waiting for bytes that will never come: the stream is shorter than len
        Wire waitCredit = wire("wait_credit", 1); // a command stands decoded, its credit missing
        waitCredit.set(0);
        Expr paused = vcs == null ? dropping : dropping.or(vcs.loading);
        when(paused, () -> fire.set(0)).elseWhen(inData, () -> {
            when(rxResetIn, () -> {
                done.set(1);
                cutByReset.set(1);
            }).elseWhen(dataWaits, () -> when(shortStream, () -> malformedEnd(done, malformed,
                    PackedCommand.Malformed.RUNS_PAST_PDU))).otherwise(() -> {
                        fire.set(1);
                        when(dataEndsPdu, () -> done.set(1));
                    });
        }).elseWhen(remaining.eq(0), () -> done.set(1))
                .elseWhen(fill.eq(0), () -> when(shortStream, () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU)))
                .elseWhen(type.eq(0), () -> done.set(1)) // padding
                .elseWhen(defined.not(), () -> malformedEnd(done, malformed, PackedCommand.Malformed.UNKNOWN_TYPE))
                .elseWhen(remaining.lt(PackedCommand.HEADER_BYTES), () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU))
                .elseWhen(fill.lt(PackedCommand.HEADER_BYTES), () -> when(shortStream, () -> malformedEnd(done,
                        malformed, PackedCommand.Malformed.RUNS_PAST_PDU)))
                .elseWhen(length.ne(0).and(hasData.not()), () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.DATA_ON_TYPE_WITHOUT_DATA))
                .elseWhen(tooLong, () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.DATA_TOO_LONG))
                .elseWhen(runsPast, () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU))
                .elseWhen(firstWaits, () -> when(shortStream, () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU)))
                .elseWhen(creditOk, () -> {
                    fire.set(1);
                    when(shortCommand.and(endsPdu), () -> done.set(1));
                }).otherwise(() -> waitCredit.set(1));
        Expr firstBeat = wire("first_beat", fire.and(inData.not()));
        for (PackedCommand.Malformed m : PackedCommand.Malformed.values()) {
            counter("drops_" + m.name().toLowerCase(), malformed.eq(m.ordinal() + 1));
        }

        // ---- the window: consume at the front, append the next input beat behind ----------------------------------
        Expr discardRest = wire("discard_rest", dropping.or(done.and(lastIn.not())));
        // the late fire and done pick among the outcomes computed beside the decision
        Expr base = wire("base", Hw.mux(done, Hw.zeros(8 * capacity),
                Hw.mux(fire, window.shr(Hw.cat(stepUnits, Hw.lit(4, 0))), window)));
        Expr fillBase = wire("fill_base", Hw.mux(done, Hw.lit(fw, 0), Hw.mux(fire, fillAfterStep, fill)));
        Expr wantBeat = discardRest.or(done).or(lastIn.not().and(fillBase.le(capacity - lanes)));
        if (vcs != null) {
            vcs.schedule(remaining.eq(0).and(lastIn).and(inData.not()).and(dropping.not()), done.and(lastIn),
                    waitCredit.and(rxResetIn.not()), rxResetIn);
            wantBeat = wantBeat.and(vcs.switching.or(vcs.loading).not()); // the registers change hands
        } else {
            unused("one_context", waitCredit); // nothing to switch to
        }
        pdus.tready().set(wantBeat);
        Expr take = wire("take", pdus.tvalid().and(pdus.tready()));
        Expr append = wire("append", take.and(discardRest.not()));
        Expr startPdu = wire("start_pdu", append.and(done));
        Expr beatData = wire("beat_data", pdus.tdata().and(Keep.byteMask(pdus.tkeep())).resize(8 * capacity));
        Expr beatBytesIn = Keep.count(pdus.tkeep(), fw);
        when(append, () -> {
            window.set(base.or(beatData.shl(Hw.cat(fillBase, Hw.lit(3, 0)))));
            fill.set(fillBase.add(beatBytesIn));
            lastIn.set(pdus.tlast());
        }).otherwise(() -> {
            window.set(base);
            fill.set(fillBase);
        });
        when(discardRest, () -> {
            lastIn.set(1); // the window stays empty until the next PDU
            dropping.set(take.and(pdus.tlast()).not());
        });
        when(startPdu, () -> {
            remaining.set(SueMeta.LEN.of(pdus.tuser()));
            src.set(SueMeta.SRC_XPU.of(pdus.tuser()));
            vc.set(SueMeta.VC.of(pdus.tuser()));
        }).elseWhen(done, () -> remaining.set(0))
                .elseWhen(fire, () -> remaining.set(remAfterStep));
        // only the source, VC and length matter here
        unused("tuser", pdus.tuser().bits(SueMeta.LEN.offset() - 1, SueMeta.VC.offset() + SueMeta.VC.width()),
                pdus.tuser().bits(SueMeta.SRC_XPU.offset() - 1, 0));
        if (vcs != null) {
            vcs.contextSwitch(new Reg[] {window, fill, remaining, lastIn, src}, rxResetIn);
        }

        // ---- command state: beat 0 opens a command with more data, its last data beat closes it --------------------
        when(done, () -> inData.set(0)).elseWhen(firstBeat.and(shortCommand.not()), () -> {
            inData.set(1);
            dataLeft.set(length.sub(beatBytes).resize(9));
            beat.set(1);
        }).elseWhen(fire.and(inData), () -> {
            inData.set(lastData.not());
            dataLeft.set(dataLeft.sub(beatBytes));
            beat.set(beat.add(1));
        });

        // ---- outputs, registered ---------------------------------------------------------------------------------
        Reg outValid = reg("out_valid", 2, 0);
        Reg outCycle = reg("out_cycle", 4, 0);
        Reg outVc = reg("out_vc", 2, 0);
        Reg outXpu = reg("out_xpuid", 10, 0);
        Reg outControl = reg("out_control", CONTROL_BITS, 0);
        Reg outData = reg("out_data", config.dataWidth(), 0);
        outValid.set(0);
        when(firstBeat, () -> {
            outValid.set(Hw.mux(length.eq(0), Hw.lit(2, 1), Hw.lit(2, 2)));
            outCycle.set(0);
            outVc.set(vc);
            outXpu.set(src);
            // rx_control bytes: 0 type, 1..2 data length (big-endian), 3.. the 2u control bytes, zeros after
            Expr control = window.bits(8 * (PackedCommand.HEADER_BYTES + 2 * CommandTable.MAX_CONTROL_UNITS) - 1,
                    8 * PackedCommand.HEADER_BYTES);
            Expr controlMask = Keep.byteMask(Hw.ones(2 * CommandTable.MAX_CONTROL_UNITS)
                    .shr(Hw.lit(4, 2 * CommandTable.MAX_CONTROL_UNITS).sub(Hw.cat(units, Hw.lit(1, 0)))));
            outControl.set(Hw.cat(control.and(controlMask), byteAt(window, 3), byteAt(window, 2), type)
                    .resize(CONTROL_BITS));
            int span = 8 * (beatBytes + PackedCommand.HEADER_BYTES + 2 * CommandTable.MAX_CONTROL_UNITS);
            Expr afterHeader = window.bits(span - 1, 0).shr(Hw.cat(headerBytes.bits(4, 0), Hw.lit(3, 0)));
            outData.set(afterHeader.bits(8 * beatBytes - 1, 0).and(Keep.bytesBelow(length, beatBytes)));
        }).elseWhen(fire, () -> {
            outValid.set(2);
            outCycle.set(beat);
            outData.set(window.bits(8 * beatBytes - 1, 0).and(Keep.bytesBelow(dataLeft, beatBytes)));
        });
        rxValid.set(outValid);
        rxCycle.set(outCycle);
        rxVc.set(outVc);
        xpuid.set(outXpu);
        rxControl.set(outControl);
        rxData.set(outData);
        counter("commands_delivered", firstBeat);
        counter("drops_reset", cutByReset);

        // ---- credit bookkeeping ----------------------------------------------------------------------------------
        Reg error = reg("credit_error_flag", 1, 0);
        for (int v = 0; v < SueMeta.VCS; v++) {
            Expr mine = vc.eq(v);
            account(cmdAvail.get(v), config.cmdCredits(), firstBeat.and(mine),
                    cmdReturned(v), error);
            account(dataAvail.get(v), config.dataCredits(), firstBeat.and(mine).and(length.ne(0)),
                    dataReturned(v), error);
        }
        Reg resetOut = reg("reset_out", 1, 1);
        resetOut.set(rxResetIn);
        rxResetOut.set(resetOut);
        creditError.set(error);
    }

    /**
     * Per-VC buffering: each VC's PDUs wait in its own FIFO ({@code vc_<v>}), so a VC whose XPU holds back credit
     * does not stop the others. The window registers hold one VC's context; at a PDU boundary the next PDU comes from
     * the VCs in turn. A VC waiting for credit with another VC's work pending, or a context saved mid-PDU while the
     * unpacker is idle, is switched in two cycles: its registers go to the {@code contexts} RAM in the cycle the
     * switch is decided (nothing else moves then), the other VC's come back the cycle after ({@code loading}). A
     * context saved while waiting for credit is resumed only after a credit of its VC came back. {@code freed}: a
     * PDU's last beat left its FIFO, the cycle after (the receive buffer's accounting).
     */
    private final class VcContexts {
        final Stream pdus;
        final Stream freed;
        final Reg loading = reg("ctx_loading", 1, 0);
        final Wire switching = wire("ctx_switching", 1);
        private final Reg vc;
        private final List<Stream> queues = new ArrayList<>();
        private final List<Reg> saved = new ArrayList<>();      // the VC's mid-PDU context is in the RAM
        private final List<Reg> creditWait = new ArrayList<>(); // saved waiting for credit, none returned since
        private final List<Wire> eligible = new ArrayList<>();  // the VC's FIFO may give the next beat
        private final Wire target = wire("ctx_target", SueMeta.VC_WIDTH);
        private final Wire stuck = wire("ctx_stuck", 1);

        VcContexts(Reg vc) {
            this.vc = vc;
            Expr inVc = SueMeta.VC.of(in.tuser());
            List<Expr> accepts = new ArrayList<>();
            List<Expr> offers = new ArrayList<>();
            List<Expr> payloads = new ArrayList<>();
            for (int v = 0; v < SueMeta.VCS; v++) {
                Stream mine = Stream.of(CommandUnpacker.this, "to_vc_" + v, in.tvalid().and(inVc.eq(v)), in.layout(),
                        in.payload());
                accepts.add(mine.ready());
                Stream queue = mine.queue("vc_" + v, config.vcBufferDepth());
                queues.add(queue);
                saved.add(reg("vc_saved_" + v, 1, 0));
                creditWait.add(reg("vc_credit_wait_" + v, 1, 0));
                eligible.add(wire("vc_eligible_" + v, 1));
                offers.add(queue.valid().and(eligible.get(v)));
                payloads.add(queue.payload());
            }
            in.tready().set(Hw.select(accepts, inVc));
            Expr sel = wire("pdu_vc", Arbiter.rotatingPick(offers, vc));
            pdus = Stream.of(CommandUnpacker.this, "pdu", Hw.select(offers, sel), in.layout(),
                    Hw.select(payloads, sel));
            for (int v = 0; v < SueMeta.VCS; v++) {
                queues.get(v).ready().set(pdus.ready().and(sel.eq(v)).and(eligible.get(v)));
            }
            freed = Stream.masterFlow(CommandUnpacker.this, "freed", SueMeta.PDU_SIZE);
            Stream.registeredFlow(CommandUnpacker.this, "freed_out", pdus.fire().and(pdus.tlast()),
                    SueMeta.PDU_SIZE, SueMeta.sizeOf(pdus.tuser())).into(freed);
        }

        /**
         * Which FIFO gives the next beat and when to switch: {@code idle} no PDU in the registers; {@code boundary}
         * the PDU ends this cycle with its last beat in; {@code waiting} the front command waits for credit.
         */
        void schedule(Expr idle, Expr boundary, Expr waiting, Expr reset) {
            List<Expr> resumable = new ArrayList<>();
            List<Expr> fresh = new ArrayList<>();
            List<Expr> other = new ArrayList<>();
            for (int v = 0; v < SueMeta.VCS; v++) {
                resumable.add(saved.get(v).and(creditWait.get(v).not()));
                fresh.add(queues.get(v).valid().and(saved.get(v).not()));
                other.add(resumable.get(v).or(fresh.get(v)).and(vc.ne(v)));
            }
            Expr anyResumable = wire("ctx_resumable", Hw.cat(resumable).orR());
            Expr nextPdu = wire("next_pdu_any_vc", boundary.and(anyResumable.not()));
            for (int v = 0; v < SueMeta.VCS; v++) {
                eligible.get(v).set(Hw.mux(nextPdu, fresh.get(v), vc.eq(v)));
            }
            stuck.set(waiting.and(Hw.cat(other).orR()));
            Expr resume = idle.and(loading.not()).and(anyResumable);
            switching.set(resume.or(stuck).and(reset.not()));
            target.set(Hw.mux(resume, Arbiter.rotatingPick(resumable, vc), Arbiter.rotatingPick(other, vc)));
            counter("context_switches", switching);
        }

        /** Save {@code context} (the window registers) when switching away mid-PDU; load the next VC's after. */
        void contextSwitch(Reg[] context, Expr reset) {
            Layout.Spec[] fields = new Layout.Spec[context.length];
            for (int i = 0; i < context.length; i++) {
                fields[i] = Layout.bits(context[i].name(), context[i].width());
            }
            Layout layout = Layout.of("unpack_context", fields);
            Layout.ExprBuilder now = layout.expr();
            for (Reg r : context) {
                now.set(r.name(), r);
            }
            Mem contexts = mem("contexts", SueMeta.VCS, layout.width(), ReadUnderWrite.READ_FIRST);
            contexts.write(switching.and(stuck), vc, now.build());
            Expr back = contexts.readSync("context_back", target, switching);
            Expr resumed = wire("ctx_resumed", Hw.select(saved, vc));
            loading.set(switching);
            when(switching, () -> vc.set(target));
            when(loading, () -> { // an empty context unless the VC's was saved: the reset values
                for (Reg r : context) {
                    r.set(Hw.mux(resumed, layout.get(back, r.name()), Hw.lit(r.width(), r.resetValue())));
                }
            });
            for (int v = 0; v < SueMeta.VCS; v++) {
                Expr credit = cmdReturned(v).or(dataReturned(v));
                Expr leaving = switching.and(vc.eq(v));
                Reg s = saved.get(v);
                Reg w = creditWait.get(v);
                when(leaving, () -> {
                    s.set(stuck);
                    w.set(stuck);
                }).elseWhen(loading.and(vc.eq(v)), () -> s.set(0));
                when(credit.or(reset), () -> w.set(0));
            }
        }
    }

    /** rx_credit = {cmd_credit, cmd_vc[1:0], data_credit, data_vc[1:0]}: a command slot given back on VC v. */
    private Expr cmdReturned(int v) {
        return rxCredit.bit(5).and(rxCredit.bits(4, 3).eq(v));
    }

    /** A data buffer given back on VC v. */
    private Expr dataReturned(int v) {
        return rxCredit.bit(2).and(rxCredit.bits(1, 0).eq(v));
    }

    /** One credit count: spent by a delivery, given back by the XPU, reset by rx_reset_in; over-returns are errors. */
    private void account(Reg avail, int initial, Expr spend, Expr give, Reg error) {
        Expr full = avail.eq(initial);
        when(rxResetIn, () -> avail.set(initial))
                .elseWhen(give.and(spend.not()), () -> when(full, () -> error.set(1))
                        .otherwise(() -> avail.set(avail.add(1))))
                .elseWhen(spend.and(give.not()), () -> avail.set(avail.sub(1)));
    }

    /** {@code fn(u)} for each control length (2-byte units) the table uses, picked by {@code units}. */
    private static Expr byUnits(Expr units, int[] used, IntFunction<Expr> fn) {
        Expr picked = fn.apply(used[0]);
        for (int i = 1; i < used.length; i++) {
            picked = Hw.mux(units.eq(used[i]), fn.apply(used[i]), picked);
        }
        return picked;
    }

    /** {@code x < k} with x a two's complement difference (its top bit the sign), k >= 0. */
    private static Expr signedLess(Expr x, int k) {
        return x.msb().or(x.lt(k));
    }

    private void malformedEnd(Wire done, Wire malformed, PackedCommand.Malformed reason) {
        done.set(1);
        malformed.set(reason.ordinal() + 1);
    }
    private static Expr byteAt(Expr v, int i) {
        return v.bits(8 * i + 7, 8 * i);
    }

    public Config config() {
        return config;
    }
}
