package org.sue.instance.tb;

import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.sue.net.tb.PcapWriter;

/** The end of a run of two XPUs over links: stepping until it settles, then until the links are quiet. */
final class Settling {
    private Settling() {
    }

    /**
     * Runs {@code step} (one cycle or a window of several) until {@code settled} has held at the end of each step for
     * {@code quietCycles} cycles in a row; {@code progress} (or null) hears the
     * cycles run now and then. Throws with {@code stalled}'s words when {@code done} (what the run counts: commands
     * delivered, transactions answered) has not moved for {@code stallCycles} while unsettled. Returns the cycles
     * until settled.
     */
    static long settle(XpuSide a, XpuSide b, Runnable step, BooleanSupplier settled, LongSupplier done,
                       long quietCycles, long stallCycles, LongConsumer progress, Supplier<String> stalled) {
        long start = a.sim().cycle();
        long lastProgress = start;
        long doneBefore = 0;
        long quiet = 0;
        while (quiet < quietCycles) {
            long before = a.sim().cycle();
            step.run();
            long after = a.sim().cycle();
            long now = after - 1; // the last cycle driven
            long d = done.getAsLong();
            if (d != doneBefore) {
                doneBefore = d;
                lastProgress = now;
            }
            boolean s = settled.getAsBoolean();
            quiet = s ? quiet + after - before : 0;
            if (!s && now - lastProgress > stallCycles) {
                throw new IllegalStateException(stalled.get() + " for " + stallCycles + " cycles at cycle " + now
                        + "\n  " + a.state() + "\n  " + b.state());
            }
            if (progress != null && before / 65536 != after / 65536) {
                progress.accept(after - start);
            }
        }
        return a.sim().cycle() - start;
    }

    /**
     * MAC Control frames (CC_Updates, PFC refreshes) never stop: runs {@code step} until both links are quiet, to
     * compare the counters with the links between two of them; closes {@code pcap} (or null). Returns the first
     * side's counter that disagrees with its link, or null.
     */
    static String countersAtQuiet(XpuSide a, XpuSide b, Runnable step, PcapWriter pcap) {
        for (long start = a.sim().cycle(); a.sim().cycle() - start < 100_000 && !(a.linkQuiet() && b.linkQuiet()); ) {
            step.run();
        }
        if (pcap != null) {
            pcap.close();
        }
        String mismatch = b.countersAgreeWithLink();
        return mismatch != null ? mismatch : a.countersAgreeWithLink();
    }
}
