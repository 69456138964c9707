package org.sue.cmd;

import org.sue.core.Layout;
import org.sue.net.SueMeta;

/**
 * One beat of a command inside a block that makes or takes commands in the FIFO interface's terms (docs/protocol.md
 * 11.1): N data bits, the {@code tx_control} word (read on a command's first beat), the XPU (destination on transmit,
 * source on receive), the VC, and whether the beat is the command's last.
 */
public final class CommandBeat {
    private CommandBeat() {
    }

    public static Layout layout(int dataWidth) {
        return Layout.of("command_beat", Layout.bits("data", dataWidth),
                Layout.bits("control", CommandUnpacker.CONTROL_BITS), Layout.bits("xpuid", SueMeta.XPU_WIDTH),
                Layout.bits("vc", SueMeta.VC_WIDTH), Layout.bits("tlast", 1));
    }
}
