package org.sue.core;

import java.math.BigInteger;

/** A constant of a fixed width. */
public final class Const extends Expr {
    private final BigInteger value;

    Const(int width, BigInteger value, SourceLoc loc) {
        super(width, loc);
        if (value.signum() < 0) {
            throw new HdlException("constant " + value + " is negative; constants are unsigned", loc);
        }
        if (value.bitLength() > width) {
            throw new HdlException("constant 0x" + value.toString(16) + " does not fit in " + width + " bits", loc);
        }
        this.value = value;
    }

    public BigInteger value() {
        return value;
    }

    @Override
    public String toString() {
        return width() + "'h" + value.toString(16);
    }
}
