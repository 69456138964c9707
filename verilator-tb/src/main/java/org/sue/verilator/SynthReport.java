package org.sue.verilator;

import java.util.Map;

/**
 * Figures from a Yosys run ({@link Yosys}): total cells, flip-flop bits, latch bits, logic depth (longest topological
 * path between flip-flops/ports, in cells, from {@code ltp -noff}; -1 where not measured), the memories inferred as
 * RAM (count, bits, and each by its flattened name, e.g. {@code transport_tx.una}) and cell counts by type. After an
 * elaboration the cells are word-level ({@code $dff_32} is one cell of 32 flip-flop bits) and nothing is optimised
 * away yet; after synthesis they are gates.
 */
public record SynthReport(String top, int cells, int flipFlops, int latches, int depth, int memories,
                          long memoryBits, Map<String, Memory> memoryShapes, Map<String, Integer> cellTypes,
                          String log) {
    /** An inferred memory: {@code size} words of {@code width} bits. */
    public record Memory(int width, long size) {
        public long bits() {
            return width * size;
        }
    }
}
