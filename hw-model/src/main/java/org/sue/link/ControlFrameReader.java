package org.sue.link;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Reg;
import org.sue.core.Tag;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;

/**
 * Reads 64-byte link-control frames (PFC, CC_Update) as they arrive from {@link MacControlDemux}: on each frame's last
 * beat, {@code frame} carries its first 64 bytes as one word (byte i in bits [8i+7:8i]), its length in bytes
 * (stopping at all ones) and the MAC's bad flag (tuser of the last beat). The user judges the frame.
 */
public final class ControlFrameReader extends Component {
    public record Config(@Tag("w") int dataWidth) {
        public Config {
            new StreamConfig(dataWidth, 1); // validates the bus width
        }
    }

    public static final Layout FRAME = Layout.of("control_frame",
            Layout.bits("word", 8 * ControlFrameInserter.FRAME_BYTES),
            Layout.bits("bytes", CbfcConfig.FRAME_BYTES_WIDTH), Layout.bits("bad", 1));

    public final Stream in;
    public final Stream frame;

    public ControlFrameReader(Config config) {
        super(config);
        int w = config.dataWidth();
        int frameBits = 8 * ControlFrameInserter.FRAME_BYTES;
        int beats = (ControlFrameInserter.FRAME_BYTES + w / 8 - 1) / (w / 8);
        int bw = CbfcConfig.FRAME_BYTES_WIDTH;
        in = Stream.slaveFlow(this, "s_axis", Stream.packet(w, 1));
        frame = Stream.masterFlow(this, "frame", FRAME);

        Reg beat = reg("beat", Hw.log2Up(beats + 1L), 0); // stops at beats
        Reg bytes = reg("bytes_so_far", bw, 0);           // stops at all ones
        Expr total = wire("total_bytes", bytes.add(Keep.count(in.tkeep(), bw)));
        when(in.valid(), () -> {
            beat.set(Hw.mux(in.tlast(), Hw.zeros(beat.width()), Hw.mux(beat.eq(beats), beat, beat.add(1))));
            bytes.set(Hw.mux(in.tlast(), Hw.zeros(bw), Hw.mux(total.lt(bytes), Hw.ones(bw), total)));
        });
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
        frame.field("bytes").set(total);
        frame.field("bad").set(in.tuser());
    }
}
