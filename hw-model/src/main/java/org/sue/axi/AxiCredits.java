package org.sue.axi;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Layout;
import org.sue.core.Tag;
import org.sue.lib.stream.CreditReceiver;

/**
 * The credits of the five channels of one AXI4 interface in the spec's credit form (SUE spec 3.2.2, docs/protocol.md
 * 13.10): on each channel the sender holds this many credits, one per beat, and the receiver buffers this many beats.
 * A channel moves one beat a cycle when its credits cover its loop's round trip: 4 cycles with the two ends wired
 * together, 2 more for every register stage each way.
 *
 * @param aw AW (write addresses)
 * @param w  W (write data)
 * @param ar AR (read addresses)
 * @param b  B (write responses)
 * @param r  R (read data)
 */
public record AxiCredits(@Tag("aw") int aw, @Tag("w") int w, @Tag("ar") int ar, @Tag("b") int b, @Tag("r") int r) {
    private static final String NAME = "AxiCredits";

    public AxiCredits {
        CreditReceiver.CREDITS.check(NAME, "aw", aw);
        CreditReceiver.CREDITS.check(NAME, "w", w);
        CreditReceiver.CREDITS.check(NAME, "ar", ar);
        CreditReceiver.CREDITS.check(NAME, "b", b);
        CreditReceiver.CREDITS.check(NAME, "r", r);
    }

    /**
     * 4 on AW, AR and B, 8 on W and R [ours]: a beat a cycle on every channel with up to two register stages each way
     * on the data channels (AXI4 sends several W or R beats per address, so only they need the full rate).
     */
    public static AxiCredits defaults() {
        return new AxiCredits(4, 8, 4, 4, 8);
    }

    /**
     * One channel of a pair in credit form: its name ({@code s_aw}, ...), its payload, whether it carries beats into
     * SUE (the slave's AW, W, AR; the master's B, R) or out of it, and its credits.
     */
    public record Loop(String name, Layout layout, boolean intoSue, int credits) {
    }

    /**
     * The ten channels of each of {@code pairs} slave/master pairs (named as {@link AxiBridge} names them): the
     * slave's with {@code axi}'s IDs, the master's with {@code masterIdWidth}-bit IDs (the far master's remapped ones).
     */
    public static List<Loop> loops(AxiConfig axi, int masterIdWidth, int pairs, AxiCredits slave, AxiCredits master) {
        List<Loop> all = new ArrayList<>();
        for (int p = 0; p < pairs; p++) {
            String s = AxiBridge.prefix("s", pairs, p);
            String m = AxiBridge.prefix("m", pairs, p);
            all.addAll(List.of(new Loop(s + "aw", axi.ax(), true, slave.aw()), new Loop(s + "w", axi.w(), true,
                    slave.w()), new Loop(s + "ar", axi.ax(), true, slave.ar()), new Loop(s + "b", axi.b(), false,
                    slave.b()), new Loop(s + "r", axi.r(), false, slave.r()),
                    new Loop(m + "aw", axi.ax(masterIdWidth), false, master.aw()), new Loop(m + "w", axi.w(), false,
                            master.w()), new Loop(m + "ar", axi.ax(masterIdWidth), false, master.ar()),
                    new Loop(m + "b", axi.b(masterIdWidth), true, master.b()), new Loop(m + "r",
                            axi.r(masterIdWidth), true, master.r())));
        }
        return all;
    }
}
