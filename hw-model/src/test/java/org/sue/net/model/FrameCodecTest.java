package org.sue.net.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.net.DropReason;
import org.sue.net.FrameFormat;
import org.sue.net.HeaderEntry;
import org.sue.net.HeaderFormat;
import org.sue.net.LocalIdentity;
import org.sue.net.NetConfig;
import org.sue.net.tb.FrameDamage;

/** The framing reference against published values, round trips of every format, and every drop reason. */
public class FrameCodecTest {
    public static final LocalIdentity ME = new LocalIdentity(0x0200_0000_0042L, new byte[] {10, 0, 0, 42}, 0x42, 0x345);
    public static final LocalIdentity ME6 = new LocalIdentity(0x0200_0000_0042L, ip6(42), 0x42, 0x345);

    static byte[] ip6(int last) {
        byte[] a = new byte[16];
        a[0] = (byte) 0xfd;
        a[15] = (byte) last;
        return a;
    }

    public static HeaderEntry entryTo(LocalIdentity dst, boolean v6) {
        return new HeaderEntry(dst.mac(), 0x0200_0000_0007L, 100, v6 ? ip6(42) : new byte[] {10, 0, 0, 42},
                v6 ? ip6(7) : new byte[] {10, 0, 0, 7}, 0xC000 | 0x123, dst.xpu(), 7, 3, 0x5a);
    }

    public static List<NetConfig> allConfigs() {
        return List.of(NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP),
                NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP).withVlan(true),
                NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP),
                NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP).withVlan(true),
                NetConfig.defaults(HeaderFormat.AFH_GEN1),
                NetConfig.defaults(HeaderFormat.AFH_GEN1).withVlan(true).withGen1Options(0x88B7, true),
                NetConfig.defaults(HeaderFormat.AFH_GEN2_NORMAL),
                NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED),
                NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED).withVlan(true));
    }

    @Test
    void reliabilityHeaderCheckBytes() {
        ReliabilityHeader rh = new ReliabilityHeader(1, 1, 0x123, 0x6789, 3, 0x345, 0x4567);
        assertEquals("5123678 9c3454567".replace(" ", ""), HexFormat.of().formatHex(rh.encode()));
        assertEquals(rh, ReliabilityHeader.decode(rh.encode(), 0));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ReliabilityHeader(1, 1, 0x400, 0, 0, 0, 0))
                .getMessage().contains("xpuid"));
    }

    @Test
    void ipv4ChecksumOfThePublishedExample() {
        // RFC 1071 style example header (Wikipedia "IPv4 header checksum"): checksum 0xB861
        byte[] h = HexFormat.of().parseHex("450000730000400040110000c0a80001c0a800c7");
        assertEquals(0xB861, Checksums.internet(h, 0, 20));
        h[10] = (byte) 0xB8;
        h[11] = 0x61;
        assertEquals(0, Checksums.internet(h, 0, 20), "a correct header sums to zero");
    }

    @Test
    void fcsLeavesTheEthernetResidue() {
        byte[] f = FrameCodec.encode(NetConfig.defaults(HeaderFormat.AFH_GEN1), entryTo(ME, false),
                new ReliabilityHeader(1, 0, 7, 1, 0, 0x345, 0), new byte[100]);
        // IEEE 802.3: CRC-32 over a frame including a correct FCS is the constant 0x2144DF1C
        assertEquals(0x2144DF1CL, FrameCodec.crc32(f, 0, f.length));
    }

    @Test
    void everyFormatRoundTripsAndHasTheRightHeaderLength() {
        Map<HeaderFormat, Integer> bare = new EnumMap<>(Map.of(HeaderFormat.ETH_IPV4_UDP, 42,
                HeaderFormat.ETH_IPV6_UDP, 62, HeaderFormat.AFH_GEN1, 14, HeaderFormat.AFH_GEN2_NORMAL, 14,
                HeaderFormat.AFH_GEN2_COMPRESSED, 8));
        Random rnd = new Random(3);
        for (NetConfig cfg : allConfigs()) {
            boolean v6 = cfg.format() == HeaderFormat.ETH_IPV6_UDP;
            if (!cfg.vlan() && cfg.afhGen1SecondEtherType() == 0) {
                assertEquals(bare.get(cfg.format()), cfg.headerBytes(), cfg.format().name());
            }
            for (int t = 0; t < 200; t++) {
                byte[] cmds = new byte[1 + rnd.nextInt(4088)];
                rnd.nextBytes(cmds);
                if (cmds.length > 0) {
                    cmds[0] = (byte) (1 + rnd.nextInt(255)); // a command type is never 0
                }
                ReliabilityHeader rh = new ReliabilityHeader(1, rnd.nextInt(3), rnd.nextInt(1024),
                        rnd.nextInt(65536), rnd.nextInt(4), 0x345, rnd.nextInt(65536));
                byte[] f = FrameCodec.encode(cfg, entryTo(ME, v6), rh, cmds);
                assertTrue(f.length >= 64);
                FrameCodec.Received r = FrameCodec.decode(cfg, v6 ? ME6 : ME, f);
                assertTrue(r.ok(), cfg.format() + ": dropped as " + r.drop());
                assertEquals(rh, r.frame().rh());
                byte[] got = r.frame().commands();
                assertArrayEquals(cmds, java.util.Arrays.copyOf(got, cmds.length));
                for (int i = cmds.length; i < got.length; i++) {
                    assertEquals(0, got[i], "padding is zeros");
                }
            }
        }
    }

    @Test
    void ipv4HeaderFieldsAreStandard() {
        NetConfig cfg = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP).withVlan(true);
        byte[] f = FrameCodec.encode(cfg, entryTo(ME, false), new ReliabilityHeader(1, 0, 7, 9, 2, 0x345, 0),
                new byte[200]);
        assertEquals(0x8100, FrameCodec.get16(f, 12));
        assertEquals(4 << 13 | 100, FrameCodec.get16(f, 14), "PCP of VC 2 is 4, VLAN id 100");
        assertEquals(0x0800, FrameCodec.get16(f, 16));
        assertEquals(0, Checksums.internet(f, 18, 20));
        assertEquals(f.length - 18 - 4, FrameCodec.get16(f, 20), "IP total length covers everything up to the FCS");
        assertEquals(0x5355, FrameCodec.get16(f, 18 + 20 + 2));
    }

    /**
     * The IPv6 UDP checksum against a second computation laid out as RFC 8200 section 8.1 draws the pseudo header
     * (source, destination, 32-bit upper-layer length, three zero bytes, next header 17), summed 32 bits at a time.
     */
    @Test
    void ipv6UdpChecksumIsRfc8200s() {
        NetConfig cfg = NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP).withVlan(true);
        Random rnd = new Random(8200);
        for (int n = 1; n < 300; n += 1 + rnd.nextInt(7)) { // odd and even UDP lengths
            byte[] cmds = new byte[n];
            rnd.nextBytes(cmds);
            byte[] f = FrameCodec.encode(cfg, entryTo(ME6, true), new ReliabilityHeader(1, 0, 7, n, 2, 0x345, 0), cmds);
            int ip = 18;
            int udp = ip + 40;
            int udpLength = FrameCodec.get16(f, udp + 4);
            byte[] pseudo = new byte[40 + udpLength];
            System.arraycopy(f, ip + 8, pseudo, 0, 32);
            pseudo[34] = (byte) (udpLength >>> 8);
            pseudo[35] = (byte) udpLength;
            pseudo[39] = 17;
            System.arraycopy(f, udp, pseudo, 40, udpLength);
            pseudo[40 + 6] = 0;
            pseudo[40 + 7] = 0;
            long sum = 0;
            for (int i = 0; i < pseudo.length; i += 4) { // big-endian 32-bit words, zero-padded
                long word = 0;
                for (int k = 0; k < 4; k++) {
                    word = word << 8 | (i + k < pseudo.length ? pseudo[i + k] & 0xff : 0);
                }
                sum += word;
            }
            while ((sum >>> 16) != 0) {
                sum = (sum & 0xffff) + (sum >>> 16);
            }
            int expected = (int) (~sum & 0xffff);
            assertEquals(expected == 0 ? 0xffff : expected, FrameCodec.get16(f, udp + 6), "UDP length " + udpLength);
            assertEquals(0, FrameCodec.udpSum(cfg, f), "a right checksum sums to zero");
            assertTrue(FrameCodec.decode(cfg, ME6, f).ok());
        }
    }

    /** Zero and wrong UDP checksums: who sends them, who refuses them (RFC 768, RFC 8200, RFC 6936). */
    @Test
    void udpChecksumsZeroRightAndWrong() {
        ReliabilityHeader rh = new ReliabilityHeader(1, 0, 7, 9, 1, 0x345, 0);
        NetConfig v6 = NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP);
        NetConfig v6zero = v6.withUdpZeroChecksum(true);
        NetConfig v4 = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP);
        int at6 = FrameFormat.udpChecksumAt(v6);
        byte[] computed = FrameCodec.encode(v6, entryTo(ME6, true), rh, new byte[100]);
        byte[] zero = FrameCodec.encode(v6zero, entryTo(ME6, true), rh, new byte[100]);
        assertTrue(FrameCodec.get16(computed, at6) != 0);
        assertEquals(0, FrameCodec.get16(zero, at6), "the zero-checksum mode sends 0");
        assertEquals(DropReason.BAD_UDP_CHECKSUM, FrameCodec.decode(v6, ME6, zero).drop(), "RFC 8200: 0 refused");
        assertTrue(FrameCodec.decode(v6zero, ME6, zero).ok());
        assertTrue(FrameCodec.decode(v6zero, ME6, computed).ok(), "a zero-mode receiver still takes checksums");
        byte[] wrong = computed.clone();
        wrong[at6 + 1] ^= 4;
        assertEquals(DropReason.BAD_UDP_CHECKSUM, FrameCodec.decode(v6zero, ME6, FrameDamage.refcs(wrong)).drop());
        byte[] payload = computed.clone();
        payload[payload.length - 20] ^= 1; // covered by the checksum, checked before the R-CRC
        assertEquals(DropReason.BAD_UDP_CHECKSUM, FrameCodec.decode(v6, ME6, FrameDamage.refcs(payload)).drop());

        byte[] plain4 = FrameCodec.encode(v4, entryTo(ME, false), rh, new byte[100]);
        int at4 = FrameFormat.udpChecksumAt(v4);
        assertEquals(0, FrameCodec.get16(plain4, at4), "IPv4 sends 0 (RFC 768)");
        assertTrue(FrameCodec.decode(v4, ME, plain4).ok());
        byte[] summed4 = plain4.clone();
        FrameCodec.fillUdpChecksum(v4, summed4);
        assertTrue(FrameCodec.decode(v4, ME, FrameDamage.refcs(summed4)).ok(), "a peer's IPv4 checksum is checked");
        summed4[at4] ^= 0x10;
        assertEquals(DropReason.BAD_UDP_CHECKSUM, FrameCodec.decode(v4, ME, FrameDamage.refcs(summed4)).drop());
    }

    @Test
    void eachBadFrameIsDroppedForItsReason() {
        NetConfig v4 = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP);
        ReliabilityHeader rh = new ReliabilityHeader(1, 0, 7, 9, 1, 0x345, 0);
        byte[] good = FrameCodec.encode(v4, entryTo(ME, false), rh, new byte[300]);
        assertTrue(FrameCodec.decode(v4, ME, good).ok());

        assertEquals(DropReason.RUNT, FrameCodec.decode(v4, ME, java.util.Arrays.copyOf(good, 40)).drop());
        byte[] flipped = good.clone();
        flipped[100] ^= 4;
        assertEquals(DropReason.BAD_FCS, FrameCodec.decode(v4, ME, flipped).drop());
        // cut mid-payload with a fresh FCS: the IP length now runs past the end
        assertEquals(DropReason.TRUNCATED, FrameCodec.decode(v4, ME, FrameDamage.refcs(java.util.Arrays.copyOf(good, 200))).drop());
        assertEquals(DropReason.UNKNOWN_ETHERTYPE, FrameCodec.decode(v4, ME, FrameDamage.refcs(with16(good, 12, 0x88B5))).drop());
        assertEquals(DropReason.BAD_IP_HEADER, FrameCodec.decode(v4, ME, FrameDamage.refcs(with16(good, 14 + 8, 0x4011 ^ 1))).drop());
        byte[] port = with16(good, 14 + 20 + 2, 4791);
        assertEquals(DropReason.UNKNOWN_UDP_PORT, FrameCodec.decode(v4, ME, FrameDamage.refcs(port)).drop());
        LocalIdentity other = new LocalIdentity(ME.mac(), new byte[] {10, 0, 0, 43}, 0x43, 0x345);
        assertEquals(DropReason.WRONG_DESTINATION, FrameCodec.decode(v4, other, good).drop());
        LocalIdentity otherPartition = new LocalIdentity(ME.mac(), ME.ip(), ME.xpu(), 0x344);
        assertEquals(DropReason.PARTITION_MISMATCH, FrameCodec.decode(v4, otherPartition, good).drop());
        byte[] rcrc = good.clone();
        rcrc[14 + 20 + 8 + 20] ^= 1;
        assertEquals(DropReason.BAD_RCRC, FrameCodec.decode(v4, ME, FrameDamage.refcs(rcrc)).drop());
        NetConfig small = v4.withMaxPdu(256);
        assertEquals(DropReason.OVERSIZE_PDU, FrameCodec.decode(small, ME, good).drop());
        byte[] ver = FrameCodec.encode(v4, entryTo(ME, false), new ReliabilityHeader(2, 0, 7, 9, 1, 0x345, 0),
                new byte[30]);
        assertEquals(DropReason.UNSUPPORTED_RH_VERSION, FrameCodec.decode(v4, ME, ver).drop());
        NetConfig gen2 = NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED);
        byte[] g = FrameCodec.encode(gen2, entryTo(ME, false), rh, new byte[10]);
        assertEquals(DropReason.WRONG_DESTINATION, FrameCodec.decode(gen2, other, g).drop());
        assertEquals(DropReason.UNKNOWN_ETHERTYPE,
                FrameCodec.decode(NetConfig.defaults(HeaderFormat.AFH_GEN2_NORMAL), ME, g).drop());
    }

    @Test
    void corruptedFramesAreNeverDelivered() {
        Random rnd = new Random(11);
        for (NetConfig cfg : allConfigs()) {
            boolean v6 = cfg.format() == HeaderFormat.ETH_IPV6_UDP;
            for (int t = 0; t < 300; t++) {
                byte[] cmds = new byte[1 + rnd.nextInt(600)];
                rnd.nextBytes(cmds);
                byte[] f = FrameCodec.encode(cfg, entryTo(ME, v6), new ReliabilityHeader(1, 0, 5, t, 0, 0x345, 0), cmds);
                byte[] bad = f.clone();
                switch (rnd.nextInt(3)) {
                    case 0 -> bad[rnd.nextInt(bad.length)] ^= (byte) (1 << rnd.nextInt(8));
                    case 1 -> bad = java.util.Arrays.copyOf(bad, rnd.nextInt(bad.length));
                    default -> rnd.nextBytes(bad);
                }
                FrameCodec.Received r = FrameCodec.decode(cfg, v6 ? ME6 : ME, bad);
                assertFalse(r.ok(), "a corrupted frame was delivered");
            }
        }
    }

    static byte[] with16(byte[] f, int at, int v) {
        byte[] c = f.clone();
        FrameCodec.put16(c, at, v);
        return c;
    }
}
