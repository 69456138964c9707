package org.sue.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sue.core.ByteLayout;
import org.sue.core.ByteLayoutTest;
import org.sue.net.model.FrameCodecTest;

/**
 * The header layouts against published headers, read and written both ways, and in hardware against plain Java on
 * random headers, every layout and every configuration's network header.
 */
class FrameFormatTest {
    /** docs/protocol.md 2.3: ver 1, op 1, xpuid 0x123, psn 0x6789, vc 3, partition 0x345, rpsn 0x4567. */
    @Test
    void theRhCheckVector() {
        byte[] rh = HexFormat.of().parseHex("51236789c3454567");
        Map<String, Long> fields = Map.of("ver", 1L, "op", 1L, "port", 0L, "xpuid", 0x123L, "psn", 0x6789L, "vc", 3L,
                "rsvd2", 0L, "partition", 0x345L, "rpsn", 0x4567L);
        assertDecodesAndEncodes(FrameFormat.RH, rh, fields);
    }

    /** The IPv4 header of the "IPv4 header checksum" example (Wikipedia): 192.168.0.1 to 192.168.0.199, UDP. */
    @Test
    void aPublishedIpv4Header() {
        byte[] ip = HexFormat.of().parseHex("45000073000040004011b861c0a80001c0a800c7");
        Map<String, Long> fields = Map.ofEntries(Map.entry("version", 4L), Map.entry("ihl", 5L),
                Map.entry("dscp", 0L), Map.entry("ecn", 0L), Map.entry("total_length", 0x73L),
                Map.entry("identification", 0L), Map.entry("flags", 2L), Map.entry("fragment_offset", 0L),
                Map.entry("ttl", 64L), Map.entry("protocol", 17L), Map.entry("checksum", 0xb861L),
                Map.entry("src", 0xc0a80001L), Map.entry("dst", 0xc0a800c7L));
        assertDecodesAndEncodes(FrameFormat.IPV4, ip, fields);
    }

    static void assertDecodesAndEncodes(ByteLayout l, byte[] published, Map<String, Long> fields) {
        assertEquals(l.fields().size(), fields.size(), "every field of " + l);
        byte[] written = new byte[l.bytes()];
        for (ByteLayout.Slot s : l.fields()) {
            assertEquals(fields.get(s.path()), l.get(published, 0, s.path()), s.path());
            l.set(written, 0, s.path(), fields.get(s.path()));
        }
        assertArrayEquals(published, written);
    }

    @Test
    void everyHeaderReadsAndBuildsInHardwareAsOnBytes() {
        long seed = 1;
        for (ByteLayout l : List.of(FrameFormat.RH, FrameFormat.ETH_ADDRESSES, FrameFormat.VLAN_TAG, FrameFormat.IPV4,
                FrameFormat.IPV6, FrameFormat.UDP, FrameFormat.AFH_GEN1_ADDRESSES, FrameFormat.AFH_GEN1_SHIM,
                FrameFormat.AFH_GEN2_ADDRESSES, FrameFormat.AFH_GEN2C_ADDRESSES)) {
            ByteLayoutTest.assertHardwareAgreesWithBytes(l, seed++, 50);
        }
        for (NetConfig cfg : FrameCodecTest.allConfigs()) {
            ByteLayoutTest.assertHardwareAgreesWithBytes(FrameFormat.networkHeader(cfg), seed++, 20);
        }
    }

    /** docs/protocol.md 1.2 and 5: where each part of each network header starts. */
    @Test
    void networkHeadersPutThePartsWhereTheProtocolPageSays() {
        NetConfig v4 = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP);
        assertEquals("[42, 14, 34, 40, 26]", List.of(v4.headerBytes(), FrameFormat.networkHeader(v4).at("ipv4"),
                FrameFormat.udpAt(v4), FrameFormat.udpChecksumAt(v4), FrameFormat.udpSummedFrom(v4)).toString());
        NetConfig v6 = NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP).withVlan(true);
        assertEquals("[66, 18, 58, 64, 26]", List.of(v6.headerBytes(), FrameFormat.networkHeader(v6).at("ipv6"),
                FrameFormat.udpAt(v6), FrameFormat.udpChecksumAt(v6), FrameFormat.udpSummedFrom(v6)).toString());
        NetConfig gen1 = NetConfig.defaults(HeaderFormat.AFH_GEN1).withVlan(true).withGen1Options(0x88B7, true);
        assertEquals("[28, 4, 16, 18, 20]", List.of(gen1.headerBytes(), FrameFormat.networkHeader(gen1)
                .at("addr.dst_xpu"), FrameFormat.networkHeader(gen1).at("ether_type"), FrameFormat.networkHeader(gen1)
                .at("second_ether_type"), FrameFormat.networkHeader(gen1).at("shim")).toString());
        NetConfig gen2 = NetConfig.defaults(HeaderFormat.AFH_GEN2_NORMAL);
        assertEquals("[14, 2, 6, 12]", List.of(gen2.headerBytes(), FrameFormat.networkHeader(gen2).at("addr.dst_xpu"),
                FrameFormat.networkHeader(gen2).at("addr.sa_flags"), FrameFormat.networkHeader(gen2).at("ether_type"))
                .toString());
        NetConfig gen2c = NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED).withVlan(true);
        assertEquals("[12, 1, 3, 6, 10]", List.of(gen2c.headerBytes(), FrameFormat.networkHeader(gen2c)
                .at("addr.dst_xpu"), FrameFormat.networkHeader(gen2c).at("addr.sa_flags"), FrameFormat
                .networkHeader(gen2c).at("vlan"), FrameFormat.networkHeader(gen2c).at("ether_type")).toString());
    }
}
