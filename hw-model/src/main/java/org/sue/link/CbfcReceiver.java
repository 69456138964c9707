package org.sue.link;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Status;
import org.sue.core.Tag;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.net.SueMeta;

/**
 * Receiver side of Credit-Based Flow Control on one port (docs/protocol.md section 8): counts the credits of the
 * frames that enter the receive buffer (R_VC_CC, {@code enqueue}) and of those that leave it (R_VC_CF,
 * {@code dequeue}), returns the freed ones to the sender with CF_Updates on the control channel, and takes the
 * sender's CC_Update frames to give back the credits of frames lost on the link. A frame can also leave the buffer
 * discarded after it was enqueued ({@code discard}): its credits are freed too, beside a dequeue in the same cycle.
 *
 * <p>CF_Update of VC v ({@code ctl_out}: the CF code, {@code value} R_VC_CF, {@code vc} v) leaves when credits are
 * owed (R_VC_CF moved since the last one) and the last one is at least {@code cfMinSpacingBytes} of link time old, or
 * when the last one is {@code cfMaxSpacingBytes} old, owed or not: a lost CF_Update is repaired by the next, since
 * each carries the absolute count. One cycle counts as a beat of bytes. VCs due at once take turns.
 *
 * <p>CC_Update frames ({@code s_axis_cc}, a flow of frames the port's demultiplexer diverted here; tuser high on the
 * last beat of a frame the MAC found bad): a 64-byte frame with the configured header applies, for each lossless VC,
 * {@code lost = S_VC_CC - R_VC_CC; if lost > 0 (as a 20-bit signed difference): R_VC_CF += lost, R_VC_CC = S_VC_CC};
 * any other is dropped and counted. The frame must arrive in order with the data frames around it: every frame the
 * sender sent before it must have been enqueued (or lost) when it applies; an {@code enqueue} in its cycle is a later
 * frame and counts after it. {@code ccDelay} holds a judged CC_Update for that many cycles before it applies (the
 * counters it carries, not the frame): a receive buffer that enqueues a frame some cycles after its last beat (the
 * SUE instance's framing receiver) sets it to that latency, so a CC_Update applies after the frames before it.
 *
 * <p>Timing: the counters take an enqueue one cycle after it is shown (its credits registered first) and a CC_Update
 * {@code ccDelay + 1} cycles after its last beat, so the order between them is as shown; a dequeue or discard frees
 * its credits two cycles after it is shown (the VC's freed credits summed first); {@code cc_credits_recovered} follows
 * the counters two cycles later. Every sum on the counters' loops is formed beside the recovery's verdict
 * ({@link Hw#addShallow}), so no path is deeper than 8 LUT6 levels.
 */
public final class CbfcReceiver extends Component {
    /** @param ccDelay cycles a CC_Update is held between its judgement and its applying (0..64) */
    public record Config(CbfcConfig cbfc, @Tag("cd") int ccDelay) {
        public Config {
            if (cbfc == null) {
                throw new IllegalArgumentException("CbfcReceiver cbfc configuration must be given");
            }
            if (ccDelay < 0 || ccDelay > 64) {
                throw new IllegalArgumentException("CbfcReceiver ccDelay must be 0..64 cycles, got " + ccDelay);
            }
        }
    }

    public final Flow enqueue;
    public final Flow dequeue;
    public final Flow discard;
    public final Flow ccIn;
    public final Stream ctlOut;
    private final CbfcConfig config;
    private final int cw = CbfcConfig.COUNTER_WIDTH;

    /** CC_Updates apply in the cycle after their last beat (ccDelay 0). */
    public CbfcReceiver(CbfcConfig config) {
        this(new Config(config, 0));
    }

    public CbfcReceiver(Config receiver) {
        super(receiver);
        CbfcConfig config = receiver.cbfc();
        this.config = config;
        Layout event = Layout.of("cbfc_frame", Layout.bits("vc", SueMeta.VC_WIDTH),
                Layout.bits("bytes", CbfcConfig.FRAME_BYTES_WIDTH));
        enqueue = Flow.slave(this, "enqueue", event);
        dequeue = Flow.slave(this, "dequeue", event);
        discard = Flow.slave(this, "discard", event);
        ccIn = Flow.slave(this, "s_axis_cc", Stream.packet(config.dataWidth(), 1));
        ctlOut = Stream.master(this, "ctl_out", LinkControl.LAYOUT);

        Flow enqueued = credited(enqueue);
        Cc ahead = delayed(ccUpdates(), receiver.ccDelay()); // the last of ccDelay + 1 stages is the counters'
        List<Reg> freed = counters(ahead, enqueued, credited(dequeue), credited(discard));
        cfUpdates(freed);
    }

    /** A CC_Update frame checked and taken apart: valid on its last beat. */
    private record Cc(Expr valid, List<Expr> counters) {
    }

    /** The first 64 bytes of each frame on s_axis_cc, judged at its last beat. */
    private Cc ccUpdates() {
        int frameBits = 8 * CbfcConfig.CC_FRAME_BYTES;
        ControlFrameReader reader = child("cc_reader", new ControlFrameReader(
                new ControlFrameReader.Config(config.dataWidth())));
        ccIn.into(reader.in);
        Flow read = reader.frame;
        Expr word = read.field("word");
        // not read: the addresses, the counters of VCs this port does not have, the FCS (the MAC checked it)
        int counted = 8 * CcUpdateFrame.COUNTERS_AT + CbfcConfig.COUNTER_WIDTH * SueMeta.VCS;
        unused("cc_in_unread", word.bits(8 * 12 - 1, 0), word.bits(frameBits - 1, counted));
        Expr wellFormed = wire("cc_well_formed", read.field("sized")
                .and(CcUpdateFrame.header(word).eq(CcUpdateFrame.expectedHeader(config))).and(read.field("bad").not()));
        Expr applies = wire("cc_applies", read.valid().and(wellFormed));
        statusCounter("cc_updates_received", applies, "CC_Update frames applied");
        statusCounter("cc_frames_dropped", read.valid().and(wellFormed.not()),
                "MAC Control frames dropped: not a well-formed CC_Update, or found bad by the MAC");
        return new Cc(applies, CcUpdateFrame.counters(word, SueMeta.VCS));
    }

    /** The judged CC_Update's lossless counters through {@code cycles} register stages. */
    private Cc delayed(Cc cc, int cycles) {
        Expr valid = cc.valid();
        List<Expr> counters = cc.counters();
        for (int i = 0; i < cycles; i++) {
            Reg v = reg("cc_delay_valid_" + i, 1, 0);
            v.set(valid);
            List<Expr> next = new ArrayList<>();
            for (int vc = 0; vc < SueMeta.VCS; vc++) {
                Expr now = counters.get(vc);
                if (!config.lossless(vc)) {
                    next.add(now); // never read
                    continue;
                }
                Reg r = regNoReset("cc_delay_" + i + "_vc_" + vc, cw);
                when(valid, () -> r.set(now));
                next.add(r);
            }
            valid = v;
            counters = next;
        }
        return new Cc(valid, counters);
    }

    /** A frame event with its credits, registered: the counters count it a cycle after it is shown. */
    private Flow credited(Flow flow) {
        Layout credited = Layout.of("cbfc_credited", Layout.bits("vc", SueMeta.VC_WIDTH), Layout.bits("credits", cw));
        return Flow.registered(this, flow.name() + "_credited", flow.valid(), credited, credited.expr()
                .set("vc", flow.field("vc")).set("credits", config.creditsOf(flow.field("bytes"))).build());
    }

    /** The credits a credited event brings VC v: its credits when it is of v, else 0. */
    private static Expr of(Flow credited, int v) {
        return Hw.mux(credited.valid().and(credited.field("vc").eq(v)), credited.field("credits"), 0);
    }

    /**
     * R_VC_CC and R_VC_CF: the CC_Update first, then the enqueue and the freed credits. The CC_Update comes from
     * {@code ahead} through one more register, so it applies {@code ccDelay + 1} cycles after its last beat and stays
     * in order with the enqueues, which count a cycle after they are shown. A dequeue's and a discard's credits (two
     * frames leaving in one cycle both free theirs) are summed per VC into a register first: R_VC_CF adds them two
     * cycles after they are shown, which only delays its CF_Updates.
     *
     * <p>A recovery's verdict (a compare of the counters) only chooses between sums formed beside it: R_VC_CC plus the
     * enqueue or S_VC_CC plus it, and R_VC_CF plus the freed credits or that plus {@code lost = S_VC_CC - R_VC_CC}
     * (one sum of four terms, {@link Hw#sumShallow}). Returns R_VC_CF of each VC, null for a best-effort VC.
     */
    private List<Reg> counters(Cc ahead, Flow enqueued, Flow dequeued, Flow discarded) {
        List<Reg> consumed = new ArrayList<>();
        List<Reg> freed = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) { // best-effort VCs count nothing
            consumed.add(config.lossless(v) ? reg("vc_consumed_" + v, cw, 0) : null);
            freed.add(config.lossless(v) ? reg("vc_freed_" + v, cw, 0) : null);
        }
        Reg valid = reg("cc_applies_now", 1, 0);
        valid.set(ahead.valid());
        List<Expr> recoveredNow = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            Reg rcc = consumed.get(v);
            Reg rcf = freed.get(v);
            status("r_cc_" + v, Status.Kind.LEVEL, config.lossless(v) ? rcc : Hw.zeros(cw),
                    "R_VC_CC of VC " + v + ": credits of the frames received, modulo 2^20");
            status("r_cf_" + v, Status.Kind.LEVEL, config.lossless(v) ? rcf : Hw.zeros(cw),
                    "R_VC_CF of VC " + v + ": credits freed (frames left the buffer or lost), modulo 2^20");
            if (!config.lossless(v)) {
                continue;
            }
            Expr sentAhead = ahead.counters().get(v);
            Reg sent = regNoReset("cc_sent_" + v, cw);
            when(ahead.valid(), () -> sent.set(sentAhead));
            Reg free = reg("vc_freeing_" + v, cw, 0);
            free.set(Hw.addShallow(of(dequeued, v), of(discarded, v)));

            // lost > 0 as a 20-bit signed difference: the sender counted more than arrived
            Expr recover = wire("cc_recover_" + v, valid.and(sent.ne(rcc)).and(Hw.atOrAfter(sent, rcc)));
            Expr in = of(enqueued, v);
            rcc.set(Hw.mux(recover, Hw.addShallow(sent, in), Hw.addShallow(rcc, in)));
            rcf.set(Hw.mux(recover, Hw.sumShallow(List.of(rcf, sent, rcc.not(), free), true),
                    Hw.addShallow(rcf, free)));
            Reg recovered = reg("cc_recovered_" + v, cw, 0);
            recovered.set(Hw.mux(recover, Hw.subShallow(sent, rcc), 0));
            recoveredNow.add(recovered.resize(cw + 2));
        }
        // the statistic two cycles behind the counters: the VCs' recoveries summed, then added
        Reg sum = reg("cc_recovered_sum", cw + 2, 0);
        sum.set(recoveredNow.isEmpty() ? Hw.zeros(cw + 2) : Hw.sumShallow(recoveredNow, false));
        Reg total = reg("credits_recovered_total", 32, 0);
        total.set(Hw.addShallow(total, sum.resize(32)));
        status("cc_credits_recovered", Status.Kind.LEVEL, total,
                "Credits of frames lost on the link that CC_Updates gave back, since reset, modulo 2^32");
        return freed;
    }

    /** One CF_Update per VC when owed and spaced, or when the maximum spacing passed; VCs take turns. */
    private void cfUpdates(List<Reg> freed) {
        int minCycles = config.cycles(config.cfMinSpacingBytes());
        int maxCycles = config.cycles(config.cfMaxSpacingBytes());
        int tw = Hw.log2Up(maxCycles + 1L);
        List<Expr> due = new ArrayList<>();
        List<Expr> values = new ArrayList<>();
        List<Reg> lastSent = new ArrayList<>();
        List<Reg> since = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            boolean counted = config.lossless(v);
            Reg sent = counted ? reg("cf_sent_" + v, cw, 0) : null;
            Reg age = counted ? reg("cf_age_" + v, tw, 0) : null;
            lastSent.add(sent);
            since.add(age);
            values.add(counted ? freed.get(v) : Hw.zeros(cw));
            due.add(counted ? wire("cf_due_" + v, freed.get(v).ne(sent).and(age.ge(minCycles)).or(age.ge(maxCycles)))
                    : Hw.bool(false));
        }
        Reg last = reg("cf_last_vc", SueMeta.VC_WIDTH, SueMeta.VCS - 1);
        Expr pick = wire("cf_pick", Arbiter.rotatingPick(due, last));
        Expr value = Hw.select(values, pick);
        Stream message = Stream.of(this, "cf_message", Hw.cat(due).orR(), LinkControl.LAYOUT,
                LinkControl.LAYOUT.expr().set("type", Hw.lit(LinkControl.TYPE_WIDTH, config.codes().cfUpdate()))
                        .set("value", value).set("vc", pick.resize(LinkControl.VC_WIDTH)).build());
        message.stage("ctl_out_stage").into(ctlOut);
        Expr sent = message.fire();
        when(sent, () -> last.set(pick));
        for (int v = 0; v < SueMeta.VCS; v++) {
            Reg s = lastSent.get(v);
            Reg age = since.get(v);
            if (s == null) {
                continue;
            }
            when(sent.and(pick.eq(v)), () -> {
                s.set(value);
                age.set(0);
            }).elseWhen(age.ne(maxCycles), () -> age.set(age.add(1)));
        }
        statusCounter("cf_updates_sent", sent, "CF_Updates sent");
    }

    public CbfcConfig config() {
        return config;
    }
}
