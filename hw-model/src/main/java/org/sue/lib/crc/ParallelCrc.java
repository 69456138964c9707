package org.sue.lib.crc;

import org.sue.core.Tag;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Reg;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;

/**
 * Parallel CRC over a W-bit stream, one beat per cycle, back-to-back frames (a frame may start the cycle after the
 * previous one's last beat). Byte lane 0 ({@code s_axis_tdata[7:0]}) comes first; on the last beat {@code s_axis_tkeep} marks the
 * valid lanes, contiguous from lane 0 (at least lane 0); on other beats it is ignored.
 *
 * <p>Partial last beats: instead of one CRC unit per possible byte count (128 units at 1024 bits), the invalid lanes
 * are zeroed and the one full-width unit runs anyway. Its register has then absorbed {@code k} extra trailing zero
 * bytes: {@code raw = A^(8k) * wanted}, with A the register's one-bit zero-input transition. A is invertible (the
 * polynomial has its x^0 term), so {@code wanted = A^(-8k) * raw}, applied as log2(W/8) conditional 32x32 matrix
 * stages, stage s multiplying by the constant {@code A^(-8 * 2^s)} when bit s of k is set. Area: one W-input XOR
 * network plus log2(W/8) small matrices. {@link ParallelCrcModel} is this algorithm in plain Java, tested against the
 * bit-serial {@link CrcReference} on its own.
 *
 * <p>Latency ({@link Config#latency}): {@code crc_valid} / {@code crc_value} appear two cycles after the cycle that
 * carried the last beat (one register after the wide XOR network, one after the unshift stages), three above 64 bits
 * up (a register halfway through the unshift stages).
 */
public final class ParallelCrc extends Component {
    public record Config(CrcParams crc, @Tag("w") int dataWidth) {
        public Config {
            if (crc == null) {
                throw new IllegalArgumentException("ParallelCrc crc parameters must be given");
            }
            if (dataWidth < 8 || dataWidth % 8 != 0 || dataWidth > 4096) {
                throw new IllegalArgumentException("ParallelCrc dataWidth must be a multiple of 8 in 8..4096, got "
                        + dataWidth);
            }
        }

        public int lanes() {
            return dataWidth / 8;
        }

        /**
         * Cycles from the cycle carrying a frame's last beat to its {@code crc_valid}: 2, and 3 above 64 bits,
         * where a register splits the unshift stages.
         */
        public int latency() {
            return splitAt() < CrcMatrices.stagesFor(lanes()) ? 3 : 2;
        }

        /** The unshift stage before the register (the stage count when there is none): the lesser half first. */
        int splitAt() {
            int stages = CrcMatrices.stagesFor(lanes());
            return stages > 3 ? stages / 2 : stages;
        }
    }

    /** Beats in: {@code s_axis_tdata}, {@code s_axis_tkeep}, {@code s_axis_tvalid}, {@code s_axis_tlast} (a flow). */
    public final Flow in;
    /** One result per frame: {@code crc_valid}, {@code crc_value}. */
    public final Flow crc;
    private final Config config;

    public ParallelCrc(Config config) {
        super(config);
        this.config = config;
        CrcParams p = config.crc();
        int w = p.width();
        int lanes = config.lanes();
        CrcMatrices m = new CrcMatrices(p, config.dataWidth());
        int shiftWidth = m.unshiftStages();

        in = Flow.slave(this, "s_axis", Stream.packet(config.dataWidth(), 0));
        crc = Flow.master(this, "crc", Layout.plain("value", w));
        Expr sValid = in.valid();
        Expr sData = in.tdata();
        Expr sKeep = in.tkeep();
        Expr sLast = in.tlast();

        Reg state = reg("state", w, p.init());
        Reg raw = regNoReset("raw", w);
        Reg zeroLanes = regNoReset("zero_lanes", shiftWidth);
        Reg rawValid = reg("raw_valid", 1, 0);
        Reg crcOut = regNoReset("crc_out", w);
        Reg crcOutValid = reg("crc_out_valid", 1, 0);

        // Stage 1: zero the lanes past the end of the frame, then the one full-width XOR network.
        List<Expr> laneBytes = new ArrayList<>();
        for (int i = lanes - 1; i >= 0; i--) {
            Expr keep = sLast.not().or(sKeep.bit(i));
            laneBytes.add(Hw.mux(keep, sData.bits(8 * i + 7, 8 * i), Hw.zeros(8)));
        }
        Expr masked = wire("masked_data", Hw.cat(laneBytes));
        Expr next = wire("next_state", step(m, state, masked));
        Expr endOfFrame = wire("end_of_frame", sValid.and(sLast));
        when(sValid, () -> state.set(Hw.mux(sLast, state.lit(p.init()), next)));

        // Zero lanes after the frame: the last lane number minus the last valid lane's index.
        Expr lastIndex = wire("last_lane_index", Keep.lastLaneIndex(sKeep));
        rawValid.set(endOfFrame);
        when(endOfFrame, () -> {
            raw.set(next);
            zeroLanes.set(Hw.lit(shiftWidth, lanes - 1).sub(lastIndex));
        });

        // Stage 2: undo the trailing zero bytes, then reflect / final XOR. Above 64 bits a register splits the
        // conditional matrix stages (seven in one cycle were 15 LUT levels at 1024 bits).
        int split = config.splitAt();
        Expr v = unshift(m, raw, zeroLanes, 0, split);
        Expr shift = zeroLanes;
        Expr valid = rawValid;
        if (split < shiftWidth) {
            Reg half = regNoReset("half_unshifted", w);
            Reg rest = regNoReset("zero_lanes_rest", shiftWidth - split);
            Reg halfValid = reg("half_valid", 1, 0);
            half.set(v);
            rest.set(zeroLanes.bits(shiftWidth - 1, split));
            halfValid.set(rawValid);
            v = half;
            shift = Hw.cat(rest, Hw.zeros(split));
            valid = halfValid;
        }
        v = unshift(m, v, shift, split, shiftWidth);
        Expr register = wire("unshifted", v);
        crcOut.set(finish(p, register));
        crcOutValid.set(valid);

        crc.valid().set(crcOutValid);
        crc.field("value").set(crcOut);
    }

    /**
     * Unshift stages {@code from} to {@code to - 1} of {@code v}, stage s applied when bit s of {@code shift} is set,
     * two at a time: the four products (none, either, both, formed at elaboration) each one parity per bit, then a
     * 4:1 choice, about three LUT levels a pair where one stage after the other takes four.
     */
    private static Expr unshift(CrcMatrices m, Expr v, Expr shift, int from, int to) {
        int s = from;
        for (; s + 1 < to; s += 2) {
            Gf2Matrix first = m.unshift(s);
            Gf2Matrix second = m.unshift(s + 1);
            List<Expr> options = List.of(v, multiply(first, v), multiply(second, v),
                    multiply(second.multiply(first), v));
            v = Hw.select(options, shift.bits(s + 1, s));
        }
        if (s < to) {
            v = Hw.mux(shift.bit(s), multiply(m.unshift(s), v), v);
        }
        return v;
    }

    /** The register after one full beat of {@code data}: one parity per register bit. */
    private static Expr step(CrcMatrices m, Expr state, Expr data) {
        int w = state.width();
        List<Expr> nextBits = new ArrayList<>();
        for (int i = w - 1; i >= 0; i--) {
            Expr fromState = state.and(Hw.lit(w, BigInteger.valueOf(m.stateMask(i)).and(ones(w)))).xorR();
            Expr fromData = data.and(Hw.lit(data.width(), m.dataMask(i))).xorR();
            nextBits.add(fromState.xor(fromData));
        }
        return Hw.cat(nextBits);
    }

    /**
     * The finished CRC of a message that is exactly {@code data} (byte i in bits [8i+7:8i]), combinational: for short
     * fixed-size messages such as a control frame's FCS.
     */
    public static Expr ofWord(CrcParams p, Expr data) {
        return finish(p, update(p, initial(p), data));
    }

    /** The CRC register of {@code p} before any data. */
    public static Expr initial(CrcParams p) {
        return Hw.lit(p.width(), BigInteger.valueOf(p.init()).and(ones(p.width())));
    }

    /** The CRC register after {@code data} (byte i in bits [8i+7:8i]) from {@code state}: one parity per bit. */
    public static Expr update(CrcParams p, Expr state, Expr data) {
        return step(new CrcMatrices(p, data.width()), state, data);
    }

    /** The CRC a register {@code state} stands for: reflected and inverted as {@code p} says. */
    public static Expr finished(CrcParams p, Expr state) {
        return finish(p, state);
    }

    private static BigInteger ones(int w) {
        return BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE);
    }

    /** y = M x as one parity per output bit. */
    private static Expr multiply(Gf2Matrix matrix, Expr x) {
        int w = x.width();
        List<Expr> bits = new ArrayList<>();
        for (int i = w - 1; i >= 0; i--) {
            bits.add(x.and(Hw.lit(w, BigInteger.valueOf(matrix.row(i)).and(ones(w)))).xorR());
        }
        return Hw.cat(bits);
    }

    private static Expr finish(CrcParams p, Expr register) {
        Expr r = register;
        if (p.reflectOut()) {
            List<Expr> reversed = new ArrayList<>();
            for (int i = 0; i < p.width(); i++) {
                reversed.add(register.bit(i)); // bit 0 becomes the most significant
            }
            r = Hw.cat(reversed);
        }
        return p.xorOut() == 0 ? r : r.xor(Hw.lit(p.width(), BigInteger.valueOf(p.xorOut()).and(ones(p.width()))));
    }

    public Config config() {
        return config;
    }
}
