package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.core.Design;
import org.sue.lib.stream.StreamMonitor;
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
        CommandPath.Config config = new CommandPath.Config(512, TABLE, 8, 256, 1500, 6, 2, 24, 8);
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
        BigInteger open = BigInteger.ONE.shiftLeft(config.destinations()).subtract(BigInteger.ONE);
        long quiet = 0;
        while (quiet < 300) {
            boolean gating = !xpu.idle();
            if (sim.cycle() % 50 == 0) {
                sim.poke("vc_ready", gating && rnd.nextInt(3) == 0 ? rnd.nextInt(16) : 0xf);
                sim.poke("dst_ready", gating ? open.clearBit(rnd.nextInt(config.destinations())) : open);
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
}
