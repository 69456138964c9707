package org.sue.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.function.BiConsumer;
import org.sue.cmd.CommandPath;
import org.sue.cmd.CommandTable;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.model.XpuCredits;
import org.sue.cmd.tb.CommandSender;
import org.sue.cmd.tb.Eligibility;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.net.FrameFormat;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.SueMeta;
import org.sue.net.model.FrameCodec;
import org.sue.sim.Simulator;

/**
 * Command path figures for {@code scripts/bench}, default configuration ({@link CommandPath.Config#defaults}):
 *
 * <ul>
 * <li>{@code pack_eff_<size>_<dests>}: command bytes / bytes on the wire (Ethernet/IPv4/UDP frame with RH, padding,
 * R-CRC and FCS, plus 20 bytes of preamble and inter-frame gap) for a saturating stream of {@code size}-byte packed
 * commands on one VC, round robin over {@code dests} destinations. The link takes one PDU beat in
 * {@value #LINK_EVERY} cycles, slower than the XPU offers, so the buffer fills. Measured: {@value #PDUS} PDUs in
 * the steady state, after the buffer first filled (the XPU waited for credits) and two more rounds of the
 * destinations.
 * <li>{@code pack_opt_<size>_<dests>}: the same ratio for PDUs filled to the limit with whole commands (the analytic
 * optimum of that traffic, whatever the buffer); {@code pack_eff_small_*} and {@code pack_eff_large_*}: the same
 * traffic with a quarter (1024 cells) and four times (16384 cells) the default buffer, same credits, which shows how
 * packing depends on the commands a queue can hold when its turn comes.
 * <li>{@code cmdpath_drain_bytes_per_cycle_<size>_<dests>}: PDU bytes per cycle while a full buffer drains into a
 * link that takes a beat every cycle (the bus carries 2N / 8 = 128 bytes).
 * <li>{@code cmd_latency_cycles}: a single command into the idle path, from its tx beat to the first PDU beat.
 * <li>{@code cmd_credit_loop_cycles}: the same command's tx beat to its credit on {@code tx_credit} (the loop the
 * XPU's credits must cover, inside SUE).
 * <li>{@code cmdpath_cells}, {@code _ffs}, {@code _mem_bits}: Yosys on the default configuration.
 * </ul>
 */
final class CommandPathBench {
    private CommandPathBench() {
    }

    static final int[] SIZES = {16, 64, 256};
    static final int[] DESTS = {1, 8, 64};
    static final int LINK_EVERY = 16;
    static final int PDUS = 100;
    /** Interface overhead per frame on the wire: preamble and start delimiter 8, inter-frame gap 12. */
    static final int PREAMBLE_IFG = 20;
    /** type 1: 12 control bytes, no data (a 16-byte command); type 2: 12 control bytes and data. */
    static final CommandTable TABLE = new CommandTable().define(1, 6, false).define(2, 6, true);

    static void measure(BiConsumer<String, Double> put, Path out) {
        CommandPath.Config config = CommandPath.Config.defaults(TABLE);
        NetConfig net = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP);
        packingFigures(config, net, "", put);
        // the same traffic with a quarter and with four times the buffer (same credits): how the buffer limits packing
        packingFigures(config.withCells(1024), net, "small_", put);
        packingFigures(config.withCells(16384), net, "large_", put);
        for (int size : SIZES) {
            for (int dests : new int[] {1, 64}) {
                double bytes = drain(config, size, dests);
                put.accept("cmdpath_drain_bytes_per_cycle_" + size + "_" + dests, Bench.round(bytes, 4));
                System.out.printf("draining a full buffer of %3d-byte commands to %2d destinations: %.1f bytes/cycle"
                        + " of %d%n", size, dests, bytes, 2 * config.dataWidth() / 8);
            }
        }
        long[] lone = loneCommand(config);
        put.accept("cmd_latency_cycles", (double) lone[0]);
        put.accept("cmd_credit_loop_cycles", (double) lone[1]);
        SimSpeedBench.measure(speedCase(), out, put, true);
        FramingBench.synthFigures("cmdpath", Design.elaborate(new CommandPath(config)), out, put);
    }

    static void packingFigures(CommandPath.Config config, NetConfig net, String tag, BiConsumer<String, Double> put) {
        for (int size : SIZES) {
            for (int dests : DESTS) {
                double eff = packing(config, net, size, dests);
                double opt = efficiency(net, config.pduLimit() / size * size);
                put.accept("pack_eff_" + tag + size + "_" + dests, Bench.round(eff, 4));
                if (tag.isEmpty()) {
                    put.accept("pack_opt_" + size + "_" + dests, Bench.round(opt, 4));
                }
                System.out.printf("packing %s%3d-byte commands over %2d destinations: %.4f (optimum %.4f, %.1f%%"
                        + " below)%n", tag, size, dests, eff, opt, 100 * (1 - eff / opt));
            }
        }
    }

    /** {@code scripts/bench} runs this as part of {@link Bench}; alone: the command path figures only. */
    public static void main(String[] args) throws java.io.IOException {
        Path out = Path.of("build", "bench");
        java.nio.file.Files.createDirectories(out);
        measure((k, v) -> System.out.println(k + " = " + v), out);
    }

    /** Command bytes per wire byte of one PDU carrying {@code commandBytes}. */
    static double efficiency(NetConfig net, int commandBytes) {
        return commandBytes / (double) (FrameFormat.frameBytes(net, commandBytes) + PREAMBLE_IFG);
    }

    /** A {@code size}-byte packed command: type 1 for 16 bytes, else type 2 with size - 16 data bytes. */
    static CommandCodec.Command command(Random rnd, int size) {
        byte[] control = new byte[12];
        rnd.nextBytes(control);
        byte[] data = new byte[size - 16];
        rnd.nextBytes(data);
        return new CommandCodec.Command(size == 16 ? 1 : 2, control, data);
    }

    /**
     * One cycle of a saturating XPU: keeps four {@code size}-byte commands queued, to the destinations in turn on VC
     * 0, and drives the next beat.
     */
    static void offer(CommandSender xpu, Random rnd, int size, int dests) {
        while (xpu.queued() < 4) {
            xpu.add((int) ((xpu.sent() + xpu.queued()) % dests), 0, command(rnd, size));
        }
        xpu.drive(rnd, 100);
    }

    static Simulator start(CommandPath.Config config) {
        Simulator sim = Simulator.compile(Design.elaborate(new CommandPath(config)));
        sim.reset();
        Eligibility.open(sim, config.destinations());
        return sim;
    }

    static double packing(CommandPath.Config config, NetConfig net, int size, int dests) {
        Random rnd = new Random(size * 100L + dests);
        Simulator sim = start(config);
        CommandSender xpu = new CommandSender(sim, config.dataWidth(), config.cmdCredits(), config.dataCredits());
        StreamMonitor pdus = new StreamMonitor(sim, "m_axis", null);
        int warmup = -1; // PDUs out when the buffer first filled, plus two rounds of the destinations
        while (warmup < 0 || pdus.packets().size() < warmup + PDUS) {
            offer(xpu, rnd, size, dests);
            sim.poke("m_axis_tready", sim.cycle() % LINK_EVERY == 0 ? 1 : 0);
            sim.step();
            if (warmup < 0 && xpu.creditStalls() > 0) {
                warmup = pdus.packets().size() + 2 * dests;
            }
            if (sim.cycle() > 5_000_000) {
                throw new IllegalStateException("command path bench: only " + pdus.packets().size() + " PDUs");
            }
        }
        long payload = 0;
        long wire = 0;
        List<StreamMonitor.Packet> p = pdus.packets();
        for (StreamMonitor.Packet pdu : p.subList(warmup, warmup + PDUS)) {
            int len = SueMeta.unpack(pdu.user()).len();
            if (len != pdu.bytes().length) {
                throw new IllegalStateException("PDU length " + len + " in tuser, " + pdu.bytes().length + " on the bus");
            }
            payload += len;
            wire += FrameFormat.frameBytes(net, len) + PREAMBLE_IFG;
        }
        return payload / (double) wire;
    }

    /**
     * The default command path for the simulator speed figures: 20,000 cycles of 64-byte commands over 8
     * destinations with the slow link.
     */
    static SimSpeedBench.Case speedCase() {
        CommandPath.Config config = CommandPath.Config.defaults(TABLE);
        return new SimSpeedBench.Case("cmdpath", "command path", () -> Design.elaborate(new CommandPath(config)),
                (design, manifest) -> {
                    Random rnd = new Random(64);
                    try (Simulator sim = Simulator.compile(design)) {
                        sim.record(manifest);
                        sim.reset();
                        Eligibility.open(sim, config.destinations());
                        CommandSender xpu = new CommandSender(sim, config.dataWidth(), config.cmdCredits(),
                                config.dataCredits());
                        for (int c = 0; c < 20_000; c++) {
                            offer(xpu, rnd, 64, 8);
                            sim.poke("m_axis_tready", c % LINK_EVERY == 0 ? 1 : 0);
                            sim.step();
                        }
                    }
                });
    }

    /**
     * PDU bytes per cycle on m_axis while a full buffer drains into a link that takes every beat: the buffer filled
     * with {@code size}-byte commands round robin over {@code dests} destinations while the link was closed, then the
     * XPU stops and the link opens; 3000 cycles from the first PDU beat.
     */
    static double drain(CommandPath.Config config, int size, int dests) {
        Random rnd = new Random(size * 7L + dests);
        Simulator sim = start(config);
        CommandSender xpu = new CommandSender(sim, config.dataWidth(), config.cmdCredits(), config.dataCredits());
        sim.poke("m_axis_tready", 0);
        while (xpu.creditStalls() < 100) {
            offer(xpu, rnd, size, dests);
            sim.step();
        }
        sim.poke("tx_valid", 0);
        sim.poke("m_axis_tready", 1);
        sim.runUntil(() -> sim.peek("m_axis_tvalid") == 1, 1000); // the first PDU ready
        long bytes = 0;
        for (int c = 0; c < 3000; c++) {
            if (sim.peek("m_axis_tvalid") == 1) {
                bytes += sim.peekBig("m_axis_tkeep").bitCount();
            }
            sim.step();
        }
        return bytes / 3000.0;
    }

    /** Cycles from a lone command's tx beat to the first beat of its PDU on m_axis. */
    /** A single command into the idle path: {its tx beat to the first PDU beat, its tx beat to its credit back}. */
    static long[] loneCommand(CommandPath.Config config) {
        Simulator sim = start(config);
        sim.poke("m_axis_tready", 1);
        CommandSender xpu = new CommandSender(sim, config.dataWidth(), config.cmdCredits(), config.dataCredits());
        StreamMonitor pdus = new StreamMonitor(sim, "m_axis", null);
        sim.runUntil(() -> sim.peek("tx_reset_out") == 0, 10_000); // the buffer clears its queue table
        sim.step(20); // idle
        long sent = sim.cycle();
        xpu.add(3, 0, command(new Random(1), 16));
        long creditBack = -1;
        while (pdus.firstBeatCycle() < 0 || creditBack < 0) {
            if (creditBack < 0 && xpu.firstBeatCycle() >= 0 && XpuCredits.cmdVc(sim.peek("tx_credit")) >= 0) {
                creditBack = sim.cycle();
            }
            xpu.drive(null, 100);
            sim.step();
            if (sim.cycle() > sent + 1000) {
                throw new IllegalStateException("command path bench: the lone command or its credit never came out");
            }
        }
        return new long[] {pdus.firstBeatCycle() - xpu.firstBeatCycle(), creditBack - xpu.firstBeatCycle()};
    }
}
