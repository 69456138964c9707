package org.sue.vec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VectorFormatTest {
    static final int[] WIDTHS = {1, 63, 64, 65, 144, 1024};

    static VectorManifest header(String body) {
        List<PortSpec> ports = new ArrayList<>();
        ports.add(new PortSpec("rst", PortDir.IN, 1));
        for (int w : WIDTHS) {
            ports.add(new PortSpec("p" + w, w % 2 == 0 ? PortDir.IN : PortDir.OUT, w));
        }
        return new VectorManifest("M", new ObjectMapper().createObjectNode().put("depth", 4), "clk", "rst",
                "SYNC_HIGH", 0, body, ports);
    }

    static long[] random(int width, Random rnd) {
        BigInteger v = rnd.nextInt(4) == 0 ? BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE)
                : new BigInteger(width, rnd);
        long[] w = new long[(width + 63) / 64];
        for (int i = 0; i < w.length; i++) {
            w[i] = v.shiftRight(64 * i).longValue();
        }
        return w;
    }

    @ParameterizedTest
    @ValueSource(strings = {"t.vec", "t.vec.gz"})
    void roundTripWithRepeatsAndAllWidths(String body, @TempDir Path dir) {
        Random rnd = new Random(1);
        Path json = dir.resolve("t.json");
        List<long[][]> written = new ArrayList<>();
        try (VectorWriter w = VectorWriter.create(json, header(body))) {
            long[][] row = null;
            for (int c = 0; c < 500; c++) {
                long[][] next = new long[WIDTHS.length + 1][];
                next[0] = new long[] {c < 3 ? 1 : 0};
                for (int i = 0; i < WIDTHS.length; i++) {
                    next[i + 1] = row != null && rnd.nextBoolean() ? row[i + 1].clone() : random(WIDTHS[i], rnd);
                }
                row = next;
                written.add(row);
                w.writeCycle(row);
            }
        }
        VectorManifest m = VectorManifest.read(json);
        assertEquals(500, m.cycles());
        assertEquals(4, m.config().path("depth").asInt());
        try (VectorReader r = VectorReader.open(json)) {
            long[][] buf = r.newCycleBuffer();
            for (long[][] expected : written) {
                assertTrue(r.next(buf));
                for (int i = 0; i < expected.length; i++) {
                    assertArrayEquals(expected[i], buf[i]);
                }
            }
            assertFalse(r.next(buf));
        }
    }

    @Test
    void repeatsAreWrittenAsDots(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("d.json");
        VectorManifest h = new VectorManifest("M", null, "clk", "rst", "SYNC_HIGH", 0, "d.vec",
                List.of(new PortSpec("a", PortDir.IN, 8), new PortSpec("b", PortDir.OUT, 100)));
        try (VectorWriter w = VectorWriter.create(json, h)) {
            w.writeCycle(new long[][] {{0xab}, {0, 1}});
            w.writeCycle(new long[][] {{0xab}, {5, 0}});
        }
        assertEquals("ab 10000000000000000\n. 5\n", Files.readString(dir.resolve("d.vec")));
    }

    @Test
    void errorsNameLineAndPort(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("e.json");
        new VectorManifest("M", null, "clk", "rst", "SYNC_HIGH", 3, "e.vec",
                List.of(new PortSpec("a", PortDir.IN, 4), new PortSpec("b", PortDir.OUT, 8))).write(json);
        Files.writeString(dir.resolve("e.vec"), "# comment\n1 ff\n. 1x\n");
        try (VectorReader r = VectorReader.open(json)) {
            long[][] buf = r.newCycleBuffer();
            assertTrue(r.next(buf));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.next(buf));
            assertTrue(e.getMessage().contains("line 3") && e.getMessage().contains("'b'"), e.getMessage());
        }
        Files.writeString(dir.resolve("e.vec"), "1f 0\n");
        try (VectorReader r = VectorReader.open(json)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.next(r.newCycleBuffer()));
            assertTrue(e.getMessage().contains("'a'") && e.getMessage().contains("4 bits"), e.getMessage());
        }
        Files.writeString(dir.resolve("e.vec"), "1 2 3\n");
        try (VectorReader r = VectorReader.open(json)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.next(r.newCycleBuffer()));
            assertTrue(e.getMessage().contains("expected 2 fields"), e.getMessage());
        }
        Files.writeString(dir.resolve("e.vec"), ". 2\n");
        try (VectorReader r = VectorReader.open(json)) {
            assertThrows(IllegalArgumentException.class, () -> r.next(r.newCycleBuffer()));
        }
    }

    /** "x" marks an output don't-care; "." repeats it; values after it are read again; an input can never be "x". */
    @Test
    void dontCareOutputsRoundTripAndInputsRefuseThem(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("x.json");
        int out = 2; // p63: an output
        long[][] row = new long[WIDTHS.length + 1][];
        for (int i = 0; i < row.length; i++) {
            row[i] = new long[i == 0 ? 1 : (WIDTHS[i - 1] + 63) / 64];
        }
        boolean[][] marks = {{false, false, true}, {false, false, true}, {false, false, false}, {false, false, true}};
        try (VectorWriter w = VectorWriter.create(json, header("x.vec"))) {
            for (int c = 0; c < marks.length; c++) {
                row[out][0] = c + 5;
                boolean[] dc = new boolean[row.length];
                dc[out] = marks[c][2];
                w.writeCycle(row, dc);
            }
        }
        List<String> lines = Files.readAllLines(dir.resolve("x.vec"));
        assertEquals("x", lines.get(0).split(" ")[out]);
        assertEquals(".", lines.get(1).split(" ")[out], "a repeated don't-care is written as a repeat");
        assertEquals("7", lines.get(2).split(" ")[out]);
        try (VectorReader r = VectorReader.open(json)) {
            long[][] dst = r.newCycleBuffer();
            boolean[] dc = new boolean[row.length];
            for (boolean[] m : marks) {
                assertTrue(r.next(dst, dc));
                assertEquals(m[2], dc[out]);
            }
        }
        String[] first = lines.get(0).split(" ");
        first[3] = "x"; // p64, an input
        lines.set(0, String.join(" ", first));
        Files.write(dir.resolve("x.vec"), lines);
        try (VectorReader r = VectorReader.open(json)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> r.next(r.newCycleBuffer(), new boolean[row.length]));
            assertTrue(e.getMessage().contains("only an output can be don't-care"), e.getMessage());
        }
    }
}
