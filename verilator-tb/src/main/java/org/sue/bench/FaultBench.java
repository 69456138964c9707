package org.sue.bench;

import java.util.function.BiConsumer;
import org.sue.gen.DefaultDesigns;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.FaultScenarios;
import org.sue.link.CbfcConfig;

/**
 * Peers that stall or die, for {@code scripts/bench faults} (docs/protocol.md 6.7, 9.4):
 *
 * <ul>
 * <li>{@code pfc_stall_overflow_drops}, {@code cbfc_stall_overflow_drops}: receive-FIFO overflow drops at both
 * instances of {@code configs/small_fpga.json} (LLR and PFC; the same with CBFC) over links of 50 cycles, random
 * commands both ways, both XPUs holding every receive credit for 20,000 cycles then taking commands again.
 * <li>{@code dead_destination_detect_cycles}: cycles from a destination freezing (one XPU sending round robin to four
 * through a switch) to its declaration as unreachable; {@code dead_destination_live_goodput}: the three live
 * destinations' goodput in the second half of the 40,000 frozen cycles relative to before;
 * {@code dead_destination_recovery_cycles}: cycles from its return to the sender seeing it back.
 * </ul>
 */
final class FaultBench {
    private FaultBench() {
    }

    static void measure(BiConsumer<String, Double> put) {
        SueInstance.Config pfc = DefaultDesigns.smallInstance(); // configs/small_fpga.json
        SueInstance.Config cbfc = pfc.withPfc(null).withCbfc(CbfcConfig.builder().build(pfc.busWidth(),
                pfc.rxFifoBytes(), pfc.largestFrame()));
        for (SueInstance.Config c : new SueInstance.Config[] {pfc, cbfc}) {
            String mode = c.pfc() != null ? "pfc" : "cbfc";
            long t0 = System.nanoTime();
            FaultScenarios.Stall s = FaultScenarios.stalledXpus(c, 50, 20_000);
            put.accept(mode + "_stall_overflow_drops", (double) s.overflowDrops());
            System.out.printf("faults: %s, both XPUs held 20,000 cycles: %d overflow drops, delivered intact %s (%.0f"
                    + " s)%n", mode, s.overflowDrops(), s.ok(), (System.nanoTime() - t0) / 1e9);
        }
        long t0 = System.nanoTime();
        FaultScenarios.Death d = FaultScenarios.deadDestination(FaultScenarios.deadDestinationConfig(), 40_000);
        put.accept("dead_destination_detect_cycles", (double) d.detectCycles());
        put.accept("dead_destination_live_goodput", Bench.round(d.liveDuring() / d.liveBefore(), 3));
        put.accept("dead_destination_recovery_cycles", (double) d.backCycles());
        System.out.printf("faults: a destination of four frozen 40,000 cycles: declared after %d cycles, %d probes,"
                + " live goodput %.1f -> %.1f bytes/cycle, back %d cycles after its return, all delivered %s (%.0f"
                + " s)%n", d.detectCycles(), d.probes(), d.liveBefore(), d.liveDuring(), d.backCycles(),
                d.result().ok(), (System.nanoTime() - t0) / 1e9);
    }
}
