package org.sue.transport;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.Wire;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.FifoControl;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.SueMeta;

/**
 * Receive side of the transport of one port (docs/protocol.md sections 6.3 and 6.4): takes the PDUs that passed the
 * framing checks, delivers those whose PSN is the expected one of their source, and keeps what the transmit side
 * needs to acknowledge them.
 *
 * <p><b>Decision</b>, at a PDU's first beat, one PDU per cycle: a source at or beyond {@code destinations} is dropped
 * ({@code unknown_source_dropped}, no {@code peer_ack}); a first byte 0 is an ACK-only PDU (not delivered,
 * {@code ack_only_received}); otherwise {@code diff = psn - expected[src] mod 2^16}: 0 accepts (expected + 1, the
 * ACK becomes owed, a NACK owed is dropped and another may be sent), 1 .. 2^15 - 1 is later (dropped; the first one
 * since the last accept makes a NACK owed), the rest is earlier (dropped as a duplicate, an ACK becomes owed). Every
 * PDU from a known source hands its RH {@code op}/{@code rpsn} to the transmit side on {@code peer_ack} the cycle
 * after. A decided PDU's remaining beats follow its first: delivered on {@code m_axis} unchanged or dropped.
 *
 * <p><b>Pipeline</b>: a beat enters the {@code held} register as the source's row of the {@code connections} RAM is
 * read, is decided there and leaves through the {@code out} register to {@code m_axis} (two cycles; ready passes
 * straight through, so {@code m_axis_tready} low stalls {@code s_axis} and no accepted beat is ever lost). The row
 * written by a decision is forwarded to the beat entering in the same cycle, so one-beat PDUs of one source follow
 * each other every cycle.
 *
 * <p><b>State per source</b> (a source is a connection {port, XPU}, {@link ConnectionIndex}: {@code ports x
 * destinations} rows, the port from the PDU's {@code port} field): the {@code connections} RAM holds the expected
 * PSN and the PDUs accepted since the ACK became owed (or since the last urgent request); it has no reset and needs no clearing sweep, because it is only
 * believed where flip-flop flags with reset say it was written: the expected PSN where {@code seen} (something was
 * accepted; else 0), the count where {@code ack_owed}. Flags, one bit per source: {@code seen}, {@code ack_owed},
 * {@code nack_owed}, {@code nack_sent} (a NACK since the last accept), {@code queued} and {@code stale} (below).
 *
 * <p><b>Replies</b>: {@code ack_query} in cycle t gives {@code ack_reply} in t + 1 (valid from a register, the fields
 * from registers and the RAM's read register) from the state before t: NACK with the expected PSN if one is owed,
 * else ACK of expected - 1 if anything was accepted, else op 0 and rpsn 0. The reply clears both owed flags in t,
 * counted in {@code acks_sent} / {@code nacks_sent}; a decision of cycle t that owes one again wins over the clear.
 *
 * <p><b>ACK requests</b> ({@code ack_request}, from a register): urgent ones first, when a NACK becomes owed or
 * {@code ackCount} PDUs were accepted since the ACK became owed (or since the last such request), through a
 * {@value #URGENT_DEPTH}-entry queue; a request that finds it full is dropped, which is safe because the owed
 * queue covers every owed flag. The owed queue: when a source's ACK or NACK becomes owed and the source is not
 * {@code queued}, {source, cycle} joins a FIFO as deep as there are sources (a source at most once in it), checked at
 * its head against a free-running cycle counter: {@code ackDelay} cycles later the source is requested. A reply that
 * clears a queued source marks it {@code stale}; when a stale head is due it is dropped if nothing is owed any more,
 * and if something became owed again it goes back to the tail with the current cycle, so such an ACK is requested
 * between {@code ackDelay} and {@code 2 ackDelay} cycles after it became owed, never before. Requests of sources
 * whose flags a reply cleared in the meantime are dropped, urgent ones too. Both queues are
 * {@link org.sue.lib.stream.FifoControl}s (a SyncFifo's timing) over storage of their own, so their heads' flags
 * are followed in registers: the urgent entries in registers, the owed queue in a RAM whose next word is read a cycle
 * ahead.
 */
public final class TransportRx extends Component {
    /** Urgent ACK requests waiting for {@code ack_request}; more are dropped (the owed queue still covers them). */
    public static final int URGENT_DEPTH = 4;

    public final Stream in;
    public final Stream out;
    /** op/rpsn of every PDU from a known source, to the transmit side: {@code peer_ack_*}. */
    public final Flow peerAck;
    /** The transmit side frames a PDU to {@code ack_query_xpu}. */
    public final Flow ackQuery;
    /** What that PDU carries, the cycle after the query. */
    public final Flow ackReply;
    /** Send an ACK-only PDU to {@code ack_request_xpu}. */
    public final Stream ackRequest;
    /**
     * {vc, len} of every PDU not delivered (dropped or ACK-only), the cycle after its decision: the receive buffer
     * behind this block frees such a PDU's space here, as it frees a delivered one's as it leaves.
     */
    public final Flow discarded;
    private final TransportConfig config;

    private final int connections;
    private final int cw;
    /** A row of {@code connections}: the expected PSN and the PDUs accepted since the ACK became owed. */
    private final Layout row;
    /** An entry of the owed queue: the source and the cycle it was queued in. */
    private final Layout owedEntry;
    private final Layout source;

    public TransportRx(TransportConfig config) {
        super(config);
        this.config = config;
        connections = config.connections();
        cw = config.connectionWidth();
        row = Layout.of("connection", Layout.bits("expected", SueMeta.PSN_WIDTH),
                Layout.bits("since_ack", Hw.log2Up(config.ackCount())));
        owedEntry = Layout.of("owed_entry", Layout.bits("conn", cw), Layout.bits("time", TransportConfig.TIME_WIDTH));
        source = Layout.plain("conn", cw);

        StreamConfig bus = new StreamConfig(config.busWidth(), SueMeta.WIDTH);
        in = Stream.slave(this, bus);
        out = Stream.master(this, bus);
        peerAck = Flow.master(this, "peer_ack", AckLinks.PEER_ACK);
        ackQuery = Flow.slave(this, "ack_query", AckLinks.ACK_QUERY);
        ackReply = Flow.master(this, "ack_reply", AckLinks.ACK_REPLY);
        ackRequest = Stream.master(this, "ack_request", AckLinks.ACK_REQUEST);
        discarded = Flow.master(this, "discarded", SueMeta.PDU_SIZE);

        Mem table = mem("connections", connections, row.width(), ReadUnderWrite.READ_FIRST);
        SourceFlags flags = new SourceFlags(new Flags("seen"), new Flags("ack_owed"), new Flags("nack_owed"),
                new Flags("nack_sent"), new Flags("queued"), new Flags("stale"));
        Reply reply = replies(table, flags);
        Decision decision = decide(table, reply, flags);
        Owed owed = owedQueue(decision, reply, flags);
        requests(urgentQueue(decision, flags), owed.late());
        flagUpdates(flags, decision, reply, owed);
        status(decision, reply);
    }

    /** The flags of every source (class comment). */
    private record SourceFlags(Flags seen, Flags ackOwed, Flags nackOwed, Flags nackSent, Flags queued, Flags stale) {
    }

    /** This cycle's reply: it clears source {@code idx}'s owed flags where {@code clears}; what it carried. */
    private record Reply(Expr clears, Expr idx, Expr ackSent, Expr nackSent) {
        Term term() {
            return new Term(clears, idx);
        }
    }

    /**
     * This cycle's decision on the PDU in {@code held}, all gated by {@code decide} (its first beat moves on): its
     * source {@code idx}, what became owed, whether the source is in the owed queue ({@code queued}, followed).
     */
    private record Decision(Expr idx, Expr decide, Expr known, Expr ackOnly, Expr accept, Expr later, Expr earlier,
                            Expr owesAck, Expr owesNack, Expr urgent, Expr queued) {
    }

    /**
     * The owed queue's due requests ({@code late}), this cycle's new entry ({@code push}), its head's source and
     * whether the head leaves ({@code leaves}) and with it the source ({@code unqueue}, nothing of it stays queued).
     */
    private record Owed(Stream late, Expr push, Expr headIdx, Expr leaves, Expr unqueue) {
    }

    /** ack_query in t -> ack_reply in t + 1 from the state before t; the reply clears the owed flags. */
    private Reply replies(Mem connections, SourceFlags flags) {
        Expr q = ackQuery.field("xpu");
        Expr knownQ = knownXpu(q);
        Expr queryIdx = wire("query_idx", row("query_idx", ackQuery.field("port"), q));
        Expr clearing = wire("reply_clears", ackQuery.valid().and(knownQ));
        Expr nack = wire("reply_nack", knownQ.and(flags.nackOwed().at(queryIdx)));
        Expr any = wire("reply_seen", knownQ.and(flags.seen().at(queryIdx)));
        Expr read = connections.readSync("reply_read", queryIdx, ackQuery.valid());
        Reg valid = reg("reply_valid", 1, 0);
        Reg nackReg = regNoReset("reply_nack_reg", 1);
        Reg seenReg = regNoReset("reply_seen_reg", 1);
        valid.set(ackQuery.valid());
        when(ackQuery.valid(), () -> {
            nackReg.set(nack);
            seenReg.set(any);
        });
        Expr expected = row.get(read, "expected");
        int ow = SueMeta.OP.width();
        Expr op = Hw.mux(nackReg, Hw.lit(ow, config.opNack()), Hw.mux(seenReg, Hw.lit(ow, config.opAck()),
                Hw.zeros(ow)));
        Expr rpsn = Hw.mux(seenReg, Hw.mux(nackReg, expected, expected.sub(1)), Hw.zeros(SueMeta.PSN_WIDTH));
        ackReply.valid().set(valid);
        ackReply.field("op").set(op);
        ackReply.field("rpsn").set(rpsn);
        unused("reply_row", row.get(read, "since_ack"));
        return new Reply(clearing, queryIdx, clearing.and(nack.not()).and(any), clearing.and(nack));
    }

    /**
     * s_axis -> held (connection row read) -> decision -> out -> m_axis, and peer_ack: the decision at a PDU's first
     * beat, the connection row it writes back.
     */
    private Decision decide(Mem connections, Reply reply, SourceFlags flags) {
        Stream held = in.stage("held");
        Expr user = held.tuser();
        Expr src = SueMeta.SRC_XPU.of(user);
        Expr known = wire("known_source", knownXpu(src));
        Expr idx = wire("src_idx", row("src_idx", SueMeta.PORT.of(user), src));
        Expr ackOnly = wire("ack_only", AckLinks.ackOnly(held.tdata()));
        Reg atStart = reg("at_start", 1, 1); // the beat in `held` is a PDU's first
        Reg keepPdu = reg("keep_pdu", 1, 0); // the decision for the PDU's later beats

        Expr readIdx = row("read_idx", SueMeta.PORT.of(in.tuser()), SueMeta.SRC_XPU.of(in.tuser()));
        Wire rowWrite = wire("row_write", 1);
        Wire newRow = wire("new_row", row.width());
        Expr rowNow = heldRow(connections, readIdx, idx, rowWrite, newRow);
        // the held source's flags, followed in registers: no 1024:1 flag multiplexer in the decision's cycle
        Expr entered = in.fire();
        Expr seenHere = flags.seen().follow("seen_held", entered, readIdx, idx);
        Expr ackOwedHere = flags.ackOwed().follow("ack_owed_held", entered, readIdx, idx);
        Expr nackSentHere = flags.nackSent().follow("nack_sent_held", entered, readIdx, idx);
        Expr queuedHere = flags.queued().follow("queued_held", entered, readIdx, idx);

        // only what a flag with reset vouches for is believed: the RAM has no reset
        Expr expected = wire("expected", Hw.mux(seenHere, row.get(rowNow, "expected"),
                Hw.zeros(SueMeta.PSN_WIDTH)));
        Expr psn = SueMeta.PSN.of(user);
        Expr diff = wire("psn_diff", psn.sub(expected));
        Expr data = wire("data_pdu", known.and(ackOnly.not()));
        Expr inOrder = wire("in_order", data.and(psn.eq(expected))); // diff 0, without waiting for the subtraction
        Expr drop = wire("drop", Hw.mux(atStart, inOrder.not(), keepPdu.not()));
        held.throwWhen("kept", drop).stage("out").into(out);
        Expr decide = wire("decide", held.fire().and(atStart));
        when(held.fire(), () -> atStart.set(held.tlast()));
        when(decide, () -> keepPdu.set(inOrder));

        Expr later = wire("later", decide.and(data).and(diff.ne(0)).and(diff.msb().not()));
        Expr earlier = wire("earlier", decide.and(data).and(diff.msb()));
        Expr accept = wire("accept_now", decide.and(inOrder));
        // PDUs accepted since the ACK became owed; a reply clearing it this cycle comes first
        Expr owedBefore = ackOwedHere.and(reply.term().hits(idx).not());
        Expr since = wire("since_ack", Hw.mux(owedBefore, row.get(rowNow, "since_ack"),
                Hw.zeros(row.field("since_ack").width())));
        // since + 1 reaching ackCount is since reaching ackCount - 1; only a count below ackCount is stored
        Expr countReached = wire("ack_count_reached", since.eq(config.ackCount() - 1));
        Expr counted = wire("accepted_since", since.add(1));
        Expr owesAck = wire("owes_ack", accept.or(earlier));
        Expr owesNack = wire("owes_nack", later.and(nackSentHere.not()));
        Expr urgent = wire("urgent_now", owesNack.or(accept.and(countReached)));

        rowWrite.set(accept.or(later).or(earlier));
        Expr nextExpected = wire("expected_plus_1", expected.add(1)); // beside the decision, not after it
        newRow.set(row.expr().set("expected", Hw.mux(accept, nextExpected, expected))
                .set("since_ack", Hw.mux(accept, Hw.mux(countReached, Hw.zeros(since.width()), counted), since))
                .build());
        connections.write(rowWrite, idx, newRow);

        Expr peer = AckLinks.PEER_ACK.expr().set("port", SueMeta.PORT.of(user)).set("xpu", src)
                .set("op", SueMeta.OP.of(user))
                .set("rpsn", SueMeta.RPSN.of(user)).build();
        Flow.registered(this, "peer", decide.and(known), AckLinks.PEER_ACK, peer).into(peerAck);
        Flow.registered(this, "discard", decide.and(inOrder.not()), SueMeta.PDU_SIZE, SueMeta.sizeOf(user))
                .into(discarded);
        return new Decision(idx, decide, known, ackOnly, accept, later, earlier, owesAck, owesNack, urgent,
                queuedHere);
    }

    /**
     * The row of the PDU in {@code held} ({@code idx}), read from the table as its beat entered from row
     * {@code readIdx}; a decision writing the same row ({@code write}, {@code written}) in that cycle is forwarded.
     */
    private Expr heldRow(Mem connections, Expr readIdx, Expr idx, Expr write, Expr written) {
        Expr entering = in.ready();
        Expr rowRead = connections.readSync("row_read", readIdx, entering);
        Reg fwdHit = reg("row_fwd_hit", 1, 0);
        Reg fwdRow = regNoReset("row_fwd", row.width());
        when(entering, () -> {
            fwdHit.set(write.and(idx.eq(readIdx)));
            fwdRow.set(written);
        });
        return wire("row", Hw.mux(fwdHit, fwdRow, rowRead));
    }

    /**
     * Owed sources in the order their ACK or NACK became owed, each at most once; the head is due {@code ackDelay}
     * cycles after it joined. Its {@code late} stream requests the due heads that are still owed.
     */
    private Owed owedQueue(Decision d, Reply reply, SourceFlags flags) {
        Reg now = reg("now", TransportConfig.TIME_WIDTH, 0);
        now.set(now.add(1)); // free-running: the entries' times are cycles of it
        // a decision's new entry goes first; a stale head's re-entry waits in `again` meanwhile
        Wire push = wire("owed_push", 1);
        Wire headIdx = wire("head_idx", cw);
        Wire repushDue = wire("repush_due", 1);
        Stream repush = Stream.of(this, "repush", repushDue, source, headIdx);
        Stream again = repush.stage("again").haltWhen(push);
        Expr pushConn = Hw.mux(push, d.idx(), again.field("conn"));
        Stream entering = Stream.of(this, "owed_in", push.or(again.valid()), owedEntry,
                owedEntry.expr().set("conn", pushConn).set("time", now).build());

        // the word the output register loads next is read a cycle ahead: the head's flags and due time follow in
        // registers
        Mem ram = mem("owed", connections, owedEntry.width(), ReadUnderWrite.WRITE_FIRST);
        FifoControl fifo = FifoControl.of("owed", connections, entering);
        again.ready().set(entering.ready()); // never full: one entry per queued source at most
        ram.write(fifo.write(), fifo.wrPtr(), entering.payload());
        Expr load = fifo.load();
        Reg head = regNoReset("owed_head", owedEntry.width());
        Expr upcoming = ram.readSync("owed_upcoming", load, fifo.rdNext(), fifo.rdPtr(), Hw.bool(true));
        Expr upConn = owedEntry.get(upcoming, "conn");
        when(load, () -> head.set(upcoming));
        headIdx.set(owedEntry.get(head, "conn"));

        Expr due = wire("head_due", fifo.valid().and(dueNext(load, owedEntry.get(upcoming, "time"),
                owedEntry.get(head, "time"))));
        // the head's owed and stale flags, followed (a source in the queue is queued: a reply marks it stale)
        Expr ackHere = flags.ackOwed().follow("owed_head_ack_owed", load, upConn, headIdx);
        Expr nackHere = flags.nackOwed().follow("owed_head_nack_owed", load, upConn, headIdx);
        Reg staleHere = reg("owed_head_stale", 1, 0);

        // this cycle's decision and reply count: a set wins over a clear, a clear makes the entry stale
        Expr clearedNow = reply.term().hits(headIdx);
        Expr owedNext = wire("head_owed", d.owesAck().or(d.owesNack()).and(d.idx().eq(headIdx))
                .or(ackHere.or(nackHere).and(clearedNow.not())));
        Expr staleNext = wire("head_stale", staleHere.or(clearedNow));
        Stream late = Stream.of(this, "late", due.and(staleNext.not()), source, headIdx);
        repushDue.set(due.and(staleNext).and(owedNext));
        Expr discard = wire("head_discard", due.and(staleNext).and(owedNext.not()));
        fifo.ready().set(late.fire().or(repush.fire()).or(discard));
        Expr leaves = wire("head_leaves", fifo.valid().and(fifo.ready()));
        Expr unqueue = wire("head_unqueued", late.fire().or(discard));
        Owed owed = new Owed(late, push, headIdx, leaves, unqueue);
        staleHere.set(Hw.mux(load, nextStale(flags.stale().at(upConn), upConn, reply, owed),
                nextStale(staleHere, headIdx, reply, owed)));
        // a source leaving the owed queue in this cycle is not queued any more
        Expr stillQueued = d.queued().and(unqueue.and(headIdx.eq(d.idx())).not());
        push.set(d.owesAck().or(d.owesNack()).and(stillQueued.not()));
        return owed;
    }

    /**
     * Whether the head is due in the next cycle: now - time >= ackDelay, i.e. time in the circular range [now + 1,
     * now - ackDelay], formed a cycle early against now + 2 and now + 1 - ackDelay counted beside now; the time of
     * the word loading ({@code loading}) where {@code load}, else the head's.
     */
    private Expr dueNext(Expr load, Expr loading, Expr held) {
        long timeMask = (1L << TransportConfig.TIME_WIDTH) - 1;
        Reg dueFrom = reg("owed_due_from", TransportConfig.TIME_WIDTH, 2);
        Reg dueTo = reg("owed_due_to", TransportConfig.TIME_WIDTH, (1 - (long) config.ackDelay()) & timeMask);
        dueFrom.set(dueFrom.add(1));
        dueTo.set(dueTo.add(1));
        Reg dueNext = reg("owed_head_due_time", 1, 0);
        dueNext.set(Hw.mux(load, Hw.inCircularRange(loading, dueFrom, dueTo),
                Hw.inCircularRange(held, dueFrom, dueTo)));
        return dueNext;
    }

    /**
     * The urgent requests' FIFO ({@value #URGENT_DEPTH} words, a push while full is dropped) in registers: each entry
     * and the output register follow their source's {@code ack_owed} and {@code nack_owed}, so the head's check is
     * no 1024:1 multiplexer. Its output: the heads still owed (a reply carried the others meanwhile).
     */
    private Stream urgentQueue(Decision d, SourceFlags flags) {
        Stream in = Stream.of(this, "urgent_in", d.urgent(), source, d.idx());
        unused("urgent_room", in.ready()); // full: dropped, the owed queue covers it
        FifoControl fifo = FifoControl.of("urgent", URGENT_DEPTH, in);
        List<Expr> conns = new ArrayList<>();
        List<Expr> acks = new ArrayList<>();
        List<Expr> nacks = new ArrayList<>();
        for (int k = 0; k < URGENT_DEPTH; k++) {
            Reg conn = regNoReset("urgent_conn_" + k, cw);
            Expr writeHere = fifo.write().and(fifo.wrPtr().eq(k));
            when(writeHere, () -> conn.set(in.field("conn")));
            conns.add(conn);
            acks.add(flags.ackOwed().follow("urgent_ack_owed_" + k, writeHere, in.field("conn"), conn));
            nacks.add(flags.nackOwed().follow("urgent_nack_owed_" + k, writeHere, in.field("conn"), conn));
        }
        // the output register, refilled from the oldest entry whenever it is empty or being emptied
        Reg head = regNoReset("urgent_head", cw);
        Stream out = fifo.output("urgent", source, head);
        Expr load = fifo.load();
        Expr oldest = Hw.select(conns, fifo.rdPtr());
        when(load, () -> head.set(oldest));
        Expr ackHere = flags.ackOwed().follow("urgent_head_ack_owed", load, Hw.select(acks, fifo.rdPtr()), oldest,
                head);
        Expr nackHere = flags.nackOwed().follow("urgent_head_nack_owed", load, Hw.select(nacks, fifo.rdPtr()),
                oldest, head);
        return out.throwWhen("urgent_owed", ackHere.or(nackHere).not());
    }

    /**
     * Urgent requests before due ones, into a register: ack_request. The choice is made anew each cycle (nothing
     * holds it): the register takes whatever is offered when it has room.
     */
    private void requests(Stream urgent, Stream late) {
        Stream chosen = Arbiter.priority("request_pick", List.of(urgent, late), Arbiter.Lock.NONE).out();
        Expr conn = chosen.field("conn");
        chosen.map("request", AckLinks.ACK_REQUEST, AckLinks.ACK_REQUEST.expr()
                .set("port", ConnectionIndex.port(config, conn, SueMeta.PORT.width()))
                .set("xpu", ConnectionIndex.xpu(config, conn, SueMeta.XPU_WIDTH)).build())
                .stage("request_out").into(ackRequest);
    }

    /** Every flag's next value: sets (this cycle's decision) win over clears (this cycle's reply). */
    private void flagUpdates(SourceFlags flags, Decision d, Reply reply, Owed owed) {
        Term accepted = new Term(d.accept(), d.idx());
        flags.seen().update(accepted);
        flags.ackOwed().update(new Term(d.owesAck(), d.idx()), reply.term());
        flags.nackOwed().update(new Term(d.owesNack(), d.idx()), reply.term(), accepted);
        flags.nackSent().update(new Term(d.owesNack(), d.idx()), accepted);
        flags.queued().update(new Term(owed.push(), d.idx()), new Term(owed.unqueue(), owed.headIdx()));
        // a cleared queued source's entry is stale; the entry leaving takes its stale mark with it
        Expr cleared = oneHot(reply.clears(), reply.idx());
        Expr left = oneHot(owed.leaves(), owed.headIdx());
        Reg stale = flags.stale().bits;
        stale.set(stale.or(cleared.and(flags.queued().bits)).and(left.not()));
    }

    /** Source {@code j}'s next stale flag, given its flag now and that it is queued (flagUpdates). */
    private static Expr nextStale(Expr now, Expr j, Reply reply, Owed owed) {
        return now.or(reply.term().hits(j)).and(owed.leaves().and(owed.headIdx().eq(j)).not());
    }

    /** The status outputs, in port order. */
    private void status(Decision d, Reply reply) {
        statusCounter("accepted", d.accept(), "Data PDUs accepted: in order from a known source, delivered on"
                + " m_axis.");
        statusCounter("out_of_order_dropped", d.later(), "Data PDUs dropped for a PSN later than the expected one"
                + " (a gap; a NACK becomes owed).");
        statusCounter("duplicates_dropped", d.earlier(), "Data PDUs dropped for a PSN earlier than the expected one"
                + " (duplicates; an ACK becomes owed).");
        statusCounter("ack_only_received", d.decide().and(d.known()).and(d.ackOnly()), "ACK-only PDUs received"
                + " (first byte 0), not delivered.");
        statusCounter("unknown_source_dropped", d.decide().and(d.known().not()), "PDUs dropped because their source"
                + " XPU is not below destinations.");
        statusCounter("acks_sent", reply.ackSent(), "Replies to ack_query that carried an ACK (op ACK in a sent"
                + " PDU's RH).");
        statusCounter("nacks_sent", reply.nackSent(), "Replies to ack_query that carried a NACK (op NACK in a sent"
                + " PDU's RH).");
    }

    /** A flag update of one source: {@code idx}'s bit where {@code cond}. */
    private record Term(Expr cond, Expr idx) {
        Expr hits(Expr i) {
            return cond.and(idx.eq(i));
        }
    }

    /** One bit per source, reset to 0. */
    private final class Flags {
        final Reg bits;
        private final List<Follower> followers = new ArrayList<>();

        Flags(String name) {
            bits = reg(name, connections, 0);
        }

        Expr at(Expr i) {
            return bits.shr(i).bit(0);
        }

        /**
         * A register equal to {@code at(i)} in every cycle, where {@code i} changes only to {@code loadIdx} when
         * {@code load}: the flag's bit without a multiplexer over all sources after {@code i}.
         */
        Expr follow(String name, Expr load, Expr loadIdx, Expr i) {
            return follow(name, load, at(loadIdx), loadIdx, i);
        }

        /** The same, loaded from {@code loadNow}, another follower's {@code at(loadIdx)}. */
        Expr follow(String name, Expr load, Expr loadNow, Expr loadIdx, Expr i) {
            Reg copy = reg(name, 1, 0);
            followers.add(new Follower(copy, load, loadNow, loadIdx, i));
            return copy;
        }

        /** Each cycle the clears first, then the set: a decision's set wins over a reply's clear. */
        void update(Term set, Term... clears) {
            Expr cleared = Hw.zeros(connections);
            for (Term c : clears) {
                cleared = cleared.or(oneHot(c.cond(), c.idx()));
            }
            bits.set(bits.and(cleared.not()).or(oneHot(set.cond(), set.idx())));
            for (Follower f : followers) {
                f.copy().set(Hw.mux(f.load(), next(f.loadNow(), f.loadIdx(), set, clears),
                        next(f.copy(), f.i(), set, clears)));
            }
        }

        /** Bit {@code j}'s next value, given its value now. */
        private Expr next(Expr now, Expr j, Term set, Term[] clears) {
            Expr clearedHere = Hw.bool(false);
            for (Term c : clears) {
                clearedHere = clearedHere.or(c.hits(j));
            }
            return now.and(clearedHere.not()).or(set.hits(j));
        }
    }

    private record Follower(Reg copy, Expr load, Expr loadNow, Expr loadIdx, Expr i) {
    }

    private Expr oneHot(Expr cond, Expr i) {
        return Hw.mux(cond, Hw.lit(connections, 1).shl(i), Hw.zeros(connections));
    }

    /** The XPU has a connection: below {@code destinations}. */
    private Expr knownXpu(Expr xpu) {
        int xw = Hw.log2Up(config.destinations());
        return xw < SueMeta.XPU_WIDTH ? xpu.bits(SueMeta.XPU_WIDTH - 1, xw).orR().not() : Hw.bool(true);
    }

    /**
     * {port, XPU} as a row of the connection tables; XPUs past {@code destinations} are caught by knownXpu, the ids'
     * bits the row leaves out are {@code <name>_spare}.
     */
    private Expr row(String name, Expr port, Expr xpu) {
        ConnectionIndex c = ConnectionIndex.of(config, port, xpu);
        if (!c.spare().isEmpty()) {
            unused(name + "_spare", c.spare().toArray(Expr[]::new));
        }
        return c.row();
    }

    public TransportConfig config() {
        return config;
    }
}
