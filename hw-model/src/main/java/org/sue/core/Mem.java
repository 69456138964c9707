package org.sue.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A memory of depth x width bits with one write port and synchronous read ports, inferable as block RAM. Contents
 * start at zero in both simulators; the design must not rely on that for correctness of real hardware.
 */
public final class Mem {
    private final String name;
    private final int depth;
    private final int width;
    private final ReadUnderWrite readUnderWrite;
    private final Component owner;
    private final SourceLoc loc;
    private final List<MemRead> reads = new ArrayList<>();
    private MemWrite write;

    Mem(String name, int depth, int width, ReadUnderWrite readUnderWrite, Component owner, SourceLoc loc) {
        if (depth < 2) {
            throw new HdlException("memory '" + name + "': depth must be at least 2, got " + depth, loc);
        }
        if (width < 1) {
            throw new HdlException("memory '" + name + "': width must be at least 1, got " + width, loc);
        }
        this.name = name;
        this.depth = depth;
        this.width = width;
        this.readUnderWrite = readUnderWrite;
        this.owner = owner;
        this.loc = loc;
    }

    public String name() { return name; }
    public int depth() { return depth; }
    public int width() { return width; }
    public int addressWidth() { return Hw.log2Up(depth); }
    public ReadUnderWrite readUnderWrite() { return readUnderWrite; }
    public Component owner() { return owner; }
    public SourceLoc loc() { return loc; }
    public List<MemRead> reads() { return Collections.unmodifiableList(reads); }
    /** The write port, or null if the memory is never written. */
    public MemWrite write() { return write; }

    public String path() {
        return owner.path() + "." + name;
    }

    /** Writes data at address in every cycle in which the surrounding when-conditions hold. */
    public void write(Expr address, Expr data) {
        write(Hw.bool(true), address, data);
    }

    public void write(Expr enable, Expr address, Expr data) {
        SourceLoc here = SourceLoc.here();
        checkOpen(here);
        if (write != null) {
            throw new HdlException("memory '" + path() + "' already has a write port (at " + write.loc()
                    + "); one write port keeps it inferable as block RAM", here);
        }
        checkWidth("write enable", enable, 1, here);
        checkWidth("write address", address, addressWidth(), here);
        checkWidth("write data", data, width, here);
        write = new MemWrite(owner.withPathCondition(enable), address, data, here);
    }

    /**
     * A synchronous read port: the returned signal shows mem[address] one cycle after a cycle with enable high
     * (and the surrounding when-conditions true), and holds otherwise.
     */
    public Expr readSync(String portName, Expr address, Expr enable) {
        return readSync(portName, address, enable, null);
    }

    /** {@code collides}: the write address equals {@code address} (formed by the caller), or null. */
    private Expr readSync(String portName, Expr address, Expr enable, Expr collides) {
        SourceLoc here = SourceLoc.here();
        checkOpen(here);
        checkWidth("read address", address, addressWidth(), here);
        checkWidth("read enable", enable, 1, here);
        Expr en = owner.withPathCondition(enable);
        if (readUnderWrite == ReadUnderWrite.READ_FIRST) {
            MemRead r = new MemRead(portName, this, address, en, here);
            owner.register(r, here);
            reads.add(r);
            return r;
        }
        // WRITE_FIRST: read the RAM in read-first mode and bypass the written word when the addresses collide.
        if (write == null) {
            throw new HdlException("memory '" + path() + "' is WRITE_FIRST: declare its write port before read port '"
                    + portName + "'", here);
        }
        MemRead r = new MemRead(portName + "_ram", this, address, en, here);
        owner.register(r, here);
        reads.add(r);
        Reg hit = owner.reg(portName + "_bypass", 1, 0);
        Reg data = owner.regNoReset(portName + "_wdata", width);
        hit.set(en.and(write.enable()).and(collides != null ? collides : write.address().eq(address))
                .or(hit.and(en.not())));
        owner.when(en, () -> data.set(write.data()));
        return owner.wire(portName, Hw.mux(hit, data, r));
    }

    /**
     * {@link #readSync(String, Expr, Expr)} at {@code choose ? ifTrue : ifFalse}, for a late choice between two early
     * addresses: a WRITE_FIRST port compares the write address with both beside the choice, not after it.
     */
    public Expr readSync(String portName, Expr choose, Expr ifTrue, Expr ifFalse, Expr enable) {
        Expr address = Hw.mux(choose, ifTrue, ifFalse);
        if (readUnderWrite == ReadUnderWrite.READ_FIRST || write == null) {
            return readSync(portName, address, enable);
        }
        return readSync(portName, address, enable, Hw.mux(choose, write.address().eq(ifTrue),
                write.address().eq(ifFalse)));
    }

    private void checkOpen(SourceLoc here) {
        if (owner.isComplete()) {
            throw new HdlException("memory '" + path() + "' can only get ports while " + owner.path() + " is built", here);
        }
    }

    private void checkWidth(String what, Expr e, int expected, SourceLoc here) {
        if (e.width() != expected) {
            throw new HdlException("memory '" + path() + "': " + what + " " + e.describe() + " is " + e.width()
                    + " bits, expected " + expected, here);
        }
    }
}
