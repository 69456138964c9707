package org.sue.cmd.model;

import org.sue.cmd.BufferCredits;
import org.sue.net.SueMeta;

/** Cycle-level reference of {@link BufferCredits}, written from its documented rules. */
public final class BufferCreditsReference {
    /** One command's credits returned: its VC and whether it had data. */
    public record Release(int vc, boolean data) {
    }

    private final BufferCredits.Config config;
    private final long[] charge = new long[SueMeta.VCS];
    private final long[] owedPlain = new long[SueMeta.VCS];
    private final long[] owedData = new long[SueMeta.VCS];
    private int last = SueMeta.VCS - 1;
    private Release output; // registered: seen the cycle after the decision
    private int[] pending; // the events of the cycle before: the block registers them on entry

    public BufferCreditsReference(BufferCredits.Config config) {
        this.config = config;
        java.util.Arrays.fill(charge, config.reserve());
    }

    /** The release on {@code rel_*} this cycle, or null. */
    public Release output() {
        return output;
    }

    /**
     * One clock edge. {@code usedVc}: the VC of the cell handed out this cycle or -1; {@code storedVc}: the VC of the
     * command that entered its queue or -1, {@code storedData}: it has data; {@code freedVc}: the VC of the cell freed
     * this cycle or -1; {@code returned} more cells freed on {@code returnedVc}. The events count from the next
     * cycle's edge: the block registers them as they come.
     */
    public void cycle(int usedVc, int storedVc, boolean storedData, int freedVc, int returnedVc, int returned) {
        int[] now = pending;
        pending = new int[] {usedVc, storedVc, storedData ? 1 : 0, freedVc, returnedVc, returned};
        decide();
        if (now != null) {
            apply(now[0], now[1], now[2] == 1, now[3], now[4], now[5]);
        }
    }

    private void decide() {
        long reserve = config.reserve();
        long sharedUsed = 0;
        for (int v = 0; v < SueMeta.VCS; v++) {
            sharedUsed += Math.max(0, charge[v] - reserve);
        }
        int pick = -1;
        for (int i = 1; i <= SueMeta.VCS && pick < 0; i++) {
            int v = (last + i) % SueMeta.VCS;
            if (owedPlain[v] + owedData[v] > 0) {
                long after = charge[v] + cost(owedData[v] > 0);
                long othersAbove = sharedUsed - Math.max(0, charge[v] - reserve);
                if (after <= reserve || othersAbove + (after - reserve) <= config.shared()) {
                    pick = v;
                }
            }
        }
        output = null;
        if (pick >= 0) {
            boolean data = owedData[pick] > 0;
            output = new Release(pick, data);
            last = pick;
            charge[pick] += cost(data);
            if (data) {
                owedData[pick]--;
            } else {
                owedPlain[pick]--;
            }
        }
    }

    private void apply(int usedVc, int storedVc, boolean storedData, int freedVc, int returnedVc, int returned) {
        if (usedVc >= 0) {
            charge[usedVc]++;
        }
        if (storedVc >= 0) {
            charge[storedVc] -= cost(storedData);
            if (storedData) {
                owedData[storedVc]++;
            } else {
                owedPlain[storedVc]++;
            }
        }
        if (freedVc >= 0) {
            charge[freedVc]--;
        }
        charge[returnedVc] -= returned;
    }

    private long cost(boolean data) {
        return config.cmdCost() + (data ? config.dataCost() : 0);
    }

    public long charge(int vc) {
        return charge[vc];
    }

    /** Commands stored whose credits are not back yet. */
    public long owed(int vc) {
        return owedPlain[vc] + owedData[vc];
    }
}
