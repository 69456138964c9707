package org.sue.cmd.tb;

import java.util.ArrayDeque;
import org.sue.cmd.BufferCredits;
import org.sue.cmd.PackedCommand;
import org.sue.sim.Simulator;

/**
 * The cell count the credits keep, for a testbench that sends commands straight into a simulated
 * {@link PackingBuffer}: the cells handed out and not yet freed ({@code cell_used_*}, {@code cell_freed_*},
 * {@code cell_returned_*}), plus the most cells each command sent and not yet appended ({@code cmd_stored_*}) may
 * still take. The testbench sends a command only while {@link #roomForLargest} holds, as credits would allow.
 */
public final class PackingBufferCells {
    private final int cells;
    private final int cellBytes;
    private final ArrayDeque<Integer> transit = new ArrayDeque<>(); // most cells each command sent may still take
    private long transitCells;
    private long used;
    private long freed;

    public PackingBufferCells(int cells, int cellBytes) {
        this.cells = cells;
        this.cellBytes = cellBytes;
    }

    /** A command of {@code packedBytes} is on its way in. */
    public void sent(int packedBytes) {
        int cost = BufferCredits.ceil(packedBytes, cellBytes);
        transit.add(cost);
        transitCells += cost;
    }

    /** Counts what the buffer reports this cycle; call once per cycle. */
    public void sample(Simulator sim) {
        used += sim.peek("cell_used_valid");
        freed += sim.peek("cell_freed_valid") + sim.peek("cell_returned_count");
        if (sim.peek("cmd_stored_valid") == 1) {
            transitCells -= transit.poll();
        }
    }

    /** The largest command may be sent: the buffer cannot run out of cells for it and everything before it. */
    public boolean roomForLargest() {
        return inUse() + transitCells + BufferCredits.ceil(PackedCommand.MAX_PACKED_BYTES, cellBytes) <= cells;
    }

    /** Cells handed out and not yet freed. */
    public long inUse() {
        return used - freed;
    }

    public long used() {
        return used;
    }

    public long freed() {
        return freed;
    }
}
