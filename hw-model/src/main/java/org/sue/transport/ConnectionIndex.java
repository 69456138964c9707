package org.sue.transport;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Expr;
import org.sue.core.Hw;

/**
 * A connection {port, XPU} as a row of the transport's per-connection tables (docs/protocol.md 6.1): the port's low
 * {@code log2(ports)} bits above the XPU id's low {@code log2(destinations)} bits, so that more ports only add rows.
 *
 * @param row   the table row
 * @param spare the ids' bits the row does not use (high XPU bits the caller has checked or may ignore, high port bits)
 */
record ConnectionIndex(Expr row, List<Expr> spare) {
    static ConnectionIndex of(TransportConfig config, Expr port, Expr xpu) {
        int xw = Hw.log2Up(config.destinations());
        int pw = config.portWidth();
        List<Expr> spare = new ArrayList<>();
        if (xw < xpu.width()) {
            spare.add(xpu.bits(xpu.width() - 1, xw));
        }
        if (pw < port.width()) {
            spare.add(port.bits(port.width() - 1, pw));
        }
        Expr x = xpu.bits(xw - 1, 0);
        return new ConnectionIndex(pw == 0 ? x : Hw.cat(port.bits(pw - 1, 0), x), spare);
    }

    /** The XPU id of a row, {@code width} bits wide. */
    static Expr xpu(TransportConfig config, Expr row, int width) {
        return row.bits(Hw.log2Up(config.destinations()) - 1, 0).resize(width);
    }

    /** The port of a row, {@code width} bits wide (0 with one port). */
    static Expr port(TransportConfig config, Expr row, int width) {
        int pw = config.portWidth();
        return pw == 0 ? Hw.zeros(width) : row.bits(row.width() - 1, row.width() - pw).resize(width);
    }
}
