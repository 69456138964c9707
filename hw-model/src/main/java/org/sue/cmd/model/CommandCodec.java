package org.sue.cmd.model;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sue.cmd.CommandTable;
import org.sue.cmd.PackedCommand;

/**
 * Plain-Java reference of packed commands (docs/protocol.md section 4): each command is
 * {@code | type (8) | rsvd (8, 0) | data_len (16, big-endian) | control (table's length) | data | pad to 2 bytes |},
 * commands of one PDU back to back. Unpacking stops at the end of the PDU or at a zero type byte (padding); a
 * malformed command (type not in the table, data on a type without data, data longer than 256 bytes, length running
 * past the PDU) ends the PDU: the commands before it are kept, the rest is dropped and reported.
 */
public final class CommandCodec {
    private CommandCodec() {
    }

    /** A command as carried in a PDU. */
    public record Command(int type, byte[] control, byte[] data) {
        public Command {
            if (type < 1 || type > 255) {
                throw new IllegalArgumentException("command type must be 1..255, got " + type);
            }
            if (data.length > CommandTable.MAX_DATA_BYTES) {
                throw new IllegalArgumentException("command data must be at most 256 bytes, got " + data.length);
            }
            control = control.clone();
            data = data.clone();
        }

        @Override
        public byte[] control() {
            return control.clone();
        }

        @Override
        public byte[] data() {
            return data.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Command c && c.type == type && Arrays.equals(c.control, control)
                    && Arrays.equals(c.data, data);
        }

        @Override
        public int hashCode() {
            return type * 31 + Arrays.hashCode(control) * 17 + Arrays.hashCode(data);
        }
    }

    /** The commands unpacked, and the reason the rest was dropped (null if the PDU was whole). */
    public record Unpacked(List<Command> commands, PackedCommand.Malformed error) {
    }

    /** Bytes a command occupies in a PDU. */
    public static int packedBytes(Command c) {
        int n = PackedCommand.HEADER_BYTES + c.control().length + c.data().length;
        return n + (n & 1);
    }

    public static byte[] pack(CommandTable table, List<Command> commands) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Command c : commands) {
            if (c.control().length != table.controlBytes(c.type())) {
                throw new IllegalArgumentException("command type " + c.type() + " carries " + table.controlBytes(c.type())
                        + " control bytes, got " + c.control().length);
            }
            if (!table.hasData(c.type()) && c.data().length > 0) {
                throw new IllegalArgumentException("command type " + c.type() + " carries no data");
            }
            out.write(c.type());
            out.write(0);
            out.write(c.data().length >>> 8);
            out.write(c.data().length);
            out.writeBytes(c.control());
            out.writeBytes(c.data());
            if (((PackedCommand.HEADER_BYTES + c.control().length + c.data().length) & 1) != 0) {
                out.write(0);
            }
        }
        return out.toByteArray();
    }

    public static Unpacked unpack(CommandTable table, byte[] pdu) {
        List<Command> commands = new ArrayList<>();
        int at = 0;
        while (at < pdu.length) {
            int type = pdu[at] & 0xff;
            if (type == 0) {
                break; // padding
            }
            if (!table.defined(type)) {
                return new Unpacked(commands, PackedCommand.Malformed.UNKNOWN_TYPE);
            }
            if (at + PackedCommand.HEADER_BYTES > pdu.length) {
                return new Unpacked(commands, PackedCommand.Malformed.RUNS_PAST_PDU);
            }
            int dataLen = (pdu[at + 2] & 0xff) << 8 | (pdu[at + 3] & 0xff);
            if (dataLen > 0 && !table.hasData(type)) {
                return new Unpacked(commands, PackedCommand.Malformed.DATA_ON_TYPE_WITHOUT_DATA);
            }
            if (dataLen > CommandTable.MAX_DATA_BYTES) {
                return new Unpacked(commands, PackedCommand.Malformed.DATA_TOO_LONG);
            }
            int ctl = table.controlBytes(type);
            int n = PackedCommand.HEADER_BYTES + ctl + dataLen;
            if (at + n > pdu.length) {
                return new Unpacked(commands, PackedCommand.Malformed.RUNS_PAST_PDU);
            }
            commands.add(new Command(type, Arrays.copyOfRange(pdu, at + PackedCommand.HEADER_BYTES, at + PackedCommand.HEADER_BYTES + ctl),
                    Arrays.copyOfRange(pdu, at + PackedCommand.HEADER_BYTES + ctl, at + n)));
            at += n + (n & 1);
        }
        return new Unpacked(commands, null);
    }
}
