package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;

/** Output packet i is exactly bytes [H, n-T) of input packet i (empty if none), for any spacing of the input beats. */
class StreamSliceTest {
    /** Drives a stream that cannot be stalled and collects what comes out. */
    static final class Harness {
        final Simulator sim;
        final int lanes;
        final List<byte[]> out = new ArrayList<>();
        private ByteArrayOutputStream current = new ByteArrayOutputStream();

        Harness(Simulator sim, int lanes) {
            this.sim = sim;
            this.lanes = lanes;
            sim.reset();
        }

        void send(byte[] p, Random gaps, int gapPercent) {
            for (int off = 0; off < p.length; off += lanes) {
                while (gaps != null && gaps.nextInt(100) < gapPercent) {
                    idle();
                }
                int n = Math.min(lanes, p.length - off);
                sim.poke("s_axis_tdata", Beats.data(p, off, n, lanes));
                sim.poke("s_axis_tkeep", Beats.keep(n, lanes));
                sim.poke("s_axis_tlast", off + n >= p.length ? 1 : 0);
                sim.poke("s_axis_tvalid", 1);
                step();
            }
        }

        void idle() {
            sim.poke("s_axis_tvalid", 0);
            step();
        }

        private void step() {
            if (sim.peek("m_axis_tvalid") == 1) {
                long[] data = sim.peekWide("m_axis_tdata");
                long[] keep = sim.peekWide("m_axis_tkeep");
                boolean last = sim.peek("m_axis_tlast") == 1;
                for (int i = 0; i < lanes; i++) {
                    boolean kept = ((keep[i / 64] >>> (i % 64)) & 1) != 0;
                    if (kept) {
                        current.write((int) (data[i / 8] >>> (8 * (i % 8))));
                    } else {
                        assertTrue(last, "only a last beat may have empty lanes, cycle " + sim.cycle());
                        assertEquals(0, (data[i / 8] >>> (8 * (i % 8))) & 0xff, "empty lanes are zero");
                    }
                }
                if (last) {
                    out.add(current.toByteArray());
                    current = new ByteArrayOutputStream();
                }
            }
            sim.step();
        }
    }

    @ParameterizedTest
    @CsvSource({"512,42,4", "512,50,4", "512,8,4", "1024,62,8", "1024,66,4", "1024,8,4", "256,74,4", "256,0,8",
                "64,18,4", "64,6,7", "512,60,4", "512,61,4", "512,64,4"})
    void cutsHeadAndTailOfEveryPacket(int width, int head, int tail) {
        int lanes = width / 8;
        Simulator sim = Simulator.compile(Design.elaborate(new StreamSlice(new StreamSlice.Config(width, head, tail))));
        Harness hx = new Harness(sim, lanes);
        Random rnd = new Random(width * 131 + head * 7 + tail);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            int n = switch (rnd.nextInt(4)) {
                case 0 -> 1 + rnd.nextInt(head + tail + 2); // around "nothing left"
                case 1 -> head + tail + lanes * rnd.nextInt(4) + rnd.nextInt(3) - 1; // beat boundaries
                default -> 1 + rnd.nextInt(5 * lanes);
            };
            byte[] p = new byte[Math.max(1, n)];
            rnd.nextBytes(p);
            sent.add(p);
            hx.send(p, rnd, i % 4 < 2 ? 0 : 30);
        }
        for (int i = 0; i < 4; i++) {
            hx.idle();
        }
        assertEquals(sent.size(), hx.out.size(), "one output packet per input packet");
        for (int i = 0; i < sent.size(); i++) {
            byte[] p = sent.get(i);
            byte[] expected = p.length > head + tail ? Arrays.copyOfRange(p, head, p.length - tail) : new byte[0];
            assertArrayEquals(expected, hx.out.get(i), "packet " + i + " of " + p.length + " bytes");
        }
    }

    @Test
    void backToBackPacketsNeedNoStall() {
        // the slice cannot stall, so this is about the output never owing two beats at once: checked by counting
        Simulator sim = Simulator.compile(Design.elaborate(new StreamSlice(new StreamSlice.Config(1024, 62, 8))));
        Harness hx = new Harness(sim, 128);
        Random rnd = new Random(5);
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            byte[] p = new byte[71 + rnd.nextInt(400)];
            rnd.nextBytes(p);
            sent.add(p);
            hx.send(p, null, 0);
        }
        hx.idle();
        hx.idle();
        assertEquals(sent.size(), hx.out.size());
        for (int i = 0; i < sent.size(); i++) {
            assertArrayEquals(Arrays.copyOfRange(sent.get(i), 62, sent.get(i).length - 8), hx.out.get(i));
        }
    }

    @Test
    void rejectsTailOfAWholeBeat() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new StreamSlice.Config(64, 4, 8));
        assertTrue(e.getMessage().contains("tailBytes"), e.getMessage());
    }
}
