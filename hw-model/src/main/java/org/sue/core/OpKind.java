package org.sue.core;

/** Operators of the IR. Arithmetic wraps, comparisons are unsigned, shifts are logical. */
public enum OpKind {
    AND, OR, XOR, NOT,
    ADD, SUB,
    EQ, NE, LT, LE, GT, GE,
    /** shift by the constant {@link Op#p0()}; result has the operand's width */
    SHL, SHR,
    /** shift by a second operand; result has the first operand's width */
    SHL_VAR, SHR_VAR,
    /** args: select (1 bit), value when 1, value when 0 */
    MUX,
    /** args most significant first */
    CONCAT,
    /** bits p0 (high) down to p1 (low) */
    SLICE,
    /** zero-extend or truncate to the node's width */
    RESIZE,
    AND_R, OR_R, XOR_R
}
