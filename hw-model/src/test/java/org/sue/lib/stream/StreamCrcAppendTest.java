package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;
import org.sue.sim.Simulator;

/** CRC appending against its definition: output = payload ++ CRC-32(payload) least significant byte first. */
class StreamCrcAppendTest {
    static Simulator sim(int width) {
        return Simulator.compile(Design.elaborate(new StreamCrcAppend(
                new StreamCrcAppend.Config(new StreamConfig(width, 16), CrcParams.CRC32, 8))));
    }

    static byte[] withCrc(byte[] p) {
        CRC32 c = new CRC32();
        c.update(p);
        long v = c.getValue();
        byte[] r = java.util.Arrays.copyOf(p, p.length + 4);
        for (int i = 0; i < 4; i++) {
            r[p.length + i] = (byte) (v >>> (8 * i));
        }
        return r;
    }

    @ParameterizedTest
    @CsvSource({"64", "512", "1024"})
    void everyPacketGetsItsCrcUnderRandomFlowControl(int width) {
        Simulator sim = sim(width);
        int lanes = width / 8;
        Random rnd = new Random(width);
        List<StreamPrependTest.Packet> packets = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            int len = switch (rnd.nextInt(4)) {
                case 0 -> lanes - rnd.nextInt(5); // last beat with 0..4 free lanes: the spill cases
                case 1 -> 1 + rnd.nextInt(6);
                default -> 1 + rnd.nextInt(2000);
            };
            byte[] p = new byte[Math.max(1, len)];
            rnd.nextBytes(p);
            packets.add(new StreamPrependTest.Packet(new byte[0], p, rnd.nextInt(1 << 16)));
        }
        StreamDriver d = new StreamDriver(sim, lanes, packets);
        long guard = 0;
        while (d.received.size() < packets.size() && guard++ < 100_000) {
            d.cycle(rnd.nextInt(5) > 0, rnd.nextInt(4) > 0);
        }
        assertEquals(packets.size(), d.received.size());
        for (int i = 0; i < packets.size(); i++) {
            assertArrayEquals(withCrc(packets.get(i).payload()), d.received.get(i), "packet " + i);
            assertEquals(packets.get(i).user(), d.receivedUser.get(i), "tuser of packet " + i);
        }
    }

    @ParameterizedTest
    @CsvSource({"512", "1024"})
    void backToBackPacketsOnlyAddTheirTailBeats(int width) {
        Simulator sim = sim(width);
        int lanes = width / 8;
        Random rnd = new Random(3);
        List<StreamPrependTest.Packet> packets = new ArrayList<>();
        long beats = 0;
        int[] sizes = {64, 256, 1500, 4096, lanes - 3, lanes - 4, lanes, 1};
        for (int i = 0; i < 80; i++) {
            byte[] p = new byte[sizes[i % sizes.length]];
            rnd.nextBytes(p);
            packets.add(new StreamPrependTest.Packet(new byte[0], p, i));
            beats += (p.length + 4 + lanes - 1) / lanes;
        }
        StreamDriver d = new StreamDriver(sim, lanes, packets);
        long cycles = 0;
        while (d.received.size() < packets.size()) {
            d.cycle(true, true);
            cycles++;
            assertTrue(cycles < 100_000);
        }
        int fill = new ParallelCrc.Config(CrcParams.CRC32, width).latency() + 2;
        assertEquals(beats + fill, cycles, "one output beat per cycle after a " + fill
                + "-cycle fill (CRC unit + result FIFO)");
    }
}
