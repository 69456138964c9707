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
        return offered(sim, "");
    }

    /** The message {@code <prefix>ctl_out} (a port's channel) offers this cycle, or null. */
    public static BigInteger offered(Simulator sim, String prefix) {
        String out = prefix + "ctl_out_";
        if (sim.peek(out + "valid") == 0) {
            return null;
        }
        return LinkControl.LAYOUT.word().set("type", sim.peek(out + "type")).set("value", sim.peek(out + "value"))
                .set("vc", sim.peek(out + "vc")).toBigInteger();
    }

    /** Drives {@code ctl_in} with the message, or leaves it idle for null. */
    public static void deliver(Simulator sim, BigInteger message) {
        deliver(sim, "", message);
    }

    /** Drives {@code <prefix>ctl_in} (a port's channel) with the message, or leaves it idle for null. */
    public static void deliver(Simulator sim, String prefix, BigInteger message) {
        String in = prefix + "ctl_in_";
        sim.poke(in + "valid", message == null ? 0 : 1);
        if (message != null) {
            sim.poke(in + "type", LinkControl.LAYOUT.field("type").get(message));
            sim.poke(in + "value", LinkControl.LAYOUT.field("value").get(message));
            sim.poke(in + "vc", LinkControl.LAYOUT.field("vc").get(message));
        }
    }
}
