package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.model.Beats;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.sim.Simulator;

/**
 * A packet judged bad, or too big for the free space, never emerges, not even partly; every kept packet that fits
 * emerges whole, in order, with its verdict's tuser; every drop is counted by reason.
 */
class PacketFifoTest {
    /** Writes packets (no stall possible), gives each its verdict a few cycles after its last beat, reads out. */
    static final class Harness {
        final Simulator sim;
        final int lanes;
        final Random rnd;
        final StreamMonitor out;
        final ArrayDeque<long[]> verdicts = new ArrayDeque<>(); // {due cycle, drop, user}
        int readyPercent = 100;
        /** cycles from a packet's last beat to its verdict, at least 2; random 2..5 when 0 */
        int verdictDelay;
        private long lastDue;

        Harness(Simulator sim, int lanes, Random rnd) {
            this.sim = sim;
            this.lanes = lanes;
            this.rnd = rnd;
            sim.reset();
            out = new StreamMonitor(sim, "m_axis", null);
        }

        void send(byte[] p, boolean drop, long user, int gapPercent) {
            for (int off = 0; off < p.length; off += lanes) {
                while (rnd.nextInt(100) < gapPercent) {
                    cycle(false, null, 0);
                }
                int n = Math.min(lanes, p.length - off);
                sim.poke("s_axis_tdata", Beats.data(p, off, n, lanes));
                cycle(true, Beats.keep(n, lanes), off + n >= p.length ? 1 : 0);
            }
            lastDue = Math.max(lastDue + 1, sim.cycle() - 1 + (verdictDelay > 0 ? verdictDelay : 2 + rnd.nextInt(4)));
            verdicts.add(new long[] {lastDue, drop ? 1 : 0, user});
        }

        void cycle(boolean valid, long[] keep, int last) {
            sim.poke("s_axis_tvalid", valid ? 1 : 0);
            if (valid) {
                sim.poke("s_axis_tkeep", keep);
                sim.poke("s_axis_tlast", last);
            }
            long[] v = verdicts.peek();
            boolean give = v != null && v[0] <= sim.cycle();
            sim.poke("verdict_valid", give ? 1 : 0);
            if (give) {
                verdicts.poll();
                sim.poke("verdict_drop", v[1]);
                sim.poke("verdict_user", v[2]);
            }
            sim.poke("m_axis_tready", rnd.nextInt(100) < readyPercent ? 1 : 0);
            sim.step();
        }

        void drain(int cycles) {
            for (int i = 0; i < cycles; i++) {
                cycle(false, null, 0);
            }
        }
    }

    static Simulator fifo(int width, int depth) {
        return Simulator.compile(Design.elaborate(new PacketFifo(new PacketFifo.Config(new StreamConfig(width, 16),
                depth))));
    }

    @ParameterizedTest
    @CsvSource({"512,64", "1024,32", "256,16"})
    void badPacketsVanishWholeAndAreCounted(int width, int depth) {
        int lanes = width / 8;
        Random rnd = new Random(width + depth);
        Harness hx = new Harness(fifo(width, depth), lanes, rnd);
        hx.readyPercent = 70;
        List<byte[]> packets = new ArrayList<>();
        List<Boolean> bad = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int len = switch (rnd.nextInt(6)) {
                case 0 -> lanes * depth + 1 + rnd.nextInt(lanes * 4); // can never fit
                case 1 -> 1 + rnd.nextInt(8);
                default -> 1 + rnd.nextInt(lanes * depth / 3);
            };
            byte[] p = new byte[len];
            rnd.nextBytes(p);
            packets.add(p);
            bad.add(rnd.nextInt(4) == 0);
            hx.send(p, bad.get(i), i, rnd.nextInt(3) == 0 ? 0 : 20);
        }
        hx.drain(lanes * depth * 4);
        int cursor = 0;
        for (int k = 0; k < hx.out.packets().size(); k++) {
            int id = hx.out.packets().get(k).user().intValue();
            assertTrue(id >= cursor, "in order");
            assertFalse(bad.get(id), "packet " + id + " was judged bad but came out");
            assertTrue(packets.get(id).length <= lanes * depth, "packet " + id + " cannot fit but came out");
            assertArrayEquals(packets.get(id), hx.out.packets().get(k).bytes(), "packet " + id + " intact");
            cursor = id + 1;
        }
        long dropsBad = hx.sim.peek("drops_bad");
        long dropsOverflow = hx.sim.peek("drops_overflow");
        assertEquals(packets.size(), hx.out.packets().size() + dropsBad + dropsOverflow, "every packet delivered or counted");
        assertTrue(dropsBad > 0 && dropsOverflow > 0);
        assertTrue(hx.out.packets().size() > packets.size() / 3, "most good packets got through");
        assertEquals(0, hx.sim.peek("protocol_error"));
    }

    /** Store and forward waits for whole packets, so equal sizes: then once the output runs, it never pauses. */
    @ParameterizedTest
    @CsvSource({"512,128,64", "512,128,1500", "1024,64,1", "1024,64,4096", "1024,64,129"})
    void goodTrafficLeavesWithoutABubble(int width, int depth, int size) {
        int lanes = width / 8;
        Random rnd = new Random(size);
        Harness hx = new Harness(fifo(width, depth), lanes, rnd);
        hx.verdictDelay = 3;
        List<byte[]> packets = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            byte[] p = new byte[size];
            rnd.nextBytes(p);
            packets.add(p);
            hx.send(p, false, i, 0);
        }
        hx.drain(200);
        assertEquals(packets.size(), hx.out.packets().size());
        for (int i = 0; i < packets.size(); i++) {
            assertArrayEquals(packets.get(i), hx.out.packets().get(i).bytes());
            assertEquals(i, hx.out.packets().get(i).user().intValue());
        }
        long lastBeat = hx.out.packets().get(packets.size() - 1).cycle();
        assertEquals(hx.out.beats() - 1, lastBeat - hx.out.firstBeatCycle(), "every output beat follows at once");
        assertEquals(0, hx.sim.peek("drops_overflow"));
    }

    @Test
    void aVerdictWithoutAPacketIsAProtocolError() {
        Harness hx = new Harness(fifo(512, 16), 64, new Random(2));
        hx.verdicts.add(new long[] {0, 0, 7});
        hx.drain(3);
        assertEquals(1, hx.sim.peek("protocol_error"));
        assertTrue(hx.out.packets().isEmpty());
    }
}
