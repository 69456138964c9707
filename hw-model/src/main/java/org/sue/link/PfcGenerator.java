package org.sue.link;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Status;
import org.sue.lib.stream.Stream;
import org.sue.net.SueMeta;

/**
 * Sends PFC frames for this port's receive buffers (IEEE 802.1Qbb; docs/protocol.md section 9): a priority turns
 * off when a buffer of one of its VCs ({@code level_<v>}, bytes) reaches {@code xoffBytes}, and on again when all
 * its VCs' buffers are at or below {@code xonBytes}; with a shared threshold every priority is off while the buffers
 * together ({@code level_total}) are at it (until they fall to half of it). Each change sends a PFC frame, and while
 * any priority is off the frame is sent again every {@code refreshCycles}, before the peer's pause runs out. Every
 * frame enables the priorities the VCs use and carries {@code pauseQuanta} for those that are off, 0 (resume) for the
 * others.
 *
 * <p>Frames to the MAC pass through ({@code s_axis} -> {@code m_axis}, tuser high on PFC frames, which are not
 * LLR-eligible); a PFC frame goes between two frames ({@link ControlFrameInserter}).
 */
public final class PfcGenerator extends Component {
    public final Stream in;
    public final Stream out;
    public final Port localMac;
    /** Per VC: the bytes its receive buffer holds ({@code level_<v>}). */
    public final List<Port> levels;
    /** With a shared threshold: the bytes the VCs' buffers hold together ({@code level_total}); else null. */
    public final Port levelTotal;
    private final PfcConfig config;

    public PfcGenerator(PfcConfig config) {
        super(config);
        this.config = config;
        ControlFrameInserter inserter = child("pfc_insert", new ControlFrameInserter(
                new ControlFrameInserter.Config(config.dataWidth())));
        in = Stream.slave(this, "s_axis", inserter.in.layout());
        out = Stream.master(this, "m_axis", inserter.out.layout());
        localMac = in("local_mac", ControlFrameInserter.MAC_WIDTH);
        in.into(inserter.in);
        inserter.out.into(out);
        List<Port> vcLevels = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            vcLevels.add(in("level_" + v, PfcConfig.LEVEL_WIDTH));
        }
        levels = List.copyOf(vcLevels);
        levelTotal = config.shared() ? in("level_total", PfcConfig.LEVEL_WIDTH) : null;

        Expr off = classesOff(levels, sharedOff());
        pfcFrames(off, inserter);
    }

    /**
     * The shared threshold: on at {@code sharedXoffBytes}, off again at half of it or below (always false without
     * one).
     */
    private Expr sharedOff() {
        if (levelTotal == null) {
            return Hw.bool(false);
        }
        Reg on = reg("shared_off_reg", 1, 0);
        Expr now = wire("shared_off_now", Hw.mux(levelTotal.ge(config.sharedXoffBytes()), Hw.bool(true),
                Hw.mux(levelTotal.le(config.sharedXoffBytes() / 2), Hw.bool(false), on)));
        on.set(now);
        status("shared_off", Status.Kind.FLAG, on, "The receive buffers together are at the shared threshold (every"
                + " priority off), until they are at or below half of it");
        return now;
    }

    /** Per priority: off at XOFF of any of its VCs or the shared threshold, on when all are at XON or below. */
    private Expr classesOff(List<Port> levels, Expr sharedOff) {
        List<Expr> offBits = new ArrayList<>();
        Reg off = reg("class_off_reg", PfcConfig.CLASSES, 0);
        for (int c = PfcConfig.CLASSES - 1; c >= 0; c--) {
            Expr above = Hw.bool(false);
            Expr below = Hw.bool(true);
            for (int v = 0; v < SueMeta.VCS; v++) {
                if (config.classOf(v) == c) {
                    above = above.or(levels.get(v).ge(config.xoffBytes()));
                    below = below.and(levels.get(v).le(config.xonBytes()));
                }
            }
            offBits.add(Hw.mux(above.or(sharedOff), Hw.bool(true), Hw.mux(below, Hw.bool(false), off.bit(c))));
        }
        off.set(Hw.cat(offBits));
        status("class_off", Status.Kind.STATE, off,
                "Priorities this port asks the peer to pause (bit c: priority c), from its receive buffer levels");
        return off;
    }

    /** A PFC frame when the states differ from the last frame's, or to refresh a pause. */
    private void pfcFrames(Expr off, ControlFrameInserter inserter) {
        Reg sentOff = reg("sent_off", PfcConfig.CLASSES, 0);
        Reg refresh = reg("refresh_timer", Hw.log2Up(config.refreshCycles() + 1L), 0);
        Expr refreshDue = wire("refresh_due", off.orR().and(refresh.eq(config.refreshCycles())));
        Expr due = wire("frame_due", off.ne(sentOff).or(refreshDue));
        List<Expr> times = new ArrayList<>();
        for (int c = 0; c < PfcConfig.CLASSES; c++) {
            times.add(Hw.mux(off.bit(c), Hw.lit(PfcFrame.TIME_WIDTH, config.pauseQuanta()),
                    Hw.zeros(PfcFrame.TIME_WIDTH)));
        }
        Stream frame = Stream.of(this, "pfc_frame", due, ControlFrameInserter.BODY, PfcFrame.body(localMac,
                Hw.lit(PfcFrame.VECTOR_WIDTH, config.usedClasses()), times));
        frame.into(inserter.frame);
        Expr taken = frame.fire();
        when(taken, () -> {
            sentOff.set(off);
            refresh.set(0);
        }).elseWhen(refresh.ne(config.refreshCycles()), () -> refresh.set(refresh.add(1)));
        statusCounter("xoff_frames_sent", taken.and(off.orR()), "PFC frames sent with at least one priority paused");
        exposeStatus(inserter.framesInserted, "pfc_frames_sent", Status.Kind.COUNTER, "PFC frames sent");
        unused("inserter_phase", inserter.state);
    }

    public PfcConfig config() {
        return config;
    }
}
