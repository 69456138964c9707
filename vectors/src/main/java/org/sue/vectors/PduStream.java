package org.sue.vectors;

import java.util.Random;
import org.sue.lib.stream.tb.PacketBeats;
import org.sue.net.NetConfig;
import org.sue.net.SueMeta;
import org.sue.net.tb.LoopbackRun;
import org.sue.sim.Simulator;

/**
 * Drives a {@link org.sue.net.FrameTransmitter}: writes the header table in the first cycles, then random PDUs (1 to
 * maxCommands command bytes, SueMeta tuser with a matching len) with random gaps and random backpressure.
 */
public final class PduStream implements GoldenScenario.Stimulus {
    private final NetConfig net;
    private final int lanes;
    private final int maxCommands;
    private final LoopbackRun.Peers peers;
    private PacketBeats beats;

    public PduStream(NetConfig net, int lanes, int maxCommands) {
        this.net = net;
        this.lanes = lanes;
        this.maxCommands = maxCommands;
        this.peers = LoopbackRun.Peers.of(net);
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        int entries = peers.table().length;
        boolean writing = cycle < entries;
        sim.poke("tbl_wr_valid", writing ? 1 : 0);
        sim.poke("tbl_wr_addr", cycle % entries);
        sim.poke("tbl_wr_data", LoopbackRun.headerTemplate(net, peers.table()[(int) (cycle % entries)]));
        sim.poke("m_axis_tready", rnd.nextInt(5) > 0 ? 1 : 0);
        if (writing) {
            sim.poke("s_axis_tvalid", 0);
            return;
        }
        if (beats == null) {
            beats = new PacketBeats(sim, "s_axis");
        }
        if (beats.idle()) {
            byte[] pdu = new byte[1 + rnd.nextInt(maxCommands)];
            rnd.nextBytes(pdu);
            SueMeta meta = new SueMeta(rnd.nextInt(entries), rnd.nextInt(1024), rnd.nextInt(4), rnd.nextInt(1 << 16),
                    rnd.nextInt(4), rnd.nextInt(1 << 16), rnd.nextInt(1024), rnd.nextInt(4), false, pdu.length);
            beats.start(pdu, meta.pack());
        }
        beats.offer(rnd.nextInt(6) > 0, null);
        beats.advance();
    }
}
