package org.sue.net;

import static org.sue.core.Layout.bits;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sue.core.ByteLayout;
import org.sue.core.Layout;

/**
 * The SUE frame on the wire (docs/protocol.md sections 1-3, 5), {@code network header | RH | packed commands |
 * padding | R-CRC | FCS}, described once for the hardware and the reference codec alike: the layout of every header
 * ({@link ByteLayout}s: the RH, the Ethernet addresses and 802.1Q tag, IPv4, IPv6, UDP, the AFH addresses and the
 * Gen1 shim), the network header a configuration puts together from them ({@link #networkHeader}) and the sizes.
 */
public final class FrameFormat {
    private FrameFormat() {
    }

    /** The reliability header (SUE spec Table 3, docs/protocol.md section 2): four big-endian 16-bit words. */
    public static final ByteLayout RH = ByteLayout.of("rh", bits("ver", 2), bits("op", SueMeta.OP_WIDTH),
            bits("port", 2), bits("xpuid", SueMeta.XPU_WIDTH), bits("psn", SueMeta.PSN_WIDTH),
            bits("vc", SueMeta.VC_WIDTH), bits("rsvd2", 4), bits("partition", SueMeta.PARTITION_WIDTH),
            bits("rpsn", SueMeta.PSN_WIDTH));
    /** IEEE 802.3 destination and source MAC addresses, the start of the Ethernet header. */
    public static final ByteLayout ETH_ADDRESSES = ByteLayout.of("eth_addresses", bits("da", 48), bits("sa", 48));
    /** IEEE 802.1Q tag, after the addresses of any format (docs/protocol.md 5.2). */
    public static final ByteLayout VLAN_TAG = ByteLayout.of("vlan_tag", bits("tpid", 16), bits("pcp", 3),
            bits("dei", 1), bits("vid", 12));
    /** RFC 791, no options. */
    public static final ByteLayout IPV4 = ByteLayout.of("ipv4", bits("version", 4), bits("ihl", 4),
            bits("dscp", 6), bits("ecn", 2), bits("total_length", 16), bits("identification", 16), bits("flags", 3),
            bits("fragment_offset", 13), bits("ttl", 8), bits("protocol", 8), bits("checksum", 16),
            bits("src", 32), bits("dst", 32));
    /** RFC 8200, no extension headers. */
    public static final ByteLayout IPV6 = ByteLayout.of("ipv6", bits("version", 4), bits("traffic_class", 8),
            bits("flow_label", 20), bits("payload_length", 16), bits("next_header", 8), bits("hop_limit", 8),
            bits("src", 128), bits("dst", 128));
    /** RFC 768. */
    public static final ByteLayout UDP = ByteLayout.of("udp", bits("src_port", 16), bits("dst_port", 16),
            bits("length", 16), bits("checksum", 16));
    /** AFH Gen1 addresses (docs/protocol.md 5.5): the DA's last two bytes carry the destination XPU. */
    public static final ByteLayout AFH_GEN1_ADDRESSES = ByteLayout.of("afh_gen1_addresses", bits("da_high", 32),
            bits("dst_xpu", 16), bits("sa", 48));
    /** The AFH Gen1 shim header [ours] (docs/protocol.md 5.5). */
    public static final ByteLayout AFH_GEN1_SHIM = ByteLayout.of("afh_gen1_shim", bits("version", 4),
            bits("hop_count", 4), bits("entropy", 8), bits("src_xpu", 16), bits("dst_xpu", 16), bits("rsvd", 16));
    /** AFH Gen2 normal SLAP addresses [ours] (docs/protocol.md 5.6). */
    public static final ByteLayout AFH_GEN2_ADDRESSES = ByteLayout.of("afh_gen2_addresses", bits("da_flags", 8),
            bits("hop_count", 8), bits("dst_xpu", 32), bits("sa_flags", 8), bits("entropy", 8), bits("src_xpu", 32));
    /** AFH Gen2 compressed SLAP addresses [ours] (docs/protocol.md 5.6). */
    public static final ByteLayout AFH_GEN2C_ADDRESSES = ByteLayout.of("afh_gen2c_addresses", bits("da_flags", 8),
            bits("dst_xpu", 16), bits("sa_flags", 8), bits("src_xpu", 16));

    /** Width of an XPU address on the wire: 32 bits in AFH Gen2 normal, the widest (16 in the other AFH formats). */
    public static final int XPU_ADDRESS_WIDTH = AFH_GEN2_ADDRESSES.slot("dst_xpu").width();
    /** Smallest Ethernet frame, FCS included. */
    public static final int MIN_FRAME = 64;
    public static final int FCS_BYTES = 4;
    public static final int RCRC_BYTES = 4;
    public static final int RH_BYTES = RH.bytes();
    /** The largest PDU: RH and packed commands. */
    public static final int MAX_PDU_BYTES = 4096;
    /** AFH Gen2 first address octet: V (bit 7) = 0, W (bit 6), X (bit 1) = 1 locally assigned, M (bit 0) = 0. */
    public static final int GEN2_NORMAL_FLAGS = 0x02;
    public static final int GEN2_COMPRESSED_FLAGS = 0x42;
    /** The IPv4 protocol / IPv6 next header of UDP. */
    public static final int IP_PROTOCOL_UDP = 17;
    /** Version of the AFH Gen1 shim header. */
    public static final int SHIM_VERSION = 1;

    /**
     * The network header of a configuration: {@code addr} (the format's addresses), {@code vlan} (when tagged),
     * {@code ether_type}, then {@code ipv4} or {@code ipv6} and {@code udp}, or for AFH Gen1 the optional
     * {@code second_ether_type} and {@code shim}.
     */
    public static ByteLayout networkHeader(NetConfig cfg) {
        return NETWORK_HEADERS.computeIfAbsent(new HeaderShape(cfg.format(), cfg.vlan(),
                cfg.afhGen1SecondEtherType() != 0, cfg.afhGen1Shim()), FrameFormat::build);
    }

    /** What decides a network header's layout: made once per shape (codecs and testbenches ask per frame). */
    private record HeaderShape(HeaderFormat format, boolean vlan, boolean secondEtherType, boolean shim) {
    }

    private static final Map<HeaderShape, ByteLayout> NETWORK_HEADERS = new ConcurrentHashMap<>();

    private static ByteLayout build(HeaderShape cfg) {
        List<Layout.Spec> parts = new ArrayList<>();
        parts.add(ByteLayout.nested("addr", switch (cfg.format()) {
            case ETH_IPV4_UDP, ETH_IPV6_UDP -> ETH_ADDRESSES;
            case AFH_GEN1 -> AFH_GEN1_ADDRESSES;
            case AFH_GEN2_NORMAL -> AFH_GEN2_ADDRESSES;
            case AFH_GEN2_COMPRESSED -> AFH_GEN2C_ADDRESSES;
        }));
        if (cfg.vlan()) {
            parts.add(ByteLayout.nested("vlan", VLAN_TAG));
        }
        parts.add(bits("ether_type", 16));
        switch (cfg.format()) {
            case ETH_IPV4_UDP -> parts.addAll(List.of(ByteLayout.nested("ipv4", IPV4), ByteLayout.nested("udp", UDP)));
            case ETH_IPV6_UDP -> parts.addAll(List.of(ByteLayout.nested("ipv6", IPV6), ByteLayout.nested("udp", UDP)));
            case AFH_GEN1 -> {
                if (cfg.secondEtherType()) {
                    parts.add(bits("second_ether_type", 16));
                }
                if (cfg.shim()) {
                    parts.add(ByteLayout.nested("shim", AFH_GEN1_SHIM));
                }
            }
            default -> { }
        }
        return ByteLayout.of("network_header", parts);
    }

    /** Offset of the UDP header in a frame of an IP format. */
    public static int udpAt(NetConfig cfg) {
        return networkHeader(cfg).at("udp");
    }

    /** Offset of the UDP checksum field. */
    public static int udpChecksumAt(NetConfig cfg) {
        return networkHeader(cfg).at("udp.checksum");
    }

    /** Offset of the first byte the UDP checksum covers: the pseudo header's source address in the IP header. */
    public static int udpSummedFrom(NetConfig cfg) {
        return networkHeader(cfg).at(cfg.format() == HeaderFormat.ETH_IPV4_UDP ? "ipv4.src" : "ipv6.src");
    }

    /** Bytes of the frame carrying {@code commandBytes} of packed commands: header, RH, commands, padding, R-CRC, FCS. */
    public static int frameBytes(NetConfig cfg, int commandBytes) {
        return Math.max(MIN_FRAME, cfg.headerBytes() + RH_BYTES + commandBytes + RCRC_BYTES + FCS_BYTES);
    }

    /** Minimum padded PDU (RH + commands + padding) for this format, so that the frame is at least 64 bytes. */
    public static int minPdu(NetConfig cfg) {
        return Math.max(RH_BYTES, MIN_FRAME - cfg.headerBytes() - RCRC_BYTES - FCS_BYTES);
    }
}
