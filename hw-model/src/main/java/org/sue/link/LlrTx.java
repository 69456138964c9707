package org.sue.link;

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
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;

/**
 * Transmit side of Link Layer Retry (docs/protocol.md section 7.3): numbers every eligible frame, keeps it in the
 * replay buffer until a cumulative ACK covers it, and replays on a NACK or when the replay timer fires.
 *
 * <p>Frames come from the framing ({@code s_axis}; tuser: poison the frame, read on its last beat) and leave for the
 * MAC ({@code m_axis}; tuser {@link LlrSideband#TX}) through a register stage. The replay buffer is a ring of bus
 * beats written as a frame passes (cut through) and a ring of records, one per sequence number (where the frame
 * starts, when it was sent). Stages:
 * <ul>
 * <li><b>fresh frames</b>: in ADVANCE a frame leaves with the next sequence number while fewer than
 * {@code outstandingFramesMax} frames and {@code outstandingBytesMax} bytes (whole beats) are unacknowledged; in OFF
 * it leaves without one; in INIT and FLUSH the frame action says (discard, block, best effort);</li>
 * <li><b>ACK / NACK</b> ({@code ctl_in}): a message whose sequence number is outside [oldest - 1, newest sent] is
 * counted as a sequence error and ignored; otherwise the frames up to it are freed (the record of the next one says
 * where its beats start, read in the following cycle), and a NACK asks for a replay of the rest;</li>
 * <li><b>replay</b>: at the next frame boundary the reader goes back to the oldest frame and sends everything
 * stored, with the original numbers, then ADVANCE again; a NACK during a replay starts it again at the next
 * boundary; no fresh frame starts meanwhile;</li>
 * <li><b>timers</b>: no advancing ACK for {@code replayTimerCycles} while frames are unacknowledged replays the whole
 * buffer, at most {@code replayCountMax} times in a row, then FLUSH; {@code link_up} low for more than
 * {@code pcsLostTimeoutCycles}, or an unacknowledged frame older than {@code dataAgeTimeoutCycles}, also FLUSH;</li>
 * <li><b>state</b>: OFF while {@code llr_enable} is low (the buffer empty, frames without numbers); INIT sends INIT
 * with the next sequence number every {@code initRetryCycles} until the matching INIT_ECHO, none while {@code link_up}
 * is low (one due meanwhile leaves as the link comes back); FLUSH empties the buffer and goes back to INIT
 * ({@code reInitOnFlush}, counted as {@code tx_reinit}) or stays until {@code llr_enable} is taken low. A state change
 * that would take the output from another source waits for the frame on it to end.</li>
 * </ul>
 */
public final class LlrTx extends Component {
    /** The transmitter's state (docs/protocol.md 7.3), {@code tx_state}. */
    public enum LlrTxState {
        OFF, INIT, ADVANCE, REPLAY, FLUSH;

        /** The state a {@code tx_state} value names. */
        public static LlrTxState of(long code) {
            return values()[(int) code];
        }
    }

    /**
     * What a fresh frame does, decided on its first beat: wait at the input, leave numbered (kept in the buffer),
     * leave without a number, or be discarded.
     */
    private enum FreshMode { WAITING, SEQUENCED, PLAIN, DISCARDED }

    public final Stream in;
    public final Stream out;
    public final Flow ctlIn;
    public final Stream ctlOut;
    public final Port enable;
    public final Port linkUp;
    /**
     * The link carries frames now (the port's status, {@link PortStatus}): in ADVANCE or REPLAY, whatever a PCS blip
     * shorter than the PCS-lost timeout does (a frame it costs is replayed); in OFF while {@code link_up} is high.
     */
    public final Port usable;
    private final LlrConfig config;

    public LlrTx(LlrConfig config) {
        super(config);
        this.config = config;
        int w = config.dataWidth();
        in = Stream.slave(this, "s_axis", Stream.packet(w, 1));
        out = Stream.master(this, "m_axis", Stream.packet(w, LlrSideband.TX.width()));
        ctlIn = Flow.slave(this, "ctl_in", LinkControl.LAYOUT);
        ctlOut = Stream.master(this, "ctl_out", LinkControl.LAYOUT);
        enable = in("llr_enable", 1);
        linkUp = in("link_up", 1);
        usable = out("link_usable", 1);

        Buffer buffer = replayBuffer();
        State<LlrTxState> state = state("state", LlrTxState.OFF);
        Numbers seq = numbers();
        Held held = held(buffer);
        Boundary boundary = boundary();
        Pending pending = new Pending(reg("replay_pending", 1, 0), reg("flush_pending", 1, 0));
        Fresh fresh = freshFrames(buffer, state, seq, held, pending);
        Replay replay = replayReader(buffer, state, seq, held, pending, boundary);
        Stream toMac = output(fresh, replay, state, boundary);
        Ack ack = acks(buffer, state, seq, held, fresh);
        Timers timers = timers(buffer, state, held, pending, ack.freed(), fresh, replay);
        Init init = init(state, seq);
        hold(state, seq, held, pending, timers, ack.freed(), fresh);
        Expr reInit = transitions(state, pending, boundary, replay, init, timers);
        status(state, toMac, fresh, replay, ack, init, reInit);
        usable.set(state.isAny(LlrTxState.ADVANCE, LlrTxState.REPLAY).or(state.is(LlrTxState.OFF).and(linkUp)));
    }

    // ---- shared state -----------------------------------------------------------------------------------------------

    /**
     * The replay buffer: a ring of bus beats ({@code stored}, {@code aw} address bits, {@code pw} pointer bits with
     * the wrap bit, {@code cw} bits of a beat's byte count minus one) and a ring of records, one per sequence number
     * ({@code rw} index bits), stamped with {@code now} when frames age.
     */
    private record Buffer(Mem ring, Layout stored, Mem records, Layout record, Reg now, int aw, int pw, int cw,
                          int rw) {
    }

    /**
     * The sequence numbers: the next one given, the oldest unacknowledged; next - 1, next - 2 and una - 1 kept beside
     * them, so the window compares read registers, not subtractions.
     */
    private record Numbers(Reg next, Reg una, Reg nextM1, Reg nextM2, Reg unaM1) {
    }

    /**
     * What the buffer holds: the ring pointers (next beat written, oldest beat held) and, in registers beside them,
     * next - una frames and wp - rp beats (a fresh frame's mode reads them).
     */
    private record Held(Reg wp, Reg rp, Reg frames, Reg beats, Expr any) {
    }

    /** A replay or a flush waiting for the output's frame boundary. */
    private record Pending(Reg replay, Reg flush) {
    }

    /** The output, fresh frames or replayed ones a frame at a time: its ready, and whether a frame is half out. */
    private record Boundary(Wire macReady, Reg midFrame, Expr at) {
    }

    private Buffer replayBuffer() {
        int beats = config.bufferBeats();
        int aw = Hw.log2Up(beats);
        int pw = aw + 1;
        int cw = Math.max(1, Hw.log2Up(config.beatBytes()));
        Layout stored = Layout.of("stored_beat", Layout.bits("data", config.dataWidth()), Layout.bits("bytes_m1", cw),
                Layout.bits("last", 1), Layout.bits("poisoned", 1));
        Mem ring = mem("replay_ring", beats, stored.width(), ReadUnderWrite.READ_FIRST);
        int records = config.recordCount();
        Layout record = aging() ? Layout.of("frame_record", Layout.bits("start", pw),
                Layout.bits("time", LlrConfig.TIME_WIDTH)) : Layout.of("frame_record", Layout.bits("start", pw));
        Mem recordRing = mem("frame_records", records, record.width(), ReadUnderWrite.READ_FIRST);
        Reg now = reg("now", LlrConfig.TIME_WIDTH, 0);
        now.set(now.add(1));
        return new Buffer(ring, stored, recordRing, record, now, aw, pw, cw, Hw.log2Up(records));
    }

    /** Records keep the send time only for the data age. */
    private boolean aging() {
        return config.dataAgeTimeoutCycles() != 0;
    }

    private Numbers numbers() {
        int sw = LinkControl.SEQ_WIDTH;
        long ones = (1L << sw) - 1;
        Reg next = reg("next_seq", sw, 0);
        Reg una = reg("una", sw, 0);
        return new Numbers(next, una, reg("next_seq_m1", sw, ones), reg("next_seq_m2", sw, ones - 1),
                reg("una_m1", sw, ones));
    }

    private Held held(Buffer buffer) {
        Reg wp = reg("wp", buffer.pw(), 0);
        Reg rp = reg("rp", buffer.pw(), 0);
        Reg frames = reg("outstanding_frames", LinkControl.SEQ_WIDTH, 0);
        Reg beats = reg("outstanding_beats", buffer.pw(), 0);
        return new Held(wp, rp, frames, beats, frames.ne(0));
    }

    private Boundary boundary() {
        Wire macReady = wire("mac_ready", 1); // the output's ready, known once it is built
        Reg midFrame = reg("mid_frame", 1, 0);
        return new Boundary(macReady, midFrame, wire("boundary", midFrame.not()));
    }

    // ---- fresh frames ---------------------------------------------------------------------------------------------

    /**
     * Fresh frames on their way out ({@code out}); {@code firstSequenced} the first beat of a frame that takes a
     * number, {@code beatIn} a beat written to the buffer, {@code writing} a sequenced frame half in,
     * {@code discardEnd} the last beat of a discarded frame.
     */
    private record Fresh(Stream out, Expr firstSequenced, Expr beatIn, Expr writing, Expr discardEnd) {
    }

    /**
     * A fresh frame's mode is decided on its first beat: numbered while the window has room (ADVANCE), without a
     * number (OFF), the frame action (INIT, FLUSH); a numbered frame is written to the buffer as it passes.
     */
    private Fresh freshFrames(Buffer buffer, State<LlrTxState> state, Numbers seq, Held held, Pending pending) {
        int lanes = config.beatBytes();
        Reg firstIn = reg("first_in", 1, 1);
        State<FreshMode> modeHeld = state("frame_mode", FreshMode.WAITING);
        Reg seqHeld = regNoReset("frame_seq", LinkControl.SEQ_WIDTH);
        int beatLimit = (config.outstandingBytesMax() + lanes - 1) / lanes;
        Expr room = held.frames().lt(config.outstandingFramesMax()).and(held.beats().lt(beatLimit));
        Expr sequencing = state.is(LlrTxState.ADVANCE).and(pending.replay().not()).and(pending.flush().not());
        Expr modeNow = Hw.mux(state.is(LlrTxState.OFF), modeHeld.code(FreshMode.PLAIN),
                Hw.mux(state.is(LlrTxState.INIT), action(modeHeld, config.initFrameAction()),
                        Hw.mux(state.is(LlrTxState.FLUSH), action(modeHeld, config.flushFrameAction()),
                                Hw.mux(sequencing.and(room), modeHeld.code(FreshMode.SEQUENCED),
                                        modeHeld.code(FreshMode.WAITING)))));
        // the mode decided on a first beat, else the frame's held one, compared by name (every mode's localparam read)
        Function<FreshMode, Expr> mode = m -> Hw.mux(firstIn, modeNow.eq(modeHeld.code(m)), modeHeld.is(m));
        Expr freshSeq = wire("fresh_seq", Hw.mux(firstIn, seq.next(), seqHeld));
        Expr ringFull = held.beats().eq(config.bufferBeats());
        Expr sequenced = wire("fresh_sequenced", mode.apply(FreshMode.SEQUENCED));
        Expr freshOwns = state.is(LlrTxState.REPLAY).not();
        Expr freshToMac = wire("fresh_to_mac", freshOwns.and(sequenced.or(mode.apply(FreshMode.PLAIN)))
                .and(sequenced.and(ringFull).not()));
        Expr discarded = wire("fresh_discarded", mode.apply(FreshMode.DISCARDED));
        Stream toMac = in.throwWhen("fresh_kept", discarded).continueWhen("fresh_go", freshToMac)
                .retagged("from_fresh", out.layout(), LlrSideband.TX.expr().set("seq", freshSeq).set("llr", sequenced)
                        .set("poisoned", in.tuser()).build());
        Expr freshBeat = wire("fresh_beat", in.fire());
        when(freshBeat, () -> {
            firstIn.set(in.tlast());
            when(firstIn, () -> {
                modeHeld.set(modeNow);
                seqHeld.set(seq.next());
            });
        });
        Expr firstSequenced = wire("fresh_first_sequenced", freshBeat.and(firstIn).and(sequenced));
        when(firstSequenced, () -> {
            seq.next().set(seq.next().add(1));
            seq.nextM1().set(seq.next());
            seq.nextM2().set(seq.nextM1());
        });
        Layout.ExprBuilder newRecord = buffer.record().expr().set("start", held.wp());
        if (aging()) {
            newRecord.set("time", buffer.now());
        }
        buffer.records().write(firstSequenced, seq.next().bits(buffer.rw() - 1, 0), newRecord.build());
        int cw = buffer.cw();
        Expr bytesM1 = Keep.lastLaneIndex(in.tkeep()).resize(cw);
        Expr beatIn = freshBeat.and(sequenced);
        buffer.ring().write(beatIn, held.wp().bits(buffer.aw() - 1, 0), buffer.stored().expr()
                .set("data", in.tdata()).set("bytes_m1", Hw.mux(in.tlast(), bytesM1, Hw.lit(cw, lanes - 1)))
                .set("last", in.tlast()).set("poisoned", in.tuser()).build());
        when(beatIn, () -> held.wp().set(held.wp().add(1)));
        Expr writing = wire("writing", firstIn.not().and(modeHeld.is(FreshMode.SEQUENCED)));
        return new Fresh(toMac, firstSequenced, beatIn, writing, in.fire().and(in.tlast()).and(discarded));
    }

    private static Expr action(State<FreshMode> mode, FrameAction a) {
        return mode.code(switch (a) {
            case DISCARD -> FreshMode.DISCARDED;
            case BLOCK -> FreshMode.WAITING;
            case BEST_EFFORT -> FreshMode.PLAIN;
        });
    }

    // ---- replay -----------------------------------------------------------------------------------------------------

    /** Replayed beats ({@code out}); a replay starts ({@code begin}) and ends ({@code done}) at frame boundaries. */
    private record Replay(Stream out, Expr begin, Expr done) {
    }

    /**
     * At a frame boundary the reader goes back to the oldest frame and reads everything stored, with the original
     * numbers; a NACK during a replay starts it again.
     */
    private Replay replayReader(Buffer buffer, State<LlrTxState> state, Numbers seq, Held held, Pending pending,
                                Boundary boundary) {
        int pw = buffer.pw();
        Layout stored = buffer.stored();
        Reg ra = reg("replay_addr", pw, 0);
        Reg re = reg("replay_end", pw, 0);
        Reg rSeq = regNoReset("replay_seq", LinkControl.SEQ_WIDTH);
        Reg rv = reg("replay_valid", 1, 0);
        Expr begin = wire("replay_begin", pending.replay().and(boundary.at()).and(pending.flush().not())
                .and(state.isAny(LlrTxState.ADVANCE, LlrTxState.REPLAY)));
        Expr owns = state.is(LlrTxState.REPLAY);
        // a frame boundary where the replay is left for FLUSH or OFF: no frame of it may start there, or its first
        // beat would leave and the rest never
        Expr leaving = wire("replay_leaving", boundary.at().and(pending.flush().or(enable.not())));
        Expr load = wire("replay_load", owns.and(begin.not()).and(leaving.not()).and(ra.ne(re))
                .and(rv.not().or(owns.and(boundary.macReady()))));
        Expr word = buffer.ring().readSync("replay_word", ra.bits(buffer.aw() - 1, 0), load);
        Expr last = stored.field("last").of(word);
        Layout mac = out.layout();
        Stream replayed = Stream.of(this, "replayed", rv.and(owns).and(begin.not()).and(leaving.not()), mac, mac.expr()
                .set(Stream.TDATA, stored.field("data").of(word))
                .set(Stream.TKEEP, Keep.below(stored.field("bytes_m1").of(word).resize(buffer.cw() + 1).add(1),
                        config.beatBytes()))
                .set(Stream.TLAST, last)
                .set(Stream.TUSER, LlrSideband.TX.expr().set("seq", rSeq).set("llr", Hw.bool(true))
                        .set("poisoned", stored.field("poisoned").of(word)).build()).build());
        Expr go = wire("replay_go", replayed.fire());
        when(begin, () -> {
            rv.set(0);
            ra.set(held.rp());
            re.set(held.wp());
            rSeq.set(seq.una());
        }).otherwise(() -> {
            when(load, () -> {
                rv.set(1);
                ra.set(ra.add(1));
            }).elseWhen(go, () -> rv.set(0));
            when(go.and(last), () -> rSeq.set(rSeq.add(1)));
        });
        Expr done = wire("replay_done", owns.and(ra.eq(re)).and(rv.not()).and(boundary.at())
                .and(pending.replay().not()));
        return new Replay(replayed, begin, done);
    }

    /** To the MAC through a register stage: the replay while REPLAY, else the fresh frames. */
    private Stream output(Fresh fresh, Replay replay, State<LlrTxState> state, Boundary boundary) {
        Stream toMac = Stream.mux("to_mac", List.of(fresh.out(), replay.out()), state.is(LlrTxState.REPLAY));
        boundary.macReady().set(toMac.ready());
        toMac.stage("out_stage").into(out);
        when(toMac.fire(), () -> boundary.midFrame().set(toMac.tlast().not()));
        return toMac;
    }

    // ---- ACK / NACK -------------------------------------------------------------------------------------------------

    /** ACKs and NACKs heard ({@code ack}, {@code nack}, out of the window: {@code seqError}) and what they free. */
    private record Ack(Expr ack, Expr nack, Expr seqError, Freed freed) {
    }

    /**
     * Stage B of an ACK or NACK in the window, the cycle after it: {@code forward} frees up to {@code value} (moves
     * una), {@code advancing} when that frees a frame; {@code nack}, {@code all} (it covers all that was written),
     * {@code span} (next - value - 1 as it is now), the ring's new oldest beat and the record it read.
     */
    private record Freed(Expr forward, Expr advancing, Expr nack, Expr all, Expr value, Expr span, Expr newRp,
                         Expr record) {
    }

    /**
     * An ACK or NACK whose number is outside [oldest - 1, newest sent] is counted and ignored; otherwise the frames up
     * to it are freed: the record of the next one says where its beats start, read in the following cycle.
     */
    private Ack acks(Buffer buffer, State<LlrTxState> state, Numbers seq, Held held, Fresh fresh) {
        int sw = LinkControl.SEQ_WIDTH;
        LinkControl.Codes codes = config.codes();
        Expr type = ctlIn.field("type");
        Expr isAck = ctlIn.valid().and(type.eq(codes.ack()));
        Expr isNack = ctlIn.valid().and(type.eq(codes.nack()));
        Expr value = ctlIn.field("value");
        Expr n1 = value.add(1); // the first number not covered
        // n1 - una <= outstandingFrames - writing (mod 2^sw), as compares of value with numbers from the registers
        Expr inWindow = Hw.inCircularRange(value, seq.unaM1(), Hw.mux(fresh.writing(), seq.nextM2(), seq.nextM1()));
        Expr ackTaken = wire("ack_taken", isAck.or(isNack).and(state.isAny(LlrTxState.ADVANCE, LlrTxState.REPLAY)));
        Expr ackValid = wire("ack_valid", ackTaken.and(inWindow));
        Expr seqError = wire("ack_seq_error", ackTaken.and(inWindow.not()));
        Expr recordWord = buffer.records().readSync("ack_record", n1.bits(buffer.rw() - 1, 0), ackValid);
        // stage B, the next cycle: free up to the record's start (or all that was written, if it covers it all)
        Layout freeing = Layout.of("llr_free", Layout.bits("nack", 1), Layout.bits("all", 1),
                Layout.bits("value", sw), Layout.bits("span", sw), Layout.bits("wp", buffer.pw()));
        Flow b = Flow.registered(this, "free", ackValid, freeing, freeing.expr().set("nack", isNack)
                .set("all", value.eq(seq.nextM1())) // n1 - una == outstandingFrames
                .set("value", value) // n1 - 1
                .set("span", Hw.mux(fresh.firstSequenced(), seq.next().sub(value), seq.nextM1().sub(value)))
                .set("wp", held.wp()).build());
        Expr bValue = b.field("value");
        // n1 - una <= next - una and n1 != una, read as value against una - 1 and next - 1
        Expr forward = wire("free_forward", b.valid().and(Hw.inCircularRange(bValue, seq.unaM1(), seq.nextM1())));
        Expr advancing = wire("advancing", forward.and(bValue.ne(seq.unaM1())));
        Expr newRp = Hw.mux(b.field("all"), b.field("wp"), buffer.record().field("start").of(recordWord));
        return new Ack(isAck, isNack, seqError, new Freed(forward, advancing, b.field("nack"), b.field("all"), bValue,
                b.field("span"), newRp, recordWord));
    }

    // ---- timers -----------------------------------------------------------------------------------------------------

    /** The replay timer's age and the timer replays in a row. */
    private record Timers(Reg age, Reg replayCount) {
    }

    /**
     * No advancing ACK for {@code replayTimerCycles} while frames are unacknowledged replays the whole buffer, at most
     * {@code replayCountMax} times in a row, then FLUSH; {@code link_up} low too long, or an unacknowledged frame too
     * old, also FLUSH.
     */
    private Timers timers(Buffer buffer, State<LlrTxState> state, Held held, Pending pending, Freed freed,
                          Fresh fresh, Replay replay) {
        // now - (the cycle the replay timer last started), counted up instead of subtracted in the timer's cycle
        Reg timerAge = reg("timer_age", LlrConfig.TIME_WIDTH, 0);
        timerAge.set(timerAge.add(1));
        Reg replayCount = reg("replay_count", Hw.log2Up(LlrConfig.NO_REPLAY_LIMIT + 1L), 0);
        Reg pcsLow = reg("pcs_low_cycles", Hw.log2Up(config.pcsLostTimeoutCycles() + 2L), 0);
        when(linkUp, () -> pcsLow.set(0)).elseWhen(pcsLow.le(config.pcsLostTimeoutCycles()),
                () -> pcsLow.set(pcsLow.add(1)));
        Expr pcsLost = wire("pcs_lost", pcsLow.gt(config.pcsLostTimeoutCycles()));
        Expr timerFired = wire("replay_timer_fired", state.is(LlrTxState.ADVANCE).and(held.any())
                .and(pending.replay().not()).and(pending.flush().not())
                .and(timerAge.ge(config.replayTimerCycles())));
        boolean limited = config.replayCountMax() != LlrConfig.NO_REPLAY_LIMIT;
        Expr replaysUsed = limited ? replayCount.ge(config.replayCountMax()) : Hw.bool(false);
        Expr aged = aging() ? aged(buffer, held, freed, fresh) : Hw.bool(false);
        Expr flushCause = wire("flush_cause", state.isAny(LlrTxState.ADVANCE, LlrTxState.REPLAY)
                .and(pcsLost.or(aged).or(timerFired.and(replaysUsed))));
        when(freed.advancing(), () -> {
            replayCount.set(0);
            timerAge.set(1);
        });
        when(held.any().not().or(replay.done()), () -> timerAge.set(1));
        when(timerFired.and(replaysUsed.not()), () -> {
            pending.replay().set(1);
            replayCount.set(replayCount.add(1));
            timerAge.set(1);
        });
        when(flushCause, () -> pending.flush().set(1));
        return new Timers(timerAge, replayCount);
    }

    /**
     * The oldest unacknowledged frame waited more than {@code dataAgeTimeoutCycles}: its send time comes from its
     * record when an ACK makes it the oldest, held as now - time - 1 and counted up (sent now is 0 in the next
     * cycle).
     */
    private Expr aged(Buffer buffer, Held held, Freed freed, Fresh fresh) {
        int tw = LlrConfig.TIME_WIDTH;
        Reg oldestWait = reg("oldest_wait", tw, (1L << tw) - 1);
        oldestWait.set(oldestWait.add(1));
        when(fresh.firstSequenced().and(held.any().not()), () -> oldestWait.set(0));
        when(freed.advancing(), () -> oldestWait.set(Hw.mux(freed.all(), Hw.zeros(tw),
                Hw.subCarrySelect(buffer.now(), buffer.record().field("time").of(freed.record())))));
        // now - time > limit: wait + 1 > limit, where wait + 1 wraps to 0 at all ones
        return held.any().and(oldestWait.ge(config.dataAgeTimeoutCycles())).and(oldestWait.andR().not());
    }

    // ---- INIT and the state -----------------------------------------------------------------------------------------

    /** The INIT wait, an INIT sent, an INIT_ECHO heard and whether it matches. */
    private record Init(Reg initWait, Expr sent, Expr echo, Expr echoMatches) {
    }

    /**
     * INIT with the next sequence number every {@code initRetryCycles} until the matching INIT_ECHO; [ours] none while
     * {@code link_up} is low (it would be lost), so one due meanwhile leaves as the link comes back.
     */
    private Init init(State<LlrTxState> state, Numbers seq) {
        LinkControl.Codes codes = config.codes();
        Reg initWait = reg("init_wait", Hw.log2Up(config.initRetryCycles() + 1L), 0);
        Expr initDue = state.is(LlrTxState.INIT).and(initWait.eq(0)).and(linkUp);
        Stream initMessage = Stream.of(this, "init_message", initDue, LinkControl.LAYOUT, LinkControl.LAYOUT.expr()
                .set("type", Hw.lit(LinkControl.TYPE_WIDTH, codes.init())).set("value", seq.next()).build());
        initMessage.stage("ctl_out_stage").into(ctlOut);
        Expr initSent = wire("init_sent", initMessage.fire());
        Expr echo = ctlIn.valid().and(ctlIn.field("type").eq(codes.initEcho()));
        Expr echoMatches = wire("init_echo_matches", echo.and(state.is(LlrTxState.INIT))
                .and(ctlIn.field("value").eq(seq.next())));
        when(initSent, () -> initWait.set(config.initRetryCycles()))
                .elseWhen(state.is(LlrTxState.INIT).and(initWait.ne(0)), () -> initWait.set(initWait.sub(1)));
        unused("ctl_in_vc", ctlIn.field("vc"));
        return new Init(initWait, initSent, echo, echoMatches);
    }

    /**
     * What the buffer holds: an ACK frees (una, the ring's oldest beat, what is outstanding) and a NACK asks for a
     * replay; in OFF and FLUSH the buffer stays empty.
     */
    private void hold(State<LlrTxState> state, Numbers seq, Held held, Pending pending, Timers timers, Freed freed,
                      Fresh fresh) {
        int sw = LinkControl.SEQ_WIDTH;
        when(freed.forward(), () -> {
            seq.una().set(freed.value().add(1));
            seq.unaM1().set(freed.value());
            held.rp().set(freed.newRp());
            when(freed.nack().and(freed.all().not()), () -> pending.replay().set(1));
        });
        Expr emptied = state.isAny(LlrTxState.OFF, LlrTxState.FLUSH);
        Expr frameIn = fresh.firstSequenced();
        Expr beatIn = fresh.beatIn();
        Reg frames = held.frames();
        Reg beats = held.beats();
        frames.set(Hw.mux(emptied, frameIn.resize(sw), Hw.mux(freed.forward(),
                Hw.mux(frameIn, freed.span().add(1), freed.span()), Hw.upDown(frames, List.of(frameIn),
                        List.of()))));
        Reg wp = held.wp();
        beats.set(Hw.mux(emptied, beatIn.resize(wp.width()), Hw.mux(freed.forward(),
                Hw.mux(beatIn, wp.add(1).sub(freed.newRp()), wp.sub(freed.newRp())), Hw.upDown(beats,
                        List.of(beatIn), List.of()))));
        when(emptied, () -> {
            seq.una().set(seq.next());
            seq.unaM1().set(seq.nextM1());
            held.rp().set(held.wp());
            pending.replay().set(0);
            pending.flush().set(0);
            timers.replayCount().set(0);
        });
    }

    /**
     * The state: a pending replay or flush starts at a frame boundary, INIT_ECHO ends INIT, FLUSH goes back to INIT
     * ({@code reInitOnFlush}) while LLR is enabled, {@code llr_enable} low turns LLR off at a frame boundary (a state
     * change that would take the output from another source waits for the frame on it to end). Returns the
     * re-initialisation after a FLUSH.
     */
    private Expr transitions(State<LlrTxState> state, Pending pending, Boundary boundary, Replay replay, Init init,
                             Timers timers) {
        when(replay.begin(), () -> {
            pending.replay().set(0);
            state.set(LlrTxState.REPLAY);
        });
        when(replay.done(), () -> state.set(LlrTxState.ADVANCE));
        when(init.echoMatches(), () -> {
            state.set(LlrTxState.ADVANCE);
            timers.age().set(1);
        });
        // at once: a link still down holds the INIT (init), not the state, so INIT's frame action applies meanwhile
        Expr reInit = wire("reinit", state.is(LlrTxState.FLUSH).and(Hw.bool(config.reInitOnFlush())).and(enable));
        when(reInit, () -> {
            state.set(LlrTxState.INIT);
            init.initWait().set(0);
        });
        when(pending.flush().and(boundary.at()), () -> {
            state.set(LlrTxState.FLUSH);
            pending.flush().set(0);
        });
        when(enable.not().and(boundary.at()), () -> state.set(LlrTxState.OFF))
                .elseWhen(enable.and(state.is(LlrTxState.OFF)), () -> {
                    state.set(LlrTxState.INIT);
                    init.initWait().set(0);
                });
        return reInit;
    }

    /** The state and the counters (SAI names). */
    private void status(State<LlrTxState> state, Stream toMac, Fresh fresh, Replay replay, Ack ack, Init init,
                        Expr reInit) {
        status("tx_state", Status.Kind.STATE, state.reg(),
                "LLR transmit state: 0 OFF, 1 INIT, 2 ADVANCE, 3 REPLAY, 4 FLUSH");
        Expr outEnd = toMac.fire().and(toMac.tlast());
        Expr outPoisoned = LlrSideband.TX.field("poisoned").of(toMac.tuser());
        statusCounter("tx_init_ctl_os", init.sent(), "INIT messages sent");
        statusCounter("rx_init_echo_ctl_os", init.echo(), "INIT_ECHO messages received");
        statusCounter("rx_ack_ctl_os", ack.ack(), "ACK messages received");
        statusCounter("rx_nack_ctl_os", ack.nack(), "NACK messages received");
        statusCounter("rx_ack_nack_seq_error", ack.seqError(),
                "ACKs and NACKs ignored: their number was outside the frames sent and not acknowledged");
        statusCounter("tx_discard", fresh.discardEnd(), "Frames discarded in INIT or FLUSH (frame action DISCARD)");
        statusCounter("tx_ok", outEnd.and(outPoisoned.not()), "Frames sent with a good FCS, replays included");
        statusCounter("tx_poisoned", outEnd.and(outPoisoned), "Frames sent poisoned");
        statusCounter("tx_replay", replay.done(), "Replays of the buffer completed");
        statusCounter("tx_reinit", reInit, "Re-initialisations on its own after a FLUSH (reInitOnFlush)");
    }

    public LlrConfig config() {
        return config;
    }
}
