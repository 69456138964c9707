package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.sim.Simulator;

/**
 * Header insertion against its transaction-level definition (output packet = header ++ payload, same tuser), with
 * random gaps on the input and random backpressure on the output; and exact cycle counts with both sides ready.
 */
class StreamPrependTest {
    record Packet(byte[] header, byte[] payload, long user) {
    }

    /** Drives packets beat by beat and collects output packets; one call = one clock cycle. */
    static final class Bench {
        final Simulator sim;
        final int lanes;
        final int h;
        final ArrayDeque<Packet> toSend = new ArrayDeque<>();
        final List<byte[]> received = new ArrayList<>();
        final List<Long> receivedUser = new ArrayList<>();
        private java.io.ByteArrayOutputStream current = new java.io.ByteArrayOutputStream();
        private int offset;

        Bench(int width, int h) {
            this.lanes = width / 8;
            this.h = h;
            sim = Simulator.compile(Design.elaborate(new StreamPrepend(
                    new StreamPrepend.Config(new StreamConfig(width, 16), h))));
            sim.reset();
        }

        void cycle(boolean offer, boolean ready) {
            Packet p = toSend.peek();
            boolean valid = offer && p != null;
            if (valid) {
                int n = Math.min(lanes, p.payload.length - offset);
                sim.poke("s_axis_tdata", Beats.data(p.payload, offset, n, lanes));
                boolean last = offset + n >= p.payload.length;
                sim.poke("s_axis_tkeep", last ? Beats.keep(n, lanes) : Beats.keep(lanes, lanes));
                sim.poke("s_axis_tlast", last ? 1 : 0);
                sim.poke("s_axis_tuser", p.user);
                sim.poke("s_hdr", new BigInteger(1, reverse(p.header)));
            }
            sim.poke("s_axis_tvalid", valid ? 1 : 0);
            sim.poke("m_axis_tready", ready ? 1 : 0);
            if (sim.peek("m_axis_tvalid") == 1 && ready) {
                long[] data = sim.peekWide("m_axis_tdata");
                long[] keep = sim.peekWide("m_axis_tkeep");
                boolean last = sim.peek("m_axis_tlast") == 1;
                if ((keep[0] & 1) == 0) {
                    throw new AssertionError("a beat without lane 0 (an empty beat) at cycle " + sim.cycle());
                }
                for (int i = 0; i < lanes; i++) {
                    boolean kept = ((keep[i / 64] >>> (i % 64)) & 1) != 0;
                    if (kept) {
                        current.write((int) (data[i / 8] >>> (8 * (i % 8))));
                    } else if (!last) {
                        throw new AssertionError("a lane is empty in a beat that is not the last");
                    }
                }
                if (last) {
                    received.add(current.toByteArray());
                    receivedUser.add(sim.peek("m_axis_tuser"));
                    current = new java.io.ByteArrayOutputStream();
                }
            }
            if (valid && sim.peek("s_axis_tready") == 1) {
                offset += lanes;
                if (offset >= p.payload.length) {
                    toSend.poll();
                    offset = 0;
                }
            }
            sim.step();
        }
    }

    /** s_hdr is little-endian by byte: byte 0 in bits [7:0]. */
    static byte[] reverse(byte[] b) {
        byte[] r = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            r[i] = b[b.length - 1 - i];
        }
        return r;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    @ParameterizedTest
    @CsvSource({"64,8", "64,14", "64,42", "64,3", "512,8", "512,42", "512,62", "512,64", "512,70", "1024,62",
            "1024,18", "1024,128", "1024,200"})
    void outputIsHeaderThenPayloadUnderRandomFlowControl(int width, int h) {
        Bench b = new Bench(width, h);
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
            Packet p = new Packet(header, payload, rnd.nextInt(1 << 16));
            sent.add(p);
            b.toSend.add(p);
        }
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
        Bench b = new Bench(width, h);
        int lanes = width / 8;
        Random rnd = new Random(7);
        long expectedBeats = 0;
        int r = h % lanes;
        // the sizes of the benchmark, plus last beats of exactly B - r bytes (no spill) and B - r + 1 (spill)
        int[] sizes = {64, 256, 1500, 4096, 65, 127, 1, 2 * lanes - r, 2 * lanes - r + 1, lanes - r + 1};
        for (int i = 0; i < 70; i++) {
            byte[] payload = new byte[sizes[i % sizes.length]];
            rnd.nextBytes(payload);
            b.toSend.add(new Packet(new byte[h], payload, i));
            expectedBeats += (h + payload.length + lanes - 1) / lanes;
        }
        long cycles = 0;
        while (b.received.size() < 70) {
            b.cycle(true, true);
            cycles++;
            assertTrue(cycles < 100_000);
        }
        assertEquals(expectedBeats, cycles, "one output beat every cycle, no bubbles");
    }
}
