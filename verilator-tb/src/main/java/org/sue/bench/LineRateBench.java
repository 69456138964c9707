package org.sue.bench;

import java.util.function.BiConsumer;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LineRate;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.MultiXpuRun;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.net.HeaderFormat;

/**
 * Line rate end to end for {@code scripts/bench line_rate}: two default instances of each XPU width (each from its
 * own defaults: the port as wide as the XPU interface, LLR and CBFC on), XPU A sending saturating commands of one
 * size to XPU B, B's XPU returning every credit at once, links of {@value #DELAY} cycles each way.
 *
 * <ul>
 * <li>{@code line_rate_<xpuWidth>_<bytes>_1}: command bytes (control and data) B's XPU received per cycle, relative
 * to the port's capacity for that command size ({@link LineRate#capacity}: whole commands packed up to the PDU limit,
 * every header, R-CRC and FCS, frames back to back in whole beats); one destination, VC 0.
 * {@code line_rate_<xpuWidth>_<bytes>_1_4vc}: the same on the four VCs in turn.
 * <li>{@code line_rate_xpu_bound_<xpuWidth>_<bytes>}: the most the XPU interface can offer
 * ({@link LineRate#xpuOffer}), relative to the same capacity, at most 1.
 * <li>{@code line_rate_capacity_<xpuWidth>_<bytes>}: the capacity itself, command bytes per cycle.
 * <li>{@code line_rate_<xpuWidth>_<bytes>_64}, {@code line_rate_256_256_4}: several destinations
 * ({@link #severalDestinations}).
 * <li>{@code line_rate_loss_1e-3_<xpuWidth>_256}: 256-byte commands with the link losing 1e-3 of the frames (LLR
 * replays them), relative to the same capacity.
 * </ul>
 */
final class LineRateBench {
    private LineRateBench() {
    }

    static final int DELAY = 50;
    static final int COMMANDS = 4000;
    /** With loss: enough frames (about 4,500) for a few losses at 1e-3. */
    static final int LOSSY_COMMANDS = 30_000;
    static final int[] WIDTHS = {256, 512, 1024};
    static final int[] SIZES = {64, 128, 256};

    static void measure(BiConsumer<String, Double> put) {
        for (int width : WIDTHS) {
            SueInstance.Config config = SueInstance.Config.builder().path(p -> p.dataWidth(width)).build();
            for (int bytes : SIZES) {
                double capacity = LineRate.capacity(config, bytes);
                double xpuBound = Math.min(1, LineRate.xpuOffer(config, bytes) / capacity);
                put.accept("line_rate_capacity_" + width + "_" + bytes, Bench.round(capacity, 1));
                put.accept("line_rate_xpu_bound_" + width + "_" + bytes, Bench.round(xpuBound, 3));
                for (int vcs : new int[] {1, 4}) {
                    long t0 = System.nanoTime();
                    LineRate.Result r = LineRate.measure(config, bytes, vcs, DELAY, LinkModel.Faults.NONE, COMMANDS, 1);
                    put.accept("line_rate_" + width + "_" + bytes + "_1" + (vcs == 1 ? "" : "_4vc"),
                            Bench.round(r.ratio(), 3));
                    System.out.printf("line rate: %4d-bit XPU, %3d-byte commands, %d VC%s: %.1f of %.1f command"
                            + " bytes/cycle, %.3f (the XPU interface allows %.3f) (%.0f s)%n", width, bytes, vcs,
                            vcs == 1 ? " " : "s", r.bytesPerCycle(), capacity, r.ratio(), xpuBound,
                            (System.nanoTime() - t0) / 1e9);
                }
            }
            long t0 = System.nanoTime();
            LineRate.Result lossy = LineRate.measure(config, 256, 1, DELAY, LinkModel.Faults.loss(1e-3),
                    LOSSY_COMMANDS, 5);
            put.accept("line_rate_loss_1e-3_" + width + "_256", Bench.round(lossy.ratio(), 3));
            System.out.printf("line rate: %4d-bit XPU, 256-byte commands, loss 1e-3 with LLR: %.3f, %d frames lost on"
                    + " the link, %d PDUs retransmitted end to end (%.0f s)%n", width, lossy.ratio(),
                    lossy.run().aToB().framesLost(), lossy.run().aToB().retransmitted(),
                    (System.nanoTime() - t0) / 1e9);
        }
        severalDestinations(put);
    }

    /**
     * Several destinations through a switch, links of 2 cycles: one XPU of a small instance for 128 XPU ids
     * ({@link SmallInstance#narrowPort}: the port as wide as the XPU interface, PDUs up to 1 KiB, with the default
     * 256 KiB retransmit store; no LLR or link flow control, which the switch model does not have) sends saturating
     * commands on the four VCs, round robin over the destinations: the command bytes all destinations received per
     * cycle relative to the port's capacity.
     * {@code line_rate_<xpuWidth>_<bytes>_64}: 64 destinations, every width and size; {@code line_rate_256_256_4}:
     * four.
     */
    static void severalDestinations(BiConsumer<String, Double> put) {
        destinations(put, 256, 256, 4);
        for (int width : WIDTHS) {
            for (int bytes : SIZES) {
                destinations(put, width, bytes, 64);
            }
        }
    }

    private static void destinations(BiConsumer<String, Double> put, int width, int bytes, int dests) {
        long t0 = System.nanoTime();
        // the default retransmit store: a destination's ACK waits up to ackDelay when few PDUs go to it, and the
        // small instance's 16 KiB is below what a wide port sends meanwhile
        SueInstance.Config small = SmallInstance.narrowPort(HeaderFormat.ETH_IPV4_UDP, 128, width);
        SueInstance.Config config = small.withTransport(small.transport().toBuilder().storeBytes(262_144).build());
        MultiXpuRun run = new MultiXpuRun(config, dests + 1, 2, LinkModel.Faults.NONE, 0, 4).txValidPercent(100)
                .rxReturnPercent(100);
        int[] to = new int[dests];
        for (int i = 0; i < dests; i++) {
            to[i] = i + 2;
        }
        run.addRoundRobin(1, to, COMMANDS / dests, TwoXpuRun.fixed(bytes, 4));
        MultiXpuRun.Result r = run.run(30_000, null);
        if (!r.ok()) {
            throw new IllegalStateException("line rate to " + dests + " destinations: " + r.summary());
        }
        double capacity = LineRate.capacity(config, bytes);
        double ratio = run.sourceBytesPerCycle(1) / capacity;
        put.accept("line_rate_" + width + "_" + bytes + "_" + dests, Bench.round(ratio, 3));
        System.out.printf("line rate: %4d-bit XPU, %3d-byte commands to %d destinations: %.1f of %.1f command"
                + " bytes/cycle, %.3f (%.0f s)%n", width, bytes, dests, run.sourceBytesPerCycle(1), capacity, ratio,
                (System.nanoTime() - t0) / 1e9);
    }
}
