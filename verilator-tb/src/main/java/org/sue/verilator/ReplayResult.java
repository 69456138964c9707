package org.sue.verilator;

import java.nio.file.Path;
import java.util.List;

/**
 * Outcome of replaying a vector file on Verilog in Verilator. {@code replayNanos} times the replay loop alone (no
 * build, no process start); {@code waveform} is set when a mismatch left a VCD behind.
 */
public record ReplayResult(long cycles, long mismatchCount, List<String> firstMismatches, long replayNanos,
                           Path waveform, boolean rebuilt, double buildSeconds) {
    public boolean passed() {
        return mismatchCount == 0;
    }

    public double cyclesPerSecond() {
        return cycles * 1e9 / Math.max(1, replayNanos);
    }
}
