package org.sue.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.core.Design;
import org.sue.lib.stream.StreamDriver;
import org.sue.lib.stream.StreamPrependTest;
import org.sue.net.HeaderEntry;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.NetHeaderInserter;
import org.sue.net.SueMeta;
import org.sue.net.model.FrameCodec;
import org.sue.net.model.ReliabilityHeader;
import org.sue.net.tb.LoopbackRun;
import org.sue.sim.Simulator;

/** Network header insertion against the plain-Java header encoder, for every format, with a run-time table. */
class NetHeaderInserterTest {
    static List<NetConfig> configs() {
        return List.of(NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP),
                NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP).withVlan(true),
                NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP),
                NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP).withVlan(true),
                NetConfig.defaults(HeaderFormat.AFH_GEN1).withVlan(true).withGen1Options(0x88B7, true),
                NetConfig.defaults(HeaderFormat.AFH_GEN2_NORMAL).withVlan(true),
                NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED));
    }

    static HeaderEntry randomEntry(Random rnd, boolean v6, int dst) {
        byte[] dip = new byte[v6 ? 16 : 4];
        byte[] sip = new byte[v6 ? 16 : 4];
        rnd.nextBytes(dip);
        rnd.nextBytes(sip);
        return new HeaderEntry(rnd.nextLong() >>> 16, rnd.nextLong() >>> 16, rnd.nextInt(4096), dip, sip,
                rnd.nextInt(65536), dst, rnd.nextInt() & 0xffffffffL, rnd.nextInt(256), rnd.nextInt(256));
    }

    @Test
    void everyFormatMatchesTheReferenceHeader() {
        int[] widths = {512, 1024, 256, 512, 1024, 512, 256};
        List<NetConfig> cfgs = configs();
        for (int c = 0; c < cfgs.size(); c++) {
            NetConfig net = cfgs.get(c);
            int width = widths[c];
            int lanes = width / 8;
            int depth = 16;
            Simulator sim = Simulator.compile(Design.elaborate(new NetHeaderInserter(
                    new NetHeaderInserter.Config(width, net, depth))));
            Random rnd = new Random(c);
            boolean v6 = net.format() == HeaderFormat.ETH_IPV6_UDP;
            HeaderEntry[] table = new HeaderEntry[depth];
            sim.reset();
            for (int d = 0; d < depth; d++) {
                table[d] = randomEntry(rnd, v6, d);
                sim.poke("tbl_wr_valid", 1);
                sim.poke("tbl_wr_addr", d);
                sim.poke("tbl_wr_data", LoopbackRun.headerTemplate(net, table[d]));
                sim.step();
            }
            sim.poke("tbl_wr_valid", 0);
            List<StreamPrependTest.Packet> packets = new ArrayList<>();
            List<SueMeta> metas = new ArrayList<>();
            for (int i = 0; i < 80; i++) {
                int len = rnd.nextInt(3) == 0 ? rnd.nextInt(40) : rnd.nextInt(4088);
                SueMeta m = new SueMeta(rnd.nextInt(depth), 7, rnd.nextInt(4), i, 0, 0, 0x345, 0, false, len);
                int pdu = Math.max(FrameFormat.RH_BYTES + len, FrameFormat.minPdu(net));
                byte[] body = new byte[pdu + FrameFormat.RCRC_BYTES]; // RH + commands + padding + R-CRC
                rnd.nextBytes(body);
                metas.add(m);
                packets.add(new StreamPrependTest.Packet(new byte[0], body, 0));
            }
            StreamDriver d = new StreamDriver(sim, lanes, packets, false);
            d.userOf = i -> metas.get(i).pack();
            long guard = 0;
            while (d.received.size() < packets.size() && guard++ < 200_000) {
                d.cycle(rnd.nextInt(5) > 0, rnd.nextInt(4) > 0);
            }
            assertEquals(packets.size(), d.received.size(), net.format().name());
            for (int i = 0; i < packets.size(); i++) {
                SueMeta m = metas.get(i);
                byte[] body = packets.get(i).payload();
                byte[] header = FrameCodec.header(net, table[m.dstXpu()], m.vc(), 8 + body.length);
                assertArrayEquals(StreamPrependTest.concat(header, body), d.received.get(i),
                        net.format() + (net.vlan() ? "+vlan" : "") + " packet " + i);
            }
        }
    }

    @Test
    void backToBackPacketsFlowWithoutBubbles() {
        NetConfig net = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP);
        int width = 1024;
        int lanes = width / 8;
        Simulator sim = Simulator.compile(Design.elaborate(new NetHeaderInserter(
                new NetHeaderInserter.Config(width, net, 4))));
        sim.reset();
        List<StreamPrependTest.Packet> packets = new ArrayList<>();
        List<SueMeta> metas = new ArrayList<>();
        long beats = 0;
        int[] sizes = {64, 256, 1500, 4096};
        for (int i = 0; i < 40; i++) {
            int pdu = sizes[i % sizes.length]; // PDU bytes on the stream (RH .. R-CRC)
            metas.add(new SueMeta(i % 4, 7, 0, i, 0, 0, 0, 0, false, Math.max(0, pdu - 12)));
            packets.add(new StreamPrependTest.Packet(new byte[0], new byte[pdu], 0));
            beats += (net.headerBytes() + pdu + lanes - 1) / lanes;
        }
        StreamDriver d = new StreamDriver(sim, lanes, packets, false);
        d.userOf = i -> metas.get(i).pack();
        long cycles = 0;
        while (d.received.size() < packets.size()) {
            d.cycle(true, true);
            cycles++;
        }
        assertEquals(beats + 1, cycles, "one beat per cycle after the one-cycle lookup stage");
    }

    /**
     * The IPv4 checksum patch against the plain RFC 1624 fold (~fold(~HC + total length + TOS word)) for raw
     * templates whose checksum word HC is picked per packet: ~HC + the new words = 0xFFFF (the fold's 0xFFFF, never
     * 0), ~HC + the new words carrying out of bit 15, HC = 0xFFFF (~HC = 0), HC = 0, and random ones.
     */
    @Test
    void ipv4ChecksumMatchesTheFoldAtTheCorners() {
        NetConfig net = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP);
        int width = 512;
        int lanes = width / 8;
        int depth = 64;
        int h = net.headerBytes();
        int ip = 14;
        Simulator sim = Simulator.compile(Design.elaborate(new NetHeaderInserter(
                new NetHeaderInserter.Config(width, net, depth))));
        Random rnd = new Random(42);
        sim.reset();
        List<StreamPrependTest.Packet> packets = new ArrayList<>();
        List<SueMeta> metas = new ArrayList<>();
        int[] expected = new int[depth];
        int minCommands = FrameFormat.minPdu(net) - FrameFormat.RH_BYTES;
        for (int i = 0; i < depth; i++) {
            int len = i % 4 == 0 ? rnd.nextInt(40) : rnd.nextInt(4088);
            int vc = rnd.nextInt(4);
            int total = (Math.max(len, minCommands) + 8 + FrameFormat.RH_BYTES + FrameFormat.RCRC_BYTES + 20) & 0xffff;
            int terms = total + (net.pcpOfVc()[vc] << 5);
            int notHc = switch (i % 5) {
                case 0 -> 0xffff - terms % 0xffff; // ~HC + terms = 0xFFFF
                case 1 -> 0x10000 - terms + rnd.nextInt(terms); // a carry out of bit 15
                case 2 -> 0;
                case 3 -> 0xffff;
                default -> rnd.nextInt(65536);
            };
            int sum = notHc + terms;
            int fold = (sum & 0xffff) + (sum >>> 16);
            expected[i] = ~((fold & 0xffff) + (fold >>> 16)) & 0xffff;
            byte[] template = new byte[h];
            rnd.nextBytes(template);
            for (int j : new int[] {ip + 1, ip + 2, ip + 3, ip + 24, ip + 25}) {
                template[j] = 0; // the per-packet fields are zero in a template
            }
            template[ip + 10] = (byte) (~notHc >> 8);
            template[ip + 11] = (byte) ~notHc;
            BigInteger row = BigInteger.ZERO;
            for (int j = 0; j < h; j++) {
                row = row.or(BigInteger.valueOf(template[j] & 0xff).shiftLeft(8 * j));
            }
            sim.poke("tbl_wr_valid", 1);
            sim.poke("tbl_wr_addr", i);
            sim.poke("tbl_wr_data", row);
            sim.step();
            metas.add(new SueMeta(i, 7, vc, i, 0, 0, 0, 0, false, len));
            int pdu = Math.max(FrameFormat.RH_BYTES + len, FrameFormat.minPdu(net));
            packets.add(new StreamPrependTest.Packet(new byte[0], new byte[pdu + FrameFormat.RCRC_BYTES], 0));
        }
        sim.poke("tbl_wr_valid", 0);
        StreamDriver d = new StreamDriver(sim, lanes, packets, false);
        d.userOf = i -> metas.get(i).pack();
        long guard = 0;
        while (d.received.size() < packets.size() && guard++ < 100_000) {
            d.cycle(rnd.nextInt(5) > 0, rnd.nextInt(4) > 0);
        }
        assertEquals(packets.size(), d.received.size());
        for (int i = 0; i < depth; i++) {
            byte[] frame = d.received.get(i);
            assertEquals(expected[i], (frame[ip + 10] & 0xff) << 8 | frame[ip + 11] & 0xff, "packet " + i);
        }
    }
}
