package org.sue.cmd;

import java.math.BigInteger;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;

/**
 * The bytes of {@code tx_control} / {@code rx_control} (docs/protocol.md 11.2): byte 0 the command type, bytes 1..2 the
 * data length big-endian, then the type's control bytes (control byte j in bits [8j+7:8j] of {@code control}).
 */
public final class CommandControl {
    public static final Layout LAYOUT = Layout.of("command_control", Layout.bits("type", 8),
            Layout.bits("length_hi", 8), Layout.bits("length_lo", 8),
            Layout.bits("control", CommandUnpacker.CONTROL_BITS - 24));

    private CommandControl() {
    }

    /** tx_control for a type, a 16-bit data length and control bits (zero-extended to the control bytes). */
    public static Expr of(int type, Expr length16, Expr control) {
        return of(Hw.lit(8, type), length16, control);
    }

    /** tx_control for a type chosen in hardware. */
    public static Expr of(Expr type8, Expr length16, Expr control) {
        return LAYOUT.expr().set("type", type8).set("length_hi", length16.bits(15, 8))
                .set("length_lo", length16.bits(7, 0)).set("control", control.resize(LAYOUT.field("control").width()))
                .build();
    }

    /** tx_control in plain Java, for reference models and testbenches: type, data length, control bits. */
    public static BigInteger word(int type, int length, BigInteger control) {
        return LAYOUT.word().set("type", type).set("length_hi", length >> 8).set("length_lo", length & 0xFF)
                .set("control", control).toBigInteger();
    }

    /** The data length of a tx_control word, in plain Java. */
    public static int length(BigInteger word) {
        return (int) (LAYOUT.field("length_hi").get(word) << 8 | LAYOUT.field("length_lo").get(word));
    }

    /** The data length of a tx_control word. */
    public static Expr length(Expr control) {
        return Hw.cat(LAYOUT.get(control, "length_hi"), LAYOUT.get(control, "length_lo"));
    }
}
