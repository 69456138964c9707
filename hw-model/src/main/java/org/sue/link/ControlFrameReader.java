package org.sue.link;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Reg;
import org.sue.core.Tag;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;

/**
 * Reads 64-byte link-control frames (PFC, CC_Update) as they arrive from {@link MacControlDemux}: on each frame's last
 * beat, {@code frame} carries its first 64 bytes as one word (byte i in bits [8i+7:8i]), whether the frame is exactly
 * 64 bytes long ({@code sized}) and the MAC's bad flag (tuser of the last beat). The user judges the frame.
 *
 * <p>As on any AXI4-Stream packet, every beat but the last is full and tkeep is a thermometer code, so a frame is 64
 * bytes when its last beat is beat {@code ceil(64 / lanes) - 1} and holds the rest: one compare of a small beat count
 * and two keep bits, instead of a byte count (the lanes counted, added, then compared) on the frame's judgement.
 */
public final class ControlFrameReader extends Component {
    public record Config(@Tag("w") int dataWidth) {
        public Config {
            new StreamConfig(dataWidth, 1); // validates the bus width
        }
    }

    public static final Layout FRAME = Layout.of("control_frame",
            Layout.bits("word", 8 * ControlFrameInserter.FRAME_BYTES),
            Layout.bits("sized", 1), Layout.bits("bad", 1));

    public final Flow in;
    public final Flow frame;

    public ControlFrameReader(Config config) {
        super(config);
        int w = config.dataWidth();
        int frameBits = 8 * ControlFrameInserter.FRAME_BYTES;
        int beats = (ControlFrameInserter.FRAME_BYTES + w / 8 - 1) / (w / 8);
        in = Flow.slave(this, "s_axis", Stream.packet(w, 1));
        frame = Flow.master(this, "frame", FRAME);

        Reg beat = reg("beat", Hw.log2Up(beats + 1L), 0); // stops at beats: a longer frame stays longer
        when(in.valid(), () -> beat.set(Hw.mux(in.tlast(), Hw.zeros(beat.width()),
                Hw.mux(beat.eq(beats), beat, beat.add(1)))));
        int lastLanes = ControlFrameInserter.FRAME_BYTES - (beats - 1) * (w / 8); // a 64-byte frame's last beat
        Expr lastBeatFull = in.tkeep().bit(lastLanes - 1);
        Expr sized = beat.eq(beats - 1).and(lastLanes == w / 8 ? lastBeatFull
                : lastBeatFull.and(in.tkeep().bit(lastLanes).not()));
        if (lastLanes < w / 8 - 1) {
            unused("keep_past_frame", in.tkeep().bits(w / 8 - 1, lastLanes + 1));
        }
        if (lastLanes > 1) {
            unused("keep_in_frame", in.tkeep().bits(lastLanes - 2, 0));
        }
        Expr word;
        if (beats == 1) {
            word = in.tdata().bits(frameBits - 1, 0);
            if (w > frameBits) {
                unused("past_frame", in.tdata().bits(w - 1, frameBits));
            }
        } else { // the earlier beats are held; the last is the one arriving
            Reg held = regNoReset("held", frameBits - w);
            List<Expr> next = new ArrayList<>();
            for (int b = beats - 2; b >= 0; b--) {
                next.add(Hw.mux(beat.eq(b), in.tdata(), held.bits((b + 1) * w - 1, b * w)));
            }
            when(in.valid().and(in.tlast().not()), () -> held.set(Hw.cat(next)));
            word = Hw.cat(in.tdata(), held).bits(frameBits - 1, 0);
        }
        frame.valid().set(in.valid().and(in.tlast()));
        frame.field("word").set(word);
        frame.field("sized").set(sized);
        frame.field("bad").set(in.tuser());
    }
}
