package org.sue.lib.stream;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Expr;
import org.sue.core.Hw;

/** Logic on a {@code tkeep} thermometer code (lanes 0..n-1 set), shared by the blocks that need byte counts. */
public final class Keep {
    private Keep() {
    }

    /** Index of the last set lane (0 when none is set): keep & ~(keep >> 1) is one-hot there; encode it. */
    public static Expr lastLaneIndex(Expr keep) {
        int lanes = keep.width();
        int width = Math.max(1, Hw.log2Up(lanes));
        Expr lastLane = keep.and(keep.shr(1).not());
        List<Expr> bits = new ArrayList<>();
        for (int b = width - 1; b >= 0; b--) {
            BigInteger lanesWithBit = BigInteger.ZERO;
            for (int i = 0; i < lanes; i++) {
                if (((i >>> b) & 1) != 0) {
                    lanesWithBit = lanesWithBit.setBit(i);
                }
            }
            bits.add(lanesWithBit.signum() == 0 ? Hw.zeros(1) : lastLane.and(Hw.lit(lanes, lanesWithBit)).orR());
        }
        return Hw.cat(bits);
    }

    /** A tkeep of {@code lanes} lanes with the lanes below {@code count} set (count may exceed the lanes). */
    public static Expr below(Expr count, int lanes) {
        List<Expr> bits = new ArrayList<>();
        for (int l = lanes - 1; l >= 0; l--) {
            bits.add(count.gt(l));
        }
        return Hw.cat(bits);
    }

    /** Each lane bit of {@code keep} widened to a byte of ones or zeros: a mask over the data bus. */
    public static Expr byteMask(Expr keep) {
        List<Expr> bytes = new ArrayList<>();
        for (int l = keep.width() - 1; l >= 0; l--) {
            bytes.add(Hw.mux(keep.bit(l), Hw.ones(8), Hw.zeros(8)));
        }
        return Hw.cat(bytes);
    }

    /** A byte mask over {@code lanes} byte lanes, ones below {@code count}. */
    public static Expr bytesBelow(Expr count, int lanes) {
        return byteMask(below(count, lanes));
    }

    /** Number of set lanes, as a value of the given width. */
    public static Expr count(Expr keep, int width) {
        return Hw.mux(keep.bit(0), lastLaneIndex(keep).resize(width).add(1), Hw.zeros(width));
    }
}
