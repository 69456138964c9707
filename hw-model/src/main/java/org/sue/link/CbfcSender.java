package org.sue.link;

import java.util.ArrayList;
import java.util.List;
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
    public final Stream in;
    public final Stream out;
    public final Stream reserve;
    public final Stream unreserve;
    public final Stream charge;
    public final Stream ctlIn;
    public final Port localMac;
    public final Port vcReady;
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
                Layout.bits("bytes", CbfcConfig.FRAME_BYTES_WIDTH), Layout.bits("reserved", 1)));
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

    /** Charges, reservations and CF_Updates: each VC's and the port's counters move by the sum of the cycle's events. */
    private void creditsInUse() {
        int largest = config.maxFrameCredits();
        Expr chargeCredits = wire("charge_credits", config.creditsOf(charge.field("bytes")));
        Expr cf = wire("cf_update", ctlIn.valid().and(ctlIn.field("type").eq(config.codes().cfUpdate())));
        Expr cfVc = ctlIn.field("vc");
        Expr cfValue = ctlIn.field("value");
        Expr portCharged = portUsed; // the port's credits in use with this cycle's charge, before a CF_Update
        List<Expr> cfOkOf = new ArrayList<>();
        List<Expr> returnedOf = new ArrayList<>();
        Expr portResKept = portReserved; // the port's reservations after this cycle's, before a new one
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
            Expr reserveHere = reserve.valid().and(reserve.field("vc").eq(v));
            Expr resMinus = Hw.mux(unreserve.valid().and(unreserve.field("vc").eq(v)), Hw.lit(cw, largest),
                    Hw.zeros(cw)).add(Hw.mux(chargeRes, Hw.lit(cw, largest), Hw.zeros(cw)));
            // the CF_Update's verdict comes late (a difference, then a compare): it only chooses between the count
            // with the charge and that less the return, both formed beside it
            Expr cuCharged = wire("s_cu_charged_" + v, cu.add(plus));
            Expr cuReturned = wire("s_cu_returned_" + v, cuCharged.sub(returned));
            Expr cuNext = wire("s_cu_next_" + v, Hw.mux(cfOk, cuReturned, cuCharged));
            // a reservation comes late (the scheduler's pick): it only chooses among values formed beside it
            Expr resKept = wire("reserved_kept_" + v, res.sub(resMinus));
            Expr resNext = wire("reserved_next_" + v, Hw.mux(reserveHere, resKept.add(largest), resKept));
            cu.set(cuNext);
            res.set(resNext);
            when(cfOk, () -> cf0.set(cfValue));
            portCharged = portCharged.add(plus);
            cfOkOf.add(cfOk);
            returnedOf.add(returned);
            portResKept = portResKept.sub(resMinus);
            cfErrors.add(refused);
            cfTaken.add(cfOk);
            // a charge that takes more than was left: the scheduler did not respect vc_ready
            overdraws.add(charged.and(Hw.mux(cfOk, exceeds(cuReturned.add(resKept), reserveHere,
                    config.vcCreditLimit()), exceeds(cuCharged.add(resKept), reserveHere, config.vcCreditLimit()))));
            Reg mark = reg("vc_used_mark_" + v, cw, 0);
            when(Hw.mux(cfOk, cuReturned.gt(mark), cuCharged.gt(mark)), () -> mark.set(cuNext));
            statusOut("s_cu_" + v, cu);
            statusOut("s_cc_" + v, consumed.get(v));
            statusOut("s_cf_" + v, cf0);
            statusOut("reserved_" + v, res);
            statusOut("s_cu_watermark_" + v, mark);
        }
        // one CF_Update a cycle: at most one VC's return comes off the port's count, each formed beside the verdicts
        Expr reservePort = wire("reserve_lossless", reserve.valid().and(lossless(reserve.field("vc"))));
        Expr portCu = wire("s_p_cu_charged", portCharged);
        Expr portNext = portCu;
        Expr portOver = exceeds(portCu.add(portResKept), reservePort, config.portCreditLimit());
        for (int k = 0; k < cfOkOf.size(); k++) {
            Expr portReturned = portCu.sub(returnedOf.get(k));
            portNext = Hw.mux(cfOkOf.get(k), portReturned, portNext);
            portOver = Hw.mux(cfOkOf.get(k), exceeds(portReturned.add(portResKept), reservePort,
                    config.portCreditLimit()), portOver);
        }
        portNext = wire("s_p_cu_next", portNext);
        Expr portResNext = wire("port_reserved_next", Hw.mux(reservePort, portResKept.add(largest), portResKept));
        portUsed.set(portNext);
        portReserved.set(portResNext);
        statusOut("s_p_cu", portUsed);
        Expr anyCharge = wire("charge_lossless", charge.valid().and(lossless(charge.field("vc"))));
        overdraws.add(anyCharge.and(portOver));
        statusCounter("cf_updates_received", orOf(cfTaken));
        statusCounter("cf_update_errors", orOf(cfErrors));
        statusCounter("credit_overdraws", orOf(overdraws));
    }

    /** {@code inUse} plus a largest frame's reservation where {@code reserving} {@code >} limit: both compares formed. */
    private Expr exceeds(Expr inUse, Expr reserving, int limit) {
        return Hw.mux(reserving, inUse.add(config.maxFrameCredits()).gt(limit), inUse.gt(limit));
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
        ControlFrameInserter inserter = child("cc_insert", new ControlFrameInserter(
                new ControlFrameInserter.Config(config.dataWidth())));
        in.map("frames", inserter.in.layout(), inserter.in.layout().expr().set(Stream.TDATA, in.tdata())
                .set(Stream.TKEEP, in.tkeep()).set(Stream.TLAST, in.tlast()).build()).into(inserter.in);
        inserter.out.into(out);
        Reg frameBeats = reg("frame_beats", CbfcConfig.FRAME_BYTES_WIDTH, 0);
        when(in.fire(), () -> frameBeats.set(Hw.mux(in.tlast(), Hw.zeros(CbfcConfig.FRAME_BYTES_WIDTH), frameBeats.add(1))));
        Expr frameBytes = wire("frame_bytes", frameBeats.shl(Hw.log2Up(lanes)).add(Keep.count(in.tkeep(),
                CbfcConfig.FRAME_BYTES_WIDTH)));
        Expr frameEnd = in.fire().and(in.tlast());
        Expr frameCredits = wire("frame_credits", config.creditsOf(frameBytes));
        for (int v = 0; v < SueMeta.VCS; v++) {
            if (config.lossless(v)) {
                Reg cc = consumed.get(v);
                when(frameEnd.and(in.tuser().eq(v)), () -> cc.set(cc.add(frameCredits)));
            }
        }
        // a CC_Update every ccTimerCycles, built from the counters as the inserter takes it
        Reg timer = reg("cc_timer", Hw.log2Up(config.ccTimerCycles() + 1L), 0);
        Reg due = reg("cc_due", 1, 0);
        Expr tick = timer.eq(config.ccTimerCycles() - 1);
        timer.set(Hw.mux(tick, Hw.zeros(timer.width()), timer.add(1)));
        List<Expr> counters = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            counters.add(config.lossless(v) ? consumed.get(v) : Hw.zeros(cw));
        }
        inserter.frame.valid().set(due);
        inserter.frame.field("body").set(CcUpdateFrame.body(config, localMac, counters));
        when(tick, () -> due.set(1)).elseWhen(inserter.frame.fire(), () -> due.set(0));
        listStatus(expose(inserter.state, "cc_phase"));
        listStatus(expose(inserter.framesInserted, "cc_updates_sent"));
    }

    private Expr lossless(Expr vc) {
        return Hw.lit(SueMeta.VCS, config.losslessVcs()).shr(vc).bit(0);
    }

    private static Expr orOf(List<Expr> bits) {
        return bits.isEmpty() ? Hw.bool(false) : Hw.cat(bits).orR();
    }

    public CbfcConfig config() {
        return config;
    }
}
