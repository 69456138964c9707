package org.sue.verilator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.sue.core.Hw;
import org.sue.net.SueMeta;
import org.sue.transport.TransportConfig;
import org.sue.transport.TransportRx;

/**
 * The receiver's per-source tables are RAM, not flip-flops: Yosys infers exactly three memories, the expected-PSN
 * table (PSN and ACK count per source), the owed queue (source and cycle per source) and the urgent queue.
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
        long urgentQueue = (long) TransportRx.URGENT_DEPTH * cw;
        assertEquals(3, s.memories(), "memories inferred: " + s.cellTypes());
        assertEquals(expectedPsns + owedQueue + urgentQueue, s.memoryBits(), "memory bits");
        System.out.printf("TransportRx default (%d sources): %d cells, %d flip-flops, %d memory bits, depth %d%n", d,
                s.cells(), s.flipFlops(), s.memoryBits(), s.depth());
    }
}
