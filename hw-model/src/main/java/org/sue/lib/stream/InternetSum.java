package org.sue.lib.stream;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Reg;
import org.sue.core.Tag;

/**
 * The one's-complement sum of the 16-bit words of each packet (RFC 1071, the sum under the IPv4 and UDP checksums),
 * one beat per cycle, back-to-back packets. The packet's byte at offset {@code skipBytes} is the high byte of the
 * first word counted; the bytes before it are left out (for UDP: the network header up to the pseudo header's
 * addresses). An odd last byte is the high byte of a word whose low byte is zero. The result is the folded sum, not
 * yet complemented: 0xFFFF over a packet whose checksum is right.
 *
 * <p>Stage 1 adds the beat's words in a balanced tree into a register; stage 2 accumulates (32 bits: packets up to
 * 64 KiB) and folds on the last beat. {@code sum_valid} / {@code sum_value} appear {@value #LATENCY} cycles after the
 * cycle that carried the last beat, as a narrow {@link org.sue.lib.crc.ParallelCrc}'s result (a wide one's comes a
 * cycle later).
 */
public final class InternetSum extends Component {
    /** Cycles from the cycle carrying a packet's last beat to its {@code sum_valid}. */
    public static final int LATENCY = 2;

    public record Config(@Tag("w") int dataWidth, @Tag("skip") int skipBytes) {
        public Config {
            if (dataWidth < 16 || dataWidth % 16 != 0 || dataWidth > 4096) {
                throw new IllegalArgumentException("InternetSum dataWidth must be a multiple of 16 in 16..4096, got "
                        + dataWidth);
            }
            if (skipBytes < 0 || skipBytes % 2 != 0 || skipBytes > 256) {
                throw new IllegalArgumentException("InternetSum skipBytes must be even, 0..256, got " + skipBytes);
            }
        }

        public int lanes() {
            return dataWidth / 8;
        }
    }

    /** Beats in: {@code s_axis_tdata}, {@code s_axis_tkeep} (read on the last beat), {@code s_axis_tlast}; a flow. */
    public final Stream in;
    /** One result per packet: {@code sum_valid}, {@code sum_value}. */
    public final Stream sum;
    private final Config config;

    public InternetSum(Config config) {
        super(config);
        this.config = config;
        int lanes = config.lanes();
        in = Stream.slaveFlow(this, "s_axis", Stream.packet(config.dataWidth(), 0));
        sum = Stream.masterFlow(this, "sum", Layout.plain("value", 16));

        // ---- stage 1: the beat's counted bytes, its words added in a tree ----------------------------------------
        // every lane of a beat before the last, the valid lanes of the last; none of the skipped bytes
        Expr keep = Hw.mux(in.tlast(), in.tkeep(), Hw.ones(lanes)).and(skipMask(lanes, config.skipBytes()));
        Expr data = wire("counted_data", in.tdata().and(Keep.byteMask(keep)));
        List<Expr> words = new ArrayList<>();
        for (int j = 0; j < lanes / 2; j++) { // lane 2j (the earlier byte) is the word's high byte
            words.add(Hw.cat(data.bits(16 * j + 7, 16 * j), data.bits(16 * j + 15, 16 * j + 8)));
        }
        Expr beatSum = tree(words);
        Reg beatSum1 = regNoReset("beat_sum", beatSum.width());
        Reg valid1 = reg("beat_valid", 1, 0);
        Reg last1 = regNoReset("beat_last", 1);
        valid1.set(in.valid());
        when(in.valid(), () -> {
            beatSum1.set(beatSum);
            last1.set(in.tlast());
        });

        // ---- stage 2: accumulate, fold on the last beat ----------------------------------------------------------
        Reg acc = reg("acc", 32, 0);
        Reg result = regNoReset("result", 16);
        Reg resultValid = reg("result_valid", 1, 0);
        Expr total = wire("total", acc.add(beatSum1.resize(32)));
        resultValid.set(valid1.and(last1));
        when(valid1, () -> when(last1, () -> {
            acc.set(0);
            result.set(fold(total));
        }).otherwise(() -> acc.set(total)));
        sum.valid().set(resultValid);
        sum.field("value").set(result);
    }

    /**
     * Lanes counted in each beat, as far as the skip goes: all of them once the packet is past {@code skipBytes};
     * a beat counter (saturating) says which beat of the packet this is.
     */
    private Expr skipMask(int lanes, int skip) {
        int partial = (skip + lanes - 1) / lanes; // beats that hold skipped bytes
        if (partial == 0) {
            return Hw.ones(lanes);
        }
        Reg beat = reg("beat", Hw.log2Up(partial + 1), 0);
        when(in.valid(), () -> when(in.tlast(), () -> beat.set(0))
                .elseWhen(beat.ne(partial), () -> beat.set(beat.add(1))));
        List<Expr> masks = new ArrayList<>();
        for (int k = 0; k <= partial; k++) {
            BigInteger m = BigInteger.ZERO;
            for (int i = 0; i < lanes; i++) {
                if ((long) k * lanes + i >= skip) {
                    m = m.setBit(i);
                }
            }
            masks.add(Hw.lit(lanes, m));
        }
        return Hw.select(masks, beat);
    }

    /** A balanced adder tree; each level one bit wider, so nothing overflows. */
    private static Expr tree(List<Expr> terms) {
        List<Expr> level = terms;
        while (level.size() > 1) {
            List<Expr> next = new ArrayList<>();
            for (int i = 0; i + 1 < level.size(); i += 2) {
                int w = Math.max(level.get(i).width(), level.get(i + 1).width()) + 1;
                next.add(level.get(i).resize(w).add(level.get(i + 1).resize(w)));
            }
            if (level.size() % 2 == 1) {
                next.add(level.get(level.size() - 1));
            }
            level = next;
        }
        return level.get(0);
    }

    /** The one's-complement fold of a sum of up to 32 bits to 16 (end-around carry, twice). */
    public static Expr fold(Expr x) {
        Expr x32 = x.width() < 32 ? x.resize(32) : x;
        Expr once = x32.bits(15, 0).resize(17).add(x32.bits(31, 16).resize(17));
        return once.bits(15, 0).add(once.bit(16).resize(16));
    }

    public Config config() {
        return config;
    }
}
