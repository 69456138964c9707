package org.sue.net;

/** The network encapsulations of spec 3.4.1 - 3.4.3 (docs/protocol.md section 5). */
public enum HeaderFormat {
    /** Ethernet II (+ optional 802.1Q) / IPv4 / UDP. */
    ETH_IPV4_UDP,
    /** Ethernet II (+ optional 802.1Q) / IPv6 / UDP. */
    ETH_IPV6_UDP,
    /** Ethernet DA/SA with the destination XPU in DA's low 16 bits, optional 802.1Q, AFH Gen1 EtherType, optional
     *  second EtherType and shim header. */
    AFH_GEN1,
    /** 12-byte SLAP AAI DA/SA with 32-bit XPU addresses, hop count and entropy, then the Gen2 EtherType. */
    AFH_GEN2_NORMAL,
    /** 6-byte compressed DA3/SA3 with 16-bit XPU addresses, then the Gen2 EtherType. */
    AFH_GEN2_COMPRESSED;

    /** UDP over IPv4 or IPv6: lengths and a UDP checksum in the header. */
    public boolean ip() {
        return this == ETH_IPV4_UDP || this == ETH_IPV6_UDP;
    }
}
