package org.sue.net;

import org.sue.core.Bound;
import org.sue.core.ConfigException;
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

    private static final String NAME = "NetConfig";
    /** An 802.1Q priority. */
    public static final Bound PCP = Bound.of(0, 7);
    /** Not RoCEv2's 4791 or UET's 4793 (a rule). */
    public static final Bound UDP_PORT = Bound.of(1, 0xFFFF);
    public static final Bound ETHER_TYPE = Bound.of(0x0600, 0xFFFF);
    public static final Bound IP_TTL = Bound.of(1, 255);
    public static final Bound MAX_PDU = Bound.of(FrameFormat.RH_BYTES, FrameFormat.MAX_PDU_BYTES);
    public static final Bound RH_VERSION = Bound.of(0, 3);

    public NetConfig {
        if (format == null) {
            throw new IllegalArgumentException("NetConfig format must be given");
        }
        if (pcpOfVc == null || pcpOfVc.length != SueMeta.VCS) {
            throw new IllegalArgumentException("NetConfig pcpOfVc must have one priority per VC (4)");
        }
        for (int p : pcpOfVc) {
            PCP.check(NAME, "pcpOfVc", p);
        }
        pcpOfVc = pcpOfVc.clone();
        UDP_PORT.check(NAME, "udpDstPort", udpDstPort);
        if (udpDstPort == 4791 || udpDstPort == 4793) {
            throw new ConfigException(NAME, "{udpDstPort} must not be RoCEv2's (4791) or UET's (4793), got "
                    + udpDstPort);
        }
        ETHER_TYPE.check(NAME, "afhGen1EtherType", afhGen1EtherType);
        ETHER_TYPE.orZero().check(NAME, "afhGen1SecondEtherType", afhGen1SecondEtherType);
        ETHER_TYPE.check(NAME, "afhGen2EtherType", afhGen2EtherType);
        IP_TTL.check(NAME, "ipTtl", ipTtl);
        MAX_PDU.check(NAME, "maxPdu", maxPdu);
        RH_VERSION.check(NAME, "rhVersion", rhVersion);
    }

    /** The defaults of docs/protocol.md for a format: no VLAN, PCP 0/2/4/6, UDP port 0x5355, EtherTypes 0x88B5/0x88B6. */
    public static NetConfig defaults(HeaderFormat format) {
        return builder(format).build();
    }

    /** The defaults for a format ({@link #defaults}), to change by name. */
    public static Builder builder(HeaderFormat format) {
        return new Builder(format);
    }

    /** This configuration, to change by name. */
    public Builder toBuilder() {
        return builder(format).vlan(vlan).pcpOfVc(pcpOfVc).udpDstPort(udpDstPort).afhGen1EtherType(afhGen1EtherType)
                .afhGen1SecondEtherType(afhGen1SecondEtherType).afhGen1Shim(afhGen1Shim)
                .afhGen2EtherType(afhGen2EtherType).ipTtl(ipTtl).maxPdu(maxPdu).rhVersion(rhVersion)
                .udpZeroChecksum(udpZeroChecksum);
    }

    public NetConfig withVlan(boolean v) {
        return toBuilder().vlan(v).build();
    }

    public NetConfig withGen1Options(int secondEtherType, boolean shim) {
        return toBuilder().afhGen1SecondEtherType(secondEtherType).afhGen1Shim(shim).build();
    }

    public NetConfig withMaxPdu(int bytes) {
        return toBuilder().maxPdu(bytes).build();
    }

    public NetConfig withUdpZeroChecksum(boolean zero) {
        return toBuilder().udpZeroChecksum(zero).build();
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

    /** The EtherType right after the addresses of this configuration's frames: the 802.1Q tag's, or the format's. */
    public int leadingEtherType() {
        if (vlan) {
            return ETHERTYPE_VLAN;
        }
        return switch (format) {
            case ETH_IPV4_UDP -> ETHERTYPE_IPV4;
            case ETH_IPV6_UDP -> ETHERTYPE_IPV6;
            case AFH_GEN1 -> afhGen1EtherType;
            case AFH_GEN2_NORMAL, AFH_GEN2_COMPRESSED -> afhGen2EtherType;
        };
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

    /** Parameters by name; what is not set keeps its default ({@link #defaults}). */
    public static final class Builder {
        private HeaderFormat format;
        private boolean vlan;
        private int[] pcpOfVc = {0, 2, 4, 6};
        private int udpDstPort = 0x5355;
        private int afhGen1EtherType = 0x88B5;
        private int afhGen1SecondEtherType;
        private boolean afhGen1Shim;
        private int afhGen2EtherType = 0x88B6;
        private int ipTtl = 64;
        private int maxPdu = 4096;
        private int rhVersion = 1;
        private boolean udpZeroChecksum;

        private Builder(HeaderFormat format) {
            this.format = format;
        }

        public Builder format(HeaderFormat v) {
            format = v;
            return this;
        }

        public Builder vlan(boolean v) {
            vlan = v;
            return this;
        }

        public Builder pcpOfVc(int... v) {
            pcpOfVc = v.clone();
            return this;
        }

        public Builder udpDstPort(int v) {
            udpDstPort = v;
            return this;
        }

        public Builder afhGen1EtherType(int v) {
            afhGen1EtherType = v;
            return this;
        }

        public Builder afhGen1SecondEtherType(int v) {
            afhGen1SecondEtherType = v;
            return this;
        }

        public Builder afhGen1Shim(boolean v) {
            afhGen1Shim = v;
            return this;
        }

        public Builder afhGen2EtherType(int v) {
            afhGen2EtherType = v;
            return this;
        }

        public Builder ipTtl(int v) {
            ipTtl = v;
            return this;
        }

        public Builder maxPdu(int v) {
            maxPdu = v;
            return this;
        }

        public Builder rhVersion(int v) {
            rhVersion = v;
            return this;
        }

        public Builder udpZeroChecksum(boolean v) {
            udpZeroChecksum = v;
            return this;
        }

        public NetConfig build() {
            return new NetConfig(format, vlan, pcpOfVc, udpDstPort, afhGen1EtherType, afhGen1SecondEtherType,
                    afhGen1Shim, afhGen2EtherType, ipTtl, maxPdu, rhVersion, udpZeroChecksum);
        }
    }
}
