package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.sue.core.Design;
import org.sue.sim.Simulator;

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
        Random rnd = new Random(dataWidth + dests);
        CommandPath.Config path = new CommandPath.Config(dataWidth, TABLE, dests, cells, pduLimit, 6, 2, cmdCredits,
                dataCredits);
        Simulator sim = Simulator.compile(Design.elaborate(new CommandLoopback(new CommandLoopback.Config(path, 5,
                2))));
        sim.reset();
        CommandSender tx = new CommandSender(sim, dataWidth, cmdCredits, dataCredits);
        CommandReceiver rx = new CommandReceiver(sim, dataWidth, TABLE, 5, 2, "rx_xpuid");
        Map<Integer, List<CommandCodec.Command>> sent = new HashMap<>(); // by queue {dst, vc}
        int[] types = TABLE.definedTypes();
        int commands = 2500;
        for (int i = 0; i < commands; i++) {
            int t = types[rnd.nextInt(types.length)];
            CommandCodec.Command c = new CommandCodec.Command(t, RandomCommands.bytes(rnd, TABLE.controlBytes(t)),
                    RandomCommands.bytes(rnd, TABLE.hasData(t) ? rnd.nextInt(257) : 0));
            int dst = rnd.nextInt(dests);
            int vc = rnd.nextInt(4);
            tx.add(dst, vc, c);
            sent.computeIfAbsent(dst * 4 + vc, k -> new ArrayList<>()).add(c);
        }
        BigInteger allDsts = BigInteger.ONE.shiftLeft(dests).subtract(BigInteger.ONE);
        long quiet = 0;
        while (quiet < 300) {
            boolean gating = !tx.idle();
            if (sim.cycle() % 64 == 0) {
                sim.poke("vc_ready", gating && rnd.nextInt(3) == 0 ? rnd.nextInt(16) : 0xf);
                sim.poke("dst_ready", gating ? allDsts.clearBit(rnd.nextInt(dests)) : allDsts);
            }
            int before = rx.delivered().size();
            tx.drive(rnd, 85);
            sim.poke("rx_credit", rx.creditReturn(rnd, 35));
            rx.sample();
            sim.step();
            assertEquals(0, sim.peek("overflow_error"), "buffer overflow at cycle " + sim.cycle());
            boolean busy = !tx.idle() || rx.held() > 0 || rx.delivered().size() != before || !tx.creditsBack();
            quiet = busy ? 0 : quiet + 1;
            assertTrue(sim.cycle() < 400_000, "no progress: " + rx.delivered().size() + " of " + commands
                    + " delivered");
        }
        assertEquals(commands, rx.delivered().size(), "commands delivered");
        Map<Integer, List<CommandCodec.Command>> got = new HashMap<>();
        for (CommandReceiver.Delivered d : rx.delivered()) {
            got.computeIfAbsent(d.src() * 4 + d.vc(), k -> new ArrayList<>()).add(d.command());
        }
        assertEquals(sent.keySet(), got.keySet(), "queues");
        for (int q : sent.keySet()) {
            assertEquals(sent.get(q), got.get(q), "commands of destination " + q / 4 + " VC " + q % 4);
        }
        assertTrue(tx.creditsBack(), "the XPU's transmit credits are all back");
        assertTrue(rx.creditsBack(), "the XPU's receive credits are all back");
        assertEquals(commands, sim.peek("path.ingress.commands_accepted"));
        assertEquals(0, sim.peek("credit_error"));
        assertEquals(0, sim.peek("rx_credit_error"));
        System.out.printf("loopback n=%d dests=%d: %d commands in %d cycles%n", dataWidth, dests, commands,
                sim.cycle());
    }

    @Test
    void refusesCreditsTheBufferCannotHold() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CommandPath.Config(512, TABLE, 16, 64, 2048, 6, 2, 40, 12));
        assertTrue(e.getMessage().contains("cells"), e.getMessage());
        new CommandPath.Config(512, TABLE, 16, 256, 2048, 6, 2, 40, 12); // 4 * (12 * 3 + 28) = 256 cells: fits
    }
}
