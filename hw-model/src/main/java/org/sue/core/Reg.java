package org.sue.core;

import java.math.BigInteger;

/** A register clocked by the design clock. {@link #set} gives its next value; unassigned cycles hold. */
public final class Reg extends Signal {
    private final BigInteger resetValue;

    Reg(String name, int width, BigInteger resetValue, Component owner, SourceLoc loc) {
        super(name, width, owner, loc);
        if (resetValue != null && resetValue.bitLength() > width) {
            throw new HdlException("reset value 0x" + resetValue.toString(16) + " of register '" + name
                    + "' does not fit in " + width + " bits", loc);
        }
        this.resetValue = resetValue;
    }

    /** The reset value, or null for a register without reset. */
    public BigInteger resetValue() {
        return resetValue;
    }

    public boolean hasReset() {
        return resetValue != null;
    }

    @Override
    String kindName() {
        return "register";
    }
}
