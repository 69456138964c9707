package org.sue.instance.tb;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import org.sue.core.Design;
import org.sue.cmd.CommandTable;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.tb.RandomCommands;
import org.sue.instance.SueInstance;
import org.sue.instance.SueManagedInstance;
import org.sue.mgmt.RegisterMap;
import org.sue.mgmt.tb.AxiLiteDriver;
import org.sue.net.NetConfig;
import org.sue.net.tb.PcapWriter;
import org.sue.sim.Simulator;

/**
 * XPU A - SUE A - link - SUE B - XPU B in the JVM simulator: each XPU sends random commands to the other on random
 * VCs (traffic both ways, so ACKs ride on data) and returns receive credits with random delays; each direction of the
 * link is a {@link LinkModel} (delay, loss, bit errors, bursts, outage), one per port for instances of 2 or 4 ports
 * ({@link #portUp} takes one down), or the sides meet at a {@link Relay} ({@link #throughRelay}, one port). {@link #run} goes on until every command is
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

        /** Cycles from the first delivery to the last. */
        public long deliverySpan() {
            return deliveries[deliveries.length - 1] - deliveries[0];
        }

        /** Command bytes delivered per cycle over {@link #deliverySpan}. */
        public double bytesPerCycle() {
            return (double) bytes / deliverySpan();
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
        Queued next(Random rnd, CommandTable table);
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

    /**
     * Commands of the first type with data, carrying {@code minData}..{@code maxData} bytes, on VC 0 or 1: PDUs of a
     * few large commands on two VCs (the flow-control runs).
     */
    public static Mix twoVcs(int minData, int maxData) {
        return (rnd, table) -> {
            CommandCodec.Command c = fixed(minData + rnd.nextInt(maxData - minData + 1)).next(rnd, table).command();
            return new Queued(rnd.nextInt(2), c);
        };
    }

    /** Commands of the first type with data, carrying {@code dataBytes} bytes, all on VC 0. */
    public static Mix fixed(int dataBytes) {
        return fixed(dataBytes, 1);
    }

    /** Like {@link #fixed(int)}, the VCs 0 .. {@code vcs} - 1 taking turns. */
    public static Mix fixed(int dataBytes, int vcs) {
        int[] next = {0};
        return (rnd, table) -> {
            int t = firstTypeWithData(table);
            int vc = next[0]++ % vcs;
            return new Queued(vc, new CommandCodec.Command(t, RandomCommands.bytes(rnd, table.controlBytes(t)),
                    RandomCommands.bytes(rnd, dataBytes)));
        };
    }

    /** The command type {@link #fixed} sends. */
    public static int firstTypeWithData(CommandTable table) {
        return Arrays.stream(table.definedTypes()).filter(table::hasData).findFirst().orElseThrow();
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
    private final XpuSide a;
    private final XpuSide b;
    private final PcapWriter pcap;
    private final Relay relay;
    private final SideClock clock;

    /**
     * @param config   the instance configuration of both sides
     * @param delay    cycles a frame spends on the link each way
     * @param faults   what the link does to frames (the same each way, independently seeded)
     * @param seed     seeds commands, credits and the links
     * @param pcapFile both directions' frames ({@link PcapWriter#of} the configuration's format), or null
     */
    public TwoXpuRun(SueInstance.Config config, int delay, LinkModel.Faults faults, long seed, Path pcapFile) {
        this(config, delay, -1, faults, seed, pcapFile, false);
    }

    /**
     * Like the constructor, each instance behind its management port ({@link SueManagedInstance}): identity,
     * header table and LLR enable written by software over the bus, counters readable with {@link #readStatus}.
     */
    public static TwoXpuRun managed(SueInstance.Config config, int delay, LinkModel.Faults faults, long seed,
                                    Path pcapFile) {
        return new TwoXpuRun(config, delay, -1, faults, seed, pcapFile, true);
    }

    /**
     * A and B each linked to a {@link Relay} by links of {@code delay} cycles each way, all four with {@code faults}
     * (independently seeded), and {@code fabricDelay} cycles across the relay: the transport's round trip is
     * 2 x (2 x delay + fabricDelay) while each hop's (LLR's) is 2 x delay. The relay's ports run the instances' LLR;
     * they have no link flow control, so the instances may have neither CBFC nor PFC.
     */
    public static TwoXpuRun throughRelay(SueInstance.Config config, int delay, int fabricDelay,
                                         LinkModel.Faults faults, long seed) {
        if (config.cbfc() != null || config.pfc() != null) {
            throw new IllegalArgumentException("TwoXpuRun.throughRelay: the relay has no link flow control, so"
                    + " config.cbfc and config.pfc must be null");
        }
        return new TwoXpuRun(config, delay, fabricDelay, faults, seed, null, false);
    }

    private TwoXpuRun(SueInstance.Config config, int delay, int fabricDelay, LinkModel.Faults faults, long seed,
                      Path pcapFile, boolean managed) {
        this.config = config;
        pcap = pcapFile == null ? null : PcapWriter.of(pcapFile, config.net().format());
        PcapOrder order = pcap == null ? null : new PcapOrder(pcap);
        Design design = Design.elaborate(managed ? new SueManagedInstance(new SueManagedInstance.Config(config))
                : new SueInstance(config));
        // each side its own random numbers: on threads of their own they must not share any
        if (fabricDelay >= 0 && config.ports() != 1) {
            throw new IllegalArgumentException("TwoXpuRun.throughRelay: the relay has one port a side, so"
                    + " config.transport.ports must be 1, got " + config.ports());
        }
        a = side("A", XPU_A, design, links(config, delay, faults, seed + 1), new Random(seed),
                order == null ? null : order.a);
        b = side("B", XPU_B, design, links(config, delay, faults, seed + 2), new Random(seed + 7),
                order == null ? null : order.b);
        if (fabricDelay < 0) {
            relay = null;
            a.connect(b);
            b.connect(a);
        } else {
            LinkModel toA = new LinkModel(delay, faults, new Random(seed + 3));
            LinkModel toB = new LinkModel(delay, faults, new Random(seed + 4));
            relay = new Relay(config.llr(), config.busWidth(), fabricDelay, a.toPeer(), toA, b.toPeer(), toB);
            a.connect(b, toA);
            b.connect(a, toB);
        }
        step();
        while (!(a.endSetUp() & b.endSetUp())) { // behind a management port: software's writes take cycles
            step();
        }
        while (a.inReset() || b.inReset()) {
            step();
        }
        a.macReadyPercent(MAC_READY_PERCENT, seed + 5);
        b.macReadyPercent(MAC_READY_PERCENT, seed + 6);
        List<SideClock.Side> sides = new ArrayList<>(List.of(SideClock.Side.of(a), SideClock.Side.of(b)));
        if (relay != null) {
            sides.add(new SideClock.Side(relay::drive, relay::step));
        }
        clock = new SideClock(sides, () -> a.sim().cycle(), delay, true);
        if (order != null) {
            order.write(); // what the set-up sent
            clock.onWindowEnd(order::write);
        }
    }

    /**
     * Whether the sides run side by side on threads of their own ({@link SideClock}: the machine has more than one
     * processor and {@value SideClock#THREADS_PROPERTY} is not 1).
     */
    public boolean parallel() {
        return clock.parallel();
    }

    /**
     * Cycles in 100 each MAC takes a beat unless {@link #macReadyPercent} says otherwise: real MACs stall their
     * transmit client (alignment markers, pause, rate adaptation), so the runs do too.
     */
    public static final int MAC_READY_PERCENT = 90;

    /** Each MAC takes a beat {@code percent} of the cycles at random (100: a MAC that never stalls). */
    public TwoXpuRun macReadyPercent(int percent) {
        a.macReadyPercent(percent, a.sim().cycle() + 5);
        b.macReadyPercent(percent, b.sim().cycle() + 6);
        return this;
    }

    /** A link per port, each with its own random numbers (port 0's from {@code seed} itself). */
    /** A link per port of {@code config}, each seeded from {@code seed}. */
    static List<LinkModel> links(SueInstance.Config config, int delay, LinkModel.Faults faults, long seed) {
        List<LinkModel> links = new ArrayList<>();
        for (int p = 0; p < config.ports(); p++) {
            links.add(new LinkModel(delay, faults, new Random(seed + 1000L * p)));
        }
        return links;
    }

    private XpuSide side(String name, int xpu, Design design, List<LinkModel> toPeer, Random rnd,
                         BiConsumer<byte[], Long> tap) {
        Simulator sim = Simulator.compile(design);
        sim.reset();
        return new XpuSide(name, xpu, config, sim, toPeer, rnd, tap);
    }

    /** How often the receiving XPUs return a credit, in percent of cycles; 100: at once, on the VC that holds one. */
    public TwoXpuRun rxReturnPercent(int p) {
        a.rxReturnPercent(p);
        b.rxReturnPercent(p);
        return this;
    }

    /** Both receiving XPUs keep their credits of the VCs in {@code mask} (bit v: VC v) until this is called again. */
    public TwoXpuRun rxHeldVcs(int mask) {
        a.rxHeldVcs(mask);
        b.rxHeldVcs(mask);
        return this;
    }

    /** Queues commands from {@code mix} on both sides, to be sent as the sides are driven ({@link #idle}, run). */
    public void add(int commandsAToB, int commandsBToA, Mix mix) {
        a.add(commandsAToB, mix);
        b.add(commandsBToA, mix);
    }

    public TwoXpuRun txValidPercent(int p) {
        a.txValidPercent(p);
        b.txValidPercent(p);
        return this;
    }

    private void step() {
        a.sim().step();
        b.sim().step();
        if (relay != null) {
            relay.step();
        }
    }

    /** Both sides (and the relay) driven for the cycle now, then the clock edge; returns that cycle. */
    private long cycle() {
        return clock.run(1);
    }

    /** As many cycles as the links' delay lets the sides run apart ({@link SideClock}). */
    private void window() {
        clock.run(clock.window());
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
        add(commandsAToB, commandsBToA, mix);
        long cycles = Settling.settle(a, b, this::window, () -> a.deliveredAll() && b.deliveredAll()
                && a.tx().idle() && b.tx().idle() && a.rx().held() == 0 && b.rx().held() == 0
                && a.tx().creditsBack() && b.tx().creditsBack()
                && a.nothingInFlightToPeer() && b.nothingInFlightToPeer()
                && (relay == null || relay.noDataInFlight())
                && a.counter("tp_tx_store_records") == 0 && b.counter("tp_tx_store_records") == 0,
                () -> a.rx().delivered().size() + b.rx().delivered().size(),
                3L * config.transport().destinations() + 100, stallCycles, progress,
                () -> "two-XPU run: nothing delivered" + (a.deliveredAll() && b.deliveredAll()
                        ? " (all delivered, not settled)" : ""));
        String mismatch = Settling.countersAtQuiet(a, b, this::window, pcap);
        boolean intact = b.deliveredIntact(true) && a.deliveredIntact(true);
        boolean credits = a.tx().creditsBack() && b.tx().creditsBack() && a.rx().creditsBack()
                && b.rx().creditsBack();
        boolean stores = a.counter("tp_tx_store_used_beats") == 0 && b.counter("tp_tx_store_used_beats") == 0;
        return new Result(direction(a, b), direction(b, a), cycles, intact, credits, stores, mismatch);
    }

    private static Direction direction(XpuSide from, XpuSide to) {
        long[][] latenciesAndDeliveries = MultiXpuRun.latenciesAndDeliveries(from, to);
        // through a relay the way has two links: what each lost or damaged; with more ports, a link per port
        List<LinkModel> way = new ArrayList<>();
        long sent = 0;
        for (int p = 0; p < from.portCount(); p++) {
            way.add(from.toPeer(p));
            if (from.toPeer(p) != to.fromPeer(p)) {
                way.add(to.fromPeer(p));
            }
            sent += from.toPeer(p).sent();
        }
        return new Direction(from.commandsSent(), to.rx().delivered().size(), from.bytesSent(),
                sent, way.stream().mapToLong(LinkModel::lost).sum(),
                way.stream().mapToLong(LinkModel::damaged).sum(),
                from.counter("tp_tx_retransmitted_pdus"), from.counter("tp_tx_timeouts"),
                to.counter("tp_rx_nacks_sent"), to.counter("tp_tx_ack_only_sent"), latenciesAndDeliveries[0],
                latenciesAndDeliveries[1],
                way.stream().mapToLong(LinkModel::lastLossCycle).max().orElse(-1));
    }

    /** Both sides driven, nothing new sent, for {@code cycles} (what is owed settles: credits, CF_Updates). */
    public void idle(long cycles) {
        clock.idle(cycles);
    }

    /** The cycle the next driven cycle is: what the links' outage windows count. */
    public long now() {
        return a.sim().cycle();
    }

    /** Frames the relay dropped as bad; 0 without a relay. */
    public long relayDropped() {
        return relay == null ? 0 : relay.dropped();
    }

    /** Frames the links into the relay damaged or flagged; 0 without a relay. */
    public long relayInboundBad() {
        return relay == null ? 0 : a.toPeer().damaged() + a.toPeer().flagged() + b.toPeer().damaged()
                + b.toPeer().flagged();
    }

    /** Side "A" or "B", for its fault knobs ({@link XpuSide#txReset}, {@link XpuSide#rxReset}, ...). */
    public XpuSide side(String side) {
        return switch (side) {
            case "A" -> a;
            case "B" -> b;
            default -> throw new IllegalArgumentException("side must be A or B, got '" + side + "'");
        };
    }

    /**
     * Takes the link between the sides down ({@code false}) or back up: both directions lose what is sent meanwhile,
     * and with LLR both instances' {@code link_up} follows. Direct links only (not {@link #throughRelay}).
     */
    public TwoXpuRun linkUp(boolean up) {
        if (relay != null) {
            throw new IllegalStateException("TwoXpuRun.linkUp: a run through a relay has a link per side; use"
                    + " side(\"A\").linkUp");
        }
        a.linkUp(up);
        b.linkUp(up);
        return this;
    }

    /** Takes port {@code port}'s link between the sides down ({@code false}) or back up, as {@link #linkUp}. */
    public TwoXpuRun portUp(int port, boolean up) {
        if (relay != null) {
            throw new IllegalStateException("TwoXpuRun.portUp: a run through a relay has a link per side");
        }
        a.linkUp(port, up);
        b.linkUp(port, up);
        return this;
    }

    /**
     * Every status register of side "A" or "B" read through its management port while both sides keep running
     * ({@link #managed} runs only), by the instance's status name ({@code tp_tx_timeouts}; the command path's
     * without a prefix); a status split into 32-bit registers is left out.
     */
    public Map<String, Long> readStatus(String side) {
        XpuSide s = side(side);
        Map<String, List<AxiLiteDriver.Access>> reads = new LinkedHashMap<>();
        for (RegisterMap.Register r : statusRegisters(side)) {
            List<AxiLiteDriver.Access> words = new ArrayList<>();
            for (int k = 0; k < r.words(); k++) { // lowest word first: it copies the others
                words.add(s.readRegister(r, k));
            }
            reads.put(managed(s).statusName(r), words);
        }
        for (long c = 0; reads.values().stream().anyMatch(w -> !w.get(w.size() - 1).done()); c++) {
            if (c > 100L * reads.size()) {
                throw new IllegalStateException("TwoXpuRun.readStatus: side " + side + " left reads unanswered");
            }
            cycle();
        }
        Map<String, Long> values = new LinkedHashMap<>();
        reads.forEach((n, w) -> {
            long v = 0;
            for (int k = 0; k < w.size(); k++) {
                v |= w.get(k).readData() << (32 * k);
            }
            values.put(n, v);
        });
        return values;
    }

    /** Writes {@code value} to register {@code block.register} of side "A" or "B" through its management port. */
    public void writeRegister(String side, String block, String register, long value) {
        XpuSide s = side(side);
        awaitAnswer(s.writeRegister(block, register, value));
    }

    /** Register {@code block.register} of side "A" or "B" (its lowest word) read through its management port. */
    public long readRegister(String side, String block, String register) {
        XpuSide s = side(side);
        AxiLiteDriver.Access a = s.readRegister(s.registerMap().register(block, register), 0);
        awaitAnswer(a);
        return a.readData();
    }

    /** Software at side "A" or "B" sends {@code frame} (without its FCS) as a raw frame through its management port. */
    public void sendRaw(String side, byte[] frame) {
        for (long word : RawFrames.words(frame)) {
            writeRegister(side, "raw_tx", "data", word);
        }
        writeRegister(side, "raw_tx", "send", frame.length);
    }

    /** The oldest raw frame in side "A" or "B"'s receive buffer, read through its management port; null if none. */
    public byte[] receiveRaw(String side) {
        int length = RawFrames.length(readRegister(side, "raw_rx", "head"));
        if (length < 0) {
            return null;
        }
        byte[] frame = new byte[length];
        for (int k = 0; 4 * k < length; k++) {
            RawFrames.put(frame, k, readRegister(side, "raw_rx", "data"));
        }
        return frame;
    }

    private void awaitAnswer(AxiLiteDriver.Access a) {
        for (int c = 0; !a.done(); c++) {
            if (c == 1000) {
                throw new IllegalStateException("TwoXpuRun: " + a + " unanswered after 1000 cycles");
            }
            cycle();
        }
    }

    /** The names {@link #readStatus} reads. */
    public List<String> statusNames(String side) {
        SueManagedInstance m = managed(side(side));
        return statusRegisters(side).stream().map(m::statusName).toList();
    }

    private List<RegisterMap.Register> statusRegisters(String side) {
        XpuSide s = side(side);
        SueManagedInstance m = managed(s);
        return s.registerMap().registers().stream().filter(r -> SueManagedInstance.isStatusBlock(r.block())
                && r.fields().get(0).width() <= 64 && s.hasStatus(m.statusName(r))).toList();
    }

    private static SueManagedInstance managed(XpuSide s) {
        return (SueManagedInstance) s.sim().design().top();
    }

    /** An output of instance A (a counter, a status) as it is now. */
    public long peekA(String port) {
        return a.counter(port);
    }

    public long peekB(String port) {
        return b.counter(port);
    }

    /** The port of side "A" or "B". */
    public long peek(String side, String port) {
        return side(side).counter(port);
    }

    /** Commands XPU A sent so far, per VC, in order; what XPU B received, likewise; and the other way. */
    public Map<Integer, List<CommandCodec.Command>> sentAToB() {
        return a.sent();
    }

    public Map<Integer, List<CommandCodec.Command>> gotAToB() {
        return b.got();
    }

    public Map<Integer, List<CommandCodec.Command>> sentBToA() {
        return b.sent();
    }

    public Map<Integer, List<CommandCodec.Command>> gotBToA() {
        return a.got();
    }

    /** The default configuration's instance and net format name, for summaries. */
    public static String describe(SueInstance.Config c) {
        NetConfig n = c.net();
        String link = (c.llr() != null ? ", LLR" : "") + (c.cbfc() != null ? ", CBFC" : c.pfc() != null ? ", PFC" : "");
        String bus = c.ports() == 1 ? c.busWidth() + "-bit bus" : c.ports() + " x " + c.portWidth() + "-bit ports on a "
                + c.busWidth() + "-bit transport" + (c.unordered() ? ", unordered" : ", strict");
        return n.format() + ", " + bus + ", " + c.path().destinations() + " destinations" + link;
    }
}
