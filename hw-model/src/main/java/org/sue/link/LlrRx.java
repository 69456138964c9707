package org.sue.link;

import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.State;
import org.sue.core.Status;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;

/**
 * Receive side of Link Layer Retry (docs/protocol.md section 7.4): checks each frame's sequence number against the
 * one it expects, passes the expected frames on and discards the others, and answers on the control channel with
 * cumulative ACKs, NACKs and the INIT_ECHO.
 *
 * <p>Frames come from the MAC ({@code s_axis}, a flow; tuser {@link LlrSideband#RX}) and go on, cut through, to the
 * framing receiver ({@code m_axis}, a flow; tuser high on the last beat of a frame the MAC found bad or poisoned,
 * which {@link org.sue.net.FrameReceiver} then drops as {@code MAC_ERROR}). The decision is made on the first beat,
 * where the sequence number is: a frame without one ({@code llr} low) and every frame while LLR is OFF passes; an
 * LLR frame passes only with the expected sequence number. On the last beat the frame's status moves the state:
 * <ul>
 * <li>expected and good or poisoned: expected + 1 (a poisoned frame is the sender's, a replay would not mend it);
 * after a NACK this ends the discarding ({@code rx_replay});</li>
 * <li>expected and bad, or a missing sequence number: one NACK carrying the last good sequence number, then every
 * frame but the expected one is discarded, with no ACK or NACK, until it arrives (SEND_NACK, NACK_SENT); [ours] a
 * bad copy of the expected frame then asks again, sooner than the sender's replay timer would;</li>
 * <li>a duplicate (the sender replays what was accepted, its ACK was lost): discarded, and [ours] the ACK is sent
 * again at once.</li>
 * </ul>
 * An ACK carries the last good sequence number; it is owed when that moved since the last ACK, and leaves once
 * {@code ctlosSpacingBytes} of accepted frames or {@code ackIdleCycles} without a frame have passed. INIT(s) from the
 * peer (while {@code llr_enable}) sets the expected number to s and is answered by INIT_ECHO(s). Messages leave
 * through a register stage: INIT_ECHO first, then NACK, then ACK.
 */
public final class LlrRx extends Component {
    /** The receiver's state (docs/protocol.md 7.4): off, ACKing, a NACK owed, a NACK sent (discarding). */
    public enum LlrRxState { OFF, SEND_ACKS, SEND_NACK, NACK_SENT }

    /** Where a frame's sequence number lies: the expected one, ahead of it (frames missing), behind it (a replay). */
    private enum SeqKind { EXPECTED, MISSING, DUPLICATE }

    private static final int KIND_WIDTH = Hw.log2Up(SeqKind.values().length);
    /** Bits of a frame's beat and byte counts for the ACK spacing (16-bit beats of up to 128 bytes). */
    private static final int FRAME_BEATS_WIDTH = 16;
    private static final int FRAME_BYTES_WIDTH = 24;
    /** Bits of the bytes accepted since the last ACK, which stop at the spacing. */
    private static final int SPACING_WIDTH = Hw.log2Up(LlrConfig.CTLOS_SPACING_BYTES.max() + 1);

    public final Flow in;
    public final Flow out;
    public final Flow ctlIn;
    public final Stream ctlOut;
    public final Port enable;
    private final LlrConfig config;

    public LlrRx(LlrConfig config) {
        super(config);
        this.config = config;
        int w = config.dataWidth();
        in = Flow.slave(this, "s_axis", Stream.packet(w, LlrSideband.RX.width()));
        out = Flow.master(this, "m_axis", Stream.packet(w, 1));
        ctlIn = Flow.slave(this, "ctl_in", LinkControl.LAYOUT);
        ctlOut = Stream.master(this, "ctl_out", LinkControl.LAYOUT);
        enable = in("llr_enable", 1);

        State<LlrRxState> state = state("state", LlrRxState.OFF);
        Reg expected = reg("expected", LinkControl.SEQ_WIDTH, 0);
        Expr lastGood = wire("last_good", expected.sub(1));
        Frame frame = frames(state, expected);
        Replies replies = replies();
        Sent sent = messages(state, lastGood, replies);
        Expr init = wire("init", ctlIn.valid().and(ctlIn.field("type").eq(config.codes().init())));
        Expr takeInit = init.and(enable);
        unused("ctl_in_vc", ctlIn.field("vc"));
        Expr replayStart = advance(state, expected, lastGood, frame, replies, sent, takeInit);
        ackSpacing(state, frame, replies, sent, takeInit);
        status(state, frame, init, sent, replayStart);
    }

    /**
     * A frame from the MAC as the state moves: {@code end} its last beat (an LLR frame), {@code kind} where its
     * number lies ({@link SeqKind}), its status, the verdicts, and the bytes it has so far (for the ACK spacing).
     */
    private record Frame(Expr end, Expr kind, Expr bad, Expr poisoned, Expr accepted, Expr nackNeeded,
                         Expr duplicate, Expr bytes) {
    }

    /** The frame: decided on its first beat (passed on or discarded), judged on its last. */
    private Frame frames(State<LlrRxState> state, Reg expected) {
        Expr user = in.tuser();
        Reg first = reg("first_beat", 1, 1);
        when(in.valid(), () -> first.set(in.tlast()));
        Expr seq = LlrSideband.RX.field("seq").of(user);
        Expr diff = seq.sub(expected);
        Expr llrNow = LlrSideband.RX.field("llr").of(user).and(state.reg().ne(state.code(LlrRxState.OFF)));
        // the first beat's facts, held for the rest of the frame
        Reg llrHeld = regNoReset("frame_llr", 1);
        Reg kindHeld = regNoReset("frame_kind", KIND_WIDTH);
        Expr kindNow = Hw.mux(diff.eq(0), kindCode(SeqKind.EXPECTED), Hw.mux(diff.msb(),
                kindCode(SeqKind.DUPLICATE), kindCode(SeqKind.MISSING)));
        when(in.valid().and(first), () -> {
            llrHeld.set(llrNow);
            kindHeld.set(kindNow);
        });
        Expr llr = wire("frame_llr_now", Hw.mux(first, llrNow, llrHeld));
        Expr kind = wire("frame_kind_now", Hw.mux(first, kindNow, kindHeld));
        Expr passes = wire("passes", llr.not().or(kind.eq(SeqKind.EXPECTED.ordinal())));
        Expr bad = LlrSideband.RX.field("bad").of(user);
        Expr poisoned = LlrSideband.RX.field("poisoned").of(user);
        in.throwWhen("passing", passes.not()).retagged("to_framing", out.layout(), in.tlast().and(bad.or(poisoned)))
                .into(out);

        Expr end = wire("frame_end", in.valid().and(in.tlast()).and(llr));
        Expr accepted = wire("accepted", end.and(kind.eq(SeqKind.EXPECTED.ordinal())).and(bad.not()));
        // a NACK: a missing frame or a bad expected one while ACKing; after a NACK only a bad replay of the expected
        // frame asks again ([ours]: sooner than the sender's replay timer)
        Expr nackNeeded = wire("nack_needed", end.and(kind.eq(SeqKind.MISSING.ordinal())
                .and(state.is(LlrRxState.SEND_ACKS)).or(kind.eq(SeqKind.EXPECTED.ordinal()).and(bad)
                        .and(state.isAny(LlrRxState.SEND_ACKS, LlrRxState.NACK_SENT)))));
        Expr duplicate = wire("duplicate", end.and(kind.eq(SeqKind.DUPLICATE.ordinal())));

        Reg frameBeats = reg("frame_beats", FRAME_BEATS_WIDTH, 0);
        when(in.valid(), () -> frameBeats.set(Hw.mux(in.tlast(), Hw.zeros(FRAME_BEATS_WIDTH), frameBeats.add(1))));
        Expr frameBytes = wire("frame_bytes", frameBeats.resize(FRAME_BYTES_WIDTH).shl(Hw.log2Up(config.beatBytes()))
                .add(Keep.count(in.tkeep(), FRAME_BYTES_WIDTH)));
        return new Frame(end, kind, bad, poisoned, accepted, nackNeeded, duplicate, frameBytes);
    }

    private static Expr kindCode(SeqKind k) {
        return Hw.lit(KIND_WIDTH, k.ordinal());
    }

    /**
     * What the replies to the peer keep: an INIT_ECHO owed and its number, the last number ACKed, the bytes accepted
     * and the idle cycles since, and an ACK owed again (a duplicate arrived).
     */
    private record Replies(Reg echoPending, Reg echoValue, Reg lastAcked, Reg sinceAck, Reg idle, Reg ackAgain) {
    }

    private Replies replies() {
        return new Replies(reg("echo_pending", 1, 0), regNoReset("echo_value", LinkControl.SEQ_WIDTH),
                reg("last_acked", LinkControl.SEQ_WIDTH, (1 << LinkControl.SEQ_WIDTH) - 1),
                reg("bytes_since_ack", SPACING_WIDTH, 0),
                reg("idle_cycles", Hw.log2Up(config.ackIdleCycles() + 1L), 0), reg("ack_again", 1, 0));
    }

    /** The messages that left this cycle. */
    private record Sent(Expr echo, Expr nack, Expr ack) {
    }

    /** Messages out through a register stage: INIT_ECHO first, then NACK, then ACK. */
    private Sent messages(State<LlrRxState> state, Expr lastGood, Replies r) {
        LinkControl.Codes codes = config.codes();
        int tw = LinkControl.TYPE_WIDTH;
        Expr owed = lastGood.ne(r.lastAcked());
        Expr ackDue = wire("ack_due", state.is(LlrRxState.SEND_ACKS).and(r.ackAgain().or(owed.and(
                r.sinceAck().ge(config.ctlosSpacingBytes()).or(r.idle().eq(config.ackIdleCycles()))))));
        Expr nackDue = state.is(LlrRxState.SEND_NACK);
        Expr echo = r.echoPending();
        Expr type = Hw.mux(echo, Hw.lit(tw, codes.initEcho()), Hw.mux(nackDue, Hw.lit(tw, codes.nack()),
                Hw.lit(tw, codes.ack())));
        Stream message = Stream.of(this, "message", echo.or(nackDue).or(ackDue), LinkControl.LAYOUT,
                LinkControl.LAYOUT.expr().set("type", type).set("value", Hw.mux(echo, r.echoValue(), lastGood))
                        .build());
        message.stage("ctl_out_stage").into(ctlOut);
        Expr sent = message.fire();
        return new Sent(wire("echo_sent", sent.and(echo)), wire("nack_sent", sent.and(echo.not()).and(nackDue)),
                wire("ack_sent", sent.and(echo.not()).and(nackDue.not())));
    }

    /**
     * The state, the expected number and the replies owed, from frame ends, messages sent and the peer's INIT;
     * {@code llr_enable} low turns LLR off. Returns when discarding ends ({@code rx_replay}).
     */
    private Expr advance(State<LlrRxState> state, Reg expected, Expr lastGood, Frame frame, Replies r, Sent sent,
                         Expr takeInit) {
        Expr replayStart = wire("replay_start", frame.accepted().and(state.isAny(LlrRxState.SEND_NACK,
                LlrRxState.NACK_SENT)));
        Expr value = ctlIn.field("value");
        when(frame.accepted(), () -> expected.set(expected.add(1))); // an INIT in the same cycle overrides it
        when(enable.not(), () -> {
            state.set(LlrRxState.OFF);
            r.echoPending().set(0);
        }).elseWhen(takeInit, () -> {
            state.set(LlrRxState.SEND_ACKS);
            expected.set(value);
            r.lastAcked().set(value.sub(1));
            r.echoPending().set(1);
            r.echoValue().set(value);
        }).otherwise(() -> {
            when(sent.echo(), () -> r.echoPending().set(0));
            when(replayStart, () -> state.set(LlrRxState.SEND_ACKS))
                    .elseWhen(frame.nackNeeded(), () -> state.set(LlrRxState.SEND_NACK))
                    .elseWhen(sent.nack(), () -> state.set(LlrRxState.NACK_SENT));
            when(sent.ack(), () -> r.lastAcked().set(lastGood));
        });
        return replayStart;
    }

    /** Bytes accepted since the last ACK (up to the spacing, no further), idle cycles, an ACK owed again. */
    private void ackSpacing(State<LlrRxState> state, Frame frame, Replies r, Sent sent, Expr takeInit) {
        int spacing = config.ctlosSpacingBytes();
        int sumWidth = Math.max(SPACING_WIDTH, FRAME_BYTES_WIDTH) + 1;
        when(sent.ack().or(takeInit), () -> {
            r.sinceAck().set(0);
            r.ackAgain().set(0);
        }).otherwise(() -> {
            Expr more = r.sinceAck().resize(sumWidth).add(frame.bytes().resize(sumWidth));
            when(frame.accepted(), () -> r.sinceAck().set(Hw.mux(more.ge(spacing), Hw.lit(SPACING_WIDTH, spacing),
                    more.resize(SPACING_WIDTH))));
            when(frame.duplicate().and(state.is(LlrRxState.SEND_ACKS)), () -> r.ackAgain().set(1));
        });
        when(frame.accepted().or(sent.ack()).or(takeInit), () -> r.idle().set(0))
                .elseWhen(r.idle().ne(config.ackIdleCycles()), () -> r.idle().set(r.idle().add(1)));
    }

    /** The state and the counters (SAI names). */
    private void status(State<LlrRxState> state, Frame frame, Expr init, Sent sent, Expr replayStart) {
        status("rx_state", Status.Kind.STATE, state.reg(),
                "LLR receive state: 0 OFF, 1 SEND_ACKS, 2 SEND_NACK, 3 NACK_SENT");
        Expr end = frame.end();
        Expr bad = frame.bad();
        Expr poisoned = frame.poisoned();
        Expr good = bad.not().and(poisoned.not());
        Expr expectedEnd = end.and(frame.kind().eq(SeqKind.EXPECTED.ordinal()));
        statusCounter("rx_init_ctl_os", init, "INIT messages received");
        statusCounter("tx_init_echo_ctl_os", sent.echo(), "INIT_ECHO messages sent");
        statusCounter("tx_ack_ctl_os", sent.ack(), "ACK messages sent");
        statusCounter("tx_nack_ctl_os", sent.nack(), "NACK messages sent");
        statusCounter("rx_ok", end.and(good), "LLR frames received good");
        statusCounter("rx_poisoned", end.and(poisoned).and(bad.not()), "LLR frames received poisoned");
        statusCounter("rx_bad", end.and(bad), "LLR frames received bad (FCS or uncorrectable FEC)");
        statusCounter("rx_expected_seq_good", expectedEnd.and(good), "Frames with the expected number, good");
        statusCounter("rx_expected_seq_poisoned", expectedEnd.and(poisoned).and(bad.not()),
                "Frames with the expected number, poisoned");
        statusCounter("rx_expected_seq_bad", expectedEnd.and(bad), "Frames with the expected number, bad");
        statusCounter("rx_missing_seq", end.and(frame.kind().eq(SeqKind.MISSING.ordinal())),
                "Frames ahead of the expected number (frames were lost)");
        statusCounter("rx_duplicate_seq", frame.duplicate(), "Frames behind the expected number (replays)");
        statusCounter("rx_replay", replayStart, "Discarding ended: the expected frame arrived after a NACK");
    }

    public LlrConfig config() {
        return config;
    }
}
