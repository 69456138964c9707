package org.sue.link;

import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
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
 * with the next sequence number every {@code initRetryCycles} until the matching INIT_ECHO; FLUSH empties the buffer
 * and goes back to INIT ({@code reInitOnFlush}) or stays until {@code llr_enable} is taken low. A state change that
 * would take the output from another source waits for the frame on it to end.</li>
 * </ul>
 */
public final class LlrTx extends Component {
    public static final int OFF = 0;
    public static final int INIT = 1;
    public static final int ADVANCE = 2;
    public static final int REPLAY = 3;
    public static final int FLUSH = 4;
    /** What a fresh frame does, decided on its first beat. */
    private static final int WAIT = 0;
    private static final int SEQUENCED = 1;
    private static final int PLAIN = 2;
    private static final int DISCARDED = 3;

    public final Stream in;
    public final Stream out;
    public final Flow ctlIn;
    public final Stream ctlOut;
    public final Port enable;
    public final Port linkUp;
    private final LlrConfig config;

    public LlrTx(LlrConfig config) {
        super(config);
        this.config = config;
        int w = config.dataWidth();
        int lanes = config.beatBytes();
        int sw = LinkControl.SEQ_WIDTH;
        int tw = LlrConfig.TIME_WIDTH;
        LinkControl.Codes codes = config.codes();
        in = Stream.slave(this, "s_axis", Stream.packet(w, 1));
        Layout outLayout = Stream.packet(w, LlrSideband.TX.width());
        out = Stream.master(this, "m_axis", outLayout);
        ctlIn = Flow.slave(this, "ctl_in", LinkControl.LAYOUT);
        ctlOut = Stream.master(this, "ctl_out", LinkControl.LAYOUT);
        enable = in("llr_enable", 1);
        linkUp = in("link_up", 1);

        // ---- the replay buffer: beats and records --------------------------------------------------------------
        int beats = config.bufferBeats();
        int aw = Hw.log2Up(beats);
        int pw = aw + 1; // ring pointers carry a wrap bit
        int cw = Math.max(1, Hw.log2Up(lanes)); // bytes of a beat, minus one
        Layout stored = Layout.of("stored_beat", Layout.bits("data", w), Layout.bits("bytes_m1", cw),
                Layout.bits("last", 1), Layout.bits("poisoned", 1));
        Mem ring = mem("replay_ring", beats, stored.width(), ReadUnderWrite.READ_FIRST);
        int records = config.recordCount();
        int rw = Hw.log2Up(records);
        boolean aging = config.dataAgeTimeoutCycles() != 0; // records keep the send time only for the data age
        Layout record = aging ? Layout.of("frame_record", Layout.bits("start", pw), Layout.bits("time", tw))
                : Layout.of("frame_record", Layout.bits("start", pw));
        Mem recordRing = mem("frame_records", records, record.width(), ReadUnderWrite.READ_FIRST);

        Reg now = reg("now", tw, 0);
        now.set(now.add(1));
        Reg state = reg("state", 3, OFF);
        Reg next = reg("next_seq", sw, 0);  // the number the next sequenced frame gets
        Reg una = reg("una", sw, 0);        // the oldest unacknowledged number
        // next - 1, next - 2 and una - 1 kept beside them: the window compares read registers, not subtractions
        long ones = (1L << sw) - 1;
        Reg nextM1 = reg("next_seq_m1", sw, ones);
        Reg nextM2 = reg("next_seq_m2", sw, ones - 1);
        Reg unaM1 = reg("una_m1", sw, ones);
        Reg wp = reg("wp", pw, 0);          // ring: next beat written
        Reg rp = reg("rp", pw, 0);          // ring: oldest beat still held
        // next - una and wp - rp, kept in registers beside the pointers: a fresh frame's mode reads them
        Reg outstandingFrames = reg("outstanding_frames", sw, 0);
        Reg outstandingBeats = reg("outstanding_beats", pw, 0);
        Expr anyOutstanding = outstandingFrames.ne(0);

        // the output, fresh frames or replayed ones, a frame at a time: its ready is known once it is built below
        Wire macReady = wire("mac_ready", 1);
        Reg midFrame = reg("mid_frame", 1, 0);
        Expr boundary = wire("boundary", midFrame.not());

        Reg replayPending = reg("replay_pending", 1, 0);
        Reg flushPending = reg("flush_pending", 1, 0);

        // ---- fresh frames ------------------------------------------------------------------------------------------
        Reg firstIn = reg("first_in", 1, 1);
        Reg modeHeld = reg("frame_mode", 2, WAIT);
        Reg seqHeld = regNoReset("frame_seq", sw);
        int beatLimit = (config.outstandingBytesMax() + lanes - 1) / lanes;
        Expr room = outstandingFrames.lt(config.outstandingFramesMax()).and(outstandingBeats.lt(beatLimit));
        Expr sequencing = state.eq(ADVANCE).and(replayPending.not()).and(flushPending.not());
        Expr modeNow = Hw.mux(state.eq(OFF), Hw.lit(2, PLAIN),
                Hw.mux(state.eq(INIT), action(config.initFrameAction()),
                        Hw.mux(state.eq(FLUSH), action(config.flushFrameAction()),
                                Hw.mux(sequencing.and(room), Hw.lit(2, SEQUENCED), Hw.lit(2, WAIT)))));
        Expr mode = wire("fresh_mode", Hw.mux(firstIn, modeNow, modeHeld));
        Expr freshSeq = wire("fresh_seq", Hw.mux(firstIn, next, seqHeld));
        Expr ringFull = outstandingBeats.eq(beats);
        Expr sequenced = mode.eq(SEQUENCED);
        Expr freshOwns = state.ne(REPLAY);
        Expr freshToMac = wire("fresh_to_mac", freshOwns.and(mode.eq(SEQUENCED).or(mode.eq(PLAIN)))
                .and(sequenced.and(ringFull).not()));
        in.ready().set(freshToMac.and(macReady).or(mode.eq(DISCARDED)));
        Expr freshBeat = wire("fresh_beat", in.fire());
        when(freshBeat, () -> {
            firstIn.set(in.tlast());
            when(firstIn, () -> {
                modeHeld.set(modeNow);
                seqHeld.set(next);
            });
        });
        Expr freshFirstSequenced = wire("fresh_first_sequenced", freshBeat.and(firstIn).and(sequenced));
        when(freshFirstSequenced, () -> {
            next.set(next.add(1));
            nextM1.set(next);
            nextM2.set(nextM1);
        });
        Layout.ExprBuilder newRecord = record.expr().set("start", wp);
        if (aging) {
            newRecord.set("time", now);
        }
        recordRing.write(freshFirstSequenced, next.bits(rw - 1, 0), newRecord.build());
        Expr bytesM1 = Keep.lastLaneIndex(in.tkeep()).resize(cw);
        ring.write(freshBeat.and(sequenced), wp.bits(aw - 1, 0), stored.expr().set("data", in.tdata())
                .set("bytes_m1", Hw.mux(in.tlast(), bytesM1, Hw.lit(cw, lanes - 1))).set("last", in.tlast())
                .set("poisoned", in.tuser()).build());
        when(freshBeat.and(sequenced), () -> wp.set(wp.add(1)));
        Expr writing = wire("writing", firstIn.not().and(modeHeld.eq(SEQUENCED))); // a sequenced frame is half in

        // ---- replay reader ---------------------------------------------------------------------------------------
        Reg ra = reg("replay_addr", pw, 0);
        Reg re = reg("replay_end", pw, 0);
        Reg rSeq = regNoReset("replay_seq", sw);
        Reg rv = reg("replay_valid", 1, 0);
        Expr replayBegin = wire("replay_begin", replayPending.and(boundary).and(flushPending.not())
                .and(state.eq(ADVANCE).or(state.eq(REPLAY))));
        Expr replayOwns = state.eq(REPLAY);
        Expr replayReady = replayOwns.and(macReady);
        Expr load = wire("replay_load", replayOwns.and(replayBegin.not()).and(ra.ne(re))
                .and(rv.not().or(replayReady)));
        Expr word = ring.readSync("replay_word", ra.bits(aw - 1, 0), load);
        Expr replayValid = rv.and(replayOwns).and(replayBegin.not());
        Expr replayGo = wire("replay_go", replayValid.and(macReady));
        when(replayBegin, () -> {
            rv.set(0);
            ra.set(rp);
            re.set(wp);
            rSeq.set(una);
        }).otherwise(() -> {
            when(load, () -> {
                rv.set(1);
                ra.set(ra.add(1));
            }).elseWhen(replayGo, () -> rv.set(0));
            when(replayGo.and(stored.field("last").of(word)), () -> rSeq.set(rSeq.add(1)));
        });
        Expr replayDone = wire("replay_done", replayOwns.and(ra.eq(re)).and(rv.not()).and(boundary)
                .and(replayPending.not()));

        // ---- the output mux --------------------------------------------------------------------------------------
        Expr fromReplay = outLayout.expr().set(Stream.TDATA, stored.field("data").of(word))
                .set(Stream.TKEEP, Keep.below(stored.field("bytes_m1").of(word).resize(cw + 1).add(1), lanes))
                .set(Stream.TLAST, stored.field("last").of(word))
                .set(Stream.TUSER, LlrSideband.TX.expr().set("seq", rSeq).set("llr", Hw.bool(true))
                        .set("poisoned", stored.field("poisoned").of(word)).build()).build();
        Expr fromFresh = outLayout.expr().set(Stream.TDATA, in.tdata()).set(Stream.TKEEP, in.tkeep())
                .set(Stream.TLAST, in.tlast()).set(Stream.TUSER, LlrSideband.TX.expr().set("seq", freshSeq)
                        .set("llr", sequenced).set("poisoned", in.tuser()).build()).build();
        Stream toMac = Stream.of(this, "to_mac", Hw.mux(replayOwns, replayValid, in.valid().and(freshToMac)),
                outLayout, Hw.mux(replayOwns, fromReplay, fromFresh));
        macReady.set(toMac.ready());
        toMac.stage("out_stage").into(out);
        when(toMac.fire(), () -> midFrame.set(toMac.tlast().not()));

        // ---- ACK / NACK --------------------------------------------------------------------------------------------
        Expr type = ctlIn.field("type");
        Expr isAck = ctlIn.valid().and(type.eq(codes.ack()));
        Expr isNack = ctlIn.valid().and(type.eq(codes.nack()));
        Expr value = ctlIn.field("value");
        Expr n1 = value.add(1); // the first number not covered
        // n1 - una <= outstandingFrames - writing (mod 2^sw), as compares of value with numbers from the registers
        Expr inWindow = Hw.inCircularRange(value, unaM1, Hw.mux(writing, nextM2, nextM1));
        Expr ackTaken = wire("ack_taken", isAck.or(isNack).and(state.eq(ADVANCE).or(state.eq(REPLAY))));
        Expr ackValid = wire("ack_valid", ackTaken.and(inWindow));
        Expr seqError = wire("ack_seq_error", ackTaken.and(inWindow.not()));
        Expr recordWord = recordRing.readSync("ack_record", n1.bits(rw - 1, 0), ackValid);
        // stage B, the next cycle: free up to the record's start (or all that was written, if it covers it all)
        Reg bValid = reg("free_valid", 1, 0);
        Reg bNack = regNoReset("free_nack", 1);
        Reg bAll = regNoReset("free_all", 1);
        Reg bValue = regNoReset("free_value", sw); // n1 - 1
        Reg bSpan = regNoReset("free_span", sw);   // next - n1 as it will be in stage B
        Reg bWp = regNoReset("free_wp", pw);
        bValid.set(ackValid);
        when(ackValid, () -> {
            bNack.set(isNack);
            bAll.set(value.eq(nextM1)); // n1 - una == outstandingFrames
            bValue.set(value);
            bSpan.set(Hw.mux(freshFirstSequenced, next.sub(value), nextM1.sub(value)));
            bWp.set(wp);
        });
        // n1 - una <= next - una and n1 != una, read as value against una - 1 and next - 1
        Expr forward = wire("free_forward", bValid.and(Hw.inCircularRange(bValue, unaM1, nextM1)));
        Expr advancing = wire("advancing", forward.and(bValue.ne(unaM1)));
        Expr newRp = Hw.mux(bAll, bWp, record.field("start").of(recordWord));

        // ---- timers ------------------------------------------------------------------------------------------------
        // now - (the cycle the replay timer last started), counted up instead of subtracted in the timer's cycle
        Reg timerAge = reg("timer_age", tw, 0);
        timerAge.set(timerAge.add(1));
        Reg replayCount = reg("replay_count", 8, 0);
        Reg pcsLow = reg("pcs_low_cycles", Hw.log2Up(config.pcsLostTimeoutCycles() + 2L), 0);
        when(linkUp, () -> pcsLow.set(0)).elseWhen(pcsLow.le(config.pcsLostTimeoutCycles()),
                () -> pcsLow.set(pcsLow.add(1)));
        Expr pcsLost = wire("pcs_lost", pcsLow.gt(config.pcsLostTimeoutCycles()));
        Expr timerFired = wire("replay_timer_fired", state.eq(ADVANCE).and(anyOutstanding).and(replayPending.not())
                .and(flushPending.not()).and(timerAge.ge(config.replayTimerCycles())));
        boolean limited = config.replayCountMax() != LlrConfig.NO_REPLAY_LIMIT;
        Expr replaysUsed = limited ? replayCount.ge(config.replayCountMax()) : Hw.bool(false);
        Expr aged = Hw.bool(false);
        if (aging) { // the oldest unacknowledged frame's send time: from its record when an ACK makes it the oldest
            // held as now - time - 1, counted up: sent now is 0 in the next cycle, from a record now - time
            Reg oldestWait = reg("oldest_wait", tw, (1L << tw) - 1);
            oldestWait.set(oldestWait.add(1));
            when(freshFirstSequenced.and(anyOutstanding.not()), () -> oldestWait.set(0));
            when(advancing, () -> oldestWait.set(Hw.mux(bAll, Hw.zeros(tw),
                    Hw.subCarrySelect(now, record.field("time").of(recordWord)))));
            // now - time > limit: wait + 1 > limit, where wait + 1 wraps to 0 at all ones
            aged = anyOutstanding.and(oldestWait.ge(config.dataAgeTimeoutCycles())).and(oldestWait.andR().not());
        }
        Expr flushCause = wire("flush_cause", state.eq(ADVANCE).or(state.eq(REPLAY))
                .and(pcsLost.or(aged).or(timerFired.and(replaysUsed))));

        // ---- INIT --------------------------------------------------------------------------------------------------
        Reg initWait = reg("init_wait", Hw.log2Up(config.initRetryCycles() + 1L), 0);
        Expr initDue = state.eq(INIT).and(initWait.eq(0));
        Stream initMessage = Stream.of(this, "init_message", initDue, LinkControl.LAYOUT, LinkControl.LAYOUT.expr()
                .set("type", Hw.lit(8, codes.init())).set("value", next).build());
        initMessage.stage("ctl_out_stage").into(ctlOut);
        Expr initSent = wire("init_sent", initMessage.fire());
        Expr echo = ctlIn.valid().and(type.eq(codes.initEcho()));
        Expr echoMatches = wire("init_echo_matches", echo.and(state.eq(INIT)).and(ctlIn.field("value").eq(next)));
        when(initSent, () -> initWait.set(config.initRetryCycles()))
                .elseWhen(state.eq(INIT).and(initWait.ne(0)), () -> initWait.set(initWait.sub(1)));
        unused("ctl_in_vc", ctlIn.field("vc"));

        // ---- state -----------------------------------------------------------------------------------------------
        when(advancing, () -> {
            replayCount.set(0);
            timerAge.set(1);
        });
        when(anyOutstanding.not().or(replayDone), () -> timerAge.set(1));
        when(forward, () -> {
            una.set(bValue.add(1));
            unaM1.set(bValue);
            rp.set(newRp);
            when(bNack.and(bAll.not()), () -> replayPending.set(1));
        });
        when(timerFired.and(replaysUsed.not()), () -> {
            replayPending.set(1);
            replayCount.set(replayCount.add(1));
            timerAge.set(1);
        });
        when(flushCause, () -> flushPending.set(1));
        when(replayBegin, () -> {
            replayPending.set(0);
            state.set(REPLAY);
        });
        when(replayDone, () -> state.set(ADVANCE));
        when(echoMatches, () -> {
            state.set(ADVANCE);
            timerAge.set(1);
        });
        when(state.eq(FLUSH).and(Hw.bool(config.reInitOnFlush())), () -> {
            state.set(INIT);
            initWait.set(0);
        });
        when(flushPending.and(boundary), () -> {
            state.set(FLUSH);
            flushPending.set(0);
        });
        when(enable.not().and(boundary), () -> state.set(OFF))
                .elseWhen(enable.and(state.eq(OFF)), () -> {
                    state.set(INIT);
                    initWait.set(0);
                });
        Expr emptied = state.eq(OFF).or(state.eq(FLUSH));
        Expr frameIn = freshFirstSequenced;
        Expr beatIn = freshBeat.and(sequenced);
        outstandingFrames.set(Hw.mux(emptied, frameIn.resize(sw), Hw.mux(forward,
                Hw.mux(frameIn, bSpan.add(1), bSpan), Hw.upDown(outstandingFrames, List.of(frameIn),
                        List.of()))));
        outstandingBeats.set(Hw.mux(emptied, beatIn.resize(pw), Hw.mux(forward,
                Hw.mux(beatIn, wp.add(1).sub(newRp), wp.sub(newRp)), Hw.upDown(outstandingBeats, List.of(beatIn),
                        List.of()))));
        when(emptied, () -> { // the buffer stays empty
            una.set(next);
            unaM1.set(nextM1);
            rp.set(wp);
            replayPending.set(0);
            flushPending.set(0);
            replayCount.set(0);
        });

        // ---- status ----------------------------------------------------------------------------------------------
        Port txState = out("tx_state", 3);
        txState.set(state);
        listStatus(txState);
        Expr outEnd = toMac.fire().and(toMac.tlast());
        Expr outPoisoned = LlrSideband.TX.field("poisoned").of(toMac.tuser());
        statusCounter("tx_init_ctl_os", initSent);
        statusCounter("rx_init_echo_ctl_os", echo);
        statusCounter("rx_ack_ctl_os", isAck);
        statusCounter("rx_nack_ctl_os", isNack);
        statusCounter("rx_ack_nack_seq_error", seqError);
        statusCounter("tx_discard", in.fire().and(in.tlast()).and(mode.eq(DISCARDED)));
        statusCounter("tx_ok", outEnd.and(outPoisoned.not()));
        statusCounter("tx_poisoned", outEnd.and(outPoisoned));
        statusCounter("tx_replay", replayDone);
    }

    private static Expr action(FrameAction a) {
        return Hw.lit(2, switch (a) {
            case DISCARD -> DISCARDED;
            case BLOCK -> WAIT;
            case BEST_EFFORT -> PLAIN;
        });
    }

    public LlrConfig config() {
        return config;
    }
}
