package org.sue.axi.tb;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.sue.axi.AxiConfig;
import org.sue.axi.model.AxiCommand;
import org.sue.cmd.CommandControl;
import org.sue.core.Layout;

/**
 * Commands as beats of {@link AxiConfig#commandBeat} (the control on the first, N/8 data bytes each, the last marked)
 * and back: {@link #beats} cuts one, {@link #add} gathers them.
 */
public final class AxiCommandBeats {
    private final AxiConfig axi;
    private final Layout layout;
    private final List<BigInteger> gathering = new ArrayList<>();

    public AxiCommandBeats(AxiConfig axi) {
        this.axi = axi;
        this.layout = axi.commandBeat();
    }

    /** The beats of a command: at least one, the control word on every beat (the block reads the first). */
    public List<BigInteger> beats(AxiCommand c) {
        List<BigInteger> list = new ArrayList<>();
        int lanes = axi.beatBytes();
        int n = Math.max(1, (c.data().length + lanes - 1) / lanes);
        for (int k = 0; k < n; k++) {
            BigInteger data = BigInteger.ZERO;
            for (int i = 0; i < lanes && k * lanes + i < c.data().length; i++) {
                data = data.or(BigInteger.valueOf(c.data()[k * lanes + i] & 0xFF).shiftLeft(8 * i));
            }
            list.add(layout.word().set("data", data).set("control", c.control()).set("xpuid", c.xpuid())
                    .set("vc", c.vc()).set("tlast", k == n - 1 ? 1 : 0).toBigInteger());
        }
        return list;
    }

    /** Takes a beat; returns the command it ends, or null. */
    public AxiCommand add(BigInteger beat) {
        gathering.add(beat);
        if (layout.field("tlast").get(beat) == 0) {
            return null;
        }
        BigInteger first = gathering.get(0);
        BigInteger control = layout.field("control").getBig(first);
        int length = CommandControl.length(control);
        byte[] data = new byte[length];
        for (int i = 0; i < length; i++) {
            BigInteger lanes = layout.field("data").getBig(gathering.get(i / axi.beatBytes()));
            data[i] = lanes.shiftRight(8 * (i % axi.beatBytes())).byteValue();
        }
        gathering.clear();
        return new AxiCommand(control, (int) layout.field("xpuid").get(first), (int) layout.field("vc").get(first),
                data);
    }
}
