package org.sue.verilator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sue.core.Hw;
import org.sue.instance.SueInstance;
import org.sue.instance.SueManagedInstance;
import org.sue.link.LlrConfig;
import org.sue.net.SueMeta;
import org.sue.transport.TransportConfig;

/**
 * In the whole default instance the transport's big tables and LLR's replay buffer stay RAM: the retransmit store (beat ring and record ring),
 * the sender's PSN tables ({@code next_psn}, {@code una}) and the receiver's expected-PSN table are each inferred as
 * a memory of their full size, not flattened into flip-flops by the way the instance connects them.
 */
class SueInstanceSynthTest {
    @Test
    void retransmitStorePsnTablesAndReplayBufferAreRam() {
        SueInstance.Config config = SueInstance.Config.defaults(); // as DefaultDesigns' sue_instance
        assertEquals(new SueManagedInstance(new SueManagedInstance.Config(config)).moduleName(),
                DefaultDesignRtl.verilog("sue_instance").topModule());
        SynthReport s = DefaultDesignRtl.elaboration("sue_instance"); // the quality test's, run once
        TransportConfig t = config.transport();
        int d = t.destinations();
        int beats = t.storeBeats();
        int record = Hw.log2Up(beats) + t.connectionWidth() + SueMeta.VC_WIDTH + SueMeta.LEN_WIDTH
                + SueMeta.PSN_WIDTH; // start beat, destination, VC, length, PSN
        Map<String, SynthReport.Memory> m = s.memoryShapes();
        assertEquals(new SynthReport.Memory(t.busWidth(), beats), m.get("sue.transport_tx.store_beat_ring"), "" + m);
        assertEquals(new SynthReport.Memory(record, beats), m.get("sue.transport_tx.store_record_ring"), "" + m);
        assertEquals(new SynthReport.Memory(SueMeta.PSN_WIDTH, d), m.get("sue.transport_tx.next_psn"), "" + m);
        assertEquals(new SynthReport.Memory(SueMeta.PSN_WIDTH, d), m.get("sue.transport_tx.una"), "" + m);
        assertEquals(new SynthReport.Memory(SueMeta.PSN_WIDTH + Hw.log2Up(t.ackCount()), d),
                m.get("sue.transport_rx.connections"), "expected PSN and ACK count per source: " + m);
        LlrConfig llr = config.llr(); // the replay buffer: a beat (data, bytes, last, poisoned) per slot, a record per number
        int lanes = llr.beatBytes();
        assertEquals(new SynthReport.Memory(llr.dataWidth() + Hw.log2Up(lanes) + 2, llr.bufferBeats()),
                m.get("sue.llr_tx.replay_ring"), "" + m);
        assertEquals(llr.recordCount(), m.get("sue.llr_tx.frame_records").size(), "" + m);
        long listed = m.values().stream().mapToLong(SynthReport.Memory::bits).sum();
        assertEquals(s.memories(), m.size(), "every memory listed");
        assertEquals(s.memoryBits(), listed, "the listed memories' bits add up to Yosys' count");
        assertTrue(s.latches() == 0 && s.flipFlops() > 0, s.cellTypes().toString());
        System.out.printf("SueInstance default, elaborated: %d word-level cells, %d flip-flop bits, %d memories, %d "
                + "memory bits%n", s.cells(), s.flipFlops(), s.memories(), s.memoryBits());
        m.forEach((name, mem) -> System.out.printf("  %-50s %6d x %4d = %9d bits%n", name, mem.size(), mem.width(),
                mem.bits()));
    }
}
