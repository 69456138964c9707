package org.sue.cmd;

import org.sue.core.Tag;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.lib.stream.Stream;
import org.sue.net.SueMeta;

/**
 * The command path closed on itself with no network in between: {@link CommandPath} PDUs go straight into a
 * {@link CommandUnpacker}, each delivered as if its destination had sent it back (the receive side sees the PDU's
 * destination as its source). So every command the XPU sends comes back on {@code rx_*} with {@code rx_xpuid} = the
 * destination it was sent to, which lets a test check delivery, order per {destination, VC} and credits end to end.
 *
 * <p>Ports: the path's ({@code tx_*}, {@code xpuid}, {@code vc_ready}, {@code dst_ready}, xoff, errors) and the
 * unpacker's receive side, its other ports prefixed with {@code rx_} ({@code rx_xpuid}, {@code rx_credit_error},
 * {@code rx_drops_*}, ...).
 */
public final class CommandLoopback extends Component {
    public record Config(CommandPath.Config path, @Tag("rk") int rxCmdCredits, @Tag("rkd") int rxDataCredits) {
        public Config {
            if (path == null) {
                throw new IllegalArgumentException("CommandLoopback path configuration must be given");
            }
            path.receiver(rxCmdCredits, rxDataCredits); // validates the receive credits
        }

        /** The receive side: the path's PDU bus in, the XPU's data width out. */
        public CommandUnpacker.Config unpacker() {
            return path.receiver(rxCmdCredits, rxDataCredits);
        }
    }

    private final Config config;

    public CommandLoopback(Config config) {
        super(config);
        this.config = config;
        CommandPath tx = child("path", new CommandPath(config.path()));
        CommandUnpacker rx = child("unpacker", new CommandUnpacker(config.unpacker()));
        exposeRest(tx, "", tx.out.signals());
        // the PDU turns around: its destination becomes the source the receive side reports
        Expr user = tx.out.tuser();
        Expr turned = SueMeta.LAYOUT.with(user, SueMeta.SRC_XPU.name(), SueMeta.DST_XPU.of(user));
        unused("src", SueMeta.SRC_XPU.of(user));
        tx.out.translateInto(rx.in, tx.out.layout().with(tx.out.payload(), Stream.TUSER, turned));
        // xpuid, credit_error and counters share names with the path's: the rx_ prefix the interface has
        exposeRest(rx, "rx_", rx.in.signals());
    }
}
