package org.sue.cmd.tb;

import java.util.ArrayDeque;
import java.util.Random;
import org.sue.cmd.BufferCredits;
import org.sue.cmd.model.XpuCredits;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * The world around a {@link BufferCredits} in simulation: an XPU that sends commands on random VCs while it holds
 * their credits, the commands' cells stored one per cycle after a short trip (the last with the command), and a link
 * that frees up to three cells per cycle from VCs that are not blocked. {@link #worstCaseCells()} is what the buffer could have to hold, whatever the
 * XPU does next: it must never exceed the cells.
 */
public final class BufferTraffic {
    private final BufferCredits.Config config;
    private final XpuCredits xpu;
    private final ArrayDeque<int[]> transit = new ArrayDeque<>(); // {vc, cells, has data, due cycle}
    private int[] storing;
    private int storedCells;
    private final long[] inBuffer = new long[SueMeta.VCS];
    /** VCs whose cells are not freed (no link credit). */
    public final boolean[] blocked = new boolean[SueMeta.VCS];
    public int sendPercent = 70;
    public int drainPercent = 50;
    /** The XPU sends on VCs 0 .. activeVcs - 1. */
    public int activeVcs = SueMeta.VCS;
    private long commands;
    private final long[] releases = new long[SueMeta.VCS];

    public BufferTraffic(BufferCredits.Config config) {
        this.config = config;
        this.xpu = new XpuCredits(config.cmdCredits(), config.dataCredits());
    }

    /**
     * Takes the release {@code rel_*} shows this cycle back into the XPU, then pokes this cycle's
     * {@code cell_used_*} and {@code cell_freed_*}; {@link #worstCaseCells()} then includes this cycle's events.
     */
    public void drive(Simulator sim, Random rnd) {
        if (sim.peek("rel_valid") == 1) {
            int vc = (int) sim.peek("rel_vc");
            xpu.give(vc, sim.peek("rel_data") == 1 ? vc : -1);
            releases[vc]++;
        }
        if (storing != null && storedCells == storing[1]) { // stored at the last edge
            storing = null;
        }
        if (rnd.nextInt(100) < sendPercent) {
            int vc = rnd.nextInt(activeVcs);
            boolean data = rnd.nextBoolean();
            if (xpu.take(vc, data)) {
                int cells = data ? 1 + rnd.nextInt(config.cmdCost() + config.dataCost()) : config.cmdCost();
                transit.add(new int[] {vc, cells, data ? 1 : 0, (int) sim.cycle() + 1 + rnd.nextInt(4)});
                commands++;
            }
        }
        if (storing == null && !transit.isEmpty() && transit.peek()[3] <= sim.cycle()) {
            storing = transit.poll();
            storedCells = 0;
        }
        if (storing != null) {
            storedCells++;
            inBuffer[storing[0]]++;
            sim.poke("cell_used_valid", 1);
            sim.poke("cell_used_vc", storing[0]);
            sim.poke("cmd_stored_valid", storedCells == storing[1] ? 1 : 0);
            sim.poke("cmd_stored_vc", storing[0]);
            sim.poke("cmd_stored_data", storing[2]);
        } else {
            sim.poke("cell_used_valid", 0);
            sim.poke("cmd_stored_valid", 0);
        }
        // cells freed one by one, and now and then up to two more of one VC at once (a run's first and last cells)
        int freed = drainable(rnd);
        sim.poke("cell_freed_valid", freed >= 0 ? 1 : 0);
        sim.poke("cell_freed_vc", Math.max(freed, 0));
        if (freed >= 0) {
            inBuffer[freed]--;
        }
        int more = drainable(rnd);
        int returned = more < 0 ? 0 : (int) Math.min(inBuffer[more], 1 + rnd.nextInt(2));
        sim.poke("cell_returned_count", returned);
        sim.poke("cell_returned_vc", Math.max(more, 0));
        if (more >= 0) {
            inBuffer[more] -= returned;
        }
    }

    /** A VC with cells that may drain now (at the drain rate), or -1. */
    private int drainable(Random rnd) {
        if (rnd.nextInt(100) < drainPercent) {
            int start = rnd.nextInt(SueMeta.VCS);
            for (int i = 0; i < SueMeta.VCS; i++) {
                int v = (start + i) % SueMeta.VCS;
                if (!blocked[v] && inBuffer[v] > 0) {
                    return v;
                }
            }
        }
        return -1;
    }

    /** Cells in the buffer, plus the most the commands on their way and the credits the XPU holds could add. */
    public long worstCaseCells() {
        long cells = 0;
        for (int v = 0; v < SueMeta.VCS; v++) {
            cells += inBuffer[v] + (long) xpu.cmdHeld(v) * config.cmdCost() + (long) xpu.dataHeld(v)
                    * config.dataCost();
        }
        for (int[] c : transit) {
            cells += cost(c);
        }
        if (storing != null) {
            cells += cost(storing) - storedCells;
        }
        return cells;
    }

    private long cost(int[] command) {
        return config.cmdCost() + (command[2] == 1 ? config.dataCost() : 0);
    }

    public long cellsInBuffer(int vc) {
        return inBuffer[vc];
    }

    public long totalCellsInBuffer() {
        return inBuffer[0] + inBuffer[1] + inBuffer[2] + inBuffer[3];
    }

    public long commandsSent() {
        return commands;
    }

    public long releases(int vc) {
        return releases[vc];
    }

    /** Nothing on its way or in the buffer. */
    public boolean drained() {
        return transit.isEmpty() && storing == null && totalCellsInBuffer() == 0;
    }

    public boolean creditsBack() {
        return xpu.allBack();
    }
}
