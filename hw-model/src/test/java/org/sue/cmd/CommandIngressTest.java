package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.model.CommandIngressReference;
import org.sue.cmd.model.XpuCredits;
import org.sue.cmd.tb.FaultyXpu;
import org.sue.cmd.tb.RandomCommands;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.sim.Simulator;

/**
 * The ingress hands on exactly the commands {@link CommandIngressReference} accepts, byte for byte, and drops and
 * counts the others by the same reasons, under random traffic with every kind of error; commands keep pace with the
 * interface (one beat per cycle in, never more beats out); credits are conserved; reset waits for the buffer.
 */
class CommandIngressTest {
    static final CommandTable TABLE = CommandTable.example();

    @ParameterizedTest
    @ValueSource(ints = {256, 512, 1024})
    void handsOnWhatTheReferenceAccepts(int width) {
        Random rnd = new Random(width);
        Bench b = new Bench(new CommandIngress.Config(width, TABLE, 8, 6, 3, 64), rnd);
        b.xpu.releaseDelay = 12; // credits run short now and then: some commands are sent without
        for (int i = 0; i < 1500; i++) {
            b.xpu.queueCommand(rnd, rnd.nextInt(100) < 25);
        }
        b.run(80, 90);
        CommandIngressReference ref = b.ref;
        assertEquals(ref.accepted(), b.handedOn(), "commands handed on");
        for (CommandIngressReference.Drop d : CommandIngressReference.Drop.values()) {
            assertEquals(ref.drops(d), b.sim.peek("drops_" + d.name().toLowerCase()), d.name());
        }
        assertEquals(ref.accepted().size(), b.sim.peek("commands_accepted"));
        assertEquals(ref.creditError() ? 1 : 0, b.sim.peek("credit_error"));
        System.out.printf("ingress %d: %d accepted, drops %s%n", width, ref.accepted().size(),
                java.util.Arrays.stream(CommandIngressReference.Drop.values()).map(d -> d + "=" + ref.drops(d)).toList());
        assertTrue(ref.drops(CommandIngressReference.Drop.NO_CREDIT) > 0 && ref.accepted().size() > 900,
                "the traffic exercises violations and still carries most commands");
        for (CommandIngressReference.Drop d : CommandIngressReference.Drop.values()) {
            if (d != CommandIngressReference.Drop.OVERFLOW && d != CommandIngressReference.Drop.RESET
                    && d != CommandIngressReference.Drop.NO_CREDIT) {
                assertTrue(ref.drops(d) > 5, d + " exercised " + ref.drops(d) + " times");
            }
        }
        b.assertCreditsBack();
        assertEquals(0, b.sim.peek("internal_error"));
    }

    @Test
    void commandOnlyCommandsPassOnePerCycle() {
        Random rnd = new Random(2);
        Bench b = new Bench(new CommandIngress.Config(512, TABLE, 8, 400, 4), rnd);
        for (int i = 0; i < 300; i++) {
            b.xpu.queue(b.xpu.beats(new CommandCodec.Command(1, RandomCommands.bytes(rnd, 8), new byte[0]), i % 8, i % 4));
        }
        b.run(100, 100);
        List<StreamMonitor.Packet> p = b.out.packets();
        assertEquals(300, p.size());
        assertEquals(299, p.get(299).cycle() - p.get(0).cycle(), "300 commands in consecutive cycles");
    }

    @ParameterizedTest
    @ValueSource(ints = {256, 512, 1024})
    void dataCommandsKeepPaceWithTheInterface(int width) {
        Random rnd = new Random(width + 1);
        Bench b = new Bench(new CommandIngress.Config(width, TABLE, 8, 100, 100), rnd);
        int inBeats = 0;
        for (int i = 0; i < 200; i++) {
            int len = 1 + rnd.nextInt(256);
            inBeats += (len + width / 8 - 1) / (width / 8);
            b.xpu.queue(b.xpu.beats(new CommandCodec.Command(2, RandomCommands.bytes(rnd, 8), RandomCommands.bytes(rnd,
                    len)), i % 8, i % 4));
        }
        b.run(100, 100);
        assertEquals(200, b.out.packets().size());
        assertEquals(inBeats, b.xpu.lastInput - b.xpu.firstInput + 1, "the interface never waited");
        assertTrue(b.out.beats() <= inBeats, b.out.beats() + " output beats for " + inBeats + " input beats");
        long lag = b.out.packets().get(199).cycle() - b.xpu.lastInput;
        assertTrue(lag <= 5, "the last command left " + lag + " cycles after its last beat: no backlog");
    }

    @Test
    void resetWaitsForTheBufferAndRestoresCredits() {
        Random rnd = new Random(4);
        Bench b = new Bench(new CommandIngress.Config(256, TABLE, 8, 4, 2), rnd);
        b.xpu.releaseDelay = 200; // the buffer holds on to its commands for a while
        for (int i = 0; i < 3; i++) {
            b.xpu.queue(b.xpu.beats(new CommandCodec.Command(3, RandomCommands.bytes(rnd, 4), RandomCommands.bytes(rnd,
                    100)), 1, 2));
        }
        while (b.xpu.pendingBeats() > 6) { // the first command is in, the second half-way (4 beats each)
            b.cycles(1);
        }
        b.sim.poke("tx_reset_in", 1);
        b.cycles(3);
        b.sim.poke("tx_reset_in", 0);
        b.xpu.reset(); // the XPU abandons what it was sending
        b.cycles(20);
        assertEquals(1, b.sim.peek("tx_reset_out"), "held while the buffer still holds a command");
        assertEquals(1, b.sim.peek("drops_reset"));
        b.cycles(300);
        assertEquals(0, b.sim.peek("tx_reset_out"));
        b.xpu.queue(b.xpu.beats(new CommandCodec.Command(1, RandomCommands.bytes(rnd, 8), new byte[0]), 2, 2));
        b.run(100, 100);
        assertEquals(2, b.out.packets().size());
        assertEquals(0, b.sim.peek("credit_error"));
        b.assertCreditsBack();
    }

    @Test
    void aFullStagingBufferDropsWholeCommandsAndReturnsTheirCredits() {
        Random rnd = new Random(5);
        Bench b = new Bench(new CommandIngress.Config(512, TABLE, 8, 200, 100, 8), rnd);
        for (int i = 0; i < 40; i++) {
            b.xpu.queue(b.xpu.beats(new CommandCodec.Command(2, RandomCommands.bytes(rnd, 8), RandomCommands.bytes(rnd,
                    200)), 3, 1));
        }
        b.xpu.readyPercent = 0;
        b.cycles(200);
        long overflow = b.sim.peek("drops_overflow");
        assertTrue(overflow > 0, "the staging buffer filled");
        b.run(100, 100);
        assertEquals(40 - overflow, b.out.packets().size(), "every command not dropped came out, whole");
        for (StreamMonitor.Packet p : b.out.packets()) {
            assertEquals(1, CommandCodec.unpack(TABLE, p.bytes()).commands().size());
        }
        b.assertCreditsBack();
    }

    /** A release with no command handed on is the buffer's error: flagged, and no credit goes to the XPU for it. */
    @Test
    void aReleaseWithNothingHandedOnIsFlaggedAndIgnored() {
        Simulator sim = Simulator.compile(Design.elaborate(new CommandIngress(new CommandIngress.Config(512, TABLE, 8,
                6, 3))));
        sim.reset();
        sim.poke("m_axis_tready", 1);
        sim.runUntil(() -> sim.peek("tx_reset_out") == 0, 100);
        assertEquals(0, sim.peek("internal_error"));
        sim.poke("rel_valid", 1);
        sim.poke("rel_vc", 2);
        sim.poke("rel_data", 1);
        sim.step();
        sim.poke("rel_valid", 0);
        for (int i = 0; i < 20; i++) {
            long credit = sim.peek("tx_credit");
            assertEquals(List.of(-1, -1), List.of(XpuCredits.cmdVc(credit), XpuCredits.dataVc(credit)),
                    "no credit returned at cycle " + sim.cycle());
            sim.step();
        }
        assertEquals(1, sim.peek("internal_error"));
    }

    @Test
    void rejectsBadParameters() {
        String[] named = {"dataWidth", "table", "destinations", "cmdCredits", "dataCredits", "stagingBeats"};
        List<Runnable> bad = List.of(() -> new CommandIngress.Config(128, TABLE, 8, 4, 4),
                () -> new CommandIngress.Config(256, new CommandTable(), 8, 4, 4),
                () -> new CommandIngress.Config(256, TABLE, 6, 4, 4),
                () -> new CommandIngress.Config(256, TABLE, 8, 0, 4),
                () -> new CommandIngress.Config(256, TABLE, 8, 4, -1),
                () -> new CommandIngress.Config(256, TABLE, 8, 4, 4, 4));
        for (int i = 0; i < named.length; i++) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bad.get(i)::run);
            assertTrue(e.getMessage().contains(named[i]), e.getMessage());
        }
    }

    /** A CommandIngress with a {@link FaultyXpu} around it and a reference following along. */
    static final class Bench {
        final Simulator sim;
        final Random rnd;
        final CommandIngress.Config config;
        final CommandIngressReference ref;
        final FaultyXpu xpu;
        final StreamMonitor out;

        Bench(CommandIngress.Config config, Random rnd) {
            this.config = config;
            this.rnd = rnd;
            sim = Simulator.compile(Design.elaborate(new CommandIngress(config)));
            sim.reset();
            ref = new CommandIngressReference(config);
            xpu = new FaultyXpu(sim, config, ref);
            out = xpu.out;
        }

        List<CommandIngressReference.Accepted> handedOn() {
            List<CommandIngressReference.Accepted> list = new ArrayList<>();
            for (StreamMonitor.Packet p : out.packets()) {
                CommandUser u = CommandUser.unpack(p.user().longValue());
                assertEquals(p.bytes().length, u.bytes(), "packed bytes in tuser");
                list.add(new CommandIngressReference.Accepted(u.dst(), u.vc(), u.hasData(), p.bytes()));
            }
            return list;
        }

        /** Runs until every beat is sent, every command out and released and every credit back; fails on a hang. */
        void run(int validPercent, int readyPercent) {
            xpu.readyPercent = readyPercent;
            long quiet = 0;
            while (quiet < 50) {
                int before = out.packets().size();
                xpu.drive(rnd, validPercent);
                sim.step();
                boolean busy = xpu.busy() || out.packets().size() != before || !xpu.creditsBack();
                quiet = busy ? 0 : quiet + 1;
                assertTrue(sim.cycle() < 500_000, "no progress");
            }
        }

        void cycles(int n) {
            for (int i = 0; i < n; i++) {
                xpu.drive(rnd, 100);
                sim.step();
            }
        }

        void assertCreditsBack() {
            assertTrue(xpu.creditsBack(), "the XPU holds its initial credits");
            for (int v = 0; v < 4; v++) {
                assertEquals(config.cmdCredits(), sim.peek("cmd_avail_" + v), "SUE's view of VC " + v);
                assertEquals(config.dataCredits(), sim.peek("data_avail_" + v), "SUE's view of VC " + v);
            }
        }
    }
}
