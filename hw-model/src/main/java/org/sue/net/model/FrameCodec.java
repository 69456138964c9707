package org.sue.net.model;

import java.util.Arrays;
import java.util.zip.CRC32;
import org.sue.core.ByteLayout;
import org.sue.net.DropReason;
import org.sue.net.FrameFormat;
import org.sue.net.HeaderEntry;
import org.sue.net.HeaderFormat;
import org.sue.net.LocalIdentity;
import org.sue.net.NetConfig;
import org.sue.net.SueMeta;

/**
 * Plain-Java reference of SUE framing (docs/protocol.md sections 1-3, 5): the transmit side builds
 * {@code network header | RH | packed commands | padding | R-CRC | FCS}; the receive side checks and strips it, or
 * names the reason it drops the frame. Header fields are written and read by name, through the layouts of
 * {@link FrameFormat} that the hardware uses too.
 *
 * <p>[ours] Minimum-size padding: zero bytes after the last packed command, before the R-CRC and covered by it, so
 * that the R-CRC is always the 4 bytes before the FCS whatever the format (AFH formats carry no length). A command
 * type of 0 ends the command list, and a receiver delivers the padding with the commands. A frame carries no
 * bytes after the FCS-covered SUE payload: IP and UDP lengths must match the frame exactly. [ours] AFH Gen2 normal: DA = {flags, hop count, destination XPU (32)}, SA =
 * {flags, entropy, source XPU (32)}.
 *
 * <p>UDP checksum (docs/protocol.md section 5.3): over IPv6 it is computed (RFC 8200), unless the configuration
 * chooses the zero-checksum mode of RFC 6935/6936; over IPv4 it is sent as zero (RFC 768). A receiver checks every
 * non-zero checksum and refuses a zero one over IPv6 outside the zero-checksum mode.
 */
public final class FrameCodec {
    private FrameCodec() {
    }


    /** A received frame that passed every check. */
    public record Decoded(ReliabilityHeader rh, byte[] commands, int headerBytes) {
    }

    /** The outcome of receiving a frame: either decoded or dropped for a reason. */
    public record Received(Decoded frame, DropReason drop) {
        public boolean ok() {
            return drop == null;
        }
    }

    // ---- transmit ----------------------------------------------------------------------------------------------------

    public static byte[] encode(NetConfig cfg, HeaderEntry h, ReliabilityHeader rh, byte[] commands) {
        int pdu = FrameFormat.RH_BYTES + commands.length;
        if (commands.length == 0) {
            throw new IllegalArgumentException("a PDU carries at least one command byte");
        }
        if (pdu > cfg.maxPdu()) {
            throw new IllegalArgumentException("PDU of " + pdu + " bytes exceeds maxPdu " + cfg.maxPdu());
        }
        int hdr = cfg.headerBytes();
        byte[] f = new byte[FrameFormat.frameBytes(cfg, commands.length)];
        int pad = f.length - (hdr + pdu + FrameFormat.RCRC_BYTES + FrameFormat.FCS_BYTES);
        int ipPayload = FrameFormat.UDP.bytes() + pdu + pad + FrameFormat.RCRC_BYTES; // UDP header + UDP payload
        writeHeader(cfg, h, rh.vc(), ipPayload, f);
        rh.encode(f, hdr);
        System.arraycopy(commands, 0, f, hdr + FrameFormat.RH_BYTES, commands.length);
        int rcrcAt = hdr + pdu + pad;
        putLe32(f, rcrcAt, crc32(f, hdr, pdu + pad));
        if (cfg.sendsUdpChecksum()) {
            fillUdpChecksum(cfg, f);
        }
        putLe32(f, rcrcAt + FrameFormat.RCRC_BYTES, crc32(f, 0, rcrcAt + FrameFormat.RCRC_BYTES));
        return f;
    }

    /**
     * The header-table entry for a destination: the network header with every per-packet field left zero (PCP,
     * IPv4 TOS, IPv6 traffic class, IP and UDP lengths) and the IPv4 checksum computed over that. The header
     * inserter fills those fields in per packet and corrects the checksum incrementally (RFC 1624).
     */
    public static byte[] headerTemplate(NetConfig cfg, HeaderEntry h) {
        NetConfig noPcp = cfg.toBuilder().pcpOfVc(new int[SueMeta.VCS]).build();
        byte[] t = new byte[cfg.headerBytes()];
        writeHeader(noPcp, h, 0, 0, t);
        if (cfg.format() == HeaderFormat.ETH_IPV4_UDP) {
            ByteLayout hdr = FrameFormat.networkHeader(cfg);
            hdr.set(t, 0, "ipv4.total_length", 0); // filled in per packet too
            hdr.set(t, 0, "ipv4.checksum", 0);
            hdr.set(t, 0, "ipv4.checksum", Checksums.internet(t, hdr.at("ipv4"), FrameFormat.IPV4.bytes()));
        }
        return t;
    }

    /** The network header for a PDU of the given VC whose UDP length (UDP header + payload) is given. */
    public static byte[] header(NetConfig cfg, HeaderEntry h, int vc, int udpLength) {
        byte[] t = new byte[cfg.headerBytes()];
        writeHeader(cfg, h, vc, udpLength, t);
        return t;
    }

    /** The network header alone, as the header table would hold it for a PDU whose UDP payload is given. */
    static void writeHeader(NetConfig cfg, HeaderEntry h, int vc, int udpLength, byte[] f) {
        ByteLayout hdr = FrameFormat.networkHeader(cfg);
        int pcp = cfg.pcpOfVc()[vc];
        if (cfg.vlan()) {
            hdr.set(f, 0, "vlan.tpid", NetConfig.ETHERTYPE_VLAN);
            hdr.set(f, 0, "vlan.pcp", pcp);
            hdr.set(f, 0, "vlan.vid", h.vlanId());
        }
        switch (cfg.format()) {
            case ETH_IPV4_UDP -> {
                ethernet(hdr, f, h, NetConfig.ETHERTYPE_IPV4);
                hdr.set(f, 0, "ipv4.version", 4);
                hdr.set(f, 0, "ipv4.ihl", FrameFormat.IPV4.bytes() / 4);
                hdr.set(f, 0, "ipv4.dscp", pcp << 3); // class selector CS<pcp>
                hdr.set(f, 0, "ipv4.total_length", FrameFormat.IPV4.bytes() + udpLength);
                hdr.set(f, 0, "ipv4.flags", 0b010); // don't fragment
                hdr.set(f, 0, "ipv4.ttl", cfg.ipTtl());
                hdr.set(f, 0, "ipv4.protocol", FrameFormat.IP_PROTOCOL_UDP);
                hdr.setBytes(f, 0, "ipv4.src", h.srcIp());
                hdr.setBytes(f, 0, "ipv4.dst", h.dstIp());
                hdr.set(f, 0, "ipv4.checksum", Checksums.internet(f, hdr.at("ipv4"), FrameFormat.IPV4.bytes()));
                udp(hdr, f, cfg, h, udpLength);
            }
            case ETH_IPV6_UDP -> {
                ethernet(hdr, f, h, NetConfig.ETHERTYPE_IPV6);
                hdr.set(f, 0, "ipv6.version", 6);
                hdr.set(f, 0, "ipv6.traffic_class", pcp << 5);
                hdr.set(f, 0, "ipv6.payload_length", udpLength);
                hdr.set(f, 0, "ipv6.next_header", FrameFormat.IP_PROTOCOL_UDP);
                hdr.set(f, 0, "ipv6.hop_limit", cfg.ipTtl());
                hdr.setBytes(f, 0, "ipv6.src", h.srcIp());
                hdr.setBytes(f, 0, "ipv6.dst", h.dstIp());
                udp(hdr, f, cfg, h, udpLength);
            }
            case AFH_GEN1 -> {
                hdr.set(f, 0, "addr.da_high", h.dstMac() >>> 16);
                hdr.set(f, 0, "addr.dst_xpu", h.dstXpu() & 0xffff);
                hdr.set(f, 0, "addr.sa", h.srcMac());
                hdr.set(f, 0, "ether_type", cfg.afhGen1EtherType());
                if (cfg.afhGen1SecondEtherType() != 0) {
                    hdr.set(f, 0, "second_ether_type", cfg.afhGen1SecondEtherType());
                }
                if (cfg.afhGen1Shim()) {
                    hdr.set(f, 0, "shim.version", FrameFormat.SHIM_VERSION);
                    hdr.set(f, 0, "shim.hop_count", h.hopCount() & 0xf);
                    hdr.set(f, 0, "shim.entropy", h.entropy());
                    hdr.set(f, 0, "shim.src_xpu", h.srcXpu() & 0xffff);
                    hdr.set(f, 0, "shim.dst_xpu", h.dstXpu() & 0xffff);
                }
            }
            case AFH_GEN2_NORMAL -> {
                hdr.set(f, 0, "addr.da_flags", FrameFormat.GEN2_NORMAL_FLAGS);
                hdr.set(f, 0, "addr.hop_count", h.hopCount());
                hdr.set(f, 0, "addr.dst_xpu", h.dstXpu());
                hdr.set(f, 0, "addr.sa_flags", FrameFormat.GEN2_NORMAL_FLAGS);
                hdr.set(f, 0, "addr.entropy", h.entropy());
                hdr.set(f, 0, "addr.src_xpu", h.srcXpu());
                hdr.set(f, 0, "ether_type", cfg.afhGen2EtherType());
            }
            case AFH_GEN2_COMPRESSED -> {
                hdr.set(f, 0, "addr.da_flags", FrameFormat.GEN2_COMPRESSED_FLAGS);
                hdr.set(f, 0, "addr.dst_xpu", h.dstXpu() & 0xffff);
                hdr.set(f, 0, "addr.sa_flags", FrameFormat.GEN2_COMPRESSED_FLAGS);
                hdr.set(f, 0, "addr.src_xpu", h.srcXpu() & 0xffff);
                hdr.set(f, 0, "ether_type", cfg.afhGen2EtherType());
            }
            default -> throw new IllegalStateException();
        }
    }

    private static void ethernet(ByteLayout hdr, byte[] f, HeaderEntry h, int etherType) {
        hdr.set(f, 0, "addr.da", h.dstMac());
        hdr.set(f, 0, "addr.sa", h.srcMac());
        hdr.set(f, 0, "ether_type", etherType);
    }

    /** The UDP header, its checksum 0: encode fills it in when the configuration computes it. */
    private static void udp(ByteLayout hdr, byte[] f, NetConfig cfg, HeaderEntry h, int udpLength) {
        hdr.set(f, 0, "udp.src_port", h.udpSrcPort());
        hdr.set(f, 0, "udp.dst_port", cfg.udpDstPort());
        hdr.set(f, 0, "udp.length", udpLength);
    }

    // ---- receive -----------------------------------------------------------------------------------------------------

    public static Received decode(NetConfig cfg, LocalIdentity me, byte[] f) {
        int n = f.length;
        if (n < FrameFormat.MIN_FRAME || n <= cfg.headerBytes() + FrameFormat.RH_BYTES + FrameFormat.RCRC_BYTES + FrameFormat.FCS_BYTES) {
            return drop(DropReason.RUNT);
        }
        if (!fcsOk(f)) {
            return drop(DropReason.BAD_FCS);
        }
        DropReason headerDrop = checkHeader(cfg, me, f);
        if (headerDrop != null) {
            return drop(headerDrop);
        }
        int hdr = cfg.headerBytes();
        int pdu = n - FrameFormat.FCS_BYTES - FrameFormat.RCRC_BYTES - hdr; // RH + commands + padding, at least one command byte (RUNT)
        if (pdu > cfg.maxPdu()) {
            return drop(DropReason.OVERSIZE_PDU);
        }
        if (cfg.format().ip()) {
            long sent = FrameFormat.networkHeader(cfg).get(f, 0, "udp.checksum");
            boolean zeroAccepted = cfg.format() == HeaderFormat.ETH_IPV4_UDP || cfg.udpZeroChecksum();
            if (sent == 0 ? !zeroAccepted : udpSum(cfg, f) != 0) {
                return drop(DropReason.BAD_UDP_CHECKSUM);
            }
        }
        if (crc32(f, hdr, pdu) != getLe32(f, hdr + pdu)) {
            return drop(DropReason.BAD_RCRC);
        }
        ReliabilityHeader rh = ReliabilityHeader.decode(f, hdr);
        if (rh.ver() != cfg.rhVersion()) {
            return drop(DropReason.UNSUPPORTED_RH_VERSION);
        }
        if (rh.partition() != me.partition()) {
            return drop(DropReason.PARTITION_MISMATCH);
        }
        byte[] commands = Arrays.copyOfRange(f, hdr + FrameFormat.RH_BYTES, hdr + pdu);
        return new Received(new Decoded(rh, commands, hdr), null);
    }

    /** The first failing check of the network header (docs/protocol.md 5.7), or null. */
    private static DropReason checkHeader(NetConfig cfg, LocalIdentity me, byte[] f) {
        ByteLayout hdr = FrameFormat.networkHeader(cfg);
        boolean tagged = !cfg.vlan() || hdr.get(f, 0, "vlan.tpid") == NetConfig.ETHERTYPE_VLAN;
        long etherType = hdr.get(f, 0, "ether_type");
        switch (cfg.format()) {
            case ETH_IPV4_UDP -> {
                if (!tagged || etherType != NetConfig.ETHERTYPE_IPV4) {
                    return DropReason.UNKNOWN_ETHERTYPE;
                }
                int ip = hdr.at("ipv4");
                if (hdr.get(f, 0, "ipv4.version") != 4 || hdr.get(f, 0, "ipv4.ihl") != FrameFormat.IPV4.bytes() / 4
                        || hdr.get(f, 0, "ipv4.protocol") != FrameFormat.IP_PROTOCOL_UDP
                        || Checksums.internet(f, ip, FrameFormat.IPV4.bytes()) != 0) {
                    return DropReason.BAD_IP_HEADER;
                }
                long total = hdr.get(f, 0, "ipv4.total_length");
                if (ip + total != f.length - FrameFormat.FCS_BYTES) {
                    return DropReason.TRUNCATED;
                }
                if (!Arrays.equals(hdr.getBytes(f, 0, "ipv4.dst"), me.ip())) {
                    return DropReason.WRONG_DESTINATION;
                }
                return checkUdp(cfg, hdr, f, total - FrameFormat.IPV4.bytes());
            }
            case ETH_IPV6_UDP -> {
                if (!tagged || etherType != NetConfig.ETHERTYPE_IPV6) {
                    return DropReason.UNKNOWN_ETHERTYPE;
                }
                if (hdr.get(f, 0, "ipv6.version") != 6
                        || hdr.get(f, 0, "ipv6.next_header") != FrameFormat.IP_PROTOCOL_UDP) {
                    return DropReason.BAD_IP_HEADER;
                }
                if (!Arrays.equals(hdr.getBytes(f, 0, "ipv6.dst"), me.ip())) {
                    return DropReason.WRONG_DESTINATION;
                }
                return checkUdp(cfg, hdr, f, hdr.get(f, 0, "ipv6.payload_length"));
            }
            case AFH_GEN1 -> {
                if (!tagged || etherType != cfg.afhGen1EtherType() || (cfg.afhGen1SecondEtherType() != 0
                        && hdr.get(f, 0, "second_ether_type") != cfg.afhGen1SecondEtherType())) {
                    return DropReason.UNKNOWN_ETHERTYPE;
                }
                return toMe(hdr, f, me) ? null : DropReason.WRONG_DESTINATION;
            }
            case AFH_GEN2_NORMAL, AFH_GEN2_COMPRESSED -> {
                int flags = cfg.format() == HeaderFormat.AFH_GEN2_NORMAL ? FrameFormat.GEN2_NORMAL_FLAGS
                        : FrameFormat.GEN2_COMPRESSED_FLAGS;
                if (hdr.get(f, 0, "addr.da_flags") != flags || hdr.get(f, 0, "addr.sa_flags") != flags || !tagged
                        || etherType != cfg.afhGen2EtherType()) {
                    return DropReason.UNKNOWN_ETHERTYPE;
                }
                return toMe(hdr, f, me) ? null : DropReason.WRONG_DESTINATION;
            }
            default -> throw new IllegalStateException();
        }
    }

    /** The AFH destination address is this XPU's, in as many bits as the format carries (16 or 32). */
    private static boolean toMe(ByteLayout hdr, byte[] f, LocalIdentity me) {
        long mask = (1L << hdr.slot("addr.dst_xpu").width()) - 1;
        return hdr.get(f, 0, "addr.dst_xpu") == (me.xpu() & mask);
    }

    /** The UDP length the IP header gives, against the frame and the UDP header; then the UDP port. */
    private static DropReason checkUdp(NetConfig cfg, ByteLayout hdr, byte[] f, long udpLength) {
        if (hdr.at("udp") + udpLength != f.length - FrameFormat.FCS_BYTES || udpLength != hdr.get(f, 0, "udp.length")) {
            return DropReason.TRUNCATED;
        }
        return hdr.get(f, 0, "udp.dst_port") != cfg.udpDstPort() ? DropReason.UNKNOWN_UDP_PORT : null;
    }

    // ---- UDP checksum ------------------------------------------------------------------------------------------------

    /** Writes the right UDP checksum into a frame of an IP format (FCS last, left as it is); 0 is sent as 0xFFFF. */
    public static void fillUdpChecksum(NetConfig cfg, byte[] f) {
        ByteLayout hdr = FrameFormat.networkHeader(cfg);
        hdr.set(f, 0, "udp.checksum", 0);
        int sum = udpSum(cfg, f);
        hdr.set(f, 0, "udp.checksum", sum == 0 ? 0xffff : sum); // RFC 768: a computed 0 is sent as all ones
    }

    /**
     * RFC 768 / RFC 8200 8.1 over a whole frame (FCS last): the Internet checksum of the pseudo header (source and
     * destination addresses, protocol 17, UDP length) and the UDP header and payload as they are in the frame. With
     * the checksum field zero it is the value to send (0 sent as 0xFFFF); over a frame whose checksum field is
     * right it is 0.
     */
    public static int udpSum(NetConfig cfg, byte[] f) {
        int udp = FrameFormat.udpAt(cfg);
        int addresses = FrameFormat.udpSummedFrom(cfg);
        int udpLength = f.length - FrameFormat.FCS_BYTES - udp;
        // the pseudo header's fields first (an even count of bytes), so an odd UDP length stays the last byte
        byte[] b = new byte[udp - addresses + 4 + udpLength];
        System.arraycopy(f, addresses, b, 0, udp - addresses);
        put16(b, udp - addresses, FrameFormat.IP_PROTOCOL_UDP);
        put16(b, udp - addresses + 2, udpLength);
        System.arraycopy(f, udp, b, udp - addresses + 4, udpLength);
        return Checksums.internet(b, 0, b.length);
    }

    private static Received drop(DropReason r) {
        return new Received(null, r);
    }

    // ---- bytes -------------------------------------------------------------------------------------------------------

    /** The frame's last four bytes are its FCS. */
    public static boolean fcsOk(byte[] f) {
        int n = f.length - FrameFormat.FCS_BYTES;
        return crc32(f, 0, n) == getLe32(f, n);
    }

    /** CRC-32 (IEEE 802.3) as java.util.zip computes it; sent least significant byte first (FCS and R-CRC). */
    public static long crc32(byte[] b, int off, int len) {
        CRC32 c = new CRC32();
        c.update(b, off, len);
        return c.getValue();
    }

    static void put16(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }

    static int get16(byte[] b, int off) {
        return (b[off] & 0xff) << 8 | (b[off + 1] & 0xff);
    }

    public static void putLe32(byte[] b, int off, long v) {
        for (int i = 0; i < 4; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }

    static long getLe32(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 4; i++) {
            v |= (long) (b[off + i] & 0xff) << (8 * i);
        }
        return v;
    }
}
