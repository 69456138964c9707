package org.sue.core;

/** Placeholder the elaborator puts where a combinational signal gets no value on some path (a latch). */
final class Undriven extends Expr {
    Undriven(int width) {
        super(width, SourceLoc.UNKNOWN);
    }

    @Override
    public String toString() {
        return "<undriven>";
    }
}
