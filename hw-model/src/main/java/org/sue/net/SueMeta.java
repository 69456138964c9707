package org.sue.net;

import java.math.BigInteger;
import org.sue.core.Expr;
import org.sue.net.model.ReliabilityHeader;

/**
 * Per-packet metadata carried on the stream bus's {@code tuser} (one layout for the whole project), least
 * significant field first: dst_xpu[9:0], src_xpu[19:10], vc[21:20], psn[37:22], op[39:38], rpsn[55:40],
 * partition[65:56], port[67:66], err[68], len[81:69]. {@code len} is the number of packed-command bytes of the PDU
 * (without RH, padding or R-CRC), set where the PDU is assembled; the framing path derives every length from it.
 */
public record SueMeta(int dstXpu, int srcXpu, int vc, int psn, int op, int rpsn, int partition, int port, boolean err,
                      int len) {
    public static final int WIDTH = 82;
    /** Virtual channels: the 2-bit {@code vc} of the RH and of every command. */
    public static final int VCS = 4;

    /** Bit offset and width of each field. */
    public enum Field {
        DST_XPU(0, 10), SRC_XPU(10, 10), VC(20, 2), PSN(22, 16), OP(38, 2), RPSN(40, 16), PARTITION(56, 10),
        PORT(66, 2), ERR(68, 1), LEN(69, 13);

        public final int lo;
        public final int width;

        Field(int lo, int width) {
            this.lo = lo;
            this.width = width;
        }

        /** This field of a tuser expression. */
        public Expr of(Expr tuser) {
            return tuser.bits(lo + width - 1, lo);
        }
    }

    public SueMeta {
        check(Field.DST_XPU, dstXpu);
        check(Field.SRC_XPU, srcXpu);
        check(Field.VC, vc);
        check(Field.PSN, psn);
        check(Field.OP, op);
        check(Field.RPSN, rpsn);
        check(Field.PARTITION, partition);
        check(Field.PORT, port);
        check(Field.LEN, len);
    }

    private static void check(Field f, int v) {
        if (v < 0 || v >= 1 << f.width) {
            throw new IllegalArgumentException("SueMeta " + f.name().toLowerCase() + " must be 0.." + ((1 << f.width) - 1)
                    + ", got " + v);
        }
    }

    public BigInteger pack() {
        BigInteger v = BigInteger.ZERO;
        int[] values = {dstXpu, srcXpu, vc, psn, op, rpsn, partition, port, err ? 1 : 0, len};
        Field[] fields = Field.values();
        for (int i = 0; i < fields.length; i++) {
            v = v.or(BigInteger.valueOf(values[i]).shiftLeft(fields[i].lo));
        }
        return v;
    }

    public static SueMeta unpack(BigInteger v) {
        int[] f = new int[Field.values().length];
        for (Field field : Field.values()) {
            f[field.ordinal()] = v.shiftRight(field.lo).intValue() & ((1 << field.width) - 1);
        }
        return new SueMeta(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8] != 0, f[9]);
    }

    /** The reliability header a transmitter builds from this metadata (xpuid = source). */
    public ReliabilityHeader rh(int version) {
        return new ReliabilityHeader(version, op, srcXpu, psn, vc, partition, rpsn);
    }
}
