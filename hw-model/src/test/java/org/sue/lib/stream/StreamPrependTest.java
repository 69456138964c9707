package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.StreamDriver;
import org.sue.sim.Simulator;

/**
 * Header insertion against its transaction-level definition (output packet = header ++ payload, same tuser), with
 * random gaps on the input and random backpressure on the output; and exact cycle counts with both sides ready.
 */
public class StreamPrependTest {
    public record Packet(byte[] header, byte[] payload, long user) {
    }

    static StreamDriver bench(int width, int h, List<Packet> packets) {
        Simulator sim = Simulator.compile(Design.elaborate(new StreamPrepend(
                new StreamPrepend.Config(new StreamConfig(width, 16), h))));
        return new StreamDriver(sim, width / 8, packets);
    }

    /** s_hdr is little-endian by byte: byte 0 in bits [7:0]. */
    public static byte[] reverse(byte[] b) {
        byte[] r = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            r[i] = b[b.length - 1 - i];
        }
        return r;
    }

    public static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    @ParameterizedTest
    @CsvSource({"64,8", "64,14", "64,42", "64,3", "512,8", "512,42", "512,62", "512,64", "512,70", "1024,62",
            "1024,18", "1024,128", "1024,200"})
    void outputIsHeaderThenPayloadUnderRandomFlowControl(int width, int h) {
        Random rnd = new Random(width * 100L + h);
        List<Packet> sent = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            byte[] header = new byte[h];
            rnd.nextBytes(header);
            int len = switch (rnd.nextInt(4)) {
                case 0 -> 1 + rnd.nextInt(8);
                case 1 -> (width / 8) * (1 + rnd.nextInt(4)) - rnd.nextInt(2) * ((h % (width / 8)));
                default -> 1 + rnd.nextInt(4096);
            };
            byte[] payload = new byte[Math.max(1, len)];
            rnd.nextBytes(payload);
            sent.add(new Packet(header, payload, rnd.nextInt(1 << 16)));
        }
        StreamDriver b = bench(width, h, sent);
        int guard = 0;
        while (b.received.size() < sent.size() && guard++ < 200_000) {
            b.cycle(rnd.nextInt(5) > 0, rnd.nextInt(4) > 0);
        }
        assertEquals(sent.size(), b.received.size(), "every packet came out");
        for (int i = 0; i < sent.size(); i++) {
            assertArrayEquals(concat(sent.get(i).header, sent.get(i).payload), b.received.get(i), "packet " + i);
            assertEquals(sent.get(i).user, b.receivedUser.get(i), "tuser of packet " + i);
        }
    }

    @ParameterizedTest
    @CsvSource({"512,8", "512,42", "512,62", "1024,62", "1024,14", "1024,128"})
    void backToBackPacketsTakeExactlyTheirOutputBeats(int width, int h) {
        int lanes = width / 8;
        List<Packet> sent = new ArrayList<>();
        Random rnd = new Random(7);
        long expectedBeats = 0;
        int r = h % lanes;
        // the sizes of the benchmark, plus last beats of exactly B - r bytes (no spill) and B - r + 1 (spill)
        int[] sizes = {64, 256, 1500, 4096, 65, 127, 1, 2 * lanes - r, 2 * lanes - r + 1, lanes - r + 1};
        for (int i = 0; i < 70; i++) {
            byte[] payload = new byte[sizes[i % sizes.length]];
            rnd.nextBytes(payload);
            sent.add(new Packet(new byte[h], payload, i));
            expectedBeats += (h + payload.length + lanes - 1) / lanes;
        }
        StreamDriver b = bench(width, h, sent);
        long cycles = 0;
        while (b.received.size() < 70) {
            b.cycle(true, true);
            cycles++;
            assertTrue(cycles < 100_000);
        }
        assertEquals(expectedBeats, cycles, "one output beat every cycle, no bubbles");
    }
}
