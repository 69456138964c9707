package org.sue.vectors;

import java.util.Random;
import org.sue.cmd.CommandTable;
import org.sue.cmd.tb.RandomCommands;
import org.sue.lib.stream.tb.PacketBeats;
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
    private PacketBeats beats;

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
        if (beats == null) {
            beats = new PacketBeats(sim, "s_axis");
        }
        if (beats.idle()) {
            byte[] pdu = RandomCommands.pdu(rnd, table, 1 + rnd.nextInt(6), rnd.nextInt(4) == 0);
            SueMeta meta = new SueMeta(rnd.nextInt(1024), rnd.nextInt(1024), rnd.nextInt(4), 0, 0, 0, 0, 0, false,
                    pdu.length);
            beats.start(pdu, meta.pack());
        }
        beats.offer(rnd.nextInt(6) > 0, rnd); // lanes past tkeep carry garbage
        beats.advance();
    }
}
