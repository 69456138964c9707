package org.sue.gen;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sue.cmd.model.CommandCodec;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.net.HeaderFormat;

/**
 * {@code scripts/soak [--link cbfc|pfc] [N]}: N random commands (default 10^6, half each way) between two SUE
 * instances over a link with frame loss 1e-3, bit errors 1e-3 and loss bursts; prints
 * {@code lost=0 duplicated=0 reordered=0} with the counts it checked, or the first violation. A 512-bit instance with
 * 16 destinations keeps it to minutes; progress on a terminal, quiet in logs. Without {@code --link} the transport
 * alone recovers every loss; with it the instances have Link Layer Retry and CBFC or PFC
 * ({@link SmallInstance}), and the link-layer counters must agree with the link too.
 */
public final class Soak {
    private Soak() {
    }

    private static final int LINK_DELAY = 100;

    public static void main(String[] args) {
        long total = 1_000_000;
        SueInstance.Config config = SmallInstance.config(HeaderFormat.ETH_IPV4_UDP);
        String usage = "usage: scripts/soak [--link cbfc|pfc] [N]   (N commands, default 1000000, half each way;"
                + " --link: with LLR and CBFC or PFC)";
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                System.out.println(usage);
                return;
            }
            if (a.equals("--link")) {
                String mode = i + 1 < args.length ? args[++i] : "";
                if (!mode.equals("cbfc") && !mode.equals("pfc")) {
                    System.err.println("scripts/soak: --link takes cbfc or pfc, got '" + mode + "'\n" + usage);
                    System.exit(2);
                }
                HeaderFormat f = HeaderFormat.ETH_IPV4_UDP;
                config = (mode.equals("cbfc") ? SmallInstance.withCbfc(f) : SmallInstance.withPfc(f))
                        .withLlr(SmallInstance.llr(LINK_DELAY));
                continue;
            }
            try {
                total = Long.parseLong(a.replace("_", ""));
            } catch (NumberFormatException e) {
                System.err.println("scripts/soak: not a number of commands: " + a + "\n" + usage);
                System.exit(2);
            }
        }
        if (total < 2) {
            System.err.println("scripts/soak: N must be at least 2, got " + total);
            System.exit(2);
        }
        LinkModel.Faults faults = LinkModel.Faults.loss(1e-3).withBitErrors(1e-3).withBursts(1e-4, 8);
        TwoXpuRun run = new TwoXpuRun(config, LINK_DELAY, faults, 1_000_003, null);
        Progress progress = Progress.open();
        int chunks = (int) Math.max(1, Math.min(100, total / 2000));
        long perChunk = total / chunks;
        long done = 0;
        long t0 = System.nanoTime();
        TwoXpuRun.Result r = null;
        long cycles = 0;
        for (int i = 0; i < chunks; i++) {
            long n = i == chunks - 1 ? total - done : perChunk;
            try {
                r = run.run((int) (n / 2), (int) (n - n / 2), 100_000, null);
            } catch (IllegalStateException e) {
                System.out.println("\nsoak: stuck after " + done + " commands: " + e.getMessage());
                System.exit(1);
            }
            done += n;
            cycles += r.cycles();
            double secs = (System.nanoTime() - t0) / 1e9;
            progress.show(String.format("  %,d of %,d commands, %,.0f commands/s, %.0f s left", done, total,
                    done / secs, (total - done) / (done / secs)));
            if (!r.ok()) {
                break;
            }
        }
        progress.close();
        report(r, run, cycles, (System.nanoTime() - t0) / 1e9);
    }

    private static void report(TwoXpuRun.Result r, TwoXpuRun run, long cycles, double secs) {
        long[] counts = new long[3]; // lost, duplicated, reordered
        String first = compare(run.sentAToB(), run.gotAToB(), "A -> B", counts);
        String second = compare(run.sentBToA(), run.gotBToA(), "B -> A", counts);
        long commands = r.aToB().commands() + r.bToA().commands();
        System.out.printf("lost=%d duplicated=%d reordered=%d (checked %,d commands both ways, %,d frames, %,d lost"
                        + " and %,d damaged by the link, %,d PDUs retransmitted, %,d timeouts, %,d cycles, %.0f s)%n",
                counts[0], counts[1], counts[2], commands, r.aToB().frames() + r.bToA().frames(),
                r.aToB().framesLost() + r.bToA().framesLost(), r.aToB().framesDamaged() + r.bToA().framesDamaged(),
                r.aToB().retransmitted() + r.bToA().retransmitted(), r.aToB().timeouts() + r.bToA().timeouts(),
                cycles, secs);
        String violation = first != null ? first : second;
        if (violation != null || !r.ok()) {
            System.out.println("first violation: " + (violation != null ? violation
                    : "credits back " + r.creditsBack() + ", stores empty " + r.storesEmpty() + ", counters "
                    + r.countersMismatch()));
            System.exit(1);
        }
    }

    /** Per VC: what came is a prefix-aligned copy of what went; counts the differences, returns the first. */
    private static String compare(Map<Integer, List<CommandCodec.Command>> sent,
                                  Map<Integer, List<CommandCodec.Command>> got, String dir, long[] counts) {
        String first = null;
        Map<Integer, List<CommandCodec.Command>> all = new HashMap<>(sent);
        got.keySet().forEach(k -> all.putIfAbsent(k, List.of()));
        for (int vc : all.keySet()) {
            List<CommandCodec.Command> s = sent.getOrDefault(vc, List.of());
            List<CommandCodec.Command> g = got.getOrDefault(vc, List.of());
            counts[0] += Math.max(0, s.size() - g.size());
            counts[1] += Math.max(0, g.size() - s.size());
            for (int i = 0; i < Math.min(s.size(), g.size()); i++) {
                if (!s.get(i).equals(g.get(i))) {
                    counts[2]++;
                    if (first == null) {
                        first = dir + " VC " + vc + ": command " + i + " differs from the one sent";
                    }
                }
            }
            if (first == null && s.size() != g.size()) {
                first = dir + " VC " + vc + ": " + s.size() + " sent, " + g.size() + " delivered";
            }
        }
        return first;
    }
}
