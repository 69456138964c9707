package org.sue.lib.stream;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Reg;

/**
 * Pads every packet shorter than a minimum length with zero bytes at its end, at one beat per cycle. Only the first
 * P = ceil(min/B) beats of a packet can need padding: a last beat at index i &lt; P gets lane m added when
 * i*B + m &lt; min (a constant threshold per lane, so no adder), and when even a full beat i is short of the minimum
 * the block adds zero beats, holding the input, until it is reached. Lanes past {@code tkeep} leave as zeros.
 * Combinational like {@link StreamPrepend}: tvalid never depends on tready.
 */
public final class StreamPad extends Component {
    public record Config(StreamConfig stream, @Tag("m") int minBytes) {
        public Config {
            if (stream == null) {
                throw new IllegalArgumentException("StreamPad stream configuration must be given");
            }
            if (minBytes < 1 || minBytes > 4096) {
                throw new IllegalArgumentException("StreamPad minBytes must be 1..4096, got " + minBytes);
            }
        }
    }

    public final Stream in;
    public final Stream out;
    private final Config config;

    public StreamPad(Config config) {
        super(config);
        this.config = config;
        StreamConfig sc = config.stream();
        int lanes = sc.lanes();
        int min = config.minBytes();
        int p = (min + lanes - 1) / lanes;
        in = Stream.slave(this, sc);
        out = Stream.master(this, sc);

        Reg beat = reg("beat", Hw.log2Up(p + 1L), 0);  // beat index in the packet, saturating at P
        Reg padding = reg("padding", 1, 0);           // sending zero beats after the packet's last input beat
        Reg userHeld = regNoReset("user_held", sc.userWidth());

        List<Expr> padLanes = new ArrayList<>();
        List<Expr> bytes = new ArrayList<>();
        for (int m = lanes - 1; m >= 0; m--) {
            int threshold = min > m ? (min - m + lanes - 1) / lanes : 0; // lane m is below min in beats < threshold
            padLanes.add(threshold == 0 ? Hw.bool(false) : beat.lt(threshold));
            bytes.add(Hw.mux(in.tkeep().bit(m).and(padding.not()), in.tdata().bits(8 * m + 7, 8 * m), Hw.zeros(8)));
        }
        Expr padKeep = wire("pad_keep", Hw.cat(padLanes));
        // even a full beat here is short of the minimum
        Expr moreBeats = wire("more_beats", p == 1 ? Hw.bool(false) : beat.lt(p - 1));
        Expr finalBeat = wire("final_beat", padding.or(in.tlast()));

        out.tvalid().set(padding.or(in.tvalid()));
        out.tdata().set(Hw.cat(bytes));
        out.tkeep().set(Hw.mux(padding, padKeep, Hw.mux(in.tlast(), in.tkeep().or(padKeep), Hw.ones(lanes))));
        out.tlast().set(finalBeat.and(moreBeats.not()));
        out.tuser().set(Hw.mux(padding, userHeld, in.tuser()));
        in.tready().set(padding.not().and(out.tready()));

        Expr outFire = wire("out_fire", out.fire());
        when(outFire, () -> {
            when(out.tlast(), () -> {
                beat.set(0);
                padding.set(0);
            }).otherwise(() -> {
                when(beat.ne(p), () -> beat.set(beat.add(1)));
                when(finalBeat, () -> padding.set(1));
            });
            when(padding.not(), () -> userHeld.set(in.tuser()));
        });
    }

    public Config config() {
        return config;
    }
}
