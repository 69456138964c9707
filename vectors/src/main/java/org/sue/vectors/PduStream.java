package org.sue.vectors;

import java.util.Random;
import org.sue.lib.stream.model.Beats;
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
    private byte[] pdu;
    private SueMeta meta;
    private int offset;

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
        if (pdu == null) {
            pdu = new byte[1 + rnd.nextInt(maxCommands)];
            rnd.nextBytes(pdu);
            meta = new SueMeta(rnd.nextInt(entries), rnd.nextInt(1024), rnd.nextInt(4), rnd.nextInt(1 << 16),
                    rnd.nextInt(4), rnd.nextInt(1 << 16), rnd.nextInt(1024), 0, false, pdu.length);
            offset = 0;
        }
        boolean valid = rnd.nextInt(6) > 0;
        int n = Math.min(lanes, pdu.length - offset);
        boolean last = offset + n >= pdu.length;
        sim.poke("s_axis_tvalid", valid ? 1 : 0);
        sim.poke("s_axis_tdata", Beats.data(pdu, offset, n, lanes));
        sim.poke("s_axis_tkeep", Beats.keep(n, lanes));
        sim.poke("s_axis_tlast", last ? 1 : 0);
        sim.poke("s_axis_tuser", meta.pack());
        if (valid && sim.peek("s_axis_tready") == 1) {
            offset += lanes;
            if (last) {
                pdu = null;
            }
        }
    }
}
