package org.sue.vectors;

import java.util.ArrayDeque;
import java.util.Random;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;

/**
 * Drives a {@link org.sue.lib.stream.PacketFifo}: random packets on an {@code s_axis} stream that cannot be stalled,
 * with random gaps; each packet's verdict (a quarter of them "drop", tuser = packet number) two to five cycles after
 * its last beat, in order; random backpressure on {@code m_axis_tready}.
 */
public final class JudgedPacketStream implements GoldenScenario.Stimulus {
    private final int lanes;
    private final int maxBytes;
    private final ArrayDeque<long[]> verdicts = new ArrayDeque<>(); // {due cycle, drop, user}
    private int remaining;
    private long packets;
    private long lastDue;

    public JudgedPacketStream(int lanes, int maxBytes) {
        this.lanes = lanes;
        this.maxBytes = maxBytes;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        boolean valid = rnd.nextInt(6) > 0;
        sim.poke("s_axis_tvalid", valid ? 1 : 0);
        if (valid) {
            if (remaining == 0) {
                remaining = 1 + rnd.nextInt(maxBytes);
            }
            int n = Math.min(lanes, remaining);
            byte[] bytes = new byte[n];
            rnd.nextBytes(bytes);
            remaining -= n;
            sim.poke("s_axis_tdata", Beats.data(bytes, 0, n, lanes));
            sim.poke("s_axis_tkeep", Beats.keep(n, lanes));
            sim.poke("s_axis_tlast", remaining == 0 ? 1 : 0);
            if (remaining == 0) {
                lastDue = Math.max(lastDue + 1, cycle + 2 + rnd.nextInt(4));
                verdicts.add(new long[] {lastDue, rnd.nextInt(4) == 0 ? 1 : 0, packets++ & 0xffff});
            }
        }
        long[] v = verdicts.peek();
        boolean give = v != null && v[0] <= cycle;
        sim.poke("verdict_valid", give ? 1 : 0);
        if (give) {
            verdicts.poll();
            sim.poke("verdict_drop", v[1]);
            sim.poke("verdict_user", v[2]);
        }
        sim.poke("m_axis_tready", rnd.nextInt(4) > 0 ? 1 : 0);
    }
}
