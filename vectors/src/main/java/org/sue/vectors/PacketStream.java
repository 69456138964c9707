package org.sue.vectors;

import java.math.BigInteger;
import java.util.Random;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;

/**
 * Drives random packets (with tuser, and a random per-packet header on {@code s_hdr} unless headerBytes is 0) into an
 * {@code s_axis} stream,
 * with random gaps, and random backpressure on {@code m_axis_tready}; honours {@code s_axis_tready}.
 */
public final class PacketStream implements GoldenScenario.Stimulus {
    private final int lanes;
    private final int headerBytes;
    private final int maxBytes;
    private byte[] payload;
    private BigInteger header;
    private long user;
    private int offset;

    public PacketStream(int lanes, int headerBytes, int maxBytes) {
        this.lanes = lanes;
        this.headerBytes = headerBytes;
        this.maxBytes = maxBytes;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        // the beat offered in the previous cycle was taken if tready was high then (sampled before this edge)
        if (payload == null) {
            payload = new byte[1 + rnd.nextInt(maxBytes)];
            rnd.nextBytes(payload);
            header = headerBytes == 0 ? null : new BigInteger(8 * headerBytes, rnd);
            user = rnd.nextInt(1 << 16);
            offset = 0;
        }
        boolean valid = rnd.nextInt(6) > 0;
        int n = Math.min(lanes, payload.length - offset);
        boolean last = offset + n >= payload.length;
        sim.poke("s_axis_tvalid", valid ? 1 : 0);
        sim.poke("s_axis_tdata", Beats.data(payload, offset, n, lanes));
        sim.poke("s_axis_tkeep", Beats.keep(last ? n : lanes, lanes));
        sim.poke("s_axis_tlast", last ? 1 : 0);
        sim.poke("s_axis_tuser", user);
        if (header != null) {
            sim.poke("s_hdr", header);
        }
        sim.poke("m_axis_tready", rnd.nextInt(4) > 0 ? 1 : 0);
        if (valid && sim.peek("s_axis_tready") == 1) {
            offset += lanes;
            if (last) {
                payload = null;
            }
        }
    }
}
