package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.MultiXpuRun;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.net.HeaderFormat;

/**
 * One XPU sending to four destinations through a switch; one of them freezes mid-run (sends nothing, takes
 * nothing) and comes back (docs/protocol.md 6.7).
 */
class DeadDestinationTest {
    @Test
    void aFrozenDestinationIsDeclaredProbedAndBackWithNothingLost() {
        SueInstance.Config c = SueInstance.Config.builder().path(p -> p.dataWidth(256).destinations(16).cells(1024)
                        .pduLimit(1024).cmdCredits(32).dataCredits(16))
                .transport(t -> t.storeBytes(65536).windowPdus(64).rtoCycles(3000).ackDelay(200).ackCount(8)
                        .probeCycles(8000))
                .busWidth(512).rxCmdCredits(32).rxDataCredits(16).rxFifoDepth(256).llr(false)
                .flowControl(SueInstance.Config.FlowControl.NONE).rxVcFifoDepth(0).build();
        MultiXpuRun run = new MultiXpuRun(c, 5, 20, LinkModel.Faults.NONE, 4, 7);
        int[] live = {2, 3, 4};
        run.addRoundRobin(1, new int[] {2, 3, 4, 5}, 4000, TwoXpuRun.fixed(256));
        run.idle(3000);
        long t0 = run.now();
        run.idle(6000);
        double before = 0;
        for (int d : live) {
            before += run.goodput(1, d, t0, run.now());
        }
        run.freeze(5, true);
        long died = run.now();
        long declared = -1;
        while (run.now() - died < 40_000) {
            run.idle(100);
            if (declared < 0 && run.side(1).counter("tp_tx_destinations_lost") > 0) {
                declared = run.now() - died;
            }
        }
        double during = 0;
        for (int d : live) {
            during += run.goodput(1, d, died + 20_000, run.now());
        }
        long probes = run.side(1).counter("tp_tx_probes");
        run.freeze(5, false);
        long back = run.now();
        MultiXpuRun.Result r = run.run(200_000, null);
        System.out.printf("dead destination: declared after %d cycles, %d probes, live goodput %.2f -> %.2f B/cycle,"
                + " back after %d%n", declared, probes, before, during, r.cycles());
        assertTrue(r.ok(), r.summary());
        assertEquals(1, run.side(1).counter("tp_tx_destinations_lost"));
        assertEquals(1, run.side(1).counter("tp_tx_destinations_back"));
        assertTrue(declared > 0, "declared unreachable");
        assertTrue(probes > 0, "probed");
    }
}
