package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.cmd.tb.CommandLoopbackRun;

/**
 * Ingress, packing, scheduling and unpacking end to end ({@link CommandLoopback}): thousands of random commands to
 * random destinations and VCs with random data lengths, random XPU-side backpressure (slow rx credit returns), random
 * VC and destination gating: every command comes back exactly once, unchanged, in order per {destination, VC}; the
 * buffer never overflows; nothing deadlocks; and at the end both XPU sides hold exactly their initial credits.
 */
class CommandLoopbackTest {
    static final CommandTable TABLE = CommandTable.example();

    @ParameterizedTest
    @CsvSource({"256, 8, 256, 700, 24, 8", "512, 16, 512, 2048, 40, 12", "1024, 4, 128, 1200, 8, 4"})
    void everyCommandComesBackOnceInOrder(int dataWidth, int dests, int cells, int pduLimit, int cmdCredits,
                                          int dataCredits) {
        CommandPath.Config path = CommandPath.Config.builder(TABLE).dataWidth(dataWidth).destinations(dests)
                .cells(cells).pduLimit(pduLimit).xoffThreshold(6).xonThreshold(2).cmdCredits(cmdCredits)
                .dataCredits(dataCredits).build();
        CommandLoopbackRun run = new CommandLoopbackRun(new CommandLoopback.Config(path, 5, 2));
        int commands = 2500;
        CommandLoopbackRun.Result r = run.run(commands, new Random(dataWidth + dests), true, 35);
        assertEquals(commands, r.delivered(), "commands delivered");
        assertEquals(r.sent().keySet(), r.got().keySet(), "queues");
        for (int q : r.sent().keySet()) {
            assertEquals(r.sent().get(q), r.got().get(q), "commands of destination " + q / 4 + " VC " + q % 4);
        }
        assertTrue(r.intact());
        assertEquals(0, r.overflowError(), "buffer overflow");
        assertTrue(r.creditsBack(), "both XPU sides hold their initial credits again");
        assertEquals(commands, r.accepted());
        assertEquals(0, run.sim.peek("credit_error"));
        assertEquals(0, run.sim.peek("rx_credit_error"));
        System.out.printf("loopback n=%d dests=%d: %d commands in %d cycles%n", dataWidth, dests, commands,
                r.cycles());
    }

    @Test
    void refusesCreditsTheBufferCannotHold() {
        CommandPath.Config.Builder path = CommandPath.Config.builder(TABLE).destinations(16).xoffThreshold(6)
                .xonThreshold(2).cmdCredits(40).dataCredits(12);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> path.cells(64).build());
        assertTrue(e.getMessage().contains("cells"), e.getMessage());
        path.cells(256).build(); // 4 * (12 * 3 + 28) = 256 cells: fits
    }
}
