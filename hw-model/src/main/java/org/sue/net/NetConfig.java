package org.sue.net;

import org.sue.core.Described;
/**
 * Encapsulation choices of one SUE instance. Every value marked [ours] in docs/protocol.md is a field here, not a
 * constant in code.
 *
 * @param vlan              insert an 802.1Q tag whose PCP is {@code pcpOfVc[vc]}
 * @param pcpOfVc           802.1Q priority (0..7) for each of the 4 VCs; also the IP DSCP class selector
 * @param udpDstPort        SUE's UDP destination port ([ours] 0x5355; never 4791 or 4793)
 * @param afhGen1EtherType  [ours] 0x88B5
 * @param afhGen1SecondEtherType 0 for none, else a second EtherType after the first
 * @param afhGen1Shim       add the 8-byte shim {ver 4, hop 4, entropy 8, src 16, dst 16, rsvd 16}
 * @param afhGen2EtherType  [ours] 0x88B6
 * @param ipTtl             IPv4 TTL / IPv6 hop limit
 * @param maxPdu            largest PDU (RH + packed commands) accepted, bytes (spec: 4096)
 * @param rhVersion         RH version sent and accepted
 * @param udpZeroChecksum   IPv6 only: send UDP checksum 0 and accept it, the zero-checksum mode of RFC 6935/6936
 *                          that both ends must be configured for; otherwise the checksum is computed (RFC 8200) and
 *                          a zero one is refused. IPv4 always sends 0 (RFC 768) and checks a non-zero one
 */
public record NetConfig(HeaderFormat format, boolean vlan, int[] pcpOfVc, int udpDstPort, int afhGen1EtherType,
                        int afhGen1SecondEtherType, boolean afhGen1Shim, int afhGen2EtherType, int ipTtl, int maxPdu,
                        int rhVersion, boolean udpZeroChecksum) implements Described {
    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    public static final int ETHERTYPE_VLAN = 0x8100;

    public NetConfig {
        if (format == null) {
            throw new IllegalArgumentException("NetConfig format must be given");
        }
        if (pcpOfVc == null || pcpOfVc.length != 4) {
            throw new IllegalArgumentException("NetConfig pcpOfVc must have one priority per VC (4)");
        }
        for (int p : pcpOfVc) {
            if (p < 0 || p > 7) {
                throw new IllegalArgumentException("NetConfig pcpOfVc entries must be 0..7, got " + p);
            }
        }
        pcpOfVc = pcpOfVc.clone();
        if (udpDstPort <= 0 || udpDstPort > 0xffff || udpDstPort == 4791 || udpDstPort == 4793) {
            throw new IllegalArgumentException("NetConfig udpDstPort must be 1..65535 and not RoCEv2 (4791) or UET (4793),"
                    + " got " + udpDstPort);
        }
        checkEtherType("afhGen1EtherType", afhGen1EtherType, false);
        checkEtherType("afhGen1SecondEtherType", afhGen1SecondEtherType, true);
        checkEtherType("afhGen2EtherType", afhGen2EtherType, false);
        if (ipTtl < 1 || ipTtl > 255) {
            throw new IllegalArgumentException("NetConfig ipTtl must be 1..255, got " + ipTtl);
        }
        if (maxPdu < FrameFormat.RH_BYTES || maxPdu > FrameFormat.MAX_PDU_BYTES) {
            throw new IllegalArgumentException("NetConfig maxPdu must be 8..4096 bytes, got " + maxPdu);
        }
        if (rhVersion < 0 || rhVersion > 3) {
            throw new IllegalArgumentException("NetConfig rhVersion must be 0..3, got " + rhVersion);
        }
    }

    private static void checkEtherType(String name, int v, boolean zeroAllowed) {
        if ((v == 0 && !zeroAllowed) || (v != 0 && (v < 0x0600 || v > 0xffff))) {
            throw new IllegalArgumentException("NetConfig " + name + " must be an EtherType (0x0600..0xFFFF)"
                    + (zeroAllowed ? " or 0" : "") + ", got 0x" + Integer.toHexString(v));
        }
    }

    /** The defaults of docs/protocol.md for a format: no VLAN, PCP 0/2/4/6, UDP port 0x5355, EtherTypes 0x88B5/0x88B6. */
    public static NetConfig defaults(HeaderFormat format) {
        return new NetConfig(format, false, new int[] {0, 2, 4, 6}, 0x5355, 0x88B5, 0, false, 0x88B6, 64, 4096, 1,
                false);
    }

    public NetConfig withVlan(boolean v) {
        return new NetConfig(format, v, pcpOfVc, udpDstPort, afhGen1EtherType, afhGen1SecondEtherType, afhGen1Shim,
                afhGen2EtherType, ipTtl, maxPdu, rhVersion, udpZeroChecksum);
    }

    public NetConfig withGen1Options(int secondEtherType, boolean shim) {
        return new NetConfig(format, vlan, pcpOfVc, udpDstPort, afhGen1EtherType, secondEtherType, shim,
                afhGen2EtherType, ipTtl, maxPdu, rhVersion, udpZeroChecksum);
    }

    public NetConfig withMaxPdu(int bytes) {
        return new NetConfig(format, vlan, pcpOfVc, udpDstPort, afhGen1EtherType, afhGen1SecondEtherType, afhGen1Shim,
                afhGen2EtherType, ipTtl, bytes, rhVersion, udpZeroChecksum);
    }

    public NetConfig withUdpZeroChecksum(boolean zero) {
        return new NetConfig(format, vlan, pcpOfVc, udpDstPort, afhGen1EtherType, afhGen1SecondEtherType, afhGen1Shim,
                afhGen2EtherType, ipTtl, maxPdu, rhVersion, zero);
    }

    /** The transmitter computes the UDP checksum: IPv6 outside the zero-checksum mode. */
    public boolean sendsUdpChecksum() {
        return format == HeaderFormat.ETH_IPV6_UDP && !udpZeroChecksum;
    }

    @Override
    public int[] pcpOfVc() {
        return pcpOfVc.clone();
    }

    /** Format, tag and header size; the other fields (EtherTypes, port, PCPs, ...) go into the module's hash. */
    @Override
    public String moduleTag() {
        return format.name().toLowerCase(java.util.Locale.ROOT) + (vlan ? "_vlan" : "") + "_h" + headerBytes();
    }

    /** Bytes of network header this configuration puts before the RH ({@link FrameFormat#networkHeader}). */
    public int headerBytes() {
        return FrameFormat.networkHeader(this).bytes();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NetConfig n && n.format == format && n.vlan == vlan
                && java.util.Arrays.equals(n.pcpOfVc, pcpOfVc) && n.udpDstPort == udpDstPort
                && n.afhGen1EtherType == afhGen1EtherType && n.afhGen1SecondEtherType == afhGen1SecondEtherType
                && n.afhGen1Shim == afhGen1Shim && n.afhGen2EtherType == afhGen2EtherType && n.ipTtl == ipTtl
                && n.maxPdu == maxPdu && n.rhVersion == rhVersion && n.udpZeroChecksum == udpZeroChecksum;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(format, vlan, java.util.Arrays.hashCode(pcpOfVc), udpDstPort, afhGen1EtherType);
    }
}
