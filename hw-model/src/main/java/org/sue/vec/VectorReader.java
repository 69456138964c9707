package org.sue.vec;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Streams a vector body cycle by cycle into preallocated arrays. */
public final class VectorReader implements Closeable {
    private final VectorManifest manifest;
    private final Path bodyPath;
    private final BufferedReader in;
    private final long[][] current;
    private final boolean[] currentDontCare;
    private long line;
    private boolean first = true;

    private VectorReader(VectorManifest manifest, Path bodyPath, BufferedReader in) {
        this.manifest = manifest;
        this.bodyPath = bodyPath;
        this.in = in;
        this.current = new long[manifest.ports().size()][];
        this.currentDontCare = new boolean[manifest.ports().size()];
        for (int i = 0; i < current.length; i++) {
            current[i] = new long[manifest.ports().get(i).words()];
        }
    }

    public static VectorReader open(Path manifestJson) {
        VectorManifest m = VectorManifest.read(manifestJson);
        Path body = manifestJson.toAbsolutePath().getParent().resolve(m.body());
        try {
            var stream = Files.newInputStream(body);
            var is = m.body().endsWith(".gz") ? new GZIPInputStream(stream, 1 << 16) : stream;
            return new VectorReader(m, body, new BufferedReader(new InputStreamReader(is, StandardCharsets.US_ASCII), 1 << 16));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open vector body " + body, e);
        }
    }

    public VectorManifest manifest() {
        return manifest;
    }

    /** Reads the next cycle into dst (dst[i] sized for port i); false at the end of the body. */
    public boolean next(long[][] dst) {
        return next(dst, null);
    }

    /** Like {@link #next(long[][])}; {@code dontCare[i]} tells whether port i's value does not matter this cycle. */
    public boolean next(long[][] dst, boolean[] dontCare) {
        String s;
        try {
            do {
                s = in.readLine();
                line++;
                if (s == null) {
                    return false;
                }
            } while (s.isEmpty() || s.charAt(0) == '#');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int field = 0;
        int pos = 0;
        int n = s.length();
        int ports = current.length;
        while (pos <= n && field < ports) {
            int end = s.indexOf(' ', pos);
            if (end < 0) {
                end = n;
            }
            PortSpec p = manifest.ports().get(field);
            if (end - pos == 1 && s.charAt(pos) == '.') {
                if (first) {
                    throw error("'.' on the first cycle for port '" + p.name() + "'");
                }
            } else if (end - pos == 1 && s.charAt(pos) == 'x') {
                if (p.dir() != PortDir.OUT) {
                    throw error("'x' for input '" + p.name() + "': only an output can be don't-care");
                }
                currentDontCare[field] = true;
            } else if (Hex.parse(s, pos, end, current[field], p.width())) {
                currentDontCare[field] = false;
            } else {
                throw error("bad value '" + s.substring(pos, end) + "' for port '" + p.name() + "' (" + p.width()
                        + " bits, hex expected)");
            }
            System.arraycopy(current[field], 0, dst[field], 0, current[field].length);
            if (dontCare != null) {
                dontCare[field] = currentDontCare[field];
            }
            field++;
            pos = end + 1;
        }
        if (field != ports || pos <= n) {
            throw error("expected " + ports + " fields, found " + (s.isEmpty() ? 0 : s.split(" ").length));
        }
        first = false;
        return true;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(bodyPath + " line " + line + ": " + what);
    }

    /** Fresh arrays shaped for this file's ports. */
    public long[][] newCycleBuffer() {
        long[][] b = new long[current.length][];
        for (int i = 0; i < b.length; i++) {
            b[i] = new long[current[i].length];
        }
        return b;
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
