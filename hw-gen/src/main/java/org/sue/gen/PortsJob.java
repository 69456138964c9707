package org.sue.gen;

import java.nio.file.Path;
import java.util.Map;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.instance.tb.XpuSide;

/**
 * The main job's simulation for an instance of 2 or 4 ports: two instances back to back, a link per port (200 cycles,
 * one frame in a thousand lost), commands both ways; when half of them are delivered, port 1's link goes down for
 * {@value #OUTAGE_CYCLES} cycles and comes back, its connections carried by port 2 mod P meanwhile (docs/protocol.md
 * 10.6). Each instance is behind its management port (docs/management.md), as the one-port job's. Checked end to
 * end, with a summary per port and of the failover and some of A's registers read over the bus; both directions'
 * frames go to {@code <dir>/two_xpu.pcap}.
 */
final class PortsJob {
    /** How long port 1's link stays down: longer than LLR's PCS-lost timeout, so the port goes down and comes back. */
    static final int OUTAGE_CYCLES = 5000;
    private static final int DELAY = 200;

    private PortsJob() {
    }

    static void run(SueInstance.Config config, Path dir, int commandsEachWay) {
        Path pcap = dir.resolve("two_xpu.pcap");
        System.out.printf("%ntwo XPUs, SUE instance (%s), a link per port, delay %d cycles, frame loss 1e-3:"
                + " %d random commands each way; port 1 down for %,d cycles halfway%n", TwoXpuRun.describe(config),
                DELAY, commandsEachWay, OUTAGE_CYCLES);
        long t0 = System.nanoTime();
        // each instance behind its management port: set up by software, port 1's status read over the bus
        TwoXpuRun run = TwoXpuRun.managed(config, DELAY, LinkModel.Faults.loss(1e-3), 2026, pcap);
        XpuSide a = run.side("A");
        XpuSide b = run.side("B");
        long t1 = System.nanoTime();
        long start = run.now();
        run.add(commandsEachWay, commandsEachWay, TwoXpuRun.RANDOM);
        while (b.rx().delivered().size() < commandsEachWay / 2) {
            run.idle(DELAY);
        }
        long down = run.now();
        a.linkUp(1, false);
        b.linkUp(1, false);
        long movesBefore = a.counter("route_moves");
        long moved = -1; // cycles from the link's failure to A's route for port 1 moving
        for (int c = 0; c < OUTAGE_CYCLES; c += 10) {
            run.idle(10);
            if (moved < 0 && a.counter("route_moves") > movesBefore) {
                moved = run.now() - down;
            }
        }
        long detoured = a.counter("route_detoured_pdus") + b.counter("route_detoured_pdus");
        a.linkUp(1, true);
        b.linkUp(1, true);
        long up = run.now();
        TwoXpuRun.Result r;
        try (Progress progress = Progress.open()) {
            r = run.run(0, 0, 400_000, cycles -> progress.show(String.format("  %,d cycles simulated",
                    run.now() - start)));
        }
        long cycles = run.now() - start;
        double secs = (System.nanoTime() - t1) / 1e9;
        System.out.printf("  %,d cycles in %.1f s (%,.0f cycles/s per instance; %.1f s to build both); port 1 down"
                + " from cycle %,d to %,d%n", cycles, secs, cycles / secs, (t1 - t0) / 1e9, down - start, up - start);
        System.out.println("  direction  commands  delivered  goodput B/cycle  latency p50/p99/max");
        for (boolean ab : new boolean[] {true, false}) {
            TwoXpuRun.Direction d = ab ? r.aToB() : r.bToA();
            System.out.printf("  %-9s %9d %10d %16.2f  %d/%d/%d%n", ab ? "A -> B" : "B -> A", d.commands(),
                    d.delivered(), (double) d.bytes() / cycles, d.latency(0.5), d.latency(0.99), d.latency(1.0));
        }
        System.out.println("  port  frames A->B  B->A  lost  LLR replays  went down  came up (A; B)");
        for (int p = 0; p < config.ports(); p++) {
            String px = config.portPrefix(p);
            System.out.printf("  %4d %12d %5d %5d %12d %10s %8s%n", p, a.toPeer(p).sent(), b.toPeer(p).sent(),
                    a.toPeer(p).lost() + b.toPeer(p).lost(),
                    a.counter(px + "llr_tx_replay") + b.counter(px + "llr_tx_replay"),
                    a.counter(px + "port_went_down") + "; " + b.counter(px + "port_went_down"),
                    a.counter(px + "port_came_up") + "; " + b.counter(px + "port_came_up"));
        }
        System.out.printf("  failover: port 1's connections moved to port %d %s cycles after its link failed (LLR's"
                + " PCS-lost timeout %d); %d PDUs (both sides) went on another port than their connection's while it"
                + " was down, %d in all; routes moved %d; %d times (A; B)%n", 2 % config.ports(),
                moved < 0 ? "never within " + OUTAGE_CYCLES : String.valueOf(moved),
                config.llr() == null ? 0 : config.llr().pcsLostTimeoutCycles(), detoured,
                a.counter("route_detoured_pdus") + b.counter("route_detoured_pdus"), a.counter("route_moves"),
                b.counter("route_moves"));
        System.out.printf("  delivered once, unchanged, %s: %s; credits all back: %s; retransmit stores empty:"
                + " %s; receiver counters agree with the links: %s%n", config.unordered()
                        ? "in any order (unordered mode)" : "in order", TwoXpuJob.yes(r.intact()),
                TwoXpuJob.yes(r.creditsBack()), TwoXpuJob.yes(r.storesEmpty()),
                r.countersMismatch() == null ? "yes" : r.countersMismatch());
        if (!r.ok()) {
            throw new IllegalStateException("the two-XPU run lost, duplicated, reordered or changed commands");
        }
        Map<String, Long> bus = run.readStatus("A");
        System.out.printf("  A's registers read over its management port: port1.port_went_down %d, port1.llr_tx_replay"
                + " %d, cmd.route_moves %d, tp_tx.hurried_go_backs %d%n", bus.get("p1_port_went_down"),
                bus.get("p1_llr_tx_replay"), bus.get("route_moves"), bus.get("tp_tx_hurried_go_backs"));
        System.out.println("  frames of both directions: " + pcap);
    }
}
