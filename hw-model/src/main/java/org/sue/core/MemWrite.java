package org.sue.core;

/** The write port of a {@link Mem}; enable already includes the when-conditions around the write call. */
public record MemWrite(Expr enable, Expr address, Expr data, SourceLoc loc) {
}
