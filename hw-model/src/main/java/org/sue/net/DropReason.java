package org.sue.net;

/** Why a received frame was dropped (docs/protocol.md section 12); each has its own counter. */
public enum DropReason {
    RUNT("Frames dropped as shorter than 64 bytes, or too short for the headers, an RH, a command byte, the R-CRC"
            + " and the FCS."),
    BAD_FCS("Frames dropped for a wrong FCS."),
    /** an IP or UDP length does not match the frame's length (the frame was cut short, or has bytes after the PDU) */
    TRUNCATED("Frames dropped because an IP or UDP length does not match the frame's length."),
    UNKNOWN_ETHERTYPE("Frames dropped for a missing 802.1Q tag, another EtherType or (AFH Gen2) address flag octet."),
    UNKNOWN_UDP_PORT("Frames dropped for another UDP destination port."),
    BAD_IP_HEADER("Frames dropped for another IP version, header length or protocol, or a wrong IPv4 checksum."),
    WRONG_DESTINATION("Frames dropped as addressed to another IP address or XPU address."),
    OVERSIZE_PDU("Frames dropped because their RH, commands and padding exceed the largest PDU."),
    /** a UDP checksum that does not add up, or a zero one over IPv6 outside the zero-checksum mode (RFC 6936) */
    BAD_UDP_CHECKSUM("Frames dropped for a wrong UDP checksum, or a zero one where it must be sent."),
    BAD_RCRC("Frames dropped for a wrong R-CRC."),
    UNSUPPORTED_RH_VERSION("Frames dropped for another RH version."),
    PARTITION_MISMATCH("Frames dropped for another partition."),
    /** the MAC flagged the frame bad (tuser on its last beat: a bad FCS or an uncorrectable FEC block it saw) */
    MAC_ERROR("Frames dropped because the MAC flagged them bad.");

    private final String description;

    DropReason(String description) {
        this.description = description;
    }

    /** Decided by the MAC, not from the frame's bytes: a receiver without the MAC's flag has no counter for it. */
    public boolean fromMac() {
        return this == MAC_ERROR;
    }

    /** What its counter counts, for the status list. */
    public String description() {
        return description;
    }
}
