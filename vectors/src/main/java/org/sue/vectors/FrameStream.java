package org.sue.vectors;

import java.util.Random;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;

/**
 * Drives random frames onto an {@code s_axis} flow (no tready), back to back, with idle cycles at the given rate.
 * Lengths mix single bytes, exact bus multiples and random sizes; keep carries junk on beats that are not last.
 */
public final class FrameStream implements GoldenScenario.Stimulus {
    private final int lanes;
    private final double idleRate;
    private int remaining;

    public FrameStream(int lanes, double idleRate) {
        this.lanes = lanes;
        this.idleRate = idleRate;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (rnd.nextDouble() < idleRate) {
            sim.poke("s_axis_tvalid", 0);
            return;
        }
        if (remaining == 0) {
            remaining = switch (rnd.nextInt(4)) {
                case 0 -> 1 + rnd.nextInt(3);
                case 1 -> lanes * (1 + rnd.nextInt(3));
                default -> 1 + rnd.nextInt(lanes * 6);
            };
        }
        int n = Math.min(lanes, remaining);
        remaining -= n;
        boolean last = remaining == 0;
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = (byte) rnd.nextInt(256);
        }
        long[] data = Beats.data(bytes, 0, n, lanes);
        long[] keep = new long[(lanes + 63) / 64];
        for (int i = 0; i < lanes; i++) {
            if (last ? i < n : rnd.nextBoolean()) {
                keep[i / 64] |= 1L << (i % 64);
            }
        }
        sim.poke("s_axis_tvalid", 1);
        sim.poke("s_axis_tdata", data);
        sim.poke("s_axis_tkeep", keep);
        sim.poke("s_axis_tlast", last ? 1 : 0);
    }
}
