package org.sue.bench;

import java.nio.file.Path;
import java.util.function.BiConsumer;
import org.sue.core.Design;
import org.sue.gen.DefaultDesigns;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LineRate;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.net.HeaderFormat;

/**
 * Instances of 1, 2 and 4 ports on the same transport for {@code scripts/bench ports}: two instances of the small
 * multi-port configuration ({@link SmallInstance#multiPort}: LLR and CBFC on every port) with 1024-bit XPU data on a
 * 1024-bit transport, XPU A sending saturating 256-byte commands to XPU B on the four VCs in turn (strict mode
 * spreads them over the ports), links of {@value #DELAY} cycles.
 *
 * <ul>
 * <li>{@code ports_goodput_<P>}: command bytes per cycle B's XPU received with P ports, relative to one port of the
 * transport's full width.
 * <li>{@code ports_bytes_per_cycle_<P>}: the same in command bytes per cycle.
 * <li>{@code strict_vs_unordered_goodput_<P>}: the goodput of unordered mode over strict mode's when A sends on one VC
 * only, so that strict mode pins all of it to one port (docs/protocol.md 10.2, 10.7).
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

    static void measure(BiConsumer<String, Double> put, Path out) {
        double one = 0;
        for (int ports : new int[] {1, 2, 4}) {
            long t0 = System.nanoTime();
            // the XPU as wide as the transport, so that it can fill it
            SueInstance.Config config = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, WIDTH, WIDTH,
                    DELAY);
            LineRate.Result r = LineRate.measure(config, BYTES, 4, DELAY, LinkModel.Faults.NONE, COMMANDS, 1);
            double bytes = r.bytesPerCycle();
            one = ports == 1 ? bytes : one;
            put.accept("ports_bytes_per_cycle_" + ports, Bench.round(bytes, 2));
            put.accept("ports_goodput_" + ports, Bench.round(bytes / one, 3));
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
        for (int ports : new int[] {2, 4}) {
            SimSpeedBench.measure(SueBench.portsSpeedCase(ports), out, put, true);
        }
        for (int ports : new int[] {1, 2, 4}) {
            int p = ports;
            FramingBench.synthFigures("ports_" + ports, Design.elaborate(new SueInstance(
                    DefaultDesigns.portsInstance(p))), out, put);
        }
    }
}
