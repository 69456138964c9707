package org.sue.net.tb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.model.FrameCodec;
import org.sue.net.model.FrameCodecTest;
import org.sue.net.model.ReliabilityHeader;

/** Frames written as pcap read back with a separate, minimal parser written from the file-format description. */
public class PcapWriterTest {
    @Test
    void framesReadBackWithTheirFcsFlagged(@TempDir Path dir) throws Exception {
        Random rnd = new Random(2);
        List<byte[]> written = new ArrayList<>();
        Path file = dir.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(file)) {
            for (NetConfig cfg : FrameCodecTest.allConfigs()) {
                boolean v6 = cfg.format() == HeaderFormat.ETH_IPV6_UDP;
                byte[] cmds = new byte[1 + rnd.nextInt(2000)];
                rnd.nextBytes(cmds);
                byte[] f = FrameCodec.encode(cfg, FrameCodecTest.entryTo(FrameCodecTest.ME, v6),
                        new ReliabilityHeader(1, 0, 1, written.size(), 0, 0x345, 0), cmds);
                w.write(f, 1_500_000L * written.size());
                written.add(f);
            }
        }
        List<long[]> times = new ArrayList<>();
        List<byte[]> read = read(file, times);
        assertEquals(written.size(), read.size());
        for (int i = 0; i < written.size(); i++) {
            assertEquals(1_500_000L * i, times.get(i)[0], "timestamp of the cycle (1 ns each)");
            assertArrayEquals(written.get(i), read.get(i));
            assertEquals(0x2144DF1CL, FrameCodec.crc32(read.get(i), 0, read.get(i).length), "FCS intact");
        }
    }

    /** AFH Gen2 compressed frames go to a private link type; frames a cycle apart have timestamps a nanosecond apart. */
    @Test
    void gen2CompressedFramesAreUser0AndCyclesApartAreNanosecondsApart(@TempDir Path dir) throws Exception {
        NetConfig cfg = NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED);
        Path file = dir.resolve("gen2c.pcap");
        List<byte[]> written = new ArrayList<>();
        long first = 3_000_000_123L; // past a second: the seconds field counts too
        try (PcapWriter w = PcapWriter.of(file, cfg.format())) {
            for (int i = 0; i < 3; i++) {
                byte[] f = FrameCodec.encode(cfg, FrameCodecTest.entryTo(FrameCodecTest.ME, false),
                        new ReliabilityHeader(1, 0, 1, i, 0, 0x345, 0), new byte[] {1, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8});
                w.write(f, first + i);
                written.add(f);
            }
        }
        List<long[]> times = new ArrayList<>();
        List<byte[]> read = read(file, times, 147);
        for (int i = 0; i < 3; i++) {
            assertEquals(first + i, times.get(i)[0], "one cycle = 1 ns");
            assertArrayEquals(written.get(i), read.get(i));
        }
    }

    /** An independent pcap reader of Ethernet frames with their FCS: see {@link #read(Path, List, int)}. */
    public static List<byte[]> read(Path file, List<long[]> nanos) throws java.io.IOException {
        return read(file, nanos, 2 << 29 | 1 << 28 | 1); // LINKTYPE_ETHERNET, F bit, FCS length 2 x 16 bits
    }

    /**
     * An independent pcap reader: checks the file header (nanosecond magic, the link-type field), returns the frames
     * and their times in nanoseconds.
     */
    public static List<byte[]> read(Path file, List<long[]> nanos, int linkType) throws java.io.IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0xa1b23c4d, b.getInt(), "magic, nanosecond timestamps");
        assertEquals(2, b.getShort());
        assertEquals(4, b.getShort());
        b.getInt();
        b.getInt();
        assertEquals(65535, b.getInt(), "snaplen");
        assertEquals(linkType, b.getInt(), "link-type field");
        List<byte[]> frames = new ArrayList<>();
        while (b.hasRemaining()) {
            long sec = b.getInt() & 0xffffffffL;
            int nsec = b.getInt();
            assertTrue(nsec >= 0 && nsec < 1_000_000_000, "nanoseconds below a second");
            nanos.add(new long[] {sec * 1_000_000_000L + nsec});
            int incl = b.getInt();
            assertEquals(incl, b.getInt(), "captured whole");
            byte[] f = new byte[incl];
            b.get(f);
            frames.add(f);
        }
        return frames;
    }
}
