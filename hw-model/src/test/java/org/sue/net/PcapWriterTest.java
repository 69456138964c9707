package org.sue.net;

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

/** Frames written as pcap read back with a separate, minimal parser written from the file-format description. */
class PcapWriterTest {
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
        for (int i = 0; i < written.size(); i++) {
            int sec = b.getInt();
            int usec = b.getInt();
            assertEquals(1_500_000L * i, sec * 1_000_000_000L + usec * 1000L, "timestamp of cycle (1 ns each)");
            int incl = b.getInt();
            int orig = b.getInt();
            assertEquals(incl, orig);
            byte[] f = new byte[incl];
            b.get(f);
            assertArrayEquals(written.get(i), f);
            assertEquals(0x2144DF1CL, FrameCodec.crc32(f, 0, f.length), "FCS intact");
        }
        assertEquals(0, b.remaining());
    }
}
