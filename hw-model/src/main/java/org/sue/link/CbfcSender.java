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
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Flow;
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
 * frame's own credits to S_VC_CU and S_P_CU, a cycle after it is shown, in the same cycle as it gives the reservation
 * back. Best-effort VCs are always ready and their events are ignored.
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
    public final Flow reserve;
    public final Flow unreserve;
    public final Flow charge;
    public final Flow ctlIn;
    public final Port localMac;
    /**
     * A CC_Update is due now as well as by the timer: the instance asks when its port comes up, so the credits of frames
     * the dead link lost come back at once instead of at the next timer tick (docs/protocol.md 8.1).
     */
    public final Port ccNow;
    public final Port vcReady;
    private final CbfcConfig config;
    private final int cw = CbfcConfig.COUNTER_WIDTH;

    public CbfcSender(CbfcConfig config) {
        super(config);
        this.config = config;
        int w = config.dataWidth();
        Layout vcOnly = Layout.of("cbfc_vc", Layout.bits("vc", SueMeta.VC_WIDTH));
        in = Stream.slave(this, "s_axis", Stream.packet(w, SueMeta.VC_WIDTH));
        out = Stream.master(this, "m_axis", Stream.packet(w, 1));
        reserve = Flow.slave(this, "reserve", vcOnly);
        unreserve = Flow.slave(this, "unreserve", vcOnly);
        charge = Flow.slave(this, "charge", Layout.of("cbfc_charge", Layout.bits("vc", SueMeta.VC_WIDTH),
                Layout.bits("bytes", CbfcConfig.FRAME_BYTES_WIDTH), Layout.bits("reserved", 1)));
        ctlIn = Flow.slave(this, "ctl_in", LinkControl.LAYOUT);
        localMac = in("local_mac", ControlFrameInserter.MAC_WIDTH);
        ccNow = in("cc_now", 1);
        vcReady = out("vc_ready", SueMeta.VCS);

        Counters counters = counters();
        creditsInUse(counters);
        eligibility(counters);
        framesAndCcUpdates(counters.consumed());
    }

    /**
     * The sender's counters per VC, null for a best-effort VC (it counts nothing), and the port's reservations.
     *
     * @param used     S_VC_CU
     * @param reserved credits of largest frames picked, not charged
     * @param consumed S_VC_CC
     * @param freed    S_VC_CF
     */
    private record Counters(List<Reg> used, List<Reg> reserved, List<Reg> consumed, List<Reg> freed,
                            Reg portReserved) {
        /** S_VC_CU of the lossless VCs. */
        List<Expr> usedOfLossless() {
            List<Expr> terms = new ArrayList<>();
            for (Reg cu : used) {
                if (cu != null) {
                    terms.add(cu);
                }
            }
            return terms;
        }
    }

    private Counters counters() {
        List<Reg> used = new ArrayList<>();
        List<Reg> reserved = new ArrayList<>();
        List<Reg> consumed = new ArrayList<>();
        List<Reg> freed = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            boolean counted = config.lossless(v);
            used.add(counted ? reg("vc_used_" + v, cw, 0) : null);
            reserved.add(counted ? reg("vc_reserved_" + v, cw, 0) : null);
            consumed.add(counted ? reg("vc_consumed_" + v, cw, 0) : null);
            freed.add(counted ? reg("vc_freed_" + v, cw, 0) : null);
        }
        return new Counters(used, reserved, consumed, freed, reg("port_reserved", cw, 0));
    }

    /**
     * Charges, reservations and CF_Updates. A charge counts a cycle after it is shown (its credits registered first)
     * together with the reservation it gives back, so what is in use and reserved never drops below what was picked
     * meanwhile. Reservations move in steps of a largest frame, chosen among values formed beside the late pick.
     *
     * <p>A CF_Update returns {@code value - S_VC_CF}, refused when that is more than S_VC_CU, that is when value lies
     * outside the circular range [S_VC_CF, S_VC_CF + S_VC_CU]. The range's top is kept in a register: a return moves
     * S_VC_CF up by what S_VC_CU loses, so only charges move it. The verdict then only chooses between S_VC_CU with
     * the charge and {@code top + charge - value}, both formed beside it.
     *
     * <p>The port's credits in use are the lossless VCs' summed where they are read. The overdraw check (a charge that
     * took more than was left: the scheduler did not respect vc_ready) and the watermarks read the registers the cycle
     * after a charge counts.
     */
    private void creditsInUse(Counters counters) {
        int largest = config.maxFrameCredits();
        Layout credited = Layout.of("cbfc_charge_credited", Layout.bits("vc", SueMeta.VC_WIDTH),
                Layout.bits("credits", cw), Layout.bits("reserved", 1));
        Flow charged = Flow.registered(this, "charge_credited", charge.valid(), credited, credited.expr()
                .set("vc", charge.field("vc")).set("credits", config.creditsOf(charge.field("bytes")))
                .set("reserved", charge.field("reserved")).build());
        Expr cf = wire("cf_update", ctlIn.valid().and(ctlIn.field("type").eq(config.codes().cfUpdate())));
        Expr cfVc = ctlIn.field("vc");
        Expr cfValue = ctlIn.field("value");
        List<Expr> cfErrors = new ArrayList<>();
        List<Expr> cfTaken = new ArrayList<>();
        List<Expr> overdraws = new ArrayList<>();
        List<Expr> portReserves = new ArrayList<>();
        List<Expr> portReturns = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            if (!config.lossless(v)) {
                Expr none = Hw.zeros(cw);
                vcStatus(v, none, none, none, none, none);
                continue;
            }
            Reg cu = counters.used().get(v);
            Reg res = counters.reserved().get(v);
            Reg cf0 = counters.freed().get(v);
            Reg top = reg("vc_freed_plus_used_" + v, cw, 0); // S_VC_CF + S_VC_CU
            Expr chargedHere = wire("charged_" + v, charged.valid().and(charged.field("vc").eq(v)));
            Expr plus = Hw.mux(chargedHere, charged.field("credits"), 0);
            Expr cfHere = cf.and(cfVc.eq(v));
            Expr inRange = Hw.inCircularRange(cfValue, cf0, top);
            Expr refused = wire("cf_refused_" + v, cfHere.and(inRange.not()));
            Expr cfOk = cfHere.and(inRange);
            cu.set(Hw.mux(cfOk, Hw.sumShallow(List.of(top, plus, cfValue.not()), true), Hw.addShallow(cu, plus)));
            top.set(Hw.addShallow(top, plus));
            when(cfOk, () -> cf0.set(cfValue));
            Expr reserveHere = reserve.valid().and(reserve.field("vc").eq(v));
            Expr unreserveHere = unreserve.valid().and(unreserve.field("vc").eq(v));
            Expr givenBack = chargedHere.and(charged.field("reserved"));
            res.set(Hw.upDown(res, List.of(reserveHere), List.of(unreserveHere, givenBack), largest));
            cfErrors.add(refused);
            cfTaken.add(cfOk);
            portReturns.add(unreserveHere);
            portReturns.add(givenBack);
            Reg chargedLast = reg("charged_last_" + v, 1, 0);
            chargedLast.set(chargedHere);
            overdraws.add(chargedLast.and(Hw.sumAbove(List.of(cu, res), config.vcCreditLimit())));
            Reg mark = reg("vc_used_mark_" + v, cw, 0);
            when(cu.gt(mark), () -> mark.set(cu));
            vcStatus(v, cu, counters.consumed().get(v), cf0, res, mark);
        }
        Reg portReserved = counters.portReserved();
        portReserves.add(wire("reserve_lossless", reserve.valid().and(lossless(reserve.field("vc")))));
        portReserved.set(Hw.upDown(portReserved, portReserves, portReturns, largest));
        List<Expr> usedNow = counters.usedOfLossless();
        status("s_p_cu", Status.Kind.LEVEL, usedNow.isEmpty() ? Hw.zeros(cw) : Hw.sumShallow(usedNow, false),
                "S_P_CU: credits the port's lossless VCs have in use");
        Reg chargedLast = reg("charged_last_lossless", 1, 0);
        chargedLast.set(charged.valid().and(lossless(charged.field("vc"))));
        List<Expr> portTerms = new ArrayList<>(counters.usedOfLossless());
        portTerms.add(portReserved);
        overdraws.add(chargedLast.and(Hw.sumAbove(portTerms, config.portCreditLimit())));
        statusCounter("cf_updates_received", orOf(cfTaken), "CF_Updates taken (credits returned)");
        statusCounter("cf_update_errors", orOf(cfErrors),
                "CF_Updates refused: they returned more credits than were in use");
        statusCounter("credit_overdraws", orOf(overdraws),
                "Charges that took more credits than were left on the VC or the port (vc_ready not respected)");
    }

    /** The status of VC v: its counters (zero on a best-effort VC). */
    private void vcStatus(int v, Expr used, Expr consumed, Expr freed, Expr reserved, Expr mark) {
        Status.Kind level = Status.Kind.LEVEL;
        status("s_cu_" + v, level, used, "S_VC_CU of VC " + v + ": credits in use (charged, not yet returned)");
        status("s_cc_" + v, level, consumed, "S_VC_CC of VC " + v + ": credits of the frames sent, modulo 2^20");
        status("s_cf_" + v, level, freed, "S_VC_CF of VC " + v + ": credits returned by CF_Updates, modulo 2^20");
        status("reserved_" + v, level, reserved, "Credits of VC " + v + " reserved for largest frames picked, not"
                + " yet charged");
        status("s_cu_watermark_" + v, level, mark, "Highest S_VC_CU of VC " + v + " since reset");
    }

    /**
     * vc_ready: a largest frame fits beside what is in use and reserved, on the VC and on the port (the lossless VCs'
     * S_VC_CU summed with the port's reservations), each as one check of a sum against a constant.
     */
    private void eligibility(Counters counters) {
        int largest = config.maxFrameCredits();
        List<Expr> portTerms = new ArrayList<>(counters.usedOfLossless());
        portTerms.add(counters.portReserved());
        Expr portRoom = wire("port_room", Hw.sumAbove(portTerms, config.portCreditLimit() - largest).not());
        List<Expr> ready = new ArrayList<>();
        for (int v = SueMeta.VCS - 1; v >= 0; v--) {
            ready.add(!config.lossless(v) ? Hw.bool(true) : Hw.sumAbove(List.of(counters.used().get(v),
                    counters.reserved().get(v)), config.vcCreditLimit() - largest).not().and(portRoom));
        }
        vcReady.set(wire("vc_ready_now", Hw.cat(ready)));
    }

    /** Frames through to the MAC, S_VC_CC counted at their last beats; a CC_Update between frames when due. */
    private void framesAndCcUpdates(List<Reg> consumed) {
        int lanes = config.beatBytes();
        int bw = CbfcConfig.FRAME_BYTES_WIDTH;
        ControlFrameInserter inserter = child("cc_insert", new ControlFrameInserter(
                new ControlFrameInserter.Config(config.dataWidth())));
        in.retagged("frames", inserter.in.layout(), null).into(inserter.in);
        inserter.out.into(out);
        Reg frameBeats = reg("frame_beats", bw, 0);
        when(in.fire(), () -> frameBeats.set(Hw.mux(in.tlast(), Hw.zeros(bw), frameBeats.add(1))));
        Expr frameBytes = wire("frame_bytes", frameBeats.shl(Hw.log2Up(lanes)).add(Keep.count(in.tkeep(), bw)));
        Expr frameEnd = in.fire().and(in.tlast());
        Expr frameCredits = wire("frame_credits", config.creditsOf(frameBytes));
        for (int v = 0; v < SueMeta.VCS; v++) {
            if (config.lossless(v)) {
                Reg cc = consumed.get(v);
                when(frameEnd.and(in.tuser().eq(v)), () -> cc.set(cc.add(frameCredits)));
            }
        }
        // a CC_Update every ccTimerCycles and when asked (cc_now), built from the counters as the inserter takes it
        Reg timer = reg("cc_timer", Hw.log2Up(config.ccTimerCycles() + 1L), 0);
        Reg due = reg("cc_due", 1, 0);
        Expr tick = timer.eq(config.ccTimerCycles() - 1);
        timer.set(Hw.mux(tick, Hw.zeros(timer.width()), timer.add(1)));
        List<Expr> counters = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            counters.add(config.lossless(v) ? consumed.get(v) : Hw.zeros(cw));
        }
        Stream ccUpdate = Stream.of(this, "cc_update", due, ControlFrameInserter.BODY,
                CcUpdateFrame.body(config, localMac, counters));
        ccUpdate.into(inserter.frame);
        when(tick.or(ccNow), () -> due.set(1)).elseWhen(ccUpdate.fire(), () -> due.set(0));
        exposeStatus(inserter.state, "cc_phase", Status.Kind.STATE, "CC_Update inserter phase: 0 frames pass, 1 a CC_Update's FCS,"
                + " 2 its beats leave");
        exposeStatus(inserter.framesInserted, "cc_updates_sent", Status.Kind.COUNTER, "CC_Update frames sent");
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
