package org.sue.mgmt;

import org.sue.core.Component;
import org.sue.core.Layout;
import org.sue.lib.stream.Stream;

/**
 * An AXI4-Lite port (AMBA AXI4-Lite, 32-bit data): the five channels as streams, named {@code <name>_aw_*},
 * {@code <name>_w_*}, {@code <name>_b_*}, {@code <name>_ar_*}, {@code <name>_r_*}.
 */
public record AxiLite(Stream aw, Stream w, Stream b, Stream ar, Stream r) {
    public static final int DATA_BITS = 32;
    /** Response codes (AXI4 xRESP). */
    public static final long OKAY = 0;
    public static final long SLVERR = 2;
    public static final long DECERR = 3;

    public static Layout address(int addrWidth) {
        return Layout.of("ax", Layout.bits("addr", addrWidth), Layout.bits("prot", 3));
    }

    public static final Layout WRITE_DATA = Layout.of("w", Layout.bits("data", DATA_BITS),
            Layout.bits("strb", DATA_BITS / 8));
    public static final Layout WRITE_RESPONSE = Layout.of("b", Layout.bits("resp", 2));
    public static final Layout READ_DATA = Layout.of("r", Layout.bits("data", DATA_BITS), Layout.bits("resp", 2));

    /** The target's side of the port on component {@code c}: requests in, responses out. */
    public static AxiLite target(Component c, String name, int addrWidth) {
        return new AxiLite(Stream.slave(c, name + "_aw", address(addrWidth)),
                Stream.slave(c, name + "_w", WRITE_DATA),
                Stream.master(c, name + "_b", WRITE_RESPONSE),
                Stream.slave(c, name + "_ar", address(addrWidth)),
                Stream.master(c, name + "_r", READ_DATA));
    }
}
