package org.sue.verilator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.sue.core.Design;
import org.sue.core.Hw;
import org.sue.gen.VerilogEmitter;
import org.sue.net.SueMeta;
import org.sue.transport.TransportConfig;
import org.sue.transport.TransportRx;

/**
 * The receiver's per-source tables are RAM, not flip-flops: Yosys infers exactly three memories, the expected-PSN
 * table (PSN and ACK count per source), the owed queue (source and cycle per source) and the urgent queue.
 */
class TransportRxSynthTest {
    static final Path OUT = Path.of("target", "transport-rx-synth").toAbsolutePath();

    @Test
    void perSourceTablesAreRam() {
        TransportConfig config = TransportConfig.defaults(1024);
        VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(new TransportRx(config)), OUT);
        SynthReport s = Yosys.synth(r.files(), r.topModule());
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
