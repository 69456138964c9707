package org.sue.verilator;

import java.util.Map;

/**
 * Figures from a Yosys {@code synth} run: total cells, flip-flops, latches, logic depth (longest topological path
 * between flip-flops/ports, in cells, from {@code ltp -noff}), and cell counts by type.
 */
public record SynthReport(String top, int cells, int flipFlops, int latches, int depth, int memories,
                          long memoryBits, Map<String, Integer> cellTypes, String log) {
}
