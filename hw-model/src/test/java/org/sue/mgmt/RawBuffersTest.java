package org.sue.mgmt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sue.instance.tb.RawFrames.onTheWire;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.sue.core.ConfigException;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.sim.Simulator;

/**
 * The raw-frame buffers against frames built here, with their FCS from {@link java.util.zip.CRC32} (not the model's
 * CRC code; {@link org.sue.instance.tb.RawFrames#onTheWire}): what software writes leaves padded and with its FCS;
 * what arrives whole and good is read back byte for byte, anything else is dropped and counted.
 */
class RawBuffersTest {
    private static final int FRAME_BYTES = 1518;

    @ParameterizedTest
    @CsvSource({"512, 1", "1024, 2", "256, 3"})
    void framesLeavePaddedWithTheirFcs(int busWidth, long seed) {
        Simulator sim = Simulator.compile(Design.elaborate(new RawTxBuffer(new RawTxBuffer.Config(busWidth,
                FRAME_BYTES))));
        Random rnd = new Random(seed);
        sim.reset();
        List<byte[]> sent = new ArrayList<>();
        new StreamMonitor(sim, "m_axis", (bytes, cycle) -> sent.add(bytes));
        List<byte[]> expected = new ArrayList<>();
        for (int n = 0; n < 40; n++) {
            int length = switch (n % 4) {
                case 0 -> RawTxBuffer.MIN_FRAME_BYTES + rnd.nextInt(50);
                case 1 -> FRAME_BYTES;
                default -> RawTxBuffer.MIN_FRAME_BYTES + rnd.nextInt(FRAME_BYTES - RawTxBuffer.MIN_FRAME_BYTES);
            };
            byte[] frame = new byte[length];
            rnd.nextBytes(frame);
            writeFrame(sim, rnd, frame);
            expected.add(onTheWire(frame));
            for (int c = 0; c < 2000 && sent.size() < expected.size(); c++) {
                sim.poke("m_axis_tready", rnd.nextInt(4) == 0 ? 0 : 1);
                sim.step();
            }
        }
        assertEquals(expected.size(), sent.size(), "frames sent");
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), sent.get(i), "frame " + i);
        }
        assertEquals(40, sim.peek("frames"));
        assertEquals(0, sim.peek("rejected"));
    }

    /** Sends the buffer cannot honour are refused and counted; words while it sends are dropped and counted. */
    @Test
    void badSendsAreRefusedAndCounted() {
        Simulator sim = Simulator.compile(Design.elaborate(new RawTxBuffer(new RawTxBuffer.Config(512, 1000))));
        Random rnd = new Random(4);
        sim.reset();
        List<byte[]> sent = new ArrayList<>();
        new StreamMonitor(sim, "m_axis", (bytes, cycle) -> sent.add(bytes));
        sim.poke("m_axis_tready", 1);
        writeWords(sim, new byte[16]);
        send(sim, 13); // below the addresses and EtherType
        writeWords(sim, new byte[16]);
        send(sim, 17); // more than the 16 bytes written
        writeWords(sim, new byte[24]);
        send(sim, 20); // fewer: the words must be exactly the frame's
        writeWords(sim, new byte[1004]); // 251 words: the last one beyond the 1000-byte frame
        send(sim, 1001); // above the largest frame
        assertEquals(4, sim.peek("rejected"));
        assertEquals(1, sim.peek("words_dropped"));
        byte[] frame = new byte[1000];
        rnd.nextBytes(frame);
        sim.poke("m_axis_tready", 0); // the MAC holds the frame: the buffer stays busy
        writeWords(sim, frame);
        send(sim, 1000);
        writeWords(sim, new byte[8]);
        send(sim, 20);
        assertEquals(2 + 1, sim.peek("words_dropped"));
        assertEquals(5, sim.peek("rejected"));
        assertEquals(1, sim.peek("busy"));
        sim.poke("m_axis_tready", 1);
        sim.step(40);
        assertEquals(1, sent.size());
        assertArrayEquals(onTheWire(frame), sent.get(0));
        assertEquals(0, sim.peek("busy"));
        assertTrue(assertThrows(ConfigException.class, () -> new RawTxBuffer.Config(512, 59)).getMessage()
                .contains("frameBytes"));
        assertTrue(assertThrows(ConfigException.class, () -> new RawRxBuffer.Config(512, 1518, 1024)).getMessage()
                .contains("bufferBytes"));
    }

    /**
     * Good frames, frames with a wrong FCS, runts, frames too long and frames the MAC flagged arrive back to back;
     * software reads faster than the register block can (a read every third cycle, the block's fastest is every
     * fourth) and sometimes skips a frame's
     * rest: it reads every good frame's bytes, in order, and the counters add up.
     */
    @ParameterizedTest
    @CsvSource({"512, 1", "1024, 2", "256, 3"})
    void goodFramesAreReadBackAndOthersCounted(int busWidth, long seed) {
        Simulator sim = Simulator.compile(Design.elaborate(new RawRxBuffer(new RawRxBuffer.Config(busWidth,
                FRAME_BYTES, 16384))));
        Random rnd = new Random(seed);
        sim.reset();
        StreamSource mac = new StreamSource(sim, "s_axis");
        List<byte[]> good = new ArrayList<>();
        int bad = 0;
        for (int n = 0; n < 60; n++) {
            byte[] frame = new byte[RawTxBuffer.MIN_FRAME_BYTES + rnd.nextInt(300)];
            rnd.nextBytes(frame);
            byte[] wire = onTheWire(frame);
            switch (rnd.nextInt(6)) {
                case 0 -> {
                    wire[rnd.nextInt(wire.length)] ^= (byte) (1 << rnd.nextInt(8));
                    mac.add(wire, BigInteger.ZERO);
                    bad++;
                }
                case 1 -> {
                    mac.add(wire, BigInteger.ONE); // the MAC says bad
                    bad++;
                }
                case 2 -> {
                    mac.add(Arrays.copyOf(wire, 20 + rnd.nextInt(40)), BigInteger.ZERO); // a runt
                    bad++;
                }
                default -> {
                    mac.add(wire, BigInteger.ZERO);
                    good.add(Arrays.copyOf(frame, Math.max(frame.length, RawTxBuffer.PADDED_BYTES)));
                }
            }
        }
        byte[] tooLong = new byte[FRAME_BYTES + 1];
        mac.add(onTheWire(tooLong), BigInteger.ZERO);
        bad++;
        List<byte[]> read = new ArrayList<>();
        int skipped = 0;
        for (long c = 0; c < 200_000 && read.size() + skipped < good.size(); c++) {
            mac.drive(rnd, 100);
            if (sim.peek("head_valid") == 1 && c % 3 == 0) {
                if ((read.size() + skipped) % 7 == 3) {
                    skipOne(sim, mac);
                    skipped++;
                } else {
                    read.add(readFrame(sim, mac, rnd));
                }
                continue;
            }
            mac.advance();
            sim.step();
        }
        sim.step(10); // the last frame's rest leaves
        assertEquals(good.size(), read.size() + skipped, "every good frame kept");
        assertEquals(good.size(), sim.peek("frames"));
        assertEquals(bad, sim.peek("bad"));
        assertEquals(0, sim.peek("full"));
        assertEquals(0, sim.peek("frames_held"));
        assertEquals(0, sim.peek("internal_error"));
        assertTrue(skipped > 0 && read.size() > 20, "frames read and skipped: " + read.size() + ", " + skipped);
        // the frames read are the good ones in order, the skipped ones left out
        int at = 0;
        for (byte[] r : read) {
            while (at < good.size() && !Arrays.equals(good.get(at), r)) {
                at++;
            }
            assertTrue(at < good.size(), "a frame read is a good frame, in order");
            at++;
        }
    }

    /** With software away, frames fill the buffer and the rest are dropped whole and counted; the kept ones read back. */
    @Test
    void aFullBufferDropsAndCounts() {
        Simulator sim = Simulator.compile(Design.elaborate(new RawRxBuffer(new RawRxBuffer.Config(512,
                FRAME_BYTES, 2048))));
        Random rnd = new Random(7);
        sim.reset();
        StreamSource mac = new StreamSource(sim, "s_axis");
        List<byte[]> frames = new ArrayList<>();
        for (int n = 0; n < 20; n++) {
            byte[] frame = new byte[200];
            rnd.nextBytes(frame);
            frames.add(frame);
            mac.add(onTheWire(frame), BigInteger.ZERO);
        }
        for (int c = 0; c < 500; c++) {
            mac.drive(rnd, 100);
            mac.advance();
            sim.step();
        }
        long kept = sim.peek("frames");
        assertEquals(20, kept + sim.peek("full"));
        assertTrue(kept >= 2048 / 256 - 1 && sim.peek("full") > 0, "kept " + kept);
        assertEquals(kept, sim.peek("frames_held"));
        for (int n = 0; n < kept; n++) {
            assertArrayEquals(frames.get(n), readFrame(sim, mac, rnd));
        }
        assertEquals(0, sim.peek("head_valid"));
    }

    /** Reads the oldest frame at a read every third cycle (faster than the register block's every fourth). */
    private static byte[] readFrame(Simulator sim, StreamSource mac, Random rnd) {
        int length = (int) sim.peek("head_length");
        byte[] frame = new byte[length];
        for (int k = 0; 4 * k < length; k++) {
            long word = sim.peek("data");
            for (int b = 0; b < 4 && 4 * k + b < length; b++) {
                frame[4 * k + b] = (byte) (word >>> (8 * b));
            }
            sim.poke("data_read", 1);
            for (int c = 0; c < 3; c++) {
                mac.advance();
                sim.step();
                sim.poke("data_read", 0);
                mac.drive(rnd, 100);
            }
        }
        return frame;
    }

    private static void skipOne(Simulator sim, StreamSource mac) {
        sim.poke("skip_valid", 1);
        sim.poke("skip_value", 1);
        mac.advance();
        sim.step();
        sim.poke("skip_valid", 0);
    }

    private static void writeFrame(Simulator sim, Random rnd, byte[] frame) {
        sim.poke("m_axis_tready", rnd.nextInt(2));
        writeWords(sim, frame);
        send(sim, frame.length);
    }

    private static void writeWords(Simulator sim, byte[] bytes) {
        for (int k = 0; 4 * k < bytes.length; k++) {
            long word = 0;
            for (int b = 0; b < 4 && 4 * k + b < bytes.length; b++) {
                word |= (bytes[4 * k + b] & 0xFFL) << (8 * b);
            }
            sim.poke("words_valid", 1);
            sim.poke("words_data", word);
            sim.step();
            sim.poke("words_valid", 0);
            sim.step();
        }
    }

    private static void send(Simulator sim, int length) {
        sim.poke("send_valid", 1);
        sim.poke("send_length", length);
        sim.step();
        sim.poke("send_valid", 0);
        sim.step();
    }
}
