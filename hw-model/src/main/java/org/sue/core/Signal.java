package org.sue.core;

/** A named signal owned by a component: a port, register, wire, or memory read port. */
public abstract class Signal extends Expr {
    private final String name;
    private final Component owner;

    Signal(String name, int width, Component owner, SourceLoc loc) {
        super(width, loc);
        this.name = name;
        this.owner = owner;
    }

    public final String name() {
        return name;
    }

    public final Component owner() {
        return owner;
    }

    /** Hierarchical name, e.g. {@code top.fifo.count}. */
    public final String path() {
        return owner.path() + "." + name;
    }

    /** Drives this signal (for a register: its next value). Last assignment wins inside when/otherwise blocks. */
    public void set(Expr value) {
        SourceLoc here = SourceLoc.here();
        if (value.width() != width()) {
            throw new HdlException("width mismatch assigning " + value.describe() + " (" + value.width()
                    + " bits) to " + kindName() + " '" + path() + "' (" + width() + " bits)", here);
        }
        owner.assign(this, value, here);
    }

    public void set(long value) {
        set(lit(value));
    }

    /** Word used in messages: "register", "wire", ... */
    abstract String kindName();

    @Override
    String describe() {
        return kindName() + " '" + path() + "'";
    }

    @Override
    public String toString() {
        return path();
    }
}
