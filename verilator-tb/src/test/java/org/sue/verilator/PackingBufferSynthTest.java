package org.sue.verilator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.sue.cmd.PackingBuffer;
import org.sue.core.Design;
import org.sue.gen.VerilogEmitter;

/**
 * The packing buffers are one shared memory, not a FIFO per queue: Yosys infers the cell store and the queue tables
 * as RAMs, and going from 16 to 1024 destinations (64 to 4096 queues) adds table rows, not flip-flops.
 */
class PackingBufferSynthTest {
    static final Path OUT = Path.of("target", "packing-synth").toAbsolutePath();

    static SynthReport synth(int destinations) {
        VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(new PackingBuffer(
                PackingBuffer.Config.defaults(512, 256, destinations))), OUT.resolve("d" + destinations));
        return Yosys.synth(r.files(), r.topModule());
    }

    @Test
    void sharedBufferIsRamAndFlipFlopsDoNotGrowWithDestinations() {
        CompletableFuture<SynthReport> manyRun = CompletableFuture.supplyAsync(() -> synth(1024)); // Yosys is one thread
        SynthReport few = synth(16);
        SynthReport many = manyRun.join();
        long cellStore = 256L * 512;
        // cells, cell_link, cmd_info, next_cmd, queue_state, and the FIFOs' memories
        assertTrue(few.memories() >= 5, few.memories() + " memories inferred: " + few.cellTypes());
        assertTrue(few.memoryBits() >= cellStore, few.memoryBits() + " memory bits, the cell store alone has "
                + cellStore);
        // 4032 more queue-table rows of at least 2*8+9+1 bits each land in RAM
        assertTrue(many.memoryBits() - few.memoryBits() >= 4032L * 26, few.memoryBits() + " -> " + many.memoryBits()
                + " memory bits");
        // flip-flops grow only with the width of a queue number (6 -> 12 bits in a few registers)
        assertTrue(many.flipFlops() - few.flipFlops() < 200, few.flipFlops() + " -> " + many.flipFlops()
                + " flip-flops from 16 to 1024 destinations");
        System.out.printf("PackingBuffer 512x256: 16 destinations %d cells %d ffs %d mem bits; 1024: %d %d %d%n",
                few.cells(), few.flipFlops(), few.memoryBits(), many.cells(), many.flipFlops(), many.memoryBits());
    }
}
