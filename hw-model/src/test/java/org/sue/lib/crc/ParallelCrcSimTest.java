package org.sue.lib.crc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.crc.model.CrcReference;
import org.sue.lib.crc.model.CrcReferenceTest;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;

/** JVM simulation of the RTL CRC against java.util.zip, with random back-to-back frames and idle gaps. */
class ParallelCrcSimTest {
    @ParameterizedTest
    @CsvSource({"CRC32,64", "CRC32,512", "CRC32,1024", "CRC32C,64", "CRC32C,512", "CRC32C,1024", "BZIP2,64",
            "CRC32,8", "CRC32,24", "XZ64,64", "XZ64,512", "CCITT16,512", "SMBUS8,1024", "ARC16,24"})
    void everyFrameMatchesTheJdk(String kind, int width) {
        CrcParams p = CrcReferenceTest.byName(kind);
        Simulator sim = Simulator.compile(Design.elaborate(new ParallelCrc(new ParallelCrc.Config(p, width))));
        int lanes = width / 8;
        Random rnd = new Random(width * 31L + kind.hashCode());
        ArrayDeque<Long> expected = new ArrayDeque<>();
        int hValid = sim.handle("s_axis_tvalid");
        int hData = sim.handle("s_axis_tdata");
        int hKeep = sim.handle("s_axis_tkeep");
        int hLast = sim.handle("s_axis_tlast");
        sim.reset();
        int frames = 0;
        int checked = 0;
        while (frames < 400) {
            // lengths: 1 byte, exact multiples of the bus, and random up to 20 beats
            int len = switch (rnd.nextInt(4)) {
                case 0 -> 1 + rnd.nextInt(3);
                case 1 -> lanes * (1 + rnd.nextInt(3));
                default -> 1 + rnd.nextInt(lanes * 20);
            };
            byte[] frame = new byte[len];
            rnd.nextBytes(frame);
            expected.add(crc(kind, p, frame));
            frames++;
            for (int off = 0; off < len; off += lanes) {
                int n = Math.min(lanes, len - off);
                sim.poke(hValid, 1);
                sim.poke(hData, Beats.data(frame, off, n, lanes));
                long[] keep = Beats.keep(n, lanes);
                boolean last = off + lanes >= len;
                // keep is only meaningful on the last beat: drive garbage on the others
                sim.poke(hKeep, last ? keep : randomKeep(lanes, rnd));
                sim.poke(hLast, last ? 1 : 0);
                checked += collect(sim, expected);
                sim.step();
                if (rnd.nextInt(10) == 0) { // occasional idle cycle with junk on the bus
                    sim.poke(hValid, 0);
                    sim.poke(hLast, rnd.nextInt(2));
                    checked += collect(sim, expected);
                    sim.step();
                }
            }
        }
        sim.poke(hValid, 0);
        for (int i = 0; i < 4; i++) {
            checked += collect(sim, expected);
            sim.step();
        }
        assertEquals(frames, checked, "one CRC per frame");
    }

    private static long[] randomKeep(int lanes, Random rnd) {
        long[] k = new long[(lanes + 63) / 64];
        for (int i = 0; i < k.length; i++) {
            k[i] = rnd.nextLong();
        }
        if (lanes % 64 != 0) {
            k[k.length - 1] &= (1L << (lanes % 64)) - 1;
        }
        return k;
    }

    private static int collect(Simulator sim, ArrayDeque<Long> expected) {
        if (sim.peek("crc_valid") == 1) {
            assertEquals(Long.toHexString(expected.removeFirst()), Long.toHexString(sim.peek("crc_value")));
            return 1;
        }
        return 0;
    }

    static long crc(String kind, CrcParams p, byte[] frame) {
        Checksum c = switch (kind) {
            case "CRC32" -> new CRC32();
            case "CRC32C" -> new CRC32C();
            default -> null;
        };
        if (c == null) {
            return CrcReference.compute(p, frame);
        }
        c.update(frame);
        return c.getValue();
    }
}
