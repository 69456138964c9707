package org.sue.vectors;

import java.util.Random;
import java.util.function.BiConsumer;
import org.sue.sim.Simulator;

/**
 * A stimulus made of a testbench run that needs the simulator to start: started on the first cycle with a seed drawn
 * from the scenario's generator, then driven once a cycle (the runs of {@code org.sue.*.tb}, which check the block
 * against its reference while the vectors are recorded).
 */
final class RunStimulus<R> implements GoldenScenario.Stimulus {
    /** Starts a run on a simulator with a seed. */
    interface Start<R> {
        R start(Simulator sim, long seed);
    }

    private final Start<R> start;
    private final BiConsumer<R, Random> cycle;
    private R run;

    RunStimulus(Start<R> start, BiConsumer<R, Random> cycle) {
        this.start = start;
        this.cycle = cycle;
    }

    /** The run, once the first cycle started it (for a test that looks at what the recording covered). */
    R run() {
        return run;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (run == null) {
            run = start.start(sim, rnd.nextLong());
        }
        this.cycle.accept(run, rnd);
    }
}
