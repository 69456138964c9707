package org.sue.cmd;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.ConfigException;
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
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.SueMeta;

/**
 * Receive side of the command interface (spec Table 2): takes received PDUs (packed commands, docs/protocol.md section 4,
 * as the framing receiver delivers them, SueMeta on tuser) and hands their commands to the XPU one at a time, in PDU
 * order, while the XPU has credit for them.
 *
 * <p>The PDU's beats go whole into the slots of a ring (every beat of a PDU but its last is full, as the framing
 * receiver and the packing buffer send them); the item at the front (a command's beat 0, or one of its later data
 * beats) is read where a pointer says and leaves in one beat: beat 0 carries {@code rx_control} and the first
 * {@code dataWidth/8} data bytes, later beats the rest of the data, numbered by {@code rx_cycle}. As a beat is written
 * each 2-byte unit of it is decoded as if a command started there, and where the next one would start is kept beside
 * the ring, so the front moves one command a cycle by reading, not decoding: a command-only command leaves every
 * cycle and a command with data at one data beat per cycle. The front command's header and checks come from
 * registers loaded as the front moves to it. The next PDU's first beat is taken in the cycle the current PDU ends.
 * {@code rx_data}, {@code rx_control}, {@code rx_cycle}, {@code rx_vc} and {@code xpuid} show the front item every
 * cycle; {@code rx_valid} says whether it left. The counters count a cycle after the event.
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

        private static final String NAME = "CommandUnpacker";
        /** Beats of each VC's buffer: 0 for none. */
        public static final Bound VC_BUFFER_DEPTH = Bound.of(2, 65536).orZero().because("0: no per-VC buffers");

        public Config {
            StreamConfig.DATA_WIDTH.check(NAME, "streamWidth", streamWidth);
            CommandIngress.Config.DATA_WIDTH.check(NAME, "dataWidth", dataWidth);
            if (dataWidth > streamWidth) {
                throw new ConfigException(NAME, "{dataWidth} (" + dataWidth + ") must not exceed {streamWidth} ("
                        + streamWidth + ")");
            }
            CommandTable.checkDefined(NAME, "table", table);
            CommandIngress.Config.CMD_CREDITS.check(NAME, "cmdCredits", cmdCredits);
            CommandIngress.Config.DATA_CREDITS.check(NAME, "dataCredits", dataCredits);
            VC_BUFFER_DEPTH.check(NAME, "vcBufferDepth", vcBufferDepth);
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
    public final Flow freed;
    private final Config config;

    public CommandUnpacker(Config config) {
        super(config);
        this.config = config;
        CommandTable table = config.table();
        int lanes = config.streamWidth() / 8;
        int beatBytes = config.dataWidth() / 8;
        int slotUnits = lanes / 2; // 2-byte units in a ring slot: one input beat
        int sb = Hw.log2Up(slotUnits);
        int laneBits = sb + 1;
        int spanUnits = (PackedCommand.MAX_CONTROL_ONLY_BYTES + beatBytes) / 2; // the most one delivered beat reads
        int slots = ringSlots(lanes, beatBytes);
        int sw = Hw.log2Up(slots);
        int ew = Hw.log2Up(slotUnits + spanUnits); // a unit's place in its slot plus the step of a command there
        int lw = SueMeta.LEN.width();
        int tw = lw + 1; // PDU bytes written: at most its length and a ring beyond the front
        int fw = Hw.log2Up(slots * lanes + 1);
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

        // The PDU's beats go whole into the slots of a ring (beat i into slot i mod slots), so a beat is written
        // without a shift and the front moves by changing a pointer. Beside each slot, for every unit u, u plus the
        // step of a command starting there (decoded as the beat arrives; the last unit's once the next beat is in):
        // the command after the next one is found by one read, with no decode or adder in the loop.
        List<Reg> ring = new ArrayList<>();
        List<Reg> nextBody = new ArrayList<>();
        List<Reg> nextLast = new ArrayList<>();
        for (int k = 0; k < slots; k++) {
            ring.add(reg("ring_" + k, 8 * lanes, 0));
            nextBody.add(reg("next_" + k, ew * (slotUnits - 1), 0));
            nextLast.add(reg("next_last_" + k, ew, 0));
        }
        Reg tail = reg("tail", tw, 0); // PDU bytes written into the ring
        Reg fill = reg("fill", fw, 0); // of them at and after the front: tail - 2 pos
        Reg tailLess = reg("tail_less_header", tw + 1, (1L << (tw + 1)) - PackedCommand.HEADER_BYTES); // signed
        Reg toCome = reg("pdu_to_come", tw + 1, 0); // PDU bytes not yet written into the ring, signed
        Reg allIn = reg("all_in", 1, 1); // the PDU's bytes are all in the ring
        // A beat of this PDU counts a cycle after it is written (its byte count registered, off the input's path):
        // the ring holds it at once, the checks see it a cycle later. Every beat of a PDU but its last is full, so
        // the slot after a pending beat is the next one.
        Reg pending = reg("pending", 1, 0);
        Reg pendingBytes = reg("pending_bytes", Hw.log2Up(lanes + 1), 0);
        Reg pendingLast = reg("pending_last", 1, 0);
        Expr pendingFull = pending.and(pendingLast.not()); // a whole beat about to count
        // the front item's first unit (2 bytes), counted from the PDU's start: the unit in its slot and the slot
        // number's low bits (for the ring's room); next_pos in full
        Reg pos = reg("pos", sb + sw + 1, 0);
        Reg nextPos = reg("next_pos", lw, 0); // the unit after the front item (command or data beat)
        // the ring slots of pos, next_pos and the tail (the slot a beat goes to), kept beside them: slots need not
        // be a power of two
        Reg posSlot = reg("pos_slot", sw, 0);
        Reg nextSlot = reg("next_pos_slot", sw, 0);
        Reg tailSlot = reg("tail_slot", sw, 0);
        Reg pduLen = reg("pdu_len", lw, 0);
        Reg remaining = reg("remaining", lw, 0); // PDU bytes not yet consumed: pdu_len - 2 pos
        Reg lastIn = reg("last_in", 1, 1); // the PDU's last beat is in the ring (1 between PDUs)
        Reg dropping = reg("dropping", 1, 0); // swallowing the rest of a PDU up to its last beat
        Reg inData = reg("in_data", 1, 0); // between the beats of a command with data
        Reg dataLeft = reg("data_left", 9, 0);
        Reg beat = reg("beat", 4, 0);
        Reg src = reg("src", 10, 0);
        Reg vc = reg("vc", 2, 0); // with per-VC buffers: the VC whose context is in the registers above
        // the front command's header, read from the ring as the front moves to it
        Front front = new Front();
        Reg fType = front.type;
        Reg fLen = front.length;
        Reg fUnits = front.units;
        // remaining - header bytes, one per control length the table uses: runs past is one compare with the length
        int[] unitsUsed = table.unitsUsed();
        Map<Integer, Reg> remLessHeader = new HashMap<>();
        for (int u : unitsUsed) {
            remLessHeader.put(u, reg("rem_less_header_" + u, lw + 1, 0));
        }
        // the PDU stream the ring reads: `in`, or with per-VC buffers the chosen VC's FIFO
        VcContexts vcs = config.perVc() ? new VcContexts(vc) : null;
        Stream pdus = vcs == null ? in : vcs.pdus;
        freed = vcs == null ? null : vcs.freed;

        // ---- reads: the front item's bytes, and the header and successor of the item after it ----------------------
        // indexed by {slot, unit}: past the last slot the first ones again, so a read may run over the end
        Expr[] units = new Expr[slotUnits << sw];
        Expr[] successors = new Expr[units.length];
        for (int r = 0; r < units.length; r++) {
            int k = r / slotUnits % slots;
            int u = r % slotUnits;
            units[r] = ring.get(k).bits(16 * u + 15, 16 * u);
            successors[r] = u < slotUnits - 1 ? nextBody.get(k).bits(ew * u + ew - 1, ew * u) : nextLast.get(k);
        }
        Expr frontBytes = wire("front_bytes", catLowFirst(rotate(units, Hw.cat(posSlot, pos.bits(sb - 1, 0)),
                spanUnits)));
        // the item after the front: its header and successor load as the front moves to it
        Expr nextIndex = Hw.cat(nextSlot, nextPos.bits(sb - 1, 0));
        Expr[] readUnits = rotate(units, nextIndex, 2);
        Header read = Header.of(table, Hw.cat(readUnits[1], readUnits[0]));
        Expr readEntry = rotate(successors, nextIndex, 1)[0];
        Expr readCarry = readEntry.bits(ew - 1, sb); // slots past next_pos's
        List<Expr> slotAhead = new ArrayList<>();
        List<Expr> ringSlotAhead = new ArrayList<>();
        for (int c = 0; c < 1 << (ew - sb); c++) {
            slotAhead.add(nextPos.bits(lw - 1, sb).add(c));
            ringSlotAhead.add(slotPlus(nextSlot, c, slots));
        }
        Expr readNext = wire("read_next", Hw.cat(pick(slotAhead, readCarry), readEntry.bits(sb - 1, 0)));
        Expr readNextSlot = pick(ringSlotAhead, readCarry);

        // ---- the input beat: its commands' successors, decoded as it is written ----------------------------------
        Expr inBeat = pdus.tdata();
        Expr beatBytesIn = Keep.count(pdus.tkeep(), Hw.log2Up(lanes + 1));
        List<Expr> entries = new ArrayList<>();
        for (int u = slotUnits - 2; u >= 0; u--) {
            entries.add(Header.of(table, inBeat.bits(16 * u + 31, 16 * u)).step(unitsUsed, beatBytes, ew, u));
        }
        Expr newEntries = Hw.cat(entries);
        // the last unit of the slot before: its type in that slot, its length in this beat
        Expr inPduSlot = Hw.mux(pending, slotPlus(tailSlot, 1, slots), tailSlot); // after a pending beat's
        Expr prevLast = pick(padded(ring, sw), Hw.mux(pending, tailSlot, slotPlus(tailSlot, slots - 1, slots)))
                .bits(8 * lanes - 1, 8 * lanes - 16);
        Expr straddling = Header.of(table, Hw.cat(inBeat.bits(15, 0), prevLast)).step(unitsUsed, beatBytes,
                ew, slotUnits - 1);
        // a new PDU's first command (zeros without a beat: the front loads from here as any PDU ends)
        Header inFront = Header.of(table, Hw.mux(pdus.tvalid(), inBeat.bits(31, 0), Hw.zeros(32)));

        // ---- the front command's checks, against registers -------------------------------------------------------
        Expr lenZero = front.noData;
        Expr shortCommand = front.fitsBeat;
        // read only after data_too_long: the length has at most 9 bits there
        Expr len = fLen.bits(Hw.log2Up(CommandTable.MAX_DATA_BYTES + 1) - 1, 0).resize(lw);
        // header + length > remaining
        Expr runsPast = wire("runs_past_pdu", byUnits(fUnits, unitsUsed, u -> {
            Reg r = remLessHeader.get(u);
            return r.msb().or(r.bits(lw - 1, 0).lt(len));
        }));
        Expr nextByte = Hw.cat(nextPos, Hw.lit(1, 0)); // the item's end, in bytes
        Expr endsHere = wire("ends_pdu", pduLen.resize(tw).le(nextByte)); // the item takes the rest of the PDU
        Expr itemIn = wire("item_in", tail.ge(nextByte));
        Expr nextHeaderIn = wire("next_header_in", tailLess.msb().not().and(tailLess.bits(tw - 1, 0).ge(nextByte)));
        Expr firstEnds = wire("first_ends_pdu", shortCommand.and(endsHere));
        Expr lastData = wire("last_data", dataLeft.le(beatBytes));
        Expr dataEnds = wire("data_ends_pdu", lastData.and(endsHere));
        // Whether the ring holds what the item needs: the rest of the PDU if the item ends it, else the item and,
        // unless the stream has ended, the next command's header (its facts load as the front moves on). Exactly it
        // takes compares of wide positions, so the decision reads registers: the PDU is all in, or the ring holds
        // more than any item needs from the front (then the item cannot end the PDU either), or the check made as
        // the front moved here (moved_ok, below) or last cycle's exact check said so for this front.
        Expr nextIsData = wire("next_is_data", Hw.mux(inData, lastData.not(), shortCommand.not()));
        Expr exactIn = wire("item_in_exact", Hw.mux(Hw.mux(inData, lastData, shortCommand).and(endsHere), allIn,
                Hw.mux(lastIn.or(nextIsData), itemIn, nextHeaderIn)));
        Reg sameFront = reg("same_front", 1, 0); // the front has not moved since last cycle
        Reg movedOk = reg("moved_ok", 1, 0); // it moved, and the ring held the new item and the header after it
        Reg inLate = reg("item_in_late", 1, 0); // last cycle's exact check
        Reg shortLate = reg("stream_short_late", 1, 0); // it failed with the PDU's last beat in: malformed
        int enough = 2 * spanUnits + PackedCommand.HEADER_BYTES;
        Expr itemOk = wire("item_ok", allIn.or(fill.ge(enough))
                .or(pendingFull.and(fill.ge(Math.max(0, enough - lanes)))).or(movedOk).or(sameFront.and(inLate)));
        // no byte at the front / less than a header, counting a whole pending beat
        Expr frontEmpty = wire("front_empty", fill.eq(0).and(pendingFull.not()));
        Expr headerShort = wire("header_short", fill.lt(PackedCommand.HEADER_BYTES).and(pendingFull.not()));
        Expr streamShort = wire("stream_short", sameFront.and(shortLate));
        inLate.set(exactIn);
        shortLate.set(lastIn.and(exactIn.not()));

        // ---- credits ----------------------------------------------------------------------------------------------
        List<Reg> cmdAvail = new ArrayList<>();
        List<Reg> dataAvail = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            cmdAvail.add(reg("cmd_avail_" + v, 12, config.cmdCredits()));
            dataAvail.add(reg("data_avail_" + v, 12, config.dataCredits()));
        }
        List<Reg> cmdHave = new ArrayList<>(); // avail != 0, kept beside the counts
        List<Reg> dataHave = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            cmdHave.add(reg("cmd_have_" + v, 1, config.cmdCredits() > 0 ? 1 : 0));
            dataHave.add(reg("data_have_" + v, 1, config.dataCredits() > 0 ? 1 : 0));
        }
        Expr haveCmd = wire("have_cmd_credit", pick(cmdHave, vc));
        Expr haveData = wire("have_data_credit", pick(dataHave, vc));
        Expr creditOk = wire("credit_ok", haveCmd.and(lenZero.or(haveData)).and(rxResetIn.not()));

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
            }).elseWhen(itemOk.not(), () -> when(streamShort, () -> malformedEnd(done, malformed,
                    PackedCommand.Malformed.RUNS_PAST_PDU))).otherwise(() -> {
                        fire.set(1);
                        when(dataEnds, () -> done.set(1));
                    });
        }).elseWhen(remaining.eq(0), () -> done.set(1))
                .elseWhen(frontEmpty, () -> when(shortStream, () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU)))
                .elseWhen(front.padding, () -> done.set(1))
                .elseWhen(front.defined.not(), () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.UNKNOWN_TYPE))
                .elseWhen(remaining.lt(PackedCommand.HEADER_BYTES), () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU))
                .elseWhen(headerShort, () -> when(shortStream, () -> malformedEnd(done,
                        malformed, PackedCommand.Malformed.RUNS_PAST_PDU)))
                .elseWhen(lenZero.not().and(front.hasData.not()), () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.DATA_ON_TYPE_WITHOUT_DATA))
                .elseWhen(front.tooLong, () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.DATA_TOO_LONG))
                .elseWhen(runsPast, () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU))
                .elseWhen(itemOk.not(), () -> when(streamShort, () -> malformedEnd(done, malformed,
                        PackedCommand.Malformed.RUNS_PAST_PDU)))
                .elseWhen(creditOk, () -> {
                    fire.set(1);
                    when(firstEnds, () -> done.set(1));
                }).otherwise(() -> waitCredit.set(1));
        Expr firstBeat = wire("first_beat", fire.and(inData.not()));
        sameFront.set(fire.or(done).or(paused).not());
        // the counters count a cycle after the event, off the decision's path
        Reg dropped = reg("dropped", 3, 0);
        dropped.set(malformed);
        for (PackedCommand.Malformed m : PackedCommand.Malformed.values()) {
            counter("drops_" + m.name().toLowerCase(), dropped.eq(m.ordinal() + 1));
        }

        // ---- the ring: a beat into the next slot while the front's slot is not the next; a new PDU from slot 0 -----
        Expr streamEnded = wire("stream_ended", lastIn.or(pendingLast)); // no more beats of this PDU
        Expr discardRest = wire("discard_rest", dropping.or(done.and(streamEnded.not())));
        // slots from the front's to the tail's, fewer than the ring has
        Expr held = tail.bits(laneBits + sw, laneBits).add(pending.resize(sw + 1)).sub(pos.bits(sb + sw, sb));
        Expr room = wire("ring_room", held.lt(slots));
        Expr wantBeat = discardRest.or(done).or(streamEnded.not().and(room));
        Expr offered = pdus.tvalid().and(dropping.not());
        if (vcs != null) {
            vcs.schedule(remaining.eq(0).and(lastIn).and(pending.not()).and(inData.not()).and(dropping.not()),
                    done.and(streamEnded), waitCredit.and(rxResetIn.not()), rxResetIn);
            Expr free = vcs.switching.or(vcs.loading).not(); // the registers change hands
            wantBeat = wantBeat.and(free);
            offered = offered.and(free);
        } else {
            unused("one_context", waitCredit); // nothing to switch to
        }
        pdus.tready().set(wantBeat);
        Expr take = wire("take", pdus.tvalid().and(pdus.tready()));
        // what is written, the decision only choosing: a beat of this PDU, or as it ends the next PDU's first
        Expr beatIn = wire("beat_in", offered.and(streamEnded.not()).and(room));
        Expr nextPduIn = wire("next_pdu_in", offered.and(streamEnded));
        Expr append = wire("append", Hw.mux(done, nextPduIn, beatIn));
        Expr startPdu = wire("start_pdu", done.and(nextPduIn));
        Expr writeSlot = wire("write_slot", Hw.mux(done, Hw.zeros(sw), inPduSlot));
        for (int k = 0; k < slots; k++) {
            int kk = k;
            when(append.and(writeSlot.eq(kk)), () -> {
                ring.get(kk).set(inBeat);
                nextBody.get(kk).set(newEntries);
            });
            when(append.and(writeSlot.eq((kk + 1) % slots)), () -> nextLast.get(kk).set(straddling));
        }
        // the counts after each possible step, formed beside the decision, which only chooses
        Expr counted = Hw.mux(pending, pendingBytes, Hw.zeros(pendingBytes.width()));
        Expr fillAfter = wire("fill_after_item", Hw.sumShallow(List.of(tail.bits(fw - 1, 0),
                nextByte.bits(fw - 1, 0).not(), counted.resize(fw)), true)); // from the next item on
        Expr firstIn = Hw.mux(nextPduIn, beatBytesIn.resize(fw), Hw.zeros(fw)); // a new PDU's first beat counts at once
        Expr lenIn = SueMeta.LEN.of(pdus.tuser());
        when(done, () -> {
            tail.set(firstIn.resize(tw));
            fill.set(firstIn);
            // a partial first beat is the last: then only all_in matters, which reads the lanes
            tailLess.set(Hw.mux(nextPduIn, Hw.lit(tw + 1, lanes - PackedCommand.HEADER_BYTES),
                    Hw.lit(tw + 1, (1L << (tw + 1)) - PackedCommand.HEADER_BYTES)));
            toCome.set(lenIn.resize(tw + 1).sub(lanes));
            allIn.set(nextPduIn.and(covers(pdus.tkeep(), lenIn)));
            pending.set(0);
            pendingLast.set(0);
            tailSlot.set(Hw.mux(nextPduIn, Hw.lit(sw, 1), Hw.lit(sw, 0)));
        }).otherwise(() -> {
            tail.set(Hw.addShallow(tail, counted.resize(tw)));
            tailLess.set(Hw.addShallow(tailLess, counted.resize(tw + 1)));
            toCome.set(Hw.mux(beatIn, toCome.sub(lanes), toCome));
            allIn.set(allIn.or(beatIn.and(covers(pdus.tkeep(), toCome))));
            fill.set(Hw.mux(fire, fillAfter, Hw.addShallow(fill, counted.resize(fw))));
            pending.set(beatIn);
            pendingLast.set(beatIn.and(pdus.tlast()));
            tailSlot.set(inPduSlot);
        });
        pendingBytes.set(beatBytesIn);
        when(pendingLast, () -> lastIn.set(1));
        when(startPdu, () -> lastIn.set(pdus.tlast()));
        when(discardRest, () -> {
            lastIn.set(1); // the ring stays empty until the next PDU
            dropping.set(take.and(pdus.tlast()).not());
        });

        // ---- the front: the next item's facts load as the front moves to it ---------------------------------------
        Expr nextDataLeft = wire("next_data_left", Hw.mux(inData, dataLeft, fLen.bits(8, 0)).sub(beatBytes));
        Expr nextPosData = wire("next_pos_data", Hw.addShallow(nextPos, dataUnits(nextDataLeft, beatBytes, lw)));
        Expr restAfter = Hw.subShallow(pduLen.resize(tw), nextByte); // remaining once the front moves on
        // the new front's item and the header after it end within the whole slots the ring holds from next_pos's
        // slot on (with a pending beat and one written now): slot counts and a unit count within a slot
        Expr slotsHeld = tail.bits(laneBits + sw, laneBits).add(pendingFull.resize(sw + 1))
                .add(beatIn.and(pdus.tkeep().msb()).resize(sw + 1)).sub(nextPos.bits(sb + sw, sb));
        Expr commandOk = heldUpTo(slotsHeld, slots, slotUnits, readEntry.resize(ew + 1).add(2));
        Expr dataOk = heldUpTo(slotsHeld, slots, slotUnits, nextPos.bits(sb - 1, 0).resize(ew + 1)
                .add(dataUnits(nextDataLeft, beatBytes, ew + 1))
                .add(Hw.mux(nextDataLeft.le(beatBytes), Hw.lit(ew + 1, 2), Hw.lit(ew + 1, 0))));
        // the data beat's end is in next_pos's slot or the one after (a data step is at most a slot)
        Expr dataSlot = Hw.mux(nextPosData.bit(sb).ne(nextPos.bit(sb)), slotPlus(nextSlot, 1, slots), nextSlot);
        Expr inStep = inFront.step(unitsUsed, beatBytes, lw, 0);
        movedOk.set(Hw.mux(startPdu, inStep.le(slotUnits - 2).and(pdus.tkeep().msb()),
                fire.and(done.not()).and(Hw.mux(nextIsData, dataOk, commandOk))));
        // As the PDU ends the front loads from the input beat whether or not one is there: without a new PDU,
        // remaining 0 keeps it idle. So the loads wait only on done and fire, not on the input's handshake.
        when(done, () -> {
            pos.set(0);
            posSlot.set(0);
            nextPos.set(inStep);
            nextSlot.set(inStep.bits(sb + sw - 1, sb));
            front.load(inFront, beatBytes);
            pduLen.set(lenIn);
            remaining.set(Hw.mux(nextPduIn, lenIn, Hw.zeros(lw)));
            for (int u : unitsUsed) {
                remLessHeader.get(u).set(lenIn.resize(lw + 1).sub(PackedCommand.HEADER_BYTES + 2 * u));
            }
        }).elseWhen(fire, () -> {
            pos.set(nextPos.bits(sb + sw, 0));
            posSlot.set(nextSlot);
            nextPos.set(Hw.mux(nextIsData, nextPosData, readNext));
            nextSlot.set(Hw.mux(nextIsData, dataSlot, readNextSlot));
            front.load(read, beatBytes);
            remaining.set(restAfter.resize(lw));
            for (int u : unitsUsed) {
                remLessHeader.get(u).set(Hw.sumShallow(List.of(pduLen.resize(tw), nextByte.not(),
                        Hw.lit(tw, (1L - PackedCommand.HEADER_BYTES - 2L * u) & ((1L << tw) - 1))), false));
            }
        });
        when(startPdu, () -> {
            src.set(SueMeta.SRC_XPU.of(pdus.tuser()));
            vc.set(SueMeta.VC.of(pdus.tuser()));
        });
        // only the source, VC and length matter here
        unused("tuser", pdus.tuser().bits(SueMeta.LEN.offset() - 1, SueMeta.VC.offset() + SueMeta.VC.width()),
                pdus.tuser().bits(SueMeta.SRC_XPU.offset() - 1, 0));
        if (vcs != null) {
            List<Reg> context = new ArrayList<>(ring);
            context.addAll(nextBody);
            context.addAll(nextLast);
            context.addAll(List.of(tail, tailSlot, fill, tailLess, toCome, allIn, pending, pendingBytes, pendingLast,
                    pos, posSlot, nextSlot, nextPos, pduLen, remaining, lastIn, src));
            context.addAll(front.regs());
            for (int u : unitsUsed) {
                context.add(remLessHeader.get(u));
            }
            vcs.contextSwitch(context.toArray(new Reg[0]), rxResetIn);
        }

        // ---- command state: beat 0 opens a command with more data, its last data beat closes it --------------------
        when(done, () -> inData.set(0)).elseWhen(firstBeat.and(shortCommand.not()), () -> {
            inData.set(1);
            dataLeft.set(nextDataLeft);
            beat.set(1);
        }).elseWhen(fire.and(inData), () -> {
            inData.set(lastData.not());
            dataLeft.set(nextDataLeft);
            beat.set(beat.add(1));
        });

        // ---- outputs, registered: the front item as it would leave, every cycle; rx_valid says whether it did ------
        Reg outValid = reg("out_valid", 2, 0);
        Reg outCycle = reg("out_cycle", 4, 0);
        Reg outVc = reg("out_vc", 2, 0);
        Reg outXpu = reg("out_xpuid", 10, 0);
        Reg outControl = reg("out_control", CONTROL_BITS, 0);
        Reg outData = reg("out_data", config.dataWidth(), 0);
        outValid.set(Hw.mux(fire, Hw.mux(inData.or(lenZero.not()), Hw.lit(2, 2), Hw.lit(2, 1)), Hw.lit(2, 0)));
        outCycle.set(Hw.mux(inData, beat, Hw.lit(4, 0)));
        outVc.set(vc);
        outXpu.set(src);
        // rx_control bytes: 0 type, 1..2 data length (big-endian), 3.. the 2u control bytes, zeros after
        Expr control = frontBytes.bits(8 * (PackedCommand.HEADER_BYTES + 2 * CommandTable.MAX_CONTROL_UNITS) - 1,
                8 * PackedCommand.HEADER_BYTES);
        Expr controlMask = Keep.byteMask(Hw.ones(2 * CommandTable.MAX_CONTROL_UNITS)
                .shr(Hw.lit(4, 2 * CommandTable.MAX_CONTROL_UNITS).sub(Hw.cat(fUnits, Hw.lit(1, 0)))));
        outControl.set(Hw.cat(control.and(controlMask), fLen.bits(7, 0), fLen.bits(15, 8), fType)
                .resize(CONTROL_BITS));
        Expr afterHeader = byUnits(fUnits, unitsUsed, u -> frontBytes.bits(
                8 * (PackedCommand.HEADER_BYTES + 2 * u + beatBytes) - 1, 8 * (PackedCommand.HEADER_BYTES + 2 * u)));
        outData.set(Hw.mux(inData, frontBytes.bits(8 * beatBytes - 1, 0).and(Keep.bytesBelow(dataLeft, beatBytes)),
                afterHeader.and(Keep.bytesBelow(fLen, beatBytes))));
        rxValid.set(outValid);
        rxCycle.set(outCycle);
        rxVc.set(outVc);
        xpuid.set(outXpu);
        rxControl.set(outControl);
        rxData.set(outData);
        Reg delivered = reg("delivered", 1, 0);
        Reg cut = reg("cut", 1, 0);
        delivered.set(firstBeat);
        cut.set(cutByReset);
        counter("commands_delivered", delivered);
        counter("drops_reset", cut);

        // ---- credit bookkeeping ----------------------------------------------------------------------------------
        Reg error = reg("credit_error_flag", 1, 0);
        for (int v = 0; v < SueMeta.VCS; v++) {
            Expr mine = vc.eq(v);
            account(cmdAvail.get(v), cmdHave.get(v), config.cmdCredits(), firstBeat.and(mine),
                    cmdReturned(v), error);
            account(dataAvail.get(v), dataHave.get(v), config.dataCredits(), firstBeat.and(mine).and(lenZero.not()),
                    dataReturned(v), error);
        }
        Reg resetOut = reg("reset_out", 1, 1);
        resetOut.set(rxResetIn);
        rxResetOut.set(resetOut);
        creditError.set(error);
    }

    /**
     * Ring slots: the front's, those the longest item read from it can reach, and one more, so that the slot after
     * those is written while the front is in the slot before (the ring runs ahead of a front that moves an item a
     * cycle). The slot index is padded to a power of two by repeating the first slots, so the front's bytes are one
     * read across the ring's end.
     */
    static int ringSlots(int lanes, int beatBytes) {
        int reach = (PackedCommand.MAX_CONTROL_ONLY_BYTES + beatBytes + lanes - 1) / lanes;
        int slots = 2 + reach;
        if (((Integer.highestOneBit(slots - 1) << 1) - slots) * lanes < PackedCommand.MAX_CONTROL_ONLY_BYTES + beatBytes
                && Integer.bitCount(slots) != 1) {
            throw new IllegalStateException("CommandUnpacker ring of " + slots + " slots of " + lanes
                    + " bytes: a read may run past the repeated slots");
        }
        return slots;
    }

    /** {@code (slot + c) mod n}, slot < n: a lookup on the slot's few bits. */
    private static Expr slotPlus(Expr slot, int c, int n) {
        List<Expr> options = new ArrayList<>();
        for (int v = 0; v < 1 << slot.width(); v++) {
            options.add(Hw.lit(slot.width(), v < n ? (v + c) % n : 0));
        }
        return pick(options, slot);
    }

    /** The list repeated from its start up to the next power of two in length (entries past it never read). */
    private static List<Expr> padded(List<? extends Expr> list, int bits) {
        List<Expr> out = new ArrayList<>();
        for (int i = 0; i < 1 << bits; i++) {
            out.add(list.get(i % list.size()));
        }
        return out;
    }

    /**
     * Per-VC buffering: each VC's PDUs wait in its own FIFO ({@code vc_<v>}), so a VC whose XPU holds back credit
     * does not stop the others. The ring and front registers hold one VC's context; at a PDU boundary the next PDU
     * comes from the VCs in turn. A VC waiting for credit with another VC's work pending, or a context saved mid-PDU
     * while the unpacker is idle, is switched in two cycles: its registers go to the {@code contexts} RAM in the cycle
     * the switch is decided (nothing else moves then), the other VC's come back the cycle after ({@code loading}). A
     * context saved while waiting for credit is resumed only after a credit of its VC came back. {@code freed}: a
     * PDU's last beat left its FIFO, the cycle after (the receive buffer's accounting).
     */
    private final class VcContexts {
        final Stream pdus;
        final Flow freed;
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
            freed = Flow.master(CommandUnpacker.this, "freed", SueMeta.PDU_SIZE);
            Flow.registered(CommandUnpacker.this, "freed_out", pdus.fire().and(pdus.tlast()),
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

        /** Save {@code context} (ring and front registers) when switching away mid-PDU; load the next VC's after. */
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

    /**
     * One credit count: spent by a delivery, given back by the XPU, reset by rx_reset_in; over-returns are errors.
     * {@code have} follows {@code avail != 0}, so the decision reads a register.
     */
    private void account(Reg avail, Reg have, int initial, Expr spend, Expr give, Reg error) {
        Expr full = avail.eq(initial);
        when(rxResetIn, () -> {
            avail.set(initial);
            have.set(initial > 0 ? 1 : 0);
        }).elseWhen(give.and(spend.not()), () -> when(full, () -> error.set(1))
                        .otherwise(() -> {
                            avail.set(avail.add(1));
                            have.set(1);
                        }))
                .elseWhen(spend.and(give.not()), () -> {
                    avail.set(avail.sub(1));
                    have.set(avail.ne(1));
                });
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

    /** {@code end <= held * slotUnits}: an end (in units from a slot's start) within the slots held, 1..slots. */
    private static Expr heldUpTo(Expr held, int slots, int slotUnits, Expr end) {
        Expr ok = Hw.lit(1, 0);
        for (int k = 1; k <= slots; k++) {
            ok = ok.or(held.eq(k).and(end.le((long) k * slotUnits)));
        }
        return ok;
    }

    /** {@code len <=} the lanes set in {@code keep} (a thermometer code): one lane looked up, no count and compare. */
    private static Expr covers(Expr keep, Expr len) {
        int lanes = keep.width();
        int w = Hw.log2Up(lanes + 1);
        List<Expr> options = new ArrayList<>();
        for (int j = 0; j < 1 << w; j++) {
            options.add(j == 0 ? Hw.lit(1, 1) : j <= lanes ? keep.bit(j - 1) : Hw.lit(1, 0));
        }
        return len.bits(len.width() - 1, w).eq(0).and(pick(options, len.bits(w - 1, 0)));
    }

    /** A command header's fields (bytes 0..3, byte 0 in the low bits) and the table's facts on its type. */
    private record Header(Expr type, Expr length, Expr defined, Expr units, Expr hasData) {
        static Header of(CommandTable table, Expr bytes) {
            Expr type = byteAt(bytes, 0);
            CommandTable.Lookup info = table.lookup(type);
            return new Header(type, Hw.cat(byteAt(bytes, 2), byteAt(bytes, 3)), info.defined(), info.units(),
                    info.hasData());
        }

        /**
         * {@code base} plus the 2-byte units beat 0 consumes: the header and the padded data if it fits the beat, else
         * a beat's data; one sum per control length the table uses, picked by the type.
         */
        Expr step(int[] unitsUsed, int beatBytes, int width, int base) {
            Expr shortLen = length.bits(Hw.log2Up(beatBytes + 1) - 1, 0).resize(width + 1);
            Expr fits = length.le(beatBytes);
            return byUnits(units, unitsUsed, u -> {
                int head = base + PackedCommand.HEADER_BYTES / 2 + u;
                Expr padded = shortLen.add(2 * head + 1).bits(width, 1); // (length + 1) / 2 + head
                return Hw.mux(fits, padded, Hw.lit(width, head + beatBytes / 2));
            });
        }
    }

    /** The 2-byte units of a data beat with {@code left} bytes to go: the padded rest if it fits, else a beat. */
    private static Expr dataUnits(Expr left, int beatBytes, int width) {
        Expr padded = left.bits(left.width() - 1, 1).resize(width).add(left.bit(0).resize(width));
        return Hw.mux(left.le(beatBytes), padded, Hw.lit(width, beatBytes / 2));
    }

    /** The front command's header and what the checks read of it, decoded as it loads. */
    private final class Front {
        final Reg type = reg("front_type", 8, 0);
        final Reg length = reg("front_length", 16, 0);
        final Reg defined = reg("front_defined", 1, 0);
        final Reg hasData = reg("front_has_data", 1, 0);
        final Reg units = reg("front_units", 3, 0);
        final Reg padding = reg("front_padding", 1, 0); // type 0
        final Reg noData = reg("front_no_data", 1, 0);
        final Reg fitsBeat = reg("front_fits_beat", 1, 0); // beat 0 is the whole command
        final Reg tooLong = reg("front_too_long", 1, 0);

        void load(Header h, int beatBytes) {
            type.set(h.type());
            length.set(h.length());
            defined.set(h.defined());
            hasData.set(h.hasData());
            units.set(h.units());
            padding.set(h.type().eq(0));
            noData.set(h.length().eq(0));
            fitsBeat.set(h.length().le(beatBytes));
            tooLong.set(h.length().gt(CommandTable.MAX_DATA_BYTES));
        }

        List<Reg> regs() {
            return List.of(type, length, defined, hasData, units, padding, noData, fitsBeat, tooLong);
        }
    }

    /**
     * {@code items[(index + j) mod n]} for {@code j < m}, n = items.length a power of two: 4:1 stages from the
     * index's top bits, each forming only the entries the stages after it still read.
     */
    private static Expr[] rotate(Expr[] items, Expr index, int m) {
        Expr[] cur = items;
        for (int b = index.width(); b > 0; ) {
            int lo = Math.max(0, b - 2);
            int stride = 1 << lo;
            Expr sel = index.bits(b - 1, lo);
            Expr[] next = new Expr[Math.min(items.length, m + stride - 1)];
            for (int j = 0; j < next.length; j++) {
                List<Expr> options = new ArrayList<>();
                for (int c = 0; c < 1 << (b - lo); c++) {
                    options.add(cur[(j + c * stride) % cur.length]);
                }
                next[j] = pick(options, sel);
            }
            cur = next;
            b = lo;
        }
        return Arrays.copyOf(cur, m);
    }

    /** {@code options[index]}, 2^width options, as a balanced tree on the index bits (not a chain of compares). */
    private static Expr pick(List<? extends Expr> options, Expr index) {
        if (options.size() == 1) {
            return options.get(0);
        }
        int half = options.size() / 2;
        int top = index.width() - 1;
        Expr rest = top == 0 ? null : index.bits(top - 1, 0);
        return Hw.mux(index.bit(top), pick(options.subList(half, options.size()), rest),
                pick(options.subList(0, half), rest));
    }

    /** Units (2 bytes each, the first lowest) as one little-endian byte vector. */
    private static Expr catLowFirst(Expr[] units) {
        List<Expr> parts = new ArrayList<>(Arrays.asList(units));
        Collections.reverse(parts);
        return Hw.cat(parts);
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
