package org.sue.axi;

import java.math.BigInteger;
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
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.Status;
import org.sue.core.Tag;
import org.sue.core.Wire;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Stream;
import org.sue.net.SueMeta;

/**
 * The far side's AXI4 master (docs/protocol.md 13): the WRITE, WRITE_STROBED and READ commands of remote XPUs, in the
 * order they arrive on {@code req}, issued as bursts to the local SoC's slave, and its B and R responses sent back as
 * WRITE_RESPONSE and READ_RESPONSE commands on {@code rsp} (VC1, to the XPU that sent the request).
 *
 * <ul>
 *   <li><b>Commands.</b> Each command is one part of a source burst and is issued as an AXI burst of its own, with
 *   every field of its control unchanged except the ID. A WRITE's first beat issues its AW and is its first W beat,
 *   all strobes high; a WRITE_STROBED's first beat carries its strobes (data beat k's N/8 strobe bits at bits
 *   [k*N/8, (k+1)*N/8)) and issues its AW, the W beats follow with those strobes (the strobes beat is not a W beat).
 *   One W beat a command beat, WLAST on beat AxLEN (the control's length is not read). A READ issues its AR. A
 *   command of any other type is dropped and counted ({@code bad_commands}). A command's first beat waits for the
 *   remap table (below) and room on AW/AR (and W for a WRITE); its other beats only for W.</li>
 *   <li><b>ID remapping</b> (pulp-platform axi_id_remap), one table for writes and one for reads: {@code remapEntries}
 *   entries, each a {source XPU, source ID}, a count of outstanding parts (at most {@code maxPartsPerEntry}) and the
 *   {@code last} flags of those parts in issue order. A part whose key has an entry in use takes it (waiting while it
 *   is at the most), else the lowest free entry (waiting while none is: {@code remap_waits}); the entry's index is
 *   the master ID. A response of master ID e belongs to entry e's oldest part (AXI4 keeps one ID's responses in
 *   order); the entry is free again when its count is back to 0.</li>
 *   <li><b>Write responses.</b> Each B sends one WRITE_RESPONSE {source ID, the BRESP unchanged, the part's
 *   {@code last}}: the requester merges the parts of a burst, this side does not. B is taken every cycle the response
 *   FIFO has room.</li>
 *   <li><b>Read responses.</b> R beats (possibly interleaved across master IDs) are written into a buffer of
 *   {@code 2 x 2^idBits} part slots (a RAM of {@code 2 x 2^idBits x partBeats} beats): a part takes the lowest free
 *   slot with its first beat and keeps it, with per-entry beat counts and beat responses, until its READ_RESPONSE's
 *   last beat is read out; at RLAST the part is queued, and its READ_RESPONSE (control with every beat's response on
 *   its first beat, then the beats) is read out of the RAM, one beat a cycle. R waits only while no slot is free
 *   ({@code r_slot_waits}); at most one part per master ID is partly received, so at most half the slots hold parts
 *   still arriving and the rest hold complete parts, which leave on {@code rsp}.</li>
 *   <li><b>Throughput.</b> One W beat a cycle while the SoC takes them (a WRITE_STROBED costs one more {@code req}
 *   cycle for its strobes beat); one AW or AR per command, so a stream of 1-beat parts (1024 bits: WRITEs of two
 *   beats) needs AW every other cycle. One R beat a cycle in and one response beat a cycle out; write and read
 *   responses share {@code rsp} round robin by whole commands, so R can be held back while write responses go (and
 *   whenever {@code rsp} stalls long enough to fill the slots). A READ_RESPONSE leaves only when all its part's beats
 *   are in: a part's latency grows by its beats.</li>
 *   <li><b>No deadlock.</b> Every command on {@code req} is self-contained: nothing is held for a later command, and
 *   an entry is held only while it has parts outstanding at the SoC. A command at the head of {@code req} waits only
 *   for a remap entry, which is freed as the SoC answers outstanding parts (their W beats all went before, so that
 *   never depends on {@code req}), or for the SoC's AW/W/AR ready; B and R wait only for {@code rsp} (VC1, which the
 *   system always drains) and, for R, for a slot freed the same way. So any number of source XPUs may share the
 *   table: more sources than entries only wait.</li>
 * </ul>
 */
public final class AxiRemoteMaster extends Component {
    public record Config(AxiConfig axi, @Tag("re") int remapEntries, @Tag("mp") int maxPartsPerEntry) {
        public static final Bound REMAP_ENTRIES = Bound.powerOfTwo(1, 16).because("a table of registers");
        public static final Bound MAX_PARTS = Bound.of(1, 16).because("a shift register of last flags per entry");

        public Config {
            if (axi == null) {
                throw new IllegalArgumentException("AxiRemoteMaster axi must be given");
            }
            REMAP_ENTRIES.check("AxiRemoteMaster", "remapEntries", remapEntries);
            MAX_PARTS.check("AxiRemoteMaster", "maxPartsPerEntry", maxPartsPerEntry);
        }

        public Config(AxiConfig axi) {
            this(axi, 8, 4);
        }

        /** The master's ID bits: log2(remapEntries), at least one. */
        public int masterIdWidth() {
            return Math.max(1, Hw.log2Up(remapEntries));
        }
    }

    private final AxiConfig axi;
    private final Config config;
    private final int mw;
    private final Layout beat;
    public final Stream req;
    public final Stream mAw;
    public final Stream mW;
    public final Stream mB;
    public final Stream mAr;
    public final Stream mR;
    public final Stream rsp;

    public AxiRemoteMaster(Config config) {
        super(config);
        this.config = config;
        this.axi = config.axi();
        this.mw = config.masterIdWidth();
        this.beat = axi.commandBeat();
        req = Stream.slave(this, "req", beat);
        mAw = Stream.master(this, "m_aw", axi.ax(mw));
        mW = Stream.master(this, "m_w", axi.w());
        mB = Stream.slave(this, "m_b", axi.b(mw));
        mAr = Stream.master(this, "m_ar", axi.ax(mw));
        mR = Stream.slave(this, "m_r", axi.r(mw));
        rsp = Stream.master(this, "rsp", beat);

        Expr control = requestControl();
        Expr sid = axi.requestControl().get(control, "id");
        Remap wr = remapTable("wr", req.get("xpuid"), sid);
        Remap rd = remapTable("rd", req.get("xpuid"), sid);
        Issued issued = requests(control, wr, rd);
        issued.aw().stage("aw_out").into(mAw);
        issued.ar().stage("ar_out").into(mAr);
        issued.w().stage("w_out").into(mW);
        Stream writeResponses = writeResponses(wr);
        Stream readResponses = readResponses(rd);
        Arbiter.roundRobinPackets("rsp_arb", List.of(writeResponses, readResponses)).out().into(rsp);
        status("wr_entries_used", Status.Kind.LEVEL, wr.used(), "write remap entries in use, one bit each");
        status("rd_entries_used", Status.Kind.LEVEL, rd.used(), "read remap entries in use, one bit each");
    }

    /** The request control bits of {@code req}'s control word (a WRITE's, WRITE_STROBED's or READ's). */
    private Expr requestControl() {
        Expr word = req.get("control");
        Expr bits = CommandControl.LAYOUT.get(word, "control");
        int w = axi.requestControl().width();
        // the length is not needed: a WRITE has AxLEN + 1 beats, a WRITE_STROBED one more, a READ none
        unused("req", req.get("vc"), bits.bits(bits.width() - 1, w), CommandControl.LAYOUT.get(word, "length_hi"),
                CommandControl.LAYOUT.get(word, "length_lo"));
        return bits.bits(w - 1, 0);
    }

    /**
     * One remap table: its registers, whether the part on {@code req} may be issued now and the entry it takes; the
     * issue and retire inputs are wires driven later ({@link #remapUpdate}).
     */
    private record Remap(List<Reg> count, List<Reg> xpu, List<Reg> sid, List<Reg> lasts, Expr ok, Expr index,
                         Expr used, Wire issue, Wire last, Wire retire, Wire retireId) {
        Expr xpuOf(Expr e) {
            return Hw.select(xpu, e);
        }

        Expr sidOf(Expr e) {
            return Hw.select(sid, e);
        }

        /** The {@code last} flag of entry e's oldest outstanding part. */
        Expr headLast(Expr e) {
            return Hw.select(lasts.stream().map(l -> l.bit(0)).toList(), e);
        }
    }

    private Remap remapTable(String p, Expr keyXpu, Expr keySid) {
        int n = config.remapEntries();
        int cw = Hw.log2Up(config.maxPartsPerEntry() + 1);
        List<Reg> count = new ArrayList<>();
        List<Reg> xpu = new ArrayList<>();
        List<Reg> sid = new ArrayList<>();
        List<Reg> lasts = new ArrayList<>();
        List<Expr> used = new ArrayList<>();
        List<Expr> hits = new ArrayList<>();
        List<Expr> free = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            count.add(reg(p + "_count_" + i, cw, 0));
            xpu.add(reg(p + "_xpu_" + i, SueMeta.XPU_WIDTH, 0));
            sid.add(reg(p + "_sid_" + i, axi.commandIdWidth(), 0));
            lasts.add(reg(p + "_lasts_" + i, config.maxPartsPerEntry(), 0));
            Expr inUse = count.get(i).ne(0);
            used.add(inUse);
            hits.add(inUse.and(xpu.get(i).eq(keyXpu)).and(sid.get(i).eq(keySid)));
            free.add(inUse.not());
        }
        Expr anyHit = Hw.cat(hits).orR();
        Expr hitIndex = pick(hits);
        Expr room = Hw.select(count, hitIndex).ne(config.maxPartsPerEntry());
        Expr ok = wire(p + "_remap_ok", Hw.mux(anyHit, room, Hw.cat(free).orR()));
        Expr index = wire(p + "_remap_index", Hw.mux(anyHit, hitIndex, pick(free)));
        List<Expr> usedMsbFirst = new ArrayList<>(used);
        Collections.reverse(usedMsbFirst);
        Remap t = new Remap(count, xpu, sid, lasts, ok, index, Hw.cat(usedMsbFirst), wire(p + "_issue", 1),
                wire(p + "_issue_last", 1), wire(p + "_retire", 1), wire(p + "_retire_id", mw));
        remapUpdate(t, keyXpu, keySid);
        return t;
    }

    /** The lowest index whose flag is set, in master ID bits. */
    private Expr pick(List<Expr> flags) {
        return flags.size() == 1 ? Hw.lit(mw, 0) : Arbiter.firstPick(flags);
    }

    /** The table's registers: a part issued to {@code index} (key, count, last flag), the oldest part retired. */
    private void remapUpdate(Remap t, Expr keyXpu, Expr keySid) {
        int cw = Hw.log2Up(config.maxPartsPerEntry() + 1);
        int mp = config.maxPartsPerEntry();
        for (int i = 0; i < t.count().size(); i++) {
            Reg count = t.count().get(i);
            Reg lasts = t.lasts().get(i);
            Expr up = t.issue().and(t.index().eq(i));
            Expr down = t.retire().and(t.retireId().eq(i)).and(count.ne(0));
            count.set(Hw.upDown(count, List.of(up), List.of(down)));
            Expr shifted = Hw.mux(down, lasts.shr(1), lasts);
            Expr at = count.sub(down.resize(cw));
            lasts.set(Hw.mux(up, shifted.or(t.last().resize(mp).shl(at)), shifted));
            Reg xpu = t.xpu().get(i);
            Reg sid = t.sid().get(i);
            when(up, () -> {
                xpu.set(keyXpu);
                sid.set(keySid);
            });
        }
    }

    /** The bursts the commands issue: AW and AR with master IDs, W beats with their strobes. */
    private record Issued(Stream aw, Stream w, Stream ar) {
    }

    /** Where the beat on {@code req} stands in its command, from registers of the beats before it. */
    private record Position(Reg inCmd, Expr type, Reg inWrite, Reg strobed, Reg wBeat, Reg wLen, Reg strobes) {
        Expr first() {
            return inCmd.not();
        }

        Expr is(int t) {
            return type.eq(t);
        }
    }

    private Position position() {
        Reg inCmd = reg("in_cmd", 1, 0); // the beat on req is not its command's first
        Reg inWrite = reg("in_write", 1, 0); // ... and its command's beats after the first are W beats
        Reg strobed = reg("strobed", 1, 0); // ... and they take their strobes from the strobes register
        Reg wBeat = reg("w_beat", 8, 0);
        Reg wLen = reg("w_len", 8, 0);
        // the strobes of a WRITE_STROBED's W beats still to go, the next beat's lowest
        Reg strobes = regNoReset("strobes", axi.strobedBeats() * axi.beatBytes());
        Expr type = CommandControl.LAYOUT.get(req.get("control"), "type");
        return new Position(inCmd, type, inWrite, strobed, wBeat, wLen, strobes);
    }

    /**
     * The commands on {@code req}: a WRITE's beats to AW and W, a WRITE_STROBED's strobes beat to AW and its other
     * beats to W, a READ to AR, anything else dropped. Drives {@code req.ready} and the tables' issue inputs.
     */
    private Issued requests(Expr control, Remap wr, Remap rd) {
        Layout rc = axi.requestControl();
        int bb = axi.beatBytes();
        Position at = position();
        Expr first = at.first();
        Expr isWrite = at.is(AxiConfig.WRITE);
        Expr isStrobed = at.is(AxiConfig.WRITE_STROBED);
        Expr isRead = at.is(AxiConfig.READ);
        Expr awBeat = first.and(isWrite.or(isStrobed));
        Expr wBeat = Hw.mux(first, isWrite, at.inWrite());
        Expr arBeat = first.and(isRead);
        Expr wLast = Hw.mux(first, rc.get(control, "len").eq(0), at.wBeat().eq(at.wLen()));
        Expr strb = Hw.mux(first.not().and(at.strobed()), at.strobes().bits(bb - 1, 0), Hw.ones(bb));
        Wire go = wire("req_go", 1);
        Stream aw = Stream.of(this, "aw_in", go.and(awBeat), axi.ax(mw), issued(control, wr.index()));
        Stream ar = Stream.of(this, "ar_in", go.and(arBeat), axi.ax(mw), issued(control, rd.index()));
        Stream w = Stream.of(this, "w_in", go.and(wBeat), axi.w(), axi.w().expr().set("data", req.get("data"))
                .set("strb", strb).set("last", wLast).build());
        Expr awRoom = awBeat.not().or(aw.ready().and(wr.ok()));
        Expr wRoom = wBeat.not().or(w.ready());
        Expr arRoom = arBeat.not().or(ar.ready().and(rd.ok()));
        Expr take = awRoom.and(wRoom).and(arRoom);
        req.ready().set(take);
        go.set(req.valid().and(take));
        nextPosition(at, go, control, isStrobed, w.fire(), wLast);
        wr.issue().set(aw.fire());
        wr.last().set(rc.get(control, "last"));
        rd.issue().set(ar.fire());
        rd.last().set(rc.get(control, "last"));
        Expr known = isWrite.or(isStrobed).or(isRead);
        Expr started = go.and(first);
        statusCounter("writes_issued", aw.fire(), "write parts issued on AW");
        statusCounter("reads_issued", ar.fire(), "read parts issued on AR");
        statusCounter("strobed_commands", started.and(isStrobed), "WRITE_STROBED commands taken");
        statusCounter("bad_commands", started.and(known.not()), "commands of an unknown type, dropped");
        statusCounter("remap_waits", req.valid().and(first).and(isWrite.or(isStrobed).and(wr.ok().not())
                .or(isRead.and(rd.ok().not()))), "cycles a part waited for a remap entry");
        return new Issued(aw, w, ar);
    }

    /**
     * The position registers after a beat on {@code req} went ({@code go}): a command's first beat says whether W
     * beats follow and where their strobes come from, and loads AxLEN and a WRITE_STROBED's strobes; each W beat of
     * a WRITE_STROBED moves the next beat's strobes down.
     */
    private void nextPosition(Position at, Expr go, Expr control, Expr isStrobed, Expr wFire, Expr wLast) {
        Expr first = at.first();
        when(go, () -> {
            at.inCmd().set(req.get("tlast").not());
            when(first, () -> {
                at.inWrite().set(at.is(AxiConfig.WRITE).or(isStrobed));
                at.strobed().set(isStrobed);
                at.wLen().set(axi.requestControl().get(control, "len"));
            });
        });
        when(go.and(first).and(isStrobed), () -> at.strobes().set(req.get("data").bits(at.strobes().width() - 1, 0)))
                .elseWhen(wFire.and(at.strobed()).and(first.not()), () -> at.strobes().set(at.strobes()
                        .shr(axi.beatBytes())));
        when(wFire, () -> at.wBeat().set(Hw.mux(wLast, Hw.lit(8, 0), at.wBeat().add(1))));
    }

    /** AW or AR as issued: the part's fields, the master ID. */
    private Expr issued(Expr control, Expr index) {
        Layout ax = axi.ax(mw);
        Layout.ExprBuilder b = ax.expr();
        for (Layout.Field f : ax.fields()) {
            b.set(f.name(), f.name().equals("id") ? index : axi.requestControl().get(control, f.name()));
        }
        return b.build();
    }

    /** Each B as one WRITE_RESPONSE: the source's ID, the BRESP, and whether the part was its burst's last. */
    private Stream writeResponses(Remap wr) {
        Expr e = mB.get("id");
        Layout wrc = axi.writeResponseControl();
        Expr control = wrc.expr().set("id", wr.sidOf(e)).set("resp", mB.get("resp")).set("last", wr.headLast(e))
                .build();
        Stream out = mB.map("wr_rsp", beat, beat.expr().set("data", Hw.zeros(axi.dataWidth()))
                .set("control", CommandControl.of(AxiConfig.WRITE_RESPONSE, Hw.zeros(16), control))
                .set("xpuid", wr.xpuOf(e)).set("vc", AxiConfig.RESPONSE_VC).set("tlast", 1).build());
        wr.retire().set(mB.fire());
        wr.retireId().set(e);
        statusCounter("write_responses", out.fire(), "WRITE_RESPONSE commands (one per write part)");
        return out.queue("wr_rsp_q", 4); // depth 4: a 2-deep SyncFifo passes two words in three cycles
    }
    /** Part slots of the read buffer: two per remap entry, shared. */
    private int slots() {
        return 2 * (1 << mw);
    }

    /** A part whose R beats are all in the buffer, waiting to be read out. */
    private Layout donePart() {
        return Layout.of("done_part", Layout.bits("slot", Hw.log2Up(slots())),
                Layout.bits("beats", Hw.log2Up(axi.partBeats()) + 1), Layout.bits("last", 1),
                Layout.bits("xpu", SueMeta.XPU_WIDTH), Layout.bits("id", axi.commandIdWidth()),
                Layout.bits("resp", 2 * axi.partBeats()));
    }

    /**
     * R beats into the buffer: a part takes the lowest free slot with its first beat (R waits while none is free) and
     * keeps it until its READ_RESPONSE's last beat is read out; a part complete at RLAST is queued for read-out.
     */
    private Stream readResponses(Remap rd) {
        int pb = axi.partBeats();
        int bw = Hw.log2Up(pb);
        int slots = slots();
        int sw = Hw.log2Up(slots);
        Mem buffer = mem("rd_buffer", slots * pb, axi.dataWidth(), ReadUnderWrite.READ_FIRST);
        Reg freeSlots = reg("rd_free_slots", slots, BigInteger.ONE.shiftLeft(slots).subtract(BigInteger.ONE));
        List<Reg> slot = new ArrayList<>();
        List<Reg> has = new ArrayList<>();
        List<Reg> index = new ArrayList<>();
        List<Reg> resps = new ArrayList<>();
        for (int i = 0; i < config.remapEntries(); i++) {
            slot.add(reg("rd_slot_" + i, sw, 0));
            has.add(reg("rd_has_slot_" + i, 1, 0));
            index.add(reg("rd_index_" + i, bw, 0));
            resps.add(reg("rd_resps_" + i, 2 * pb, 0));
        }
        Expr e = mR.get("id");
        Expr hasSlot = Hw.select(has, e);
        List<Expr> freeBits = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            freeBits.add(freeSlots.bit(i));
        }
        Expr newSlot = wire("rd_new_slot", Arbiter.firstPick(freeBits));
        Expr s = wire("rd_beat_slot", Hw.mux(hasSlot, Hw.select(slot, e), newSlot));
        Expr blocked = hasSlot.not().and(freeSlots.orR().not());
        Expr k = Hw.select(index, e);
        Expr rlast = mR.get("last");
        Expr gathered = Hw.select(resps, e).or(mR.get("resp").resize(2 * pb).shl(Hw.cat(k, Hw.zeros(1))));
        Layout done = donePart();
        Stream doneIn = Stream.of(this, "rd_done_in", mR.valid().and(rlast).and(blocked.not()), done, done.expr()
                .set("slot", s).set("beats", k.resize(bw + 1).add(1)).set("last", rd.headLast(e))
                .set("xpu", rd.xpuOf(e)).set("id", rd.sidOf(e)).set("resp", gathered).build());
        mR.ready().set(blocked.not().and(rlast.not().or(doneIn.ready())));
        Expr fire = mR.fire();
        buffer.write(fire, Hw.cat(s, k), mR.get("data"));
        // falling through: a part's read-out starts the cycle after its last R beat
        ReadOut out = readOut(doneIn.queueFallThrough("rd_done", slots), buffer);
        Expr taken = Hw.mux(fire.and(hasSlot.not()), Hw.lit(slots, 1).shl(newSlot), Hw.zeros(slots));
        Expr released = Hw.mux(out.release(), Hw.lit(slots, 1).shl(out.slot()), Hw.zeros(slots));
        freeSlots.set(freeSlots.and(taken.not()).or(released));
        for (int i = 0; i < config.remapEntries(); i++) {
            Reg sl = slot.get(i);
            Reg hs = has.get(i);
            Reg ix = index.get(i);
            Reg rs = resps.get(i);
            when(fire.and(e.eq(i)), () -> {
                ix.set(Hw.mux(rlast, Hw.zeros(bw), ix.add(1)));
                rs.set(Hw.mux(rlast, Hw.zeros(2 * pb), gathered));
                hs.set(rlast.not());
                sl.set(s);
            });
        }
        rd.retire().set(fire.and(rlast));
        rd.retireId().set(e);
        statusCounter("read_responses", out.beats().fire().and(out.beats().get("tlast")),
                "READ_RESPONSE commands (one per read part)");
        statusCounter("r_slot_waits", mR.valid().and(blocked), "cycles an R beat waited for a free buffer slot");
        return out.beats();
    }

    /** The READ_RESPONSE beats, and which slot is released as its last beat is read from the buffer. */
    private record ReadOut(Stream beats, Expr release, Expr slot) {
    }

    /** Completed parts read out of the buffer as READ_RESPONSE commands, one beat a cycle. */
    private ReadOut readOut(Stream parts, Mem buffer) {
        int pb = axi.partBeats();
        int bw = Hw.log2Up(pb);
        Layout done = donePart();
        Reg next = reg("rd_out_index", bw, 0); // the part's next beat to read
        Expr beats = parts.get("beats");
        Expr address = Hw.cat(parts.get("slot"), next);
        Stream.RamRead read = Stream.fromRam("rd_out", buffer, address, parts.valid(), Layout.plain("data",
                axi.dataWidth()));
        Expr lastLoad = read.load().and(next.resize(bw + 1).eq(beats.sub(1)));
        parts.ready().set(lastLoad);
        // what the beat in the read register belongs to, loaded with it
        Reg part = reg("rd_out_part", done.width(), 0);
        Reg isLast = reg("rd_out_last", 1, 0);
        when(read.load(), () -> {
            next.set(Hw.mux(lastLoad, Hw.zeros(bw), next.add(1)));
            part.set(parts.payload());
            isLast.set(lastLoad);
        });
        unused("rd_out_slot", done.get(part, "slot"));
        Layout rrc = axi.readResponseControl();
        Expr control = rrc.expr().set("id", done.get(part, "id")).set("last", done.get(part, "last"))
                .set("resp", done.get(part, "resp")).build();
        Expr length = done.get(part, "beats").resize(16).shl(Hw.log2Up(axi.beatBytes()));
        Stream out = read.out().map("rd_rsp", beat, beat.expr().set("data", read.out().get("data"))
                .set("control", CommandControl.of(AxiConfig.READ_RESPONSE, length, control))
                .set("xpuid", done.get(part, "xpu")).set("vc", AxiConfig.RESPONSE_VC).set("tlast", isLast).build());
        return new ReadOut(out, lastLoad, parts.get("slot"));
    }
}
