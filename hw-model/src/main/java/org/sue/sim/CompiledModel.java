package org.sue.sim;

/**
 * Base class of the generated simulation code. Signals are numbered; narrow ones (<= 64 bits) are read and written
 * as longs, wide ones as little-endian word arrays.
 */
public abstract class CompiledModel {
    /** Settles combinational logic from the current inputs and state. */
    public abstract void eval();

    /** One rising clock edge: registers and memories take their next values (honouring the reset). */
    public abstract void tick();

    public abstract long get(int id);

    public abstract void getWide(int id, long[] dst);

    /** Every top-level port, in declaration order, into its array of dst (width/64 words, rounded up). */
    public abstract void getPorts(long[][] dst);

    /** Writes a top-level input. */
    public abstract void set(int id, long value);

    public abstract void setWide(int id, long[] value);

    /**
     * Writes every top-level input whose array in {@code values} ({@link #getPorts}' order and shapes) is not null;
     * returns -1, or the index of the first port whose value does not fit it (that port and later ones unwritten).
     */
    public abstract int setPorts(long[][] values);

    /** Drives the reset input (its polarity is the design's reset style). */
    public abstract void setReset(long value);

    /** Reads memory word {@code addr} of memory {@code memId} into dst (width/64 words, rounded up). */
    public abstract void readMem(int memId, int addr, long[] dst);

    public abstract void writeMem(int memId, int addr, long[] value);
}
