package org.sue.link.tb;

import java.math.BigInteger;
import org.sue.link.LinkControl;
import org.sue.sim.Simulator;

/**
 * The link-control channel of a simulated block ({@code ctl_out_*}, {@code ctl_in_*}), a message at a time as one
 * {@link LinkControl#LAYOUT} word, for testbenches that carry messages over a model of the link.
 */
public final class ControlPorts {
    private ControlPorts() {
    }

    /** The message {@code ctl_out} offers this cycle, or null. */
    public static BigInteger offered(Simulator sim) {
        if (sim.peek("ctl_out_valid") == 0) {
            return null;
        }
        return LinkControl.LAYOUT.word().set("type", sim.peek("ctl_out_type")).set("value", sim.peek("ctl_out_value"))
                .set("vc", sim.peek("ctl_out_vc")).toBigInteger();
    }

    /** Drives {@code ctl_in} with the message, or leaves it idle for null. */
    public static void deliver(Simulator sim, BigInteger message) {
        sim.poke("ctl_in_valid", message == null ? 0 : 1);
        if (message != null) {
            sim.poke("ctl_in_type", LinkControl.LAYOUT.field("type").get(message));
            sim.poke("ctl_in_value", LinkControl.LAYOUT.field("value").get(message));
            sim.poke("ctl_in_vc", LinkControl.LAYOUT.field("vc").get(message));
        }
    }
}
