package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.StreamDriver;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;

/** Every packet comes out as itself followed by zeros up to the minimum, under random flow control and back to back. */
class StreamPadTest {
    static Simulator pad(int width, int min) {
        return Simulator.compile(Design.elaborate(new StreamPad(new StreamPad.Config(new StreamConfig(width, 16), min))));
    }

    @ParameterizedTest
    @CsvSource({"512,14", "512,56", "1024,50", "256,44", "256,56", "64,30", "64,8", "512,130", "256,64"})
    void padsShortPacketsWithZeros(int width, int min) {
        int lanes = width / 8;
        Random rnd = new Random(width * 7 + min);
        List<StreamPrependTest.Packet> packets = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] p = new byte[1 + rnd.nextInt(i % 2 == 0 ? min + 2 : 3 * lanes + min)];
            rnd.nextBytes(p);
            packets.add(new StreamPrependTest.Packet(new byte[0], p, i));
        }
        StreamDriver d = new StreamDriver(pad(width, min), lanes, packets);
        for (int c = 0; c < 100_000 && d.received.size() < packets.size(); c++) {
            d.cycle(rnd.nextInt(4) > 0, rnd.nextInt(3) > 0);
        }
        assertEquals(packets.size(), d.received.size());
        for (int i = 0; i < packets.size(); i++) {
            byte[] p = packets.get(i).payload();
            assertArrayEquals(Arrays.copyOf(p, Math.max(p.length, min)), d.received.get(i), "packet " + i);
            assertEquals(i, d.receivedUser.get(i), "tuser of packet " + i);
        }
    }

    @ParameterizedTest
    @CsvSource({"512,56", "256,56", "1024,14"})
    void backToBackTakesOnlyThePaddedBeats(int width, int min) {
        int lanes = width / 8;
        Random rnd = new Random(min);
        List<StreamPrependTest.Packet> packets = new ArrayList<>();
        long beats = 0;
        for (int i = 0; i < 200; i++) {
            byte[] p = new byte[1 + rnd.nextInt(3 * lanes)];
            packets.add(new StreamPrependTest.Packet(new byte[0], p, i));
            beats += Beats.count(Math.max(p.length, min), lanes);
        }
        StreamDriver d = new StreamDriver(pad(width, min), lanes, packets);
        long cycles = 0;
        while (d.received.size() < packets.size()) {
            d.cycle(true, true);
            cycles++;
        }
        assertEquals(beats, cycles, "one beat per cycle, and only the beats the padded length needs");
    }

    @Test
    void rejectsAZeroMinimum() {
        assertThrows(IllegalArgumentException.class, () -> new StreamPad.Config(new StreamConfig(512, 8), 0));
    }
}
