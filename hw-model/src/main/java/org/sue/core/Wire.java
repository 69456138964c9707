package org.sue.core;

/** A named combinational signal; it must be assigned on every path (no latches). */
public final class Wire extends Signal {
    Wire(String name, int width, Component owner, SourceLoc loc) {
        super(name, width, owner, loc);
    }

    @Override
    String kindName() {
        return "wire";
    }
}
