package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.tb.Eligibility;
import org.sue.cmd.tb.PackingBufferCells;
import org.sue.cmd.tb.PackingModelFollower;
import org.sue.cmd.tb.RandomCommands;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * Commands go in one packet each and come out packed into PDUs: every command exactly once, unchanged, in order per
 * {destination, VC}; one {destination, VC} per PDU, within the limit; the spec's Figure 18 example comes out as A, B,
 * C+E, D.
 */
class PackingBufferTest {
    static final CommandTable TABLE = CommandTable.example();

    @Test
    void figure18() {
        Bench b = new Bench(PackingBuffer.Config.defaults(1024, 256, 16), new Random(1));
        CommandCodec.Command a = cmd(1, 1);
        CommandCodec.Command bb = cmd(2, 2);
        CommandCodec.Command c = cmd(3, 3);
        CommandCodec.Command d = cmd(4, 4);
        CommandCodec.Command e = cmd(5, 5);
        b.readyPercent = 0; // the link is busy while A..E arrive
        b.send(a, 1, 0);
        b.send(bb, 2, 0);
        b.send(c, 3, 0);
        b.send(d, 4, 0);
        b.send(e, 3, 0);
        b.cycles(60);
        b.readyPercent = 100;
        b.drain();
        List<StreamMonitor.Packet> pdus = b.out.packets();
        assertEquals(4, pdus.size());
        assertEquals(List.of(a), unpack(pdus.get(0)));
        assertEquals(List.of(bb), unpack(pdus.get(1)));
        assertEquals(List.of(c, e), unpack(pdus.get(2)));
        assertEquals(List.of(d), unpack(pdus.get(3)));
        assertEquals(List.of(1, 2, 3, 4), pdus.stream().map(p -> SueMeta.unpack(p.user()).dstXpu()).toList());
    }

    @ParameterizedTest
    @CsvSource({"1024, 256, 16, 2048, 70", "512, 512, 64, 1024, 90", "1024, 128, 4, 4088, 50", "256, 64, 2, 306, 100"})
    void everyCommandOnceInOrderPerQueue(int width, int cells, int dests, int limit, int readyPercent) {
        Random rnd = new Random(width + cells + dests + limit);
        PackingBuffer.Config config = new PackingBuffer.Config(width, cells, dests, limit, 8, 4);
        Bench b = new Bench(config, rnd);
        b.readyPercent = readyPercent;
        Map<Integer, ArrayDeque<CommandCodec.Command>> expected = new HashMap<>();
        sendRandom(b, 1500, expected);
        b.drain();
        assertEquals(1500, delivered(b, expected, limit));
        assertEquals(b.cells.used(), b.cells.freed(), "every cell back on the free lists");
        assertEquals(0, b.sim.peek("overflow_error"));
    }

    /**
     * A reset with commands in the buffer: the queue table (a RAM, no reset value) is cleared a row per cycle while
     * {@code init_busy} is high and nothing enters; then the buffer works as new.
     */
    @Test
    void aResetMidTrafficLeavesNoStaleQueue() {
        PackingBuffer.Config config = new PackingBuffer.Config(1024, 256, 16, 2048, 8, 4);
        Bench b = new Bench(config, new Random(5));
        assertEquals(1, b.sim.peek("init_busy"));
        b.readyPercent = 0; // the link is busy: the commands stay queued
        sendRandom(b, 60, new HashMap<>());
        b.cycles(100);
        b.resetAll();
        int busy = 0;
        while (b.sim.peek("init_busy") == 1) {
            assertEquals(0, b.sim.peek("s_axis_tready"), "nothing enters while the table is cleared");
            b.sim.step();
            busy++;
        }
        assertEquals(config.destinations() * 4, busy, "one cycle per queue");
        b.readyPercent = 80;
        Map<Integer, ArrayDeque<CommandCodec.Command>> expected = new HashMap<>();
        sendRandom(b, 400, expected);
        b.drain();
        assertEquals(400, delivered(b, expected, 2048), "only the commands sent after the reset, each once");
        assertEquals(0, b.sim.peek("overflow_error"));
    }

    /** Random commands to random queues (some destinations busier), within the buffer's cells. */
    static void sendRandom(Bench b, int n, Map<Integer, ArrayDeque<CommandCodec.Command>> expected) {
        int[] types = TABLE.definedTypes();
        for (int i = 0; i < n; i++) {
            int t = types[b.rnd.nextInt(types.length)];
            int len = TABLE.hasData(t) ? b.rnd.nextInt(257) : 0;
            CommandCodec.Command c = new CommandCodec.Command(t, RandomCommands.bytes(b.rnd, TABLE.controlBytes(t)),
                    RandomCommands.bytes(b.rnd, len));
            int dst = b.rnd.nextInt(Math.min(b.destinations, 1 + b.rnd.nextInt(b.destinations)));
            int vc = b.rnd.nextInt(4);
            expected.computeIfAbsent(dst * 4 + vc, k -> new ArrayDeque<>()).add(c);
            b.send(c, dst, vc);
            b.holdCells();
        }
    }

    /** Checks every PDU (size, limit, one queue, commands in order and unchanged); returns the commands in them. */
    static int delivered(Bench b, Map<Integer, ArrayDeque<CommandCodec.Command>> expected, int limit) {
        int delivered = 0;
        for (StreamMonitor.Packet p : b.out.packets()) {
            SueMeta m = SueMeta.unpack(p.user());
            assertEquals(p.bytes().length, m.len(), "tuser len is the PDU's size");
            assertTrue(p.bytes().length <= limit, "PDU within the limit");
            CommandCodec.Unpacked u = CommandCodec.unpack(TABLE, p.bytes());
            assertNull(u.error());
            ArrayDeque<CommandCodec.Command> q = expected.get(m.dstXpu() * 4 + m.vc());
            for (CommandCodec.Command c : u.commands()) {
                assertEquals(q.poll(), c, "commands of a queue leave in order, unchanged");
                delivered++;
            }
        }
        return delivered;
    }

    /**
     * The RTL's PDUs equal the reference model's, PDU for PDU, under random arrivals, output backpressure and gating
     * of VCs (link credit) and destinations (transmit window); the model is told when the RTL's queue manager
     * appended, when the scheduler picked and when a pick's update landed.
     */
    @ParameterizedTest
    @CsvSource({"1024, 256, 8, 2048", "512, 128, 4, 700"})
    void matchesThePackingModel(int width, int cells, int dests, int limit) {
        Random rnd = new Random(width * 7L + dests);
        PackingBuffer.Config config = new PackingBuffer.Config(width, cells, dests, limit, 6, 2);
        Bench b = new Bench(config, rnd);
        PackingModelFollower follower = new PackingModelFollower(b.sim, "", config);
        b.readyPercent = 60;
        b.gating = true;
        int[] types = TABLE.definedTypes();
        for (int i = 0; i < 1200; i++) {
            int t = types[rnd.nextInt(types.length)];
            CommandCodec.Command c = new CommandCodec.Command(t, RandomCommands.bytes(rnd, TABLE.controlBytes(t)),
                    RandomCommands.bytes(rnd, TABLE.hasData(t) ? rnd.nextInt(257) : 0));
            int dst = rnd.nextInt(dests);
            int vc = rnd.nextInt(4);
            follower.arrives(dst, vc, c);
            b.send(c, dst, vc);
            b.holdCells();
            if (i / 150 % 2 == 1) { // light load now and then: commands that go out alone
                b.cycles(rnd.nextInt(12));
            }
        }
        b.gating = false;
        Eligibility.open(b.sim, dests);
        // one busy queue alone: it fills while the link is busy, then its PDUs leave one after the other
        b.readyPercent = 0;
        for (int i = 0; i < 300; i++) {
            CommandCodec.Command c = new CommandCodec.Command(3, RandomCommands.bytes(rnd, 4),
                    RandomCommands.bytes(rnd, rnd.nextInt(257)));
            follower.arrives(1, 2, c);
            b.send(c, 1, 2);
            if (b.cells.inUse() > cells / 2) {
                b.readyPercent = 100;
            }
            b.holdCells();
        }
        b.drain();
        follower.assertMatches(b.out.packets(), TABLE);
    }

    @Test
    void packsUpToTheLimitWhenTheLinkIsSlow() {
        Bench b = new Bench(PackingBuffer.Config.defaults(1024, 512, 16), new Random(3));
        b.readyPercent = 0;
        List<CommandCodec.Command> sent = new ArrayList<>();
        for (int i = 0; i < 300; i++) { // 64-byte commands to one queue
            CommandCodec.Command c = new CommandCodec.Command(3, RandomCommands.bytes(new Random(i), 4),
                    RandomCommands.bytes(new Random(-i), 56));
            sent.add(c);
            b.send(c, 7, 2);
        }
        b.cycles(1000); // all arrive while the link is busy
        b.readyPercent = 100;
        b.drain();
        List<Integer> sizes = b.out.packets().stream().map(p -> unpack(p).size()).toList();
        int packed = sizes.stream().mapToInt(Integer::intValue).sum();
        // the first PDUs were picked as the first commands arrived; every later one is full but the last
        for (int i = PackingBuffer.PDUS_AHEAD; i < sizes.size() - 1; i++) {
            assertEquals(2048 / 64, sizes.get(i), "PDU " + i + " of " + sizes);
        }
        assertEquals(300, packed);
    }

    /**
     * Many queues with a PDU of three beats each (two 192-byte commands at 128 bytes per beat), queued while the link
     * was busy: once it takes every beat, the PDUs follow each other with no gap.
     */
    @Test
    void pdusOfThreeBeatsLeaveBackToBack() {
        Bench b = new Bench(PackingBuffer.Config.defaults(1024, 512, 64), new Random(4));
        b.readyPercent = 0;
        for (int i = 0; i < 64; i++) {
            b.send(new CommandCodec.Command(3, RandomCommands.bytes(b.rnd, 4), RandomCommands.bytes(b.rnd, 184)),
                    i / 2, 1);
        }
        b.cycles(400);
        b.readyPercent = 100;
        long first = -1;
        long last = -1;
        long beats = b.out.beats();
        long start = beats;
        while (b.out.packets().stream().mapToInt(p -> p.bytes().length).sum() < 64 * 192) {
            b.cycles(1);
            if (b.out.beats() > beats) {
                beats = b.out.beats();
                first = first < 0 ? b.sim.cycle() : first;
                last = b.sim.cycle();
            }
            assertTrue(b.sim.cycle() < 10_000, "the PDUs never left");
        }
        assertTrue(b.out.packets().stream().filter(p -> p.bytes().length == 384).count() >= 30, "PDUs of 3 beats");
        assertEquals(beats - start, last - first + 1, "a beat in every cycle from the first to the last");
    }

    @Test
    void rejectsBadParameters() {
        assertThrows(IllegalArgumentException.class, () -> new PackingBuffer.Config(128, 256, 16, 2048, 8, 4));
        assertThrows(IllegalArgumentException.class, () -> new PackingBuffer.Config(1024, 100, 16, 2048, 8, 4));
        assertThrows(IllegalArgumentException.class, () -> new PackingBuffer.Config(1024, 256, 16, 4089, 8, 4));
        assertThrows(IllegalArgumentException.class, () -> new PackingBuffer.Config(1024, 256, 16, 200, 8, 4));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new PackingBuffer.Config(1024, 256, 16, 401,
                8, 4)).getMessage().contains("pduLimit must be 402.."));
        assertThrows(IllegalArgumentException.class, () -> new PackingBuffer.Config(1024, 256, 16, 2048, 8, 8));
    }

    static CommandCodec.Command cmd(int seed, int marker) {
        byte[] control = RandomCommands.bytes(new Random(seed), 8);
        control[0] = (byte) marker;
        return new CommandCodec.Command(1, control, new byte[0]);
    }

    static List<CommandCodec.Command> unpack(StreamMonitor.Packet p) {
        return CommandCodec.unpack(TABLE, p.bytes()).commands();
    }

    /**
     * Sends packed commands the way the ingress does, keeps them within the buffer as the credits do, counts the cells
     * used and freed, collects PDUs.
     */
    static final class Bench {
        final Simulator sim;
        final Random rnd;
        StreamSource source;
        StreamMonitor out;
        int readyPercent = 100;
        /** change the VC and destination gating at random every 50 cycles (all open when switched off) */
        boolean gating;
        final int destinations;
        final PackingBuffer.Config config;
        PackingBufferCells cells;

        Bench(PackingBuffer.Config config, Random rnd) {
            this.rnd = rnd;
            sim = Simulator.compile(Design.elaborate(new PackingBuffer(config)));
            this.config = config;
            destinations = config.destinations();
            resetAll();
        }

        /** Reset, and a new source and monitor: what was sent before is gone. */
        void resetAll() {
            sim.poke("s_axis_tvalid", 0); // the sender is reset too: what it offered is gone
            sim.reset();
            source = new StreamSource(sim, "s_axis");
            out = new StreamMonitor(sim, "m_axis", null);
            cells = new PackingBufferCells(config.cells(), config.cellBytes());
            Eligibility.open(sim, destinations);
        }

        void send(CommandCodec.Command c, int dst, int vc) {
            byte[] packed = CommandCodec.pack(TABLE, List.of(c));
            long user = new CommandUser(c.data().length > 0, packed.length, vc, dst).pack();
            source.add(packed, BigInteger.valueOf(user));
            cells.sent(packed.length);
        }

        /** Like the credits: the next command is sent only when the buffer has room for the largest one. */
        void holdCells() {
            while (!cells.roomForLargest()) {
                cycles(1);
            }
        }

        void cycles(int n) {
            for (int i = 0; i < n; i++) {
                if (sim.cycle() % 50 == 0) {
                    Eligibility.set(sim, rnd, destinations, gating);
                }
                source.drive(rnd, 100);
                sim.poke("m_axis_tready", rnd.nextInt(100) < readyPercent ? 1 : 0);
                source.advance();
                cells.sample(sim);
                sim.step();
            }
        }

        void drain() {
            int quiet = 0;
            while (quiet < 100) {
                int before = out.packets().size();
                cycles(1);
                quiet = source.idle() && out.packets().size() == before ? quiet + 1 : 0;
                assertTrue(sim.cycle() < 3_000_000, "no progress");
            }
        }
    }
}
