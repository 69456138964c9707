package org.sue.core;

import java.util.List;

/** An operator node: {@link OpKind} applied to arguments, with up to two integer parameters (shift amount, slice bounds). */
public final class Op extends Expr {
    private final OpKind kind;
    private final List<Expr> args;
    private final int p0;
    private final int p1;

    Op(OpKind kind, int width, List<Expr> args, int p0, int p1, SourceLoc loc) {
        super(width, loc);
        this.kind = kind;
        this.args = List.copyOf(args);
        this.p0 = p0;
        this.p1 = p1;
    }

    public OpKind kind() {
        return kind;
    }

    public List<Expr> args() {
        return args;
    }

    public Expr arg(int i) {
        return args.get(i);
    }

    /** Shift amount (SHL/SHR) or high bit (SLICE). */
    public int p0() {
        return p0;
    }

    /** Low bit (SLICE). */
    public int p1() {
        return p1;
    }

    @Override
    public String toString() {
        return kind + args.toString();
    }
}
