package org.sue.vectors;

import java.math.BigInteger;
import java.util.Random;
import org.sue.lib.stream.tb.PacketBeats;
import org.sue.sim.Simulator;

/**
 * Drives random packets (with tuser, and a random per-packet header on {@code s_hdr} unless headerBytes is 0) into an
 * {@code s_axis} stream,
 * with random gaps, and random backpressure on {@code m_axis_tready}; honours {@code s_axis_tready}.
 */
public final class PacketStream implements GoldenScenario.Stimulus {
    private final int headerBytes;
    private final int maxBytes;
    private PacketBeats beats;
    private BigInteger header;

    public PacketStream(int lanes, int headerBytes, int maxBytes) {
        this.headerBytes = headerBytes;
        this.maxBytes = maxBytes;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (beats == null) {
            beats = new PacketBeats(sim, "s_axis");
        }
        if (beats.idle()) {
            byte[] payload = new byte[1 + rnd.nextInt(maxBytes)];
            rnd.nextBytes(payload);
            header = headerBytes == 0 ? null : new BigInteger(8 * headerBytes, rnd);
            beats.start(payload, BigInteger.valueOf(rnd.nextInt(1 << 16)));
        }
        beats.offer(rnd.nextInt(6) > 0, null);
        if (header != null) {
            sim.poke("s_hdr", header);
        }
        sim.poke("m_axis_tready", rnd.nextInt(4) > 0 ? 1 : 0);
        beats.advance();
    }
}
