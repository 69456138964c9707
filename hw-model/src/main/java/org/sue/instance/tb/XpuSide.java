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
 * <p>Use: {@link #connect} once both sides exist (identity, static inputs, the header table row of the peer, written
 * at the next edge), {@link #endSetUp} after that edge, then {@link #drive} once per cycle before the edge; frames
 * leave through the link when their last beat crosses {@code m_axis} at the edge.
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
    private final PacketBeats macIn;
    /** With LLR: frames that arrived here without (0) and with (1) a sequence number, and the bad ones of each. */
    private final long[] arrived = new long[2];
    private final long[] arrivedBad = new long[2];
    private final LinkModel toPeer;
    private final Map<Integer, List<CommandCodec.Command>> sent = new HashMap<>();
    private XpuSide peer;
    private LinkModel fromPeer;
    private int sentCount;
    private long bytesSent;
    private int rxReturnPercent = 70;
    private int rxHeldVcs; // VCs (bit v: VC v) whose receive credits the XPU keeps
    private int txValidPercent = 90;

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
        this.name = name;
        this.xpu = xpu;
        this.config = config;
        this.sim = sim;
        this.toPeer = toPeer;
        this.rnd = rnd;
        me = identity(xpu, config.net());
        CommandPath.Config path = config.path();
        tx = new CommandSender(sim, path.dataWidth(), path.cmdCredits(), path.dataCredits());
        rx = new CommandReceiver(sim, path.dataWidth(), path.table(), config.rxCmdCredits(), config.rxDataCredits(),
                "rx_xpuid");
        macIn = new PacketBeats(sim, "s_axis");
        // with LLR the frame's sideband goes along (its tuser, the same on every beat)
        new StreamMonitor(sim, "m_axis", tap).onPacket(p -> toPeer.send(p.bytes(),
                config.llr() == null ? null : p.user(), p.cycle()));
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
        connect(other, other.toPeer);
    }

    /** Like {@link #connect(XpuSide)} with frames arriving over {@code from} (through a {@link Relay}). */
    public void connect(XpuSide other, LinkModel from) {
        peer = other;
        fromPeer = from;
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
        if (macControl()) {
            sim.poke("local_mac", me.mac());
        }
        if (config.llr() != null) {
            sim.poke("llr_enable", 0); // on at the first drive, so the INIT goes out while the link is driven
            sim.poke("link_up", 1);
        }
        if (controlChannel()) {
            sim.poke("ctl_in_valid", 0);
            sim.poke("ctl_out_ready", 1);
        }
        HeaderEntry e = new HeaderEntry(other.me.mac(), me.mac(), 100 + other.xpu, other.me.ip(), me.ip(),
                0xC000 + xpu, other.me.xpu(), me.xpu(), 7, 0x50 + xpu);
        sim.poke("tbl_wr_valid", 1);
        sim.poke("tbl_wr_addr", other.xpu);
        sim.poke("tbl_wr_data", LoopbackRun.headerTemplate(config.net(), e));
    }

    /** After the edge that wrote the header table row. */
    public void endSetUp() {
        sim.poke("tbl_wr_valid", 0);
    }

    /** True while the command interface is in reset ({@code tx_reset_out}): the XPU sends nothing yet. */
    public boolean inReset() {
        return sim.peek("tx_reset_out") == 1;
    }

    /** Queues {@code commands} random commands (random types, sizes and VCs) to the peer. */
    public void add(int commands) {
        add(commands, TwoXpuRun.RANDOM);
    }

    /** Queues {@code commands} commands drawn from {@code mix} to the peer. */
    public void add(int commands, TwoXpuRun.Mix mix) {
        for (int i = 0; i < commands; i++) {
            TwoXpuRun.Queued q = mix.next(rnd, config.path().table());
            CommandCodec.Command c = q.command();
            tx.add(peer.xpu, q.vc(), c);
            sent.computeIfAbsent(q.vc(), k -> new ArrayList<>()).add(c);
            bytesSent += c.data().length + c.control().length;
            sentCount++;
        }
    }

    /** Inputs of one cycle, before the clock edge: the XPU's next beat and credits, the next beat from the link. */
    public void drive(long now) {
        tx.drive(rnd, txValidPercent);
        sim.poke("rx_credit", rxReturnPercent >= 100 && rxHeldVcs == 0 ? rx.creditReturnPrompt()
                : rx.creditReturn(rnd, rxReturnPercent, rxHeldVcs));
        rx.sample();
        if (macIn.idle()) {
            LinkModel.InFlight f = fromPeer.arrived(now);
            if (f != null) {
                macIn.start(f.frame(), macVerdict(f)); // tuser: the MAC's verdict
            }
        }
        if (config.llr() != null) {
            sim.poke("llr_enable", 1);
        }
        if (controlChannel()) {
            linkControl(now);
        }
        if (!macIn.idle()) {
            macIn.offer(true, null);
            macIn.advance();
        } else {
            sim.poke("s_axis_tvalid", 0);
        }
    }

    /**
     * The receiving MAC's tuser: without LLR its error flag (and, with PFC, its FCS check); with LLR the sideband as sent, with {@code bad} when the
     * MAC flags the frame or its FCS check fails.
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
        BigInteger out = ControlPorts.offered(sim);
        if (out != null) {
            toPeer.sendControl(out, now);
        }
        ControlPorts.deliver(sim, fromPeer.arrivedControl(now));
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

    public LinkModel toPeer() {
        return toPeer;
    }

    /** The link frames from the peer arrive over (the peer's {@link #toPeer}, or a relay's). */
    public LinkModel fromPeer() {
        return fromPeer;
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
        return sim.peek(port);
    }

    /** What this XPU queued to the peer, per VC, in order. */
    public Map<Integer, List<CommandCodec.Command>> sent() {
        return sent;
    }

    /** What this XPU received, per VC, in order. */
    public Map<Integer, List<CommandCodec.Command>> got() {
        Map<Integer, List<CommandCodec.Command>> got = new HashMap<>();
        for (CommandReceiver.Delivered d : rx.delivered()) {
            got.computeIfAbsent(d.vc(), k -> new ArrayList<>()).add(d.command());
        }
        return got;
    }

    /** Everything the peer sent has arrived here. */
    public boolean deliveredAll() {
        return rx.delivered().size() == peer.sentCount;
    }

    /**
     * What arrived here came from the peer once, unchanged and in order per VC: per VC, a prefix of what it sent
     * ({@code complete}: all of it).
     */
    public boolean deliveredIntact(boolean complete) {
        Map<Integer, List<CommandCodec.Command>> got = new HashMap<>();
        for (CommandReceiver.Delivered d : rx.delivered()) {
            if (d.src() != peer.xpu) {
                return false;
            }
            got.computeIfAbsent(d.vc(), k -> new ArrayList<>()).add(d.command());
        }
        if (complete) {
            return got.equals(peer.sent);
        }
        for (Map.Entry<Integer, List<CommandCodec.Command>> e : got.entrySet()) {
            List<CommandCodec.Command> s = peer.sent.getOrDefault(e.getKey(), List.of());
            if (e.getValue().size() > s.size() || !s.subList(0, e.getValue().size()).equals(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** No frame on its way here from the peer, none half fed to this side's MAC input: the link counts are final. */
    public boolean linkQuiet() {
        return fromPeer.noFrameInFlight() && macIn.idle();
    }

    /**
     * Frames the peer's link delivered here intact were judged good; damaged ones failed the FCS; ones the MAC
     * flagged were dropped as such; null if so.
     */
    public String countersAgreeWithLink() {
        LinkModel from = fromPeer;
        long arrived = from.sent() - from.lost();
        if (config.llr() != null) {
            return llrCountersAgreeWithLink(from, arrived);
        }
        long good = counter("net_frames_good");
        long badFcs = counter("net_drops_bad_fcs");
        long macErrors = counter("net_drops_mac_error");
        long control = controlFrames();
        long controlBad = controlFramesDropped();
        boolean badAddUp = !macControl() ? badFcs == from.damaged() && macErrors == from.flagged()
                : badFcs + macErrors + controlBad == from.damaged() + from.flagged();
        if (!badAddUp || good + badFcs + macErrors + control != arrived) {
            return peer.name + " -> " + name + ": link delivered " + arrived + " frames (" + from.damaged()
                    + " damaged, " + from.flagged() + " flagged by the MAC), receiver judged " + good + " good, "
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
        long ok = counter("llr_rx_ok");
        long bad = counter("llr_rx_bad");
        boolean agree = arrived[0] + arrived[1] == all && arrivedBad[0] + arrivedBad[1] == from.damaged()
                + from.flagged() && ok + bad + counter("llr_rx_poisoned") == arrived[1] && bad == arrivedBad[1]
                && counter("net_frames_good") + controlFrames() - controlFramesDropped()
                        == counter("llr_rx_expected_seq_good") + arrived[0] - arrivedBad[0]
                && counter("net_drops_mac_error") + controlFramesDropped()
                        == counter("llr_rx_expected_seq_bad") + arrivedBad[0]
                && counter("net_drops_bad_fcs") == 0;
        return agree ? null : peer.name + " -> " + name + ": link delivered " + all + " frames ("
                + from.damaged() + " damaged, " + from.flagged() + " flagged; " + arrived[0] + " without a number, "
                + arrivedBad[0] + " of them bad), LLR counted " + ok + " good, " + bad + " bad, took "
                + counter("llr_rx_expected_seq_good") + "; framing judged " + counter("net_frames_good") + " good, "
                + counter("net_drops_mac_error") + " flagged, " + counter("net_drops_bad_fcs") + " with a bad FCS";
    }

    /** MAC Control frames (PFC, CC_Update) that reached their receiver, and those of them it dropped as bad. */
    private long controlFrames() {
        return macControl() ? counter("mac_control_frames") : 0;
    }

    private long controlFramesDropped() {
        return config.pfc() != null ? counter("pfc_frames_dropped")
                : config.cbfc() != null ? counter("cbfc_cc_frames_dropped") : 0;
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
                + ", sent " + tx.sent() + " (queued " + tx.queued() + "), delivered here " + rx.delivered().size()
                + ", retransmitted " + counter("tp_tx_retransmitted_pdus") + ", timeouts "
                + counter("tp_tx_timeouts") + ", NACKs received " + counter("tp_tx_nacks_received")
                + ", out-of-order dropped " + counter("tp_rx_out_of_order_dropped") + ", frames good "
                + counter("net_frames_good") + ", bad FCS " + counter("net_drops_bad_fcs") + cbfcState() + "; inside: "
                + internals();
    }

    private String cbfcState() {
        if (config.cbfc() == null) {
            return "";
        }
        StringBuilder b = new StringBuilder("; CBFC in use/reserved per VC");
        for (int v = 0; v < 4; v++) {
            b.append(' ').append(counter("cbfc_s_cu_" + v)).append('/').append(counter("cbfc_reserved_" + v));
        }
        return b.append(", port ").append(counter("cbfc_s_p_cu")).append(", CF_Updates ")
                .append(counter("cbfc_cf_updates_received")).append(" in ").append(counter("cbfc_cf_updates_sent"))
                .append(" out, CC_Updates ").append(counter("cbfc_cc_updates_sent")).append(" out ")
                .append(counter("cbfc_cc_updates_received")).append(" in, recovered ")
                .append(counter("cbfc_cc_credits_recovered")).toString();
    }

    /** The retransmission's and the writer's registers, for a stuck run. */
    private String internals() {
        StringBuilder b = new StringBuilder();
        for (String r : new String[] {"walk_state", "walk_conn", "walk_from", "walk_idx", "walk_beats", "store_rt",
                "store_rh", "store_wp", "store_free_beats", "new_mid_pdu", "new_first", "new_offered", "tx_arb_held",
                "tx_arb_held_index", "retx_data_valid", "reclaim_rd"}) {
            b.append(r).append('=').append(sim.peek("transport_tx." + r)).append(' ');
        }
        return b.toString();
    }
}
