package org.sue.net.tb;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.net.DropReason;
import org.sue.net.FrameReceiver;
import org.sue.net.FrameTransmitter;
import org.sue.net.FramingLoopback;
import org.sue.net.HeaderEntry;
import org.sue.net.HeaderFormat;
import org.sue.net.LocalIdentity;
import org.sue.net.NetConfig;
import org.sue.net.SueMeta;
import org.sue.net.model.FrameCodec;
import org.sue.net.model.ReliabilityHeader;
import org.sue.sim.Simulator;

/**
 * Runs PDUs through a {@link FramingLoopback} in the JVM simulator: loads the header table (every destination's
 * frames addressed to this receiver), sets the receiver's identity, offers the PDUs with random gaps, takes the
 * output with random backpressure, and returns what crossed the link and what was delivered.
 */
public final class LoopbackRun {
    /** A PDU to send: packed commands and their metadata (len must be commands.length). */
    public record Pdu(byte[] commands, SueMeta meta) {
    }

    public record Result(List<StreamMonitor.Packet> frames, List<StreamMonitor.Packet> delivered, long cycles,
                         long firstInCycle, Map<String, Long> counters) {
    }

    public static final int TABLE_DEPTH = 16;
    public final NetConfig net;
    public final int dataWidth;
    public final LocalIdentity me;
    public final HeaderEntry[] table;
    public final Simulator sim;
    private final Peers peers;

    /** This receiver's identity and a header table whose every destination is this receiver. */
    public record Peers(LocalIdentity me, HeaderEntry[] table) {
        public static Peers of(NetConfig net) {
            boolean v6 = net.format() == HeaderFormat.ETH_IPV6_UDP;
            byte[] myIp = v6 ? ipv6(42) : new byte[] {10, 0, 0, 42};
            LocalIdentity me = new LocalIdentity(0x0200_0000_0042L, myIp, 0x42, 0x345);
            HeaderEntry[] table = new HeaderEntry[TABLE_DEPTH];
            for (int d = 0; d < TABLE_DEPTH; d++) {
                table[d] = new HeaderEntry(me.mac(), 0x0200_0000_0007L, 100 + d, myIp,
                        v6 ? ipv6(7) : new byte[] {10, 0, 0, 7}, 0xC000 + d, me.xpu(), 7, d & 0xf, 0x50 + d);
            }
            return new Peers(me, table);
        }

        /** The frame the reference codec builds for a PDU to its table destination. */
        public byte[] frame(NetConfig net, Pdu p) {
            return FrameCodec.encode(net, table[p.meta().dstXpu()], ReliabilityHeader.of(p.meta(), net.rhVersion()),
                    p.commands());
        }

        /** Writes every table entry into a transmitter's header table, one per cycle. */
        public void loadTable(Simulator sim, NetConfig net) {
            for (int d = 0; d < table.length; d++) {
                sim.poke("tbl_wr_valid", 1);
                sim.poke("tbl_wr_addr", d);
                sim.poke("tbl_wr_data", headerTemplate(net, table[d]));
                sim.step();
            }
            sim.poke("tbl_wr_valid", 0);
        }

        /** Sets a receiver's local_xpu, local_ip (the IP formats have it) and local_partition inputs. */
        public void setIdentity(Simulator sim) {
            sim.poke("local_xpu", me.xpu());
            if (sim.topPorts().stream().anyMatch(s -> s.signal().name().equals("local_ip"))) {
                sim.poke("local_ip", new BigInteger(1, me.ip()));
            }
            sim.poke("local_partition", me.partition());
        }
    }

    /** A receive packet FIFO deep enough for three of the largest frames on this bus (a power of two). */
    public static int fifoDepth(int dataWidth) {
        return Integer.highestOneBit(3 * 4200 / (dataWidth / 8)) * 2;
    }

    public LoopbackRun(NetConfig net, int dataWidth) {
        this.net = net;
        this.dataWidth = dataWidth;
        peers = Peers.of(net);
        me = peers.me();
        table = peers.table();
        sim = Simulator.compile(Design.elaborate(new FramingLoopback(
                new FrameTransmitter.Config(dataWidth, net, TABLE_DEPTH),
                new FrameReceiver.Config(dataWidth, net, fifoDepth(dataWidth)))));
        sim.reset();
        peers.loadTable(sim, net);
        peers.setIdentity(sim);
    }

    /** Random PDUs of 1..maxCommands command bytes to random table destinations, in this receiver's partition. */
    public List<Pdu> randomPdus(Random rnd, int count, int maxCommands) {
        List<Pdu> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] c = new byte[1 + rnd.nextInt(maxCommands)];
            rnd.nextBytes(c);
            list.add(new Pdu(c, new SueMeta(rnd.nextInt(TABLE_DEPTH), rnd.nextInt(1024), rnd.nextInt(4),
                    rnd.nextInt(1 << 16), rnd.nextInt(4), rnd.nextInt(1 << 16), me.partition(), rnd.nextInt(4), false,
                    c.length)));
        }
        return list;
    }

    /** The frame the reference codec builds for a PDU. */
    public byte[] expectedFrame(Pdu p) {
        return peers.frame(net, p);
    }

    /**
     * Sends the PDUs (call once per instance: it attaches its monitors to the simulator). {@code validPercent} and
     * {@code readyPercent} below 100 add random input gaps / output backpressure; {@code linkSink} (may be null) sees
     * every frame on the link, e.g. a pcap file.
     */
    public Result run(List<Pdu> pdus, Random rnd, int validPercent, int readyPercent,
                      java.util.function.BiConsumer<byte[], Long> linkSink) {
        StreamSource source = new StreamSource(sim, "s_axis");
        StreamMonitor link = new StreamMonitor(sim, "tx.m_axis", linkSink);
        StreamMonitor delivered = new StreamMonitor(sim, "m_axis", null);
        for (Pdu p : pdus) {
            source.add(p.commands(), p.meta().pack());
        }
        long start = sim.cycle();
        long quiet = 0;
        while (quiet < 200) {
            source.drive(rnd, validPercent);
            sim.poke("m_axis_tready", readyPercent >= 100 || rnd.nextInt(100) < readyPercent ? 1 : 0);
            source.advance();
            long before = delivered.packets().size() + link.packets().size();
            sim.step();
            boolean busy = !source.idle() || delivered.packets().size() + link.packets().size() != before;
            quiet = busy ? 0 : quiet + 1;
            if (sim.cycle() - start > 100L * (pdus.size() + 10) * (4200 * 8 / dataWidth + 10)) {
                throw new IllegalStateException("loopback did not drain: " + delivered.packets().size() + " of "
                        + pdus.size() + " delivered");
            }
        }
        Map<String, Long> counters = new LinkedHashMap<>();
        for (DropReason r : DropReason.values()) {
            if (r.fromMac()) {
                continue; // no MAC flag on this receiver
            }
            counters.put("drops_" + r.name().toLowerCase(), sim.peek("drops_" + r.name().toLowerCase()));
        }
        for (String s : List.of("frames_good", "drops_overflow", "internal_error", "fifo_drops_judged")) {
            counters.put(s, sim.peek(s));
        }
        long last = delivered.packets().isEmpty() ? start : delivered.packets().get(delivered.packets().size() - 1).cycle();
        return new Result(link.packets(), delivered.packets(), last - start + 1, source.firstBeatCycle(), counters);
    }

    /** A header-table word: {@link FrameCodec#headerTemplate} with header byte j in bits [8j+7:8j]. */
    public static BigInteger headerTemplate(NetConfig net, HeaderEntry e) {
        byte[] b = FrameCodec.headerTemplate(net, e);
        byte[] r = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            r[i] = b[b.length - 1 - i];
        }
        return new BigInteger(1, r);
    }

    /** fd00::xx, a unique local address. */
    public static byte[] ipv6(int last) {
        byte[] a = new byte[16];
        a[0] = (byte) 0xfd;
        a[15] = (byte) last;
        return a;
    }
}
