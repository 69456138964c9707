package org.sue.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sue.core.Design;
import org.sue.core.Port;
import org.sue.core.PortDirection;
import org.sue.core.Status;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.net.model.FrameCodec;
import org.sue.net.model.ReliabilityHeader;
import org.sue.net.tb.FrameDamage;
import org.sue.net.tb.LoopbackRun;
import org.sue.net.tb.PcapWriter;
import org.sue.net.tb.PcapWriterTest;
import org.sue.sim.Simulator;

/**
 * Transmit and receive RTL against the reference codec: every frame the transmitter builds is byte for byte the
 * codec's; every frame the receiver gets, good or corrupted, is delivered exactly when the codec accepts it, with
 * the codec's bytes and RH, and every drop is counted under the codec's reason.
 */
class FramingTest {
    static Stream<Arguments> configs() {
        return Stream.of(
                Arguments.of(NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP).withVlan(true), 1024),
                Arguments.of(NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP), 512),
                Arguments.of(NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP), 512),
                Arguments.of(NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP).withVlan(true), 1024),
                Arguments.of(NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP).withUdpZeroChecksum(true), 256),
                Arguments.of(NetConfig.defaults(HeaderFormat.AFH_GEN1).withVlan(true).withGen1Options(0x88B7, true), 512),
                Arguments.of(NetConfig.defaults(HeaderFormat.AFH_GEN1), 256),
                Arguments.of(NetConfig.defaults(HeaderFormat.AFH_GEN2_NORMAL), 1024),
                Arguments.of(NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED), 512),
                Arguments.of(NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED).withVlan(true), 256));
    }

    @ParameterizedTest
    @MethodSource("configs")
    void loopbackDeliversEveryPduUnchanged(NetConfig net, int width) {
        LoopbackRun run = new LoopbackRun(net, width);
        Random rnd = new Random(net.headerBytes() * 1000 + width);
        List<LoopbackRun.Pdu> pdus = run.randomPdus(rnd, 300, 4088);
        // a few tiny ones, which need padding
        for (int i = 0; i < 30; i++) {
            pdus.add(rnd.nextInt(pdus.size()), run.randomPdus(rnd, 1, 12).get(0));
        }
        LoopbackRun.Result r = run.run(pdus, rnd, 70, 90, null); // the output keeps up: nothing overflows

        assertEquals(pdus.size(), r.frames().size(), "frames on the link");
        assertEquals(pdus.size(), r.delivered().size(), "PDUs delivered; counters " + r.counters());
        for (int i = 0; i < pdus.size(); i++) {
            LoopbackRun.Pdu p = pdus.get(i);
            byte[] frame = run.expectedFrame(p);
            assertArrayEquals(frame, r.frames().get(i).bytes(), "frame " + i + " on the link");
            assertEquals(p.meta().pack(), r.frames().get(i).user(), "frame " + i + " tuser");
            FrameCodec.Received ref = FrameCodec.decode(net, run.me, frame);
            assertTrue(ref.ok());
            assertArrayEquals(ref.frame().commands(), r.delivered().get(i).bytes(), "PDU " + i + " delivered");
            assertArrayEquals(p.commands(), Arrays.copyOf(r.delivered().get(i).bytes(), p.commands().length));
            assertEquals(expectedMeta(ref, run.me), SueMeta.unpack(r.delivered().get(i).user()), "PDU " + i + " tuser");
        }
        assertEquals(pdus.size(), r.counters().get("frames_good"));
        r.counters().forEach((k, v) -> {
            if (!k.equals("frames_good")) {
                assertEquals(0, v, k);
            }
        });
    }

    static SueMeta expectedMeta(FrameCodec.Received ref, LocalIdentity me) {
        ReliabilityHeader rh = ref.frame().rh();
        return new SueMeta((int) me.xpu() & 0x3ff, rh.xpuid(), rh.vc(), rh.psn(), rh.op(), rh.rpsn(), rh.partition(), rh.port(),
                false, ref.frame().commands().length);
    }

    /** Good and damaged frames of every kind into the receiver: it agrees with the codec on each one. */
    @ParameterizedTest
    @MethodSource("configs")
    void receiverAgreesWithTheCodecOnDamagedFrames(NetConfig net, int width) {
        Random rnd = new Random(net.headerBytes() * 77 + width);
        NetConfig rxNet = net.withMaxPdu(2048); // smaller maxPdu: oversize PDUs are among the tests
        LoopbackRun.Peers tables = LoopbackRun.Peers.of(net);
        LocalIdentity me = tables.me();
        Simulator sim = Simulator.compile(Design.elaborate(new FrameReceiver(new FrameReceiver.Config(width, rxNet,
                LoopbackRun.fifoDepth(width)))));
        sim.reset();
        tables.setIdentity(sim);
        StreamSource source = new StreamSource(sim, "s_axis");
        StreamMonitor delivered = new StreamMonitor(sim, "m_axis", null);

        List<byte[]> frames = new ArrayList<>();
        List<FrameCodec.Received> expected = new ArrayList<>();
        Map<DropReason, Integer> reasons = new EnumMap<>(DropReason.class);
        for (int i = 0; i < 600; i++) {
            byte[] f = FrameDamage.frame(net, tables, rnd, 4088);
            FrameCodec.Received ref = FrameCodec.decode(rxNet, me, f);
            frames.add(f);
            expected.add(ref);
            if (!ref.ok()) {
                reasons.merge(ref.drop(), 1, Integer::sum);
            }
            source.add(f, BigInteger.ZERO);
        }
        long quiet = 0;
        List<Long> lastBeats = new ArrayList<>();
        List<long[]> buffered = new ArrayList<>(); // {cycle, vc, len}
        while (quiet < 100) {
            source.drive(rnd, 80);
            sim.poke("m_axis_tready", 1);
            if (sim.peek("s_axis_tvalid") == 1 && sim.peek("s_axis_tlast") == 1) {
                lastBeats.add(sim.cycle());
            }
            if (sim.peek("buffered_valid") == 1) {
                buffered.add(new long[] {sim.cycle(), sim.peek("buffered_vc"), sim.peek("buffered_len")});
            }
            source.advance();
            sim.step();
            quiet = source.idle() ? quiet + 1 : 0;
        }
        List<FrameCodec.Received> good = expected.stream().filter(FrameCodec.Received::ok).toList();
        // each good frame is reported buffered, with its VC and length, at most VERDICT_CYCLES after its last beat
        assertEquals(good.size(), buffered.size(), "frames reported buffered");
        for (int i = 0, g = 0; i < frames.size(); i++) {
            if (expected.get(i).ok()) {
                SueMeta m = expectedMeta(expected.get(i), me);
                long[] b = buffered.get(g++);
                assertEquals(m.vc(), b[1], "buffered VC of frame " + i);
                assertEquals(m.len(), b[2], "buffered length of frame " + i);
                assertTrue(b[0] - lastBeats.get(i) <= FrameReceiver.VERDICT_CYCLES, "frame " + i + " buffered "
                        + (b[0] - lastBeats.get(i)) + " cycles after its last beat");
            }
        }
        assertEquals(good.size(), delivered.packets().size(), "delivered frames");
        for (int i = 0; i < good.size(); i++) {
            assertArrayEquals(good.get(i).frame().commands(), delivered.packets().get(i).bytes(), "delivery " + i);
            assertEquals(expectedMeta(good.get(i), me), SueMeta.unpack(delivered.packets().get(i).user()));
        }
        for (DropReason r : DropReason.values()) {
            if (r.fromMac()) {
                continue; // no MAC flag on this receiver
            }
            assertEquals(reasons.getOrDefault(r, 0).longValue(), sim.peek("drops_" + r.name().toLowerCase()),
                    "drops for " + r);
        }
        assertEquals(good.size(), sim.peek("frames_good"));
        assertEquals(frames.size() - good.size(), sim.peek("fifo_drops_judged"));
        assertEquals(0, sim.peek("drops_overflow"));
        assertEquals(0, sim.peek("internal_error"));
        assertTrue(reasons.size() >= 5, "the damage covers many reasons: " + reasons);
    }

    /** The monitor on the link writes every frame to a pcap file that an independent reader gets back intact. */
    /** The receiver's status outputs are its status list: one counter per drop reason, then the rest, port order. */
    @Test
    void theReceiversStatusListIsItsStatusOutputsInPortOrder() {
        for (boolean macError : new boolean[] {false, true}) {
            FrameReceiver rx = new FrameReceiver(new FrameReceiver.Config(256,
                    NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP), 16, macError));
            List<String> expected = new ArrayList<>();
            for (DropReason r : DropReason.values()) {
                if (!r.fromMac() || macError) {
                    expected.add("drops_" + r.name().toLowerCase());
                }
            }
            expected.addAll(List.of("frames_good", "drops_overflow", "internal_error", "fifo_drops_judged"));
            List<String> outputs = rx.ports().stream().filter(p -> p.direction() == PortDirection.OUT)
                    .map(Port::name).filter(n -> !n.startsWith("m_axis_") && !n.startsWith("buffered_"))
                    .toList();
            assertEquals(expected, outputs);
            assertEquals(expected, rx.statusList().stream().map(Status::name).toList());
            for (Status st : rx.statusList()) {
                assertEquals(st.name().equals("internal_error") ? Status.Kind.FLAG
                        : Status.Kind.COUNTER, st.kind(), st.name());
                assertTrue(st.description().endsWith("."), st.name() + ": " + st.description());
            }
        }
    }

    @Test
    void linkFramesGoToAPcapFile(@TempDir Path dir) throws Exception {
        NetConfig net = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP);
        LoopbackRun run = new LoopbackRun(net, 512);
        Random rnd = new Random(3);
        List<LoopbackRun.Pdu> pdus = run.randomPdus(rnd, 40, 1500);
        Path file = dir.resolve("link.pcap");
        LoopbackRun.Result r;
        try (PcapWriter pcap = new PcapWriter(file)) {
            r = run.run(pdus, rnd, 100, 100, pcap::write);
        }
        List<long[]> times = new ArrayList<>();
        List<byte[]> read = PcapWriterTest.read(file, times);
        assertEquals(pdus.size(), read.size());
        for (int i = 0; i < pdus.size(); i++) {
            assertArrayEquals(run.expectedFrame(pdus.get(i)), read.get(i), "frame " + i);
            assertEquals(r.frames().get(i).cycle(), times.get(i)[0], "time of the last beat, 1 ns/cycle");
        }
    }

    /** One frame of each named kind of damage, each dropped and counted under its own reason. */
    @Test
    void eachBadKindIsCountedUnderItsReason() {
        NetConfig net = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP);
        LoopbackRun.Peers peers = LoopbackRun.Peers.of(net);
        HeaderEntry to = peers.table()[0];
        ReliabilityHeader rh = new ReliabilityHeader(1, 0, 9, 1, 0, peers.me().partition(), 0);
        byte[] good = FrameCodec.encode(net, to, rh, new byte[300]);
        Map<DropReason, byte[]> bad = new EnumMap<>(DropReason.class);
        bad.put(DropReason.RUNT, FrameDamage.refcs(Arrays.copyOf(good, 30))); // cut mid-header
        bad.put(DropReason.TRUNCATED, FrameDamage.refcs(Arrays.copyOf(good, 200))); // IP length runs past the end
        bad.put(DropReason.PARTITION_MISMATCH, FrameCodec.encode(net, to,
                new ReliabilityHeader(1, 0, 9, 1, 0, peers.me().partition() ^ 1, 0), new byte[300]));
        bad.put(DropReason.BAD_FCS, Arrays.copyOf(good, good.length - 1));
        // a 5000-byte PDU, more than any receiver takes (4096): built by hand, the codec refuses to
        NetConfig afh = NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED);
        byte[] pdu = new byte[5000];
        rh.encode(pdu, 0);
        byte[] header = FrameCodec.header(afh, LoopbackRun.Peers.of(afh).table()[0], 0, 0);
        byte[] big = new byte[header.length + pdu.length + 8];
        System.arraycopy(header, 0, big, 0, header.length);
        System.arraycopy(pdu, 0, big, header.length, pdu.length);
        FrameCodec.putLe32(big, header.length + pdu.length, FrameCodec.crc32(pdu, 0, pdu.length));
        big = FrameDamage.refcs(big);
        assertEquals(DropReason.OVERSIZE_PDU, FrameCodec.decode(afh, LoopbackRun.Peers.of(afh).me(), big).drop());

        for (NetConfig cfg : List.of(net, afh)) {
            Simulator sim = Simulator.compile(Design.elaborate(new FrameReceiver(new FrameReceiver.Config(512, cfg, 256))));
            sim.reset();
            LoopbackRun.Peers.of(cfg).setIdentity(sim);
            StreamSource source = new StreamSource(sim, "s_axis");
            StreamMonitor delivered = new StreamMonitor(sim, "m_axis", null);
            Map<DropReason, byte[]> frames = cfg == net ? bad : Map.of(DropReason.OVERSIZE_PDU, big);
            for (Map.Entry<DropReason, byte[]> e : frames.entrySet()) {
                source.add(e.getValue(), BigInteger.ZERO);
                for (int c = 0; c < 200; c++) {
                    source.drive(NO_GAPS, 100);
                    sim.poke("m_axis_tready", 1);
                    source.advance();
                    sim.step();
                }
                assertEquals(1, sim.peek("drops_" + e.getKey().name().toLowerCase()), e.getKey().toString());
            }
            assertTrue(delivered.packets().isEmpty(), "nothing of a bad frame comes out");
        }
    }

    private static final Random NO_GAPS = new Random(0); // with 100 % valid, never drawn from
}
