package org.sue.lib.stream;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Reg;
import org.sue.core.Tag;

/**
 * Widens a packet stream by a power of two R, the inverse of {@link StreamNarrow}: R consecutive input beats of one
 * packet of B lanes become one output beat of R x B lanes, the first in the lowest lanes. An output beat is complete
 * with its R-th piece or with the input beat that carries {@code tlast}, whichever comes first, so a packet's last
 * output beat may hold fewer pieces; its unfilled pieces have {@code tkeep} and data zero. The next packet starts
 * again at piece 0.
 *
 * <p>The output's {@code tkeep} is the pieces' {@code tkeep} side by side, as they came (nothing is repaired), its
 * {@code tlast} and {@code tuser} those of the input beat that completes it. Lanes past tkeep carry the input's bytes.
 *
 * <p>Registers hold only the first R-1 pieces of the beat being gathered (data and tkeep, no reset: a piece is shown
 * only after it was written) and the index of the next piece. The output beat is the held pieces side by side with the
 * input beat on offer, combinationally: {@code tvalid} is the input's when that beat completes an output beat (it is
 * piece R-1 or has {@code tlast}), and that input beat is taken with the output beat ({@code tready} is the output's);
 * any other input beat goes straight into its register ({@code tready} high; so {@code tready} follows the input's
 * {@code tlast}, never its {@code tvalid}). So there is no added latency and no bubble: with the output always ready an
 * input beat is taken every cycle, back-to-back packets included. The logic between the ports is a comparison of the
 * piece index per piece and a 3:1 choice per lane (held, on offer, zero).
 */
public final class StreamWiden extends Component {
    /** How many input beats an output beat gathers: 2, 4 or 8. */
    public static final Bound RATIO = Bound.powerOfTwo(2, 8);

    /** {@code stream}: the input's shape; the output has {@code dataWidth * ratio} bits and the same tuser. */
    public record Config(StreamConfig stream, @Tag("r") int ratio) {
        public Config {
            if (stream == null) {
                throw new IllegalArgumentException("StreamWiden stream configuration must be given");
            }
            RATIO.check("StreamWiden", "ratio", ratio);
            if (!StreamConfig.DATA_WIDTH.contains((long) stream.dataWidth() * ratio)) {
                throw new ConfigException("StreamWiden", "{ratio} must leave output beats of "
                        + StreamConfig.DATA_WIDTH.text() + " bits ({stream.dataWidth} * {ratio}), got "
                        + stream.dataWidth() + " * " + ratio);
            }
        }

        /** The output's shape. */
        public StreamConfig out() {
            return new StreamConfig(stream.dataWidth() * ratio, stream.userWidth());
        }
    }

    public final Stream in;
    public final Stream out;
    private final Config config;

    public StreamWiden(Config config) {
        super(config);
        this.config = config;
        in = Stream.slave(this, config.stream());
        out = Stream.master(this, config.out());
        int r = config.ratio();
        Reg piece = reg("piece", Hw.log2Up(r), 0); // where the input beat on offer goes
        Expr completes = wire("completes", piece.eq(r - 1).or(in.tlast()));
        List<Reg> heldData = new ArrayList<>();
        List<Reg> heldKeep = new ArrayList<>();
        for (int j = 0; j < r - 1; j++) {
            heldData.add(regNoReset("held_data_" + j, config.stream().dataWidth()));
            heldKeep.add(regNoReset("held_keep_" + j, config.stream().lanes()));
        }
        offer(piece, completes, heldData, heldKeep);
        Expr store = wire("store", in.tvalid().and(completes.not()));
        for (int j = 0; j < r - 1; j++) {
            Reg data = heldData.get(j);
            Reg keep = heldKeep.get(j);
            when(store.and(piece.eq(j)), () -> {
                data.set(in.tdata());
                keep.set(in.tkeep());
            });
        }
        when(in.fire(), () -> piece.set(Hw.mux(completes, Hw.zeros(piece.width()), piece.add(1))));
    }

    /** The held pieces and the input beat on offer as the output beat; valid when the input beat completes it. */
    private void offer(Reg piece, Expr completes, List<Reg> heldData, List<Reg> heldKeep) {
        int r = config.ratio();
        List<Expr> data = new ArrayList<>();
        List<Expr> keep = new ArrayList<>();
        Expr zeroData = Hw.zeros(in.tdata().width());
        Expr zeroKeep = Hw.zeros(in.tkeep().width());
        for (int j = r - 1; j >= 0; j--) { // most significant piece first, as Hw.cat wants
            if (j == 0) { // piece 0 is held or on offer
                Expr held = wire("held_0", piece.ne(0));
                data.add(Hw.mux(held, heldData.get(0), in.tdata()));
                keep.add(Hw.mux(held, heldKeep.get(0), in.tkeep()));
            } else if (j < r - 1) {
                Expr held = wire("held_" + j, piece.gt(j));
                Expr here = piece.eq(j);
                data.add(Hw.mux(held, heldData.get(j), Hw.mux(here, in.tdata(), zeroData)));
                keep.add(Hw.mux(held, heldKeep.get(j), Hw.mux(here, in.tkeep(), zeroKeep)));
            } else { // the last piece is never held
                Expr here = piece.eq(j);
                data.add(Hw.mux(here, in.tdata(), zeroData));
                keep.add(Hw.mux(here, in.tkeep(), zeroKeep));
            }
        }
        out.tvalid().set(in.tvalid().and(completes));
        out.tdata().set(Hw.cat(data));
        out.tkeep().set(Hw.cat(keep));
        out.tlast().set(in.tlast());
        out.tuser().set(in.tuser());
        in.tready().set(Hw.mux(completes, out.tready(), Hw.bool(true)));
    }

    public Config config() {
        return config;
    }
}
