package org.sue.cmd;

/**
 * The packed-command format (docs/protocol.md section 4) as the hardware and the reference codec share it: each
 * command is {@code | type (8) | rsvd (8, 0) | data_len (16, big-endian) | control | data | pad to 2 bytes |}.
 */
public final class PackedCommand {
    private PackedCommand() {
    }

    /** Type, reserved byte and data length. */
    public static final int HEADER_BYTES = 4;
    /** The largest packed command without data: header and the most control bytes (18). */
    public static final int MAX_CONTROL_ONLY_BYTES = HEADER_BYTES + 2 * CommandTable.MAX_CONTROL_UNITS;
    /** The largest packed command: with the most control and data bytes (274). */
    public static final int MAX_PACKED_BYTES = MAX_CONTROL_ONLY_BYTES + CommandTable.MAX_DATA_BYTES;

    /** Why unpacking a PDU stopped early; the checks run in this order of precedence. */
    public enum Malformed {
        UNKNOWN_TYPE, DATA_ON_TYPE_WITHOUT_DATA, DATA_TOO_LONG, RUNS_PAST_PDU
    }
}
