package org.sue.cmd.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.cmd.CommandTable;
import org.sue.cmd.PackedCommand;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.model.FrameCodec;
import org.sue.net.model.ReliabilityHeader;
import org.sue.net.tb.LoopbackRun;

/** Packed commands: the layout byte by byte, round trips, through SUE framing with padding, and every malformation. */
class CommandCodecTest {
    static final CommandTable TABLE = CommandTable.example();

    static List<CommandCodec.Command> random(Random rnd, int count) {
        List<CommandCodec.Command> list = new ArrayList<>();
        int[] types = {1, 2, 3, 4};
        for (int i = 0; i < count; i++) {
            int t = types[rnd.nextInt(types.length)];
            byte[] ctl = new byte[TABLE.controlBytes(t)];
            rnd.nextBytes(ctl);
            byte[] data = new byte[TABLE.hasData(t) ? rnd.nextInt(257) : 0];
            rnd.nextBytes(data);
            list.add(new CommandCodec.Command(t, ctl, data));
        }
        return list;
    }

    @Test
    void layoutIsTypeReservedLengthControlDataPad() {
        byte[] p = CommandCodec.pack(TABLE, List.of(new CommandCodec.Command(3, new byte[] {1, 2, 3, 4},
                new byte[] {9, 8, 7})));
        assertArrayEquals(new byte[] {3, 0, 0, 3, 1, 2, 3, 4, 9, 8, 7, 0}, p);
        assertEquals(12, CommandCodec.packedBytes(new CommandCodec.Command(3, new byte[4], new byte[3])));
    }

    @Test
    void randomListsRoundTripAlsoThroughFramingWithPadding() {
        Random rnd = new Random(4);
        NetConfig net = NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED);
        LoopbackRun.Peers peers = LoopbackRun.Peers.of(net);
        for (int t = 0; t < 500; t++) {
            List<CommandCodec.Command> cmds = random(rnd, 1 + rnd.nextInt(12));
            byte[] packed = CommandCodec.pack(TABLE, cmds);
            assertEquals(cmds.stream().mapToInt(CommandCodec::packedBytes).sum(), packed.length);
            assertEquals(new CommandCodec.Unpacked(cmds, null), CommandCodec.unpack(TABLE, packed));
            // the receiver delivers the commands with the minimum-size padding: the zero type ends the list
            byte[] frame = FrameCodec.encode(net, peers.table()[0], new ReliabilityHeader(1, 0, 1, t, 0,
                    peers.me().partition(), 0), packed);
            byte[] delivered = FrameCodec.decode(net, peers.me(), frame).frame().commands();
            assertTrue(delivered.length >= packed.length);
            assertEquals(cmds, CommandCodec.unpack(TABLE, delivered).commands());
        }
    }

    @Test
    void aMalformedCommandEndsThePduAndKeepsTheOnesBefore() {
        List<CommandCodec.Command> two = random(new Random(5), 2);
        byte[] good = CommandCodec.pack(TABLE, two);
        int second = CommandCodec.packedBytes(two.get(0));
        assertMalformed(with(good, second, 9), PackedCommand.Malformed.UNKNOWN_TYPE);
        byte[] read = CommandCodec.pack(TABLE, List.of(two.get(0), new CommandCodec.Command(1, new byte[8], new byte[0])));
        assertMalformed(with(read, second + 3, 5), PackedCommand.Malformed.DATA_ON_TYPE_WITHOUT_DATA);
        byte[] write = CommandCodec.pack(TABLE, List.of(two.get(0), new CommandCodec.Command(2, new byte[8], new byte[4])));
        assertMalformed(with(write, second + 2, 2), PackedCommand.Malformed.DATA_TOO_LONG); // 0x0204 bytes
        assertMalformed(Arrays.copyOf(write, write.length - 3), PackedCommand.Malformed.RUNS_PAST_PDU);
        assertMalformed(Arrays.copyOf(write, second + 2), PackedCommand.Malformed.RUNS_PAST_PDU);
    }

    private static void assertMalformed(byte[] pdu, PackedCommand.Malformed why) {
        CommandCodec.Unpacked u = CommandCodec.unpack(TABLE, pdu);
        assertEquals(why, u.error());
        assertEquals(1, u.commands().size(), "the command before the bad one is kept");
    }

    private static byte[] with(byte[] b, int at, int value) {
        byte[] c = b.clone();
        c[at] = (byte) value;
        return c;
    }

    @Test
    void tableRejectsBadDefinitionsByName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new CommandTable().define(0, 1, false))
                .getMessage().contains("type"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new CommandTable().define(5, 8, false))
                .getMessage().contains("controlUnits16"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CommandTable.example().define(1, 1, true))
                .getMessage().contains("twice"));
        assertThrows(IllegalArgumentException.class, () -> CommandCodec.pack(TABLE,
                List.of(new CommandCodec.Command(1, new byte[3], new byte[0]))));
        assertNull(CommandCodec.unpack(TABLE, new byte[6]).error(), "zeros are padding");
    }
}
