package org.sue.verilator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.sue.core.Hw;
import org.sue.net.SueMeta;
import org.sue.transport.TransportConfig;

/**
 * The receiver's per-source tables are RAM, not flip-flops: Yosys infers exactly two memories, the expected-PSN
 * table (PSN and ACK count per source) and the owed queue (source and cycle per source); the 4-entry urgent queue is
 * registers (each entry follows its source's owed flags).
 */
class TransportRxSynthTest {
    @Test
    void perSourceTablesAreRam() {
        TransportConfig config = TransportConfig.defaults(1024); // as DefaultDesigns' transport_rx_w1024
        SynthReport s = DefaultDesignRtl.synth("transport_rx_w1024"); // the quality test's synthesis, run once
        int d = config.destinations();
        int cw = config.connectionWidth();
        long expectedPsns = (long) d * (SueMeta.PSN_WIDTH + Hw.log2Up(config.ackCount()));
        long owedQueue = (long) d * (cw + TransportConfig.TIME_WIDTH);
        assertEquals(2, s.memories(), "memories inferred: " + s.cellTypes());
        assertEquals(expectedPsns + owedQueue, s.memoryBits(), "memory bits");
        System.out.printf("TransportRx default (%d sources): %d cells, %d flip-flops, %d memory bits, depth %d%n", d,
                s.cells(), s.flipFlops(), s.memoryBits(), s.depth());
    }
}
