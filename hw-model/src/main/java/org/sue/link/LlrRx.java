package org.sue.link;

import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Reg;
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
    public static final int OFF = 0;
    public static final int SEND_ACKS = 1;
    public static final int SEND_NACK = 2;
    public static final int NACK_SENT = 3;

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
        int sw = LinkControl.SEQ_WIDTH;
        LinkControl.Codes codes = config.codes();
        in = Flow.slave(this, "s_axis", Stream.packet(w, LlrSideband.RX.width()));
        out = Flow.master(this, "m_axis", Stream.packet(w, 1));
        ctlIn = Flow.slave(this, "ctl_in", LinkControl.LAYOUT);
        ctlOut = Stream.master(this, "ctl_out", LinkControl.LAYOUT);
        enable = in("llr_enable", 1);

        Reg state = reg("state", 2, OFF);
        Reg expected = reg("expected", sw, 0);
        Expr lastGood = wire("last_good", expected.sub(1));

        // ---- the frame: decided on its first beat, judged on its last ---------------------------------------------
        Expr user = in.tuser();
        Reg first = reg("first_beat", 1, 1);
        when(in.valid(), () -> first.set(in.tlast()));
        Expr seq = LlrSideband.RX.field("seq").of(user);
        Expr diff = seq.sub(expected);
        Expr llrNow = LlrSideband.RX.field("llr").of(user).and(state.ne(OFF));
        // the first beat's facts, held for the rest of the frame
        Reg llrHeld = regNoReset("frame_llr", 1);
        Reg kindHeld = regNoReset("frame_kind", 2); // 0 expected, 1 missing (ahead), 2 duplicate (behind)
        Expr kindNow = Hw.mux(diff.eq(0), Hw.lit(2, 0), Hw.mux(diff.msb(), Hw.lit(2, 2), Hw.lit(2, 1)));
        when(in.valid().and(first), () -> {
            llrHeld.set(llrNow);
            kindHeld.set(kindNow);
        });
        Expr llr = wire("frame_llr_now", Hw.mux(first, llrNow, llrHeld));
        Expr kind = wire("frame_kind_now", Hw.mux(first, kindNow, kindHeld));
        Expr passes = wire("passes", llr.not().or(kind.eq(0)));
        Expr bad = LlrSideband.RX.field("bad").of(user);
        Expr poisoned = LlrSideband.RX.field("poisoned").of(user);
        out.valid().set(in.valid().and(passes));
        out.tdata().set(in.tdata());
        out.tkeep().set(in.tkeep());
        out.tlast().set(in.tlast());
        out.tuser().set(in.tlast().and(bad.or(poisoned)));

        Expr end = wire("frame_end", in.valid().and(in.tlast()).and(llr));
        Expr accepted = wire("accepted", end.and(kind.eq(0)).and(bad.not()));
        // a NACK: a missing frame or a bad expected one while ACKing; after a NACK only a bad replay of the expected
        // frame asks again ([ours]: sooner than the sender's replay timer)
        Expr nackNeeded = wire("nack_needed", end.and(kind.eq(1).and(state.eq(SEND_ACKS))
                .or(kind.eq(0).and(bad).and(state.eq(SEND_ACKS).or(state.eq(NACK_SENT))))));
        Expr duplicate = wire("duplicate", end.and(kind.eq(2)));

        // bytes of a frame, for the ACK spacing
        Reg frameBeats = reg("frame_beats", 16, 0);
        when(in.valid(), () -> frameBeats.set(Hw.mux(in.tlast(), Hw.zeros(16), frameBeats.add(1))));
        int lanes = config.beatBytes();
        Expr frameBytes = wire("frame_bytes", frameBeats.resize(24).shl(Hw.log2Up(lanes))
                .add(Keep.count(in.tkeep(), 24)));

        // ---- messages out: INIT_ECHO, NACK, ACK ---------------------------------------------------------------
        Reg echoPending = reg("echo_pending", 1, 0);
        Reg echoValue = regNoReset("echo_value", sw);
        Reg lastAcked = reg("last_acked", sw, (1 << sw) - 1);
        Reg sinceAck = reg("bytes_since_ack", 15, 0);
        Reg idle = reg("idle_cycles", Hw.log2Up(config.ackIdleCycles() + 1L), 0);
        Reg ackAgain = reg("ack_again", 1, 0);
        Expr owed = lastGood.ne(lastAcked);
        Expr ackDue = wire("ack_due", state.eq(SEND_ACKS).and(ackAgain.or(owed.and(
                sinceAck.ge(config.ctlosSpacingBytes()).or(idle.eq(config.ackIdleCycles()))))));
        Expr nackDue = state.eq(SEND_NACK);
        Expr type = Hw.mux(echoPending, Hw.lit(8, codes.initEcho()), Hw.mux(nackDue, Hw.lit(8, codes.nack()),
                Hw.lit(8, codes.ack())));
        Stream message = Stream.of(this, "message", echoPending.or(nackDue).or(ackDue), LinkControl.LAYOUT,
                LinkControl.LAYOUT.expr().set("type", type).set("value", Hw.mux(echoPending, echoValue, lastGood))
                        .build());
        message.stage("ctl_out_stage").into(ctlOut);
        Expr sent = message.fire();
        Expr echoSent = wire("echo_sent", sent.and(echoPending));
        Expr nackSent = wire("nack_sent", sent.and(echoPending.not()).and(nackDue));
        Expr ackSent = wire("ack_sent", sent.and(echoPending.not()).and(nackDue.not()));

        // ---- INIT from the peer ---------------------------------------------------------------------------------
        Expr init = wire("init", ctlIn.valid().and(ctlIn.field("type").eq(codes.init())));
        Expr takeInit = init.and(enable);
        unused("ctl_in_vc", ctlIn.field("vc"));

        // ---- state -----------------------------------------------------------------------------------------------
        Expr replayStart = wire("replay_start", accepted.and(state.eq(SEND_NACK).or(state.eq(NACK_SENT))));
        when(accepted, () -> expected.set(expected.add(1))); // an INIT in the same cycle overrides it
        when(enable.not(), () -> {
            state.set(OFF);
            echoPending.set(0);
        }).elseWhen(takeInit, () -> {
            state.set(SEND_ACKS);
            expected.set(ctlIn.field("value"));
            lastAcked.set(ctlIn.field("value").sub(1));
            echoPending.set(1);
            echoValue.set(ctlIn.field("value"));
        }).otherwise(() -> {
            when(echoSent, () -> echoPending.set(0));
            when(replayStart, () -> state.set(SEND_ACKS))
                    .elseWhen(nackNeeded, () -> state.set(SEND_NACK))
                    .elseWhen(nackSent, () -> state.set(NACK_SENT));
            when(ackSent, () -> lastAcked.set(lastGood));
        });
        when(ackSent.or(takeInit), () -> {
            sinceAck.set(0);
            ackAgain.set(0);
        }).otherwise(() -> {
            Expr more = sinceAck.resize(25).add(frameBytes.resize(25)); // up to the spacing, no further
            when(accepted, () -> sinceAck.set(Hw.mux(more.ge(config.ctlosSpacingBytes()),
                    Hw.lit(15, config.ctlosSpacingBytes()), more.resize(15))));
            when(duplicate.and(state.eq(SEND_ACKS)), () -> ackAgain.set(1));
        });
        when(accepted.or(ackSent).or(takeInit), () -> idle.set(0))
                .elseWhen(idle.ne(config.ackIdleCycles()), () -> idle.set(idle.add(1)));

        // ---- status ----------------------------------------------------------------------------------------------
        Port rxState = out("rx_state", 2);
        rxState.set(state);
        listStatus(rxState);
        Expr good = bad.not().and(poisoned.not());
        Expr expectedEnd = end.and(kind.eq(0));
        statusCounter("rx_init_ctl_os", init);
        statusCounter("tx_init_echo_ctl_os", echoSent);
        statusCounter("tx_ack_ctl_os", ackSent);
        statusCounter("tx_nack_ctl_os", nackSent);
        statusCounter("rx_ok", end.and(good));
        statusCounter("rx_poisoned", end.and(poisoned).and(bad.not()));
        statusCounter("rx_bad", end.and(bad));
        statusCounter("rx_expected_seq_good", expectedEnd.and(good));
        statusCounter("rx_expected_seq_poisoned", expectedEnd.and(poisoned).and(bad.not()));
        statusCounter("rx_expected_seq_bad", expectedEnd.and(bad));
        statusCounter("rx_missing_seq", end.and(kind.eq(1)));
        statusCounter("rx_duplicate_seq", duplicate);
        statusCounter("rx_replay", replayStart);
    }

    public LlrConfig config() {
        return config;
    }
}
