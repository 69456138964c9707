package org.sue.link;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Stream;
import org.sue.net.SueMeta;

/**
 * Sender side of Credit-Based Flow Control on one port (docs/protocol.md section 8): the per-VC credit checks that
 * make a VC eligible at the scheduler, the counters the receiver's CF_Updates return credits to, and the CC_Update
 * frames that tell the receiver what was sent.
 *
 * <p>Credits are taken where the scheduler decides, not where a frame waits: {@code vc_ready[v]} is high when a
 * largest frame still fits, {@code S_VC_CU + reserved + largest <= S_VC_CL} and the same for the port, so a VC without
 * credit is simply not picked and never holds a frame in front of another VC's. A scheduler that does not know a
 * PDU's size when it picks reserves a largest frame ({@code reserve}) and gives the reservation back when the frame is
 * charged ({@code charge} with {@code reserved}) or not sent after all ({@code unreserve}); {@code charge} adds the
 * frame's own credits to S_VC_CU and S_P_CU. Best-effort VCs are always ready and their events are ignored.
 *
 * <p>Frames to the MAC pass through ({@code s_axis} -> {@code m_axis}, tuser the VC in, high on CC_Update frames
 * out); S_VC_CC grows by a lossless frame's credits as its last beat passes, so a CC_Update frame, sent between two
 * frames every {@code ccTimerCycles}, counts exactly the frames before it on the wire. While one is due the next
 * frame waits; the frame is built from the counters, then its FCS is computed in one cycle, then it is sent.
 *
 * <p>A CF_Update ({@code ctl_in}, the CF code, {@code value} = R_VC_CF) returns {@code value - S_VC_CF} credits to
 * S_VC_CU and S_P_CU; one returning more than are in use is refused and counted ({@code cf_update_errors}).
 */
public final class CbfcSender extends Component {
    public static final int PASS = 0;
    public static final int CC_FCS = 1;
    public static final int CC_SEND = 2;

    public final Stream in;
    public final Stream out;
    public final Stream reserve;
    public final Stream unreserve;
    public final Stream charge;
    public final Stream ctlIn;
    public final Port localMac;
    public final Port vcReady;
    /** Counter and status outputs by port name. */
    public final Map<String, Port> status = new LinkedHashMap<>();
    private final CbfcConfig config;
    private final int cw = CbfcConfig.COUNTER_WIDTH;
    private final List<Reg> used = new ArrayList<>();      // S_VC_CU
    private final List<Reg> reserved = new ArrayList<>();  // credits of largest frames picked, not charged
    private final List<Reg> consumed = new ArrayList<>();  // S_VC_CC
    private final List<Reg> freed = new ArrayList<>();     // S_VC_CF
    private Reg portUsed;
    private Reg portReserved;

    public CbfcSender(CbfcConfig config) {
        super(config);
        this.config = config;
        int w = config.dataWidth();
        Layout vcOnly = Layout.of("cbfc_vc", Layout.bits("vc", SueMeta.VC_WIDTH));
        in = Stream.slave(this, "s_axis", Stream.packet(w, SueMeta.VC_WIDTH));
        out = Stream.master(this, "m_axis", Stream.packet(w, 1));
        reserve = Stream.slaveFlow(this, "reserve", vcOnly);
        unreserve = Stream.slaveFlow(this, "unreserve", vcOnly);
        charge = Stream.slaveFlow(this, "charge", Layout.of("cbfc_charge", Layout.bits("vc", SueMeta.VC_WIDTH),
                Layout.bits("bytes", FRAME_BYTES_WIDTH), Layout.bits("reserved", 1)));
        ctlIn = Stream.slaveFlow(this, "ctl_in", LinkControl.LAYOUT);
        localMac = in("local_mac", 48);
        vcReady = out("vc_ready", SueMeta.VCS);
        for (int v = 0; v < SueMeta.VCS; v++) { // best-effort VCs count nothing
            boolean counted = config.lossless(v);
            used.add(counted ? reg("vc_used_" + v, cw, 0) : null);
            reserved.add(counted ? reg("vc_reserved_" + v, cw, 0) : null);
            consumed.add(counted ? reg("vc_consumed_" + v, cw, 0) : null);
            freed.add(counted ? reg("vc_freed_" + v, cw, 0) : null);
        }
        portUsed = reg("port_used", cw, 0);
        portReserved = reg("port_reserved", cw, 0);

        creditsInUse();
        eligibility();
        framesAndCcUpdates();
    }

    /** Bits of a frame's byte count. */
    public static final int FRAME_BYTES_WIDTH = 15;

    /** Charges, reservations and CF_Updates: each VC's and the port's counters move by the sum of the cycle's events. */
    private void creditsInUse() {
        int largest = config.maxFrameCredits();
        Expr chargeCredits = wire("charge_credits", config.creditsOf(charge.field("bytes")));
        Expr cf = wire("cf_update", ctlIn.valid().and(ctlIn.field("type").eq(config.codes().cfUpdate())));
        Expr cfVc = ctlIn.field("vc");
        Expr cfValue = ctlIn.field("value");
        Expr portDelta = Hw.zeros(cw);
        Expr portResDelta = Hw.zeros(cw);
        List<Expr> cfErrors = new ArrayList<>();
        List<Expr> cfTaken = new ArrayList<>();
        List<Expr> overdraws = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            if (!config.lossless(v)) {
                for (String name : List.of("s_cu_", "s_cc_", "s_cf_", "reserved_", "s_cu_watermark_")) {
                    statusOut(name + v, Hw.zeros(cw));
                }
                continue;
            }
            Reg cu = used.get(v);
            Reg res = reserved.get(v);
            Reg cf0 = freed.get(v);
            Expr charged = wire("charged_" + v, charge.valid().and(charge.field("vc").eq(v)));
            Expr chargeRes = charged.and(charge.field("reserved"));
            Expr cfHere = cf.and(cfVc.eq(v));
            Expr returned = wire("returned_" + v, cfValue.sub(cf0));
            Expr refused = wire("cf_refused_" + v, cfHere.and(returned.gt(cu)));
            Expr cfOk = cfHere.and(refused.not());
            Expr plus = Hw.mux(charged, chargeCredits, Hw.zeros(cw));
            Expr minus = Hw.mux(cfOk, returned, Hw.zeros(cw));
            Expr resPlus = Hw.mux(reserve.valid().and(reserve.field("vc").eq(v)), Hw.lit(cw, largest), Hw.zeros(cw));
            Expr resMinus = Hw.mux(unreserve.valid().and(unreserve.field("vc").eq(v)), Hw.lit(cw, largest),
                    Hw.zeros(cw)).add(Hw.mux(chargeRes, Hw.lit(cw, largest), Hw.zeros(cw)));
            Expr cuNext = wire("s_cu_next_" + v, cu.add(plus).sub(minus));
            Expr resNext = wire("reserved_next_" + v, res.add(resPlus).sub(resMinus));
            cu.set(cuNext);
            res.set(resNext);
            when(cfOk, () -> cf0.set(cfValue));
            portDelta = portDelta.add(plus).sub(minus);
            portResDelta = portResDelta.add(resPlus).sub(resMinus);
            cfErrors.add(refused);
            cfTaken.add(cfOk);
            // a charge that takes more than was left: the scheduler did not respect vc_ready
            overdraws.add(charged.and(cuNext.add(resNext).gt(config.vcCreditLimit())));
            Reg mark = reg("vc_used_mark_" + v, cw, 0);
            when(cuNext.gt(mark), () -> mark.set(cuNext));
            statusOut("s_cu_" + v, cu);
            statusOut("s_cc_" + v, consumed.get(v));
            statusOut("s_cf_" + v, cf0);
            statusOut("reserved_" + v, res);
            statusOut("s_cu_watermark_" + v, mark);
        }
        Expr portNext = wire("s_p_cu_next", portUsed.add(portDelta));
        Expr portResNext = wire("port_reserved_next", portReserved.add(portResDelta));
        portUsed.set(portNext);
        portReserved.set(portResNext);
        statusOut("s_p_cu", portUsed);
        Expr anyCharge = wire("charge_lossless", charge.valid().and(lossless(charge.field("vc"))));
        overdraws.add(anyCharge.and(portNext.add(portResNext).gt(config.portCreditLimit())));
        count("cf_updates_received", orOf(cfTaken));
        count("cf_update_errors", orOf(cfErrors));
        count("credit_overdraws", orOf(overdraws));
    }

    /** vc_ready: a largest frame fits beside what is in use and reserved, on the VC and on the port. */
    private void eligibility() {
        int largest = config.maxFrameCredits();
        int wide = cw + 2;
        Expr portRoom = portUsed.resize(wide).add(portReserved.resize(wide)).add(largest)
                .le(config.portCreditLimit());
        List<Expr> ready = new ArrayList<>();
        for (int v = SueMeta.VCS - 1; v >= 0; v--) {
            ready.add(!config.lossless(v) ? Hw.bool(true) : used.get(v).resize(wide)
                    .add(reserved.get(v).resize(wide)).add(largest).le(config.vcCreditLimit()).and(portRoom));
        }
        vcReady.set(wire("vc_ready_now", Hw.cat(ready)));
    }

    /** Frames through to the MAC, S_VC_CC counted at their last beats; a CC_Update between frames when due. */
    private void framesAndCcUpdates() {
        int lanes = config.beatBytes();
        int ccBeats = (CbfcConfig.CC_FRAME_BYTES + lanes - 1) / lanes;
        Reg phase = reg("phase", 2, PASS);
        Reg midFrame = reg("mid_frame", 1, 0); // a frame's first beat has passed, its last not yet
        Reg timer = reg("cc_timer", Hw.log2Up(config.ccTimerCycles() + 1L), 0);
        Reg due = reg("cc_due", 1, 0);
        Expr tick = timer.eq(config.ccTimerCycles() - 1);
        timer.set(Hw.mux(tick, Hw.zeros(timer.width()), timer.add(1)));

        // frames pass unless a CC_Update is due between frames or being sent
        Expr hold = wire("hold_frames", phase.ne(PASS).or(due.and(midFrame.not())));
        Stream frames = in.haltWhen("frames", hold);
        when(frames.fire(), () -> midFrame.set(frames.tlast().not()));
        Reg frameBeats = reg("frame_beats", FRAME_BYTES_WIDTH, 0);
        when(frames.fire(), () -> frameBeats.set(Hw.mux(frames.tlast(), Hw.zeros(FRAME_BYTES_WIDTH),
                frameBeats.add(1))));
        Expr frameBytes = wire("frame_bytes", frameBeats.shl(Hw.log2Up(lanes)).add(Keep.count(frames.tkeep(),
                FRAME_BYTES_WIDTH)));
        Expr frameEnd = frames.fire().and(frames.tlast());
        Expr frameCredits = wire("frame_credits", config.creditsOf(frameBytes));
        Expr frameVc = frames.tuser();
        for (int v = 0; v < SueMeta.VCS; v++) {
            if (config.lossless(v)) {
                Reg cc = consumed.get(v);
                when(frameEnd.and(frameVc.eq(v)), () -> cc.set(cc.add(frameCredits)));
            }
        }

        // the CC_Update frame: counters frozen while it waits, FCS in a register, then its beats
        Reg ccFrame = regNoReset("cc_frame", 8 * CbfcConfig.CC_FRAME_BYTES);
        Reg ccBeat = reg("cc_beat", Hw.log2Up(ccBeats + 1L), 0);
        List<Expr> counters = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            counters.add(config.lossless(v) ? consumed.get(v) : Hw.zeros(cw));
        }
        Expr start = wire("cc_start", phase.eq(PASS).and(due).and(midFrame.not()));
        when(start, () -> phase.set(CC_FCS));
        when(phase.eq(CC_FCS), () -> {
            ccFrame.set(CcUpdateFrame.frame(config, localMac, counters));
            ccBeat.set(0);
            phase.set(CC_SEND);
        });
        int padded = ccBeats * w();
        Expr frameWord = padded == ccFrame.width() ? ccFrame : ccFrame.resize(padded);
        List<Expr> beats = new ArrayList<>();
        for (int b = 0; b < ccBeats; b++) {
            beats.add(frameWord.bits((b + 1) * w() - 1, b * w()));
        }
        Expr ccData = ccBeats == 1 ? beats.get(0) : Hw.select(beats, ccBeat.resize(Hw.log2Up(ccBeats)));
        Expr ccLast = ccBeat.eq(ccBeats - 1);
        int lastLanes = CbfcConfig.CC_FRAME_BYTES - (ccBeats - 1) * lanes;
        Expr ccKeep = Hw.mux(ccLast, Hw.lit(lanes, 0).not().shr(lanes - lastLanes), Hw.ones(lanes));
        Expr sending = phase.eq(CC_SEND);
        Layout pkt = out.layout();
        Expr fromFrames = pkt.expr().set(Stream.TDATA, frames.tdata()).set(Stream.TKEEP, frames.tkeep())
                .set(Stream.TLAST, frames.tlast()).set(Stream.TUSER, Hw.bool(false)).build();
        Expr fromCc = pkt.expr().set(Stream.TDATA, ccData).set(Stream.TKEEP, ccKeep).set(Stream.TLAST, ccLast)
                .set(Stream.TUSER, Hw.bool(true)).build();
        Stream toMac = Stream.of(this, "to_mac", Hw.mux(sending, Hw.bool(true), frames.valid()), pkt,
                Hw.mux(sending, fromCc, fromFrames));
        toMac.into(out);
        frames.ready().set(toMac.ready().and(sending.not()));
        Expr ccBeatOut = sending.and(toMac.ready());
        when(ccBeatOut, () -> {
            ccBeat.set(ccBeat.add(1));
            when(ccLast, () -> phase.set(PASS));
        });
        Expr ccSent = wire("cc_sent", ccBeatOut.and(ccLast));
        when(tick, () -> due.set(1)).elseWhen(start, () -> due.set(0));
        statusOut("cc_phase", phase);
        count("cc_updates_sent", ccSent);
    }

    private int w() {
        return config.dataWidth();
    }

    private Expr lossless(Expr vc) {
        return Hw.lit(SueMeta.VCS, config.losslessVcs()).shr(vc).bit(0);
    }

    private static Expr orOf(List<Expr> bits) {
        return bits.isEmpty() ? Hw.bool(false) : Hw.cat(bits).orR();
    }

    private void statusOut(String name, Expr value) {
        Port p = out(name, value.width());
        p.set(value);
        status.put(name, p);
    }

    private void count(String name, Expr increment) {
        status.put(name, counter(name, increment));
    }

    public CbfcConfig config() {
        return config;
    }
}
