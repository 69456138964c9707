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
 * <p>Everything is added modulo 0xFFFF, 16 bits wide, where a carry out of bit 15 comes back in at bit 0 (2^16 = 1):
 * stage 1 reduces the beat's words in a carry-save tree (each 6:3 or 3:2 counter one LUT level, no carry chain) to two
 * 16-bit rows in registers; stage 2 adds them to the running sum ({@link #add}: one more counter, then an
 * end-around-carry adder) and hands the sum over on the last beat. Exact: a counter's outputs are all zero only if its
 * inputs are, so the sum is 0 only for a packet of zeros, otherwise in 1..0xFFFF, as the fold of the plain sum.
 * {@code sum_valid} / {@code sum_value} appear {@value #LATENCY} cycles after the cycle that carried the last beat, as a
 * narrow {@link org.sue.lib.crc.ParallelCrc}'s result (a wide one's comes a cycle later).
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
    public final Flow in;
    /** One result per packet: {@code sum_valid}, {@code sum_value}. */
    public final Flow sum;
    private final Config config;

    public InternetSum(Config config) {
        super(config);
        this.config = config;
        int lanes = config.lanes();
        in = Flow.slave(this, "s_axis", Stream.packet(config.dataWidth(), 0));
        sum = Flow.master(this, "sum", Layout.plain("value", 16));

        // ---- stage 1: the beat's counted bytes, its words added in a tree ----------------------------------------
        // every lane of a beat before the last, the valid lanes of the last; none of the skipped bytes
        Expr keep = Hw.mux(in.tlast(), in.tkeep(), Hw.ones(lanes)).and(skipMask(lanes, config.skipBytes()));
        Expr data = wire("counted_data", in.tdata().and(Keep.byteMask(keep)));
        List<Expr> words = new ArrayList<>();
        for (int j = 0; j < lanes / 2; j++) { // lane 2j (the earlier byte) is the word's high byte
            words.add(Hw.cat(data.bits(16 * j + 7, 16 * j), data.bits(16 * j + 15, 16 * j + 8)));
        }
        List<Expr> rows = compress(words);
        Reg beatSum1 = regNoReset("beat_sum", 16);
        Reg beatCarry1 = regNoReset("beat_carry", 16);
        Reg valid1 = reg("beat_valid", 1, 0);
        Reg last1 = regNoReset("beat_last", 1);
        valid1.set(in.valid());
        when(in.valid(), () -> {
            beatSum1.set(rows.get(0));
            beatCarry1.set(rows.size() > 1 ? rows.get(1) : Hw.zeros(16));
            last1.set(in.tlast());
        });

        // ---- stage 2: accumulate, hand over on the last beat -----------------------------------------------------
        Reg acc = reg("acc", 16, 0);
        Reg result = regNoReset("result", 16);
        Reg resultValid = reg("result_valid", 1, 0);
        Expr total = wire("total", add(acc, beatSum1, beatCarry1));
        resultValid.set(valid1.and(last1));
        when(valid1, () -> when(last1, () -> {
            acc.set(0);
            result.set(total);
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

    /**
     * 16-bit rows reduced to two (one if only one is given) with the same sum modulo 0xFFFF: groups of six rows
     * become three (a 6:3 counter per bit), a last group of three to five becomes two or three.
     */
    private static List<Expr> compress(List<Expr> rows) {
        List<Expr> level = rows;
        while (level.size() > 2) {
            List<Expr> next = new ArrayList<>();
            int i = 0;
            for (; i + 3 <= level.size(); i += 6) {
                List<Expr> group = level.subList(i, Math.min(i + 6, level.size()));
                next.addAll(group.size() == 3 ? csa(group.get(0), group.get(1), group.get(2)) : count(group));
            }
            next.addAll(level.subList(Math.min(i, level.size()), level.size()));
            level = next;
        }
        return level;
    }

    /** Three rows as two: each bit's sum and its carry, one place up (bit 15's carry to bit 0). */
    private static List<Expr> csa(Expr a, Expr b, Expr c) {
        return List.of(a.xor(b).xor(c), rotl(majority(a, b, c), 1));
    }

    /** Four to six rows as three: the bits' count in each position, its bits 1 and 2 placed one and two up. */
    private static List<Expr> count(List<Expr> rows) {
        Expr[] r = new Expr[6];
        for (int k = 0; k < 6; k++) {
            r[k] = k < rows.size() ? rows.get(k) : Hw.zeros(16);
        }
        Expr s1 = r[0].xor(r[1]).xor(r[2]);
        Expr s2 = r[3].xor(r[4]).xor(r[5]);
        Expr c1 = majority(r[0], r[1], r[2]);
        Expr c2 = majority(r[3], r[4], r[5]);
        Expr both = s1.and(s2);
        return List.of(s1.xor(s2), rotl(c1.xor(c2).xor(both), 1), rotl(majority(c1, c2, both), 2));
    }

    private static Expr majority(Expr a, Expr b, Expr c) {
        return a.and(b).or(a.and(c)).or(b.and(c));
    }

    /** x rotated k places up: bit i moves to bit i + k modulo 16. */
    private static Expr rotl(Expr x, int k) {
        return Hw.cat(x.bits(15 - k, 0), x.bits(15, 16 - k));
    }

    /**
     * The one's-complement sum (RFC 1071) of 16-bit values: the counters' tree down to two rows, then those added
     * with the end-around carry ({@link #endAround}). 0 only if every term is 0.
     */
    public static Expr add(Expr... terms) {
        List<Expr> rows = compress(List.of(terms));
        return rows.size() == 1 ? rows.get(0) : endAround(rows.get(0), rows.get(1));
    }

    /**
     * a + b, plus 1 when that carries out of bit 15. The carry into each bit is the generate of the 16 bits below
     * it, taken round the end (a circular prefix, four steps), so no carry chain runs twice.
     */
    private static Expr endAround(Expr a, Expr b) {
        Expr p = a.xor(b);
        Expr g = a.and(b);
        Expr t = p;
        for (int d = 1; d < 16; d *= 2) { // g, t: generate, propagate of the 2d bits ending at each bit
            g = g.or(t.and(rotl(g, d)));
            t = d < 8 ? t.and(rotl(t, d)) : t;
        }
        return p.xor(rotl(g, 1));
    }

    public Config config() {
        return config;
    }
}
