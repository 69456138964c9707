package org.sue.axi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.axi.tb.AxiRequestRun;
import org.sue.core.Design;
import org.sue.sim.Simulator;

class AxiRequestPackerTest {
    @ParameterizedTest
    @CsvSource({"512,8,false,70,70,-1", "256,4,true,100,100,-1", "1024,1024,false,50,90,-1", "512,2,false,90,30,-1",
        "512,8,false,80,80,1", "256,4,true,100,100,2"})
    void everyRequestBecomesTheReferenceCommandsAndTheIdRuleHolds(int width, int destinations, boolean dstFromUser,
                                                                  int validPercent, int readyPercent,
                                                                  int unreachable) {
        AxiConfig axi = new AxiConfig(width, dstFromUser ? 40 : 48, 4, dstFromUser ? 12 : 3, destinations,
                dstFromUser, 36, 3);
        Simulator sim = Simulator.compile(Design.elaborate(new AxiRequestPacker(new AxiRequestPacker.Config(axi))));
        sim.reset();
        AxiRequestRun run = new AxiRequestRun(sim, axi, AxiRequestRun.Traffic.MIXED, unreachable, 600,
                width + destinations, validPercent, readyPercent);
        Random rnd = new Random(width * 31L + destinations);
        long cycles = 0;
        while (!run.finished()) {
            run.cycle(rnd);
            sim.step();
            assertTrue(++cycles < 200_000, "the run did not finish");
        }
        for (Map.Entry<String, Long> e : run.expectedCounts().entrySet()) {
            String port = e.getKey().equals("writes") || e.getKey().equals("reads") || e.getKey().endsWith("commands")
                    || e.getKey().equals("wlast_errors") ? e.getKey() : null;
            if (port != null) {
                assertEquals(e.getValue(), sim.peek(port), e.getKey());
            } else {
                assertEquals(e.getValue(), sim.peek("wr_" + e.getKey()) + sim.peek("rd_" + e.getKey()), e.getKey());
            }
        }
        // the cases that matter happened
        assertTrue(run.expectedCounts().get("strobe_commands") > 0 && run.expectedCounts().get("burst_errors") > 0
                && run.expectedCounts().get("wlast_errors") > 0);
        assertTrue(destinations == 1024 || run.expectedCounts().get("decode_errors") > 0);
        assertTrue(unreachable < 0 || run.expectedCounts().get("unreachable_errors") > 0, "SLVERR: unreachable");
        assertTrue(sim.peek("wr_id_waits") + sim.peek("rd_id_waits") > 0, "the ID rule held a request back");
    }

    @ParameterizedTest
    @CsvSource({"512,true", "1024,true", "256,false"})
    void fullWritesAndReadsLeaveOneCommandBeatACycle(int width, boolean writes) {
        AxiConfig axi = AxiConfig.defaults(width, 8);
        Simulator sim = Simulator.compile(Design.elaborate(new AxiRequestPacker(new AxiRequestPacker.Config(axi))));
        sim.reset();
        AxiRequestRun run = new AxiRequestRun(sim, axi, writes ? AxiRequestRun.Traffic.PAGE_WRITES
                : AxiRequestRun.Traffic.PAGE_READS, 100, 5, 100, 100);
        Random rnd = new Random(1);
        long first = -1;
        long last = 0;
        long beats = 0;
        for (long cycle = 0; !run.finished(); cycle++) {
            run.cycle(rnd);
            if (sim.peek("cmd_valid") == 1) {
                first = first < 0 ? cycle : first;
                last = cycle;
                beats++;
            }
            sim.step();
            assertTrue(cycle < 100_000, "the run did not finish");
        }
        assertEquals(last - first + 1, beats, "a command beat every cycle from the first to the last");
    }
}
