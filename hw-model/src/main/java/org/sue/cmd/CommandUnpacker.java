package org.sue.cmd;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Wire;
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
 * good, and is this block's receive buffer: while the XPU has no credit, this block stops taking beats.
 *
 * <p>Credits ({@code rx_credit} = {cmd_credit, cmd_vc[1:0], data_credit, data_vc[1:0]}): per VC the XPU starts with
 * {@code cmdCredits} command slots and {@code dataCredits} 256-byte data buffers; each command takes one slot and,
 * if it has data, one data buffer, at beat 0. Returning more than the initial count sets the sticky
 * {@code credit_error}. While {@code rx_reset_in} is high nothing is delivered and the credits return to their
 * initial counts; a command cut by it loses its remaining data beats and its PDU, counted in {@code drops_reset}.
 */
public final class CommandUnpacker extends Component {
    public record Config(@Tag("s") int streamWidth, @Tag("d") int dataWidth, CommandTable table,
                         @Tag("k") int cmdCredits, @Tag("kd") int dataCredits) {
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
        Reg vc = reg("vc", 2, 0);

        // ---- the command at the front of the window ---------------------------------------------------------------
        Expr type = wire("cmd_type", byteAt(window, 0));
        Expr length = wire("data_length", Hw.cat(byteAt(window, 2), byteAt(window, 3)));
        CommandTable.Lookup typeInfo = config.table().lookup(type);
        Expr defined = wire("type_defined", typeInfo.defined());
        Expr units = wire("control_units", typeInfo.units());
        Expr hasData = wire("type_has_data", typeInfo.hasData());
        int lw = 17;
        Expr headerBytes = wire("header_bytes", Hw.cat(units, Hw.lit(1, 0)).resize(lw).add(4));
        Expr commandBytes = wire("command_bytes", headerBytes.add(length.resize(lw)));
        Expr packedBytes = wire("packed_bytes", commandBytes.add(length.bit(0).resize(lw)));
        Expr rem = remaining.resize(lw);
        Expr fillW = fill.resize(lw);
        Expr endsPdu = wire("ends_pdu", packedBytes.ge(rem));
        Expr shortCommand = wire("short_command", length.le(beatBytes));
        // bytes beat 0 needs in the window, and what it consumes
        Expr firstNeed = wire("first_need", Hw.mux(shortCommand, Hw.mux(endsPdu, rem, packedBytes),
                headerBytes.add(beatBytes)));

        // ---- data beats after beat 0 ---------------------------------------------------------------------------------
        Expr lastData = wire("last_data", dataLeft.le(beatBytes));
        Expr dataPacked = wire("data_packed", dataLeft.resize(lw).add(dataLeft.bit(0).resize(lw)));
        Expr dataEndsPdu = wire("data_ends_pdu", lastData.and(dataPacked.ge(rem)));
        Expr dataNeed = wire("data_need", Hw.mux(lastData, Hw.mux(dataEndsPdu, rem, dataPacked),
                Hw.lit(lw, beatBytes)));

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
        Wire consume = wire("consume", lw);   // bytes leaving the window's front (unless done)
        Wire malformed = wire("malformed", 3); // PackedCommand.Malformed ordinal + 1
        Wire cutByReset = wire("cut_by_reset", 1);
        fire.set(0);
        done.set(0);
        consume.set(0);
        malformed.set(0);
        cutByReset.set(0);
        Expr shortStream = lastIn; // waiting for bytes that will never come: the stream is shorter than len
        when(dropping, () -> fire.set(0)).elseWhen(inData, () -> {
            when(rxResetIn, () -> {
                done.set(1);
                cutByReset.set(1);
            }).elseWhen(fillW.lt(dataNeed), () -> when(shortStream, () -> malformedEnd(done, malformed,
                    PackedCommand.Malformed.RUNS_PAST_PDU))).otherwise(() -> {
                        fire.set(1);
                        consume.set(Hw.mux(lastData, dataPacked, Hw.lit(lw, beatBytes)));
                        when(dataEndsPdu, () -> done.set(1));
                    });
        }).elseWhen(remaining.eq(0), () -> done.set(1))
                .elseWhen(fill.eq(0), () -> when(shortStream, () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU)))
                .elseWhen(type.eq(0), () -> done.set(1)) // padding
                .elseWhen(defined.not(), () -> malformedEnd(done, malformed, PackedCommand.Malformed.UNKNOWN_TYPE))
                .elseWhen(rem.lt(PackedCommand.HEADER_BYTES), () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU))
                .elseWhen(fillW.lt(PackedCommand.HEADER_BYTES), () -> when(shortStream, () -> malformedEnd(done,
                        malformed, PackedCommand.Malformed.RUNS_PAST_PDU)))
                .elseWhen(length.ne(0).and(hasData.not()), () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.DATA_ON_TYPE_WITHOUT_DATA))
                .elseWhen(length.gt(CommandTable.MAX_DATA_BYTES), () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.DATA_TOO_LONG))
                .elseWhen(commandBytes.gt(rem), () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU))
                .elseWhen(fillW.lt(firstNeed), () -> when(shortStream, () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU)))
                .elseWhen(creditOk, () -> {
                    fire.set(1);
                    consume.set(firstNeed);
                    when(shortCommand.and(endsPdu), () -> done.set(1));
                });
        Expr firstBeat = wire("first_beat", fire.and(inData.not()));
        for (PackedCommand.Malformed m : PackedCommand.Malformed.values()) {
            counter("drops_" + m.name().toLowerCase(), malformed.eq(m.ordinal() + 1));
        }

        // ---- the window: consume at the front, append the next input beat behind ----------------------------------
        Expr discardRest = wire("discard_rest", dropping.or(done.and(lastIn.not())));
        Expr base = wire("base", Hw.mux(done, Hw.zeros(8 * capacity),
                window.shr(Hw.cat(consume.bits(fw - 1, 0), Hw.lit(3, 0)))));
        Expr fillBase = wire("fill_base", Hw.mux(done, Hw.lit(fw, 0), fill.sub(consume.bits(fw - 1, 0))));
        in.tready().set(discardRest.or(done).or(lastIn.not().and(fillBase.le(capacity - lanes))));
        Expr take = wire("take", in.tvalid().and(in.tready()));
        Expr append = wire("append", take.and(discardRest.not()));
        Expr startPdu = wire("start_pdu", append.and(done));
        Expr beatData = wire("beat_data", in.tdata().and(Keep.byteMask(in.tkeep())).resize(8 * capacity));
        Expr beatBytesIn = Keep.count(in.tkeep(), fw);
        when(append, () -> {
            window.set(base.or(beatData.shl(Hw.cat(fillBase, Hw.lit(3, 0)))));
            fill.set(fillBase.add(beatBytesIn));
            lastIn.set(in.tlast());
        }).otherwise(() -> {
            window.set(base);
            fill.set(fillBase);
        });
        when(discardRest, () -> {
            lastIn.set(1); // the window stays empty until the next PDU
            dropping.set(take.and(in.tlast()).not());
        });
        when(startPdu, () -> {
            remaining.set(SueMeta.LEN.of(in.tuser()));
            src.set(SueMeta.SRC_XPU.of(in.tuser()));
            vc.set(SueMeta.VC.of(in.tuser()));
        }).elseWhen(done, () -> remaining.set(0))
                .otherwise(() -> remaining.set(remaining.sub(consume.resize(remaining.width()))));
        // a beat never consumes more than a PDU holds (LEN bits); the adder width above is only for the compares
        unused("consume_top", consume.bits(lw - 1, SueMeta.LEN.width()));
        // only the source, VC and length matter here
        unused("tuser", in.tuser().bits(SueMeta.LEN.offset() - 1, SueMeta.VC.offset() + SueMeta.VC.width()),
                in.tuser().bits(SueMeta.SRC_XPU.offset() - 1, 0));

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
        Expr cmdReturn = rxCredit.bit(5);
        Expr cmdReturnVc = rxCredit.bits(4, 3);
        Expr dataReturn = rxCredit.bit(2);
        Expr dataReturnVc = rxCredit.bits(1, 0);
        for (int v = 0; v < SueMeta.VCS; v++) {
            Expr mine = vc.eq(v);
            account(cmdAvail.get(v), config.cmdCredits(), firstBeat.and(mine),
                    cmdReturn.and(cmdReturnVc.eq(v)), error);
            account(dataAvail.get(v), config.dataCredits(), firstBeat.and(mine).and(length.ne(0)),
                    dataReturn.and(dataReturnVc.eq(v)), error);
        }
        Reg resetOut = reg("reset_out", 1, 1);
        resetOut.set(rxResetIn);
        rxResetOut.set(resetOut);
        creditError.set(error);
    }

    /** One credit count: spent by a delivery, given back by the XPU, reset by rx_reset_in; over-returns are errors. */
    private void account(Reg avail, int initial, Expr spend, Expr give, Reg error) {
        Expr full = avail.eq(initial);
        when(rxResetIn, () -> avail.set(initial))
                .elseWhen(give.and(spend.not()), () -> when(full, () -> error.set(1))
                        .otherwise(() -> avail.set(avail.add(1))))
                .elseWhen(spend.and(give.not()), () -> avail.set(avail.sub(1)));
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
