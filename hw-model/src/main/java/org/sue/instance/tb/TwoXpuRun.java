package org.sue.instance.tb;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongConsumer;
import org.sue.cmd.CommandPath;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.tb.CommandReceiver;
import org.sue.cmd.tb.CommandSender;
import org.sue.cmd.tb.RandomCommands;
import org.sue.core.Design;
import org.sue.instance.SueInstance;
import org.sue.lib.stream.tb.PacketBeats;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.net.HeaderEntry;
import org.sue.net.HeaderFormat;
import org.sue.net.LocalIdentity;
import org.sue.net.NetConfig;
import org.sue.net.tb.LoopbackRun;
import org.sue.net.tb.PcapWriter;
import org.sue.sim.Simulator;

/**
 * XPU A - SUE A - link - SUE B - XPU B in the JVM simulator: each XPU sends random commands to the other on random
 * VCs (traffic both ways, so ACKs ride on data) and returns receive credits with random delays; each direction of the
 * link is a {@link LinkModel} (delay, loss, bit errors, bursts, outage). {@link #run} goes on until every command is
 * delivered, every credit is back and both retransmit stores are empty, and fails with the state of the stuck side
 * when nothing is delivered for a while.
 */
public final class TwoXpuRun {
    /** What one direction did. */
    public record Direction(int commands, int delivered, long bytes, long frames, long framesLost, long framesDamaged,
                            long retransmitted, long timeouts, long nacksSent, long acksOnly, long[] latencies,
                            long[] deliveries, long lastLossCycle) {
        /** Latency percentile in cycles (first beat in at the sender to first beat out at the receiver). */
        public long latency(double p) {
            if (latencies.length == 0) {
                return -1;
            }
            return latencies[(int) Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
        }

        /** The end of the longest pause between two deliveries (after a loss: when delivery resumed). */
        public long longestPauseEnd() {
            long best = -1;
            long end = -1;
            for (int i = 1; i < deliveries.length; i++) {
                if (deliveries[i] - deliveries[i - 1] > best) {
                    best = deliveries[i] - deliveries[i - 1];
                    end = deliveries[i];
                }
            }
            return end;
        }
    }

    /** What an XPU sends: the VC and the command, drawn for each command. */
    public interface Mix {
        Queued next(Random rnd, org.sue.cmd.CommandTable table);
    }

    /** A command on a VC. */
    public record Queued(int vc, CommandCodec.Command command) {
    }

    /** Random types of the table, random control bytes, 0..256 data bytes, random VCs. */
    public static final Mix RANDOM = (rnd, table) -> {
        int[] types = table.definedTypes();
        int t = types[rnd.nextInt(types.length)];
        CommandCodec.Command c = new CommandCodec.Command(t, RandomCommands.bytes(rnd, table.controlBytes(t)),
                RandomCommands.bytes(rnd, table.hasData(t) ? rnd.nextInt(257) : 0));
        return new Queued(rnd.nextInt(4), c);
    };

    /** Commands of one type with data carrying {@code dataBytes} bytes, all on VC 0. */
    public static Mix fixed(int dataBytes) {
        return (rnd, table) -> {
            int t = java.util.Arrays.stream(table.definedTypes()).filter(table::hasData).findFirst().orElseThrow();
            return new Queued(0, new CommandCodec.Command(t, RandomCommands.bytes(rnd, table.controlBytes(t)),
                    RandomCommands.bytes(rnd, dataBytes)));
        };
    }

    public record Result(Direction aToB, Direction bToA, long cycles, boolean intact, boolean creditsBack,
                         boolean storesEmpty, String countersMismatch) {
        public boolean ok() {
            return intact && creditsBack && storesEmpty && countersMismatch == null;
        }
    }

    private static final int XPU_A = 1;
    private static final int XPU_B = 2;

    private final SueInstance.Config config;
    private final Side a;
    private final Side b;
    private final Random rnd;
    private final PcapWriter pcap;
    private int rxReturnPercent = 70;
    private int txValidPercent = 90;

    /** One instance and everything around it. */
    private final class Side {
        final String name;
        final int xpu;
        final Simulator sim;
        final LocalIdentity me;
        final CommandSender tx;
        final CommandReceiver rx;
        final PacketBeats macIn;
        final LinkModel toPeer;
        final Map<Integer, List<CommandCodec.Command>> sent = new HashMap<>();
        final int[] sentCount = new int[1];
        long bytesSent;

        Side(String name, int xpu, Simulator sim, LinkModel toPeer) {
            this.name = name;
            this.xpu = xpu;
            this.sim = sim;
            this.toPeer = toPeer;
            me = identity(xpu);
            CommandPath.Config path = config.path();
            sim.reset();
            tx = new CommandSender(sim, path.dataWidth(), path.cmdCredits(), path.dataCredits());
            rx = new CommandReceiver(sim, path.dataWidth(), path.table(), config.rxCmdCredits(),
                    config.rxDataCredits(), "rx_xpuid");
            macIn = new PacketBeats(sim, "s_axis");
            new StreamMonitor(sim, "m_axis", (frame, cycle) -> {
                toPeer.send(frame, cycle);
                if (pcap != null) {
                    pcap.write(frame, cycle);
                }
            });
        }

        void setUp(Side peer) {
            sim.poke("local_xpu", me.xpu());
            if (sim.topPorts().stream().anyMatch(s -> s.signal().name().equals("local_ip"))) {
                sim.poke("local_ip", new BigInteger(1, me.ip()));
            }
            sim.poke("local_partition", me.partition());
            sim.poke("vc_ready", 0xf);
            sim.poke("m_axis_tready", 1);
            sim.poke("s_axis_tvalid", 0);
            sim.poke("rx_credit", 0);
            sim.poke("tx_valid", 0);
            sim.poke("rx_reset_in", 0);
            sim.poke("tx_reset_in", 0);
            // the header table row of the peer: its addresses, ours as source
            HeaderEntry e = new HeaderEntry(peer.me.mac(), me.mac(), 100 + peer.xpu, peer.me.ip(), me.ip(),
                    0xC000 + xpu, peer.me.xpu(), me.xpu(), 7, 0x50 + xpu);
            sim.poke("tbl_wr_valid", 1);
            sim.poke("tbl_wr_addr", peer.xpu);
            sim.poke("tbl_wr_data", LoopbackRun.headerTemplate(config.net(), e));
        }

        void add(int commands, int peerXpu, Mix mix) {
            for (int i = 0; i < commands; i++) {
                Queued q = mix.next(rnd, config.path().table());
                CommandCodec.Command c = q.command();
                int vc = q.vc();
                tx.add(peerXpu, vc, c);
                sent.computeIfAbsent(vc, k -> new ArrayList<>()).add(c);
                bytesSent += c.data().length + c.control().length;
                sentCount[0]++;
            }
        }

        /** Inputs of one cycle, before the clock edge. */
        void drive(long now) {
            tx.drive(rnd, txValidPercent);
            sim.poke("rx_credit", rxReturnPercent >= 100 ? rx.creditReturnPrompt() : rx.creditReturn(rnd, rxReturnPercent));
            rx.sample();
            if (macIn.idle()) {
                byte[] f = peerLink().arrived(now);
                if (f != null) {
                    macIn.start(f, null);
                }
            }
            if (!macIn.idle()) {
                macIn.offer(true, null);
                macIn.advance();
            } else {
                sim.poke("s_axis_tvalid", 0);
            }
        }

        LinkModel peerLink() {
            return this == a ? b.toPeer : a.toPeer;
        }

        long counter(String port) {
            return sim.peek(port);
        }

        boolean delivered(Side from) {
            return rx.delivered().size() == from.sentCount[0];
        }

        String state() {
            return name + ": store records " + counter("tp_tx_store_records") + ", beats "
                    + counter("tp_tx_store_used_beats") + ", retransmitting " + counter("tp_tx_retransmitting_any")
                    + ", sent " + tx.sent() + " (queued " + tx.queued() + "), delivered here " + rx.delivered().size()
                    + ", retransmitted " + counter("tp_tx_retransmitted_pdus") + ", timeouts "
                    + counter("tp_tx_timeouts") + ", NACKs received " + counter("tp_tx_nacks_received")
                    + ", out-of-order dropped " + counter("tp_rx_out_of_order_dropped") + ", frames good "
                    + counter("net_frames_good") + ", bad FCS " + counter("net_drops_bad_fcs") + "; inside: "
                    + internals();
        }

        /** The retransmission's and the writer's registers, for a stuck run. */
        String internals() {
            StringBuilder b = new StringBuilder();
            for (String r : new String[] {"walk_state", "walk_conn", "walk_from", "walk_idx", "walk_beats", "store_rt",
                    "store_rh", "store_wp", "store_rp", "new_mid_pdu", "new_first", "new_pdu_valid", "tx_arb_held",
                    "tx_arb_held_index", "retx_data_valid", "reclaim_rd", "retx_requests_fifo.count"}) {
                try {
                    b.append(r).append('=').append(sim.peek("transport_tx." + r)).append(' ');
                } catch (IllegalArgumentException e) {
                    b.append(r).append("=? ");
                }
            }
            return b.toString();
        }
    }

    /**
     * @param config   the instance configuration of both sides
     * @param delay    cycles a frame spends on the link each way
     * @param faults   what the link does to frames (the same each way, independently seeded)
     * @param seed     seeds commands, credits and the links
     * @param pcapFile both directions' frames, or null
     */
    public TwoXpuRun(SueInstance.Config config, int delay, LinkModel.Faults faults, long seed, Path pcapFile) {
        if (config.net().format() != HeaderFormat.ETH_IPV4_UDP && config.net().format() != HeaderFormat.ETH_IPV6_UDP
                && config.net().format() != HeaderFormat.AFH_GEN2_NORMAL
                && config.net().format() != HeaderFormat.AFH_GEN2_COMPRESSED
                && config.net().format() != HeaderFormat.AFH_GEN1) {
            throw new IllegalArgumentException("TwoXpuRun: unknown header format " + config.net().format());
        }
        this.config = config;
        rnd = new Random(seed);
        pcap = pcapFile == null ? null : new PcapWriter(pcapFile);
        Design design = Design.elaborate(new SueInstance(config));
        a = new Side("A", XPU_A, Simulator.compile(design), new LinkModel(delay, faults, new Random(seed + 1)));
        b = new Side("B", XPU_B, Simulator.compile(design), new LinkModel(delay, faults, new Random(seed + 2)));
        a.setUp(b);
        b.setUp(a);
        step();
        a.sim.poke("tbl_wr_valid", 0);
        b.sim.poke("tbl_wr_valid", 0);
        while (a.sim.peek("tx_reset_out") == 1 || b.sim.peek("tx_reset_out") == 1) {
            step();
        }
    }

    /** How often the receiving XPUs return a credit, in percent of cycles; 100: at once, on the VC that holds one. */
    public TwoXpuRun rxReturnPercent(int p) {
        rxReturnPercent = p;
        return this;
    }

    public TwoXpuRun txValidPercent(int p) {
        txValidPercent = p;
        return this;
    }

    private void step() {
        a.sim.step();
        b.sim.step();
    }

    private static LocalIdentity identity(int xpu) {
        return new LocalIdentity(0x0200_0000_0000L | xpu, new byte[] {10, 0, 0, (byte) xpu}, xpu, 0x123);
    }

    /**
     * Sends {@code commandsAToB} from A and {@code commandsBToA} from B and runs until all is delivered and settled;
     * {@code progress} (or null) hears the cycle now and then. Throws with both sides' state when no command is
     * delivered for {@code stallCycles}.
     */
    public Result run(int commandsAToB, int commandsBToA, long stallCycles, LongConsumer progress) {
        return run(commandsAToB, commandsBToA, RANDOM, stallCycles, progress);
    }

    /** Like {@link #run(int, int, long, LongConsumer)} with the commands drawn from {@code mix}. */
    public Result run(int commandsAToB, int commandsBToA, Mix mix, long stallCycles, LongConsumer progress) {
        a.add(commandsAToB, XPU_B, mix);
        b.add(commandsBToA, XPU_A, mix);
        long start = a.sim.cycle();
        long lastProgress = start;
        int deliveredBefore = 0;
        long quiet = 0;
        while (quiet < 3 * config.transport().destinations() + 100) {
            long now = a.sim.cycle();
            a.drive(now);
            b.drive(now);
            step();
            int delivered = a.rx.delivered().size() + b.rx.delivered().size();
            if (delivered != deliveredBefore) {
                deliveredBefore = delivered;
                lastProgress = now;
            }
            boolean settled = a.delivered(b) && b.delivered(a) && a.tx.idle() && b.tx.idle() && a.rx.held() == 0
                    && b.rx.held() == 0 && a.tx.creditsBack() && b.tx.creditsBack() && a.toPeer.empty()
                    && b.toPeer.empty() && a.counter("tp_tx_store_records") == 0
                    && b.counter("tp_tx_store_records") == 0;
            quiet = settled ? quiet + 1 : 0;
            boolean waiting = !(a.delivered(b) && b.delivered(a));
            if (waiting && now - lastProgress > stallCycles) {
                throw new IllegalStateException("two-XPU run: nothing delivered for " + stallCycles + " cycles at cycle "
                        + now + "\n  " + a.state() + "\n  " + b.state());
            }
            if (progress != null && now % 65536 == 0) {
                progress.accept(now - start);
            }
        }
        if (pcap != null) {
            pcap.close();
        }
        long cycles = a.sim.cycle() - start;
        boolean intact = matches(a, b) && matches(b, a);
        boolean credits = a.tx.creditsBack() && b.tx.creditsBack() && a.rx.creditsBack() && b.rx.creditsBack();
        boolean stores = a.counter("tp_tx_store_used_beats") == 0 && b.counter("tp_tx_store_used_beats") == 0;
        String mismatch = countersAgree(a, b);
        if (mismatch == null) {
            mismatch = countersAgree(b, a);
        }
        return new Result(direction(a, b), direction(b, a), cycles, intact, credits, stores, mismatch);
    }

    /** Everything {@code from} sent arrived at {@code to} once, unchanged, in order per VC, from {@code from}. */
    private static boolean matches(Side from, Side to) {
        return to.rx.delivered().stream().allMatch(d -> d.src() == from.xpu) && got(to).equals(from.sent);
    }

    /** What {@code to}'s XPU received, per VC, in order. */
    private static Map<Integer, List<CommandCodec.Command>> got(Side to) {
        Map<Integer, List<CommandCodec.Command>> got = new HashMap<>();
        for (CommandReceiver.Delivered d : to.rx.delivered()) {
            got.computeIfAbsent(d.vc(), k -> new ArrayList<>()).add(d.command());
        }
        return got;
    }

    /** An output of instance A (a counter, a status) as it is now. */
    public long peekA(String port) {
        return a.sim.peek(port);
    }

    public long peekB(String port) {
        return b.sim.peek(port);
    }

    /** Commands XPU A sent so far, per VC, in order. */
    public Map<Integer, List<CommandCodec.Command>> sentAToB() {
        return a.sent;
    }

    public Map<Integer, List<CommandCodec.Command>> gotAToB() {
        return got(b);
    }

    public Map<Integer, List<CommandCodec.Command>> sentBToA() {
        return b.sent;
    }

    public Map<Integer, List<CommandCodec.Command>> gotBToA() {
        return got(a);
    }

    /** Frames the link delivered to {@code to} intact were judged good there; damaged ones failed the FCS. */
    private static String countersAgree(Side from, Side to) {
        long arrived = from.toPeer.sent() - from.toPeer.lost();
        long good = to.counter("net_frames_good");
        long badFcs = to.counter("net_drops_bad_fcs");
        if (badFcs != from.toPeer.damaged() || good + badFcs != arrived) {
            return from.name + " -> " + to.name + ": link delivered " + arrived + " frames (" + from.toPeer.damaged()
                    + " damaged), receiver judged " + good + " good and " + badFcs + " with a bad FCS";
        }
        return null;
    }

    private static Direction direction(Side from, Side to) {
        List<long[]> starts = from.tx.starts();
        List<Long> ends = to.rx.deliveryCycles();
        // per VC order is kept, so the i-th delivered command of a VC is the i-th sent on it
        Map<Long, List<Long>> startsPerVc = new HashMap<>();
        for (long[] s : starts) {
            startsPerVc.computeIfAbsent(s[1], k -> new ArrayList<>()).add(s[2]);
        }
        Map<Long, Integer> seen = new HashMap<>();
        long[] lat = new long[ends.size()];
        for (int i = 0; i < ends.size(); i++) {
            long vc = to.rx.delivered().get(i).vc();
            int k = seen.merge(vc, 1, Integer::sum) - 1;
            lat[i] = ends.get(i) - startsPerVc.get(vc).get(k);
        }
        Arrays.sort(lat);
        return new Direction(from.sentCount[0], to.rx.delivered().size(), from.bytesSent, from.toPeer.sent(),
                from.toPeer.lost(), from.toPeer.damaged(), from.counter("tp_tx_retransmitted_pdus"),
                from.counter("tp_tx_timeouts"), to.counter("tp_rx_nacks_sent"), to.counter("tp_tx_ack_only_sent"),
                lat, ends.stream().mapToLong(Long::longValue).toArray(), from.toPeer.lastLossCycle());
    }

    /** The default configuration's instance and net format name, for summaries. */
    public static String describe(SueInstance.Config c) {
        NetConfig n = c.net();
        return n.format() + ", " + c.busWidth() + "-bit bus, " + c.path().destinations() + " destinations";
    }
}
