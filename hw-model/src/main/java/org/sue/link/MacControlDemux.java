package org.sue.link;

import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Reg;
import org.sue.core.Tag;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;

/**
 * Takes the MAC Control frames (EtherType 0x8808 right after the addresses: PFC, CC_Update) out of the frames from
 * the MAC (docs/protocol.md sections 8 and 9): they go to {@code m_axis_ctl} for {@link PfcPause} or
 * {@link CbfcReceiver}, every other frame to {@code m_axis} for the framing receiver. Cut through, no register: the
 * choice is made on a frame's first beat and held to its last. All three streams are flows (the MAC does not wait);
 * tuser (the MAC's bad-frame flag on the last beat) goes along.
 */
public final class MacControlDemux extends Component {
    public static final int ETHER_TYPE = 0x8808;

    public record Config(@Tag("w") int dataWidth) {
        public Config {
            new StreamConfig(dataWidth, 1); // validates the bus width
            if (dataWidth < 128) {
                throw new IllegalArgumentException("MacControlDemux dataWidth must be at least 128 bits (the EtherType"
                        + " in the first beat), got " + dataWidth);
            }
        }
    }

    public final Flow in;
    public final Flow out;
    public final Flow control;

    public MacControlDemux(Config config) {
        super(config);
        int w = config.dataWidth();
        in = Flow.slave(this, "s_axis", Stream.packet(w, 1));
        out = Flow.master(this, "m_axis", in.layout());
        control = Flow.master(this, "m_axis_ctl", in.layout());

        Reg first = reg("first_beat", 1, 1);
        when(in.valid(), () -> first.set(in.tlast()));
        Expr etherType = ControlFrameInserter.laneOrder(in.tdata().bits(8 * 14 - 1, 8 * 12));
        Expr controlNow = etherType.eq(ETHER_TYPE).and(in.tkeep().bit(13));
        Reg controlHeld = regNoReset("frame_is_control", 1);
        when(in.valid().and(first), () -> controlHeld.set(controlNow));
        Expr isControl = wire("is_control", Hw.mux(first, controlNow, controlHeld));
        in.throwWhen("frames", isControl).into(out);
        in.throwWhen("control", isControl.not()).into(control);
        statusCounter("control_frames", in.valid().and(first).and(controlNow),
                "MAC Control frames (EtherType 0x8808) taken out of the frames from the MAC");
    }
}
