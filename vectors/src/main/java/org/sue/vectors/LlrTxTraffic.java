package org.sue.vectors;

import java.math.BigInteger;
import java.util.Random;
import org.sue.lib.stream.model.Beats;
import org.sue.link.LinkControl;
import org.sue.link.LlrConfig;
import org.sue.link.LlrSideband;
import org.sue.sim.Simulator;

/**
 * Drives an {@link org.sue.link.LlrTx} as a scripted peer would: frames of random sizes (some poisoned) with random
 * gaps, a MAC that stalls, INIT answered after a delay, mostly ACKs of the newest frame seen, some NACKs of an older
 * one, some numbers out of the window, a quiet spell that runs the replay count out (FLUSH, then INIT again), a
 * lost link and {@code llr_enable} taken away once.
 */
final class LlrTxTraffic implements GoldenScenario.Stimulus {
    private static final int MASK = (1 << LinkControl.SEQ_WIDTH) - 1;
    private final LlrConfig config;
    private byte[] frame;
    private boolean poisoned;
    private int offset;
    private long echoAt = -1;
    private long echoValue;
    private int newest = -1;
    private boolean stalled;

    LlrTxTraffic(LlrConfig config) {
        this.config = config;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        LinkControl.Codes codes = config.codes();
        int lanes = config.beatBytes();
        if (sim.peek("ctl_out_valid") == 1 && sim.peek("ctl_out_ready") == 1) {
            echoAt = cycle + 5 + rnd.nextInt(20);
            echoValue = sim.peek("ctl_out_value");
        }
        if (sim.peek("m_axis_tvalid") == 1 && sim.peek("m_axis_tready") == 1) {
            BigInteger user = sim.peekBig(sim.handle("m_axis_tuser"));
            if (LlrSideband.TX.field("llr").get(user) == 1) {
                newest = (int) LlrSideband.TX.field("seq").get(user);
            }
        }
        long phase = cycle % 4000;
        boolean quiet = phase >= 2000 && phase < 3000; // no ACKs: the replay count runs out
        sim.poke("llr_enable", phase >= 3900 && phase < 3950 ? 0 : 1);
        sim.poke("link_up", phase >= 1500 && phase < 1520 || phase >= 3500 && phase < 3800 ? 0 : 1);
        boolean echo = echoAt == cycle;
        boolean ack = !echo && !quiet && newest >= 0 && rnd.nextInt(12) == 0;
        int kind = rnd.nextInt(10);
        long value = kind == 0 ? rnd.nextInt(MASK + 1) : kind < 3 ? (newest - 1 - rnd.nextInt(6)) & MASK : newest & MASK;
        sim.poke("ctl_in_valid", echo || ack ? 1 : 0);
        sim.poke("ctl_in_type", echo ? codes.initEcho() : kind < 3 && kind > 0 ? codes.nack() : codes.ack());
        sim.poke("ctl_in_value", echo ? echoValue : value);
        sim.poke("ctl_in_vc", 0);
        sim.poke("ctl_out_ready", rnd.nextInt(4) > 0 ? 1 : 0);
        sim.poke("m_axis_tready", rnd.nextInt(5) > 0 ? 1 : 0);
        boolean valid = rnd.nextInt(5) > 0 || stalled; // a beat not taken at the last edge is offered again
        sim.poke("s_axis_tvalid", valid ? 1 : 0);
        if (frame == null) {
            frame = new byte[1 + rnd.nextInt(rnd.nextInt(6) == 0 ? config.maxFrameBytes() : 2 * lanes)];
            rnd.nextBytes(frame);
            poisoned = rnd.nextInt(15) == 0;
            offset = 0;
        }
        int n = Math.min(lanes, frame.length - offset);
        sim.poke("s_axis_tdata", Beats.data(frame, offset, n, lanes));
        sim.poke("s_axis_tkeep", Beats.keep(n, lanes));
        sim.poke("s_axis_tlast", offset + n >= frame.length ? 1 : 0);
        sim.poke("s_axis_tuser", poisoned ? 1 : 0);
        stalled = valid && sim.peek("s_axis_tready") == 0;
        if (valid && !stalled) {
            offset += lanes;
            if (offset >= frame.length) {
                frame = null;
            }
        }
    }
}
