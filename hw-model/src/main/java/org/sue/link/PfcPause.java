package org.sue.link;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Status;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.net.SueMeta;

/**
 * Obeys the peer's PFC frames (IEEE 802.1Qbb; docs/protocol.md section 9): a frame's pause time for each priority
 * it enables ({@code quanta x 512} bit times, {@link PfcConfig#pauseCycles} cycles; 0 resumes at once) restarts
 * that priority's timer; while it runs, the VCs of that priority are not ready ({@code vc_ready} to the scheduler),
 * so a paused VC stops being picked and holds nothing in front of another.
 *
 * <p>Frames come on {@code s_axis_pfc}, a flow of the MAC-control frames the port's demultiplexer diverted here
 * (tuser high on the last beat of a frame the MAC found bad). A 64-byte frame to 01-80-C2-00-00-01 with EtherType
 * 0x8808 and opcode 0x0101, not flagged bad, applies at its last beat; any other is dropped and counted.
 */
public final class PfcPause extends Component {
    public final Flow in;
    public final Port vcReady;
    private final PfcConfig config;

    public PfcPause(PfcConfig config) {
        super(config);
        this.config = config;
        in = Flow.slave(this, "s_axis_pfc", Stream.packet(config.dataWidth(), 1));
        vcReady = out("vc_ready", SueMeta.VCS);

        Judged frame = judged();
        Expr classPaused = pauseTimers(frame);
        status("class_paused", Status.Kind.STATE, classPaused,
                "Priorities the peer's PFC frames pause now (bit c: priority c)");
        List<Expr> ready = new ArrayList<>();
        for (int v = SueMeta.VCS - 1; v >= 0; v--) {
            ready.add(classPaused.bit(config.classOf(v)).not());
        }
        vcReady.set(Hw.cat(ready));
        statusCounter("pfc_frames_received", frame.applies(), "PFC frames obeyed");
        statusCounter("pfc_frames_dropped", frame.end().and(frame.good().not()),
                "MAC Control frames dropped: not a 64-byte PFC frame, or found bad by the MAC");
    }

    /** A frame at its last beat ({@code end}): whether it is a good PFC frame and applies, its first 64 bytes. */
    private record Judged(Expr end, Expr good, Expr applies, Expr word) {
    }

    /** The frame's first 64 bytes and its length at its last beat, its header checked. */
    private Judged judged() {
        int frameBits = 8 * ControlFrameInserter.FRAME_BYTES;
        ControlFrameReader reader = child("reader", new ControlFrameReader(
                new ControlFrameReader.Config(config.dataWidth())));
        in.into(reader.in);
        Flow read = reader.frame;
        Expr word = read.field("word");
        Expr header = PfcFrame.field(word, 0, 6).eq(PfcConfig.DESTINATION)
                .and(PfcFrame.field(word, 12, 2).eq(PfcConfig.ETHER_TYPE))
                .and(PfcFrame.field(word, 14, 2).eq(PfcConfig.OPCODE));
        unused("not_read", word.bits(8 * 12 - 1, 8 * 6), word.bits(frameBits - 1, 8 * PfcFrame.USED_BYTES),
                PfcFrame.field(word, PfcFrame.VECTOR_AT, 1)); // SA, padding, FCS; the vector's reserved byte
        Expr good = wire("frame_good", read.field("sized").and(header)
                .and(read.field("bad").not()));
        return new Judged(read.valid(), good, wire("applies", read.valid().and(good)), word);
    }

    /** A timer per priority, restarted by a frame that enables it; returns the priorities paused. */
    private Expr pauseTimers(Judged frame) {
        Expr vector = PfcFrame.field(frame.word(), PfcFrame.VECTOR_AT + 1, 1);
        int shift = Integer.numberOfTrailingZeros(config.bitsPerCycle()) - 9; // cycles = quanta * 512 / bits
        int tw = PfcFrame.TIME_WIDTH + 1 + Math.max(0, -shift);
        List<Expr> paused = new ArrayList<>();
        for (int i = PfcConfig.CLASSES - 1; i >= 0; i--) {
            Reg timer = reg("pause_timer_" + i, tw, 0);
            Expr quanta = PfcFrame.field(frame.word(), PfcFrame.TIMES_AT + 2 * i, 2).resize(tw);
            Expr cycles = shift >= 0 ? quanta.add((1 << shift) - 1).shr(shift) : quanta.shl(-shift);
            when(frame.applies().and(vector.bit(i)), () -> timer.set(cycles))
                    .elseWhen(timer.ne(0), () -> timer.set(timer.sub(1)));
            paused.add(timer.ne(0));
        }
        return wire("class_paused_now", Hw.cat(paused));
    }

    public PfcConfig config() {
        return config;
    }
}
