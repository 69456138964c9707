package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.tb.CommandSender;
import org.sue.cmd.tb.Eligibility;
import org.sue.cmd.tb.PackingModelFollower;
import org.sue.cmd.tb.RandomCommands;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.sim.Simulator;

/**
 * The transmit command path (ingress + packing buffer) produces the PDU sequence of the transaction-level model of
 * packing and scheduling fed with the XPU's commands in the order it sent them, PDU for PDU and byte for byte, under
 * random link backpressure and VC/destination gating; and every credit comes back.
 */
class CommandPathTest {
    static final CommandTable TABLE = CommandTable.example();

    @Test
    void matchesTheModelFromTheXpuInterface() {
        Random rnd = new Random(11);
        CommandPath.Config config = CommandPath.Config.builder(TABLE).destinations(8).cells(256).pduLimit(600)
                .xoffThreshold(6).xonThreshold(2).cmdCredits(24).dataCredits(8).build();
        Simulator sim = Simulator.compile(Design.elaborate(new CommandPath(config)));
        sim.reset();
        PackingModelFollower follower = new PackingModelFollower(sim, "packing.", config.packing());
        CommandSender xpu = new CommandSender(sim, config.dataWidth(), config.cmdCredits(), config.dataCredits());
        StreamMonitor pdus = new StreamMonitor(sim, "m_axis", null);
        int[] types = TABLE.definedTypes();
        for (int i = 0; i < 1500; i++) {
            int t = types[rnd.nextInt(types.length)];
            CommandCodec.Command c = new CommandCodec.Command(t, RandomCommands.bytes(rnd, TABLE.controlBytes(t)),
                    RandomCommands.bytes(rnd, TABLE.hasData(t) ? rnd.nextInt(257) : 0));
            int dst = rnd.nextInt(config.destinations());
            int vc = rnd.nextInt(4);
            xpu.add(dst, vc, c);
            follower.arrives(dst, vc, c); // the ingress keeps the XPU's order
        }
        long quiet = 0;
        while (quiet < 300) {
            boolean gating = !xpu.idle();
            if (sim.cycle() % 50 == 0) {
                Eligibility.set(sim, rnd, config.destinations(), gating);
            }
            int before = pdus.packets().size();
            xpu.drive(rnd, 90);
            sim.poke("m_axis_tready", rnd.nextInt(100) < 50 ? 1 : 0);
            sim.step();
            quiet = xpu.idle() && pdus.packets().size() == before && xpu.creditsBack() ? quiet + 1 : 0;
            assertTrue(sim.cycle() < 300_000, "no progress");
        }
        follower.assertMatches(pdus.packets(), TABLE);
        assertEquals(1500, sim.peek("commands_accepted"));
        assertEquals(0, sim.peek("overflow_error"));
    }

    /** The XPU sends a command-only command every cycle to 8 destinations with a fast link: nothing is lost. */
    @Test
    void keepsUpWithACommandEveryCycle() {
        Random rnd = new Random(12);
        CommandPath.Config config = CommandPath.Config.builder(TABLE).destinations(8).cells(1024).xoffThreshold(64)
                .xonThreshold(32).cmdCredits(200).dataCredits(8).build();
        Simulator sim = Simulator.compile(Design.elaborate(new CommandPath(config)));
        sim.reset();
        Eligibility.open(sim, config.destinations());
        sim.poke("m_axis_tready", 1);
        CommandSender xpu = new CommandSender(sim, config.dataWidth(), config.cmdCredits(), config.dataCredits());
        StreamMonitor pdus = new StreamMonitor(sim, "m_axis", null);
        int n = 3000;
        for (int i = 0; i < n; i++) {
            xpu.add(rnd.nextInt(8), rnd.nextInt(4), new CommandCodec.Command(1, RandomCommands.bytes(rnd, 8),
                    new byte[0]));
        }
        int out = 0;
        int counted = 0; // PDUs whose commands are in out
        long lastSent = 0;
        while (out < n) {
            xpu.drive(rnd, 100);
            sim.step();
            if (!xpu.idle()) {
                lastSent = sim.cycle();
            }
            for (; counted < pdus.packets().size(); counted++) {
                out += CommandCodec.unpack(TABLE, pdus.packets().get(counted).bytes()).commands().size();
            }
            assertTrue(sim.cycle() < 20_000, "only " + out + " of " + n + " commands came out");
        }
        System.out.printf("command every cycle: %d commands sent by cycle %d, out by cycle %d in %d PDUs%n", n,
                lastSent, sim.cycle(), pdus.packets().size());
        assertEquals(0, sim.peek("drops_overflow"), "commands lost in the ingress");
        assertTrue(lastSent < n + 100, "the XPU was held back by credits: sent by cycle " + lastSent);
    }
}
