package org.sue.core;

/** What a synchronous read returns when the same address is written in the same cycle. */
public enum ReadUnderWrite {
    /** the old contents (what block RAMs in read-first mode and Verilog non-blocking semantics give) */
    READ_FIRST,
    /** the data being written (implemented by a bypass around the memory) */
    WRITE_FIRST
}
