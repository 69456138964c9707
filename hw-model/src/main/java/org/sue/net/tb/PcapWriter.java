package org.sue.net.tb;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sue.net.HeaderFormat;

/**
 * Classic pcap, little-endian, nanosecond timestamps (magic 0xa1b23c4d): the timestamp of a frame is its simulation
 * cycle at a nominal 1 GHz clock ({@value #NANOS_PER_CYCLE} ns a cycle), so frames one cycle apart never share one.
 * Frames keep their FCS. Ethernet-shaped formats are LINKTYPE_ETHERNET with the FCS flagged in the link-type field
 * (F bit set, FCS length 2 x 16-bit words), so Wireshark shows and checks it; AFH Gen2 compressed frames, whose
 * 8-byte header is not an Ethernet header, are LINKTYPE_USER0, which tools/wireshark/sue.lua decodes.
 */
public final class PcapWriter implements Closeable {
    public static final int MAGIC_NANOSECONDS = 0xa1b23c4d;
    public static final long NANOS_PER_CYCLE = 1;
    public static final int LINKTYPE_ETHERNET = 1;
    /** FCS length 2 (x 16 bits) in bits 31..29, F flag in bit 28, link type in bits 15..0. */
    public static final int LINKTYPE_ETHERNET_WITH_FCS = 2 << 29 | 1 << 28 | LINKTYPE_ETHERNET;
    /** The first of the link types pcap leaves to private use (LINKTYPE_USER0 .. USER15 = 147 .. 162). */
    public static final int LINKTYPE_USER0 = 147;

    private final OutputStream out;
    private long frames;

    /** Ethernet frames with their FCS. */
    public PcapWriter(Path file) {
        this(file, LINKTYPE_ETHERNET_WITH_FCS);
    }

    /** Frames of one format: LINKTYPE_USER0 for AFH Gen2 compressed, Ethernet with FCS for the others. */
    public static PcapWriter of(Path file, HeaderFormat format) {
        return new PcapWriter(file, format == HeaderFormat.AFH_GEN2_COMPRESSED ? LINKTYPE_USER0
                : LINKTYPE_ETHERNET_WITH_FCS);
    }

    private PcapWriter(Path file, int linkType) {
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
            le32(MAGIC_NANOSECONDS);
            le16(2);
            le16(4);
            le32(0); // this zone
            le32(0); // sigfigs
            le32(65535); // snaplen
            le32(linkType);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** One frame including its FCS, seen at simulation cycle {@code cycle}. */
    public void write(byte[] frame, long cycle) {
        try {
            long nanos = cycle * NANOS_PER_CYCLE;
            le32((int) (nanos / 1_000_000_000L));
            le32((int) (nanos % 1_000_000_000L));
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
