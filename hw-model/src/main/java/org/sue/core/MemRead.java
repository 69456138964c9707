package org.sue.core;

/** A synchronous read port of a {@link Mem}: the signal is the read-data register, loaded when enable is high. */
public final class MemRead extends Signal {
    private final Mem mem;
    private final Expr address;
    private final Expr enable;

    MemRead(String name, Mem mem, Expr address, Expr enable, SourceLoc loc) {
        super(name, mem.width(), mem.owner(), loc);
        this.mem = mem;
        this.address = address;
        this.enable = enable;
    }

    public Mem mem() {
        return mem;
    }

    public Expr address() {
        return address;
    }

    /** Read enable, including the when-conditions around the read call. */
    public Expr enable() {
        return enable;
    }

    @Override
    public void set(Expr value) {
        throw new HdlException("memory read port '" + path() + "' cannot be assigned", SourceLoc.here());
    }

    @Override
    String kindName() {
        return "memory read";
    }
}
