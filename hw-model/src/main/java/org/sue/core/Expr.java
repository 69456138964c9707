package org.sue.core;

import java.math.BigInteger;
import java.util.List;

/**
 * A fixed-width two-state bit vector expression. Operators build new IR nodes; width rules are checked at once so
 * the error points at the Java line that wrote the expression.
 */
public abstract class Expr {
    private final int width;
    private final SourceLoc loc;

    Expr(int width, SourceLoc loc) {
        if (width < 1) {
            throw new HdlException("width must be at least 1, got " + width, loc);
        }
        this.width = width;
        this.loc = loc;
    }

    public final int width() {
        return width;
    }

    public final SourceLoc loc() {
        return loc;
    }

    /** How the expression is named in error messages. */
    String describe() {
        return toString();
    }

    // ---- bitwise -------------------------------------------------------------------------------------------------

    public Expr and(Expr b) { return binary(OpKind.AND, b, width); }
    public Expr or(Expr b) { return binary(OpKind.OR, b, width); }
    public Expr xor(Expr b) { return binary(OpKind.XOR, b, width); }
    public Expr and(long b) { return and(lit(b)); }
    public Expr or(long b) { return or(lit(b)); }
    public Expr xor(long b) { return xor(lit(b)); }

    public Expr not() {
        return new Op(OpKind.NOT, width, List.of(this), 0, 0, SourceLoc.here());
    }

    // ---- arithmetic (wrapping, result has the operands' width) ---------------------------------------------------

    public Expr add(Expr b) { return binary(OpKind.ADD, b, width); }
    public Expr sub(Expr b) { return binary(OpKind.SUB, b, width); }
    public Expr add(long b) { return add(lit(b)); }
    public Expr sub(long b) { return sub(lit(b)); }

    // ---- unsigned comparisons (1-bit result) ---------------------------------------------------------------------

    public Expr eq(Expr b) { return binary(OpKind.EQ, b, 1); }
    public Expr ne(Expr b) { return binary(OpKind.NE, b, 1); }
    public Expr lt(Expr b) { return binary(OpKind.LT, b, 1); }
    public Expr le(Expr b) { return binary(OpKind.LE, b, 1); }
    public Expr gt(Expr b) { return binary(OpKind.GT, b, 1); }
    public Expr ge(Expr b) { return binary(OpKind.GE, b, 1); }
    public Expr eq(long b) { return eq(lit(b)); }
    public Expr ne(long b) { return ne(lit(b)); }
    public Expr lt(long b) { return lt(lit(b)); }
    public Expr le(long b) { return le(lit(b)); }
    public Expr gt(long b) { return gt(lit(b)); }
    public Expr ge(long b) { return ge(lit(b)); }

    // ---- shifts (logical, result keeps this width) ---------------------------------------------------------------

    public Expr shl(int amount) { return constShift(OpKind.SHL, amount); }
    public Expr shr(int amount) { return constShift(OpKind.SHR, amount); }
    public Expr shl(Expr amount) { return new Op(OpKind.SHL_VAR, width, List.of(this, amount), 0, 0, SourceLoc.here()); }
    public Expr shr(Expr amount) { return new Op(OpKind.SHR_VAR, width, List.of(this, amount), 0, 0, SourceLoc.here()); }

    // ---- slicing and sizing --------------------------------------------------------------------------------------

    /** Bits hi down to lo, inclusive (Verilog {@code x[hi:lo]}). */
    public Expr bits(int hi, int lo) {
        SourceLoc here = SourceLoc.here();
        if (lo < 0 || hi < lo || hi >= width) {
            throw new HdlException("slice [" + hi + ":" + lo + "] is outside " + describe() + " (" + width + " bits)", here);
        }
        if (lo == 0 && hi == width - 1) {
            return this;
        }
        return new Op(OpKind.SLICE, hi - lo + 1, List.of(this), hi, lo, here);
    }

    public Expr bit(int i) {
        return bits(i, i);
    }

    public Expr msb() {
        return bit(width - 1);
    }

    /** Zero-extends or truncates to {@code newWidth} bits. */
    public Expr resize(int newWidth) {
        SourceLoc here = SourceLoc.here();
        if (newWidth < 1) {
            throw new HdlException("resize of " + describe() + " to " + newWidth + " bits", here);
        }
        return newWidth == width ? this : new Op(OpKind.RESIZE, newWidth, List.of(this), 0, 0, here);
    }

    // ---- reductions ----------------------------------------------------------------------------------------------

    public Expr andR() { return reduce(OpKind.AND_R); }
    public Expr orR() { return reduce(OpKind.OR_R); }
    public Expr xorR() { return reduce(OpKind.XOR_R); }

    // ---- helpers -------------------------------------------------------------------------------------------------

    /** A constant of this expression's width. */
    public Expr lit(long value) {
        return new Const(width, Hw.unsigned(value, width, SourceLoc.here()), SourceLoc.here());
    }

    private Expr binary(OpKind kind, Expr b, int resultWidth) {
        SourceLoc here = SourceLoc.here();
        if (b.width != width) {
            throw new HdlException("width mismatch in " + kind + ": " + describe() + " is " + width + " bits, "
                    + b.describe() + " is " + b.width + " bits", here);
        }
        return new Op(kind, resultWidth, List.of(this, b), 0, 0, here);
    }

    private Expr constShift(OpKind kind, int amount) {
        SourceLoc here = SourceLoc.here();
        if (amount < 0) {
            throw new HdlException("negative shift amount " + amount + " on " + describe(), here);
        }
        if (amount == 0) {
            return this;
        }
        if (amount >= width) {
            return new Const(width, BigInteger.ZERO, here);
        }
        return new Op(kind, width, List.of(this), amount, 0, here);
    }

    private Expr reduce(OpKind kind) {
        return new Op(kind, 1, List.of(this), 0, 0, SourceLoc.here());
    }
}
