package org.sue.cmd.model;

import java.util.Arrays;

/**
 * The credits an XPU holds on one direction of the command interface: per VC, command slots and 256-byte data
 * buffers (docs/protocol.md section 11). A command takes one slot and, with data, one buffer; the other side returns them on
 * a 6-bit credit word {cmd_credit, cmd_vc[1:0], data_credit, data_vc[1:0]}.
 */
public final class XpuCredits {
    private final int initialCmd;
    private final int initialData;
    private final int[] cmd = new int[4];
    private final int[] data = new int[4];

    public XpuCredits(int cmdCredits, int dataCredits) {
        this.initialCmd = cmdCredits;
        this.initialData = dataCredits;
        reset();
    }

    /** Back to the initial credits (an interface reset). */
    public void reset() {
        Arrays.fill(cmd, initialCmd);
        Arrays.fill(data, initialData);
    }

    /** Whether a command on {@code vc} (with data or not) may be sent. */
    public boolean has(int vc, boolean withData) {
        return cmd[vc] > 0 && (!withData || data[vc] > 0);
    }

    /** Spends the credits of a command on {@code vc}; false (and nothing spent) when they are not held. */
    public boolean take(int vc, boolean withData) {
        if (!has(vc, withData)) {
            return false;
        }
        cmd[vc]--;
        if (withData) {
            data[vc]--;
        }
        return true;
    }

    /** Credits given back: a command slot on {@code cmdVc} and a data buffer on {@code dataVc} (-1: none). */
    public void give(int cmdVc, int dataVc) {
        if (cmdVc >= 0) {
            cmd[cmdVc]++;
        }
        if (dataVc >= 0) {
            data[dataVc]++;
        }
    }

    /** Command slots held on {@code vc}. */
    public int cmdHeld(int vc) {
        return cmd[vc];
    }

    /** Data buffers held on {@code vc}. */
    public int dataHeld(int vc) {
        return data[vc];
    }

    /** True when exactly the initial credits of both kinds are held on every VC. */
    public boolean allBack() {
        for (int v = 0; v < 4; v++) {
            if (cmd[v] != initialCmd || data[v] != initialData) {
                return false;
            }
        }
        return true;
    }

    /** The VC a credit word returns a command slot for, -1 for none. */
    public static int cmdVc(long word) {
        return (word & 0b100000) != 0 ? (int) (word >> 3 & 3) : -1;
    }

    /** The VC a credit word returns a data buffer for, -1 for none. */
    public static int dataVc(long word) {
        return (word & 0b100) != 0 ? (int) (word & 3) : -1;
    }

    /** The credit word returning a slot on {@code cmdVc} and a buffer on {@code dataVc} (-1: none). */
    public static long word(int cmdVc, int dataVc) {
        return (cmdVc >= 0 ? 0b100000 | (long) cmdVc << 3 : 0) | (dataVc >= 0 ? 0b100 | dataVc : 0);
    }
}
