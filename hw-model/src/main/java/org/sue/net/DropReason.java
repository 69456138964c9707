package org.sue.net;

/** Why a received frame was dropped (docs/protocol.md section 12); each has its own counter. */
public enum DropReason {
    /** shorter than 64 bytes, or too short to hold the headers, an RH, one command byte, the R-CRC and the FCS */
    RUNT,
    BAD_FCS,
    /** an IP or UDP length does not match the frame's length (the frame was cut short, or has bytes after the PDU) */
    TRUNCATED,
    UNKNOWN_ETHERTYPE,
    UNKNOWN_UDP_PORT,
    BAD_IP_HEADER,
    WRONG_DESTINATION,
    OVERSIZE_PDU,
    /** a UDP checksum that does not add up, or a zero one over IPv6 outside the zero-checksum mode (RFC 6936) */
    BAD_UDP_CHECKSUM,
    BAD_RCRC,
    UNSUPPORTED_RH_VERSION,
    PARTITION_MISMATCH,
    /** the MAC flagged the frame bad (tuser on its last beat: a bad FCS or an uncorrectable FEC block it saw) */
    MAC_ERROR;

    /** Decided by the MAC, not from the frame's bytes: a receiver without the MAC's flag has no counter for it. */
    public boolean fromMac() {
        return this == MAC_ERROR;
    }
}
