package org.sue.cmd.tb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.sue.cmd.CommandTable;
import org.sue.cmd.model.CommandCodec;

/** Random commands and PDUs for tests and golden stimuli: random types of a table, random control and data bytes. */
public final class RandomCommands {
    private RandomCommands() {
    }

    public static byte[] bytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    /** Random commands of the table, packed; optionally damaged so the codec finds a malformed command. */
    public static byte[] pdu(Random rnd, CommandTable table, int commands, boolean damage) {
        List<CommandCodec.Command> cmds = new ArrayList<>();
        int[] types = table.definedTypes();
        for (int i = 0; i < commands; i++) {
            int t = types[rnd.nextInt(types.length)];
            int len = table.hasData(t) ? (rnd.nextInt(4) == 0 ? 256 : rnd.nextInt(257)) : 0;
            cmds.add(new CommandCodec.Command(t, bytes(rnd, table.controlBytes(t)), bytes(rnd, len)));
        }
        byte[] pdu = CommandCodec.pack(table, cmds);
        if (rnd.nextInt(3) == 0) { // padding to a minimum size, as the framing adds it
            pdu = Arrays.copyOf(pdu, pdu.length + 1 + rnd.nextInt(40));
        }
        if (!damage) {
            return pdu;
        }
        int at = 0;
        int k = rnd.nextInt(commands);
        for (int i = 0; i < k; i++) {
            at += CommandCodec.packedBytes(cmds.get(i));
        }
        switch (rnd.nextInt(5)) {
            case 0 -> pdu[at] = (byte) (200 + rnd.nextInt(50)); // unknown type
            case 1 -> { // a data length on a type without data
                pdu[at] = 1;
                pdu[at + 3] = (byte) (1 + rnd.nextInt(200));
            }
            case 2 -> pdu[at + 2] = (byte) (1 + rnd.nextInt(3)); // more than 256 data bytes
            case 3 -> pdu = Arrays.copyOf(pdu, at + 1 + rnd.nextInt(CommandCodec.packedBytes(cmds.get(k)) - 1));
            default -> pdu[at + 2] = (byte) 0x7f; // far past the PDU
        }
        return pdu.length == 0 ? new byte[] {1} : pdu;
    }
}
