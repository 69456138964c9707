package org.sue.vectors;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.sue.cmd.CommandTable;
import org.sue.cmd.CommandUser;
import org.sue.cmd.PackingBuffer;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.tb.PackingBufferCells;
import org.sue.cmd.tb.RandomCommands;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;

/**
 * Drives a {@link org.sue.cmd.PackingBuffer} as the ingress would: random packed commands to a few destinations and
 * VCs, one packet each, never more cells in use or on their way than the buffer has (as the credits would: the cells
 * handed out and freed, and the most each command not yet in its queue may still take); random output backpressure
 * and random gating of VCs and destinations.
 */
public final class PackedCommandStream implements GoldenScenario.Stimulus {
    private final CommandTable table = CommandTable.example();
    private final int lanes;
    private final int destinations;
    private final PackingBufferCells cells;
    private final boolean oneQueue;
    private byte[] packet;
    private long user;
    private int offset;

    public PackedCommandStream(int lanes, int destinations, int cells) {
        this(lanes, destinations, cells, false);
    }

    /** {@code oneQueue}: every command to destination 0, VC 0 (one busy queue alone, PDU after PDU). */
    public PackedCommandStream(int lanes, int destinations, int cells, boolean oneQueue) {
        this.lanes = lanes;
        this.destinations = destinations;
        this.cells = new PackingBufferCells(cells, lanes);
        this.oneQueue = oneQueue;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        cells.sample(sim);
        sim.poke("m_axis_tready", rnd.nextInt(4) > 0 ? 1 : 0);
        if (cycle % 50 == 0) { // gating changes now and then
            sim.poke("vc_ready", rnd.nextInt(8) == 0 ? rnd.nextInt(16) : 0xf);
            BigInteger open = BigInteger.ONE.shiftLeft(4 * destinations).subtract(BigInteger.ONE); // a bit per queue
            sim.poke("dst_ready", rnd.nextInt(4) == 0 ? open.clearBit(rnd.nextInt(4 * destinations)) : open);
        }
        if (packet == null && cells.roomForLargest() && rnd.nextInt(3) > 0) {
            int[] types = table.definedTypes();
            int t = types[rnd.nextInt(types.length)];
            int len = table.hasData(t) ? rnd.nextInt(257) : 0;
            packet = CommandCodec.pack(table, List.of(new CommandCodec.Command(t,
                    RandomCommands.bytes(rnd, table.controlBytes(t)), RandomCommands.bytes(rnd, len))));
            user = oneQueue ? new CommandUser(len > 0, packet.length, 0, 0).pack()
                    : new CommandUser(len > 0, packet.length, rnd.nextInt(4),
                            rnd.nextInt(Math.min(destinations, 6))).pack();
            offset = 0;
            cells.sent(packet.length);
        }
        boolean valid = packet != null;
        int n = valid ? Math.min(lanes, packet.length - offset) : 0;
        sim.poke("s_axis_tvalid", valid ? 1 : 0);
        sim.poke("s_axis_tdata", valid ? Beats.data(packet, offset, n, lanes) : new long[(lanes + 7) / 8]);
        sim.poke("s_axis_tkeep", Beats.keep(n, lanes));
        sim.poke("s_axis_tlast", valid && offset + n >= packet.length ? 1 : 0);
        sim.poke("s_axis_tuser", user);
        if (valid && sim.peek("s_axis_tready") == 1) {
            offset += lanes;
            if (offset >= packet.length) {
                packet = null;
            }
        }
    }
}
