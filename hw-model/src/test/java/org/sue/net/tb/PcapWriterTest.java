package org.sue.net.tb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
            assertEquals(1_500_000L * i, times.get(i)[0], "timestamp of cycle (1 ns each)");
            assertArrayEquals(written.get(i), read.get(i));
            assertEquals(0x2144DF1CL, FrameCodec.crc32(read.get(i), 0, read.get(i).length), "FCS intact");
        }
    }

    /** An independent pcap reader: checks the file header, returns the frames and their times in nanoseconds. */
    public static List<byte[]> read(Path file, List<long[]> nanos) throws java.io.IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0xa1b2c3d4, b.getInt(), "magic, microsecond timestamps");
        assertEquals(2, b.getShort());
        assertEquals(4, b.getShort());
        b.getInt();
        b.getInt();
        assertEquals(65535, b.getInt(), "snaplen");
        int linkType = b.getInt();
        assertEquals(1, linkType & 0xffff, "LINKTYPE_ETHERNET");
        assertEquals(1, (linkType >>> 28) & 1, "F bit: frames carry an FCS");
        assertEquals(2, linkType >>> 29, "FCS length in 16-bit words");
        List<byte[]> frames = new ArrayList<>();
        while (b.hasRemaining()) {
            int sec = b.getInt();
            int usec = b.getInt();
            nanos.add(new long[] {sec * 1_000_000_000L + usec * 1000L});
            int incl = b.getInt();
            assertEquals(incl, b.getInt(), "captured whole");
            byte[] f = new byte[incl];
            b.get(f);
            frames.add(f);
        }
        return frames;
    }
}
