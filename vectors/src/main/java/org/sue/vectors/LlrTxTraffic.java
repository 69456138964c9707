package org.sue.vectors;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.sue.lib.stream.model.Beats;
import org.sue.link.LinkControl;
import org.sue.link.LlrConfig;
import org.sue.link.LlrSideband;
import org.sue.sim.Simulator;

/**
 * Drives an {@link org.sue.link.LlrTx} as a scripted peer would: frames of random sizes (some poisoned) with random
 * gaps, a MAC that stalls, INIT answered after a delay, mostly ACKs of the newest frame seen, some NACKs of an older
 * one, some numbers out of the window; and, as the {@link Schedule} says, a quiet spell without ACKs, spells of a lost
 * link ({@code link_up} low) and {@code llr_enable} taken away.
 */
final class LlrTxTraffic implements GoldenScenario.Stimulus {
    /** Cycles {@code from} (included) to {@code to} (excluded) of each period. */
    record Window(long from, long to) {
        boolean has(long phase) {
            return phase >= from && phase < to;
        }
    }

    /** What happens when, every {@code period} cycles: no ACKs, the link down, LLR disabled. */
    record Schedule(long period, Window quiet, List<Window> linkDown, Window disabled) {
        /**
         * A quiet spell that runs the replay count out (FLUSH, then INIT again), a short and a long loss of the
         * link, {@code llr_enable} taken away once.
         */
        static final Schedule EVERYTHING = new Schedule(4000, new Window(2000, 3000),
                List.of(new Window(1500, 1520), new Window(3500, 3800)), new Window(3900, 3950));

        /** The link down for {@code down} cycles from cycle {@code from}, no ACKs meanwhile: a flap, recorded once. */
        static Schedule flap(long cycles, long from, long down) {
            Window flap = new Window(from, from + down);
            return new Schedule(cycles, flap, List.of(flap), new Window(0, 0));
        }
    }

    private static final int MASK = (1 << LinkControl.SEQ_WIDTH) - 1;
    private final LlrConfig config;
    private final Schedule schedule;
    private byte[] frame;
    private boolean poisoned;
    private int offset;
    private long echoAt = -1;
    private long echoValue;
    private int newest = -1;
    private boolean stalled;

    LlrTxTraffic(LlrConfig config, Schedule schedule) {
        this.config = config;
        this.schedule = schedule;
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
        long phase = cycle % schedule.period();
        boolean quiet = schedule.quiet().has(phase); // no ACKs: the replay count runs out
        sim.poke("llr_enable", schedule.disabled().has(phase) ? 0 : 1);
        sim.poke("link_up", schedule.linkDown().stream().anyMatch(w -> w.has(phase)) ? 0 : 1);
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
