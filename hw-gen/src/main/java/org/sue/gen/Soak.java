package org.sue.gen;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sue.cmd.model.CommandCodec;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.instance.tb.XpuSide;
import org.sue.net.HeaderFormat;

/**
 * {@code scripts/soak [--link cbfc|pfc] [--faults] [--ports 2|4 [--unordered]] [N]}: N random commands (default 10^6, half each way) between two
 * SUE instances over a link with frame loss 1e-3, bit errors 1e-3 and loss bursts; prints
 * {@code lost=0 duplicated=0 reordered=0} with the counts it checked, or the first violation. A 512-bit instance with
 * 16 destinations keeps it to minutes; progress on a terminal, quiet in logs. Without {@code --link} the transport
 * alone recovers every loss; with it the instances have Link Layer Retry and CBFC or PFC
 * ({@link SmallInstance}), and the link-layer counters must agree with the link too. {@code --faults} (with LLR and
 * CBFC unless {@code --link} says PFC) adds one fault to every chunk of commands, in turn: a link flap longer than
 * LLR's PCS-lost timeout, B's XPU holding its receive credits for 20,000 cycles, a transmit reset of A's XPU, a
 * receive reset of B's XPU, and B frozen for 60,000 cycles (declared unreachable by A, probed, back); every command
 * must arrive once and in order except those the docs say a receive reset loses, whose count is checked against the
 * cuts it made. {@code --ports} runs instances of 2 or 4 ports ({@link SmallInstance#multiPort}: LLR and CBFC on each,
 * a link per port) and takes one port's link down for longer than LLR's PCS-lost timeout in every chunk, the ports in
 * turn.
 */
public final class Soak {
    private Soak() {
    }

    private static final int LINK_DELAY = 100;

    public static void main(String[] args) {
        long total = 1_000_000;
        SueInstance.Config config = SmallInstance.config(HeaderFormat.ETH_IPV4_UDP);
        boolean faults = false;
        int ports = 1;
        boolean unordered = false;
        String usage = "usage: scripts/soak [--link cbfc|pfc] [--faults] [--ports 2|4 [--unordered]] [N]   (N"
                + " commands, default 1000000, half each way; --link: with LLR and CBFC or PFC; --faults: link flaps,"
                + " XPU stalls, XPU resets, a destination dying and returning; --ports: instances of 2 or 4 ports, one"
                + " port's link down and back in every chunk; --unordered: those ports in unordered mode)";
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                System.out.println(usage);
                return;
            }
            if (a.equals("--faults")) {
                faults = true;
                if (config.llr() == null) {
                    config = withLink("cbfc");
                }
                continue;
            }
            if (a.equals("--ports")) {
                String p = i + 1 < args.length ? args[++i] : "";
                if (!p.equals("2") && !p.equals("4")) {
                    System.err.println("scripts/soak: --ports takes 2 or 4, got '" + p + "'\n" + usage);
                    System.exit(2);
                }
                ports = Integer.parseInt(p);
                continue;
            }
            if (a.equals("--unordered")) {
                unordered = true;
                continue;
            }
            if (a.equals("--link")) {
                String mode = i + 1 < args.length ? args[++i] : "";
                if (!mode.equals("cbfc") && !mode.equals("pfc")) {
                    System.err.println("scripts/soak: --link takes cbfc or pfc, got '" + mode + "'\n" + usage);
                    System.exit(2);
                }
                config = withLink(mode);
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
        if (ports > 1 && (faults || config.llr() != null)) {
            System.err.println("scripts/soak: --ports goes alone (its instances have LLR and CBFC, its fault is a"
                    + " port going down)\n" + usage);
            System.exit(2);
        }
        if (unordered && ports == 1) {
            System.err.println("scripts/soak: --unordered needs --ports 2 or 4\n" + usage);
            System.exit(2);
        }
        if (ports > 1) {
            config = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, LINK_DELAY).withOrdering(unordered
                    ? SueInstance.Config.Ordering.UNORDERED : SueInstance.Config.Ordering.STRICT);
        }
        LinkModel.Faults noise = LinkModel.Faults.loss(1e-3).withBitErrors(1e-3).withBursts(1e-4, 8);
        TwoXpuRun run = new TwoXpuRun(config, LINK_DELAY, noise, 1_000_003, null);
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
                if (ports > 1) {
                    run.add((int) (n / 2), (int) (n - n / 2), TwoXpuRun.RANDOM);
                    run.idle(300); // commands under way
                    int port = i % ports;
                    run.portUp(port, false); // longer than the PCS-lost timeout: the port goes down and comes back
                    run.idle(3000);
                    run.portUp(port, true);
                    portFlaps++;
                    r = run.run(0, 0, 200_000, null);
                } else if (faults) {
                    run.add((int) (n / 2), (int) (n - n / 2), TwoXpuRun.RANDOM);
                    run.idle(300); // commands under way
                    int k = Integer.getInteger("soak.fault", i % FAULTS.length);
                    injected[k]++;
                    FAULTS[k].inject(run);
                    r = run.run(0, 0, 200_000, null);
                } else {
                    r = run.run((int) (n / 2), (int) (n - n / 2), 100_000, null);
                }
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
        if (ports > 1) {
            System.out.printf("%d ports, %d times a port's link down for 3,000 cycles and back; ", ports, portFlaps);
        }
        if (faults) {
            reportFaults(r, run, cycles, (System.nanoTime() - t0) / 1e9);
        } else {
            report(r, run, config.unordered(), cycles, (System.nanoTime() - t0) / 1e9);
        }
    }

    private static SueInstance.Config withLink(String mode) {
        HeaderFormat f = HeaderFormat.ETH_IPV4_UDP;
        return (mode.equals("cbfc") ? SmallInstance.withCbfc(f) : SmallInstance.withPfc(f))
                .withLlr(SmallInstance.llr(LINK_DELAY));
    }

    /** One fault, injected after the chunk's commands started and lifted before it settles. */
    private interface Fault {
        void inject(TwoXpuRun run);
    }

    private static final String[] FAULT_NAMES = {"link flaps", "XPU stalls", "transmit resets", "receive resets",
        "destination deaths"};
    private static final Fault[] FAULTS = {
        run -> { // longer than the PCS-lost timeout: LLR flushes and initialises again
            run.linkUp(false);
            run.idle(3000);
            run.linkUp(true);
        },
        run -> run.side("B").holdRxCredits(0xf, 20_000),
        run -> run.side("A").txReset(20),
        run -> run.side("B").rxReset(20),
        run -> { // A declares B unreachable, probes it, and goes on when it answers
            run.side("B").frozen(true);
            run.idle(60_000);
            run.side("B").frozen(false);
        },
    };
    private static final int[] injected = new int[FAULTS.length];
    private static int portFlaps;

    /**
     * What must survive did (once, in order, a gap only at each receive-reset cut); the commands receive resets lost,
     * checked against the cuts B's XPU made and SUE counted.
     */
    private static void reportFaults(TwoXpuRun.Result r, TwoXpuRun run, long cycles, double secs) {
        XpuSide a = run.side("A");
        XpuSide b = run.side("B");
        String violation = b.intactFrom(a, true);
        if (violation == null) {
            violation = a.intactFrom(b, true);
        }
        int cuts = b.receiveResetCuts() + a.receiveResetCuts();
        int lost = b.lostFrom(a) + a.lostFrom(b);
        long counted = run.peekA("rx_drops_reset") + run.peekB("rx_drops_reset");
        StringBuilder made = new StringBuilder();
        for (int k = 0; k < FAULTS.length; k++) {
            made.append(k == 0 ? "" : ", ").append(injected[k]).append(' ').append(FAULT_NAMES[k]);
        }
        long commands = r.aToB().commands() + r.bToA().commands();
        System.out.printf("lost=%d duplicated=0 reordered=0 (checked %,d commands both ways through %s; %,d"
                        + " commands lost to %d receive-reset cuts, as the docs allow; A declared B unreachable %d"
                        + " times, back %d; %,d PDUs retransmitted, %,d cycles, %.0f s)%n", violation == null ? 0 : 1,
                commands - lost, made, lost, cuts, run.peekA("tp_tx_destinations_lost"),
                run.peekA("tp_tx_destinations_back"), r.aToB().retransmitted() + r.bToA().retransmitted(), cycles,
                secs);
        if (violation == null && (lost < cuts || counted != cuts)) {
            violation = lost + " commands lost to " + cuts + " receive-reset cuts, SUE counted " + counted + " cuts";
        }
        if (violation != null || !r.ok()) {
            System.out.println("first violation: " + (violation != null ? violation
                    : "credits back " + r.creditsBack() + ", stores empty " + r.storesEmpty() + ", counters "
                    + r.countersMismatch()));
            System.exit(1);
        }
    }

    private static void report(TwoXpuRun.Result r, TwoXpuRun run, boolean unordered, long cycles, double secs) {
        long[] counts = new long[3]; // lost, duplicated, reordered
        String first = compare(run.sentAToB(), run.gotAToB(), "A -> B", counts, unordered);
        String second = compare(run.sentBToA(), run.gotBToA(), "B -> A", counts, unordered);
        long commands = r.aToB().commands() + r.bToA().commands();
        System.out.printf("lost=%d duplicated=%d %s=%d (checked %,d commands both ways, %,d frames, %,d lost"
                        + " and %,d damaged by the link, %,d PDUs retransmitted, %,d timeouts, %,d cycles, %.0f s)%n",
                counts[0], counts[1], unordered ? "overtaken (unordered mode: allowed)" : "reordered", counts[2],
                commands, r.aToB().frames() + r.bToA().frames(),
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

    /**
     * Per VC: what came is a prefix-aligned copy of what went (unordered: the same commands, each once, in any order);
     * counts the differences (unordered: the commands that overtook one sent before them, not a violation), returns
     * the first.
     */
    private static String compare(Map<Integer, List<CommandCodec.Command>> sent,
                                  Map<Integer, List<CommandCodec.Command>> got, String dir, long[] counts,
                                  boolean unordered) {
        String first = null;
        Map<Integer, List<CommandCodec.Command>> all = new HashMap<>(sent);
        got.keySet().forEach(k -> all.putIfAbsent(k, List.of()));
        for (int vc : all.keySet()) {
            List<CommandCodec.Command> s = sent.getOrDefault(vc, List.of());
            List<CommandCodec.Command> g = got.getOrDefault(vc, List.of());
            if (unordered) {
                XpuSide.Arrival arrival = XpuSide.Arrival.of(s, g);
                counts[0] += arrival.missing();
                counts[1] += arrival.extra();
                counts[2] += arrival.overtaken();
                if (first == null && arrival.missing() + arrival.extra() > 0) {
                    first = dir + " VC " + vc + ": " + arrival.missing() + " sent and not delivered, "
                            + arrival.extra() + " delivered too often";
                }
                continue;
            }
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
