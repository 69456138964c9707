package org.sue.instance.tb;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiConsumer;
import org.sue.cmd.CommandPath;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.tb.CommandReceiver;
import org.sue.cmd.tb.CommandSender;
import org.sue.cmd.tb.RandomCommands;
import org.sue.instance.SueInstance;
import org.sue.instance.SueManagedInstance;
import org.sue.mgmt.RegisterMap;
import org.sue.mgmt.tb.AxiLiteDriver;
import org.sue.lib.stream.tb.PacketBeats;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.link.tb.ControlPorts;
import org.sue.link.LlrSideband;
import org.sue.net.HeaderEntry;
import org.sue.net.HeaderFormat;
import org.sue.net.LocalIdentity;
import org.sue.net.NetConfig;
import org.sue.net.tb.LoopbackRun;
import org.sue.sim.Simulator;

/**
 * One side of a two-XPU setup: a simulated {@link SueInstance}, its XPU ({@link CommandSender} on {@code tx_*},
 * {@link CommandReceiver} on {@code rx_*}), its MAC output into the {@link LinkModel} towards the peer and its MAC
 * input fed from the peer's link. It drives inputs and never steps its simulator, so whoever owns the clock steps it:
 * {@link TwoXpuRun} steps both sides, a golden scenario's recorder steps the recorded instance while the stimulus
 * steps only the peer.
 *
 * <p>An instance of 2 or 4 ports has a link per port each way ({@code p<i>_m_axis}, {@code p<i>_s_axis}, its control
 * channel, {@code p<i>_link_up}); every port's header table gets the same rows, and {@link #linkUp(int, boolean)} takes
 * one port's link down.
 *
 * <p>Use: {@link #connect} once both sides exist (identity, static inputs, the header table row of the peer, written
 * at the next edge), {@link #endSetUp} after that edge, then {@link #drive} once per cycle before the edge; frames
 * leave through the link when their last beat crosses {@code m_axis} at the edge. Behind a switch an XPU talks to
 * several: {@link #connect(List, LinkModel)} writes a header table row per peer, one an edge.
 *
 * <p>Faults, each a knob that acts from the next {@link #drive}: {@link #txReset} and {@link #rxReset} (the XPU's
 * interface resets, docs/protocol.md 11.7), {@link #holdRxCredits} (receive credits withheld for a window),
 * {@link #macReadyPercent} (the MAC takes a beat only some cycles), {@link #linkUp} (the link and, with LLR, the
 * PCS status), {@link #llrEnable} and {@link #frozen} (the XPU and its MAC stop). What a reset cuts is kept out of
 * the exactly-once checks: a command the transmit reset abandons counts as never sent; a receive reset loses the command it cuts and the rest of that
 * command's PDU, so {@link #intactFrom} accepts, at each cut, a gap of at least one command in that stream.
 */
public final class XpuSide {
    private final String name;
    private final int xpu;
    private final SueInstance.Config config;
    private final Simulator sim;
    private final LocalIdentity me;
    private final Random rnd;
    private final CommandSender tx;
    private final CommandReceiver rx;
    /** The instance's path in the design: its registers for a stuck run. */
    private final String inside;
    /** The instance's MAC ports, each with its links: one, or {@code transport.ports} of them. */
    private final List<MacPort> ports = new ArrayList<>();
    /** Queued commands per destination, per VC, in order. */
    private final Map<Integer, Map<Integer, List<CommandCodec.Command>>> sent = new HashMap<>();
    /** Per source, per VC: the commands of that stream delivered before each receive-reset cut. */
    private final Map<Integer, Map<Integer, List<Integer>>> cuts = new HashMap<>();
    /** Commands delivered per source (what {@link #drive} has seen of the receiver's list). */
    private final Map<Integer, Integer> gotFrom = new HashMap<>();
    private final List<CommandSender.Abandoned> abandoned = new ArrayList<>();
    private final List<HeaderEntry> rowsToWrite = new ArrayList<>();
    /** Behind a management port ({@link SueManagedInstance}): software's bus and the map; else null. */
    private final AxiLiteDriver mgmt;
    private final RegisterMap regs;
    /** Where the instance's status outputs are: its own ports, or its child's behind a management port. */
    private final String statusPrefix;
    /** Software's gaps on the management bus: none (it draws a number a cycle all the same). */
    private final Random mgmtPace = new Random(0);
    private XpuSide peer;
    private int sentCount;
    private long bytesSent;
    private int rxReturnPercent = 70;
    private int rxHeldVcs; // VCs (bit v: VC v) whose receive credits the XPU keeps
    private int txValidPercent = 90;
    private int rxHoldMask; // VCs withheld for a window, up to rxHoldUntil
    private long rxHoldUntil;
    private int rxResetLeft;
    private boolean rxResetOn;
    private int cutCount;
    private boolean llrEnable = true;
    private boolean llrEnablePoked;
    private int deliveriesSeen;
    private boolean frozen;

    /**
     * @param name   for messages ("A", "peer")
     * @param xpu    this XPU's id (local_xpu)
     * @param config the instance's configuration
     * @param sim    the instance's simulator, out of reset (the XPU drivers start from its current state)
     * @param toPeer the link this side's frames go into
     * @param rnd    commands, valid gaps and credit returns
     * @param tap    hears every frame this side sends (a pcap file), or null
     */
    public XpuSide(String name, int xpu, SueInstance.Config config, Simulator sim, LinkModel toPeer, Random rnd,
                   BiConsumer<byte[], Long> tap) {
        this(name, xpu, config, sim, List.of(toPeer), rnd, tap, true);
    }

    /** Like the first constructor for an instance of several ports: {@code toPeer} has a link per port. */
    public XpuSide(String name, int xpu, SueInstance.Config config, Simulator sim, List<LinkModel> toPeer, Random rnd,
                   BiConsumer<byte[], Long> tap) {
        this(name, xpu, config, sim, toPeer, rnd, tap, true);
    }

    /**
     * Like the second constructor (a link per port); without {@code fifoInterface} the design's XPU is not on the FIFO
     * interface (an {@code SueAxiInstance}, the instance its child {@code sue}): this side drives the network, the
     * identity and the header table only, and whoever drives the XPU's interface does so.
     */
    public XpuSide(String name, int xpu, SueInstance.Config config, Simulator sim, List<LinkModel> toPeer,
                   Random rnd, BiConsumer<byte[], Long> tap, boolean fifoInterface) {
        if (toPeer.size() != config.ports()) {
            throw new IllegalArgumentException("XpuSide " + name + ": a link per port, " + config.ports()
                    + ", got " + toPeer.size());
        }
        this.name = name;
        this.xpu = xpu;
        this.config = config;
        this.sim = sim;
        this.rnd = rnd;
        me = identity(xpu, config.net());
        CommandPath.Config path = config.path();
        tx = fifoInterface ? new CommandSender(sim, path.dataWidth(), path.cmdCredits(), path.dataCredits()) : null;
        rx = fifoInterface ? new CommandReceiver(sim, path.dataWidth(), path.table(), config.rxCmdCredits(),
                config.rxDataCredits(), "rx_xpuid") : null;
        regs = sim.design().top() instanceof SueManagedInstance managed ? managed.registerMap() : null;
        mgmt = regs != null ? new AxiLiteDriver(sim, "s_axil") : null;
        statusPrefix = regs != null ? "sue." : "";
        inside = fifoInterface && regs == null ? "" : "sue.";
        for (int p = 0; p < toPeer.size(); p++) {
            ports.add(new MacPort(p, config.portPrefix(p), toPeer.get(p), tap));
        }
    }

    /** The addresses of XPU {@code xpu}: MAC 02:00:00:00:00:xx, IP 10.0.0.xx (IPv6: fd00::xx), partition 0x123. */
    public static LocalIdentity identity(int xpu, NetConfig net) {
        byte[] ip = net.format() == HeaderFormat.ETH_IPV6_UDP ? LoopbackRun.ipv6(xpu)
                : new byte[] {10, 0, 0, (byte) xpu};
        return new LocalIdentity(0x0200_0000_0000L | xpu, ip, xpu, 0x123);
    }

    /**
     * Joins this side to {@code other}: frames arrive from its link; pokes this side's identity and static inputs
     * and the header table row for the peer (its addresses, ours as source), written at the next clock edge.
     */
    public void connect(XpuSide other) {
        connect(List.of(other), other.ports.stream().map(MacPort::toPeer).toList());
    }

    /** Like {@link #connect(XpuSide)} with frames arriving over {@code from} (through a {@link Relay}). */
    public void connect(XpuSide other, LinkModel from) {
        connect(List.of(other), from);
    }

    /** Like {@link #connect(List, List)} for an instance of one port. */
    public void connect(List<XpuSide> others, LinkModel from) {
        connect(others, List.of(from));
    }

    /**
     * Joins this side to {@code others} (behind a switch), frames arriving over {@code from}: the static inputs and the
     * first header table row now, the others' rows one per edge ({@link #endSetUp}); {@link #add} then sends to the
     * first of them, {@link #add(int, int, TwoXpuRun.Mix)} to any.
     */
    public void connect(List<XpuSide> others, List<LinkModel> from) {
        if (from.size() != ports.size()) {
            throw new IllegalArgumentException("XpuSide.connect: a link per port, " + ports.size() + ", got "
                    + from.size());
        }
        peer = others.get(0);
        for (int p = 0; p < ports.size(); p++) {
            ports.get(p).fromPeer = from.get(p);
        }
        setting("local_xpu", BigInteger.valueOf(me.xpu()));
        if (regs != null ? regs.has("ctrl", "local_ip")
                : sim.topPorts().stream().anyMatch(s -> s.signal().name().equals("local_ip"))) {
            setting("local_ip", new BigInteger(1, me.ip()));
        }
        setting("local_partition", BigInteger.valueOf(me.partition()));
        if (tx != null) {
            setting("vc_ready", BigInteger.valueOf(0xf));
            sim.poke("rx_credit", 0);
            sim.poke("tx_valid", 0);
            sim.poke("rx_reset_in", 0);
            sim.poke("tx_reset_in", 0);
        }
        ports.forEach(MacPort::connect);
        for (XpuSide other : others) {
            rowsToWrite.add(new HeaderEntry(other.me.mac(), me.mac(), 100 + other.xpu, other.me.ip(), me.ip(),
                    0xC000 + xpu, other.me.xpu(), me.xpu(), 7, 0x50 + xpu));
        }
        writeNextRow();
    }

    private void writeNextRow() {
        HeaderEntry e = rowsToWrite.remove(0);
        BigInteger entry = LoopbackRun.headerTemplate(config.net(), e);
        if (mgmt != null) { // software: index, the entry's words, then the write (docs/management.md)
            writeRegister("hdr_table", "index", e.dstXpu());
            for (int k = 0; regs.has("hdr_table", "entry_" + k); k++) {
                writeRegister("hdr_table", "entry_" + k, word(entry, k));
            }
            writeRegister("hdr_table", "write", 1);
            return;
        }
        for (MacPort port : ports) { // every port's table the same row
            sim.poke(port.px + "tbl_wr_valid", 1);
            sim.poke(port.px + "tbl_wr_addr", e.dstXpu());
            sim.poke(port.px + "tbl_wr_data", entry);
        }
    }

    /**
     * After the edge that wrote a header table row: the next row, or the end of the set-up. Behind a management port
     * the set-up is software's writes, one a few cycles: call this after each edge until it says they are done.
     *
     * @return true when every row is written
     */
    public boolean endSetUp() {
        if (mgmt != null) {
            while (!rowsToWrite.isEmpty()) {
                writeNextRow();
            }
            mgmt.drive(mgmtPace);
            mgmt.taken();
            return mgmt.idle();
        }
        if (!rowsToWrite.isEmpty()) {
            writeNextRow();
            return false;
        }
        ports.forEach(port -> sim.poke(port.px + "tbl_wr_valid", 0));
        return true;
    }

    /** An input of the instance: its register behind a management port, else its port. */
    private void setting(String input, BigInteger value) {
        if (mgmt == null) {
            sim.poke(input, value);
            return;
        }
        RegisterMap.Register r = regs.register("ctrl", input);
        for (int k = 0; k < r.words(); k++) { // lowest word first: the highest takes them all
            mgmt.write(r.offset() + 4L * k, word(value, k), 0xf);
        }
    }

    /** Bits 32k + 31 .. 32k of {@code value}: its word k. */
    private static long word(BigInteger value, int k) {
        return value.shiftRight(32 * k).longValue() & 0xFFFF_FFFFL;
    }

    /** Queues a write of register {@code block.register} on the management port (behind one only). */
    public AxiLiteDriver.Access writeRegister(String block, String register, long value) {
        if (mgmt == null) {
            throw new IllegalStateException("XpuSide.writeRegister: " + name + " has no management port");
        }
        return mgmt.write(regs.register(block, register).offset(), value, 0xf);
    }

    /** Queues a read of word {@code word} of register {@code r} on the management port (behind one only). */
    public AxiLiteDriver.Access readRegister(RegisterMap.Register r, int word) {
        if (mgmt == null) {
            throw new IllegalStateException("XpuSide.readRegister: " + name + " has no management port");
        }
        return mgmt.read(r.offset() + 4L * word);
    }

    /** Whether the instance has a status output of that name ({@link #counter} reads it). */
    public boolean hasStatus(String port) {
        return hasSignal(statusPrefix + port);
    }

    private boolean hasSignal(String path) {
        try {
            sim.handle(path);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The register map behind the management port, or null. */
    public RegisterMap registerMap() {
        return regs;
    }

    /** True while the command interface is in reset ({@code tx_reset_out}): the XPU sends nothing yet. */
    public boolean inReset() {
        return tx != null && sim.peek("tx_reset_out") == 1;
    }

    /** Queues {@code commands} random commands (random types, sizes and VCs) to the peer. */
    public void add(int commands) {
        add(commands, TwoXpuRun.RANDOM);
    }

    /** Queues {@code commands} commands drawn from {@code mix} to the peer. */
    public void add(int commands, TwoXpuRun.Mix mix) {
        add(peer.xpu, commands, mix);
    }

    /** Queues {@code commands} commands drawn from {@code mix} to XPU {@code dst}. */
    public void add(int dst, int commands, TwoXpuRun.Mix mix) {
        for (int i = 0; i < commands; i++) {
            TwoXpuRun.Queued q = mix.next(rnd, config.path().table());
            CommandCodec.Command c = q.command();
            tx.add(dst, q.vc(), c);
            sent.computeIfAbsent(dst, k -> new HashMap<>()).computeIfAbsent(q.vc(), k -> new ArrayList<>()).add(c);
            bytesSent += c.data().length + c.control().length;
            sentCount++;
        }
    }

    /**
     * Inputs of one cycle, before the clock edge: the XPU's next beat and credits, the next beat from the link, and
     * behind a management port software's next access.
     */
    public void drive(long now) {
        if (frozen) {
            driveFrozen(now);
        } else {
            driveLive(now);
        }
        if (mgmt != null) {
            mgmt.drive(mgmtPace);
            mgmt.taken();
        }
    }

    private void driveLive(long now) {
        if (tx != null) {
            xpuInterface(now);
        }
        boolean enable = config.llr() != null && llrEnable != llrEnablePoked;
        for (MacPort port : ports) {
            port.driveLive(now, enable);
        }
        llrEnablePoked = llrEnable;
    }

    /** The XPU's commands and credits of one cycle on the FIFO interface. */
    private void xpuInterface(long now) {
        tx.drive(rnd, txValidPercent);
        if (rxResetLeft > 0) {
            receiveReset();
        } else {
            if (rxResetOn) {
                sim.poke("rx_reset_in", 0);
                rxResetOn = false;
            }
            int held = rxHeldVcs | (now < rxHoldUntil ? rxHoldMask : 0);
            sim.poke("rx_credit", rxReturnPercent >= 100 && held == 0 ? rx.creditReturnPrompt()
                    : rx.creditReturn(rnd, rxReturnPercent, held));
            rx.sample();
        }
        countDeliveries();
    }

    /**
     * A frozen XPU's cycle: it sends no command and returns no credit (its sender still counts what SUE returns), its
     * MAC takes nothing from the instance and what arrives from the link is lost (a frame half fed goes on to its end).
     */
    private void driveFrozen(long now) {
        if (tx != null) {
            tx.drive(rnd, 0);
            sim.poke("rx_credit", 0);
            rx.sample();
            countDeliveries();
        }
        ports.forEach(port -> port.driveFrozen(now));
    }

    /** A cycle of a receive reset: nothing returned, this cycle's beat taken, then the XPU's side of the reset. */
    private void receiveReset() {
        sim.poke("rx_reset_in", 1);
        rxResetOn = true;
        sim.poke("rx_credit", 0);
        rx.sample();
        CommandReceiver.Cut cut = rx.reset();
        if (cut != null) {
            int before = (int) rx.delivered().stream().filter(d -> d.src() == cut.src() && d.vc() == cut.vc()).count();
            cuts.computeIfAbsent(cut.src(), k -> new HashMap<>()).computeIfAbsent(cut.vc(), k -> new ArrayList<>())
                    .add(before);
            cutCount++;
        }
        rxResetLeft--;
    }

    private void countDeliveries() {
        List<CommandReceiver.Delivered> d = rx.delivered();
        for (; deliveriesSeen < d.size(); deliveriesSeen++) {
            gotFrom.merge(d.get(deliveriesSeen).src(), 1, Integer::sum);
        }
    }

    public XpuSide rxReturnPercent(int p) {
        rxReturnPercent = p;
        return this;
    }

    /**
     * The receiving XPU keeps its credits of the VCs in {@code mask} (bit v: VC v): those VCs back up; the sending
     * XPU then sends each VC's commands as that VC has credit (else in the order queued).
     */
    public XpuSide rxHeldVcs(int mask) {
        rxHeldVcs = mask;
        tx.independentVcs(mask != 0);
        return this;
    }

    /**
     * Withholds the receive credits of the VCs in {@code mask} (bit v: VC v) for the next {@code cycles} cycles, then
     * returns them as before. Unlike {@link #rxHeldVcs} the senders keep their order: a sender's commands behind one
     * of a held VC wait (set {@link CommandSender#independentVcs} on them for an XPU with a queue per VC).
     */
    public XpuSide holdRxCredits(int mask, long cycles) {
        rxHoldMask = mask;
        rxHoldUntil = sim.cycle() + cycles;
        return this;
    }

    /**
     * Transmit interface reset from the next cycle: {@code tx_reset_in} high for {@code cycles} cycles, the command
     * being sent abandoned (no longer counted as sent), the rest sent after SUE's reset with the initial credits
     * ({@link CommandSender#reset}).
     *
     * @return the command abandoned, or null if none was cut
     */
    public CommandSender.Abandoned txReset(int cycles) {
        CommandSender.Abandoned a = tx.reset(cycles);
        if (a != null) {
            sent.get(a.dst()).get(a.vc()).removeIf(c -> c == a.command()); // this one, not an equal one
            bytesSent -= a.command().data().length + a.command().control().length;
            sentCount--;
            abandoned.add(a);
        }
        return a;
    }

    /** Commands the transmit resets abandoned. */
    public List<CommandSender.Abandoned> abandoned() {
        return abandoned;
    }

    /**
     * Receive interface reset for the next {@code cycles} cycles ({@code rx_reset_in}): nothing is delivered, both
     * sides take back the initial credits; a command cut mid-way is lost with the rest of its PDU (see
     * {@link #receiveResetCuts}).
     */
    public XpuSide rxReset(int cycles) {
        if (cycles < 1) {
            throw new IllegalArgumentException("XpuSide.rxReset cycles must be at least 1, got " + cycles);
        }
        rxResetLeft = cycles;
        return this;
    }

    /**
     * Commands the receive resets cut, each with the rest of its PDU lost too (docs/protocol.md 11.7): at least this
     * many commands are lost, at most these PDUs' commands; SUE counts the same cuts in {@code rx_drops_reset}.
     */
    public int receiveResetCuts() {
        return cutCount;
    }

    /**
     * The MAC takes a beat on {@code m_axis} in {@code percent} of the cycles, drawn from {@code seed} (its own
     * generator, so the commands stay those of the run's seed); 100: always.
     */
    public XpuSide macReadyPercent(int percent, long seed) {
        for (int p = 0; p < ports.size(); p++) {
            macReadyPercent(p, percent, seed);
        }
        return this;
    }

    /** The same for port {@code port}'s MAC alone. */
    public XpuSide macReadyPercent(int port, int percent, long seed) {
        MacPort mac = ports.get(port); // port 0 draws from the seed itself, the others from their own
        mac.macReady = percent >= 100 ? null : new Random(seed + 7919L * port);
        mac.readyPercent = percent;
        if (mac.macReady == null) {
            sim.poke(mac.px + "m_axis_tready", 1);
        }
        return this;
    }

    /**
     * Takes this side's links down ({@code false}) or back up: both directions lose everything sent meanwhile and
     * {@code link_up} (the PCS status) follows.
     */
    public XpuSide linkUp(boolean up) {
        for (int p = 0; p < ports.size(); p++) {
            linkUp(p, up);
        }
        return this;
    }

    /** Like {@link #linkUp(boolean)} for port {@code port}'s link alone. */
    public XpuSide linkUp(int port, boolean up) {
        MacPort m = ports.get(port);
        m.toPeer.up(up);
        m.fromPeer.up(up);
        sim.poke(m.px + "link_up", up ? 1 : 0);
        return this;
    }

    /** With LLR: {@code llr_enable} from the next cycle on (on by default from the first cycle driven). */
    public XpuSide llrEnable(boolean on) {
        if (config.llr() == null) {
            throw new IllegalStateException("XpuSide.llrEnable: the instance of " + name + " has no LLR");
        }
        llrEnable = on;
        return this;
    }

    /**
     * Freezes this XPU and its MAC ({@code true}) or lets them go on: while frozen it sends nothing, returns no credit,
     * the instance's frames are not taken ({@code m_axis_tready} low) and what arrives from the link is lost; the
     * instance itself runs on (its timers, its deliveries while its XPU's credits last).
     */
    public XpuSide frozen(boolean on) {
        frozen = on;
        if (!on) {
            ports.forEach(port -> sim.poke(port.px + "m_axis_tready", port.macReady == null ? 1 : 0));
        }
        return this;
    }

    /** Frames that arrived while frozen and were lost. */
    public long frozenDropped() {
        return ports.stream().mapToLong(port -> port.frozenDropped).sum();
    }

    /** With LLR: frames that arrived here without a sequence number (sent while the peer's LLR was not in ADVANCE). */
    public long arrivedWithoutNumber() {
        return ports.stream().mapToLong(port -> port.arrived[0]).sum();
    }

    /** The XPU holds commands to a {destination, VC} between SUE's xoff and xon ({@link CommandSender#honorXoff}). */
    public XpuSide honorXoff(boolean on) {
        tx.honorXoff(on);
        return this;
    }

    public XpuSide txValidPercent(int p) {
        txValidPercent = p;
        return this;
    }

    public String name() {
        return name;
    }

    public int xpu() {
        return xpu;
    }

    public Simulator sim() {
        return sim;
    }

    public CommandSender tx() {
        return tx;
    }

    public CommandReceiver rx() {
        return rx;
    }

    /** The link this side's frames go into (port 0's). */
    public LinkModel toPeer() {
        return toPeer(0);
    }

    /** The link port {@code port}'s frames go into. */
    public LinkModel toPeer(int port) {
        return ports.get(port).toPeer;
    }

    /** The link frames from the peer arrive over (the peer's {@link #toPeer}, or a relay's; port 0's). */
    public LinkModel fromPeer() {
        return fromPeer(0);
    }

    /** The link frames from the peer arrive over at port {@code port}. */
    public LinkModel fromPeer(int port) {
        return ports.get(port).fromPeer;
    }

    /** The instance's MAC ports. */
    public int portCount() {
        return ports.size();
    }

    /** No data frame on its way from this side to the peer on any port's link. */
    public boolean nothingInFlightToPeer() {
        return ports.stream().allMatch(p -> p.toPeer.noDataInFlight());
    }

    /** Commands queued to the peer so far. */
    public int commandsSent() {
        return sentCount;
    }

    /** Control and data bytes of those commands. */
    public long bytesSent() {
        return bytesSent;
    }

    /** An output of the instance (a counter). */
    public long counter(String port) {
        return sim.peek(statusPrefix + port);
    }

    /** What this XPU queued to the peer, per VC, in order. */
    public Map<Integer, List<CommandCodec.Command>> sent() {
        return sentTo(peer.xpu);
    }

    /** What this XPU queued to XPU {@code dst}, per VC, in order. */
    public Map<Integer, List<CommandCodec.Command>> sentTo(int dst) {
        return sent.getOrDefault(dst, Map.of());
    }

    /** What this XPU received, per VC, in order. */
    public Map<Integer, List<CommandCodec.Command>> got() {
        Map<Integer, List<CommandCodec.Command>> got = new HashMap<>();
        for (CommandReceiver.Delivered d : rx.delivered()) {
            got.computeIfAbsent(d.vc(), k -> new ArrayList<>()).add(d.command());
        }
        return got;
    }

    /** Everything the peer sent has arrived here (but what receive resets cut). */
    public boolean deliveredAll() {
        return deliveredAllFrom(peer);
    }

    /** Everything {@code src} queued to this XPU has arrived here, but what receive resets cut. */
    public boolean deliveredAllFrom(XpuSide src) {
        int queued = src.sentTo(xpu).values().stream().mapToInt(List::size).sum();
        int got = gotFrom.getOrDefault(src.xpu, 0);
        return cuts.containsKey(src.xpu) ? got + lostFrom(src) == queued : got == queued;
    }

    /**
     * What arrived here came from the peer once, unchanged and in order per VC: per VC, a prefix of what it sent
     * ({@code complete}: all of it), with a gap at each receive-reset cut.
     */
    public boolean deliveredIntact(boolean complete) {
        return rx.delivered().stream().allMatch(d -> d.src() == peer.xpu) && intactFrom(peer, complete) == null;
    }

    /** What arrived here from {@code src}, per VC, in order. */
    public Map<Integer, List<CommandCodec.Command>> gotFrom(XpuSide src) {
        Map<Integer, List<CommandCodec.Command>> got = new HashMap<>();
        for (CommandReceiver.Delivered d : rx.delivered()) {
            if (d.src() == src.xpu) {
                got.computeIfAbsent(d.vc(), k -> new ArrayList<>()).add(d.command());
            }
        }
        return got;
    }

    /**
     * Null if what arrived here from {@code src} came once, unchanged and in order per VC: what {@code src} queued to
     * this XPU ({@code complete}) or a prefix of it, where a receive reset cut a command a gap of at least one command;
     * else the first VC where it is not so.
     */
    public String intactFrom(XpuSide src, boolean complete) {
        Map<Integer, List<CommandCodec.Command>> got = gotFrom(src);
        for (int vc = 0; vc < 4; vc++) {
            if (lost(src, vc, got, complete) < 0) {
                return src.name + " -> " + name + " VC " + vc + ": " + got.getOrDefault(vc, List.of()).size()
                        + " delivered of " + src.sentTo(xpu).getOrDefault(vc, List.of()).size() + " queued, "
                        + cuts.getOrDefault(src.xpu, Map.of()).getOrDefault(vc, List.of()).size()
                        + " receive-reset cuts: not those commands, once and in order";
            }
        }
        return null;
    }

    /** Commands from {@code src} lost to receive resets (the cut ones and the rest of their PDUs). */
    public int lostFrom(XpuSide src) {
        Map<Integer, List<CommandCodec.Command>> got = gotFrom(src);
        int lost = 0;
        for (int vc = 0; vc < 4; vc++) {
            lost += Math.max(0, lost(src, vc, got, false));
        }
        return lost;
    }

    /**
     * One stream's commands lost at its cuts, -1 if what arrived is not what was queued with a gap of at least one
     * command at each cut (and, {@code complete}, all the rest). A cut after the last delivery takes the rest.
     */
    private int lost(XpuSide src, int vc, Map<Integer, List<CommandCodec.Command>> gotPerVc, boolean complete) {
        List<CommandCodec.Command> queued = src.sentTo(xpu).getOrDefault(vc, List.of());
        List<CommandCodec.Command> got = gotPerVc.getOrDefault(vc, List.of());
        List<Integer> cutsAt = cuts.getOrDefault(src.xpu, Map.of()).getOrDefault(vc, List.of());
        if (config != null && config.unordered()) {
            Arrival arrival = Arrival.of(queued, got);
            return arrival.extra() == 0 && (!complete || arrival.missing() == 0) && cutsAt.isEmpty() ? 0 : -1;
        }
        int i = 0;
        int lost = 0;
        int c = 0;
        for (int j = 0; j <= got.size(); j++) {
            int n = 0;
            for (; c < cutsAt.size() && cutsAt.get(c) == j; c++) {
                n++;
            }
            if (n > 0) {
                int k = j == got.size() ? queued.size() : i + n;
                while (k < queued.size() && j < got.size() && !queued.get(k).equals(got.get(j))) {
                    k++;
                }
                if (k - i < n || k > queued.size() || k == queued.size() && j < got.size()) {
                    return -1;
                }
                lost += k - i;
                i = k;
            }
            if (j < got.size()) {
                if (i >= queued.size() || !queued.get(i).equals(got.get(j))) {
                    return -1;
                }
                i++;
            }
        }
        return complete && i != queued.size() ? -1 : lost;
    }

    /**
     * How one stream's commands arrived in unordered mode (docs/protocol.md 10.7), where any order is right: queued and
     * not (yet) arrived, arrived more often than queued, and arrived after a command queued later (overtaken).
     */
    public record Arrival(long missing, long extra, long overtaken) {
        public static Arrival of(List<CommandCodec.Command> queued, List<CommandCodec.Command> got) {
            Map<CommandCodec.Command, Integer> owed = new HashMap<>();
            Map<CommandCodec.Command, Integer> position = new HashMap<>();
            for (int i = 0; i < queued.size(); i++) {
                owed.merge(queued.get(i), 1, Integer::sum);
                position.putIfAbsent(queued.get(i), i);
            }
            long extra = 0;
            long overtaken = 0;
            int latest = -1;
            for (CommandCodec.Command c : got) {
                extra += owed.merge(c, -1, Integer::sum) < 0 ? 1 : 0;
                int at = position.getOrDefault(c, -1);
                overtaken += at < latest ? 1 : 0;
                latest = Math.max(latest, at);
            }
            return new Arrival(owed.values().stream().mapToLong(n -> Math.max(0, n)).sum(), extra, overtaken);
        }
    }

    /** How the commands {@code src} queued here on VC {@code vc} arrived, taken as unordered ({@link Arrival}). */
    public Arrival arrivalFrom(XpuSide src, int vc) {
        return Arrival.of(src.sentTo(xpu).getOrDefault(vc, List.of()), gotFrom(src).getOrDefault(vc, List.of()));
    }

    /** No frame on its way here from the peer, none half fed to this side's MAC input: the link counts are final. */
    public boolean linkQuiet() {
        return ports.stream().allMatch(MacPort::linkQuiet);
    }

    /**
     * Frames the peer's link delivered here intact were judged good; damaged ones failed the FCS; ones the MAC
     * flagged were dropped as such; null if so.
     */
    public String countersAgreeWithLink() {
        return ports.stream().map(MacPort::countersAgreeWithLink).filter(m -> m != null).findFirst().orElse(null);
    }

    /**
     * Raw frames the filter took for the receive buffer behind a management port (they bypass the framing): the bad
     * ones, or the others (kept, or dropped for room).
     */
    private long rawFrames(boolean bad) {
        if (regs == null) {
            return 0;
        }
        return bad ? sim.peek("raw_rx.bad") : sim.peek("raw_rx.frames") + sim.peek("raw_rx.full");
    }


    /** PFC or CBFC: MAC Control frames both ways, this side's MAC address in them. */
    private boolean macControl() {
        return config.pfc() != null || config.cbfc() != null;
    }

    /** LLR or CBFC: link-control messages on ctl_out / ctl_in. */
    private boolean controlChannel() {
        return config.llr() != null || config.cbfc() != null;
    }

    /** One line of state for a stuck run. */
    public String state() {
        return name + ": store records " + counter("tp_tx_store_records") + ", beats "
                + counter("tp_tx_store_used_beats") + ", retransmitting " + counter("tp_tx_retransmitting_any")
                + (tx == null ? "" : ", sent " + tx.sent() + " (queued " + tx.queued() + "), delivered here "
                + rx.delivered().size())
                + ", retransmitted " + counter("tp_tx_retransmitted_pdus") + ", timeouts "
                + counter("tp_tx_timeouts") + ", NACKs received " + counter("tp_tx_nacks_received")
                + ", out-of-order dropped " + counter("tp_rx_out_of_order_dropped") + ", frames good "
                + counter(ports.get(0).px + "net_frames_good") + ", bad FCS "
                + counter(ports.get(0).px + "net_drops_bad_fcs") + cbfcState() + "; inside: "
                + internals();
    }

    private String cbfcState() {
        if (config.cbfc() == null) {
            return "";
        }
        String px = ports.get(0).px; // port 0's
        StringBuilder b = new StringBuilder("; CBFC in use/reserved per VC");
        for (int v = 0; v < 4; v++) {
            b.append(' ').append(counter(px + "cbfc_s_cu_" + v)).append('/').append(counter(px + "cbfc_reserved_" + v));
        }
        return b.append(", port ").append(counter(px + "cbfc_s_p_cu")).append(", CF_Updates ")
                .append(counter(px + "cbfc_cf_updates_received")).append(" in ").append(counter(px + "cbfc_cf_updates_sent"))
                .append(" out, CC_Updates ").append(counter(px + "cbfc_cc_updates_sent")).append(" out ")
                .append(counter(px + "cbfc_cc_updates_received")).append(" in, recovered ")
                .append(counter(px + "cbfc_cc_credits_recovered")).toString();
    }

    /** The retransmission's and the writer's registers, for a stuck run. */
    private String internals() {
        StringBuilder b = new StringBuilder();
        for (String r : new String[] {"walk_state", "walk_conn", "walk_from", "walk_idx", "walk_beats", "store_rt",
                "store_rh", "store_wp", "store_free_beats", "new_mid_pdu", "new_first", "new_offered", "tx_arb_held",
                "tx_arb_held_index", "retx_data_valid", "reclaim_rd"}) {
            b.append(r).append('=').append(sim.peek(inside + "transport_tx." + r)).append(' ');
        }
        return b.toString();
    }

    /**
     * One MAC port of the instance ({@code <prefix>m_axis}, {@code s_axis}, {@code ctl_*}, {@code link_up}, ...; no
     * prefix with one port) and the links to and from its peer port.
     */
    private final class MacPort {
        final int index;
        final String px;
        final PacketBeats macIn;
        final LinkModel toPeer;
        LinkModel fromPeer;
        /** With LLR: frames that arrived here without (0) and with (1) a sequence number, and the bad ones of each. */
        final long[] arrived = new long[2];
        final long[] arrivedBad = new long[2];
        Random macReady; // null: the MAC always takes a beat
        int readyPercent = 100;
        long frozenDropped;
        long frozenDroppedDamaged; // of them: a bit flipped on the link
        long frozenDroppedFlagged; // of them: flagged by the MAC

        MacPort(int index, String px, LinkModel toPeer, BiConsumer<byte[], Long> tap) {
            this.index = index;
            this.px = px;
            this.toPeer = toPeer;
            macIn = new PacketBeats(sim, px + "s_axis");
            // with LLR the frame's sideband goes along (its tuser, the same on every beat)
            new StreamMonitor(sim, px + "m_axis", tap).onPacket(p -> toPeer.send(p.bytes(),
                    config.llr() == null ? null : p.user(), p.cycle()));
        }

        LinkModel toPeer() {
            return toPeer;
        }

        /** The port's static inputs. */
        void connect() {
            sim.poke(px + "m_axis_tready", 1);
            sim.poke(px + "s_axis_tvalid", 0);
            if (macControl()) {
                setting(px + "local_mac", BigInteger.valueOf(me.mac()));
            }
            if (config.llr() != null) {
                // on at the first drive, so the INIT goes out while the link is driven
                setting(px + "llr_enable", BigInteger.ZERO);
            }
            sim.poke(px + "link_up", 1);
            if (controlChannel()) {
                sim.poke(px + "ctl_in_valid", 0);
                sim.poke(px + "ctl_out_ready", 1);
            }
        }

        /** The MAC's cycle: its ready, the next beat from the link, LLR's enable when it changed, control messages. */
        void driveLive(long now, boolean pokeEnable) {
            if (macReady != null) {
                sim.poke(px + "m_axis_tready", macReady.nextInt(100) < readyPercent ? 1 : 0);
            }
            if (macIn.idle()) {
                LinkModel.InFlight f = fromPeer.arrived(now);
                if (f != null) {
                    macIn.start(f.frame(), macVerdict(f)); // tuser: the MAC's verdict
                }
            }
            if (pokeEnable) {
                setting(px + "llr_enable", llrEnable ? BigInteger.ONE : BigInteger.ZERO);
            }
            if (controlChannel()) {
                linkControl(now);
            }
            if (!macIn.idle()) {
                macIn.offer(true, null);
                macIn.advance();
            } else {
                sim.poke(px + "s_axis_tvalid", 0);
            }
        }

        /** A frozen MAC's cycle: it takes nothing, and what arrives is lost (a frame half fed goes on to its end). */
        void driveFrozen(long now) {
            sim.poke(px + "m_axis_tready", 0);
            if (macIn.idle()) {
                for (LinkModel.InFlight f = fromPeer.arrived(now); f != null; f = fromPeer.arrived(now)) {
                    frozenDropped++;
                    frozenDroppedFlagged += f.macError() ? 1 : 0;
                    frozenDroppedDamaged += !f.macError() && f.bad() ? 1 : 0;
                }
                fromPeer.arrivedControl(now);
                sim.poke(px + "s_axis_tvalid", 0);
            } else {
                macIn.offer(true, null);
                macIn.advance();
            }
        }

        /**
         * The receiving MAC's tuser: without LLR its error flag (and, with PFC, its FCS check); with LLR the sideband
         * as sent, with {@code bad} when the MAC flags the frame or its FCS check fails.
         */
        private BigInteger macVerdict(LinkModel.InFlight f) {
            if (f.sideband() == null) { // the MAC's FCS check is what the PFC and CBFC receivers rely on
                boolean bad = macControl() ? f.bad() : f.macError();
                return bad ? BigInteger.ONE : BigInteger.ZERO;
            }
            boolean bad = f.bad();
            boolean numbered = LlrSideband.TX.field("llr").get(f.sideband()) == 1;
            arrived[numbered ? 1 : 0]++;
            arrivedBad[numbered ? 1 : 0] += bad ? 1 : 0;
            return LlrSideband.received(f.sideband(), bad);
        }

        /** Control messages out to the link (ctl_out is always ready), and at most one a cycle in from it. */
        private void linkControl(long now) {
            BigInteger out = ControlPorts.offered(sim, px);
            if (out != null) {
                toPeer.sendControl(out, now);
            }
            ControlPorts.deliver(sim, px, fromPeer.arrivedControl(now));
        }

        boolean linkQuiet() {
            return fromPeer.noFrameInFlight() && macIn.idle();
        }

        /** The way this port's frames came, for messages. */
        String way() {
            return peer.name + " -> " + name + (px.isEmpty() ? "" : " port " + index);
        }

        String countersAgreeWithLink() {
            LinkModel from = fromPeer;
            long arrived = from.sent() - from.lost() - frozenDropped;
            if (config.llr() != null) {
                return llrCountersAgreeWithLink(from, arrived);
            }
            long good = counter(px + "net_frames_good");
            long badFcs = counter(px + "net_drops_bad_fcs");
            long macErrors = counter(px + "net_drops_mac_error");
            long control = controlFrames();
            long controlBad = controlFramesDropped();
            long damaged = from.damaged() - frozenDroppedDamaged;
            long flagged = from.flagged() - frozenDroppedFlagged;
            long rawBad = rawFrames(true);
            boolean badAddUp = !macControl() && rawBad == 0 ? badFcs == damaged && macErrors == flagged
                    : badFcs + macErrors + controlBad + rawBad == damaged + flagged;
            if (!badAddUp || good + badFcs + macErrors + control + rawFrames(false) + rawBad != arrived) {
                return way() + ": link delivered " + arrived + " frames (" + damaged
                        + " damaged, " + flagged + " flagged by the MAC), receiver judged " + good + " good, "
                        + badFcs + " with a bad FCS, " + macErrors + " flagged; " + control + " MAC Control frames, "
                        + controlBad + " of them dropped";
            }
            return null;
        }

        /**
         * With LLR: the numbered frames that arrived were counted by their FCS status, the damaged and flagged ones as
         * bad; frames without a number (sent best effort while LLR was not up, PFC frames) passed unchecked; so the
         * framing and the MAC Control receivers (PFC, CBFC) together judged good exactly the frames LLR took plus the good
         * unnumbered ones, saw the bad copies of expected frames and the bad unnumbered ones as the MAC's, and the framing
         * never saw a bad FCS (the MAC flags those).
         */
        private String llrCountersAgreeWithLink(LinkModel from, long all) {
            long ok = counter(px + "llr_rx_ok");
            long bad = counter(px + "llr_rx_bad");
            long damaged = from.damaged() - frozenDroppedDamaged;
            long flagged = from.flagged() - frozenDroppedFlagged;
            boolean agree = arrived[0] + arrived[1] == all && arrivedBad[0] + arrivedBad[1] == damaged + flagged
                    && ok + bad + counter(px + "llr_rx_poisoned") == arrived[1] && bad == arrivedBad[1]
                    && counter(px + "net_frames_good") + controlFrames() - controlFramesDropped() + rawFrames(false)
                            == counter(px + "llr_rx_expected_seq_good") + arrived[0] - arrivedBad[0]
                    && counter(px + "net_drops_mac_error") + controlFramesDropped() + rawFrames(true)
                            == counter(px + "llr_rx_expected_seq_bad") + arrivedBad[0]
                    && counter(px + "net_drops_bad_fcs") == 0;
            return agree ? null : way() + ": link delivered " + all + " frames ("
                    + damaged + " damaged, " + flagged + " flagged; " + arrived[0] + " without a number, "
                    + arrivedBad[0] + " of them bad), LLR counted " + ok + " good, " + bad + " bad, took "
                    + counter(px + "llr_rx_expected_seq_good") + "; framing judged " + counter(px + "net_frames_good") + " good, "
                    + counter(px + "net_drops_mac_error") + " flagged, " + counter(px + "net_drops_bad_fcs") + " with a bad FCS";
        }

        /** MAC Control frames (PFC, CC_Update) that reached their receiver, and those of them it dropped as bad. */
        private long controlFrames() {
            return macControl() ? counter(px + "mac_control_frames") : 0;
        }

        private long controlFramesDropped() {
            return config.pfc() != null ? counter(px + "pfc_frames_dropped")
                    : config.cbfc() != null ? counter(px + "cbfc_cc_frames_dropped") : 0;
        }
    }
}
