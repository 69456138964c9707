package org.sue.core;

import java.math.BigInteger;

/** A register clocked by the design clock. {@link #set} gives its next value; unassigned cycles hold. */
public final class Reg extends Signal {
    private final BigInteger resetValue;
    /** The states this register holds, value i the constant at ordinal i ({@link State}), or null. */
    private final Class<? extends Enum<?>> states;

    Reg(String name, int width, BigInteger resetValue, Component owner, SourceLoc loc) {
        this(name, width, resetValue, null, owner, loc);
    }

    Reg(String name, int width, BigInteger resetValue, Class<? extends Enum<?>> states, Component owner,
        SourceLoc loc) {
        super(name, width, owner, loc);
        this.states = states;
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

    /** The enum whose constants this register holds (a state register, {@link Component#state}), or null. */
    public Class<? extends Enum<?>> states() {
        return states;
    }

    /** The names of the states, by value, or null for a plain register. */
    public java.util.List<String> stateNames() {
        if (states == null) {
            return null;
        }
        return java.util.Arrays.stream(states.getEnumConstants()).map(Enum::name).toList();
    }

    public boolean hasReset() {
        return resetValue != null;
    }

    @Override
    String kindName() {
        return "register";
    }
}
