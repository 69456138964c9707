package org.sue.vectors;

import java.util.Random;
import org.sue.lib.stream.model.Beats;
import org.sue.net.NetConfig;
import org.sue.net.tb.FrameDamage;
import org.sue.net.tb.LoopbackRun;
import org.sue.sim.Simulator;

/**
 * Drives a {@link org.sue.net.FrameReceiver}: good and damaged frames ({@link FrameDamage}) back to back or with
 * random gaps, the receiver's identity on its local_* inputs, random backpressure on the output.
 */
public final class DamagedFrameStream implements GoldenScenario.Stimulus {
    private final NetConfig net;
    private final int lanes;
    private final LoopbackRun.Peers peers;
    private byte[] frame;
    private int offset;

    public DamagedFrameStream(NetConfig net, int lanes) {
        this.net = net;
        this.lanes = lanes;
        this.peers = LoopbackRun.Peers.of(net);
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        peers.setIdentity(sim);
        sim.poke("m_axis_tready", rnd.nextInt(8) > 0 ? 1 : 0);
        boolean valid = rnd.nextInt(5) > 0;
        sim.poke("s_axis_tvalid", valid ? 1 : 0);
        if (!valid) {
            return;
        }
        if (frame == null) {
            frame = FrameDamage.frame(net, peers, rnd, 700);
            offset = 0;
        }
        int n = Math.min(lanes, frame.length - offset);
        sim.poke("s_axis_tdata", Beats.data(frame, offset, n, lanes));
        sim.poke("s_axis_tkeep", Beats.keep(n, lanes));
        sim.poke("s_axis_tlast", offset + n >= frame.length ? 1 : 0);
        offset += lanes;
        if (offset >= frame.length) {
            frame = null;
        }
    }
}
