package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.ConfigException;
import org.sue.lib.stream.model.StreamNarrowReference;
import org.sue.lib.stream.model.StreamNarrowReference.Beat;

/**
 * The narrowed stream is, beat for beat, the reference's pieces of the input beats taken, under random flow control,
 * on well-formed packets and on any tkeep; one output beat a cycle when nothing stalls; parameters refused by name.
 */
class StreamNarrowTest {
    /** StreamNarrow under the shared harness, checked against StreamNarrowReference. */
    static final class Harness extends StreamHarness {
        Harness(int width, int ratio, int userWidth, List<Beat> beats) {
            super(new StreamNarrow(new StreamNarrow.Config(new StreamConfig(width, userWidth), ratio)), beats);
        }

        /** The output beats are the reference's pieces of every input beat taken, in order. */
        void assertReceivedAsReference(int ratio) {
            List<Beat> expected = new ArrayList<>();
            taken.forEach(b -> expected.addAll(StreamNarrowReference.pieces(b, ratio)));
            assertReceived(expected);
        }
    }

    static byte[] reversed(byte[] a) {
        byte[] r = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[a.length - 1 - i];
        }
        return r;
    }

    static BigInteger keepValue(boolean[] keep) {
        BigInteger k = BigInteger.ZERO;
        for (int i = 0; i < keep.length; i++) {
            if (keep[i]) {
                k = k.setBit(i);
            }
        }
        return k;
    }

    static boolean[] keepBelow(int n, int lanes) {
        boolean[] keep = new boolean[lanes];
        Arrays.fill(keep, 0, n, true);
        return keep;
    }

    /** A packet's beats: full except the last, tkeep contiguous from lane 0; lanes past tkeep hold random bytes. */
    static List<Beat> packet(int bytes, int lanes, BigInteger user, Random rnd) {
        List<Beat> beats = new ArrayList<>();
        for (int off = 0; off < bytes; off += lanes) {
            byte[] data = new byte[lanes];
            rnd.nextBytes(data);
            int n = Math.min(lanes, bytes - off);
            beats.add(new Beat(data, keepBelow(n, lanes), off + n >= bytes, user));
        }
        return beats;
    }

    static List<Beat> packets(int count, int maxBytes, int lanes, int userWidth, Random rnd) {
        List<Beat> beats = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            beats.addAll(packet(1 + rnd.nextInt(maxBytes), lanes, new BigInteger(userWidth, rnd), rnd));
        }
        return beats;
    }

    @ParameterizedTest
    @CsvSource({"1024,2,16", "1024,4,8", "1024,8,77", "512,8,1", "256,2,16", "128,2,3"})
    void everyBeatIsTheReferencesPiecesUnderRandomFlowControl(int width, int ratio, int userWidth) {
        int lanes = width / 8;
        Random rnd = new Random(width * 31L + ratio * 7L + userWidth);
        Harness h = new Harness(width, ratio, userWidth, packets(300, 3 * lanes, lanes, userWidth, rnd));
        int sent = h.toSend.size();
        for (int c = 0; c < 100_000 && !h.toSend.isEmpty(); c++) {
            h.cycle(rnd.nextInt(10) < 7, rnd.nextInt(10) < 6);
        }
        h.cycle(false, true);
        assertEquals(sent, h.taken.size(), "every input beat taken");
        h.assertReceivedAsReference(ratio);
        long shortBeats = h.taken.stream().filter(b -> StreamNarrowReference.pieces(b, ratio).size() < ratio).count();
        assertTrue(shortBeats > 20, "last beats that give fewer pieces than the ratio: " + shortBeats);
        assertTrue(h.stalls > 100, "output stalls under a piece: " + h.stalls);
    }

    /** Any tkeep: zero, holes, a single lane; tlast on any beat. */
    @ParameterizedTest
    @CsvSource({"1024,4,16", "512,8,5", "256,2,16"})
    void anyKeepLosesNoKeptByte(int width, int ratio, int userWidth) {
        int lanes = width / 8;
        Random rnd = new Random(width + ratio);
        List<Beat> beats = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            byte[] data = new byte[lanes];
            rnd.nextBytes(data);
            boolean[] keep = StreamHarness.anyKeep(lanes, rnd);
            beats.add(new Beat(data, keep, rnd.nextBoolean(), new BigInteger(userWidth, rnd)));
        }
        Harness h = new Harness(width, ratio, userWidth, beats);
        for (int c = 0; c < 100_000 && !h.toSend.isEmpty(); c++) {
            h.cycle(rnd.nextInt(10) < 8, rnd.nextInt(10) < 7);
        }
        h.cycle(false, true);
        assertEquals(beats.size(), h.taken.size());
        h.assertReceivedAsReference(ratio);
        long lastOnEmpty = h.received.stream().filter(b -> b.last() && keepValue(b.keep()).signum() == 0).count();
        assertTrue(lastOnEmpty > 50, "beats without a kept byte still carry their tlast: " + lastOnEmpty);
        long keptIn = beats.stream().mapToLong(b -> keepValue(b.keep()).bitCount()).sum();
        long keptOut = h.received.stream().mapToLong(b -> keepValue(b.keep()).bitCount()).sum();
        assertEquals(keptIn, keptOut, "every kept byte left");
    }

    /** N full input beats give ratio x N output beats in as many cycles, from the first cycle on. */
    @ParameterizedTest
    @CsvSource({"1024,2", "1024,4", "512,8"})
    void fullBeatsLeaveOnePieceEveryCycle(int width, int ratio) {
        int lanes = width / 8;
        Random rnd = new Random(ratio);
        List<Beat> beats = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            beats.addAll(packet(lanes * (1 + rnd.nextInt(4)), lanes, BigInteger.valueOf(i), rnd));
        }
        Harness h = new Harness(width, ratio, 16, beats);
        int cycles = 0;
        while (h.received.size() < ratio * beats.size() && cycles < 10 * ratio * beats.size()) {
            h.cycle(true, true);
            cycles++;
        }
        assertEquals(ratio * beats.size(), cycles, "one output beat a cycle");
        h.assertReceivedAsReference(ratio);
    }

    /** Back to back, packets whose last beats are short: one cycle per piece sent, no bubble between input beats. */
    @ParameterizedTest
    @CsvSource({"1024,2", "1024,4", "512,8", "256,2"})
    void backToBackPacketsWithShortLastBeatsTakeACyclePerPiece(int width, int ratio) {
        int lanes = width / 8;
        Random rnd = new Random(width * ratio);
        List<Beat> beats = packets(200, 4 * lanes, lanes, 16, rnd);
        int pieces = 0;
        for (Beat b : beats) {
            pieces += StreamNarrowReference.pieces(b, ratio).size();
        }
        assertTrue(pieces < ratio * beats.size(), "some last beats are short");
        Harness h = new Harness(width, ratio, 16, beats);
        int cycles = 0;
        while (h.received.size() < pieces && cycles < 10 * pieces) {
            h.cycle(true, true);
            cycles++;
        }
        assertEquals(pieces, cycles, "one output beat a cycle");
        h.assertReceivedAsReference(ratio);
    }

    /** The reference itself: a packet's pieces hold its bytes in order, full except the packet's last. */
    @Test
    void referencePiecesReassembleThePacket() {
        Random rnd = new Random(5);
        int lanes = 64;
        for (int bytes = 1; bytes <= 3 * lanes; bytes++) {
            byte[] packet = new byte[bytes];
            rnd.nextBytes(packet);
            List<Beat> out = new ArrayList<>();
            int off = 0;
            for (int i = 0; off < bytes; i++, off += lanes) {
                int n = Math.min(lanes, bytes - off);
                byte[] data = Arrays.copyOfRange(packet, off, off + lanes);
                out.addAll(StreamNarrowReference.pieces(new Beat(data, keepBelow(n, lanes), off + n >= bytes,
                        BigInteger.TEN), 4));
            }
            assertEquals((bytes + 15) / 16, out.size(), bytes + " bytes in 16-byte pieces");
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            for (int i = 0; i < out.size(); i++) {
                Beat b = out.get(i);
                int n = keepValue(b.keep()).bitCount();
                assertEquals(i == out.size() - 1 ? bytes - 16 * i : 16, n, "piece " + i + " of " + bytes);
                assertEquals(i == out.size() - 1, b.last());
                assertEquals(BigInteger.TEN, b.user());
                joined.write(b.data(), 0, n);
            }
            assertArrayEquals(packet, joined.toByteArray());
        }
    }

    @Test
    void aBeatWithoutKeptBytesLeavesAsPieceZeroWithItsTlast() {
        Beat empty = new Beat(new byte[32], new boolean[32], true, BigInteger.ONE);
        List<Beat> out = StreamNarrowReference.pieces(empty, 4);
        assertEquals(1, out.size());
        assertTrue(out.get(0).last());
        assertEquals(BigInteger.ZERO, keepValue(out.get(0).keep()));
    }

    @Test
    void refusesBadParametersByName() {
        StreamConfig s1024 = new StreamConfig(1024, 16);
        for (int ratio : new int[] {0, 1, 3, 6, 16}) {
            ConfigException e = assertThrows(ConfigException.class, () -> new StreamNarrow.Config(s1024, ratio));
            assertEquals("StreamNarrow ratio must be 2, 4 or 8, got " + ratio, e.getMessage());
        }
        ConfigException narrow = assertThrows(ConfigException.class,
                () -> new StreamNarrow.Config(new StreamConfig(128, 16), 4));
        assertEquals(List.of("ratio", "stream.dataWidth"), narrow.fields());
        assertTrue(narrow.getMessage().contains("got 128 / 4"), narrow.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> new StreamNarrow.Config(null, 2));
        assertTrue(none.getMessage().contains("stream"), none.getMessage());
    }
}
