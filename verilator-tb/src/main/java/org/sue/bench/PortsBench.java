package org.sue.bench;

import java.nio.file.Path;
import java.util.function.BiConsumer;
import java.util.stream.IntStream;
import org.sue.core.Design;
import org.sue.gen.DefaultDesigns;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LineRate;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.MultiXpuRun;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.net.HeaderFormat;

/**
 * Instances of 1, 2 and 4 ports on the same transport for {@code scripts/bench ports}: instances of the small
 * multi-port configuration ({@link SmallInstance#multiPort}) with 1024-bit XPU data on a 1024-bit transport, XPU A
 * sending saturating 256-byte commands, links of {@value #DELAY} cycles.
 *
 * <ul>
 * <li>{@code ports_goodput_<P>}: with {@value #DESTINATIONS} destinations behind a switch per port
 * ({@link #switched}), the command bytes per cycle all of them received with P ports, relative to one port of the
 * transport's full width; {@code ports_bytes_per_cycle_<P>} the same in command bytes per cycle.
 * <li>{@code strict_vs_unordered_goodput_<P>_<D>}: behind the switches, the goodput of unordered mode over strict
 * mode's when A sends to D destinations (4 or {@value #DESTINATIONS}) on one VC, so that strict mode pins each
 * destination to one port (docs/protocol.md 10.2, 10.7).
 * <li>{@code ports_pair_goodput_<P>}, {@code ports_pair_bytes_per_cycle_<P>}: the same for one destination over a
 * direct link per port (LLR and CBFC on every port), A sending on the four VCs in turn (strict mode spreads them
 * over the ports).
 * <li>{@code strict_vs_unordered_goodput_<P>}: the pair's, A sending on one VC only, so that strict mode pins all of
 * it to one port.
 * <li>{@code ports_<P>_cells}, {@code _ffs}, {@code _mem_bits}: Yosys figures of the instance of
 * configs/two_port.json and configs/four_port.json ({@code DefaultDesigns.portsInstance}) and of the same instance
 * with one port of 1024 bits.
 * <li>{@code sue_p<P>_*}: the JVM simulator's speed on those instances next to Verilator's ({@link SimSpeedBench}).
 * </ul>
 */
final class PortsBench {
    private PortsBench() {
    }

    static final int DELAY = 50;
    static final int COMMANDS = 4000;
    static final int BYTES = 256;
    static final int WIDTH = 1024;
    static final int DESTINATIONS = 64;

    /** Every figure of the section; {@code scripts/bench ports_switch} runs {@link #switched} alone. */
    static void measure(BiConsumer<String, Double> put, Path out) {
        switched(put);
        pair(put);
        for (int ports : new int[] {2, 4}) {
            SimSpeedBench.measure(SueBench.portsSpeedCase(ports), out, put, true);
        }
        for (int ports : new int[] {1, 2, 4}) {
            int p = ports;
            FramingBench.synthFigures("ports_" + ports, Design.elaborate(new SueInstance(
                    DefaultDesigns.portsInstance(p))), out, put);
        }
    }

    /**
     * Many destinations behind a switch per port ({@link MultiXpuRun}): the ports' aggregate against one port of the
     * full width, and unordered mode against strict mode's pinning.
     */
    static void switched(BiConsumer<String, Double> put) {
        double one = behindSwitches(1, DESTINATIONS, SueInstance.Config.Ordering.STRICT);
        put.accept("ports_bytes_per_cycle_1", Bench.round(one, 2));
        put.accept("ports_goodput_1", 1.0);
        for (int ports : new int[] {2, 4}) {
            for (int dests : new int[] {4, DESTINATIONS}) {
                double pinned = behindSwitches(ports, dests, SueInstance.Config.Ordering.STRICT);
                double spread = behindSwitches(ports, dests, SueInstance.Config.Ordering.UNORDERED);
                if (dests == DESTINATIONS) {
                    put.accept("ports_bytes_per_cycle_" + ports, Bench.round(pinned, 2));
                    put.accept("ports_goodput_" + ports, Bench.round(pinned / one, 3));
                }
                put.accept("strict_vs_unordered_goodput_" + ports + "_" + dests, Bench.round(spread / pinned, 3));
            }
        }
    }

    /**
     * XPU 1 sending saturating {@value #BYTES}-byte commands on VC 0, round robin to XPUs 2 .. {@code dests} + 1, every
     * XPU's port p on the switch of plane p (fabric delay 0, links of {@value #DELAY} cycles): the command bytes per
     * cycle all destinations received, from the first delivery to the last. One VC, 64 queues: with the four VCs
     * (256 queues, smaller PDUs) the ports are not yet at one full-width port's goodput (docs/performance.md).
     */
    static double behindSwitches(int ports, int dests, SueInstance.Config.Ordering ordering) {
        long t0 = System.nanoTime();
        SueInstance.Config config = switchedInstance(ports).withOrdering(ordering);
        MultiXpuRun run = new MultiXpuRun(config, dests + 1, DELAY, LinkModel.Faults.NONE, 0, 8).txValidPercent(100)
                .rxReturnPercent(100);
        run.addRoundRobin(1, IntStream.rangeClosed(2, dests + 1).toArray(), COMMANDS / dests,
                TwoXpuRun.fixed(BYTES, 1));
        MultiXpuRun.Result r = run.run(30_000, null);
        if (!r.ok()) {
            throw new IllegalStateException("ports: " + ports + " ports to " + dests + " destinations: "
                    + r.summary());
        }
        double bytes = run.sourceBytesPerCycle(1);
        System.out.printf("ports: %d x %d-bit ports behind a switch each, %s, %d-byte commands to %d destinations:"
                + " %.1f command bytes/cycle (%.0f s)%n", ports, WIDTH / ports, ordering, BYTES, dests, bytes,
                (System.nanoTime() - t0) / 1e9);
        return bytes;
    }

    /**
     * The instance of {@code ports} ports for {@value #DESTINATIONS} destinations behind switches: 128 XPU ids, no
     * CBFC (the switch model has no link flow control), and 256 KiB of retransmit store shared by the ports (each
     * destination's ACK waits up to the ACK delay when few PDUs go to it, and the pair's 64 KiB a port is below what
     * a 1024-bit port sends meanwhile).
     */
    static SueInstance.Config switchedInstance(int ports) {
        SueInstance.Config c = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, WIDTH, WIDTH, 128, DELAY);
        return c.withTransport(c.transport().toBuilder().storeBytes(262_144 / ports).build()).withCbfc(null)
                .withRxVcFifoDepth(0);
    }

    /** One destination over a direct link per port. */
    static void pair(BiConsumer<String, Double> put) {
        double one = 0;
        for (int ports : new int[] {1, 2, 4}) {
            long t0 = System.nanoTime();
            // the XPU as wide as the transport, so that it can fill it
            SueInstance.Config config = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, WIDTH, WIDTH,
                    DELAY);
            LineRate.Result r = LineRate.measure(config, BYTES, 4, DELAY, LinkModel.Faults.NONE, COMMANDS, 1);
            double bytes = r.bytesPerCycle();
            one = ports == 1 ? bytes : one;
            put.accept("ports_pair_bytes_per_cycle_" + ports, Bench.round(bytes, 2));
            put.accept("ports_pair_goodput_" + ports, Bench.round(bytes / one, 3));
            System.out.printf("ports: %d x %d-bit ports on a %d-bit transport, %d-byte commands on 4 VCs: %.1f"
                    + " command bytes/cycle, %.3f of one %d-bit port (%.0f s)%n", ports, WIDTH / ports, WIDTH, BYTES,
                    bytes, bytes / one, WIDTH, (System.nanoTime() - t0) / 1e9);
        }
        for (int ports : new int[] {2, 4}) {
            long t0 = System.nanoTime();
            SueInstance.Config strict = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, WIDTH, WIDTH, DELAY);
            double pinned = LineRate.measure(strict, BYTES, 1, DELAY, LinkModel.Faults.NONE, COMMANDS, 1)
                    .bytesPerCycle();
            double spread = LineRate.measure(strict.withOrdering(SueInstance.Config.Ordering.UNORDERED), BYTES, 1,
                    DELAY, LinkModel.Faults.NONE, COMMANDS, 1).bytesPerCycle();
            put.accept("strict_vs_unordered_goodput_" + ports, Bench.round(spread / pinned, 3));
            System.out.printf("ports: %d ports, %d-byte commands on one VC: strict %.1f, unordered %.1f command"
                    + " bytes/cycle (%.2f x) (%.0f s)%n", ports, BYTES, pinned, spread, spread / pinned,
                    (System.nanoTime() - t0) / 1e9);
        }
    }
}
