package org.sue.net.model;

import java.util.Arrays;
import java.util.zip.CRC32;
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
 * names the reason it drops the frame.
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
        int ipPayload = 8 + pdu + pad + FrameFormat.RCRC_BYTES; // UDP header + UDP payload
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
            int ip = 14 + (cfg.vlan() ? 4 : 0);
            put16(t, ip + 2, 0); // total length too is filled in per packet
            put16(t, ip + 10, 0);
            put16(t, ip + 10, Checksums.internet(t, ip, 20));
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
        int pcp = cfg.pcpOfVc()[vc];
        int at;
        switch (cfg.format()) {
            case ETH_IPV4_UDP, ETH_IPV6_UDP -> {
                boolean v4 = cfg.format() == HeaderFormat.ETH_IPV4_UDP;
                at = ethernet(f, h.dstMac(), h.srcMac(), cfg, pcp, h.vlanId(),
                        v4 ? NetConfig.ETHERTYPE_IPV4 : NetConfig.ETHERTYPE_IPV6);
                if (v4) {
                    f[at] = 0x45;
                    f[at + 1] = (byte) (pcp << 5); // DSCP class selector CS<pcp>
                    put16(f, at + 2, 20 + udpLength);
                    put16(f, at + 6, 0x4000); // don't fragment
                    f[at + 8] = (byte) cfg.ipTtl();
                    f[at + 9] = 17;
                    System.arraycopy(h.srcIp(), 0, f, at + 12, 4);
                    System.arraycopy(h.dstIp(), 0, f, at + 16, 4);
                    put16(f, at + 10, Checksums.internet(f, at, 20));
                    at += 20;
                } else {
                    put32(f, at, 6 << 28 | (pcp << 5) << 20);
                    put16(f, at + 4, udpLength);
                    f[at + 6] = 17;
                    f[at + 7] = (byte) cfg.ipTtl();
                    System.arraycopy(h.srcIp(), 0, f, at + 8, 16);
                    System.arraycopy(h.dstIp(), 0, f, at + 24, 16);
                    at += 40;
                }
                put16(f, at, h.udpSrcPort());
                put16(f, at + 2, cfg.udpDstPort());
                put16(f, at + 4, udpLength);
                // checksum 0 here; encode fills it in when the configuration computes it
            }
            case AFH_GEN1 -> {
                long da = (h.dstMac() & ~0xffffL) | (h.dstXpu() & 0xffff);
                at = ethernet(f, da, h.srcMac(), cfg, pcp, h.vlanId(), cfg.afhGen1EtherType());
                if (cfg.afhGen1SecondEtherType() != 0) {
                    put16(f, at, cfg.afhGen1SecondEtherType());
                    at += 2;
                }
                if (cfg.afhGen1Shim()) {
                    f[at] = (byte) (FrameFormat.SHIM_VERSION << 4 | (h.hopCount() & 0xf));
                    f[at + 1] = (byte) h.entropy();
                    put16(f, at + 2, (int) (h.srcXpu() & 0xffff));
                    put16(f, at + 4, (int) (h.dstXpu() & 0xffff));
                }
            }
            case AFH_GEN2_NORMAL -> {
                f[0] = FrameFormat.GEN2_NORMAL_FLAGS;
                f[1] = (byte) h.hopCount();
                put32(f, 2, (int) h.dstXpu());
                f[6] = FrameFormat.GEN2_NORMAL_FLAGS;
                f[7] = (byte) h.entropy();
                put32(f, 8, (int) h.srcXpu());
                tagAndType(f, 12, cfg, pcp, h.vlanId(), cfg.afhGen2EtherType());
            }
            case AFH_GEN2_COMPRESSED -> {
                f[0] = FrameFormat.GEN2_COMPRESSED_FLAGS;
                put16(f, 1, (int) (h.dstXpu() & 0xffff));
                f[3] = FrameFormat.GEN2_COMPRESSED_FLAGS;
                put16(f, 4, (int) (h.srcXpu() & 0xffff));
                tagAndType(f, 6, cfg, pcp, h.vlanId(), cfg.afhGen2EtherType());
            }
            default -> throw new IllegalStateException();
        }
    }

    private static int ethernet(byte[] f, long da, long sa, NetConfig cfg, int pcp, int vid, int etherType) {
        put48(f, 0, da);
        put48(f, 6, sa);
        return tagAndType(f, 12, cfg, pcp, vid, etherType);
    }

    private static int tagAndType(byte[] f, int at, NetConfig cfg, int pcp, int vid, int etherType) {
        if (cfg.vlan()) {
            put16(f, at, NetConfig.ETHERTYPE_VLAN);
            put16(f, at + 2, pcp << 13 | vid);
            at += 4;
        }
        put16(f, at, etherType);
        return at + 2;
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
        int hdr = cfg.headerBytes();
        switch (cfg.format()) {
            case ETH_IPV4_UDP, ETH_IPV6_UDP -> {
                boolean v4 = cfg.format() == HeaderFormat.ETH_IPV4_UDP;
                int at = checkTagAndType(cfg, f, 12, v4 ? NetConfig.ETHERTYPE_IPV4 : NetConfig.ETHERTYPE_IPV6);
                if (at < 0) {
                    return drop(DropReason.UNKNOWN_ETHERTYPE);
                }
                int udpLen;
                if (v4) {
                    if ((f[at] & 0xff) != 0x45 || f[at + 9] != 17 || Checksums.internet(f, at, 20) != 0) {
                        return drop(DropReason.BAD_IP_HEADER);
                    }
                    int total = get16(f, at + 2);
                    if (at + total != n - FrameFormat.FCS_BYTES) {
                        return drop(DropReason.TRUNCATED);
                    }
                    if (!Arrays.equals(Arrays.copyOfRange(f, at + 16, at + 20), me.ip())) {
                        return drop(DropReason.WRONG_DESTINATION);
                    }
                    udpLen = total - 20;
                    at += 20;
                } else {
                    if ((f[at] & 0xf0) != 0x60 || f[at + 6] != 17) {
                        return drop(DropReason.BAD_IP_HEADER);
                    }
                    udpLen = get16(f, at + 4);
                    if (!Arrays.equals(Arrays.copyOfRange(f, at + 24, at + 40), me.ip())) {
                        return drop(DropReason.WRONG_DESTINATION);
                    }
                    at += 40;
                }
                if (at + udpLen != n - FrameFormat.FCS_BYTES || udpLen != get16(f, at + 4)) {
                    return drop(DropReason.TRUNCATED);
                }
                if (get16(f, at + 2) != cfg.udpDstPort()) {
                    return drop(DropReason.UNKNOWN_UDP_PORT);
                }
            }
            case AFH_GEN1 -> {
                int at = checkTagAndType(cfg, f, 12, cfg.afhGen1EtherType());
                if (at < 0 || (cfg.afhGen1SecondEtherType() != 0 && get16(f, at) != cfg.afhGen1SecondEtherType())) {
                    return drop(DropReason.UNKNOWN_ETHERTYPE);
                }
                if (get16(f, 4) != (me.xpu() & 0xffff)) {
                    return drop(DropReason.WRONG_DESTINATION);
                }
            }
            case AFH_GEN2_NORMAL -> {
                if (f[0] != FrameFormat.GEN2_NORMAL_FLAGS || f[6] != FrameFormat.GEN2_NORMAL_FLAGS
                        || checkTagAndType(cfg, f, 12, cfg.afhGen2EtherType()) < 0) {
                    return drop(DropReason.UNKNOWN_ETHERTYPE);
                }
                if ((get32(f, 2) & 0xffffffffL) != me.xpu()) {
                    return drop(DropReason.WRONG_DESTINATION);
                }
            }
            case AFH_GEN2_COMPRESSED -> {
                if (f[0] != FrameFormat.GEN2_COMPRESSED_FLAGS || f[3] != FrameFormat.GEN2_COMPRESSED_FLAGS
                        || checkTagAndType(cfg, f, 6, cfg.afhGen2EtherType()) < 0) {
                    return drop(DropReason.UNKNOWN_ETHERTYPE);
                }
                if (get16(f, 1) != (me.xpu() & 0xffff)) {
                    return drop(DropReason.WRONG_DESTINATION);
                }
            }
            default -> throw new IllegalStateException();
        }
        int pdu = n - FrameFormat.FCS_BYTES - FrameFormat.RCRC_BYTES - hdr; // RH + commands + padding, at least one command byte (RUNT)
        if (pdu > cfg.maxPdu()) {
            return drop(DropReason.OVERSIZE_PDU);
        }
        if (ipFormat(cfg)) {
            int sent = get16(f, udpChecksumAt(cfg));
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

    /** Offset after the optional VLAN tag and the expected EtherType, or -1 if they are not there. */
    private static int checkTagAndType(NetConfig cfg, byte[] f, int at, int etherType) {
        if (cfg.vlan()) {
            if (get16(f, at) != NetConfig.ETHERTYPE_VLAN) {
                return -1;
            }
            at += 4;
        }
        return get16(f, at) == etherType ? at + 2 : -1;
    }

    // ---- UDP checksum ------------------------------------------------------------------------------------------------

    private static boolean ipFormat(NetConfig cfg) {
        return cfg.format() == HeaderFormat.ETH_IPV4_UDP || cfg.format() == HeaderFormat.ETH_IPV6_UDP;
    }

    /** Offset of the UDP header in a frame of an IP format. */
    public static int udpAt(NetConfig cfg) {
        return 14 + (cfg.vlan() ? 4 : 0) + (cfg.format() == HeaderFormat.ETH_IPV4_UDP ? 20 : 40);
    }

    /** Offset of the UDP checksum field. */
    public static int udpChecksumAt(NetConfig cfg) {
        return udpAt(cfg) + 6;
    }

    /** Offset of the first byte the UDP checksum covers: the pseudo header's source address in the IP header. */
    public static int udpSummedFrom(NetConfig cfg) {
        return udpAt(cfg) - (cfg.format() == HeaderFormat.ETH_IPV4_UDP ? 8 : 32);
    }

    /** Writes the right UDP checksum into a frame of an IP format (FCS last, left as it is); 0 is sent as 0xFFFF. */
    public static void fillUdpChecksum(NetConfig cfg, byte[] f) {
        int at = udpChecksumAt(cfg);
        put16(f, at, 0);
        int sum = udpSum(cfg, f);
        put16(f, at, sum == 0 ? 0xffff : sum); // RFC 768: a computed 0 is sent as all ones
    }

    /**
     * RFC 768 / RFC 8200 8.1 over a whole frame (FCS last): the Internet checksum of the pseudo header (source and
     * destination addresses, protocol 17, UDP length) and the UDP header and payload as they are in the frame. With
     * the checksum field zero it is the value to send (0 sent as 0xFFFF); over a frame whose checksum field is
     * right it is 0.
     */
    public static int udpSum(NetConfig cfg, byte[] f) {
        int udp = udpAt(cfg);
        int addresses = udpSummedFrom(cfg);
        int udpLength = f.length - FrameFormat.FCS_BYTES - udp;
        // the pseudo header's fields first (an even count of bytes), so an odd UDP length stays the last byte
        byte[] b = new byte[udp - addresses + 4 + udpLength];
        System.arraycopy(f, addresses, b, 0, udp - addresses);
        put16(b, udp - addresses, 17);
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

    static void put32(byte[] b, int off, int v) {
        put16(b, off, v >>> 16);
        put16(b, off + 2, v);
    }

    static int get32(byte[] b, int off) {
        return get16(b, off) << 16 | get16(b, off + 2);
    }

    static void put48(byte[] b, int off, long v) {
        put16(b, off, (int) (v >>> 32));
        put32(b, off + 2, (int) v);
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
