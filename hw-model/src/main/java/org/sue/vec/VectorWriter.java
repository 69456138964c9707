package org.sue.vec;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Streams a vector body: one line per cycle, one lower-case hex field per port, "x" where an output's value does not
 * matter, "." where a field repeats the previous cycle's. The manifest is written on close with the final cycle
 * count.
 */
public final class VectorWriter implements Closeable {
    private final Path manifestPath;
    private final VectorManifest header;
    private final BufferedWriter out;
    private final long[][] previous;
    private final boolean[] previousDontCare;
    private final char[] buf;
    private long cycles;

    private VectorWriter(Path manifestPath, VectorManifest header, BufferedWriter out) {
        this.manifestPath = manifestPath;
        this.header = header;
        this.out = out;
        this.previous = new long[header.ports().size()][];
        this.previousDontCare = new boolean[header.ports().size()];
        int maxWords = 1;
        for (PortSpec p : header.ports()) {
            maxWords = Math.max(maxWords, p.words());
        }
        this.buf = new char[maxWords * 16];
    }

    public static VectorWriter create(Path manifestJson, VectorManifest header) {
        try {
            Path dir = manifestJson.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path body = dir.resolve(header.body());
            var stream = Files.newOutputStream(body);
            var os = header.body().endsWith(".gz") ? new GZIPOutputStream(stream, 1 << 16) : stream;
            return new VectorWriter(manifestJson, header,
                    new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.US_ASCII), 1 << 16));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create vector body for " + manifestJson, e);
        }
    }

    /** One cycle: values[i] holds port i as little-endian 64-bit words. */
    public void writeCycle(long[][] values) {
        writeCycle(values, null);
    }

    /** One cycle; where {@code dontCare[i]} (outputs only) the value is written as "x". */
    public void writeCycle(long[][] values, boolean[] dontCare) {
        try {
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    out.write(' ');
                }
                long[] v = values[i];
                int words = header.ports().get(i).words();
                long[] prev = previous[i];
                boolean x = dontCare != null && dontCare[i];
                if (x && header.ports().get(i).dir() != PortDir.OUT) {
                    throw new IllegalArgumentException("only outputs can be don't-care; " + header.ports().get(i).name()
                            + " is an input");
                }
                if (prev != null && previousDontCare[i] == x && (x || same(prev, v, words))) {
                    out.write('.');
                    continue;
                }
                if (prev == null) {
                    prev = new long[words];
                    previous[i] = prev;
                }
                previousDontCare[i] = x;
                if (x) {
                    out.write('x');
                    continue;
                }
                if (prev == null) {
                    prev = new long[words];
                    previous[i] = prev;
                }
                System.arraycopy(v, 0, prev, 0, words);
                int n = Hex.format(v, words, buf);
                out.write(buf, 0, n);
            }
            out.write('\n');
            cycles++;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean same(long[] a, long[] b, int n) {
        for (int i = 0; i < n; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    public long cycles() {
        return cycles;
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        header.withCycles(cycles).write(manifestPath);
    }
}
