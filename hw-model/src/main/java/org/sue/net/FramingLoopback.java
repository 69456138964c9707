package org.sue.net;

import org.sue.core.Component;
import org.sue.core.ModuleName;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;

/**
 * A {@link FrameTransmitter} wired straight into a {@link FrameReceiver}, as if through a cable: PDUs in on
 * {@code s_axis}, the same PDUs out on {@code m_axis} (the receiver's view), the frames on the link visible as
 * {@code tx.m_axis_*}. The receiver cannot stall, so the link's tready is always high. Used by the main job's
 * loopback simulation and the randomised end-to-end tests.
 */
public final class FramingLoopback extends Component {
    /** The two sides, one data width and one net configuration. */
    public record Config(FrameTransmitter.Config tx, FrameReceiver.Config rx) {
        public Config {
            if (tx.dataWidth() != rx.dataWidth() || !ModuleName.describe(tx.net()).equals(ModuleName.describe(rx.net()))) {
                throw new IllegalArgumentException("FramingLoopback needs one data width and one net configuration on"
                        + " both sides");
            }
        }
    }

    public final Stream in;
    public final Stream out;

    public FramingLoopback(FrameTransmitter.Config tx, FrameReceiver.Config rx) {
        super(new Config(tx, rx));
        StreamConfig sc = new StreamConfig(tx.dataWidth(), SueMeta.WIDTH);
        in = Stream.slave(this, sc);
        out = Stream.master(this, sc);
        FrameTransmitter transmitter = child("tx", new FrameTransmitter(tx));
        FrameReceiver receiver = child("rx", new FrameReceiver(rx));
        in.into(transmitter.in);
        Flow.slave(this, "tbl_wr", transmitter.tableWrite.layout()).into(transmitter.tableWrite);
        // the link: every frame's bytes, its metadata left behind (and no MAC error flag)
        transmitter.out.asFlow().retagged("link", receiver.in.layout(), null).into(receiver.in);
        receiver.localXpu.set(in("local_xpu", receiver.localXpu.width()));
        if (receiver.localIp != null) {
            receiver.localIp.set(in("local_ip", receiver.localIp.width()));
        }
        receiver.localPartition.set(in("local_partition", receiver.localPartition.width()));
        receiver.out.into(out);
        exposeStatus(receiver, "");
    }
}
