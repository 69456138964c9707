package org.sue.axi.model;

import java.math.BigInteger;
import java.util.Arrays;
import org.sue.cmd.CommandControl;

/**
 * A command of the AXI4 form (docs/protocol.md 13.2) as it crosses the FIFO interface: its {@code tx_control} word
 * (type, length big-endian, the control bits from byte 3), destination (or source, received), VC and data bytes.
 */
public record AxiCommand(BigInteger control, int xpuid, int vc, byte[] data) {
    /** A command of {@code type} with {@code control} bits and {@code data}. */
    public static AxiCommand of(int type, BigInteger control, int xpuid, int vc, byte[] data) {
        return new AxiCommand(CommandControl.word(type, data.length, control), xpuid, vc, data);
    }

    public int type() {
        return control.intValue() & 0xFF;
    }

    /** The control bits (from tx_control byte 3). */
    public BigInteger bits() {
        return control.shiftRight(24);
    }

    @Override
    public String toString() {
        StringBuilder hex = new StringBuilder();
        for (int i = data.length - 1; i >= 0; i--) {
            hex.append(String.format("%02x", data[i]));
        }
        return "AxiCommand{type " + type() + ", xpu " + xpuid + ", vc " + vc + ", control 0x" + control.toString(16)
                + ", " + data.length + " data bytes 0x" + hex + "}";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AxiCommand c && c.control.equals(control) && c.xpuid == xpuid && c.vc == vc
                && Arrays.equals(c.data, data);
    }

    @Override
    public int hashCode() {
        return control.hashCode() * 31 + xpuid;
    }
}
