package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.net.model.Checksums;
import org.sue.sim.Simulator;

/**
 * The per-packet one's-complement sum against {@link Checksums#internet} (RFC 1071) over the packet's bytes from
 * the skip on: packets of every length (all ones and all zeros among them), back to back and with gaps, results two
 * cycles after each last beat.
 */
class InternetSumTest {
    @ParameterizedTest
    @CsvSource({"64,0", "64,30", "512,0", "512,40", "512,130", "1024,0", "1024,50", "256,200"})
    void sumsMatchRfc1071(int width, int skip) {
        Random rnd = new Random(width * 7L + skip);
        Simulator sim = Simulator.compile(Design.elaborate(new InternetSum(new InternetSum.Config(width, skip))));
        sim.reset();
        StreamSource source = new StreamSource(sim, "s_axis");
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] p = new byte[skip + 1 + rnd.nextInt(i % 3 == 0 ? 20 : 3000)];
            rnd.nextBytes(p);
            if (i % 10 == 0) {
                Arrays.fill(p, (byte) 0xff); // the carries all the way round
            } else if (i % 10 == 5) {
                Arrays.fill(p, (byte) 0); // the one sum that is 0, not 0xFFFF
            }
            source.add(p, BigInteger.ZERO);
            expected.add(~Checksums.internet(p, skip, p.length - skip) & 0xffff);
        }
        List<Integer> got = new ArrayList<>();
        List<Long> lastBeats = new ArrayList<>();
        for (long c = 0; got.size() < expected.size() && c < 200_000; c++) {
            source.drive(rnd, i(c) ? 100 : 70);
            if (sim.peek("s_axis_tvalid") == 1 && sim.peek("s_axis_tlast") == 1) {
                lastBeats.add(c);
            }
            if (sim.peek("sum_valid") == 1) {
                got.add((int) sim.peek("sum_value"));
                assertEquals(lastBeats.get(got.size() - 1) + 2, c, "result two cycles after the last beat");
            }
            source.advance();
            sim.step();
        }
        assertEquals(expected, got);
    }

    /** Back to back for the first half of the run, gaps after. */
    private static boolean i(long cycle) {
        return cycle < 20_000;
    }
}
