package org.sue.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.net.model.FrameCodec;
import org.sue.net.model.ReliabilityHeader;
import org.sue.net.tb.LoopbackRun;
import org.sue.sim.Simulator;

/**
 * The UDP checksum stage alone: frames as the header inserter leaves them (checksum 0, no FCS) in, the reference
 * codec's frames out, with random gaps and backpressure; and with both sides ready, the input never waits.
 */
class UdpChecksumInserterTest {
    record Frames(List<byte[]> in, List<byte[]> expected, List<BigInteger> users) {
    }

    /** Frames of every size up to the largest, checksum 0 and no FCS, and the same with the codec's checksum. */
    static Frames frames(NetConfig net, Random rnd, int count) {
        LoopbackRun.Peers peers = LoopbackRun.Peers.of(net);
        Frames f = new Frames(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        int at = FrameFormat.udpChecksumAt(net);
        for (int i = 0; i < count; i++) {
            int cmds = switch (rnd.nextInt(4)) {
                case 0 -> 1 + rnd.nextInt(12);
                case 1 -> net.maxPdu() - FrameFormat.RH_BYTES - rnd.nextInt(2); // the largest frames
                default -> 1 + rnd.nextInt(2000);
            };
            byte[] c = new byte[cmds];
            rnd.nextBytes(c);
            ReliabilityHeader rh = new ReliabilityHeader(1, 0, 7, i, i & 3, 0x345, 0);
            byte[] frame = FrameCodec.encode(net, peers.table()[i % 16], rh, c);
            FrameCodec.fillUdpChecksum(net, frame); // IPv4 frames are encoded with 0: the stage's sum goes in
            byte[] out = Arrays.copyOf(frame, frame.length - FrameFormat.FCS_BYTES);
            byte[] zeroed = out.clone();
            zeroed[at] = 0;
            zeroed[at + 1] = 0;
            f.in.add(zeroed);
            f.expected.add(out);
            f.users.add(new SueMeta(i % 16, 7, i & 3, i, 0, 0, 0x345, 0, false, cmds).pack());
        }
        return f;
    }

    static Simulator inserter(NetConfig net, int width) {
        Simulator sim = Simulator.compile(Design.elaborate(new UdpChecksumInserter(
                new UdpChecksumInserter.Config(width, net))));
        sim.reset();
        return sim;
    }

    @ParameterizedTest
    @CsvSource({"ETH_IPV6_UDP,false,512", "ETH_IPV6_UDP,true,1024", "ETH_IPV6_UDP,true,256", "ETH_IPV4_UDP,false,512"})
    void framesLeaveWithTheCodecsChecksum(HeaderFormat format, boolean vlan, int width) {
        NetConfig net = NetConfig.defaults(format).withVlan(vlan);
        Random rnd = new Random(width + (vlan ? 1 : 0));
        Frames f = frames(net, rnd, 200);
        Simulator sim = inserter(net, width);
        StreamSource source = new StreamSource(sim, "s_axis");
        StreamMonitor monitor = new StreamMonitor(sim, "m_axis", null);
        for (int i = 0; i < f.in.size(); i++) {
            source.add(f.in.get(i), f.users.get(i));
        }
        for (int c = 0; c < 400_000 && monitor.packets().size() < f.in.size(); c++) {
            source.drive(rnd, 80);
            sim.poke("m_axis_tready", rnd.nextInt(4) > 0 ? 1 : 0);
            source.advance();
            sim.step();
        }
        assertEquals(f.in.size(), monitor.packets().size(), "frames out");
        for (int i = 0; i < f.in.size(); i++) {
            assertArrayEquals(f.expected.get(i), monitor.packets().get(i).bytes(), "frame " + i);
            assertEquals(f.users.get(i), monitor.packets().get(i).user(), "tuser of frame " + i);
        }
    }

    /** Back to back, output always ready: every input beat is taken in its cycle, whatever the frame sizes. */
    @ParameterizedTest
    @CsvSource({"512", "1024"})
    void theInputNeverWaits(int width) {
        NetConfig net = NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP);
        Frames f = frames(net, new Random(width), 300);
        Simulator sim = inserter(net, width);
        StreamSource source = new StreamSource(sim, "s_axis");
        StreamMonitor monitor = new StreamMonitor(sim, "m_axis", null);
        f.in.forEach(b -> source.add(b, BigInteger.ZERO));
        Random noGaps = new Random(0);
        long stalls = 0;
        long beats = 0;
        for (int c = 0; c < 200_000 && monitor.packets().size() < f.in.size(); c++) {
            source.drive(noGaps, 100);
            sim.poke("m_axis_tready", 1);
            if (sim.peek("s_axis_tvalid") == 1) {
                beats++;
                stalls += 1 - sim.peek("s_axis_tready");
            }
            source.advance();
            sim.step();
        }
        assertEquals(f.in.size(), monitor.packets().size(), "frames out");
        assertEquals(0, stalls, "cycles the input waited, of " + beats);
    }
}
