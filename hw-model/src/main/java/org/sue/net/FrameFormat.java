package org.sue.net;

/**
 * Sizes and constants of the SUE frame on the wire (docs/protocol.md sections 1-3, 5) that the hardware and the
 * reference codec share: {@code network header | RH | packed commands | padding | R-CRC | FCS}.
 */
public final class FrameFormat {
    private FrameFormat() {
    }

    /** Smallest Ethernet frame, FCS included. */
    public static final int MIN_FRAME = 64;
    public static final int FCS_BYTES = 4;
    public static final int RCRC_BYTES = 4;
    /** The reliability header. */
    public static final int RH_BYTES = 8;
    /** The largest PDU: RH and packed commands. */
    public static final int MAX_PDU_BYTES = 4096;
    /** AFH Gen2 first address octet: V (bit 7) = 0, W (bit 6), X (bit 1) = 1 locally assigned, M (bit 0) = 0. */
    public static final int GEN2_NORMAL_FLAGS = 0x02;
    public static final int GEN2_COMPRESSED_FLAGS = 0x42;
    /** Version of the AFH Gen1 shim header. */
    public static final int SHIM_VERSION = 1;

    /** Bytes of the frame carrying {@code commandBytes} of packed commands: header, RH, commands, padding, R-CRC, FCS. */
    public static int frameBytes(NetConfig cfg, int commandBytes) {
        return Math.max(MIN_FRAME, cfg.headerBytes() + RH_BYTES + commandBytes + RCRC_BYTES + FCS_BYTES);
    }

    /** Minimum padded PDU (RH + commands + padding) for this format, so that the frame is at least 64 bytes. */
    public static int minPdu(NetConfig cfg) {
        return Math.max(RH_BYTES, MIN_FRAME - cfg.headerBytes() - RCRC_BYTES - FCS_BYTES);
    }
}
