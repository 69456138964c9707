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
import org.sue.core.Wire;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.SueMeta;

/**
 * Transmit side of one port's transport (docs/protocol.md sections 6.2, 6.3, 6.5, 6.6): PSNs, the retransmit store,
 * ACK/NACK processing, go-back-N retransmission, the retransmit timeout and the packing buffer's per-destination
 * eligibility.
 *
 * <p>Data path: PDUs from the packing buffer ({@code s_axis}, tuser {@code dst_xpu}, {@code vc}, {@code len}) get the
 * connection's next PSN and are written beat by beat into a ring of bus beats as they leave for the framing
 * ({@code m_axis}); a record per PDU (start beat, destination, VC, length, PSN) goes into a ring of records when its
 * last beat is written. A PDU waits at the input until its beats and a record fit. PDUs of a connection that is being
 * retransmitted are stored but not sent: the retransmission sends them after the older ones.
 *
 * <p>Stages, each the only writer of its tables:
 * <ul>
 * <li><b>writer</b> (new PDUs): {@code next_psn}, the data and record rings, {@code t_send}; closes a destination's
 * window ({@code blocked}) when it sends the {@code windowPdus}-th unacknowledged PDU;</li>
 * <li><b>ACK engine</b> ({@code peer_ack}, one event per cycle): {@code una} (oldest unacknowledged PSN),
 * {@code t_ack}; a NACK queues a retransmission; reopens the window;</li>
 * <li><b>reclaimer</b>: frees the oldest record once {@code una} of its connection passed it, one per cycle, never
 * the record the retransmission is reading;</li>
 * <li><b>scanner</b>: visits one connection per cycle, queues a retransmission from {@code una} on a timeout
 * (no new PDU, no retransmission and no advancing ACK for {@code rtoCycles}) and recomputes the window bit;</li>
 * <li><b>retransmission</b>: takes queued requests one at a time, walks the records from the oldest (two cycles per
 * record it skips) and sends the connection's PDUs from the requested PSN, then clears {@code retransmitting};
 * {@code t_retx}; a NACK for the connection it walks starts the walk again from the NACK's PSN at the next record;</li>
 * <li><b>ACK-only PDUs</b> asked for on {@code ack_request}: one beat, the byte 0x00, {@code len} 1, PSN 0, VC 0;</li>
 * <li><b>output</b>: packet round robin over retransmission, new PDUs and ACK-only PDUs; at each first beat the
 * receive side is asked ({@code ack_query}) for the {@code op}/{@code rpsn} to carry, which it answers the next cycle
 * ({@code ack_reply}); {@code src_xpu} and {@code partition} are this XPU's.</li>
 * </ul>
 *
 * <p>Connections are {port, XPU} ({@link ConnectionIndex}): every per-connection table and {@code dst_ready} has
 * {@code ports x destinations} rows. {@code dst_ready[c]} (to the packing buffer) is low while c is retransmitting or
 * has {@code windowPdus} or more PDUs unacknowledged. After reset the per-connection tables are cleared one row per
 * cycle ({@code init_busy}).
 */
public final class TransportTx extends Component {
    public final Stream in;
    public final Stream out;
    public final Port localXpu;
    public final Port localPartition;
    public final Port dstReady;
    public final Port linkVcReady;
    /** The VCs the packing buffer may pick on: link_vc_ready, less a VC a start here waits for, none in a start's cycle. */
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

    private final TransportConfig config;
    private final int cw;       // connection index bits
    private final int pw;       // ring pointer bits (with the wrap bit)
    private final Layout record;
    private final Layout request;
    private final Mem data;
    private final Mem records;
    private final Mem nextPsn;
    private final Mem una;
    private final Mem tSend;
    private final Mem tAck;
    private final Mem tRetx;
    private final TableWrite nextPsnW;
    private final TableWrite unaW;
    private final TableWrite tSendW;
    private final TableWrite tAckW;
    private final TableWrite tRetxW;
    private final Reg now;
    private final Reg rtoAgo;
    private final Reg initBusy;
    private final Reg initIdx;
    private final Reg blocked;
    private final Reg retransmitting;
    private final Reg wp;       // data ring: next beat written
    private final Reg free;     // data ring: beats not held (storeBeats - (wp - oldest beat held))
    private final Reg rt;       // record ring: next record written
    private final Reg rh;       // record ring: oldest record still held
    // set by the stages, combined in eligibility()
    private Expr writerBlock;
    private Expr ackUnblock;
    private Expr scanWindowFull;
    private Expr scanConn;
    private Expr scanValid;
    private Expr ackRequestPush;
    private Expr ackRequestPayload;
    private Expr scanRequestPush;
    private Expr scanRequestPayload;
    private Expr walkDone;
    private Expr walkConn;
    private Expr walking;
    private Expr walkIdx;
    private Expr walkStarting;
    private Expr walkRestarting;
    private Expr nackInWindow;  // the ACK engine's event this cycle: a NACK inside the window
    private Expr nackQueued;    // ... for a connection already retransmitting (queued or being walked)
    private Expr ackEvConn;
    private Expr ackEvAcked;
    private Function<Expr, Expr> writerHoldsFor; // a PDU of that connection is being written
    private Expr newDst;
    private Expr ackUnblockConn;
    private Expr writerBeat;
    private Expr writerEnds;
    private final Reg recordFree; // a record is free: rt - rh != storeBeats, formed beside the pointers' steps
    private final List<Follower> followers = new ArrayList<>();
    private int unusedSpare;
    private Stream fresh;
    private Stream retransmitted;
    private Stream ackOnly;

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
        request = Layout.of("retx_request", Layout.bits("conn", cw), Layout.bits("from", SueMeta.PSN_WIDTH));
        StreamConfig sc = new StreamConfig(config.busWidth(), SueMeta.WIDTH);
        in = Stream.slave(this, sc);
        out = Stream.master(this, sc);
        localXpu = in("local_xpu", SueMeta.XPU_WIDTH);
        localPartition = in("local_partition", SueMeta.PARTITION.width());
        dstReady = out("dst_ready", d); // one bit per connection: the packing buffer's per-destination eligibility
        linkVcReady = in("link_vc_ready", SueMeta.VCS); // the link's flow control: a VC it may not send on now
        pickVcReady = out("pick_vc_ready", SueMeta.VCS);
        Layout vcOnly = Layout.of("link_vc", Layout.bits("vc", SueMeta.VC_WIDTH));
        reserve = Flow.master(this, "reserve", vcOnly);
        unreserve = Flow.master(this, "unreserve", vcOnly);
        charge = Flow.master(this, "charge", Layout.of("link_charge", Layout.bits("vc", SueMeta.VC_WIDTH),
                Layout.bits("len", SueMeta.LEN_WIDTH)));
        peerAck = Flow.slave(this, "peer_ack", AckLinks.PEER_ACK);
        ackQuery = Flow.master(this, "ack_query", AckLinks.ACK_QUERY);
        ackReply = Flow.slave(this, "ack_reply", AckLinks.ACK_REPLY);
        ackRequest = Stream.slave(this, "ack_request", AckLinks.ACK_REQUEST);

        data = mem("store_beat_ring", config.storeBeats(), config.busWidth(), ReadUnderWrite.READ_FIRST);
        records = mem("store_record_ring", config.storeBeats(), record.width(), ReadUnderWrite.READ_FIRST);
        nextPsn = mem("next_psn", d, SueMeta.PSN_WIDTH, ReadUnderWrite.WRITE_FIRST);
        una = mem("una", d, SueMeta.PSN_WIDTH, ReadUnderWrite.WRITE_FIRST);
        tSend = mem("t_send", d, TransportConfig.TIME_WIDTH, ReadUnderWrite.READ_FIRST);
        tAck = mem("t_ack", d, TransportConfig.TIME_WIDTH, ReadUnderWrite.READ_FIRST);
        tRetx = mem("t_retx", d, TransportConfig.TIME_WIDTH, ReadUnderWrite.READ_FIRST);
        now = reg("now", TransportConfig.TIME_WIDTH, 0);
        now.set(now.add(1));
        // now - rtoCycles, counted beside now: the scanner's timeout is a range check, not a subtraction
        long timeMask = (1L << TransportConfig.TIME_WIDTH) - 1;
        rtoAgo = reg("rto_ago", TransportConfig.TIME_WIDTH, -(long) config.rtoCycles() & timeMask);
        rtoAgo.set(rtoAgo.add(1));
        initBusy = reg("init_busy_reg", 1, 1);
        initIdx = reg("init_idx", cw, 0);
        nextPsnW = writePort(nextPsn);
        unaW = writePort(una);
        tSendW = writePort(tSend);
        tAckW = writePort(tAck);
        tRetxW = writePort(tRetx);
        blocked = reg("blocked", d, 0);
        retransmitting = reg("retransmitting", d, 0);
        wp = reg("store_wp", pw, 0);
        free = reg("store_free_beats", pw, config.storeBeats());
        rt = reg("store_rt", pw, 0);
        rh = reg("store_rh", pw, 0);
        recordFree = reg("store_record_free", 1, 1);

        initSweep();
        writer();
        ackEngine();
        scanner();
        retransmission();
        reclaimer();
        ackOnlyPdus();
        eligibility();
        output();
        status();
    }

    /** After reset: zero one row per cycle of every per-connection table, each through its writer's port. */
    private void initSweep() {
        when(initBusy, () -> {
            initIdx.set(initIdx.add(1));
            when(initIdx.eq(config.connections() - 1), () -> initBusy.set(0));
        });
        out("init_busy", 1).set(initBusy);
    }

    /** New PDUs: PSN lookup in a register stage, room check, store write, record commit, send unless held. */
    private void writer() {
        Stream gated = in.haltWhen("new_in", initBusy);
        Reg inFirst = reg("new_in_first", 1, 1);
        when(gated.fire(), () -> inFirst.set(gated.tlast()));
        Expr lookup = gated.fire().and(inFirst);
        Expr inConn = conn(SueMeta.PORT.of(gated.tuser()), SueMeta.DST_XPU.of(gated.tuser()));
        Expr psnRead = nextPsn.readSync("new_next_psn", inConn, lookup);
        Expr unaRead = una.readSync("new_una", inConn, lookup);
        Stream staged = gated.stage("new_pdu");
        // the PDU's beat count is formed as it enters the stage, so the room check compares two registers
        Reg beats = regNoReset("new_beats", beatsWidth());
        when(gated.fire(), () -> beats.set(beatsOf(SueMeta.LEN.of(gated.tuser())).resize(beatsWidth())));

        Reg first = reg("new_first", 1, 1);
        Expr user = staged.tuser();
        Expr dst = wire("new_conn", conn(SueMeta.PORT.of(user), SueMeta.DST_XPU.of(user)));
        Expr len = SueMeta.LEN.of(user);
        int bw = beatsWidth(); // free >= beats: any of free's bits above the count's, or the low bits compared
        Expr enough = pw > bw ? free.bits(pw - 1, bw).orR().or(free.bits(bw - 1, 0).ge(beats))
                : free.resize(bw).ge(beats);
        Expr room = wire("new_room", enough.and(recordFree));
        unused("new_psn_in", SueMeta.PSN.of(user)); // the transport assigns it
        Stream admitted = staged.haltWhen("new_admitted", first.and(room.not()));

        Reg heldPsn = regNoReset("new_psn_held", SueMeta.PSN_WIDTH);
        Reg heldStart = regNoReset("new_start_held", pw - 1);
        Reg heldBack = reg("new_held_back_reg", 1, 0);
        Expr psn = wire("new_psn", Hw.mux(first, psnRead, heldPsn));
        Expr start = Hw.mux(first, wp.bits(pw - 2, 0), heldStart);
        // a first beat offered to the output and not yet taken stays offered (the arbiter holds it): once offered it
        // is sent even if its connection starts a go-back meanwhile (the go-back sends it again, after the older ones)
        Reg offered = reg("new_offered", 1, 0);
        Expr dstRetransmitting = followRetransmitting("new_conn_retransmitting", gated.fire(), inConn, dst);
        Expr heldBack1 = wire("new_held_back", Hw.mux(first, dstRetransmitting.and(offered.not()), heldBack));
        Expr beat = wire("new_beat", admitted.fire());
        Expr starts = wire("new_starts", beat.and(first));
        Expr ends = wire("new_ends", beat.and(admitted.tlast()));
        when(beat, () -> first.set(admitted.tlast()));
        when(starts, () -> {
            heldPsn.set(psnRead);
            heldStart.set(wp.bits(pw - 2, 0));
            heldBack.set(heldBack1);
        });
        // store: every beat, then the record with the last one
        data.write(beat, wp.bits(pw - 2, 0), admitted.tdata());
        when(beat, () -> wp.set(wp.add(1)));
        writerBeat = beat;
        writerEnds = ends;
        records.write(ends, rt.bits(pw - 2, 0), record.expr().set("addr", start).set("dst", dst)
                .set("vc", SueMeta.VC.of(user)).set("len", len).set("psn", psn).build());
        when(ends, () -> rt.set(rt.add(1)));
        // tables: the next PSN and the send time (the init sweep shares the write port)
        nextPsnW.set(starts, dst, psnRead.add(1));
        tSendW.set(starts, dst, now);
        // outstanding = psnRead + 1 - unaRead >= window: the difference d = psnRead - unaRead is at least window - 1
        // and not all ones (d + 1 wraps to 0 there)
        Expr d = Hw.subCarrySelect(psnRead, unaRead);
        writerBlock = wire("new_window_full", starts.and(d.ge(config.windowPdus() - 1)).and(d.andR().not()));
        newDst = dst;

        fresh = admitted.throwWhen("new_held", heldBack1).with("new_sent", Stream.TUSER, SueMeta.LAYOUT.with(user,
                "psn", psn));
        offered.set(fresh.valid().and(fresh.ready().not()));
        Reg midPdu = reg("new_mid_pdu", 1, 0); // a PDU's first beat was taken, its last not yet
        when(beat, () -> midPdu.set(admitted.tlast().not()));
        // a PDU already started (its first beat taken now or before) must be in the records before a go-back ends;
        // one still waiting for room is not: it is decided when it starts
        writerHoldsFor = c -> beat.or(midPdu).and(dst.eq(c));
        counter("pdus_sent", starts);
        counter("pdus_held_for_retransmission", starts.and(heldBack1));
        unreserve.valid().set(starts.and(heldBack1));
        unreserve.field("vc").set(SueMeta.VC.of(user));
    }

    /** peer_ack: one event per cycle; read una and next PSN, then decide and write in the next cycle. */
    private void ackEngine() {
        Expr evConnIn = conn(peerAck.field("port"), peerAck.field("xpu"));
        Expr evIn = peerAck.valid().and(initBusy.not());
        Expr unaRead = una.readSync("ack_una", evConnIn, evIn);
        Expr nextRead = nextPsn.readSync("ack_next_psn", evConnIn, evIn);
        Reg ev = reg("ack_ev_valid", 1, 0);
        Reg evConn = regNoReset("ack_ev_conn", cw);
        Reg evOp = regNoReset("ack_ev_op", 2);
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
        Expr busy = followRetransmitting("ack_ev_retransmitting", evIn, evConnIn, evConn);
        Expr resend = wire("ack_resend", isNack.and(inWindow).and(acked.ne(nextRead)).and(busy.not()));
        nackInWindow = isNack.and(inWindow);
        nackQueued = nackInWindow.and(busy);
        ackEvConn = evConn;
        ackEvAcked = acked;
        unaW.set(moves, evConn, acked);
        tAckW.set(moves, evConn, now);
        ackRequestPush = resend;
        ackRequestPayload = request.expr().set("conn", evConn).set("from", acked).build();
        ackUnblock = wire("ack_window_open", isAck.or(isNack).and(inWindow)
                .and(Hw.subCarrySelect(nextRead, acked).lt(config.windowPdus())));
        ackUnblockConn = evConn;
        counter("acks_received", isAck);
        counter("nacks_received", isNack);
        counter("acks_ignored", isAck.or(isNack).and(inWindow.not()));
    }

    /** One connection per cycle: timeout and window bit. */
    private void scanner() {
        Reg idx = reg("scan_idx", cw, 0);
        Reg prev = regNoReset("scan_prev", cw);
        Reg valid = reg("scan_valid", 1, 0);
        Expr go = initBusy.not();
        Expr next = nextPsn.readSync("scan_next_psn", idx, go);
        Expr oldest = una.readSync("scan_una", idx, go);
        Expr sent = tSend.readSync("scan_t_send", idx, go);
        Expr ackd = tAck.readSync("scan_t_ack", idx, go);
        Expr resent = tRetx.readSync("scan_t_retx", idx, go);
        valid.set(go);
        when(go, () -> prev.set(idx));
        Expr outstanding = wire("scan_outstanding", Hw.subCarrySelect(next, oldest));
        Expr quiet = wire("scan_quiet", old(sent).and(old(ackd)).and(old(resent)));
        Expr timeout = wire("scan_timeout", valid.and(next.ne(oldest)).and(quiet)
                .and(followRetransmitting("scan_prev_retransmitting", go, idx, prev).not()));
        Expr deferred = timeout.and(ackRequestPush); // one request per cycle: the ACK engine's goes first, this one again
        when(go, () -> idx.set(Hw.mux(deferred, prev, idx.add(1))));
        scanRequestPush = wire("scan_resend", timeout.and(deferred.not()));
        scanRequestPayload = request.expr().set("conn", prev).set("from", oldest).build();
        scanWindowFull = outstanding.ge(config.windowPdus());
        scanConn = prev;
        scanValid = valid;
        counter("timeouts", scanRequestPush);
    }

    /** A timestamp older than the timeout: now - t > rtoCycles, i.e. t is not in [now - rtoCycles, now]. */
    private Expr old(Expr t) {
        return Hw.inCircularRange(t, rtoAgo, now).not();
    }

    /** Retransmission: one request at a time; walk the records from the oldest, send the connection's from n on. */
    private void retransmission() {
        Stream push = Stream.of(this, "retx_push", ackRequestPush.or(scanRequestPush), request,
                Hw.mux(ackRequestPush, ackRequestPayload, scanRequestPayload));
        Stream requests = push.queue("retx_requests", config.connections());
        unused("retx_never_full", push.ready()); // a connection is queued at most once (retransmitting bit)
        Reg state = reg("walk_state", 2, IDLE);
        Reg wConn = regNoReset("walk_conn", cw);
        Reg wFrom = regNoReset("walk_from", SueMeta.PSN_WIDTH);
        Reg wIdx = regNoReset("walk_idx", pw);
        Reg sendAddr = regNoReset("walk_addr", pw - 1);
        Reg remaining = reg("walk_beats", SueMeta.LEN_WIDTH, 0);
        Reg meta = regNoReset("walk_record", record.width());
        requests.ready().set(state.eq(IDLE).and(initBusy.not()));
        walkStarting = wire("walk_starting", requests.fire());
        walkConn = wConn;
        walking = state.ne(IDLE);
        walkIdx = wIdx;
        // a NACK for the connection being walked (one of its resent PDUs was lost again): the walk starts again from
        // the NACK's PSN at its next record boundary, instead of sending what the receiver will drop
        Reg restartPending = reg("walk_restart_pending", 1, 0);
        Reg restartFrom = regNoReset("walk_restart_from", SueMeta.PSN_WIDTH);
        Expr nackWalked = wire("walk_nacked", nackInWindow.and(walking).and(ackEvConn.eq(wConn)));
        walkRestarting = wire("walk_restart", state.eq(READ).and(restartPending));
        Expr atEnd = wire("walk_at_end", state.eq(READ).and(restartPending.not()).and(wIdx.eq(rt)));
        walkDone = wire("walk_done", atEnd.and(writerHoldsFor.apply(wConn).not()).and(nackWalked.not()));
        Expr readRecord = state.eq(READ).and(restartPending.not()).and(atEnd.not());
        Expr rec = records.readSync("walk_record_word", wIdx.bits(pw - 2, 0), readRecord);
        Expr recDst = record.get(rec, "dst");
        Expr recPsn = record.get(rec, "psn");
        Expr match = wire("walk_match", state.eq(CHECK).and(recDst.eq(wConn))
                .and(Hw.atOrAfter(recPsn, wFrom))); // recPsn - wFrom < 2^15
        Stream.RamRead beats = Stream.fromRam("retx_data", data, sendAddr,
                state.eq(SEND).and(remaining.ne(0)), Layout.plain("word", config.busWidth()));
        Expr lastLoad = wire("walk_last_load", beats.load().and(remaining.eq(1)));
        when(requests.fire(), () -> {
            wConn.set(requests.field("conn"));
            wFrom.set(requests.field("from"));
            wIdx.set(rh);
            state.set(READ);
        });
        when(walkDone, () -> state.set(IDLE));
        when(readRecord, () -> state.set(CHECK));
        when(state.eq(CHECK), () -> {
            when(match, () -> {
                sendAddr.set(record.get(rec, "addr"));
                remaining.set(beatsOf(record.get(rec, "len")));
                meta.set(rec);
                state.set(SEND);
            }).otherwise(() -> {
                wIdx.set(wIdx.add(1));
                state.set(READ);
            });
        });
        when(beats.load(), () -> {
            sendAddr.set(sendAddr.add(1));
            remaining.set(remaining.sub(1));
        });
        when(lastLoad, () -> {
            wIdx.set(wIdx.add(1));
            state.set(READ);
        });
        when(walkRestarting, () -> {
            wFrom.set(restartFrom);
            wIdx.set(rh);
            restartPending.set(0);
        });
        when(nackWalked, () -> {
            restartPending.set(1);
            restartFrom.set(ackEvAcked);
        });
        counter("go_back_restarts", nackWalked);
        counter("nacks_ignored", nackQueued.and(nackWalked.not()));
        tRetxW.set(walkDone.or(match), wConn, now);
        // the beat's side fields travel with the data register; its keep is formed as it loads, not after the
        // register in the output arbiter's cycle
        Reg sideLast = regNoReset("retx_side_last", 1);
        Reg sideRecord = regNoReset("retx_side_record", record.width());
        Reg keep = regNoReset("retx_side_keep", config.beatBytes());
        when(beats.load(), () -> {
            sideLast.set(remaining.eq(1));
            sideRecord.set(meta);
            keep.set(Hw.mux(remaining.eq(1), Keep.below(lastBeatBytes(record.get(meta, "len")), config.beatBytes()),
                    Hw.ones(config.beatBytes())));
        });
        Expr sLen = record.get(sideRecord, "len");
        unused("retx_side_addr", record.get(sideRecord, "addr"));
        Expr sConn = record.get(sideRecord, "dst");
        Expr user = SueMeta.LAYOUT.expr()
                .set(SueMeta.DST_XPU, ConnectionIndex.xpu(config, sConn, SueMeta.XPU_WIDTH))
                .set(SueMeta.PORT, ConnectionIndex.port(config, sConn, SueMeta.PORT.width()))
                .set(SueMeta.VC, record.get(sideRecord, "vc")).set(SueMeta.PSN, record.get(sideRecord, "psn"))
                .set(SueMeta.LEN, sLen).build();
        retransmitted = beats.out().map("retx_pdu", out.layout(), Hw.cat(user, sideLast, keep, beats.out().field("word")));
        counter("retransmitted_pdus", match);
    }

    private static final int IDLE = 0;
    private static final int READ = 1;
    private static final int CHECK = 2;
    private static final int SEND = 3;

    /** Frees the oldest record once its connection's una passed it; never the record being retransmitted. */
    private void reclaimer() {
        Reg rdPtr = reg("reclaim_rd", pw, 0);
        Stream.RamRead recs = Stream.fromRam("reclaim_record", records, rdPtr.bits(pw - 2, 0), rdPtr.ne(rt), record);
        when(recs.load(), () -> rdPtr.set(rdPtr.add(1)));
        Stream head = recs.out().stage("reclaim_head");
        Reg headBeats = regNoReset("reclaim_head_beats", beatsWidth()); // the head record's beats, formed as it loads
        when(recs.out().fire(), () -> headBeats.set(beatsOf(recs.out().field("len")).resize(beatsWidth())));
        // una of the record in the head register: the incoming record's when one loads, else the held one's
        Expr loading = recs.out().fire();
        Expr unaRead = una.readSync("reclaim_una", loading, recs.out().field("dst"), head.field("dst"), Hw.bool(true));
        Reg headPsnP1 = regNoReset("reclaim_head_psn_p1", SueMeta.PSN_WIDTH); // the head record's psn + 1
        when(loading, () -> headPsnP1.set(recs.out().field("psn").add(1)));
        Expr acked = Hw.atOrAfter(unaRead, headPsnP1); // una - psn - 1 < 2^15
        Expr guarded = walking.and(walkIdx.eq(rh)).or(walkStarting).or(walkRestarting);
        head.ready().set(acked.and(guarded.not()));
        when(head.fire(), () -> rh.set(rh.add(1)));
        // the pointers after this cycle's steps differ in the wrap bit only when the records are full
        Expr freed = head.fire();
        recordFree.set(Hw.mux(writerEnds.and(freed.not()), rt.add(1).xor(rh).ne(config.storeBeats()),
                Hw.mux(freed.and(writerEnds.not()), rt.xor(rh.add(1)).ne(config.storeBeats()),
                        rt.xor(rh).ne(config.storeBeats()))));
        // the free beats after the writer's beat and this release: both sums are formed beside the handshakes
        Expr released = free.add(headBeats.resize(pw));
        free.set(Hw.mux(head.fire(), Hw.mux(writerBeat, released.sub(1), released),
                Hw.mux(writerBeat, free.sub(1), free)));
        unused("reclaim_addr", head.field("addr"), head.field("vc"), head.field("len"), head.field("psn"));
    }

    /** ack_request: one beat holding the byte 0x00 (an empty command list), len 1, PSN 0, VC 0. */
    private void ackOnlyPdus() {
        Expr user = SueMeta.LAYOUT.expr().set(SueMeta.DST_XPU, ackRequest.field("xpu"))
                .set(SueMeta.PORT, ackRequest.field("port")).set(SueMeta.LEN,
                Hw.lit(SueMeta.LEN_WIDTH, 1)).build();
        ackOnly = ackRequest.map("ack_only", out.layout(), Hw.cat(user, Hw.bool(true),
                Hw.lit(config.beatBytes(), 1), Hw.zeros(config.busWidth())));
        counter("ack_only_sent", ackRequest.fire());
    }

    /** dst_ready: neither retransmitting nor at the window; the writer closes, the ACK engine reopens, the scanner refreshes. */
    private void eligibility() {
        int d = config.connections();
        Expr scanBit = onehot(scanConn, d);
        Expr afterScan = Hw.mux(scanValid, Hw.mux(scanWindowFull, blocked.or(scanBit), blocked.and(scanBit.not())),
                blocked);
        Expr afterAck = Hw.mux(ackUnblock, afterScan.and(onehot(ackUnblockConn, d).not()), afterScan);
        blocked.set(Hw.mux(writerBlock, afterAck.or(onehot(newDst, d)), afterAck));
        Expr setRetx = Hw.mux(ackRequestPush, onehot(ackRequestConn(), d), Hw.zeros(d))
                .or(Hw.mux(scanRequestPush, onehot(scanConn, d), Hw.zeros(d)));
        Expr clearRetx = Hw.mux(walkDone, onehot(walkConn, d), Hw.zeros(d));
        retransmitting.set(retransmitting.or(setRetx).and(clearRetx.not()));
        for (Follower f : followers) {
            f.copy().set(Hw.mux(f.load(), nextRetransmitting(retransmitting.shr(f.loadIdx()).bit(0), f.loadIdx()),
                    nextRetransmitting(f.copy(), f.i())));
        }
        dstReady.set(blocked.or(retransmitting).not().and(Hw.mux(initBusy, Hw.zeros(d), Hw.ones(d))));
    }

    /** Bit {@code j} of retransmitting in the next cycle, given its value now: the sets, then the walk's clear. */
    private Expr nextRetransmitting(Expr now, Expr j) {
        Expr set = ackRequestPush.and(ackRequestConn().eq(j)).or(scanRequestPush.and(scanConn.eq(j)));
        if (config.connections() != 1 << cw) { // a one-hot set past the last row sets nothing
            set = set.and(j.lt(config.connections()));
        }
        return now.or(set).and(walkDone.and(walkConn.eq(j)).not());
    }

    /**
     * A register equal to {@code retransmitting[i]} in every cycle, where {@code i} changes only to {@code loadIdx}
     * when {@code load} (as TransportRx's flags are followed): the bit without a multiplexer over all connections
     * after {@code i}.
     */
    private Expr followRetransmitting(String name, Expr load, Expr loadIdx, Expr i) {
        Reg copy = reg(name, 1, 0);
        followers.add(new Follower(copy, load, loadIdx, i));
        return copy;
    }

    private record Follower(Reg copy, Expr load, Expr loadIdx, Expr i) {
    }

    private Expr ackRequestConn() {
        return request.get(ackRequestPayload, "conn");
    }

    /** Packet round robin; op/rpsn asked of the receive side at each first beat, filled in one cycle later. */
    private void output() {
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
        Reg op = regNoReset("tx_op", 2);
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
                SueMeta.PARTITION.of(inUser), SueMeta.ERR.of(inUser));
        Reg outFirst = reg("out_first", 1, 1);
        when(out.fire(), () -> outFirst.set(out.tlast()));
        charge.valid().set(out.fire().and(outFirst));
        charge.field("vc").set(SueMeta.VC.of(out.tuser()));
        charge.field("len").set(SueMeta.LEN.of(out.tuser()));
        Expr dataPdu = out.tdata().bits(7, 0).ne(0); // ACK-only PDUs start with the byte 0x00 (section 6.3)
        counter("acks_piggybacked", out.fire().and(outFirst).and(dataPdu).and(opNow.ne(0)));
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
        for (int i = 0; i < sources.size(); i++) {
            Stream s = sources.get(i);
            String name = names.get(i);
            Reg first = reg(name + "_gate_first", 1, 1);
            Reg offered = reg(name + "_gate_offered", 1, 0);
            Expr vc = SueMeta.VC.of(s.tuser());
            Expr wants = wire(name + "_wants_start", s.valid().and(first).and(offered.not()));
            Expr start = wire(name + "_start", wants.and(linkVcReady.shr(vc).bit(0)).and(granted.not()));
            Stream g = s.continueWhen(name + "_link_ready", first.not().or(offered).or(start));
            when(g.fire(), () -> first.set(g.tlast()));
            offered.set(g.valid().and(g.ready().not()));
            waiting = waiting.or(Hw.mux(wants, onehot(vc, SueMeta.VCS), Hw.zeros(SueMeta.VCS)));
            startVc = Hw.mux(start, vc, startVc);
            granted = granted.or(start);
            gated.add(g);
        }
        reserve.valid().set(granted);
        reserve.field("vc").set(startVc);
        pickVcReady.set(Hw.mux(granted, Hw.zeros(SueMeta.VCS), linkVcReady.and(waiting.not())));
        return gated;
    }

    private void status() {
        out("store_used_beats", pw).set(Hw.lit(pw, config.storeBeats()).sub(free));
        out("store_records", pw).set(rt.sub(rh));
        out("retransmitting_any", 1).set(retransmitting.orR());
    }

    /** The one write port of a per-connection table; during the init sweep it writes zero at the sweep's row. */
    private record TableWrite(Wire enable, Wire address, Wire data, Reg initBusy, Reg initIdx) {
        void set(Expr en, Expr addr, Expr value) {
            enable.set(initBusy.or(en));
            address.set(Hw.mux(initBusy, initIdx, addr));
            data.set(Hw.mux(initBusy, Hw.zeros(data.width()), value));
        }
    }

    private TableWrite writePort(Mem m) {
        Wire en = wire(m.name() + "_we", 1);
        Wire addr = wire(m.name() + "_wa", m.addressWidth());
        Wire value = wire(m.name() + "_wd", m.width());
        m.write(en, addr, value);
        return new TableWrite(en, addr, value, initBusy, initIdx);
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    /** {port, XPU} as a table row (the ids' low bits; the packing buffer and the receive side never exceed them). */
    private Expr conn(Expr port, Expr xpu) {
        ConnectionIndex c = ConnectionIndex.of(config, port, xpu);
        if (!c.spare().isEmpty()) {
            unused("conn_spare_" + unusedSpare++, c.spare().toArray(Expr[]::new));
        }
        return c.row();
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

    private static Expr onehot(Expr index, int n) {
        return Hw.lit(n, 1).shl(index);
    }

    public TransportConfig config() {
        return config;
    }
}
