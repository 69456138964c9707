package org.sue.vectors;

import java.util.Random;
import java.util.function.Supplier;
import org.sue.core.Component;
import org.sue.core.ResetStyle;
import org.sue.sim.Simulator;

/**
 * One committed golden-vector file: a block configuration, a reset style and a seeded stimulus. The stimulus may react
 * to outputs (a well-behaved sender watches ready); the vectors record what actually happened on every port.
 */
public record GoldenScenario(String name, Supplier<Component> build, ResetStyle resetStyle, long cycles,
                             Supplier<Stimulus> stimulus) {
    /** Pokes the inputs of one cycle. */
    public interface Stimulus {
        void drive(Simulator sim, long cycle, Random rnd);
    }

    public GoldenScenario {
        if (!name.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("scenario name must be lower-case letters, digits and '_': " + name);
        }
        if (cycles < 1) {
            throw new IllegalArgumentException("scenario " + name + ": cycles must be positive");
        }
    }

    /** Seed of the stimulus, derived from the name so each file is reproducible on its own. */
    public long seed() {
        return name.hashCode() * 0x9E3779B97F4A7C15L;
    }
}
