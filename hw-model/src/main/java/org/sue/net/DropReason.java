package org.sue.net;

/** Why a received frame was dropped (PROTOCOL.md section 12); each has its own counter. */
public enum DropReason {
    /** shorter than 64 bytes, or than the smallest SUE frame of the configured format */
    RUNT,
    BAD_FCS,
    /** an IP or UDP length runs past the end of the frame */
    TRUNCATED,
    UNKNOWN_ETHERTYPE,
    UNKNOWN_UDP_PORT,
    BAD_IP_HEADER,
    WRONG_DESTINATION,
    OVERSIZE_PDU,
    BAD_RCRC,
    UNSUPPORTED_RH_VERSION,
    PARTITION_MISMATCH
}
