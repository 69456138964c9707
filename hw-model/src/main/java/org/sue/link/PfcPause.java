package org.sue.link;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Reg;
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
        int w = config.dataWidth();
        int frameBits = 8 * ControlFrameInserter.FRAME_BYTES;
        in = Flow.slave(this, "s_axis_pfc", Stream.packet(w, 1));
        vcReady = out("vc_ready", SueMeta.VCS);

        // the frame's first 64 bytes and its length, at its last beat
        ControlFrameReader reader = child("reader", new ControlFrameReader(new ControlFrameReader.Config(w)));
        in.into(reader.in);
        Flow read = reader.frame;
        Expr word = read.field("word");
        Expr header = PfcFrame.field(word, 0, 6).eq(PfcConfig.DESTINATION)
                .and(PfcFrame.field(word, 12, 2).eq(PfcConfig.ETHER_TYPE))
                .and(PfcFrame.field(word, 14, 2).eq(PfcConfig.OPCODE));
        unused("not_read", word.bits(8 * 12 - 1, 8 * 6), word.bits(frameBits - 1, 8 * PfcFrame.USED_BYTES),
                PfcFrame.field(word, PfcFrame.VECTOR_AT, 1)); // SA, padding, FCS; the vector's reserved byte
        Expr end = read.valid();
        Expr good = wire("frame_good", read.field("sized").and(header)
                .and(read.field("bad").not()));
        Expr applies = wire("applies", end.and(good));
        Expr vector = PfcFrame.field(word, PfcFrame.VECTOR_AT + 1, 1);

        // a timer per priority
        int shift = Integer.numberOfTrailingZeros(config.bitsPerCycle()) - 9; // cycles = quanta * 512 / bits
        int tw = 17 + Math.max(0, -shift);
        List<Expr> paused = new ArrayList<>();
        for (int i = PfcConfig.CLASSES - 1; i >= 0; i--) {
            Reg timer = reg("pause_timer_" + i, tw, 0);
            Expr quanta = PfcFrame.field(word, PfcFrame.TIMES_AT + 2 * i, 2).resize(tw);
            Expr cycles = shift >= 0 ? quanta.add((1 << shift) - 1).shr(shift) : quanta.shl(-shift);
            when(applies.and(vector.bit(i)), () -> timer.set(cycles))
                    .elseWhen(timer.ne(0), () -> timer.set(timer.sub(1)));
            paused.add(timer.ne(0));
        }
        Expr classPaused = wire("class_paused_now", Hw.cat(paused));
        out("class_paused", PfcConfig.CLASSES).set(classPaused);
        List<Expr> ready = new ArrayList<>();
        for (int v = SueMeta.VCS - 1; v >= 0; v--) {
            ready.add(classPaused.bit(config.classOf(v)).not());
        }
        vcReady.set(Hw.cat(ready));
        counter("pfc_frames_received", applies);
        counter("pfc_frames_dropped", end.and(good.not()));
    }

    public PfcConfig config() {
        return config;
    }
}
