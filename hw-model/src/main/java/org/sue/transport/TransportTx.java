package org.sue.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.State;
import org.sue.core.Status;
import org.sue.core.Wire;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.SueMeta;

/**
 * Transmit side of one port's transport (docs/protocol.md sections 6.2, 6.3, 6.5 - 6.7): PSNs, the retransmit store,
 * ACK/NACK processing, go-back-N retransmission, the retransmit timeout and the packing buffer's per-destination
 * eligibility.
 *
 * <p>Data path: PDUs from the packing buffer ({@code s_axis}, tuser {@code dst_xpu}, {@code vc}, {@code len}) get the
 * connection's next PSN and are written beat by beat into a ring of bus beats as they leave for the framing
 * ({@code m_axis}); a record per PDU (start beat, destination, VC, length, PSN) goes into a ring of records when its
 * last beat is written. A PDU waits at the input until its beats, a record and a largest PDU's more (kept for a
 * relocation) fit. PDUs of a connection that is being retransmitted are stored but not sent: the retransmission sends
 * them after the older ones.
 *
 * <p>Stages, each the only writer of its tables:
 * <ul>
 * <li><b>writer</b> (new PDUs and relocated ones): {@code next_psn}, the data and record rings, {@code t_send}; closes
 * a destination's window ({@code blocked}) when it sends the {@code windowPdus}-th unacknowledged PDU;</li>
 * <li><b>ACK engine</b> ({@code peer_ack}, one event per cycle): {@code una} (oldest unacknowledged PSN),
 * {@code t_ack}; a NACK queues a retransmission; reopens the window;</li>
 * <li><b>reclaimer</b>: frees the oldest record once {@code una} of its connection passed it, one per cycle, never
 * the record the retransmission is reading; while the store is over half full, has the oldest record of a stalled
 * connection (a timeout since its {@code una} moved) relocated to the tail and frees it once the copy is stored;</li>
 * <li><b>scanner</b>: visits one connection per cycle, queues a retransmission from {@code una} on a timeout
 * (no new PDU, no retransmission and no advancing ACK for {@code rtoCycles}; a connection whose go-back waits is
 * struck without another), counts strikes towards unreachable and recomputes the window bit;</li>
 * <li><b>retransmission</b>: takes queued requests one at a time, walks the records from the oldest (two cycles per
 * record it skips) and sends the connection's PDUs from the requested PSN in PSN order (another lap when relocated
 * records came after younger ones), then clears {@code retransmitting}; {@code t_retx}; a NACK for the connection it
 * walks starts the walk again from the NACK's PSN at the next record; relocations and go-backs take turns;</li>
 * <li><b>ACK-only PDUs</b> asked for on {@code ack_request}: one beat, the byte 0x00, {@code len} 1, PSN 0, VC 0;</li>
 * <li><b>output</b>: packet round robin over retransmission, new PDUs and ACK-only PDUs; at each first beat the
 * receive side is asked ({@code ack_query}) for the {@code op}/{@code rpsn} to carry, which it answers the next cycle
 * ({@code ack_reply}); {@code src_xpu} and {@code partition} are this XPU's.</li>
 * </ul>
 *
 * <p>Connections are {port, XPU} ({@link ConnectionIndex}): every per-connection table and {@code dst_ready} has
 * {@code ports x destinations} rows. {@code dst_ready[c]} (to the packing buffer) is low while c is retransmitting,
 * has {@code windowPdus} or more PDUs unacknowledged, or had a timeout since its una last moved (stalled). After
 * reset the per-connection tables are cleared one row per cycle ({@code init_busy}).
 */
public final class TransportTx extends Component {
    public final Stream in;
    public final Stream out;
    public final Port localXpu;
    public final Port localPartition;
    public final Port dstReady;
    public final Port linkVcReady;
    /**
     * More than one port (null with one): the VCs each connection port's detour route lets start, laid out as
     * {@link #linkVcReady}; a start of a connection whose {@link #detoured} bit is set looks here instead.
     */
    public final Port detourVcReady;
    /** More than one port (null with one): bit c, connection c takes its port's detour route (protocol.md 10.8). */
    public final Port detoured;
    /** The VCs the packing buffer may pick on: link_vc_ready, less a VC a start waits for, none in a start's cycle. */
    public final Port pickVcReady;
    /** A retransmission or ACK-only PDU started under link_vc_ready: its VC (link credit reserved for one frame). */
    public final Flow reserve;
    /** A new PDU picked but held for its connection's go-back, not sent as new: its VC (the reservation returns). */
    public final Flow unreserve;
    /** A PDU's first beat left on m_axis: its VC and length (the link charges its frame). */
    public final Flow charge;
    public final Flow peerAck;
    public final Flow ackQuery;
    public final Flow ackReply;
    public final Stream ackRequest;
    /** A destination declared unreachable (section 6.7): its {port, XPU}, for one cycle. */
    public final Flow dstDown;
    /** An unreachable destination answered again: its {port, XPU}, for one cycle. */
    public final Flow dstUp;
    /**
     * More than one port (null with one): bit h, connection port h's connections go back now (their route left a port
     * that went down, which may have lost what it carried; docs/protocol.md 10.6). The scanner sends each of them
     * with PDUs unacknowledged and no go-back of its own back to una at its next visit, without a strike.
     */
    public final Port hurry;
    /**
     * More than one port (null with one): a connection's {@value #STUCK_STRIKES}th timeout in a row without progress,
     * its {port, XPU}, for one cycle: its way through its port may be broken while the port is up, and the router may
     * give it another (docs/protocol.md 10.8).
     */
    public final Flow stuck;

    /** Timeouts in a row without progress that report a connection {@link #stuck} (at most unreachableTimeouts). */
    public static final int STUCK_STRIKES = 2;

    /** Bits of a connection's strike count. */
    private static final int STRIKE_WIDTH = 4;
    /**
     * The scanner's row of a connection: its strikes, and its clock for a waiting go-back (the flips of the scanner's
     * phase bit it has seen since its last timeout, up to three; the phase at its last visit).
     */
    private static final Layout SCAN_ENTRY = Layout.of("scan_entry", Layout.bits("strikes", STRIKE_WIDTH),
            Layout.bits("flips", 2), Layout.bits("phase", 1));

    private final TransportConfig config;
    private final int cw;       // connection index bits
    private final int pw;       // ring pointer bits (with the wrap bit)
    private final Layout record;
    private final Layout request;

    public TransportTx(TransportConfig config) {
        super(config);
        this.config = config;
        int d = config.connections();
        cw = config.connectionWidth();
        int aw = Hw.log2Up(config.storeBeats());
        pw = aw + 1;
        record = Layout.of("retx_record", Layout.bits("addr", aw), Layout.bits("dst", cw),
                Layout.bits("vc", SueMeta.VC_WIDTH), Layout.bits("len", SueMeta.LEN_WIDTH),
                Layout.bits("psn", SueMeta.PSN_WIDTH));
        request = Layout.of("retx_request", Layout.bits("conn", cw), Layout.bits("from", SueMeta.PSN_WIDTH),
                Layout.bits("probe", 1));
        StreamConfig sc = new StreamConfig(config.busWidth(), SueMeta.WIDTH);
        in = Stream.slave(this, sc);
        out = Stream.master(this, sc);
        localXpu = in("local_xpu", SueMeta.XPU_WIDTH);
        localPartition = in("local_partition", SueMeta.PARTITION.width());
        dstReady = out("dst_ready", d); // one bit per connection: the packing buffer's per-destination eligibility
        // each port's flow control: the VCs it may send on now, port p's in bits 4p + 3 .. 4p
        linkVcReady = in("link_vc_ready", SueMeta.VCS * config.ports());
        detourVcReady = config.ports() == 1 ? null : in("detour_vc_ready", SueMeta.VCS * config.ports());
        detoured = config.ports() == 1 ? null : in("detoured", d);
        pickVcReady = out("pick_vc_ready", SueMeta.VCS);
        // the port says whose link credit: each port has its own flow control; with more ports the XPU too, since a
        // connection may take another port than its own (docs/protocol.md 10.8)
        reserve = Flow.master(this, "reserve", linkEvent("link_vc"));
        unreserve = Flow.master(this, "unreserve", linkEvent("link_vc"));
        charge = Flow.master(this, "charge", linkEvent("link_charge", Layout.bits("len", SueMeta.LEN_WIDTH)));
        peerAck = Flow.slave(this, "peer_ack", AckLinks.PEER_ACK);
        ackQuery = Flow.master(this, "ack_query", AckLinks.ACK_QUERY);
        ackReply = Flow.slave(this, "ack_reply", AckLinks.ACK_REPLY);
        ackRequest = Stream.slave(this, "ack_request", AckLinks.ACK_REQUEST);
        Layout dstEvent = Layout.of("dst_event", Layout.bits("port", SueMeta.PORT.width()),
                Layout.bits("xpu", SueMeta.XPU_WIDTH));
        dstDown = Flow.master(this, "dst_down", dstEvent);
        dstUp = Flow.master(this, "dst_up", dstEvent);
        hurry = config.ports() == 1 ? null : in("hurry", config.ports());
        stuck = config.ports() == 1 ? null : Flow.master(this, "stuck", dstEvent);

        Init init = initSweep();
        Clock clock = clock();
        Tables tables = tables(init);
        Store store = store();
        Retransmitting retransmitting = new Retransmitting();
        Reg unreachable = reg("dst_unreachable_reg", config.connections(), 0);
        AckEvent ack = ackEngine(init, tables, clock, retransmitting, unreachable);
        Scan scan = scanner(init, tables, clock, retransmitting, ack);
        reachability(unreachable, ack, scan);
        Reg stalled = stalled(ack, scan);
        Handoffs handoffs = new Handoffs();
        Walk walk = walk(init, retransmitQueue(ack.request(), scan.request()), tables, store, clock, ack, scan,
                handoffs);
        List<Stream> resent = resend(walk.sending()); // to the wire, and relocations back into the store
        Written written = writer(admission(init, tables, retransmitting), resent.get(1), tables, store, clock,
                handoffs);
        reclaimer(tables, store, written, walk, stalled, handoffs);
        Stream ackOnly = ackOnlyPdus();
        eligibility(init, retransmitting, stalled, written, ack, scan, walk);
        output(resent.get(0), written.pdus(), ackOnly);
        status(store, retransmitting);
    }

    // ---- what the stages hand each other ------------------------------------------------------------------------

    /** The init sweep: busy after reset while it clears row {@code idx} of every per-connection table. */
    private record Init(Reg busy, Reg idx) {
    }

    /** The free-running cycle count, and now - rtoCycles and now - probeCycles counted beside it. */
    private record Clock(Reg now, Reg rtoAgo, Reg probeAgo) {
    }

    /** A per-connection table and its one write port; during the init sweep the port writes zero at the sweep's row. */
    private record Table(Mem mem, Wire enable, Wire address, Wire data, Init init) {
        void write(Expr en, Expr addr, Expr value) {
            enable.set(init.busy().or(en));
            address.set(Hw.mux(init.busy(), init.idx(), addr));
            data.set(Hw.mux(init.busy(), Hw.zeros(data.width()), value));
        }
    }

    /**
     * The per-connection tables, each written by one stage: next_psn and t_send by the writer, una and t_ack by the
     * ACK engine, t_retx by the walk, strikes (timeouts since the last advancing ACK, and the scanner's clock for a
     * waiting go-back: {@link #SCAN_ENTRY}) by the scanner.
     */
    private record Tables(Table nextPsn, Table una, Table tSend, Table tAck, Table tRetx, Table strikes) {
    }

    /** The retransmit store: the ring of bus beats and the ring of PDU records, with their pointers. */
    private record Store(Mem data, Mem records, Reg wp, Reg free, Reg rt, Reg rh, Reg recordFree) {
    }

    /** A new PDU in the writer's register stage, its connection's next PSN and una read for it. */
    private record NewPdu(Stream staged, Expr beats, Expr psnRead, Expr unaRead, Expr retransmitting) {
    }

    /**
     * The writer's cycle: the new PDUs it sends, a beat stored ({@code beat}), a record committed ({@code ends}) of
     * connection {@code conn}, and a new PDU's start closing its connection's window ({@code windowFull}).
     */
    private record Written(Stream pdus, Expr beat, Expr ends, Expr conn, Expr windowFull) {
    }

    /**
     * A go-back to queue where {@code push}: connection {@code conn} from PSN {@code from}; a {@code probe} sends only
     * that PDU.
     */
    private record Request(Expr push, Expr conn, Expr from, Expr probe) {
    }

    /**
     * The ACK engine's event of this cycle, of connection {@code conn}, everything below {@code acked} received: a
     * NACK inside the window ({@code nackInWindow}), for a connection already retransmitting ({@code nackQueued}); the
     * go-back it queues; its window reopening ({@code unblock}); una moving ({@code moves}: progress), of an
     * unreachable destination ({@code recovered}).
     */
    private record AckEvent(Expr conn, Expr acked, Expr nackInWindow, Expr nackQueued, Request request,
                            Expr unblock, Expr moves, Expr recovered) {
    }

    /**
     * The scanner's connection of this cycle ({@code conn}, where {@code valid}): its window bit, its timeout, whether
     * it is unreachable after this visit ({@code down}) and was declared so now ({@code declared}); whether the walk
     * moves ({@code walkMoving}, set by the walk).
     */
    private record Scan(Expr valid, Expr conn, Expr windowFull, Request request, Expr down, Expr declared,
                        Wire walkMoving) {
    }

    /** The walk's states: waiting for a request, reading a record, checking it, sending its PDU. */
    private enum WalkState { IDLE, READ, CHECK, SEND }

    /**
     * The retransmission walk: {@code active} on connection {@code conn} at record {@code idx}; going to the oldest
     * record next ({@code toOldest}: a request taken, a restart from a NACK, a new lap), the go-back's end
     * ({@code done}); what it sends.
     */
    private record Walk(Expr active, Expr conn, Expr idx, Expr toOldest, Expr done, Sending sending) {
    }

    /**
     * A resent PDU's beats read from the data ring, the beats still to read and its record; a relocation's go back
     * into the store.
     */
    private record Sending(Stream.RamRead beats, Expr remaining, Expr record, Expr relocate) {
    }

    /**
     * A NACK for the connection being walked ({@code nacked}): the walk starts again from {@code from}
     * ({@code restarting}) at its next record boundary ({@code pending} until then).
     */
    private record Restart(Expr nacked, Expr pending, Expr restarting, Expr from) {
    }

    // ---- the state -------------------------------------------------------------------------------------------

    /** After reset: zero one row per cycle of every per-connection table, each through its writer's port. */
    private Init initSweep() {
        Reg busy = reg("init_busy_reg", 1, 1);
        Reg idx = reg("init_idx", cw, 0);
        when(busy, () -> {
            idx.set(idx.add(1));
            when(idx.eq(config.connections() - 1), () -> busy.set(0));
        });
        status("init_busy", Status.Kind.STATE, busy, "High after reset while the per-connection tables are cleared,"
                + " one row a cycle; no PDU is taken meanwhile.");
        return new Init(busy, idx);
    }

    /** The cycle count the tables' times are taken from. */
    private Clock clock() {
        Reg now = reg("now", TransportConfig.TIME_WIDTH, 0);
        now.set(now.add(1));
        // now - rtoCycles, counted beside now: the scanner's timeout is a range check, not a subtraction
        long timeMask = (1L << TransportConfig.TIME_WIDTH) - 1;
        Reg rtoAgo = reg("rto_ago", TransportConfig.TIME_WIDTH, -(long) config.rtoCycles() & timeMask);
        rtoAgo.set(rtoAgo.add(1));
        Reg probeAgo = reg("probe_ago", TransportConfig.TIME_WIDTH, -(long) config.probeCycles() & timeMask);
        probeAgo.set(probeAgo.add(1));
        return new Clock(now, rtoAgo, probeAgo);
    }

    /** The per-connection tables, zeroed by the init sweep through their write ports. */
    private Tables tables(Init init) {
        int d = config.connections();
        return new Tables(table(mem("next_psn", d, SueMeta.PSN_WIDTH, ReadUnderWrite.WRITE_FIRST), init),
                table(mem("una", d, SueMeta.PSN_WIDTH, ReadUnderWrite.WRITE_FIRST), init),
                table(mem("t_send", d, TransportConfig.TIME_WIDTH, ReadUnderWrite.READ_FIRST), init),
                table(mem("t_ack", d, TransportConfig.TIME_WIDTH, ReadUnderWrite.READ_FIRST), init),
                table(mem("t_retx", d, TransportConfig.TIME_WIDTH, ReadUnderWrite.READ_FIRST), init),
                table(mem("strikes", d, SCAN_ENTRY.width(), ReadUnderWrite.WRITE_FIRST), init));
    }

    private Table table(Mem m, Init init) {
        Wire en = wire(m.name() + "_we", 1);
        Wire addr = wire(m.name() + "_wa", m.addressWidth());
        Wire value = wire(m.name() + "_wd", m.width());
        m.write(en, addr, value);
        return new Table(m, en, addr, value, init);
    }

    /** The store's rings and pointers; the writer and the reclaimer step them. */
    private Store store() {
        return new Store(mem("store_beat_ring", config.storeBeats(), config.busWidth(), ReadUnderWrite.READ_FIRST),
                mem("store_record_ring", config.storeBeats(), record.width(), ReadUnderWrite.READ_FIRST),
                reg("store_wp", pw, 0), // data ring: next beat written
                reg("store_free_beats", pw, config.storeBeats()), // beats not held (storeBeats - (wp - oldest held))
                reg("store_rt", pw, 0), // record ring: next record written
                reg("store_rh", pw, 0), // record ring: oldest record still held
                reg("store_record_free", 1, 1)); // rt - rh != storeBeats, formed beside the pointers' steps
    }

    /**
     * {@code retransmitting}: a bit per connection, set as a go-back is queued, cleared as its walk ends; and
     * registers that each follow one bit of it.
     */
    private final class Retransmitting {
        final Reg bits = reg("retransmitting", config.connections(), 0);
        private final List<Follower> followers = new ArrayList<>();

        /**
         * A register equal to {@code bits[i]} in every cycle, where {@code i} changes only to {@code loadIdx} when
         * {@code load} (as TransportRx's flags are followed): the bit without a multiplexer over all connections
         * after {@code i}.
         */
        Expr follow(String name, Expr load, Expr loadIdx, Expr i) {
            Reg copy = reg(name, 1, 0);
            followers.add(new Follower(copy, load, loadIdx, i));
            return copy;
        }

        /** The next value: the queued go-backs set their bits, the walk's end clears its connection's. */
        void update(Request ack, Request scan, Walk walk) {
            int d = config.connections();
            Expr set = Hw.mux(ack.push(), onehot(ack.conn(), d), Hw.zeros(d))
                    .or(Hw.mux(scan.push(), onehot(scan.conn(), d), Hw.zeros(d)));
            Expr clear = Hw.mux(walk.done(), onehot(walk.conn(), d), Hw.zeros(d));
            bits.set(bits.or(set).and(clear.not()));
            for (Follower f : followers) {
                f.copy().set(Hw.mux(f.load(), next(bits.shr(f.loadIdx()).bit(0), f.loadIdx(), ack, scan, walk),
                        next(f.copy(), f.i(), ack, scan, walk)));
            }
        }

        /** Bit {@code j} of the next value, given its value now. */
        private Expr next(Expr now, Expr j, Request ack, Request scan, Walk walk) {
            Expr set = ack.push().and(ack.conn().eq(j)).or(scan.push().and(scan.conn().eq(j)));
            if (config.connections() != 1 << cw) { // a one-hot set past the last row sets nothing
                set = set.and(j.lt(config.connections()));
            }
            return now.or(set).and(walk.done().and(walk.conn().eq(j)).not());
        }
    }

    private record Follower(Reg copy, Expr load, Expr loadIdx, Expr i) {
    }

    /**
     * Signals between stages built out of order (the walk before the writer and the reclaimer), each driven by the
     * stage named. About relocations: the
     * head record to relocate ({@code asked}, the reclaimer), taken ({@code taken}, the walk), its copy stored
     * ({@code committed}, the writer); and a PDU of {@code writingConn} under way in the writer ({@code writing}: its
     * first beat taken now or before, its last not yet), which a go-back's end waits for.
     */
    private final class Handoffs {
        final Wire asked = wire("reloc_asked", 1);
        final Wire head = wire("reloc_head", record.width());
        final Wire headBeats = wire("reloc_head_beats", beatsWidth());
        final Wire taken = wire("reloc_taken", 1);
        final Wire committed = wire("reloc_committed", 1);
        final Wire writing = wire("new_writing", 1);
        final Wire writingConn = wire("new_writing_conn", cw);
    }

    // ---- new PDUs ------------------------------------------------------------------------------------------------

    /** New PDUs enter a register stage as their connection's next PSN and una are read, once the sweep is done. */
    private NewPdu admission(Init init, Tables tables, Retransmitting retransmitting) {
        Stream gated = in.haltWhen("new_in", init.busy());
        Reg inFirst = reg("new_in_first", 1, 1);
        when(gated.fire(), () -> inFirst.set(gated.tlast()));
        Expr lookup = gated.fire().and(inFirst);
        Expr inConn = conn("new_in_conn", SueMeta.PORT.of(gated.tuser()), SueMeta.DST_XPU.of(gated.tuser()));
        Expr psnRead = tables.nextPsn().mem().readSync("new_next_psn", inConn, lookup);
        Expr unaRead = tables.una().mem().readSync("new_una", inConn, lookup);
        Stream staged = gated.stage("new_pdu");
        // the room a new PDU needs: its beats and a largest PDU's more, kept free for a relocation (section 6.6),
        // formed as it enters the stage, so the room check compares two registers
        Reg beats = regNoReset("new_beats", beatsWidth() + 1);
        when(gated.fire(), () -> beats.set(beatsOf(SueMeta.LEN.of(gated.tuser())).resize(beatsWidth() + 1)
                .add(relocationReserve())));
        Expr user = staged.tuser();
        Expr dst = wire("new_staged_conn", conn("new_staged_conn", SueMeta.PORT.of(user), SueMeta.DST_XPU.of(user)));
        Expr dstRetransmitting = retransmitting.follow("new_conn_retransmitting", gated.fire(), inConn, dst);
        return new NewPdu(staged, beats, psnRead, unaRead, dstRetransmitting);
    }

    /**
     * New PDUs and relocated ones: room check, store write, record commit; a new PDU also gets its PSN and goes into
     * the tables, and is sent unless held for its connection's go-back; a relocated one keeps its PSN and is not sent.
     */
    private Written writer(NewPdu p, Stream relocated, Tables tables, Store store, Clock clock,
                           Handoffs handoffs) {
        // a relocation waits for no new PDU that waits for room: each input is checked before the choice, which is
        // a register, changed between PDUs while nothing is offered or as a PDU ends
        Stream newIn = withRoom("new", p.staged(), p.beats(), store);
        Stream relocIn = withRoom("reloc", relocated, handoffs.headBeats, store);
        Reg isReloc = reg("new_relocated", 1, 0);
        Stream admitted = Stream.mux("new_src", List.of(newIn, relocIn), isReloc);
        Reg first = reg("new_first", 1, 1);
        when(first.and(admitted.valid().not()).or(admitted.fire().and(admitted.tlast())),
                () -> isReloc.set(relocIn.valid()));
        Expr user = admitted.tuser();
        Expr dst = wire("new_conn", conn("new_conn", SueMeta.PORT.of(user), SueMeta.DST_XPU.of(user)));

        Reg heldPsn = regNoReset("new_psn_held", SueMeta.PSN_WIDTH);
        Reg heldStart = regNoReset("new_start_held", pw - 1);
        Reg heldBack = reg("new_held_back_reg", 1, 0);
        Expr wp = store.wp().bits(pw - 2, 0);
        // a relocated PDU keeps its PSN; the transport assigns a new PDU's
        Expr psn = wire("new_psn", Hw.mux(first, Hw.mux(isReloc, SueMeta.PSN.of(user), p.psnRead()), heldPsn));
        Expr start = Hw.mux(first, wp, heldStart);
        // a first beat offered to the output and not yet taken stays offered (the arbiter holds it): once offered it
        // is sent even if its connection starts a go-back meanwhile (the go-back sends it again, after the older ones)
        Reg offered = reg("new_offered", 1, 0);
        Expr heldBack1 = wire("new_held_back", Hw.mux(first, isReloc.or(p.retransmitting().and(offered.not())),
                heldBack));
        Expr beat = wire("new_beat", admitted.fire());
        Expr starts = wire("new_starts", beat.and(first));
        Expr fresh = starts.and(isReloc.not());
        Expr ends = wire("new_ends", beat.and(admitted.tlast()));
        when(beat, () -> first.set(admitted.tlast()));
        when(starts, () -> {
            heldPsn.set(psn);
            heldStart.set(wp);
            heldBack.set(heldBack1);
        });
        // store: every beat, then the record with the last one
        store.data().write(beat, wp, admitted.tdata());
        when(beat, () -> store.wp().set(store.wp().add(1)));
        store.records().write(ends, store.rt().bits(pw - 2, 0), record.expr().set("addr", start).set("dst", dst)
                .set("vc", SueMeta.VC.of(user)).set("len", SueMeta.LEN.of(user)).set("psn", psn).build());
        when(ends, () -> store.rt().set(store.rt().add(1)));
        // tables: the next PSN and the send time (the init sweep shares the write port)
        tables.nextPsn().write(fresh, dst, p.psnRead().add(1));
        tables.tSend().write(fresh, dst, clock.now());
        // outstanding = psnRead + 1 - unaRead >= window: the difference d = psnRead - unaRead is at least window - 1
        // and not all ones (d + 1 wraps to 0 there)
        Expr d = Hw.subCarrySelect(p.psnRead(), p.unaRead());
        Expr windowFull = wire("new_window_full", fresh.and(d.ge(config.windowPdus() - 1)).and(d.andR().not()));

        Stream sent = admitted.throwWhen("new_held", heldBack1).with("new_sent", Stream.TUSER,
                SueMeta.LAYOUT.with(user, "psn", psn));
        offered.set(sent.valid().and(sent.ready().not()));
        Reg midPdu = reg("new_mid_pdu", 1, 0); // a PDU's first beat was taken, its last not yet
        when(beat, () -> midPdu.set(admitted.tlast().not()));
        // a PDU already started (its first beat taken now or before) must be in the records before a go-back ends;
        // one still waiting for room is not: it is decided when it starts
        handoffs.writing.set(beat.or(midPdu));
        handoffs.writingConn.set(dst);
        handoffs.committed.set(ends.and(isReloc));
        statusCounter("pdus_sent", fresh, "New PDUs given a PSN and stored, sent at once or held for their"
                + " connection's go-back.");
        statusCounter("pdus_held_for_retransmission", fresh.and(heldBack1), "New PDUs stored but not sent because"
                + " their connection was retransmitting (its go-back sends them).");
        statusCounter("pdus_relocated", starts.and(isReloc), "Unacknowledged PDUs of a connection with a timeout"
                + " moved from the store's head to its tail, so the records behind them could be freed.");
        unreserve.valid().set(fresh.and(heldBack1));
        unreserve.field("vc").set(SueMeta.VC.of(user));
        unreserve.field("port").set(SueMeta.PORT.of(user));
        connectionXpu(unreserve, user);
        return new Written(sent, beat, ends, dst, windowFull);
    }

    /**
     * A packet stream whose first beat waits until its {@code beats} and a record fit in the store; {@code beats}
     * holds while the first beat is offered.
     */
    private Stream withRoom(String name, Stream s, Expr beats, Store store) {
        Reg first = reg(name + "_room_first", 1, 1);
        when(s.fire(), () -> first.set(s.tlast()));
        int bw = beats.width(); // free >= beats: any of free's bits above the count's, or the low bits compared
        Reg free = store.free();
        Expr enough = pw > bw ? free.bits(pw - 1, bw).orR().or(free.bits(bw - 1, 0).ge(beats))
                : free.resize(bw).ge(beats.resize(bw));
        Expr room = wire(name + "_room", enough.and(store.recordFree()));
        return s.haltWhen(name + "_admitted", first.and(room.not()));
    }

    // ---- acknowledgements and timeouts ---------------------------------------------------------------------------

    /** peer_ack: one event per cycle; read una and next PSN, then decide and write in the next cycle. */
    private AckEvent ackEngine(Init init, Tables tables, Clock clock, Retransmitting retransmitting,
                               Reg unreachable) {
        Expr evConnIn = conn("ack_conn_in", peerAck.field("port"), peerAck.field("xpu"));
        Expr evIn = peerAck.valid().and(init.busy().not());
        Expr unaRead = tables.una().mem().readSync("ack_una", evConnIn, evIn);
        Expr nextRead = tables.nextPsn().mem().readSync("ack_next_psn", evConnIn, evIn);
        Reg ev = reg("ack_ev_valid", 1, 0);
        Reg evConn = regNoReset("ack_ev_conn", cw);
        Reg evOp = regNoReset("ack_ev_op", SueMeta.OP.width());
        Reg evRpsn = regNoReset("ack_ev_rpsn", SueMeta.PSN_WIDTH);
        Reg evRpsnP1 = regNoReset("ack_ev_rpsn_p1", SueMeta.PSN_WIDTH); // rpsn + 1 formed as the event enters
        ev.set(evIn);
        when(evIn, () -> {
            evConn.set(evConnIn);
            evOp.set(peerAck.field("op"));
            evRpsn.set(peerAck.field("rpsn"));
            evRpsnP1.set(peerAck.field("rpsn").add(1));
        });
        Expr isAck = wire("ack_is_ack", ev.and(evOp.eq(config.opAck())));
        Expr isNack = wire("ack_is_nack", ev.and(evOp.eq(config.opNack())));
        Expr acked = wire("ack_cumulative", Hw.mux(isAck, evRpsnP1, evRpsn)); // first PSN not yet received
        // acked - una <= next - una, and acked - una != 0, as compares without the subtractions
        Expr inWindow = wire("ack_in_window", Hw.inCircularRange(acked, unaRead, nextRead));
        Expr moves = wire("ack_moves", isAck.or(isNack).and(inWindow).and(acked.ne(unaRead)));
        Expr busy = retransmitting.follow("ack_ev_retransmitting", evIn, evConnIn, evConn);
        // an unreachable destination that acknowledges again gets the rest of its PDUs at once, as after a NACK
        Expr recovered = wire("dst_recovered", moves.and(unreachable.shr(evConn).bit(0)));
        Expr resend = wire("ack_resend", isNack.and(inWindow).or(recovered).and(acked.ne(nextRead))
                .and(busy.not()));
        Expr nackInWindow = isNack.and(inWindow);
        tables.una().write(moves, evConn, acked);
        tables.tAck().write(moves, evConn, clock.now());
        Expr unblock = wire("ack_window_open", isAck.or(isNack).and(inWindow)
                .and(Hw.subCarrySelect(nextRead, acked).lt(config.windowPdus())));
        statusCounter("acks_received", isAck, "ACKs received on peer_ack (in the window or not).");
        statusCounter("nacks_received", isNack, "NACKs received on peer_ack (in the window or not).");
        statusCounter("acks_ignored", isAck.or(isNack).and(inWindow.not()), "ACKs and NACKs outside the window"
                + " (already acknowledged, or beyond the PSNs sent), ignored.");
        return new AckEvent(evConn, acked, nackInWindow, nackInWindow.and(busy), new Request(resend, evConn, acked,
                Hw.bool(false)), unblock, moves, recovered);
    }

    /** One connection per cycle: timeout and window bit. */
    private Scan scanner(Init init, Tables tables, Clock clock, Retransmitting retransmitting, AckEvent ack) {
        Request ackRequest = ack.request();
        Reg idx = reg("scan_idx", cw, 0);
        Reg prev = regNoReset("scan_prev", cw);
        Reg valid = reg("scan_valid", 1, 0);
        Expr go = init.busy().not();
        Expr next = tables.nextPsn().mem().readSync("scan_next_psn", idx, go);
        Expr oldest = tables.una().mem().readSync("scan_una", idx, go);
        Expr sent = tables.tSend().mem().readSync("scan_t_send", idx, go);
        Expr ackd = tables.tAck().mem().readSync("scan_t_ack", idx, go);
        Expr resent = tables.tRetx().mem().readSync("scan_t_retx", idx, go);
        Expr read = tables.strikes().mem().readSync("scan_strikes", idx, go);
        Expr strikes = SCAN_ENTRY.get(read, "strikes");
        valid.set(go);
        when(go, () -> prev.set(idx));
        Expr outstanding = wire("scan_outstanding", Hw.subCarrySelect(next, oldest));
        // an unreachable destination is probed after probeCycles without progress, a reachable one after rtoCycles
        Expr wasDown = wire("scan_was_down", strikes.ge(config.unreachableTimeouts()));
        Function<Expr, Expr> quietSince = ago -> older(ago, clock, sent).and(older(ago, clock, ackd))
                .and(older(ago, clock, resent));
        Expr quiet = wire("scan_quiet", Hw.mux(wasDown, quietSince.apply(clock.probeAgo()),
                quietSince.apply(clock.rtoAgo())));
        Wire hurriedDeferred = hurry == null ? null : wire("scan_hurried_deferred", 1);
        Expr hurried = hurried(idx, prev, valid, hurriedDeferred);
        Expr overdue = valid.and(next.ne(oldest)).and(quiet.or(hurried));
        Expr goingBack = retransmitting.follow("scan_prev_retransmitting", go, idx, prev);
        Expr timeout = wire("scan_timeout", overdue.and(goingBack.not()));
        // one request per cycle: the ACK engine's goes first, this one again
        Expr deferred = timeout.and(ackRequest.push());
        if (hurriedDeferred != null) {
            hurriedDeferred.set(deferred);
        }
        when(go, () -> idx.set(Hw.mux(deferred, prev, idx.add(1))));
        Expr push = wire("scan_resend", timeout.and(deferred.not()));
        // a go-back that sent nothing for as long, while the walk as a whole is held too, is a timeout without another
        // go-back: the link holds it (LLR in INIT, a VC paused), and a peer that never lets it go must still be
        // declared unreachable (section 6.7); one queued behind go-backs that move is not struck. Its timer: three
        // flips of a phase bit since its last timeout, more than rtoCycles and at most half as long again
        Wire walkMoving = wire("scan_walk_moving", 1); // the walk is idle, or found a PDU to send or ended a go-back
        Expr phase = rtoPhase();
        Expr seen = SCAN_ENTRY.get(read, "flips");
        Expr flips = wire("scan_phase_flips", Hw.mux(SCAN_ENTRY.get(read, "phase").ne(phase).and(seen.ne(3)),
                seen.add(1).resize(2), seen));
        Expr waited = wire("scan_waited", overdue.and(goingBack).and(walkHeld(walkMoving)).and(flips.eq(3)));
        statusCounter("timeouts", push.and(quiet), "Go-backs queued by the retransmit timeout (no new PDU,"
                + " retransmission or advancing ACK on a connection for rtoCycles; probes of unreachable destinations"
                + " included).");
        if (hurry != null) {
            statusCounter("hurried_go_backs", push.and(quiet.not()), "Go-backs queued because the connection's route"
                    + " left a port that went down (hurry), before its retransmit timeout.");
        }
        // strikes: timeouts since the last advancing ACK (one within rtoCycles, seen at a visit: the scan comes round
        // at least twice in rtoCycles), saturating
        // t_ack read in the cycle the ACK engine wrote it is the old time: that ACK counts too
        Reg moved = reg("scan_ack_moved", 1, 0);
        Reg movedConn = regNoReset("scan_ack_moved_conn", cw);
        moved.set(ack.moves());
        movedConn.set(ack.conn());
        Expr progress = wire("scan_progress", old(clock, ackd).not().or(moved.and(movedConn.eq(prev))));
        Expr struck = Hw.mux(strikes.eq((1 << STRIKE_WIDTH) - 1), strikes, strikes.add(1).resize(STRIKE_WIDTH));
        Expr strike = push.and(quiet).or(waited); // a hurried go-back is no timeout
        Expr strikesNext = wire("scan_strikes_next", Hw.mux(progress, Hw.zeros(STRIKE_WIDTH),
                Hw.mux(strike, struck, strikes)));
        tables.strikes().write(valid, prev, SCAN_ENTRY.expr().set("strikes", strikesNext)
                .set("flips", Hw.mux(strike, Hw.zeros(2), flips)).set("phase", phase).build());
        if (stuck != null) {
            int stuckAt = Math.min(STUCK_STRIKES, config.unreachableTimeouts());
            event(stuck, wire("scan_stuck", strike.and(strikesNext.eq(stuckAt))), prev);
        }
        Expr down = wire("scan_down", valid.and(strikesNext.ge(config.unreachableTimeouts())));
        Expr declared = wire("scan_declared", strike.and(strikes.eq(config.unreachableTimeouts() - 1)));
        statusCounter("go_back_waits", waited, "Timeouts of a connection whose go-back sent nothing for rtoCycles"
                + " (held by the link): a strike towards unreachable, no new go-back.");
        statusCounter("probes", push.and(down), "Probes of unreachable destinations: one PDU, the oldest"
                + " unacknowledged, sent again after probeCycles without progress.");
        return new Scan(valid, prev, outstanding.ge(config.windowPdus()), new Request(push, prev, oldest, down),
                down, declared, walkMoving);
    }

    /**
     * Whether the scanner's connection {@code prev} is hurried (more ports; {@link #hurry}): bit h of {@code hurry}
     * marks connection port h until the scan has come round once, to the connection before the one it read next
     * ({@code idx}) when the hurry came; a visit deferred for the ACK engine's request does not end it.
     */
    private Expr hurried(Expr idx, Expr prev, Expr valid, Expr deferred) {
        if (hurry == null) {
            return Hw.bool(false);
        }
        Expr pending = Hw.bool(false);
        int xw = cw - config.portWidth(); // a connection index is {port, XPU}
        for (int h = 0; h < config.ports(); h++) {
            Reg marked = reg("hurry_pending_" + h, 1, 0);
            Reg until = regNoReset("hurry_until_" + h, cw);
            Expr last = valid.and(prev.eq(until)).and(deferred.not());
            when(hurry.bit(h), () -> {
                marked.set(Hw.bool(true));
                until.set(idx.sub(1));
            }).elseWhen(last, () -> marked.set(Hw.bool(false)));
            pending = pending.or(marked.and(prev.bits(cw - 1, xw).eq(h)));
        }
        return wire("scan_hurried", pending);
    }

    /** A bit that flips every rtoCycles / 2: the scanner visits every connection once between flips. */
    private Expr rtoPhase() {
        int half = config.rtoCycles() / 2;
        int w = Hw.log2Up(half);
        Reg count = reg("scan_phase_count", w, 0);
        Reg phase = reg("scan_phase", 1, 0);
        Expr end = count.eq(half - 1);
        count.set(Hw.mux(end, Hw.zeros(w), count.add(1)));
        when(end, () -> phase.set(phase.not()));
        return phase;
    }

    /**
     * High once the walk has been busy for rtoCycles without finding a PDU to send or ending its go-back
     * ({@code moving}, taken a cycle late: the walk's decisions are long paths).
     */
    private Expr walkHeld(Expr moving) {
        int w = Hw.log2Up(config.rtoCycles() + 1);
        Reg late = reg("walk_moving_late", 1, 1);
        Reg cycles = reg("walk_held_cycles", w, 0);
        Reg held = reg("walk_held", 1, 0);
        late.set(moving);
        cycles.set(Hw.mux(late.or(held), Hw.zeros(w), cycles.add(1)));
        held.set(late.not().and(held.or(cycles.eq(config.rtoCycles() - 1))));
        return held;
    }

    /**
     * {@code dst_unreachable}, a bit per connection: set as the scanner declares it, cleared when its scan sees an
     * advancing ACK or the ACK engine moves its una; {@code dst_down} and {@code dst_up} report the changes.
     */
    private void reachability(Reg bits, AckEvent ack, Scan scan) {
        int d = config.connections();
        Expr scanBit = onehot(scan.conn(), d);
        Expr afterScan = Hw.mux(scan.valid(), Hw.mux(scan.down(), bits.or(scanBit), bits.and(scanBit.not())), bits);
        bits.set(Hw.mux(ack.moves(), afterScan.and(onehot(ack.conn(), d).not()), afterScan));
        event(dstDown, scan.declared(), scan.conn());
        event(dstUp, ack.recovered(), ack.conn());
        status("dst_unreachable", Status.Kind.STATE, bits, "Destinations declared unreachable (bit c: connection c,"
                + " {port, XPU}): unreachableTimeouts timeouts in a row without an advancing ACK; cleared when one"
                + " comes.");
        statusCounter("destinations_lost", scan.declared(), "Destinations declared unreachable.");
        statusCounter("destinations_back", ack.recovered(), "Unreachable destinations that acknowledged again.");
    }

    /**
     * {@code dst_stalled}, a bit per connection: set by a timeout, cleared when its una moves. A stalled connection
     * takes no new PDU and its oldest records do not hold up the store (section 6.7); the unreachable ones are among
     * them.
     */
    private Reg stalled(AckEvent ack, Scan scan) {
        int d = config.connections();
        Reg bits = reg("dst_stalled", d, 0);
        Expr afterScan = Hw.mux(scan.request().push(), bits.or(onehot(scan.conn(), d)), bits);
        bits.set(Hw.mux(ack.moves(), afterScan.and(onehot(ack.conn(), d).not()), afterScan));
        return bits;
    }

    private void event(Flow f, Expr valid, Expr conn) {
        f.valid().set(valid);
        f.field("port").set(ConnectionIndex.port(config, conn, SueMeta.PORT.width()));
        f.field("xpu").set(ConnectionIndex.xpu(config, conn, SueMeta.XPU_WIDTH));
    }

    /** A timestamp older than the timeout: now - t > rtoCycles, i.e. t is not in [now - rtoCycles, now]. */
    private static Expr old(Clock clock, Expr t) {
        return older(clock.rtoAgo(), clock, t);
    }

    /** A timestamp older than {@code ago}, a count of now - n: t is not in [now - n, now]. */
    private static Expr older(Expr ago, Clock clock, Expr t) {
        return Hw.inCircularRange(t, ago, clock.now()).not();
    }

    // ---- retransmission ----------------------------------------------------------------------------------------

    /** The queued go-backs, one per connection at most: the ACK engine's first in a cycle with both. */
    private Stream retransmitQueue(Request ack, Request scan) {
        Stream push = Stream.of(this, "retx_push", ack.push().or(scan.push()), request,
                Hw.mux(ack.push(), requestWord(ack), requestWord(scan)));
        unused("retx_never_full", push.ready()); // a connection is queued at most once (retransmitting bit)
        return push.queue("retx_requests", config.connections());
    }

    private Expr requestWord(Request r) {
        return request.expr().set("conn", r.conn()).set("from", r.from()).set("probe", r.probe()).build();
    }

    /**
     * Retransmission: one request at a time; walk the records from the oldest and send the connection's from n on,
     * in PSN order: a record whose PSN is the next to send goes, a later one is passed, and a lap that passed one
     * starts again from the oldest record (relocated records sit after younger ones). Between requests, the
     * relocations the reclaimer asks for (the head record's beats read and written back at the store's tail, not
     * sent), taking turns with the requests while both wait.
     */
    private Walk walk(Init init, Stream requests, Tables tables, Store store, Clock clock, AckEvent ack, Scan scan,
                      Handoffs handoffs) {
        State<WalkState> state = state("walk_state", WalkState.IDLE);
        Reg wConn = regNoReset("walk_conn", cw);
        Reg wFrom = regNoReset("walk_from", SueMeta.PSN_WIDTH);
        Reg wProbe = regNoReset("walk_probe", 1);
        Reg wRelocate = reg("walk_relocate", 1, 0);
        Reg wIdx = regNoReset("walk_idx", pw);
        Reg passed = reg("walk_passed", 1, 0); // this lap passed a later PSN of the connection
        Reg firstPassed = regNoReset("walk_first_passed", SueMeta.PSN_WIDTH); // the first of them
        Reg sentLap = reg("walk_sent_lap", 1, 0); // this lap sent a PDU
        Reg sendAddr = regNoReset("walk_addr", pw - 1);
        Reg remaining = reg("walk_beats", SueMeta.LEN_WIDTH, 0);
        Reg meta = regNoReset("walk_record", record.width());
        Expr idle = state.is(WalkState.IDLE).and(init.busy().not());
        // relocations and go-backs take turns while both wait, so neither starves the other
        Reg relocatedLast = reg("walk_relocated_last", 1, 0);
        handoffs.taken.set(idle.and(handoffs.asked).and(requests.valid().not().or(relocatedLast.not())));
        requests.ready().set(idle.and(handoffs.asked.not().or(relocatedLast)));
        when(handoffs.taken, () -> relocatedLast.set(1)).elseWhen(requests.fire(), () -> relocatedLast.set(0));
        Expr starting = wire("walk_starting", requests.fire());
        // state != IDLE, not !is(IDLE): with a compare other than == Yosys keeps the state's binary code instead of
        // recoding it one-hot (two flip-flops more)
        Expr walking = state.reg().ne(state.code(WalkState.IDLE));
        Restart restart = restart(state, walking.and(wRelocate.not()), wConn, ack);
        Expr reading = state.is(WalkState.READ).and(restart.pending().not());
        Expr atEnd = wire("walk_at_end", reading.and(wIdx.eq(store.rt())));
        Expr wrapping = wire("walk_wrapping", atEnd.and(passed));
        Expr readRecord = reading.and(atEnd.not());
        Expr rec = store.records().readSync("walk_record_word", wIdx.bits(pw - 2, 0), readRecord);
        Expr checking = state.is(WalkState.CHECK).and(record.get(rec, "dst").eq(wConn));
        Expr recPsn = record.get(rec, "psn");
        Expr match = wire("walk_match", checking.and(recPsn.eq(wFrom)));
        Expr later = checking.and(Hw.atOrAfter(recPsn, wFrom)); // recPsn - wFrom < 2^15
        Stream.RamRead beats = Stream.fromRam("retx_data", store.data(), sendAddr,
                state.is(WalkState.SEND).and(remaining.ne(0)), Layout.plain("word", config.busWidth()));
        Expr lastLoad = wire("walk_last_load", beats.load().and(remaining.eq(1)));
        // a probe ends with its one PDU, unless a NACK came meanwhile: then it restarts from the NACK's PSN
        Expr probed = wire("walk_probed", lastLoad.and(wProbe).and(restart.pending().not())
                .and(restart.nacked().not()));
        Expr writing = handoffs.writing.and(handoffs.writingConn.eq(wConn));
        Expr done = wire("walk_done", atEnd.and(wrapping.not()).and(writing.not()).and(restart.nacked().not())
                .or(probed.and(wRelocate.not())));
        when(requests.fire(), () -> {
            wConn.set(requests.field("conn"));
            wFrom.set(requests.field("from"));
            wProbe.set(requests.field("probe"));
            wIdx.set(store.rh());
            state.set(WalkState.READ);
        });
        when(handoffs.taken, () -> {
            Expr head = handoffs.head;
            sendAddr.set(record.get(head, "addr"));
            remaining.set(handoffs.headBeats.resize(SueMeta.LEN_WIDTH));
            meta.set(head);
            wProbe.set(1); // one PDU
            wRelocate.set(1);
            state.set(WalkState.SEND);
        });
        when(starting.or(wrapping).or(restart.restarting()), () -> {
            passed.set(0);
            sentLap.set(0);
        });
        // a lap that sent nothing did not find its PSN (acknowledged meanwhile): the next goes on from the first it
        // passed (if that is not the oldest left, the receiver's NACK brings the walk back to it)
        when(wrapping, () -> {
            wIdx.set(store.rh());
            when(sentLap.not(), () -> wFrom.set(firstPassed));
        });
        when(done, () -> state.set(WalkState.IDLE));
        when(readRecord, () -> state.set(WalkState.CHECK));
        when(state.is(WalkState.CHECK), () -> {
            when(match, () -> {
                sendAddr.set(record.get(rec, "addr"));
                remaining.set(beatsOf(record.get(rec, "len")));
                meta.set(rec);
                wFrom.set(wFrom.add(1));
                sentLap.set(1);
                state.set(WalkState.SEND);
            }).otherwise(() -> {
                when(later, () -> {
                    passed.set(1);
                    when(passed.not(), () -> firstPassed.set(recPsn));
                });
                wIdx.set(Hw.increment(wIdx));
                state.set(WalkState.READ);
            });
        });
        when(beats.load(), () -> {
            sendAddr.set(sendAddr.add(1));
            remaining.set(remaining.sub(1));
        });
        when(lastLoad, () -> {
            wIdx.set(Hw.increment(wIdx));
            state.set(Hw.mux(probed, state.code(WalkState.IDLE), state.code(WalkState.READ)));
            wRelocate.set(0);
        });
        when(restart.restarting(), () -> {
            wFrom.set(restart.from());
            wIdx.set(store.rh());
        });
        statusCounter("go_back_restarts", restart.nacked(), "Go-backs started again from a NACK's PSN for the"
                + " connection being walked.");
        statusCounter("nacks_ignored", ack.nackQueued().and(restart.nacked().not()), "NACKs in the window for a"
                + " connection already queued for a go-back, which covers them.");
        tables.tRetx().write(done.or(match), wConn, clock.now());
        scan.walkMoving().set(done.or(match).or(walking.not()));
        statusCounter("retransmitted_pdus", match, "PDUs sent again by a go-back.");
        return new Walk(walking, wConn, wIdx, starting.or(wrapping).or(restart.restarting()), done,
                new Sending(beats, remaining, meta, wRelocate));
    }

    /**
     * A NACK for the connection being walked (one of its resent PDUs was lost again): the walk starts again from the
     * NACK's PSN at its next record boundary, instead of sending what the receiver will drop.
     */
    private Restart restart(State<WalkState> state, Expr walking, Expr walkConn, AckEvent ack) {
        Reg pending = reg("walk_restart_pending", 1, 0);
        Reg from = regNoReset("walk_restart_from", SueMeta.PSN_WIDTH);
        Expr nacked = wire("walk_nacked", ack.nackInWindow().and(walking).and(ack.conn().eq(walkConn)));
        Expr restarting = wire("walk_restart", state.is(WalkState.READ).and(pending));
        when(restarting, () -> pending.set(0));
        when(nacked, () -> {
            pending.set(1);
            from.set(ack.acked());
        });
        return new Restart(nacked, pending, restarting, from);
    }

    /**
     * The resent beats with their tuser and keep, from the record being sent: to the wire, or (a relocation) back to
     * the writer.
     */
    private List<Stream> resend(Sending s) {
        // the beat's side fields travel with the data register; its keep is formed as it loads, not after the
        // register in the output arbiter's cycle
        Reg sideLast = regNoReset("retx_side_last", 1);
        Reg sideRecord = regNoReset("retx_side_record", record.width());
        Reg keep = regNoReset("retx_side_keep", config.beatBytes());
        Reg sideRelocate = regNoReset("retx_side_relocate", 1);
        when(s.beats().load(), () -> {
            sideLast.set(s.remaining().eq(1));
            sideRelocate.set(s.relocate());
            sideRecord.set(s.record());
            keep.set(Hw.mux(s.remaining().eq(1), Keep.below(lastBeatBytes(record.get(s.record(), "len")),
                    config.beatBytes()), Hw.ones(config.beatBytes())));
        });
        unused("retx_side_addr", record.get(sideRecord, "addr"));
        Expr sConn = record.get(sideRecord, "dst");
        Expr user = SueMeta.LAYOUT.expr()
                .set(SueMeta.DST_XPU, ConnectionIndex.xpu(config, sConn, SueMeta.XPU_WIDTH))
                .set(SueMeta.PORT, ConnectionIndex.port(config, sConn, SueMeta.PORT.width()))
                .set(SueMeta.VC, record.get(sideRecord, "vc")).set(SueMeta.PSN, record.get(sideRecord, "psn"))
                .set(SueMeta.LEN, record.get(sideRecord, "len")).build();
        Stream beats = s.beats().out();
        return beats.map("retx_pdu", out.layout(), Hw.cat(user, sideLast, keep, beats.field("word")))
                .demux("retx_to", sideRelocate, 2);
    }

    /**
     * Frees the oldest record once its connection's una passed it, never the record being retransmitted; asks for the
     * oldest record to be relocated when it is not acknowledged and its connection had a timeout since its last
     * progress (strikes), and frees it once its copy is stored.
     */
    private void reclaimer(Tables tables, Store store, Written written, Walk walk, Reg stalled,
                           Handoffs handoffs) {
        Reg rdPtr = reg("reclaim_rd", pw, 0);
        Stream.RamRead recs = Stream.fromRam("reclaim_record", store.records(), rdPtr.bits(pw - 2, 0),
                rdPtr.ne(store.rt()), record);
        when(recs.load(), () -> rdPtr.set(rdPtr.add(1)));
        Stream head = recs.out().stage("reclaim_head");
        Reg headBeats = regNoReset("reclaim_head_beats", beatsWidth()); // the head record's beats, formed as it loads
        when(recs.out().fire(), () -> headBeats.set(beatsOf(recs.out().field("len")).resize(beatsWidth())));
        // una of the record in the head register: the incoming record's when one loads, else the held one's
        Expr loading = recs.out().fire();
        Expr unaRead = tables.una().mem().readSync("reclaim_una", loading, recs.out().field("dst"),
                head.field("dst"), Hw.bool(true));
        Reg headPsnP1 = regNoReset("reclaim_head_psn_p1", SueMeta.PSN_WIDTH); // the head record's psn + 1
        when(loading, () -> headPsnP1.set(recs.out().field("psn").add(1)));
        Expr acked = Hw.atOrAfter(unaRead, headPsnP1); // una - psn - 1 < 2^15
        Expr guarded = walk.active().and(walk.idx().eq(store.rh())).or(walk.toOldest());
        Expr headStalled = wire("reclaim_head_stalled", stalled.shr(head.field("dst")).bit(0));
        Reg copying = reg("reclaim_copying", 1, 0); // the walk took the head record to relocate, not yet stored
        Reg copied = reg("reclaim_copied", 1, 0); // its copy is stored: free it
        // only while the store is more than half full: relocating costs the writer's and the walk's cycles; asked
        // from a register, the head held meanwhile, so the walk copies the record it was asked for
        Expr pressed = wire("reclaim_pressed", store.free().bits(pw - 1, pw - 2).orR().not());
        Reg asked = reg("reclaim_asked", 1, 0);
        asked.set(head.valid().and(acked.not()).and(headStalled).and(pressed).and(copying.not()).and(copied.not())
                .and(head.fire().not()).and(handoffs.taken.not()));
        handoffs.asked.set(asked);
        handoffs.head.set(head.payload());
        handoffs.headBeats.set(headBeats);
        when(handoffs.taken, () -> copying.set(1));
        when(handoffs.committed, () -> {
            copying.set(0);
            copied.set(1);
        });
        head.ready().set(acked.and(copying.not()).and(asked.not()).or(copied).and(guarded.not()));
        when(head.fire(), () -> copied.set(0));
        Reg rt = store.rt();
        Reg rh = store.rh();
        when(head.fire(), () -> rh.set(rh.add(1)));
        // the pointers after this cycle's steps differ in the wrap bit only when the records are full
        Expr freed = head.fire();
        Expr ends = written.ends();
        store.recordFree().set(Hw.mux(ends.and(freed.not()), rt.add(1).xor(rh).ne(config.storeBeats()),
                Hw.mux(freed.and(ends.not()), rt.xor(rh.add(1)).ne(config.storeBeats()),
                        rt.xor(rh).ne(config.storeBeats()))));
        // the free beats after the writer's beat and this release: both sums are formed beside the handshakes
        Reg free = store.free();
        Expr released = free.add(headBeats.resize(pw));
        free.set(Hw.mux(head.fire(), Hw.mux(written.beat(), released.sub(1), released),
                Hw.mux(written.beat(), free.sub(1), free)));
        unused("reclaim_addr", head.field("addr"), head.field("vc"), head.field("len"), head.field("psn"));
    }

    // ---- ACK-only PDUs, eligibility, output ------------------------------------------------------------------

    /** ack_request: one beat holding the byte 0x00 (an empty command list), len 1, PSN 0, VC 0. */
    private Stream ackOnlyPdus() {
        Expr user = SueMeta.LAYOUT.expr().set(SueMeta.DST_XPU, ackRequest.field("xpu"))
                .set(SueMeta.PORT, ackRequest.field("port"))
                .set(SueMeta.LEN, Hw.lit(SueMeta.LEN_WIDTH, AckLinks.ACK_ONLY_LEN)).build();
        Expr keepFirstByte = Hw.lit(config.beatBytes(), 1);
        Stream ackOnly = ackRequest.map("ack_only", out.layout(), Hw.cat(user, Hw.bool(true), keepFirstByte,
                Hw.zeros(config.busWidth())));
        statusCounter("ack_only_sent", ackRequest.fire(), "ACK-only PDUs sent, one per ack_request.");
        return ackOnly;
    }

    /**
     * dst_ready: neither retransmitting, nor at the window, nor stalled; the writer closes the window, the ACK
     * engine reopens it, the scanner refreshes it.
     */
    private void eligibility(Init init, Retransmitting retransmitting, Expr stalled, Written written,
                             AckEvent ack, Scan scan, Walk walk) {
        int d = config.connections();
        Reg blocked = reg("blocked", d, 0);
        Expr scanBit = onehot(scan.conn(), d);
        Expr afterScan = Hw.mux(scan.valid(), Hw.mux(scan.windowFull(), blocked.or(scanBit),
                blocked.and(scanBit.not())), blocked);
        Expr afterAck = Hw.mux(ack.unblock(), afterScan.and(onehot(ack.conn(), d).not()), afterScan);
        blocked.set(Hw.mux(written.windowFull(), afterAck.or(onehot(written.conn(), d)), afterAck));
        retransmitting.update(ack.request(), scan.request(), walk);
        dstReady.set(blocked.or(retransmitting.bits).or(stalled).not()
                .and(Hw.mux(init.busy(), Hw.zeros(d), Hw.ones(d))));
    }

    /** Packet round robin; op/rpsn asked of the receive side at each first beat, filled in one cycle later. */
    private void output(Stream retransmitted, Stream fresh, Stream ackOnly) {
        // new PDUs were picked under the link's vc_ready; retransmissions and ACK-only PDUs decide here
        List<Stream> started = linkStarts(List.of(retransmitted, ackOnly), List.of("retx", "ack_only"));
        Arbiter.Arbitration arb = Arbiter.roundRobinPackets("tx_arb", List.of(started.get(0), fresh, started.get(1)));
        Stream chosen = arb.out();
        Reg first = reg("tx_first", 1, 1);
        when(chosen.fire(), () -> first.set(chosen.tlast()));
        ackQuery.valid().set(chosen.fire().and(first));
        ackQuery.field("port").set(SueMeta.PORT.of(chosen.tuser()));
        ackQuery.field("xpu").set(SueMeta.DST_XPU.of(chosen.tuser()));
        Stream staged = chosen.stage("tx_out");
        Reg op = regNoReset("tx_op", SueMeta.OP.width());
        Reg rpsn = regNoReset("tx_rpsn", SueMeta.PSN_WIDTH);
        when(ackReply.valid(), () -> {
            op.set(ackReply.field("op"));
            rpsn.set(ackReply.field("rpsn"));
        });
        Expr opNow = wire("tx_op_now", Hw.mux(ackReply.valid(), ackReply.field("op"), op));
        Expr rpsnNow = wire("tx_rpsn_now", Hw.mux(ackReply.valid(), ackReply.field("rpsn"), rpsn));
        Expr user = SueMeta.LAYOUT.expr().set(SueMeta.DST_XPU, SueMeta.DST_XPU.of(staged.tuser()))
                .set(SueMeta.SRC_XPU, localXpu).set(SueMeta.VC, SueMeta.VC.of(staged.tuser()))
                .set(SueMeta.PSN, SueMeta.PSN.of(staged.tuser())).set(SueMeta.OP, opNow).set(SueMeta.RPSN, rpsnNow)
                .set(SueMeta.PARTITION, localPartition).set(SueMeta.PORT, SueMeta.PORT.of(staged.tuser()))
                .set(SueMeta.LEN, SueMeta.LEN.of(staged.tuser())).build();
        staged.with("tx_framed", Stream.TUSER, user).into(out);
        Expr inUser = staged.tuser(); // filled in here, whatever the sources carried
        unused("tx_out_replaced", SueMeta.SRC_XPU.of(inUser), SueMeta.OP.of(inUser), SueMeta.RPSN.of(inUser),
                SueMeta.PARTITION.of(inUser), SueMeta.ERR.of(inUser), SueMeta.LINK.of(inUser));
        Reg outFirst = reg("out_first", 1, 1);
        when(out.fire(), () -> outFirst.set(out.tlast()));
        charge.valid().set(out.fire().and(outFirst));
        charge.field("vc").set(SueMeta.VC.of(out.tuser()));
        charge.field("len").set(SueMeta.LEN.of(out.tuser()));
        charge.field("port").set(SueMeta.PORT.of(out.tuser()));
        connectionXpu(charge, out.tuser());
        Expr dataPdu = AckLinks.ackOnly(out.tdata()).not();
        statusCounter("acks_piggybacked", out.fire().and(outFirst).and(dataPdu).and(opNow.ne(0)), "Data PDUs sent"
                + " carrying an ACK or a NACK (op not 0) in their RH.");
        unused("tx_arb_chosen", arb.chosen());
    }

    /**
     * Retransmissions and ACK-only PDUs start under the link's flow control: a PDU's first beat is offered once its
     * VC's {@code link_vc_ready} let it start (reported on {@code reserve}) and then stays offered (the arbiter holds
     * it), so a VC turning unready never stalls the other sources. One start a cycle, the first source first; the
     * packing buffer picks nothing in a cycle with a start and nothing on a VC a start waits for
     * ({@code pick_vc_ready}), so the link sees one reservation a cycle and a waiting start is not overtaken on its VC.
     */
    private List<Stream> linkStarts(List<Stream> sources, List<String> names) {
        List<Stream> gated = new ArrayList<>();
        Expr granted = Hw.bool(false);
        Expr waiting = Hw.zeros(SueMeta.VCS);
        Expr startVc = Hw.zeros(SueMeta.VC_WIDTH);
        Expr startPort = Hw.zeros(SueMeta.PORT.width());
        Expr startXpu = Hw.zeros(SueMeta.XPU_WIDTH);
        for (int i = 0; i < sources.size(); i++) {
            Stream s = sources.get(i);
            String name = names.get(i);
            Reg first = reg(name + "_gate_first", 1, 1);
            Reg offered = reg(name + "_gate_offered", 1, 0);
            Expr vc = SueMeta.VC.of(s.tuser());
            Expr wants = wire(name + "_wants_start", s.valid().and(first).and(offered.not()));
            Expr port = SueMeta.PORT.of(s.tuser());
            Expr linkReady = linkReady(name, s.valid(), port, SueMeta.DST_XPU.of(s.tuser()), vc);
            Expr start = wire(name + "_start", wants.and(linkReady).and(granted.not()));
            Stream g = s.continueWhen(name + "_link_ready", first.not().or(offered).or(start));
            when(g.fire(), () -> first.set(g.tlast()));
            offered.set(g.valid().and(g.ready().not()));
            waiting = waiting.or(Hw.mux(wants, onehot(vc, SueMeta.VCS), Hw.zeros(SueMeta.VCS)));
            startVc = Hw.mux(start, vc, startVc);
            startPort = Hw.mux(start, port, startPort);
            startXpu = Hw.mux(start, SueMeta.DST_XPU.of(s.tuser()), startXpu);
            granted = granted.or(start);
            gated.add(g);
        }
        reserve.valid().set(granted);
        reserve.field("vc").set(startVc);
        reserve.field("port").set(startPort);
        if (config.ports() > 1) {
            reserve.field("xpu").set(startXpu);
        }
        // a VC some port may send on (the packing buffer's per-queue eligibility says which port a queue takes)
        Expr anyPort = linkVcReady.bits(SueMeta.VCS - 1, 0);
        for (int p = 1; p < config.ports(); p++) {
            anyPort = anyPort.or(linkVcReady.bits(SueMeta.VCS * (p + 1) - 1, SueMeta.VCS * p));
        }
        for (int p = 0; detourVcReady != null && p < config.ports(); p++) {
            anyPort = anyPort.or(detourVcReady.bits(SueMeta.VCS * (p + 1) - 1, SueMeta.VCS * p));
        }
        pickVcReady.set(Hw.mux(granted, Hw.zeros(SueMeta.VCS), anyPort.and(waiting.not())));
        return gated;
    }


    private void status(Store store, Retransmitting retransmitting) {
        status("store_used_beats", Status.Kind.LEVEL, Hw.lit(pw, config.storeBeats()).sub(store.free()), "Bus beats"
                + " of the retransmit store holding PDUs not yet acknowledged.");
        status("store_records", Status.Kind.LEVEL, store.rt().sub(store.rh()), "PDU records in the retransmit store:"
                + " PDUs sent and not yet acknowledged.");
        status("retransmitting_any", Status.Kind.STATE, retransmitting.bits.orR(), "High while any connection is"
                + " queued for or in a go-back.");
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    /**
     * {port, XPU} as a table row (the ids' low bits; the packing buffer and the receive side never exceed them); the
     * bits it leaves out are {@code <name>_spare}.
     */
    private Expr conn(String name, Expr port, Expr xpu) {
        ConnectionIndex c = ConnectionIndex.of(config, port, xpu);
        if (!c.spare().isEmpty()) {
            unused(name + "_spare", c.spare().toArray(Expr[]::new));
        }
        return c.row();
    }

    /** Beats of the store a new PDU leaves free: one largest PDU, so a relocation always fits. */
    private int relocationReserve() {
        return TransportConfig.MAX_PDU_BYTES / config.beatBytes();
    }

    private Expr beatsOf(Expr len) {
        int shift = Integer.numberOfTrailingZeros(config.beatBytes());
        return len.add(config.beatBytes() - 1).shr(shift);
    }

    /** Bits of {@link #beatsOf}'s value (the shifted-in high bits are zero). */
    private int beatsWidth() {
        return SueMeta.LEN_WIDTH - Integer.numberOfTrailingZeros(config.beatBytes());
    }

    /** Bytes in a PDU's last beat: 1 .. beatBytes. */
    private Expr lastBeatBytes(Expr len) {
        int lw = Hw.log2Up(config.beatBytes() + 1);
        return len.sub(1).and(config.beatBytes() - 1).resize(lw).add(1);
    }

    /**
     * Whether a start of connection {@code port}, {@code xpu} may go on VC {@code vc} now: its port's row of
     * {@link #linkVcReady}, or of {@link #detourVcReady} while the connection is detoured.
     */
    private Expr linkReady(String name, Expr offered, Expr port, Expr xpu, Expr vc) {
        if (config.ports() == 1) {
            return linkVcReady.shr(vc).bit(0);
        }
        // the connection's bit among all connections' is a deep look-up: taken a cycle late, for the connection the
        // source last offered; a start waits a cycle when its connection is not that one (the router holds a
        // connection port's starts for the cycle after its detours move, so the late bit is never stale)
        Expr row = Hw.cat(port.bits(config.portWidth() - 1, 0), vc);
        Expr conn = conn(name + "_start_conn", port, xpu);
        Reg lookedUp = reg(name + "_detour_conn", cw, 0);
        Reg away = reg(name + "_detoured", 1, 0);
        Expr next = Hw.mux(offered, conn, lookedUp); // what an idle source carries is not looked at
        lookedUp.set(next);
        away.set(detoured.shr(next).bit(0));
        return lookedUp.eq(conn).and(Hw.mux(away, detourVcReady.shr(row).bit(0), linkVcReady.shr(row).bit(0)));
    }

    /** A link event's layout: its VC, {@code more}, its port and, with more ports, its XPU. */
    private Layout linkEvent(String name, Layout.Spec... more) {
        List<Layout.Spec> fields = new ArrayList<>(List.of(Layout.bits("vc", SueMeta.VC_WIDTH)));
        fields.addAll(List.of(more));
        fields.add(Layout.bits("port", SueMeta.PORT.width()));
        if (config.ports() > 1) {
            fields.add(Layout.bits("xpu", SueMeta.XPU_WIDTH));
        }
        return Layout.of(name, fields);
    }

    /** With more ports, a link event's XPU: the destination of the PDU whose metadata is {@code user}. */
    private void connectionXpu(Flow event, Expr user) {
        if (config.ports() > 1) {
            event.field("xpu").set(SueMeta.DST_XPU.of(user));
        }
    }

    private static Expr onehot(Expr index, int n) {
        return Hw.lit(n, 1).shl(index);
    }

    public TransportConfig config() {
        return config;
    }
}
