package org.sue.vectors;

import java.util.Random;
import org.sue.cmd.CommandTable;
import org.sue.cmd.tb.RandomCommands;
import org.sue.lib.stream.model.Beats;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * Drives a {@link org.sue.cmd.CommandUnpacker}: random PDUs of packed commands (a quarter of them malformed, some
 * padded) with random gaps and garbage in unused lanes, and an XPU that returns the credits of delivered commands
 * after a random time (it watches rx_valid, rx_cycle, rx_vc and the data length in rx_control).
 */
public final class CommandPduStream implements GoldenScenario.Stimulus {
    private final CommandTable table;
    private final int lanes;
    private final int[] cmdHeld = new int[4];
    private final int[] dataHeld = new int[4];
    private byte[] pdu;
    private SueMeta meta;
    private int offset;

    public CommandPduStream(CommandTable table, int lanes) {
        this.table = table;
        this.lanes = lanes;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (sim.peek("rx_valid") != 0 && sim.peek("rx_cycle") == 0) {
            int vc = (int) sim.peek("rx_vc");
            cmdHeld[vc]++;
            if ((sim.peekBig("rx_control").shiftRight(8).intValue() & 0xffff) != 0) { // data length bytes 1..2
                dataHeld[vc]++;
            }
        }
        long credit = 0;
        int c = rnd.nextInt(4);
        if (cmdHeld[c] > 0 && rnd.nextInt(3) == 0) {
            cmdHeld[c]--;
            credit |= 0b100000 | (long) c << 3;
        }
        int d = rnd.nextInt(4);
        if (dataHeld[d] > 0 && rnd.nextInt(3) == 0) {
            dataHeld[d]--;
            credit |= 0b100 | d;
        }
        sim.poke("rx_credit", credit);
        sim.poke("rx_reset_in", cycle % 700 == 650 ? 1 : 0);
        if (pdu == null) {
            pdu = RandomCommands.pdu(rnd, table, 1 + rnd.nextInt(6), rnd.nextInt(4) == 0);
            meta = new SueMeta(rnd.nextInt(1024), rnd.nextInt(1024), rnd.nextInt(4), 0, 0, 0, 0, 0, false, pdu.length);
            offset = 0;
        }
        boolean valid = rnd.nextInt(6) > 0;
        int n = Math.min(lanes, pdu.length - offset);
        boolean last = offset + n >= pdu.length;
        long[] data = Beats.data(pdu, offset, n, lanes);
        for (int w = n / 8 + 1; w < data.length; w++) {
            data[w] = rnd.nextLong(); // lanes past tkeep carry garbage
        }
        sim.poke("s_axis_tvalid", valid ? 1 : 0);
        sim.poke("s_axis_tdata", data);
        sim.poke("s_axis_tkeep", Beats.keep(n, lanes));
        sim.poke("s_axis_tlast", last ? 1 : 0);
        sim.poke("s_axis_tuser", meta.pack());
        if (valid && sim.peek("s_axis_tready") == 1) {
            offset += lanes;
            if (last) {
                pdu = null;
            }
        }
    }
}
