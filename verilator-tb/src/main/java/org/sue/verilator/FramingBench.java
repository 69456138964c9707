package org.sue.verilator;

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
import org.sue.lib.stream.Beats;
import org.sue.lib.stream.PacketFifo;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamCrcAppend;
import org.sue.lib.stream.StreamMonitor;
import org.sue.lib.stream.StreamPad;
import org.sue.lib.stream.StreamSlice;
import org.sue.lib.stream.StreamSource;
import org.sue.net.FrameCodec;
import org.sue.net.FrameReceiver;
import org.sue.net.FrameTransmitter;
import org.sue.net.HeaderFormat;
import org.sue.net.LoopbackRun;
import org.sue.net.NetConfig;
import org.sue.net.NetHeaderInserter;
import org.sue.net.RhInserter;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * Framing figures for {@code scripts/bench}, 1024-bit bus, default configuration (Ethernet/IPv4/UDP): efficiency of
 * transmit and receive on back-to-back PDUs of 64, 256, 1500 and 4096 bytes (RH + commands), latency from the first
 * input beat to the first output beat on an idle block, and Yosys cells and flip-flops per block.
 *
 * <p>Efficiency = (sum over packets of ceil(frame bytes / 128)) / cycles from the first to the last output beat, so
 * 1.0 means no bubble. For transmit the frame is the output; for receive it is the input, the wider side: a receiver
 * whose output keeps pace with frames arriving back to back scores 1.0 (its output, shorter by the headers, cannot be
 * busier than the wire that feeds it).
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
            put.accept("tx_eff_" + size, round(tx[0] / (double) tx[1]));
            long[] rx = receive(net, peers, pdus);
            put.accept("rx_eff_" + size, round(rx[0] / (double) rx[1]));
            if (size == 64) {
                put.accept("tx_latency_cycles", (double) tx[2]);
                put.accept("rx_latency_cycles", (double) rx[2]);
            }
            System.out.printf("framing %4d-byte PDUs: tx %d frame beats in %d cycles, rx %d in %d%n", size, tx[0],
                    tx[1], rx[0], rx[1]);
        }

        StreamConfig sc = new StreamConfig(WIDTH, SueMeta.WIDTH);
        Map<String, Supplier<Component>> blocks = new LinkedHashMap<>();
        blocks.put("tx", () -> new FrameTransmitter(new FrameTransmitter.Config(WIDTH, net, 1024)));
        blocks.put("rx", () -> new FrameReceiver(new FrameReceiver.Config(WIDTH, net, 128)));
        blocks.put("rh_inserter", () -> new RhInserter(new RhInserter.Config(WIDTH, 1)));
        blocks.put("pdu_pad", () -> new StreamPad(new StreamPad.Config(sc, FrameCodec.minPdu(net))));
        blocks.put("crc_append", () -> new StreamCrcAppend(new StreamCrcAppend.Config(sc, CrcParams.CRC32, 8)));
        blocks.put("header_inserter", () -> new NetHeaderInserter(new NetHeaderInserter.Config(WIDTH, net, 1024)));
        blocks.put("rx_slice", () -> new StreamSlice(new StreamSlice.Config(WIDTH, net.headerBytes(), 4)));
        blocks.put("rx_packet_fifo", () -> new PacketFifo(new PacketFifo.Config(sc, 128)));
        for (Map.Entry<String, Supplier<Component>> b : blocks.entrySet()) {
            VerilogEmitter.Result v = VerilogEmitter.emit(Design.elaborate(b.getValue().get()),
                    out.resolve("rtl-" + b.getKey()));
            SynthReport s = Yosys.synth(v.files(), v.topModule());
            put.accept(b.getKey() + "_cells", (double) s.cells());
            put.accept(b.getKey() + "_ffs", (double) s.flipFlops());
            put.accept(b.getKey() + "_mem_bits", (double) s.memoryBits());
            System.out.printf("yosys %-16s %7d cells %6d flip-flops %8d memory bits%n", b.getKey(), s.cells(),
                    s.flipFlops(), s.memoryBits());
        }
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

    /** {frame beats, cycles from first to last output beat, latency of the first PDU}. */
    static long[] transmit(NetConfig net, LoopbackRun.Peers peers, List<LoopbackRun.Pdu> pdus) {
        Simulator sim = Simulator.compile(Design.elaborate(new FrameTransmitter(
                new FrameTransmitter.Config(WIDTH, net, LoopbackRun.TABLE_DEPTH))));
        sim.reset();
        for (int d = 0; d < LoopbackRun.TABLE_DEPTH; d++) {
            sim.poke("tbl_wr_en", 1);
            sim.poke("tbl_wr_addr", d);
            sim.poke("tbl_wr_data", LoopbackRun.headerTemplate(net, peers.table()[d]));
            sim.step();
        }
        sim.poke("tbl_wr_en", 0);
        StreamSource source = new StreamSource(sim, "s_axis");
        StreamMonitor frames = new StreamMonitor(sim, "m_axis", null);
        long beats = 0;
        for (LoopbackRun.Pdu p : pdus) {
            source.add(p.commands(), p.meta().pack());
            beats += Beats.count(FrameCodec.encode(net, peers.table()[p.meta().dstXpu()], p.meta().rh(1),
                    p.commands()).length, LANES);
        }
        run(sim, source, frames, pdus.size());
        return window(beats, source.firstBeatCycle(), frames);
    }

    static long[] receive(NetConfig net, LoopbackRun.Peers peers, List<LoopbackRun.Pdu> pdus) {
        Simulator sim = Simulator.compile(Design.elaborate(new FrameReceiver(
                new FrameReceiver.Config(WIDTH, net, 128))));
        sim.reset();
        sim.poke("local_xpu", peers.me().xpu());
        sim.poke("local_ip", new BigInteger(1, peers.me().ip()));
        sim.poke("local_partition", peers.me().partition());
        StreamSource source = new StreamSource(sim, "s_axis");
        StreamMonitor delivered = new StreamMonitor(sim, "m_axis", null);
        long beats = 0;
        for (LoopbackRun.Pdu p : pdus) {
            byte[] f = FrameCodec.encode(net, peers.table()[p.meta().dstXpu()], p.meta().rh(1), p.commands());
            source.add(f, BigInteger.ZERO);
            beats += Beats.count(f.length, LANES);
        }
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

    private static long[] window(long beats, long firstIn, StreamMonitor out) {
        long first = out.firstBeatCycle();
        long last = out.packets().get(out.packets().size() - 1).cycle();
        return new long[] {beats, last - first + 1, first - firstIn};
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
