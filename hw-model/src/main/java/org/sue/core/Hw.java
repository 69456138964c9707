package org.sue.core;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** Static constructors: constants, concatenation, multiplexers. */
public final class Hw {
    private Hw() {
    }

    public static Expr lit(int width, long value) {
        SourceLoc here = SourceLoc.here();
        return new Const(width, unsigned(value, width, here), here);
    }

    public static Expr lit(int width, BigInteger value) {
        return new Const(width, value, SourceLoc.here());
    }

    public static Expr zeros(int width) {
        return new Const(width, BigInteger.ZERO, SourceLoc.here());
    }

    public static Expr ones(int width) {
        return new Const(width, BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE), SourceLoc.here());
    }

    public static Expr bool(boolean b) {
        return new Const(1, b ? BigInteger.ONE : BigInteger.ZERO, SourceLoc.here());
    }

    /** Concatenation, most significant part first (Verilog {@code {a, b, c}}). */
    public static Expr cat(Expr... parts) {
        return cat(List.of(parts));
    }

    public static Expr cat(List<? extends Expr> parts) {
        SourceLoc here = SourceLoc.here();
        if (parts.isEmpty()) {
            throw new HdlException("concatenation of nothing", here);
        }
        if (parts.size() == 1) {
            return parts.get(0);
        }
        int w = 0;
        for (Expr p : parts) {
            w += p.width();
        }
        return new Op(OpKind.CONCAT, w, new ArrayList<>(parts), 0, 0, here);
    }

    /** {@code sel ? ifTrue : ifFalse}; sel must be 1 bit, both values the same width. */
    public static Expr mux(Expr sel, Expr ifTrue, Expr ifFalse) {
        SourceLoc here = SourceLoc.here();
        if (sel.width() != 1) {
            throw new HdlException("mux select " + sel.describe() + " must be 1 bit, is " + sel.width(), here);
        }
        if (ifTrue.width() != ifFalse.width()) {
            throw new HdlException("width mismatch in MUX: " + ifTrue.describe() + " is " + ifTrue.width()
                    + " bits, " + ifFalse.describe() + " is " + ifFalse.width() + " bits", here);
        }
        return new Op(OpKind.MUX, ifTrue.width(), List.of(sel, ifTrue, ifFalse), 0, 0, here);
    }

    public static Expr mux(Expr sel, Expr ifTrue, long ifFalse) {
        return mux(sel, ifTrue, ifTrue.lit(ifFalse));
    }

    /** {@code options[index]} as a chain of muxes (index beyond the list: the first option). */
    public static Expr select(List<? extends Expr> options, Expr index) {
        Expr r = options.get(0);
        for (int i = 1; i < options.size(); i++) {
            r = mux(index.eq(i), options.get(i), r);
        }
        return r;
    }

    /**
     * {@code options[index]} as a balanced tree of multiplexers on the index's bits, bit 0 first (index within the
     * list): log2 levels of 2:1 multiplexers where {@link #select} chains a compare per option.
     */
    public static Expr selectTree(List<? extends Expr> options, Expr index) {
        List<Expr> level = new ArrayList<>(options);
        for (int b = 0; level.size() > 1; b++) {
            List<Expr> next = new ArrayList<>();
            for (int i = 0; i < level.size(); i += 2) {
                next.add(i + 1 < level.size() ? mux(index.bit(b), level.get(i + 1), level.get(i)) : level.get(i));
            }
            level = next;
        }
        return level.get(0);
    }

    /**
     * {@code value} plus the number of {@code ups} that are 1 minus the number of {@code downs} that are 1, in
     * value's width (wrapping). Each candidate value + d is formed from value alone and the one-bit terms only choose
     * among them: a counter updated by late handshakes gets a multiplexer after them, not an adder.
     */
    public static Expr upDown(Expr value, List<? extends Expr> ups, List<? extends Expr> downs) {
        return upDown(value, ups, downs, 1);
    }

    /** {@link #upDown(Expr, List, List)} in steps of {@code step}: value + step x (ups - downs), wrapping. */
    public static Expr upDown(Expr value, List<? extends Expr> ups, List<? extends Expr> downs, long step) {
        SourceLoc here = SourceLoc.here();
        int dw = log2Up(ups.size() + downs.size() + 1);
        Expr choice = lit(dw, downs.size()); // the option value + 0
        for (Expr u : ups) {
            choice = choice.add(oneBit(u, here).resize(dw));
        }
        for (Expr d : downs) {
            choice = choice.sub(oneBit(d, here).resize(dw));
        }
        List<Expr> options = new ArrayList<>();
        for (int d = -downs.size(); d <= ups.size(); d++) {
            options.add(d == 0 ? value : d > 0 ? value.add(d * step) : value.sub(-d * step));
        }
        return select(options, choice);
    }

    /**
     * {@code x + 1} in its width, each bit flipped where every bit below it is high: each carry is a reduction of its
     * own, a tree of ANDs with no carry chain for {@code abc -lut 6} to map as one (as it may an adder's, or
     * {@link #addShallow}'s prefix network for a constant).
     */
    public static Expr increment(Expr x) {
        List<Expr> bits = new ArrayList<>();
        for (int i = x.width() - 1; i >= 0; i--) {
            bits.add(i == 0 ? x.bit(0).not() : x.bit(i).xor(x.bits(i - 1, 0).andR()));
        }
        return cat(bits);
    }

    /**
     * {@code a - b} in their width, for a wide difference on a late path: each 8-bit block is formed for both borrows
     * in beside the others and the borrow only chooses (carry select), so the borrow runs across blocks, not bits
     * ({@code abc -lut 6} maps a 32-bit subtraction's ripple to about 12 levels, this to about 6).
     */
    public static Expr subCarrySelect(Expr a, Expr b) {
        SourceLoc here = SourceLoc.here();
        if (a.width() != b.width()) {
            throw new HdlException("subCarrySelect of " + a.describe() + " (" + a.width() + " bits) and "
                    + b.describe() + " (" + b.width() + " bits): widths differ", here);
        }
        List<Expr> blocks = new ArrayList<>();
        Expr borrow = null; // out of the block below, set by the first
        for (int lo = 0; lo < a.width(); lo += 8) {
            int hi = Math.min(a.width(), lo + 8) - 1;
            Expr x = a.bits(hi, lo);
            Expr y = b.bits(hi, lo);
            if (lo == 0) { // no borrow in
                blocks.add(0, x.sub(y));
                borrow = x.lt(y);
            } else {
                blocks.add(0, mux(borrow, x.add(y.not()), x.sub(y))); // x + ~y = x - y - 1
                borrow = mux(borrow, x.le(y), x.lt(y));
            }
        }
        return cat(blocks);
    }

    /**
     * {@code a + b} in their width, for a wide sum on a late path: a radix-4 parallel prefix (Kogge-Stone) forms every
     * bit's carry in log4(width) steps of whole-word operations, where a plain adder's carry ripples ({@code abc -lut
     * 6}: 20 bits in 5-6 LUT levels instead of 8, 32 bits in 6-7 instead of 13, also behind a select between two sums).
     */
    public static Expr addShallow(Expr a, Expr b) {
        return addShallow(a, b, false);
    }

    /** {@code a + b + carryIn}, as {@link #addShallow(Expr, Expr)}; the carry in joins bit 0's generate. */
    public static Expr addShallow(Expr a, Expr b, boolean carryIn) {
        sameWidth("addShallow", a, b, SourceLoc.here());
        int w = a.width();
        Expr p = a.xor(b);
        Expr g = carryIn ? a.and(b).or(p.and(lit(w, 1))) : a.and(b); // g, t: generate, propagate of the span ending
        Expr t = p;                                                    // at each bit, four times longer each step
        for (int d = 1; d < w; d *= 4) {
            Expr g1 = g.shl(d);
            Expr g2 = g.shl(2 * d);
            Expr g3 = g.shl(3 * d);
            Expr t1 = t.shl(d);
            Expr t2 = t.shl(2 * d);
            Expr t3 = t.shl(3 * d);
            g = g.or(t.and(g1)).or(t.and(t1).and(g2)).or(t.and(t1).and(t2).and(g3));
            t = t.and(t1).and(t2).and(t3);
        }
        return w == 1 ? p.xor(bool(carryIn)) : p.xor(cat(g.bits(w - 2, 0), bool(carryIn)));
    }

    /** {@code a - b} in their width, as {@link #addShallow}: {@code a + ~b + 1}. */
    public static Expr subShallow(Expr a, Expr b) {
        sameWidth("subShallow", a, b, SourceLoc.here());
        return addShallow(a, b.not(), true);
    }

    /**
     * The sum of the terms (all of one width) plus {@code carryIn}, in their width, for a late path: 3:2 counters
     * take the terms down to two rows (a level each; the first carry row takes the carry in at its free low bit),
     * then {@link #addShallow}.
     */
    public static Expr sumShallow(List<? extends Expr> terms, boolean carryIn) {
        SourceLoc here = SourceLoc.here();
        for (Expr t : terms) {
            sameWidth("sumShallow", terms.get(0), t, here);
        }
        if (terms.size() == 1) {
            return carryIn ? terms.get(0).add(1) : terms.get(0);
        }
        List<Expr> rows = new ArrayList<>(terms);
        boolean pending = carryIn;
        while (rows.size() > 2) {
            rows = counted(rows, pending);
            pending = false;
        }
        return addShallow(rows.get(0), rows.get(1), pending);
    }

    /**
     * {@code sum(terms) > limit}, the terms unsigned and summed without wrapping, for a late check against a
     * constant: the terms and {@code 2^w - 1 - limit} through 3:2 counters to two rows, then the sum's top bit, a
     * compare and two XORs ({@code abc -lut 6}: five 20-bit terms in about 7 levels).
     */
    public static Expr sumAbove(List<? extends Expr> terms, long limit) {
        int w = 0;
        for (Expr t : terms) {
            w = Math.max(w, t.width());
        }
        w += log2Up(terms.size() + 1L) + 1; // the terms' sum stays below 2^(w-1)
        if (limit < 0 || w > 62 || limit >= 1L << (w - 1)) {
            throw new HdlException("sumAbove limit " + limit + " is outside the terms' range", SourceLoc.here());
        }
        List<Expr> rows = new ArrayList<>();
        for (Expr t : terms) {
            rows.add(t.resize(w + 1));
        }
        rows.add(lit(w + 1, (1L << w) - 1 - limit)); // the sum reaches 2^w exactly when the terms exceed limit
        while (rows.size() > 2) {
            rows = counted(rows, false);
        }
        Expr a = rows.get(0);
        Expr b = rows.get(1); // a + b < 2^(w+1): bit w is the answer
        return a.bit(w).xor(b.bit(w)).xor(a.bits(w - 1, 0).gt(b.bits(w - 1, 0).not()));
    }

    /** One level of 3:2 counters: each three rows become their sum and carry (the first carry row takes carryIn). */
    private static List<Expr> counted(List<Expr> rows, boolean carryIn) {
        List<Expr> next = new ArrayList<>();
        boolean pending = carryIn;
        int i = 0;
        for (; i + 3 <= rows.size(); i += 3) {
            Expr a = rows.get(i);
            Expr b = rows.get(i + 1);
            Expr c = rows.get(i + 2);
            Expr carry = a.and(b).or(a.and(c)).or(b.and(c));
            int w = a.width();
            next.add(a.xor(b).xor(c));
            next.add(w == 1 ? bool(pending) : cat(carry.bits(w - 2, 0), bool(pending)));
            pending = false;
        }
        next.addAll(rows.subList(i, rows.size()));
        return next;
    }

    private static void sameWidth(String what, Expr a, Expr b, SourceLoc here) {
        if (a.width() != b.width()) {
            throw new HdlException(what + " of " + a.describe() + " (" + a.width() + " bits) and " + b.describe()
                    + " (" + b.width() + " bits): widths differ", here);
        }
    }

    /**
     * {@code x - lo <= hi - lo} modulo 2^width: x is on the way up from lo to hi, wrapping; as three compares, without
     * the subtractions.
     */
    public static Expr inCircularRange(Expr x, Expr lo, Expr hi) {
        Expr above = lo.le(x);
        Expr below = x.le(hi);
        return mux(lo.le(hi), above.and(below), above.or(below));
    }

    /**
     * {@code x - y < 2^(width-1)} modulo 2^width: x is y or up to half the number space after it (serial-number
     * arithmetic), from the top bits and a compare of the rest instead of the difference's borrow chain.
     */
    public static Expr atOrAfter(Expr x, Expr y) {
        int top = x.width() - 1;
        if (top == 0) {
            return x.xor(y).not();
        }
        return x.msb().xor(y.msb()).xor(x.bits(top - 1, 0).lt(y.bits(top - 1, 0))).not();
    }

    private static Expr oneBit(Expr term, SourceLoc here) {
        if (term.width() != 1) {
            throw new HdlException("upDown term " + term.describe() + " must be 1 bit, is " + term.width(), here);
        }
        return term;
    }

    /** Number of bits needed to hold values 0..n-1 (at least 1). */
    public static int log2Up(long n) {
        if (n <= 1) {
            return 1;
        }
        return 64 - Long.numberOfLeadingZeros(n - 1);
    }

    /** The value as an unsigned number of {@code width} bits; a negative value means its two's complement. */
    static BigInteger unsigned(long value, int width, SourceLoc loc) {
        BigInteger v = BigInteger.valueOf(value);
        if (value < 0) {
            if (width < 64 && value < -(1L << (width - 1))) {
                throw new HdlException("constant " + value + " does not fit in " + width + " bits", loc);
            }
            v = v.add(BigInteger.ONE.shiftLeft(Math.max(width, 64)));
            v = v.and(BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE));
        }
        if (v.bitLength() > width) {
            throw new HdlException("constant " + value + " does not fit in " + width + " bits", loc);
        }
        return v;
    }
}
