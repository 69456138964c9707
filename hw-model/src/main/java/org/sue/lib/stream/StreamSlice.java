package org.sue.lib.stream;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Reg;

/**
 * Cuts H bytes from the head and T bytes from the tail of every packet of a stream that cannot be stalled (a receive
 * path behind a MAC): packet bytes [H, n-T) come out, realigned to lane 0. Every input packet gives exactly one output
 * packet; one that has no bytes left comes out as a single beat with {@code tkeep} all zero, so whoever judges the
 * packet later still sees where it ended.
 *
 * <p>With B lanes and D = H + T, output beat j holds packet bytes [H+jB, H+jB+B). It is complete once input beat
 * j+E has arrived, E = ceil(D/B), because every byte it takes is then known not to be among the last T; the block
 * keeps the last K = E - floor(H/B) input beats to build it (a fixed byte rotation by H mod B, so wiring, not a
 * barrel shifter). When the last input beat arrives, at most one output beat is still owed; it goes out in the next
 * cycle, when the next packet's first beat (which never produces output, E >= 1) is arriving. So the output never
 * needs more than one beat per cycle: no stall is needed and none is possible. Input beats other than the last must
 * be full. Outputs are registered; lanes past {@code tkeep} are zero.
 */
public final class StreamSlice extends Component {
    public record Config(@Tag("w") int dataWidth, @Tag("h") int headBytes, @Tag("t") int tailBytes) {
        public Config {
            new StreamConfig(dataWidth, 1); // validates dataWidth
            if (headBytes < 0 || headBytes > 1024) {
                throw new IllegalArgumentException("StreamSlice headBytes must be 0..1024, got " + headBytes);
            }
            if (tailBytes < 1 || tailBytes >= dataWidth / 8) {
                throw new IllegalArgumentException("StreamSlice tailBytes must be 1.." + (dataWidth / 8 - 1)
                        + " (less than a beat), got " + tailBytes);
            }
        }
    }

    /** Packets in: {@code s_axis_*} without tready or tuser (a flow). */
    public final Flow in;
    /** The cut packets: {@code m_axis_*}, a flow. */
    public final Flow out;
    private final Config config;

    public StreamSlice(Config config) {
        super(config);
        this.config = config;
        int w = config.dataWidth();
        int lanes = w / 8;
        int h = config.headBytes();
        int d = h + config.tailBytes();
        int e = (d + lanes - 1) / lanes;
        int k = e - h / lanes;
        int r = h % lanes;
        in = Flow.slave(this, "s_axis", Stream.packet(w, 0));
        out = Flow.master(this, "m_axis", Stream.packet(w, 0));
        Expr inData = in.tdata();
        Expr inKeep = in.tkeep();
        Expr inValid = in.valid();
        Expr inLast = in.tlast();

        // beat index within the packet, saturating at E (from there on every beat completes an output beat)
        Reg beat = reg("beat", Hw.log2Up(e + 1L), 0);
        // history.get(i) = input beat (current - 1 - i); the oldest one kept only from lane H mod B up
        List<Reg> history = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            history.add(regNoReset("history_" + i, i == k - 1 ? w - 8 * r : w));
        }
        Reg flush = reg("flush", 1, 0);
        // byte counts are kept as count + D so they never go negative
        int cw = Hw.log2Up(d + 2L * lanes + 1);
        Reg flushCount = regNoReset("flush_count", cw);

        Expr bytesInBeat = wire("bytes_in_beat", Keep.count(inKeep, cw));
        // packet bytes up to and including this beat, counted from beat min(index, E)
        Expr count = wire("count", Hw.cat(beat, Hw.zeros(Hw.log2Up(lanes))).resize(cw).add(bytesInBeat));
        Expr atE = wire("at_e", beat.eq(e));
        Expr emitNow = wire("emit_now", inValid.and(atE));
        Expr owesFlush = wire("owes_flush", inValid.and(inLast).and(atE.not().or(count.gt(d + lanes))));

        Expr low = history.get(k - 1); // lanes r..B-1 of the older beat
        Expr high = k == 1 ? inData : history.get(k - 2);
        Expr aligned = r == 0 ? low : Hw.cat(high.bits(8 * r - 1, 0), low);

        // output registers
        Reg mValid = reg("m_valid", 1, 0);
        Reg mData = regNoReset("m_data", w);
        Reg mKeep = regNoReset("m_keep", lanes);
        Reg mLast = regNoReset("m_last", 1);
        Expr countNow = Hw.mux(flush, flushCount, Hw.mux(inLast, count, Hw.lit(cw, d + lanes)));
        List<Expr> keepBits = new ArrayList<>();
        List<Expr> dataBytes = new ArrayList<>();
        for (int m = lanes - 1; m >= 0; m--) {
            Expr keepLane = countNow.gt(d + m);
            keepBits.add(keepLane);
            dataBytes.add(Hw.mux(keepLane, aligned.bits(8 * m + 7, 8 * m), Hw.zeros(8)));
        }
        Expr keep = wire("keep", Hw.cat(keepBits));
        mValid.set(flush.or(emitNow));
        when(flush.or(emitNow), () -> {
            mData.set(Hw.cat(dataBytes));
            mKeep.set(keep);
            mLast.set(flush.or(inLast.and(count.le(d + lanes))));
        });

        when(inValid, () -> {
            for (int i = 0; i < k; i++) {
                Expr younger = i == 0 ? inData : history.get(i - 1);
                history.get(i).set(i == k - 1 ? younger.bits(w - 1, 8 * r) : younger);
            }
            when(inLast, () -> beat.set(0)).elseWhen(atE.not(), () -> beat.set(beat.add(1)));
        });
        flush.set(owesFlush);
        when(owesFlush, () -> flushCount.set(Hw.mux(atE, count.sub(lanes), count)));

        out.tdata().set(mData);
        out.tkeep().set(mKeep);
        out.valid().set(mValid);
        out.tlast().set(mLast);
    }

    public Config config() {
        return config;
    }
}
