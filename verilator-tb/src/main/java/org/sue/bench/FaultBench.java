package org.sue.bench;

import java.util.function.BiConsumer;
import org.sue.gen.DefaultDesigns;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.FaultScenarios;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.link.LlrTx.LlrTxState;

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
 * <li>{@code llr_reinit_cycles}: two instances built from the defaults for a 256-bit XPU (the port as wide as the XPU
 * interface, LLR with the 800G / 40 m profile and its default FLUSH rules, CBFC), links of {@value #DELAY} cycles each
 * way, 256-byte commands both ways; mid-traffic the link goes down (every frame and control message lost,
 * {@code link_up} low on both sides) for {@value #DOWN} cycles, longer than the PCS-lost timeout, so LLR flushes on
 * both sides; the cycles from the one {@code link_up} is high again to the first both sides' LLR is in ADVANCE.
 * </ul>
 */
final class FaultBench {
    private FaultBench() {
    }

    static final int DELAY = 50;
    static final int DOWN = 1500;
    /**
     * The cycle the flap starts (the links' outage windows count from the instances' reset, which takes this
     * configuration 4097 cycles): both sides' LLR in ADVANCE by then, commands in flight.
     */
    static final int FLAP_AT = 8000;

    /** Alone: {@code java ... org.sue.bench.FaultBench}, the figures printed, nothing written. */
    public static void main(String[] args) {
        measure((k, v) -> System.out.println(k + " = " + v));
    }

    static void measure(BiConsumer<String, Double> put) {
        SueInstance.Config pfc = DefaultDesigns.smallInstance(); // configs/small_fpga.json
        for (SueInstance.Config c : new SueInstance.Config[] {pfc, FaultScenarios.withCbfc(pfc)}) {
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
        llrReinit(put);
    }

    /** {@code llr_reinit_cycles}. */
    private static void llrReinit(BiConsumer<String, Double> put) {
        long t0 = System.nanoTime();
        SueInstance.Config config = SueInstance.Config.builder().path(p -> p.dataWidth(256)).build();
        TwoXpuRun run = new TwoXpuRun(config, DELAY, LinkModel.Faults.NONE.withOutage(FLAP_AT, DOWN), 1, null)
                .macReadyPercent(100); // the recovery alone, as measured before MACs stalled in the runs
        run.add(2000, 2000, TwoXpuRun.fixed(256));
        if (run.now() > FLAP_AT - 2000) {
            throw new IllegalStateException("FaultBench.FLAP_AT must be later: the instances left reset at cycle "
                    + run.now());
        }
        run.idle(FLAP_AT - run.now());
        if (state(run, "A") != LlrTxState.ADVANCE || state(run, "B") != LlrTxState.ADVANCE) {
            throw new IllegalStateException("LLR not in ADVANCE before the flap: A " + state(run, "A") + ", B "
                    + state(run, "B"));
        }
        run.linkUp(false);
        run.idle(DOWN);
        run.linkUp(true);
        long cycles = 0;
        while (state(run, "A") != LlrTxState.ADVANCE || state(run, "B") != LlrTxState.ADVANCE) {
            if (++cycles > 10 * config.llr().initRetryCycles()) {
                throw new IllegalStateException("LLR not back in ADVANCE " + cycles + " cycles after the link came"
                        + " back: A " + state(run, "A") + ", B " + state(run, "B"));
            }
            run.idle(1);
        }
        if (run.peekA("llr_tx_reinit") != 1 || run.peekB("llr_tx_reinit") != 1) { // the flap flushed both sides
            throw new IllegalStateException("the flap should re-initialise LLR once on each side, got "
                    + run.peekA("llr_tx_reinit") + " and " + run.peekB("llr_tx_reinit"));
        }
        put.accept("llr_reinit_cycles", (double) cycles);
        System.out.printf("faults: link down %d cycles (PCS-lost timeout %d), links of %d cycles each way: LLR in"
                + " ADVANCE on both sides %d cycles after the link came back (%.0f s)%n", DOWN,
                config.llr().pcsLostTimeoutCycles(), DELAY, cycles, (System.nanoTime() - t0) / 1e9);
    }

    private static LlrTxState state(TwoXpuRun run, String side) {
        return LlrTxState.of(run.peek(side, "llr_tx_state"));
    }
}
