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

    /** Number of set lanes, as a value of the given width. */
    public static Expr count(Expr keep, int width) {
        return Hw.mux(keep.bit(0), lastLaneIndex(keep).resize(width).add(1), Hw.zeros(width));
    }
}
