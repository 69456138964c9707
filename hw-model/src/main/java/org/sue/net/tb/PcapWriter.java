package org.sue.net.tb;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Classic pcap (little-endian, microsecond timestamps), LINKTYPE_ETHERNET with the FCS kept on every frame and
 * flagged in the link-type field (F bit set, FCS length 2 x 16-bit words), so Wireshark shows and checks it.
 * The timestamp is the simulation cycle at a nominal 1 GHz clock.
 */
public final class PcapWriter implements Closeable {
    public static final int MAGIC = 0xa1b2c3d4;
    public static final int LINKTYPE_ETHERNET = 1;
    /** FCS length 2 (x 16 bits) in bits 31..29, F flag in bit 28, link type in bits 15..0. */
    public static final int LINKTYPE_ETHERNET_WITH_FCS = 2 << 29 | 1 << 28 | LINKTYPE_ETHERNET;

    private final OutputStream out;
    private long frames;

    public PcapWriter(Path file) {
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
            le32(MAGIC);
            le16(2);
            le16(4);
            le32(0); // this zone
            le32(0); // sigfigs
            le32(65535); // snaplen
            le32(LINKTYPE_ETHERNET_WITH_FCS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** One frame including its FCS, seen at simulation cycle {@code cycle}. */
    public void write(byte[] frame, long cycle) {
        try {
            long nanos = cycle; // 1 ns per cycle
            le32((int) (nanos / 1_000_000_000L));
            le32((int) (nanos / 1000 % 1_000_000));
            le32(frame.length);
            le32(frame.length);
            out.write(frame);
            frames++;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public long frames() {
        return frames;
    }

    private void le32(int v) throws IOException {
        out.write(v);
        out.write(v >>> 8);
        out.write(v >>> 16);
        out.write(v >>> 24);
    }

    private void le16(int v) throws IOException {
        out.write(v);
        out.write(v >>> 8);
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
