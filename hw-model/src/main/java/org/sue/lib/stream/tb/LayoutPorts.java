package org.sue.lib.stream.tb;

import java.math.BigInteger;
import org.sue.core.Layout;
import org.sue.sim.Simulator;

/** The payload ports of a stream or flow ({@code <name>_<field>}), poked and peeked as one packed value. */
public final class LayoutPorts {
    private LayoutPorts() {
    }

    public static void poke(Simulator sim, String name, Layout layout, BigInteger payload) {
        for (Layout.Field f : layout.fields()) {
            sim.poke(name + "_" + f.name(), f.getBig(payload));
        }
    }

    public static BigInteger peek(Simulator sim, String name, Layout layout) {
        Layout.Word w = layout.word();
        for (Layout.Field f : layout.fields()) {
            w.set(f.name(), sim.peekBig(name + "_" + f.name()));
        }
        return w.toBigInteger();
    }
}
