package org.sue.gen;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.RawFrames;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.mgmt.RawTxBuffer;
import org.sue.net.SueMeta;

/**
 * The main job's simulation: two SUE instances of the default configuration back to back over a link that loses one
 * frame in a thousand, commands both ways, checked end to end, with a one-screen summary; both directions' frames go
 * to {@code <dir>/two_xpu.pcap}.
 */
public final class TwoXpuJob {
    private TwoXpuJob() {
    }

    /** Software at A sends an ARP request as a raw frame; software at B reads it from its receive buffer. */
    private static void rawFrame(TwoXpuRun run) {
        byte[] arp = RawFrames.arpRequest(0x02_00_00_00_00_01L, 0x0A00_0001L, 0x0A00_0002L); // A's MAC, A and B's IP
        run.sendRaw("A", arp);
        run.idle(500); // the link's delay and the frame's time
        byte[] got = run.receiveRaw("B");
        if (got == null || !Arrays.equals(got, Arrays.copyOf(arp, RawTxBuffer.PADDED_BYTES))) {
            throw new IllegalStateException("the raw ARP request A -> B did not arrive whole: "
                    + (got == null ? "nothing" : got.length + " bytes"));
        }
        System.out.printf("  raw frame A -> B through the management ports: an ARP request (%d bytes, padded to %d)"
                + " arrived in B's receive buffer byte for byte%n", arp.length, got.length);
    }

    public static void run(SueInstance.Config config, Path dir, int commandsEachWay) {
        if (config.ports() > 1) { // a port fails and comes back halfway
            PortsJob.run(config, dir, commandsEachWay);
            return;
        }
        Path pcap = dir.resolve("two_xpu.pcap");
        System.out.printf("%ntwo XPUs, SUE instance (%s), link delay 200 cycles, frame loss 1e-3:"
                + " %d random commands each way%n", TwoXpuRun.describe(config), commandsEachWay);
        long t0 = System.nanoTime();
        // each instance behind its management port: set up by software, its counters read over the bus
        TwoXpuRun run = TwoXpuRun.managed(config, 200, LinkModel.Faults.loss(1e-3), 2026, pcap);
        long t1 = System.nanoTime();
        TwoXpuRun.Result r;
        try (Progress progress = Progress.open()) {
            r = run.run(commandsEachWay, commandsEachWay, 200_000, cycles -> progress.show(String.format(
                    "  %,d cycles simulated, %,.0f cycles/s", cycles, cycles / ((System.nanoTime() - t1) / 1e9))));
        }
        double secs = (System.nanoTime() - t1) / 1e9;
        System.out.printf("  %,d cycles in %.1f s (%,.0f cycles/s per instance; %.1f s to build both)%n", r.cycles(),
                secs, r.cycles() / secs, (t1 - t0) / 1e9);
        Map<String, Long> a = run.readStatus("A");
        Map<String, Long> b = run.readStatus("B");
        System.out.println("  counters read through each instance's management port (docs/registers.md)");
        System.out.println("  direction  commands  delivered  frames  lost  retransmitted  NACKs  timeouts  ACK-only"
                + "  goodput B/cycle  latency p50/p99/max");
        line("A -> B", r.aToB(), r.cycles(), a::get, b::get);
        line("B -> A", r.bToA(), r.cycles(), b::get, a::get);
        linkLayer(config, a::get, b::get);
        System.out.printf("  delivered once, unchanged, in order: %s; credits all back: %s; retransmit stores empty:"
                + " %s; receiver counters agree with the link: %s%n", yes(r.intact()), yes(r.creditsBack()),
                yes(r.storesEmpty()), r.countersMismatch() == null ? "yes" : r.countersMismatch());
        if (!r.ok()) {
            throw new IllegalStateException("the two-XPU run lost, duplicated, reordered or changed commands");
        }
        rawFrame(run);
        System.out.println("  frames of both directions: " + pcap);
    }

    /** A direction's line: what the testbench counted, and the sender's and receiver's transport counters. */
    private static void line(String name, TwoXpuRun.Direction d, long cycles, Function<String, Long> tx,
                             Function<String, Long> rx) {
        System.out.printf("  %-9s %9d %10d %7d %5d %14d %6d %9d %9d %16.2f  %d/%d/%d%n", name, d.commands(),
                d.delivered(), d.frames(), d.framesLost(), tx.apply("tp_tx_retransmitted_pdus"),
                rx.apply("tp_rx_nacks_sent"), tx.apply("tp_tx_timeouts"), rx.apply("tp_tx_ack_only_sent"),
                (double) d.bytes() / cycles, d.latency(0.5), d.latency(0.99), d.latency(1.0));
    }

    /**
     * The link layer's counters of each direction (and port, with more than one): LLR at the sender and the receiver,
     * CBFC or PFC; {@code peekA} and {@code peekB} read instance A's and B's outputs.
     */
    static void linkLayer(SueInstance.Config config, Function<String, Long> peekA, Function<String, Long> peekB) {
        if (config.llr() != null) {
            System.out.println("  LLR        frames sent (replays included)  replays  NACKs  repaired  missing"
                    + "  duplicates");
            directions(config, peekA, peekB, (name, tx, rx) -> System.out.printf("  %-9s %31d %8d %6d %9d %8d %11d%n",
                    name, tx.apply("llr_tx_ok"), tx.apply("llr_tx_replay"), rx.apply("llr_tx_nack_ctl_os"),
                    rx.apply("llr_rx_replay"), rx.apply("llr_rx_missing_seq"), rx.apply("llr_rx_duplicate_seq")));
        }
        if (config.cbfc() != null) {
            System.out.println("  CBFC       most credits in use (VC 0..3)  CF_Updates  CC_Updates  credits recovered"
                    + "  overdraws  overflow drops");
            directions(config, peekA, peekB, (name, tx, rx) -> {
                StringBuilder most = new StringBuilder();
                for (int v = 0; v < SueMeta.VCS; v++) {
                    most.append(v == 0 ? "" : "/").append(tx.apply("cbfc_s_cu_watermark_" + v));
                }
                System.out.printf("  %-9s %30s %11d %11d %18d %10d %15d%n", name, most,
                        tx.apply("cbfc_cf_updates_received"), tx.apply("cbfc_cc_updates_sent"),
                        rx.apply("cbfc_cc_credits_recovered"), tx.apply("cbfc_credit_overdraws"),
                        rx.apply("net_drops_overflow"));
            });
        }
        if (config.pfc() != null) {
            System.out.println("  PFC        frames sent  XOFF frames  received  overflow drops");
            directions(config, peekA, peekB, (name, tx, rx) -> System.out.printf("  %-9s %12d %12d %9d %15d%n",
                    name, tx.apply("pfc_frames_sent"), tx.apply("pfc_xoff_frames_sent"),
                    rx.apply("pfc_frames_received"), rx.apply("net_drops_overflow")));
        }
    }

    /** A table row: its name, and the port's counters at the sending and at the receiving side. */
    private interface Row {
        void print(String name, Function<String, Long> tx, Function<String, Long> rx);
    }

    /** A row per direction, and per port with more than one ({@code A -> B p1}: port 1's counters). */
    private static void directions(SueInstance.Config config, Function<String, Long> peekA,
                                   Function<String, Long> peekB, Row row) {
        for (int p = 0; p < config.ports(); p++) {
            String px = config.portPrefix(p);
            String port = config.ports() > 1 ? " p" + p : "";
            row.print("A -> B" + port, n -> peekA.apply(px + n), n -> peekB.apply(px + n));
            row.print("B -> A" + port, n -> peekB.apply(px + n), n -> peekA.apply(px + n));
        }
    }

    static String yes(boolean b) {
        return b ? "yes" : "NO";
    }
}
