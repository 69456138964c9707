package org.sue.vectors;

import java.util.Random;
import org.sue.lib.stream.model.Beats;
import org.sue.link.LinkControl;
import org.sue.link.LlrConfig;
import org.sue.link.tb.LlrFrames;
import org.sue.sim.Simulator;

/**
 * Drives an {@link org.sue.link.LlrRx}: frames from {@link LlrFrames} with random gaps (a sender that goes back after
 * each NACK it sees, unless the NACK is lost, and after 500 quiet cycles), an INIT at the start and now and then,
 * other control messages, {@code llr_enable} taken away for a while, a control channel that stalls.
 */
final class LlrRxTraffic implements GoldenScenario.Stimulus {
    private final LinkControl.Codes codes;
    private final int lanes;
    private LlrFrames frames;
    private LlrFrames.Frame frame;
    private int offset;
    private int acked;
    private long heard;

    LlrRxTraffic(LlrConfig config) {
        this.codes = config.codes();
        this.lanes = config.beatBytes();
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (frames == null) {
            frames = new LlrFrames(rnd, lanes);
            acked = frames.nextSeq() - 1;
        }
        // the sender hears the receiver's messages
        if (sim.peek("ctl_out_valid") == 1 && sim.peek("ctl_out_ready") == 1) {
            long type = sim.peek("ctl_out_type");
            if (type == codes.ack() || type == codes.nack()) {
                acked = (int) sim.peek("ctl_out_value");
                heard = cycle;
            }
            if (type == codes.nack() && rnd.nextInt(8) > 0) {
                frames.goBackTo(acked + 1);
            }
        }
        if (cycle - heard > 500) {
            frames.goBackTo(acked + 1);
            heard = cycle;
        }
        sim.poke("llr_enable", cycle % 2500 >= 2400 ? 0 : 1);
        boolean init = cycle % 2500 == 2 || cycle % 2500 == 2450;
        boolean other = rnd.nextInt(150) == 0;
        sim.poke("ctl_in_valid", init || other ? 1 : 0);
        sim.poke("ctl_in_type", init ? codes.init() : codes.ack());
        sim.poke("ctl_in_value", init ? frames.nextSeq() : rnd.nextInt(1 << LinkControl.SEQ_WIDTH));
        sim.poke("ctl_in_vc", 0);
        sim.poke("ctl_out_ready", rnd.nextInt(4) > 0 ? 1 : 0);
        boolean valid = frame != null || rnd.nextInt(4) > 0;
        sim.poke("s_axis_tvalid", valid ? 1 : 0);
        if (!valid) {
            return;
        }
        if (frame == null) {
            frame = frames.next();
            offset = 0;
        }
        int n = Math.min(lanes, frame.bytes().length - offset);
        sim.poke("s_axis_tdata", Beats.data(frame.bytes(), offset, n, lanes));
        sim.poke("s_axis_tkeep", Beats.keep(n, lanes));
        sim.poke("s_axis_tlast", offset + n >= frame.bytes().length ? 1 : 0);
        sim.poke("s_axis_tuser", frame.rxUser());
        offset += lanes;
        if (offset >= frame.bytes().length) {
            frame = null;
        }
    }
}
