package org.sue.bench;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.gen.VerilogEmitter;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.stream.PacketFifo;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamCrcAppend;
import org.sue.lib.stream.StreamPad;
import org.sue.lib.stream.StreamSlice;
import org.sue.lib.stream.model.Beats;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.net.FrameFormat;
import org.sue.net.FrameReceiver;
import org.sue.net.FrameTransmitter;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.NetHeaderInserter;
import org.sue.net.RhInserter;
import org.sue.net.SueMeta;
import org.sue.net.UdpChecksumInserter;
import org.sue.net.model.FrameCodec;
import org.sue.net.tb.LoopbackRun;
import org.sue.sim.Simulator;
import org.sue.verilator.SynthReport;
import org.sue.verilator.Yosys;

/**
 * Framing figures for {@code scripts/bench}, 1024-bit bus, default configuration (Ethernet/IPv4/UDP): efficiency of
 * transmit and receive on back-to-back PDUs of 64, 256, 1500 and 4096 bytes (RH + commands), latency from the first
 * input beat to the first output beat on an idle block, and Yosys cells and flip-flops per block; for the IPv6
 * transmitter, the efficiency and the latency the UDP checksum adds.
 *
 * <p>Efficiency = (sum over packets 2..N of ceil(frame bytes / 128)) / cycles between the last output beats of
 * packet 1 and packet N, so 1.0 means no bubble in steady back-to-back traffic (the first packet after idle carries
 * the pipeline fill, which the latency figures report). For transmit the frame is the output; for receive it is the
 * input, the wider side: a receiver whose deliveries keep pace with frames arriving back to back scores 1.0 (its
 * output, shorter by the headers, cannot be busier than the wire that feeds it).
 */
final class FramingBench {
    private FramingBench() {
    }

    static final int WIDTH = 1024;
    static final int LANES = WIDTH / 8;
    static final int[] PDU_SIZES = {64, 256, 1500, 4096};
    static final int PACKETS = 100;

    static void measure(BiConsumer<String, Double> put, Path out) {
        NetConfig net = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP);
        LoopbackRun.Peers peers = LoopbackRun.Peers.of(net);
        for (int size : PDU_SIZES) {
            List<LoopbackRun.Pdu> pdus = pdus(size, peers);
            long[] tx = transmit(net, peers, pdus);
            put.accept("tx_eff_" + size, Bench.round(tx[0] / (double) tx[1], 4));
            long[] rx = receive(net, peers, pdus);
            put.accept("rx_eff_" + size, Bench.round(rx[0] / (double) rx[1], 4));
            if (size == 64) {
                put.accept("tx_latency_cycles", (double) tx[2]);
                put.accept("rx_latency_cycles", (double) rx[2]);
            }
            System.out.printf("framing %4d-byte PDUs, steady state: tx %d frame beats in %d cycles, rx %d in %d%n",
                    size, tx[0], tx[1], rx[0], rx[1]);
        }

        // IPv6: the UDP checksum holds each frame until it is summed (docs/protocol.md 5.4.1); its cost is the
        // latency against the same frames in the zero-checksum mode, and the efficiency must stay 1.0
        NetConfig v6 = NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP);
        LoopbackRun.Peers peers6 = LoopbackRun.Peers.of(v6);
        for (int size : new int[] {64, 4096}) {
            List<LoopbackRun.Pdu> pdus = pdus(size, peers6);
            long[] summed = transmit(v6, peers6, pdus);
            long[] zero = transmit(v6.withUdpZeroChecksum(true), peers6, pdus);
            put.accept("tx_ipv6_eff_" + size, Bench.round(summed[0] / (double) summed[1], 4));
            put.accept("tx_ipv6_latency_cycles_" + size, (double) summed[2]);
            put.accept("udp_checksum_added_latency_cycles_" + size, (double) (summed[2] - zero[2]));
            System.out.printf("framing IPv6 %4d-byte PDUs: tx %d frame beats in %d cycles, latency %d cycles"
                    + " (%d with checksum 0)%n", size, summed[0], summed[1], summed[2], zero[2]);
        }

        SimSpeedBench.measure(receiverCase(), out, put, true);

        StreamConfig sc = new StreamConfig(WIDTH, SueMeta.WIDTH);
        Map<String, Supplier<Component>> blocks = new LinkedHashMap<>();
        blocks.put("tx", () -> new FrameTransmitter(new FrameTransmitter.Config(WIDTH, net, 1024)));
        blocks.put("rx", () -> new FrameReceiver(new FrameReceiver.Config(WIDTH, net, 128)));
        blocks.put("rh_inserter", () -> new RhInserter(new RhInserter.Config(WIDTH, 1)));
        blocks.put("pdu_pad", () -> new StreamPad(new StreamPad.Config(sc, FrameFormat.minPdu(net))));
        blocks.put("crc_append", () -> new StreamCrcAppend(new StreamCrcAppend.Config(sc, CrcParams.CRC32, 8)));
        blocks.put("header_inserter", () -> new NetHeaderInserter(new NetHeaderInserter.Config(WIDTH, net, 1024)));
        blocks.put("udp_checksum_ipv6", () -> new UdpChecksumInserter(new UdpChecksumInserter.Config(WIDTH, v6)));
        blocks.put("rx_slice", () -> new StreamSlice(new StreamSlice.Config(WIDTH, net.headerBytes(), 4)));
        blocks.put("rx_packet_fifo", () -> new PacketFifo(new PacketFifo.Config(sc, 128)));
        for (Map.Entry<String, Supplier<Component>> b : blocks.entrySet()) {
            synthFigures(b.getKey(), Design.elaborate(b.getValue().get()), out, put);
        }
    }

    /** Yosys on {@code design}: puts {@code <name>_cells}, {@code <name>_ffs} and {@code <name>_mem_bits}. */
    static void synthFigures(String name, Design design, Path out, BiConsumer<String, Double> put) {
        VerilogEmitter.Result v = VerilogEmitter.emit(design, out.resolve("rtl-" + name));
        SynthReport s = Yosys.synth(v.files(), v.topModule());
        put.accept(name + "_cells", (double) s.cells());
        put.accept(name + "_ffs", (double) s.flipFlops());
        put.accept(name + "_mem_bits", (double) s.memoryBits());
        System.out.printf("yosys %-16s %7d cells %6d flip-flops %8d memory bits%n", name, s.cells(), s.flipFlops(),
                s.memoryBits());
    }

    /**
     * The receiver for the simulator speed figures, a much larger design than the CRC of the headline figure:
     * 20,000 cycles of back-to-back 1500-byte PDU frames.
     */
    static SimSpeedBench.Case receiverCase() {
        NetConfig net = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP);
        LoopbackRun.Peers peers = LoopbackRun.Peers.of(net);
        return new SimSpeedBench.Case("rx1024", "receiver, 1024 bits",
                () -> Design.elaborate(new FrameReceiver(new FrameReceiver.Config(WIDTH, net, 128))),
                (design, manifest) -> {
                    List<LoopbackRun.Pdu> pdus = pdus(1500, peers);
                    try (Simulator sim = Simulator.compile(design)) {
                        sim.record(manifest);
                        sim.reset();
                        peers.setIdentity(sim);
                        sim.poke("m_axis_tready", 1);
                        StreamSource source = new StreamSource(sim, "s_axis");
                        Random noGaps = new Random(0);
                        for (int c = 0, i = 0; c < 20_000; c++) {
                            if (source.idle()) {
                                LoopbackRun.Pdu p = pdus.get(i++ % pdus.size());
                                source.add(peers.frame(net, p), BigInteger.ZERO);
                            }
                            source.drive(noGaps, 100);
                            source.advance();
                            sim.step();
                        }
                    }
                });
    }

    static List<LoopbackRun.Pdu> pdus(int pduBytes, LoopbackRun.Peers peers) {
        Random rnd = new Random(pduBytes);
        List<LoopbackRun.Pdu> list = new ArrayList<>();
        for (int i = 0; i < PACKETS; i++) {
            byte[] c = new byte[pduBytes - 8];
            rnd.nextBytes(c);
            list.add(new LoopbackRun.Pdu(c, new SueMeta(i % LoopbackRun.TABLE_DEPTH, 7, i & 3, i, 0, 0,
                    peers.me().partition(), 0, false, c.length)));
        }
        return list;
    }

    /** {frame beats, cycles, latency of the first PDU}: see {@link #window}. */
    static long[] transmit(NetConfig net, LoopbackRun.Peers peers, List<LoopbackRun.Pdu> pdus) {
        Simulator sim = Simulator.compile(Design.elaborate(new FrameTransmitter(
                new FrameTransmitter.Config(WIDTH, net, LoopbackRun.TABLE_DEPTH))));
        sim.reset();
        peers.loadTable(sim, net);
        StreamSource source = new StreamSource(sim, "s_axis");
        StreamMonitor frames = new StreamMonitor(sim, "m_axis", null);
        for (LoopbackRun.Pdu p : pdus) {
            source.add(p.commands(), p.meta().pack());
        }
        long beats = Beats.count(peers.frame(net, pdus.get(0)).length, LANES); // the same for every packet
        run(sim, source, frames, pdus.size());
        return window(beats, source.firstBeatCycle(), frames);
    }

    static long[] receive(NetConfig net, LoopbackRun.Peers peers, List<LoopbackRun.Pdu> pdus) {
        Simulator sim = Simulator.compile(Design.elaborate(new FrameReceiver(
                new FrameReceiver.Config(WIDTH, net, 128))));
        sim.reset();
        peers.setIdentity(sim);
        StreamSource source = new StreamSource(sim, "s_axis");
        StreamMonitor delivered = new StreamMonitor(sim, "m_axis", null);
        for (LoopbackRun.Pdu p : pdus) {
            source.add(peers.frame(net, p), BigInteger.ZERO);
        }
        long beats = Beats.count(peers.frame(net, pdus.get(0)).length, LANES); // the same for every packet
        run(sim, source, delivered, pdus.size());
        return window(beats, source.firstBeatCycle(), delivered);
    }

    private static void run(Simulator sim, StreamSource source, StreamMonitor out, int packets) {
        Random noGaps = new Random(0);
        for (long c = 0; out.packets().size() < packets; c++) {
            if (c > 1_000_000) {
                throw new IllegalStateException("framing bench: only " + out.packets().size() + " packets came out");
            }
            source.drive(noGaps, 100);
            sim.poke("m_axis_tready", 1);
            source.advance();
            sim.step();
        }
    }

    /** {beats of packets 2..N, cycles between the last beats of packet 1 and N, first-beat latency}. */
    private static long[] window(long beatsPerPacket, long firstIn, StreamMonitor out) {
        List<StreamMonitor.Packet> p = out.packets();
        return new long[] {beatsPerPacket * (p.size() - 1), p.get(p.size() - 1).cycle() - p.get(0).cycle(),
                out.firstBeatCycle() - firstIn};
    }
}
