package org.sue.cmd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
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
import org.sue.core.Tag;
import org.sue.core.Wire;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Keep;
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
    /** {@code rx_cycle} and {@code rx_valid} are as wide as the transmit side's (Tables 1 and 2). */
    private static final int CYCLE_BITS = CommandIngress.CYCLE_WIDTH;
    private static final int VALID_BITS = CommandIngress.VALID_WIDTH;
    /** {@code rx_credit}, least significant first: {cmd_credit, cmd_vc[1:0], data_credit, data_vc[1:0]}. */
    public static final Layout CREDIT = Layout.of("rx_credit", Layout.bits("data_vc", SueMeta.VC_WIDTH),
            Layout.bits("data_credit", 1), Layout.bits("cmd_vc", SueMeta.VC_WIDTH), Layout.bits("cmd_credit", 1));
    private static final int DATA_LEFT_BITS = Hw.log2Up(CommandTable.MAX_DATA_BYTES + 1);
    private static final int MALFORMED_BITS = Hw.log2Up(PackedCommand.Malformed.values().length + 1);

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
    private final Geometry g;

    public CommandUnpacker(Config config) {
        super(config);
        this.config = config;
        g = Geometry.of(config);
        in = Stream.slave(this, new StreamConfig(config.streamWidth(), SueMeta.WIDTH));
        rxCycle = out("rx_cycle", CYCLE_BITS);
        rxValid = out("rx_valid", VALID_BITS);
        rxVc = out("rx_vc", SueMeta.VC_WIDTH);
        xpuid = out("xpuid", SueMeta.XPU_WIDTH);
        rxControl = out("rx_control", CONTROL_BITS);
        rxData = out("rx_data", config.dataWidth());
        rxCredit = in("rx_credit", CREDIT.width());
        rxResetIn = in("rx_reset_in", 1);
        rxResetOut = out("rx_reset_out", 1);
        Reg overReturned = reg("credit_error_flag", 1, 0);
        creditError = status("credit_error", Status.Kind.FLAG, overReturned,
                "Sticky: the XPU gave back more command slots or data buffers on a VC than it was granted");

        Ring ring = ring();
        Intake intake = intake();
        Cursor at = cursor();
        DataBeats beats = dataBeats();
        Pdu pdu = new Pdu(reg("src", SueMeta.XPU_WIDTH, 0), reg("vc", SueMeta.VC_WIDTH, 0));
        Front front = new Front();
        VcContexts vcs = config.perVc() ? new VcContexts(pdu.vc()) : null;
        Stream pdus = vcs == null ? in : vcs.pdus; // what the ring reads: `in`, or the chosen VC's FIFO
        freed = vcs == null ? null : vcs.freed;

        Reads reads = reads(ring, at);
        Incoming incoming = incoming(ring, intake, pdus);
        Item item = item(at, beats, front);
        Checks checks = checks(intake, at, beats, front, item);
        Credits credits = credits(pdu.vc(), front);
        Decision d = decide(intake, at.remaining(), beats.inData(), front, item, checks, credits.ok(), vcs);
        countDrops(d.malformed());
        Arrival arrival = accept(intake, at, beats.inData(), d, pdus, vcs);
        write(ring, incoming, arrival, d.done());
        count(intake, incoming, item.nextByte(), d, arrival, pdus);
        lookAhead(intake, at, reads, incoming, item, checks, d, arrival);
        advance(at, front, reads, incoming, item, d, arrival);
        startPdu(pdu, arrival.startPdu(), pdus);
        if (vcs != null) {
            vcs.contextSwitch(context(ring, intake, at, pdu, front), rxResetIn);
        }
        beatCount(beats, front, item, d);
        deliver(beats, pdu, front, reads.frontBytes(), d);
        returnCredits(credits, pdu.vc(), d.firstBeat(), front.noData, overReturned);
        Reg resetOut = reg("reset_out", 1, 1);
        resetOut.set(rxResetIn);
        rxResetOut.set(resetOut);
    }

    /**
     * The sizes the block is built from; a unit is 2 bytes (a command starts on one), a ring slot one input beat.
     *
     * @param sb        bits of a unit's place in a slot
     * @param laneBits  bits of a byte's place in a slot
     * @param spanUnits the most units one delivered beat reads
     * @param sw        bits of a slot number
     * @param ew        bits of a successor entry: a unit's place in its slot plus the step of a command there
     * @param lw        bits of a PDU length
     * @param tw        bits of a count of PDU bytes written: at most its length and a ring beyond the front
     * @param fw        bits of the bytes the ring holds
     * @param unitsUsed the control lengths (units) the command table uses
     */
    private record Geometry(int lanes, int beatBytes, int slotUnits, int sb, int laneBits, int spanUnits, int slots,
                            int sw, int ew, int lw, int tw, int fw, int[] unitsUsed) {
        static Geometry of(Config c) {
            int lanes = c.streamWidth() / 8;
            int beatBytes = c.dataWidth() / 8;
            int slotUnits = lanes / 2;
            int sb = Hw.log2Up(slotUnits);
            // a beat of data after the header and the longest control the table uses (a beat of data holds a
            // control-only command, whose header and control are at most 18 bytes)
            int spanUnits = (PackedCommand.HEADER_BYTES + beatBytes) / 2
                    + IntStream.of(c.table().unitsUsed()).max().orElse(0);
            int slots = ringSlots(lanes, beatBytes);
            int lw = SueMeta.LEN.width();
            return new Geometry(lanes, beatBytes, slotUnits, sb, sb + 1, spanUnits, slots, Hw.log2Up(slots),
                    Hw.log2Up(slotUnits + spanUnits), lw, lw + 1, Hw.log2Up(slots * lanes + 1),
                    c.table().unitsUsed());
        }
    }

    // ---- the registers: one PDU's context ---------------------------------------------------------------------------

    /**
     * The PDU's beats go whole into the slots of a ring (beat i into slot i mod slots), so a beat is written without
     * a shift and the front moves by changing a pointer. Beside each slot, for every unit u, u plus the step of a
     * command starting there ({@code nextBody}, decoded as the beat arrives; {@code nextLast} the last unit's, once
     * the next beat is in): the command after the next one is found by one read, with no decode or adder in the loop.
     */
    private record Ring(List<Reg> slots, List<Reg> nextBody, List<Reg> nextLast) {
    }

    private Ring ring() {
        List<Reg> slots = new ArrayList<>();
        List<Reg> nextBody = new ArrayList<>();
        List<Reg> nextLast = new ArrayList<>();
        for (int k = 0; k < g.slots(); k++) {
            slots.add(reg("ring_" + k, 8 * g.lanes(), 0));
            nextBody.add(reg("next_" + k, g.ew() * (g.slotUnits() - 1), 0));
            nextLast.add(reg("next_last_" + k, g.ew(), 0));
        }
        return new Ring(slots, nextBody, nextLast);
    }

    /**
     * The PDU's bytes written into the ring. A beat counts a cycle after it is written (its byte count registered,
     * off the input's path): the ring holds it at once, the checks see it a cycle later. Every beat of a PDU but its
     * last is full, so the slot after a pending beat is the next one.
     *
     * @param tail        PDU bytes written into the ring
     * @param tailSlot    the slot the tail is in, the slot a beat goes to (slots need not be a power of two)
     * @param fill        bytes at and after the front: tail - 2 pos
     * @param tailLess    tail less a header, signed
     * @param toCome      PDU bytes not yet written into the ring, signed
     * @param allIn       the PDU's bytes are all in the ring
     * @param pending     a beat written last cycle, not counted yet
     * @param pendingFull a whole beat about to count
     * @param lastIn      the PDU's last beat is in the ring (1 between PDUs)
     * @param dropping    swallowing the rest of a PDU up to its last beat
     */
    private record Intake(Reg tail, Reg tailSlot, Reg fill, Reg tailLess, Reg toCome, Reg allIn, Reg pending,
                          Reg pendingBytes, Reg pendingLast, Expr pendingFull, Reg lastIn, Reg dropping) {
    }

    private Intake intake() {
        int tw = g.tw();
        Reg tail = reg("tail", tw, 0);
        Reg fill = reg("fill", g.fw(), 0);
        Reg tailLess = reg("tail_less_header", tw + 1, (1L << (tw + 1)) - PackedCommand.HEADER_BYTES);
        Reg toCome = reg("pdu_to_come", tw + 1, 0);
        Reg allIn = reg("all_in", 1, 1);
        Reg pending = reg("pending", 1, 0);
        Reg pendingBytes = reg("pending_bytes", Hw.log2Up(g.lanes() + 1), 0);
        Reg pendingLast = reg("pending_last", 1, 0);
        return new Intake(tail, reg("tail_slot", g.sw(), 0), fill, tailLess, toCome, allIn, pending, pendingBytes,
                pendingLast, pending.and(pendingLast.not()), reg("last_in", 1, 1), reg("dropping", 1, 0));
    }

    /**
     * Where the front is, in units from the PDU's start.
     *
     * @param pos           the front item's first unit: the unit in its slot and the slot number's low bits (for the
     *                      ring's room)
     * @param nextPos       the unit after the front item (command or data beat), in full
     * @param posSlot       pos's ring slot; {@code nextSlot} next_pos's
     * @param remaining     PDU bytes not yet consumed: pdu_len - 2 pos
     * @param remLessHeader remaining less a header, one per control length the table uses: runs past is one compare
     *                      with the length
     */
    private record Cursor(Reg pos, Reg nextPos, Reg posSlot, Reg nextSlot, Reg pduLen, Reg remaining,
                          Map<Integer, Reg> remLessHeader) {
    }

    private Cursor cursor() {
        Reg pos = reg("pos", g.sb() + g.sw() + 1, 0);
        Reg nextPos = reg("next_pos", g.lw(), 0);
        Reg posSlot = reg("pos_slot", g.sw(), 0);
        Reg nextSlot = reg("next_pos_slot", g.sw(), 0);
        Reg pduLen = reg("pdu_len", g.lw(), 0);
        Reg remaining = reg("remaining", g.lw(), 0);
        Map<Integer, Reg> remLessHeader = new LinkedHashMap<>();
        for (int u : g.unitsUsed()) {
            remLessHeader.put(u, reg("rem_less_header_" + u, g.lw() + 1, 0));
        }
        return new Cursor(pos, nextPos, posSlot, nextSlot, pduLen, remaining, remLessHeader);
    }

    /** The front command's data beats: between them ({@code inData}), the bytes still to come, the beat number. */
    private record DataBeats(Reg inData, Reg dataLeft, Reg beat) {
    }

    private DataBeats dataBeats() {
        return new DataBeats(reg("in_data", 1, 0), reg("data_left", DATA_LEFT_BITS, 0), reg("beat", CYCLE_BITS, 0));
    }

    /** The PDU's source XPU and VC (with per-VC buffers: the VC whose context is in the registers). */
    private record Pdu(Reg src, Reg vc) {
    }

    /** The registers a context switch saves and restores, in the order of the {@code contexts} RAM's word. */
    private static Reg[] context(Ring ring, Intake in, Cursor at, Pdu pdu, Front front) {
        List<Reg> context = new ArrayList<>(ring.slots());
        context.addAll(ring.nextBody());
        context.addAll(ring.nextLast());
        context.addAll(List.of(in.tail(), in.tailSlot(), in.fill(), in.tailLess(), in.toCome(), in.allIn(),
                in.pending(), in.pendingBytes(), in.pendingLast(), at.pos(), at.posSlot(), at.nextSlot(),
                at.nextPos(), at.pduLen(), at.remaining(), in.lastIn(), pdu.src()));
        context.addAll(front.regs());
        context.addAll(at.remLessHeader().values());
        return context.toArray(new Reg[0]);
    }

    // ---- reads: the front item's bytes, and the header and successor of the item after it ---------------------------

    /**
     * The front item's bytes ({@code spanUnits} from pos), and of the item after it its header and its successor
     * entry, with the unit and slot that entry points to: they load as the front moves to it.
     */
    private record Reads(Expr frontBytes, Header next, Expr entry, Expr nextPos, Expr nextSlot) {
    }

    private Reads reads(Ring ring, Cursor at) {
        int slotUnits = g.slotUnits();
        int sb = g.sb();
        int ew = g.ew();
        // indexed by {slot, unit}: past the last slot the first ones again, so a read may run over the end
        Expr[] units = new Expr[slotUnits << g.sw()];
        Expr[] successors = new Expr[units.length];
        for (int r = 0; r < units.length; r++) {
            int k = r / slotUnits % g.slots();
            int u = r % slotUnits;
            units[r] = ring.slots().get(k).bits(16 * u + 15, 16 * u);
            successors[r] = u < slotUnits - 1 ? ring.nextBody().get(k).bits(ew * u + ew - 1, ew * u)
                    : ring.nextLast().get(k);
        }
        Expr frontBytes = wire("front_bytes", catLowFirst(rotate(units, Hw.cat(at.posSlot(), at.pos().bits(sb - 1, 0)),
                g.spanUnits())));
        Expr nextIndex = Hw.cat(at.nextSlot(), at.nextPos().bits(sb - 1, 0));
        Expr[] readUnits = rotate(units, nextIndex, 2);
        Header read = Header.of(config.table(), Hw.cat(readUnits[1], readUnits[0]));
        Expr readEntry = rotate(successors, nextIndex, 1)[0];
        Expr readCarry = readEntry.bits(ew - 1, sb); // slots past next_pos's
        List<Expr> slotAhead = new ArrayList<>();
        List<Expr> ringSlotAhead = new ArrayList<>();
        for (int c = 0; c < 1 << (ew - sb); c++) {
            slotAhead.add(at.nextPos().bits(g.lw() - 1, sb).add(c));
            ringSlotAhead.add(slotPlus(at.nextSlot(), c, g.slots()));
        }
        Expr readNext = wire("read_next", Hw.cat(Hw.selectTree(slotAhead, readCarry), readEntry.bits(sb - 1, 0)));
        return new Reads(frontBytes, read, readEntry, readNext, Hw.selectTree(ringSlotAhead, readCarry));
    }

    // ---- the input beat: its commands' successors, decoded as it is written -----------------------------------------

    /**
     * The input beat as the ring takes it: its bytes, their count, whether it fills a slot, its successor entries,
     * the slot it goes to while the PDU goes on, the entry of the previous slot's last unit (which straddles into
     * it), and a new PDU's first command (zeros without a beat: the front loads from here as any PDU ends) with its
     * step.
     */
    private record Incoming(Expr beat, Expr count, Expr full, Expr entries, Expr slot, Expr straddling, Header first,
                            Expr firstStep) {
    }

    private Incoming incoming(Ring ring, Intake intake, Stream pdus) {
        CommandTable table = config.table();
        int lanes = g.lanes();
        int slots = g.slots();
        Expr inBeat = pdus.tdata();
        List<Expr> entries = new ArrayList<>();
        for (int u = g.slotUnits() - 2; u >= 0; u--) {
            entries.add(Header.of(table, inBeat.bits(16 * u + Header.BITS - 1, 16 * u)).step(g.unitsUsed(),
                    g.beatBytes(), g.ew(), u));
        }
        Reg tailSlot = intake.tailSlot();
        Expr slot = Hw.mux(intake.pending(), slotPlus(tailSlot, 1, slots), tailSlot); // after a pending beat's
        // the last unit of the slot before: its type in that slot, its length in this beat
        Expr prevLast = Hw.selectTree(padded(ring.slots(), g.sw()), Hw.mux(intake.pending(), tailSlot, slotPlus(tailSlot,
                slots - 1, slots))).bits(8 * lanes - 1, 8 * lanes - 16);
        Expr straddling = Header.of(table, Hw.cat(inBeat.bits(15, 0), prevLast)).step(g.unitsUsed(), g.beatBytes(),
                g.ew(), g.slotUnits() - 1);
        Header first = Header.of(table, Hw.mux(pdus.tvalid(), inBeat.bits(Header.BITS - 1, 0),
                Hw.zeros(Header.BITS)));
        return new Incoming(inBeat, Keep.count(pdus.tkeep(), Hw.log2Up(lanes + 1)), pdus.tkeep().msb(),
                Hw.cat(entries), slot, straddling, first, first.step(g.unitsUsed(), g.beatBytes(), g.lw(), 0));
    }

    // ---- the front item and its checks, against registers -----------------------------------------------------------

    /**
     * The front item: its end in bytes, whether it ends the PDU (a command's beat 0 that is all of it, or a last data
     * beat), whether the item after it is a data beat, and the data bytes left after the next data beat.
     */
    private record Item(Expr nextByte, Expr endsHere, Expr lastData, Expr firstEnds, Expr dataEnds, Expr nextIsData,
                        Expr nextDataLeft) {
    }

    private Item item(Cursor at, DataBeats beats, Front front) {
        Expr nextByte = Hw.cat(at.nextPos(), Hw.lit(1, 0));
        Expr endsHere = wire("ends_pdu", at.pduLen().resize(g.tw()).le(nextByte)); // the item takes the rest
        Expr firstEnds = wire("first_ends_pdu", front.fitsBeat.and(endsHere));
        Expr lastData = wire("last_data", beats.dataLeft().le(g.beatBytes()));
        Expr dataEnds = wire("data_ends_pdu", lastData.and(endsHere));
        Expr nextIsData = wire("next_is_data", Hw.mux(beats.inData(), lastData.not(), front.fitsBeat.not()));
        Expr nextDataLeft = wire("next_data_left", Hw.mux(beats.inData(), beats.dataLeft(),
                front.length.bits(DATA_LEFT_BITS - 1, 0)).sub(g.beatBytes()));
        return new Item(nextByte, endsHere, lastData, firstEnds, dataEnds, nextIsData, nextDataLeft);
    }

    /**
     * What the decision reads of the front beside the header's own checks: the command runs past the PDU, the ring
     * holds what the item needs, the front holds no byte or less than a header (counting a whole pending beat), the
     * PDU's stream ended short of it. {@code sameFront} and {@code movedOk} are set where the front moves.
     */
    private record Checks(Expr runsPast, Expr itemOk, Expr frontEmpty, Expr headerShort, Expr streamShort,
                          Reg sameFront, Reg movedOk) {
    }

    private Checks checks(Intake in, Cursor at, DataBeats beats, Front front, Item item) {
        int lw = g.lw();
        int tw = g.tw();
        // read only after data_too_long: the length has at most 9 bits there
        Expr len = front.length.bits(DATA_LEFT_BITS - 1, 0).resize(lw);
        // header + length > remaining
        Expr runsPast = wire("runs_past_pdu", byUnits(front.units, g.unitsUsed(), u -> {
            Reg r = at.remLessHeader().get(u);
            return r.msb().or(r.bits(lw - 1, 0).lt(len));
        }));
        Expr itemIn = wire("item_in", in.tail().ge(item.nextByte()));
        Expr nextHeaderIn = wire("next_header_in", in.tailLess().msb().not()
                .and(in.tailLess().bits(tw - 1, 0).ge(item.nextByte())));
        // Whether the ring holds what the item needs: the rest of the PDU if the item ends it, else the item and,
        // unless the stream has ended, the next command's header (its facts load as the front moves on). Exactly it
        // takes compares of wide positions, so the decision reads registers: the PDU is all in, or the ring holds
        // more than any item needs from the front (then the item cannot end the PDU either), or the check made as
        // the front moved here (moved_ok) or last cycle's exact check said so for this front.
        Expr exactIn = wire("item_in_exact", Hw.mux(Hw.mux(beats.inData(), item.lastData(), front.fitsBeat)
                .and(item.endsHere()), in.allIn(), Hw.mux(in.lastIn().or(item.nextIsData()), itemIn, nextHeaderIn)));
        Reg sameFront = reg("same_front", 1, 0); // the front has not moved since last cycle
        Reg movedOk = reg("moved_ok", 1, 0); // it moved, and the ring held the new item and the header after it
        Reg inLate = reg("item_in_late", 1, 0); // last cycle's exact check
        Reg shortLate = reg("stream_short_late", 1, 0); // it failed with the PDU's last beat in: malformed
        int enough = 2 * g.spanUnits() + PackedCommand.HEADER_BYTES;
        Expr itemOk = wire("item_ok", in.allIn().or(in.fill().ge(enough))
                .or(in.pendingFull().and(in.fill().ge(Math.max(0, enough - g.lanes())))).or(movedOk)
                .or(sameFront.and(inLate)));
        Expr frontEmpty = wire("front_empty", in.fill().eq(0).and(in.pendingFull().not()));
        Expr headerShort = wire("header_short", in.fill().lt(PackedCommand.HEADER_BYTES)
                .and(in.pendingFull().not()));
        Expr streamShort = wire("stream_short", sameFront.and(shortLate));
        inLate.set(exactIn);
        shortLate.set(in.lastIn().and(exactIn.not()));
        return new Checks(runsPast, itemOk, frontEmpty, headerShort, streamShort, sameFront, movedOk);
    }

    // ---- credits ----------------------------------------------------------------------------------------------------

    /** Per VC the command slots and data buffers the XPU has free, whether any ({@code avail != 0}); the front's. */
    private record Credits(List<Reg> cmdAvail, List<Reg> dataAvail, List<Reg> cmdHave, List<Reg> dataHave, Expr ok) {
    }

    private Credits credits(Reg vc, Front front) {
        int width = Hw.log2Up(Math.max(CommandIngress.Config.CMD_CREDITS.max(),
                CommandIngress.Config.DATA_CREDITS.max()) + 1);
        List<Reg> cmdAvail = new ArrayList<>();
        List<Reg> dataAvail = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            cmdAvail.add(reg("cmd_avail_" + v, width, config.cmdCredits()));
            dataAvail.add(reg("data_avail_" + v, width, config.dataCredits()));
        }
        List<Reg> cmdHave = new ArrayList<>(); // kept beside the counts, so the decision reads a register
        List<Reg> dataHave = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            cmdHave.add(reg("cmd_have_" + v, 1, config.cmdCredits() > 0 ? 1 : 0));
            dataHave.add(reg("data_have_" + v, 1, config.dataCredits() > 0 ? 1 : 0));
        }
        Expr haveCmd = wire("have_cmd_credit", Hw.selectTree(cmdHave, vc));
        Expr haveData = wire("have_data_credit", Hw.selectTree(dataHave, vc));
        Expr ok = wire("credit_ok", haveCmd.and(front.noData.or(haveData)).and(rxResetIn.not()));
        return new Credits(cmdAvail, dataAvail, cmdHave, dataHave, ok);
    }

    /** Spent by each command's first beat on its VC (a data buffer if it has data), given back on rx_credit. */
    private void returnCredits(Credits c, Reg vc, Expr firstBeat, Expr noData, Reg error) {
        for (int v = 0; v < SueMeta.VCS; v++) {
            Expr mine = vc.eq(v);
            account(c.cmdAvail().get(v), c.cmdHave().get(v), config.cmdCredits(), firstBeat.and(mine),
                    returned("cmd", v), error);
            account(c.dataAvail().get(v), c.dataHave().get(v), config.dataCredits(), firstBeat.and(mine)
                    .and(noData.not()), returned("data", v), error);
        }
    }

    // ---- one decision per cycle: deliver a beat, wait, or end the PDU (normally or malformed) -----------------------

    /**
     * The cycle's decision: a beat goes to the XPU ({@code fire}), nothing more of the PDU is delivered
     * ({@code done}, with the {@link PackedCommand.Malformed} ordinal + 1 if malformed), a command was cut by
     * rx_reset_in, a decoded command waits for credit; {@code firstBeat} a command's beat 0 left.
     */
    private record Decision(Wire fire, Wire done, Wire malformed, Wire cutByReset, Wire waitCredit, Expr firstBeat) {
    }

    private Decision decide(Intake in, Reg remaining, Reg inData, Front front, Item item, Checks checks, Expr creditOk,
                            VcContexts vcs) {
        Wire fire = wire("fire", 1);
        Wire done = wire("pdu_done", 1);
        Wire malformed = wire("malformed", MALFORMED_BITS);
        Wire cutByReset = wire("cut_by_reset", 1);
        Wire waitCredit = wire("wait_credit", 1);
        fire.set(0);
        done.set(0);
        malformed.set(0);
        cutByReset.set(0);
        waitCredit.set(0);
        Function<PackedCommand.Malformed, Runnable> end = reason -> () -> {
            done.set(1);
            malformed.set(reason.ordinal() + 1);
        };
        Runnable runsPast = end.apply(PackedCommand.Malformed.RUNS_PAST_PDU);
        // waiting for bytes that will never come: the stream is shorter than the command
        Runnable ifAllIn = () -> when(in.lastIn(), runsPast);
        Runnable ifShortLate = () -> when(checks.streamShort(), runsPast);
        Expr paused = vcs == null ? in.dropping() : in.dropping().or(vcs.loading);
        when(paused, () -> fire.set(0)).elseWhen(inData, () -> {
            when(rxResetIn, () -> {
                done.set(1);
                cutByReset.set(1);
            }).elseWhen(checks.itemOk().not(), ifShortLate).otherwise(() -> {
                fire.set(1);
                when(item.dataEnds(), () -> done.set(1));
            });
        }).elseWhen(remaining.eq(0), () -> done.set(1))
                .elseWhen(checks.frontEmpty(), ifAllIn)
                .elseWhen(front.padding, () -> done.set(1))
                .elseWhen(front.defined.not(), end.apply(PackedCommand.Malformed.UNKNOWN_TYPE))
                .elseWhen(remaining.lt(PackedCommand.HEADER_BYTES), runsPast)
                .elseWhen(checks.headerShort(), ifAllIn)
                .elseWhen(front.noData.not().and(front.hasData.not()),
                        end.apply(PackedCommand.Malformed.DATA_ON_TYPE_WITHOUT_DATA))
                .elseWhen(front.tooLong, end.apply(PackedCommand.Malformed.DATA_TOO_LONG))
                .elseWhen(checks.runsPast(), runsPast)
                .elseWhen(checks.itemOk().not(), ifShortLate)
                .elseWhen(creditOk, () -> {
                    fire.set(1);
                    when(item.firstEnds(), () -> done.set(1));
                }).otherwise(() -> waitCredit.set(1));
        checks.sameFront().set(fire.or(done).or(paused).not());
        return new Decision(fire, done, malformed, cutByReset, waitCredit, wire("first_beat", fire.and(inData.not())));
    }

    /** PDUs cut short, per reason; counted a cycle after the event, off the decision's path. */
    private void countDrops(Expr malformed) {
        Reg dropped = reg("dropped", MALFORMED_BITS, 0);
        dropped.set(malformed);
        for (PackedCommand.Malformed m : PackedCommand.Malformed.values()) {
            statusCounter("drops_" + m.name().toLowerCase(), dropped.eq(m.ordinal() + 1), "PDUs whose remaining"
                    + " commands were dropped at a command " + switch (m) {
                        case UNKNOWN_TYPE -> "of a type the command table does not define";
                        case DATA_ON_TYPE_WITHOUT_DATA -> "with a data length on a type without data";
                        case DATA_TOO_LONG -> "with more than " + CommandTable.MAX_DATA_BYTES + " data bytes";
                        case RUNS_PAST_PDU -> "running past the PDU's length or its last beat";
                    });
        }
    }

    // ---- the ring: a beat into the next slot while the front's slot is not the next; a new PDU from slot 0 ----------

    /**
     * The input's handshake and what the ring takes: a beat of this PDU ({@code beatIn}), or as it ends the next
     * PDU's first ({@code nextPduIn}; {@code startPdu} it starts now); {@code append} a beat is written;
     * {@code discardRest} beats are swallowed up to the PDU's last, {@code take} one left the input; {@code lenIn} the
     * input PDU's length.
     */
    private record Arrival(Expr beatIn, Expr nextPduIn, Expr startPdu, Expr append, Expr discardRest, Expr take,
                           Expr lenIn) {
    }

    private Arrival accept(Intake in, Cursor at, Reg inData, Decision d, Stream pdus, VcContexts vcs) {
        int sw = g.sw();
        Expr streamEnded = wire("stream_ended", in.lastIn().or(in.pendingLast())); // no more beats of this PDU
        Expr discardRest = wire("discard_rest", in.dropping().or(d.done().and(streamEnded.not())));
        // slots from the front's to the tail's, fewer than the ring has
        Expr held = in.tail().bits(g.laneBits() + sw, g.laneBits()).add(in.pending().resize(sw + 1))
                .sub(at.pos().bits(g.sb() + sw, g.sb()));
        Expr room = wire("ring_room", held.lt(g.slots()));
        Expr wantBeat = discardRest.or(d.done()).or(streamEnded.not().and(room));
        Expr offered = pdus.tvalid().and(in.dropping().not());
        if (vcs != null) {
            vcs.schedule(at.remaining().eq(0).and(in.lastIn()).and(in.pending().not()).and(inData.not())
                    .and(in.dropping().not()), d.done().and(streamEnded), d.waitCredit().and(rxResetIn.not()),
                    rxResetIn);
            Expr free = vcs.switching.or(vcs.loading).not(); // the registers change hands
            wantBeat = wantBeat.and(free);
            offered = offered.and(free);
        } else {
            unused("one_context", d.waitCredit()); // nothing to switch to
        }
        pdus.tready().set(wantBeat);
        Expr take = wire("take", pdus.tvalid().and(pdus.tready()));
        // what is written, the decision only choosing: a beat of this PDU, or as it ends the next PDU's first
        Expr beatIn = wire("beat_in", offered.and(streamEnded.not()).and(room));
        Expr nextPduIn = wire("next_pdu_in", offered.and(streamEnded));
        Expr append = wire("append", Hw.mux(d.done(), nextPduIn, beatIn));
        Expr startPdu = wire("start_pdu", d.done().and(nextPduIn));
        return new Arrival(beatIn, nextPduIn, startPdu, append, discardRest, take, SueMeta.LEN.of(pdus.tuser()));
    }

    /** The beat and its successor entries into its slot, the entry straddling into it beside the slot before. */
    private void write(Ring ring, Incoming incoming, Arrival a, Expr done) {
        int slots = g.slots();
        Expr writeSlot = wire("write_slot", Hw.mux(done, Hw.zeros(g.sw()), incoming.slot()));
        for (int k = 0; k < slots; k++) {
            int kk = k;
            when(a.append().and(writeSlot.eq(kk)), () -> {
                ring.slots().get(kk).set(incoming.beat());
                ring.nextBody().get(kk).set(incoming.entries());
            });
            when(a.append().and(writeSlot.eq((kk + 1) % slots)), () -> ring.nextLast().get(kk)
                    .set(incoming.straddling()));
        }
    }

    /** The counts after each possible step, formed beside the decision, which only chooses. */
    private void count(Intake in, Incoming incoming, Expr nextByte, Decision d, Arrival a, Stream pdus) {
        int fw = g.fw();
        int tw = g.tw();
        Expr counted = Hw.mux(in.pending(), in.pendingBytes(), Hw.zeros(in.pendingBytes().width()));
        Expr fillAfter = wire("fill_after_item", Hw.sumShallow(List.of(in.tail().bits(fw - 1, 0),
                nextByte.bits(fw - 1, 0).not(), counted.resize(fw)), true)); // from the next item on
        // a new PDU's first beat counts at once
        Expr firstIn = Hw.mux(a.nextPduIn(), incoming.count().resize(fw), Hw.zeros(fw));
        when(d.done(), () -> {
            in.tail().set(firstIn.resize(tw));
            in.fill().set(firstIn);
            // a partial first beat is the last: then only all_in matters, which reads the lanes
            in.tailLess().set(Hw.mux(a.nextPduIn(), Hw.lit(tw + 1, g.lanes() - PackedCommand.HEADER_BYTES),
                    Hw.lit(tw + 1, (1L << (tw + 1)) - PackedCommand.HEADER_BYTES)));
            in.toCome().set(a.lenIn().resize(tw + 1).sub(g.lanes()));
            in.allIn().set(a.nextPduIn().and(covers(pdus.tkeep(), a.lenIn())));
            in.pending().set(0);
            in.pendingLast().set(0);
            in.tailSlot().set(Hw.mux(a.nextPduIn(), Hw.lit(g.sw(), 1), Hw.lit(g.sw(), 0)));
        }).otherwise(() -> {
            in.tail().set(Hw.addShallow(in.tail(), counted.resize(tw)));
            in.tailLess().set(Hw.addShallow(in.tailLess(), counted.resize(tw + 1)));
            in.toCome().set(Hw.mux(a.beatIn(), in.toCome().sub(g.lanes()), in.toCome()));
            in.allIn().set(in.allIn().or(a.beatIn().and(covers(pdus.tkeep(), in.toCome()))));
            in.fill().set(Hw.mux(d.fire(), fillAfter, Hw.addShallow(in.fill(), counted.resize(fw))));
            in.pending().set(a.beatIn());
            in.pendingLast().set(a.beatIn().and(pdus.tlast()));
            in.tailSlot().set(incoming.slot());
        });
        in.pendingBytes().set(incoming.count());
        when(in.pendingLast(), () -> in.lastIn().set(1));
        when(a.startPdu(), () -> in.lastIn().set(pdus.tlast()));
        when(a.discardRest(), () -> {
            in.lastIn().set(1); // the ring stays empty until the next PDU
            in.dropping().set(a.take().and(pdus.tlast()).not());
        });
    }

    // ---- the front: the next item's facts load as the front moves to it ---------------------------------------------

    /**
     * Whether the new front's item and the header after it end within the whole slots the ring holds from next_pos's
     * slot on (with a pending beat and one written now): slot counts and a unit count within a slot, so that the
     * next cycle's decision reads a register ({@code moved_ok}).
     */
    private void lookAhead(Intake in, Cursor at, Reads reads, Incoming incoming, Item item, Checks checks, Decision d,
                           Arrival a) {
        int sb = g.sb();
        int sw = g.sw();
        int ew = g.ew();
        Expr slotsHeld = in.tail().bits(g.laneBits() + sw, g.laneBits()).add(in.pendingFull().resize(sw + 1))
                .add(a.beatIn().and(incoming.full()).resize(sw + 1)).sub(at.nextPos().bits(sb + sw, sb));
        Expr commandOk = heldUpTo(slotsHeld, g.slots(), g.slotUnits(), reads.entry().resize(ew + 1).add(2));
        Expr left = item.nextDataLeft();
        Expr dataOk = heldUpTo(slotsHeld, g.slots(), g.slotUnits(), at.nextPos().bits(sb - 1, 0).resize(ew + 1)
                .add(dataUnits(left, g.beatBytes(), ew + 1))
                .add(Hw.mux(left.le(g.beatBytes()), Hw.lit(ew + 1, 2), Hw.lit(ew + 1, 0))));
        checks.movedOk().set(Hw.mux(a.startPdu(), incoming.firstStep().le(g.slotUnits() - 2).and(incoming.full()),
                d.fire().and(d.done().not()).and(Hw.mux(item.nextIsData(), dataOk, commandOk))));
    }

    /**
     * As the PDU ends the front loads from the input beat whether or not one is there: without a new PDU, remaining 0
     * keeps it idle. So the loads wait only on done and fire, not on the input's handshake.
     */
    private void advance(Cursor at, Front front, Reads reads, Incoming incoming, Item item, Decision d, Arrival a) {
        int sb = g.sb();
        int sw = g.sw();
        int lw = g.lw();
        int tw = g.tw();
        Expr nextPosData = wire("next_pos_data", Hw.addShallow(at.nextPos(), dataUnits(item.nextDataLeft(),
                g.beatBytes(), lw)));
        Expr restAfter = Hw.subShallow(at.pduLen().resize(tw), item.nextByte()); // remaining once the front moves on
        // the data beat's end is in next_pos's slot or the one after (a data step is at most a slot)
        Expr dataSlot = Hw.mux(nextPosData.bit(sb).ne(at.nextPos().bit(sb)), slotPlus(at.nextSlot(), 1, g.slots()),
                at.nextSlot());
        Expr firstStep = incoming.firstStep();
        when(d.done(), () -> {
            at.pos().set(0);
            at.posSlot().set(0);
            at.nextPos().set(firstStep);
            at.nextSlot().set(firstStep.bits(sb + sw - 1, sb));
            front.load(incoming.first(), g.beatBytes());
            at.pduLen().set(a.lenIn());
            at.remaining().set(Hw.mux(a.nextPduIn(), a.lenIn(), Hw.zeros(lw)));
            at.remLessHeader().forEach((u, r) -> r.set(a.lenIn().resize(lw + 1)
                    .sub(PackedCommand.HEADER_BYTES + 2 * u)));
        }).elseWhen(d.fire(), () -> {
            at.pos().set(at.nextPos().bits(sb + sw, 0));
            at.posSlot().set(at.nextSlot());
            at.nextPos().set(Hw.mux(item.nextIsData(), nextPosData, reads.nextPos()));
            at.nextSlot().set(Hw.mux(item.nextIsData(), dataSlot, reads.nextSlot()));
            front.load(reads.next(), g.beatBytes());
            at.remaining().set(restAfter.resize(lw));
            at.remLessHeader().forEach((u, r) -> r.set(Hw.sumShallow(List.of(at.pduLen().resize(tw),
                    item.nextByte().not(), Hw.lit(tw, (1L - PackedCommand.HEADER_BYTES - 2L * u) & ((1L << tw) - 1))),
                    false)));
        });
    }

    /** A new PDU's source and VC; only they and the length are read of its tuser. */
    private void startPdu(Pdu pdu, Expr startPdu, Stream pdus) {
        when(startPdu, () -> {
            pdu.src().set(SueMeta.SRC_XPU.of(pdus.tuser()));
            pdu.vc().set(SueMeta.VC.of(pdus.tuser()));
        });
        unused("tuser", pdus.tuser().bits(SueMeta.LEN.offset() - 1, SueMeta.VC.offset() + SueMeta.VC.width()),
                pdus.tuser().bits(SueMeta.SRC_XPU.offset() - 1, 0));
        if (freed == null) { // the link is read only for the VC FIFOs' departures
            unused("tuser_link", SueMeta.LINK.of(pdus.tuser()));
        }
    }

    /** Beat 0 opens a command with more data, its last data beat closes it. */
    private void beatCount(DataBeats beats, Front front, Item item, Decision d) {
        Reg inData = beats.inData();
        when(d.done(), () -> inData.set(0)).elseWhen(d.firstBeat().and(front.fitsBeat.not()), () -> {
            inData.set(1);
            beats.dataLeft().set(item.nextDataLeft());
            beats.beat().set(1);
        }).elseWhen(d.fire().and(inData), () -> {
            inData.set(item.lastData().not());
            beats.dataLeft().set(item.nextDataLeft());
            beats.beat().set(beats.beat().add(1));
        });
    }

    // ---- outputs, registered: the front item as it would leave, every cycle; rx_valid says whether it did -----------

    private void deliver(DataBeats beats, Pdu pdu, Front front, Expr frontBytes, Decision d) {
        int beatBytes = g.beatBytes();
        Reg inData = beats.inData();
        Reg outValid = reg("out_valid", VALID_BITS, 0);
        Reg outCycle = reg("out_cycle", CYCLE_BITS, 0);
        Reg outVc = reg("out_vc", SueMeta.VC_WIDTH, 0);
        Reg outXpu = reg("out_xpuid", SueMeta.XPU_WIDTH, 0);
        Reg outControl = reg("out_control", CONTROL_BITS, 0);
        Reg outData = reg("out_data", config.dataWidth(), 0);
        outValid.set(Hw.mux(d.fire(), Hw.mux(inData.or(front.noData.not()), Hw.lit(VALID_BITS, 2),
                Hw.lit(VALID_BITS, 1)), Hw.lit(VALID_BITS, 0)));
        outCycle.set(Hw.mux(inData, beats.beat(), Hw.lit(CYCLE_BITS, 0)));
        outVc.set(pdu.vc());
        outXpu.set(pdu.src());
        // rx_control bytes: 0 type, 1..2 data length (big-endian), 3.. the 2u control bytes, zeros after
        int controlBytes = 2 * CommandTable.MAX_CONTROL_UNITS;
        Expr control = frontBytes.bits(8 * (PackedCommand.HEADER_BYTES + controlBytes) - 1,
                8 * PackedCommand.HEADER_BYTES);
        Expr twiceUnits = Hw.cat(front.units, Hw.lit(1, 0));
        Expr controlMask = Keep.byteMask(Hw.ones(controlBytes).shr(Hw.lit(twiceUnits.width(), controlBytes)
                .sub(twiceUnits)));
        outControl.set(Hw.cat(control.and(controlMask), front.length.bits(7, 0), front.length.bits(15, 8), front.type)
                .resize(CONTROL_BITS));
        Expr afterHeader = byUnits(front.units, g.unitsUsed(), u -> frontBytes.bits(
                8 * (PackedCommand.HEADER_BYTES + 2 * u + beatBytes) - 1, 8 * (PackedCommand.HEADER_BYTES + 2 * u)));
        outData.set(Hw.mux(inData, frontBytes.bits(8 * beatBytes - 1, 0).and(Keep.bytesBelow(beats.dataLeft(),
                beatBytes)), afterHeader.and(Keep.bytesBelow(front.length, beatBytes))));
        rxValid.set(outValid);
        rxCycle.set(outCycle);
        rxVc.set(outVc);
        xpuid.set(outXpu);
        rxControl.set(outControl);
        rxData.set(outData);
        Reg delivered = reg("delivered", 1, 0);
        Reg cut = reg("cut", 1, 0);
        delivered.set(d.firstBeat());
        cut.set(d.cutByReset());
        statusCounter("commands_delivered", delivered, "Commands delivered to the XPU (counted at their first beat)");
        statusCounter("drops_reset", cut, "Commands cut by rx_reset_in before their last data beat, the rest of their"
                + " PDU dropped");
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
        return Hw.selectTree(options, slot);
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
            List<Stream> toVc = in.demux("to_vc", SueMeta.VC.of(in.tuser()), SueMeta.VCS);
            List<Stream> offers = new ArrayList<>();
            List<Expr> offered = new ArrayList<>();
            for (int v = 0; v < SueMeta.VCS; v++) {
                Stream queue = toVc.get(v).queue("vc_" + v, config.vcBufferDepth());
                queues.add(queue);
                saved.add(reg("vc_saved_" + v, 1, 0));
                creditWait.add(reg("vc_credit_wait_" + v, 1, 0));
                eligible.add(wire("vc_eligible_" + v, 1));
                offers.add(queue.continueWhen("vc_" + v + "_offer", eligible.get(v)));
                offered.add(offers.get(v).valid());
            }
            // from the VC after the one in the registers, whichever FIFO is eligible and has a beat
            pdus = Stream.mux("pdu", offers, wire("pdu_vc", Arbiter.rotatingPick(offered, vc)));
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
            statusCounter("context_switches", switching, "Context switches: the unpacker's registers handed from one"
                    + " VC's PDU to another's (per-VC buffers)");
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
                Expr credit = returned("cmd", v).or(returned("data", v));
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

    /** A command slot ({@code kind} "cmd") or a data buffer ("data") given back on VC v. */
    private Expr returned(String kind, int v) {
        return CREDIT.get(rxCredit, kind + "_credit").and(CREDIT.get(rxCredit, kind + "_vc").eq(v));
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
        return len.bits(len.width() - 1, w).eq(0).and(Hw.selectTree(options, len.bits(w - 1, 0)));
    }

    /** A command header's fields (bytes 0..3, byte 0 in the low bits) and the table's facts on its type. */
    private record Header(Expr type, Expr length, Expr defined, Expr units, Expr hasData) {
        static final int BITS = 8 * PackedCommand.HEADER_BYTES;

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
        final Reg units = reg("front_units", Hw.log2Up(CommandTable.MAX_CONTROL_UNITS + 1), 0);
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
                next[j] = Hw.selectTree(options, sel);
            }
            cur = next;
            b = lo;
        }
        return Arrays.copyOf(cur, m);
    }

    /** Units (2 bytes each, the first lowest) as one little-endian byte vector. */
    private static Expr catLowFirst(Expr[] units) {
        List<Expr> parts = new ArrayList<>(Arrays.asList(units));
        Collections.reverse(parts);
        return Hw.cat(parts);
    }

    private static Expr byteAt(Expr v, int i) {
        return v.bits(8 * i + 7, 8 * i);
    }

    public Config config() {
        return config;
    }
}
