package org.sue.verilator;

import java.nio.file.Path;
import java.util.List;

/**
 * Outcome of replaying a vector file on Verilog in Verilator. {@code replayNanos} times the whole replay loop with
 * file parsing (no build, no process start), {@code simNanos} only the simulation of the parsed cycles;
 * {@code waveform} is set when a mismatch left a VCD behind.
 */
public record ReplayResult(long cycles, long mismatchCount, List<String> firstMismatches, long replayNanos,
                           long simNanos, Path waveform, boolean rebuilt, double buildSeconds) {
    public boolean passed() {
        return mismatchCount == 0;
    }

    /** Simulation speed, parsing excluded. */
    public double cyclesPerSecond() {
        return cycles * 1e9 / Math.max(1, simNanos);
    }

    /** Replay speed including parsing the vector text. */
    public double replayCyclesPerSecond() {
        return cycles * 1e9 / Math.max(1, replayNanos);
    }
}
