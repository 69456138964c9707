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
 * Narrows a packet stream by a power of two R: each input beat of B lanes is cut into R pieces of B/R lanes, lowest
 * lanes first, and the pieces leave one per cycle. A piece's {@code tkeep} is its slice of the input's, its
 * {@code tuser} the input's, and {@code tlast} is set on the last piece sent of an input beat with {@code tlast}.
 *
 * <p>Which pieces are sent: piece 0 always, every other piece when it holds at least one kept byte. On a well-formed
 * stream (tkeep contiguous from lane 0, full except on a packet's last beat) that is exactly the pieces holding data,
 * so a short last beat gives fewer pieces. On any other tkeep no kept byte is lost and nothing is repaired: a piece
 * without a kept byte is skipped (a hole of whole pieces closes up), a piece's tkeep leaves as it came, and a beat
 * without any kept byte still leaves as piece 0 with tkeep zero, carrying its tlast. Lanes past tkeep carry the
 * input's bytes.
 *
 * <p>No register on the data: the output shows the piece {@code piece} names straight from the input beat (tvalid
 * is the input's, never waiting for tready), and the input is taken with its last piece. So there is no added
 * latency and no bubble: R full input beats a cycle apart give an output beat every cycle. Only the piece index is
 * state; the logic between the ports is an OR over each piece's tkeep, a choice among R pieces and an R:1 lane
 * multiplexer, shallow enough that a register would only add a cycle.
 */
public final class StreamNarrow extends Component {
    /** How many pieces an input beat is cut into: 2, 4 or 8. */
    public static final Bound RATIO = Bound.powerOfTwo(2, 8);

    /** {@code stream}: the input's shape; the output has {@code dataWidth / ratio} bits and the same tuser. */
    public record Config(StreamConfig stream, @Tag("r") int ratio) {
        public Config {
            if (stream == null) {
                throw new IllegalArgumentException("StreamNarrow stream configuration must be given");
            }
            RATIO.check("StreamNarrow", "ratio", ratio);
            if (!StreamConfig.DATA_WIDTH.contains(stream.dataWidth() / ratio)) {
                throw new ConfigException("StreamNarrow", "{ratio} must leave output beats of "
                        + StreamConfig.DATA_WIDTH.text() + " bits ({stream.dataWidth} / {ratio}), got "
                        + stream.dataWidth() + " / " + ratio);
            }
        }

        /** The output's shape. */
        public StreamConfig out() {
            return new StreamConfig(stream.dataWidth() / ratio, stream.userWidth());
        }
    }

    public final Stream in;
    public final Stream out;
    private final Config config;

    public StreamNarrow(Config config) {
        super(config);
        this.config = config;
        in = Stream.slave(this, config.stream());
        out = Stream.master(this, config.out());
        Reg piece = reg("piece", Hw.log2Up(config.ratio()), 0); // the piece of the input beat on offer
        List<Expr> later = sentAfter(piece);
        Expr lastPiece = wire("last_piece", Hw.cat(later).orR().not());
        offer(piece, lastPiece);
        when(out.fire(), () -> piece.set(Hw.mux(lastPiece, Hw.zeros(piece.width()), Arbiter.firstPick(later))));
    }

    /** Per piece: it will be sent after the one on offer (it holds a kept byte and comes later). */
    private List<Expr> sentAfter(Reg piece) {
        int lanes = config.out().lanes();
        List<Expr> later = new ArrayList<>();
        later.add(Hw.bool(false));
        for (int j = 1; j < config.ratio(); j++) {
            Expr holdsData = wire("holds_data_" + j, in.tkeep().bits((j + 1) * lanes - 1, j * lanes).orR());
            later.add(wire("sent_later_" + j, holdsData.and(piece.lt(j))));
        }
        return later;
    }

    /** The piece on offer as the output beat; the input beat is taken with its last piece. */
    private void offer(Reg piece, Expr lastPiece) {
        int lanes = config.out().lanes();
        List<Expr> data = new ArrayList<>();
        List<Expr> keep = new ArrayList<>();
        for (int j = 0; j < config.ratio(); j++) {
            data.add(in.tdata().bits(8 * (j + 1) * lanes - 1, 8 * j * lanes));
            keep.add(in.tkeep().bits((j + 1) * lanes - 1, j * lanes));
        }
        out.tvalid().set(in.tvalid());
        out.tdata().set(Hw.select(data, piece));
        out.tkeep().set(Hw.select(keep, piece));
        out.tlast().set(in.tlast().and(lastPiece));
        out.tuser().set(in.tuser());
        in.tready().set(out.tready().and(lastPiece));
    }

    public Config config() {
        return config;
    }
}
