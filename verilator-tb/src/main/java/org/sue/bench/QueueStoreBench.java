package org.sue.bench;

import java.nio.file.Path;
import java.util.Random;
import java.util.function.BiConsumer;
import org.sue.cmd.QueueStore;
import org.sue.cmd.tb.QueueStoreTraffic;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.sim.Simulator;

/**
 * {@link QueueStore} figures for {@code scripts/bench}, 1024-bit cells, 4096 cells, 1024 destinations:
 *
 * <ul>
 * <li>{@code queue_store_drain_bytes_per_cycle_<size>}: bytes per cycle on {@code m_axis} while a backlog of
 * {@code size}-byte commands to 64 queues is read as runs of 2 KiB, from the first beat to the last (the bus
 * carries 128 bytes).
 * <li>{@code queue_store_jvm_cycles_per_s}, {@code _verilator_cycles_per_s} and the other figures of
 * {@link SimSpeedBench}: 20,000 cycles of the traffic to 64 queues replayed.
 * <li>{@code queue_store_cells}, {@code _ffs}, {@code _mem_bits}: Yosys.
 * </ul>
 */
final class QueueStoreBench {
    private QueueStoreBench() {
    }

    static final QueueStore.Config CONFIG = new QueueStore.Config(1024, 4096, 1024);

    static void measure(BiConsumer<String, Double> put, Path out) {
        for (int size : new int[] {16, 64, 256}) {
            double bytes = drain(size);
            put.accept("queue_store_drain_bytes_per_cycle_" + size, Bench.round(bytes, 1));
            System.out.printf("queue store: a backlog of %3d-byte commands drains at %.1f bytes/cycle of %d%n", size,
                    bytes, CONFIG.cellBytes());
        }
        SimSpeedBench.measure(speedCase(), out, put, true);
        Design design = Design.elaborate(new QueueStore(CONFIG));
        FramingBench.synthFigures("queue_store", design, out, put);
    }

    /** 20,000 cycles of the traffic to 64 queues, for the simulator speed figures. */
    static SimSpeedBench.Case speedCase() {
        return new SimSpeedBench.Case("queue_store", "queue store", () -> Design.elaborate(new QueueStore(CONFIG)),
                (design, manifest) -> {
                    try (Simulator sim = Simulator.compile(design)) {
                        sim.record(manifest);
                        sim.reset();
                        QueueStoreTraffic traffic = new QueueStoreTraffic(CONFIG, sim);
                        traffic.queues = 64;
                        Random rnd = new Random(9);
                        for (int c = 0; c < 20_000; c++) {
                            traffic.drive(rnd);
                            sim.step();
                        }
                    }
                });
    }

    /** Fills most of the cells with {@code size}-byte commands to 64 queues, then reads everything back. */
    static double drain(int size) {
        try (Simulator sim = Simulator.compile(Design.elaborate(new QueueStore(CONFIG)))) {
            sim.reset();
            QueueStoreTraffic traffic = new QueueStoreTraffic(CONFIG, sim);
            traffic.queues = 64;
            traffic.minCommandBytes = size;
            traffic.maxCommandBytes = size;
            traffic.sendPercent = 100;
            traffic.requestPercent = 0;
            Random rnd = new Random(size);
            while (sim.peek("cells_in_use") < CONFIG.cells() * 7 / 8) {
                traffic.drive(rnd);
                sim.step();
            }
            traffic.sendPercent = 0;
            traffic.requestPercent = 100;
            traffic.readyPercent = 100;
            long bytes = 0;
            long first = -1;
            long last = 0;
            StreamMonitor monitor = new StreamMonitor(sim, "m_axis", null);
            while (!traffic.allRequested() || monitor.packets().size() < traffic.expectedRuns().size()) {
                traffic.drive(rnd);
                if (sim.peek("m_axis_tvalid") == 1) {
                    first = first < 0 ? sim.cycle() : first;
                    last = sim.cycle();
                    bytes += Long.bitCount(sim.peekWide("m_axis_tkeep")[0]) + Long.bitCount(
                            sim.peekWide("m_axis_tkeep")[1]);
                }
                sim.step();
            }
            return bytes / (double) (last - first + 1);
        }
    }
}
