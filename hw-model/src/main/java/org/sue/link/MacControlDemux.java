package org.sue.link;

import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
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

        Expr isControl = in.perPacket("is_control", etherType(in).eq(ETHER_TYPE));
        in.throwWhen("frames", isControl).into(out);
        in.throwWhen("control", isControl.not()).into(control);
        statusCounter("control_frames", in.valid().and(in.tlast()).and(isControl),
                "MAC Control frames (EtherType 0x8808) taken out of the frames from the MAC");
    }

    /** The EtherType right after a frame's addresses, on its first beat (0 when the beat ends before it). */
    public static Expr etherType(Flow frames) {
        Expr type = ControlFrameInserter.laneOrder(frames.tdata().bits(8 * 14 - 1, 8 * 12));
        return Hw.mux(frames.tkeep().bit(13), type, Hw.zeros(16));
    }
}
