package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sue.lib.stream.StreamNarrowTest.keepBelow;
import static org.sue.lib.stream.StreamNarrowTest.keepValue;
import static org.sue.lib.stream.StreamNarrowTest.packet;
import static org.sue.lib.stream.StreamNarrowTest.packets;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.lib.stream.model.StreamWidenReference;
import org.sue.lib.stream.model.StreamNarrowReference.Beat;

/**
 * The widened stream is, beat for beat, the reference's output beats of the input beats taken, under random flow
 * control, on well-formed packets and on any tkeep and tuser; an input beat taken every cycle when the output is
 * always ready; StreamNarrow then StreamWiden gives the stream back; parameters refused by name.
 */
class StreamWidenTest {
    /** StreamWiden under the shared harness, checked against StreamWidenReference. */
    static final class Harness extends StreamHarness {
        Harness(Component design, List<Beat> beats) {
            super(design, beats);
        }

        Harness(int width, int ratio, int userWidth, List<Beat> beats) {
            this(new StreamWiden(new StreamWiden.Config(new StreamConfig(width, userWidth), ratio)), beats);
        }

        /** The output beats are the reference's of the input beats taken, in order. */
        void assertReceivedAsReference(int ratio) {
            assertReceived(StreamWidenReference.widen(taken, ratio));
        }
    }

    /** Each beat of {@code beats} with a random tuser of its own (the output's is the completing beat's). */
    static List<Beat> userPerBeat(List<Beat> beats, int userWidth, Random rnd) {
        return beats.stream().map(b -> new Beat(b.data(), b.keep(), b.last(), new BigInteger(userWidth, rnd)))
                .toList();
    }

    @ParameterizedTest
    @CsvSource({"256,2,16", "256,4,8", "128,8,77", "512,2,1", "64,8,3", "1024,4,16"})
    void everyBeatIsTheReferencesUnderRandomFlowControl(int width, int ratio, int userWidth) {
        int lanes = width / 8;
        Random rnd = new Random(width * 31L + ratio * 7L + userWidth);
        List<Beat> beats = packets(300, 3 * ratio * lanes, lanes, userWidth, rnd);
        if (userWidth > 1) {
            beats = userPerBeat(beats, userWidth, rnd);
        }
        Harness h = new Harness(width, ratio, userWidth, beats);
        for (int c = 0; c < 100_000 && !h.toSend.isEmpty(); c++) {
            h.cycle(rnd.nextInt(10) < 7, rnd.nextInt(10) < 6);
        }
        for (int c = 0; c < 10 && h.received.size() < StreamWidenReference.widen(beats, ratio).size(); c++) {
            h.cycle(false, true);
        }
        assertEquals(beats.size(), h.taken.size(), "every input beat taken");
        h.assertReceivedAsReference(ratio);
        long partial = h.received.stream().filter(b -> !b.keep()[b.keep().length - 1]).count();
        assertTrue(partial > 50, "output beats with fewer than ratio pieces: " + partial);
        assertTrue(h.stalls > 100, "output stalls: " + h.stalls);
        assertTrue(h.storedUnderStall > 100, "pieces stored while the output stalls: " + h.storedUnderStall);
    }

    /** Any tkeep (zero, holes, a single lane) and tlast on any beat: tkeep leaves as it came, nothing lost. */
    @ParameterizedTest
    @CsvSource({"256,4,16", "128,8,5", "512,2,16"})
    void anyKeepLeavesAsItCame(int width, int ratio, int userWidth) {
        int lanes = width / 8;
        Random rnd = new Random(width + ratio);
        List<Beat> beats = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            byte[] data = new byte[lanes];
            rnd.nextBytes(data);
            boolean[] keep = StreamHarness.anyKeep(lanes, rnd);
            beats.add(new Beat(data, keep, i == 1999 || rnd.nextInt(3) == 0, new BigInteger(userWidth, rnd)));
        }
        Harness h = new Harness(width, ratio, userWidth, beats);
        for (int c = 0; c < 100_000 && !h.toSend.isEmpty(); c++) {
            h.cycle(rnd.nextInt(10) < 8, rnd.nextInt(10) < 7);
        }
        h.cycle(false, true);
        assertEquals(beats.size(), h.taken.size());
        h.assertReceivedAsReference(ratio);
        long keptIn = beats.stream().mapToLong(b -> keepValue(b.keep()).bitCount()).sum();
        long keptOut = h.received.stream().mapToLong(b -> keepValue(b.keep()).bitCount()).sum();
        assertEquals(keptIn, keptOut, "every kept byte left");
        long empty = h.received.stream().filter(b -> keepValue(b.keep()).signum() == 0).count();
        assertTrue(empty > 5, "output beats without a kept byte still leave: " + empty);
    }

    /**
     * Output always ready, back-to-back packets (short last beats, single-beat packets): an input beat is taken every
     * cycle from the first on, and an output beat leaves in the cycle its last piece arrives.
     */
    @ParameterizedTest
    @CsvSource({"512,2", "256,4", "128,8", "64,2"})
    void backToBackPacketsTakeAnInputBeatEveryCycle(int width, int ratio) {
        int lanes = width / 8;
        Random rnd = new Random(width * ratio);
        List<Beat> beats = packets(200, 3 * ratio * lanes, lanes, 16, rnd);
        Harness h = new Harness(width, ratio, 16, beats);
        int cycles = 0;
        while (!h.toSend.isEmpty() && cycles < 10 * beats.size()) {
            h.cycle(true, true);
            cycles++;
        }
        assertEquals(beats.size(), cycles, "one input beat a cycle");
        assertEquals(0, h.cyclesWithoutTake, "no bubble");
        h.assertReceivedAsReference(ratio);
        assertTrue(h.received.size() < beats.size() && h.received.size() > beats.size() / ratio,
                h.received.size() + " output beats of " + beats.size() + " input beats");
    }

    /** A test bench of StreamNarrow into StreamWiden of the same ratio. */
    static final class RoundTrip extends Component {
        RoundTrip(StreamConfig wide, int ratio) {
            StreamNarrow narrow = child("narrow", new StreamNarrow(new StreamNarrow.Config(wide, ratio)));
            StreamWiden widen = child("widen", new StreamWiden(new StreamWiden.Config(narrow.config().out(), ratio)));
            Stream.slave(this, wide).into(narrow.in);
            narrow.out.into(widen.in);
            widen.out.into(Stream.master(this, wide));
        }
    }

    /**
     * Well-formed packets through StreamNarrow and StreamWiden come back as they were, except the data of pieces
     * without a kept byte (StreamNarrow does not send them, StreamWiden fills them with zero).
     */
    @ParameterizedTest
    @CsvSource({"1024,2", "1024,4", "512,8"})
    void narrowThenWidenGivesTheStreamBack(int width, int ratio) {
        int lanes = width / 8;
        Random rnd = new Random(width - ratio);
        List<Beat> beats = packets(200, 3 * lanes, lanes, 16, rnd);
        Harness h = new Harness(new RoundTrip(new StreamConfig(width, 16), ratio), beats);
        for (int c = 0; c < 100_000 && !h.toSend.isEmpty(); c++) {
            h.cycle(rnd.nextInt(10) < 8, rnd.nextInt(10) < 7);
        }
        for (int c = 0; c < 10 && h.received.size() < beats.size(); c++) {
            h.cycle(false, true);
        }
        h.assertReceived(beats.stream().map(b -> zeroEmptyPieces(b, lanes / ratio)).toList());
    }

    /** {@code beat} with the data of every {@code lanes}-lane piece that holds no kept byte zeroed. */
    static Beat zeroEmptyPieces(Beat beat, int lanes) {
        byte[] data = beat.data().clone();
        for (int from = 0; from < data.length; from += lanes) {
            if (keepValue(Arrays.copyOfRange(beat.keep(), from, from + lanes)).signum() == 0) {
                Arrays.fill(data, from, from + lanes, (byte) 0);
            }
        }
        return new Beat(data, beat.keep(), beat.last(), beat.user());
    }

    /** The reference itself: a packet's output beats hold its bytes in order, full except the packet's last. */
    @Test
    void referenceBeatsHoldThePacketInOrder() {
        Random rnd = new Random(7);
        int lanes = 16;
        int ratio = 4;
        for (int bytes = 1; bytes <= 5 * ratio * lanes; bytes++) {
            List<Beat> in = new ArrayList<>();
            in.addAll(packet(bytes, lanes, BigInteger.TWO, rnd));
            in.addAll(packet(1 + rnd.nextInt(lanes), lanes, BigInteger.TEN, rnd)); // the next packet: one beat
            byte[] packet = new byte[bytes];
            for (int i = 0; i < in.size() - 1; i++) {
                Beat b = in.get(i);
                System.arraycopy(b.data(), 0, packet, i * lanes, keepValue(b.keep()).bitCount());
            }
            List<Beat> out = StreamWidenReference.widen(in, ratio);
            int wide = ratio * lanes;
            assertEquals((bytes + wide - 1) / wide + 1, out.size(), bytes + " bytes in " + wide + "-byte beats");
            ByteArrayOutputStream joined = new ByteArrayOutputStream();
            for (int i = 0; i < out.size() - 1; i++) {
                Beat b = out.get(i);
                int n = keepValue(b.keep()).bitCount();
                boolean last = i == out.size() - 2;
                assertEquals(last ? bytes - wide * i : wide, n, "beat " + i + " of " + bytes);
                assertEquals(keepValue(keepBelow(n, wide)), keepValue(b.keep()));
                assertEquals(last, b.last());
                assertEquals(BigInteger.TWO, b.user());
                for (int l = (n + lanes - 1) / lanes * lanes; l < wide; l++) {
                    assertEquals(0, b.data()[l], "unfilled lane " + l);
                }
                joined.write(b.data(), 0, n);
            }
            assertArrayEquals(packet, joined.toByteArray());
            Beat next = out.get(out.size() - 1);
            assertEquals(BigInteger.TEN, next.user());
            assertTrue(next.keep()[0], "the next packet starts at piece 0");
        }
    }

    @Test
    void referenceTakesTuserAndTlastFromTheCompletingBeat() {
        StreamWidenReference w = new StreamWidenReference(2);
        Beat first = new Beat(new byte[] {1, 2}, new boolean[] {true, true}, false, BigInteger.ONE);
        Beat second = new Beat(new byte[] {3, 4}, new boolean[] {true, false}, false, BigInteger.TWO);
        assertTrue(w.take(first).isEmpty());
        assertEquals(1, w.pending());
        Beat out = w.take(second).orElseThrow();
        assertEquals(new Beat(new byte[] {1, 2, 3, 4}, new boolean[] {true, true, true, false}, false,
                BigInteger.TWO), out);
        assertEquals(0, w.pending());
        Beat alone = new Beat(new byte[] {5, 6}, new boolean[] {false, false}, true, BigInteger.TEN);
        assertEquals(new Beat(new byte[] {5, 6, 0, 0}, new boolean[4], true, BigInteger.TEN),
                w.take(alone).orElseThrow());
    }

    @Test
    void refusesBadParametersByName() {
        StreamConfig s256 = new StreamConfig(256, 16);
        for (int ratio : new int[] {0, 1, 3, 6, 16}) {
            ConfigException e = assertThrows(ConfigException.class, () -> new StreamWiden.Config(s256, ratio));
            assertEquals("StreamWiden ratio must be 2, 4 or 8, got " + ratio, e.getMessage());
        }
        ConfigException wide = assertThrows(ConfigException.class,
                () -> new StreamWiden.Config(new StreamConfig(1024, 16), 8));
        assertEquals(List.of("ratio", "stream.dataWidth"), wide.fields());
        assertTrue(wide.getMessage().contains("got 1024 * 8"), wide.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> new StreamWiden.Config(null, 2));
        assertTrue(none.getMessage().contains("stream"), none.getMessage());
        assertEquals(new StreamConfig(2048, 16), new StreamWiden.Config(s256, 8).out());
    }
}
