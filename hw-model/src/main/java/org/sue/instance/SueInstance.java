package org.sue.instance;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.sue.cmd.CommandPath;
import org.sue.cmd.CommandTable;
import org.sue.cmd.CommandUnpacker;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.PortDirection;
import org.sue.core.Reg;
import org.sue.core.Tag;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Stream;
import org.sue.link.CbfcConfig;
import org.sue.link.CbfcReceiver;
import org.sue.link.CbfcSender;
import org.sue.link.LinkControl;
import org.sue.link.LlrConfig;
import org.sue.link.LlrRx;
import org.sue.link.LlrTx;
import org.sue.link.MacControlDemux;
import org.sue.link.PfcConfig;
import org.sue.link.PfcGenerator;
import org.sue.link.PfcPause;
import org.sue.net.FrameFormat;
import org.sue.net.FrameReceiver;
import org.sue.net.FrameTransmitter;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.SueMeta;
import org.sue.transport.TransportConfig;
import org.sue.transport.TransportRx;
import org.sue.transport.TransportTx;
/**
 * One SUE instance with one port (SUE spec Figure 2): the XPU command interface (spec Tables 1 and 2, FIFO form)
 * into the command path, the transport, the transmit framing and out to the MAC ({@code m_axis}); from the MAC
 * ({@code s_axis}) through the receive framing and the transport to the command unpacker and the XPU's receive
 * interface.
 *
 * <p>Ports: the command path's ({@code tx_*}, {@code xpuid}, {@code vc_ready}, xoff, drops and errors); the receive
 * side's with an {@code rx_} prefix ({@code rx_*}, {@code rx_xpuid}, {@code rx_credit_error}, {@code rx_drops_*});
 * the MAC streams {@code m_axis_*} (frames out, FCS included) and {@code s_axis_*} (frames in, a flow;
 * {@code s_axis_tuser} high on a frame's last beat: the MAC found it bad, dropped as {@code net_drops_mac_error}); the header
 * table write port {@code tbl_wr_*}; this XPU's identity {@code local_xpu} (the receive check's address; its low 10
 * bits are the XPU id the transport sends as source), {@code local_ip} (IP formats) and {@code local_partition};
 * counters of the framing receiver ({@code net_*}) and of the transport ({@code tp_tx_*}, {@code tp_rx_*}).
 *
 * <p>With Link Layer Retry ({@code llr}), {@link LlrTx} and {@link LlrRx} sit between the framing and the MAC: the MAC
 * streams carry the LLR sideband in tuser ({@link org.sue.link.LlrSideband}: the sequence number, and from the MAC
 * the frame's bad and poisoned flags), the link-control channel is {@code ctl_out_*} / {@code ctl_in_*} (ACK, NACK,
 * INIT, INIT_ECHO), {@code llr_enable} turns LLR on and {@code link_up} is the PCS status; counters {@code llr_*}.
 *
 * <p>With PFC ({@code pfc}, docs/protocol.md section 9): {@link MacControlDemux} takes the MAC Control frames out of
 * the frames from the MAC for {@link PfcPause}, whose {@code vc_ready} (with the {@code vc_ready} input) keeps the
 * packing buffer from picking, and the transport from starting a retransmission or ACK-only PDU, on a paused VC;
 * {@link PfcGenerator} sends PFC frames for the receive FIFO's per-VC levels ({@code rx_fifo_level_<v>}: the bytes
 * of the beats each VC's judged frames hold in the framing receiver's packet FIFO) between the frames to the MAC
 * ({@code m_axis_tuser} high on a PFC frame); {@code local_mac} is their source address; counters {@code pfc_*}.
 *
 * <p>With CBFC ({@code cbfc}, docs/protocol.md section 8.5): {@link CbfcSender} between the framing and the MAC
 * (CC_Update frames, {@code m_axis_tuser} high on them), its {@code vc_ready} as PFC's above; credits reserved at
 * the packing buffer's picks and the transport's starts, charged as PDUs leave the transport; {@link CbfcReceiver}
 * counts the frames the framing receiver's FIFO keeps and lets go, takes the CC_Updates from
 * {@link MacControlDemux} and sends CF_Updates on {@code ctl_out}; CF_Updates from the peer arrive on
 * {@code ctl_in}; counters {@code cbfc_*}.
 */
public final class SueInstance extends Component {
    /**
     * @param path          the command path (XPU data width, command table, destinations, buffer, PDU limit, credits)
     * @param net           network header format and its options
     * @param transport     PSNs, retransmit store, window, timeouts, ACK coalescing (bus width and destinations as
     *                      the path's)
     * @param rxCmdCredits  command credits per VC the XPU's receive side grants the unpacker
     * @param rxDataCredits data credits per VC likewise
     * @param rxFifoDepth   beats of the framing receiver's packet FIFO
     * @param llr           Link Layer Retry between the framing and the MAC, or null for none
     */
    public record Config(CommandPath.Config path, NetConfig net, TransportConfig transport,
                         @Tag("rk") int rxCmdCredits, @Tag("rkd") int rxDataCredits, @Tag("rf") int rxFifoDepth,
                         LlrConfig llr, PfcConfig pfc, CbfcConfig cbfc) {
        /** Without Link Layer Retry or flow control. */
        public Config(CommandPath.Config path, NetConfig net, TransportConfig transport, int rxCmdCredits,
                      int rxDataCredits, int rxFifoDepth) {
            this(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, null, null, null);
        }

        /** Without flow control. */
        public Config(CommandPath.Config path, NetConfig net, TransportConfig transport, int rxCmdCredits,
                      int rxDataCredits, int rxFifoDepth, LlrConfig llr) {
            this(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, llr, null, null);
        }

        public Config {
            if (path == null || net == null || transport == null) {
                throw new IllegalArgumentException("SueInstance path, net and transport configurations must be given");
            }
            if (transport.busWidth() != 2 * path.dataWidth()) {
                throw new IllegalArgumentException("SueInstance transport.busWidth must be twice path.dataWidth ("
                        + 2 * path.dataWidth() + " bits, the PDU bus), got " + transport.busWidth());
            }
            if (transport.ports() != 1) {
                throw new IllegalArgumentException("SueInstance transport.ports must be 1 (an instance with 2 or 4"
                        + " ports is not built yet; the transport's tables already hold their rows), got "
                        + transport.ports());
            }
            if (transport.destinations() != path.destinations()) {
                throw new IllegalArgumentException("SueInstance transport.destinations must equal path.destinations ("
                        + path.destinations() + "), got " + transport.destinations());
            }
            path.receiver(rxCmdCredits, rxDataCredits); // validates the receive credits
            new FrameReceiver.Config(2 * path.dataWidth(), net, rxFifoDepth, true);
            new FrameTransmitter.Config(2 * path.dataWidth(), net, path.destinations());
            if (llr != null) {
                checkLlr(path, net, llr);
            }
            if (pfc != null) {
                checkPfc(pfc, 2 * path.dataWidth(), rxFifoDepth, llr);
            }
            if (cbfc != null) {
                checkCbfc(path, net, rxFifoDepth, llr, pfc, cbfc);
            }
        }

        /**
         * CBFC's bus is the instance's, its largest frame the largest the packing buffer makes, and the credits the
         * sender may have in use fit in the receive FIFO the VCs share (so all VCs must be lossless).
         */
        public static void checkCbfc(CommandPath.Config path, NetConfig net, int rxFifoDepth, LlrConfig llr,
                                     PfcConfig pfc, CbfcConfig cbfc) {
            int bus = 2 * path.dataWidth();
            String why = null;
            int largest = FrameFormat.frameBytes(net, path.pduLimit());
            long fifoBytes = (long) rxFifoDepth * bus / 8;
            if (cbfc.dataWidth() != bus) {
                why = "cbfc.dataWidth must be the bus width (" + bus + " bits), got " + cbfc.dataWidth();
            } else if (cbfc.maxFrameBytes() < largest) {
                why = "cbfc.maxFrameBytes must hold the largest frame (" + largest + " bytes: path.pduLimit with its"
                        + " headers), got " + cbfc.maxFrameBytes();
            } else if (cbfc.losslessVcs() != (1 << SueMeta.VCS) - 1) {
                why = "cbfc.losslessVcs must be all " + SueMeta.VCS + " VCs (0x" + Integer.toHexString((1
                        << SueMeta.VCS) - 1) + "): the VCs share the receive FIFO, a best-effort VC could fill what"
                        + " the credits promise, got 0x" + Integer.toHexString(cbfc.losslessVcs());
            } else if (cbfc.creditSize() < bus / 8) {
                why = "cbfc.creditSize must be at least a bus beat (" + bus / 8 + " bytes: the FIFO stores whole"
                        + " beats), got " + cbfc.creditSize();
            } else if ((long) cbfc.portCreditLimit() * cbfc.creditSize() > fifoBytes) {
                why = "cbfc.portCreditLimit x creditSize must fit in the receive FIFO (" + fifoBytes + " bytes:"
                        + " rxFifoDepth x bus bytes), got " + cbfc.portCreditLimit() + " x " + cbfc.creditSize();
            } else if (llr != null || pfc != null) {
                why = "cbfc cannot go with " + (llr != null ? "llr (a CC_Update must not overtake a replay; not"
                        + " built yet)" : "pfc (one flow control per port)");
            }
            if (why != null) {
                throw new IllegalArgumentException("SueInstance " + why);
            }
        }

        /** PFC's bus is the instance's, and its XOFF level leaves room in the receive FIFO for frames in flight. */
        public static void checkPfc(PfcConfig pfc, int busWidth, int rxFifoDepth, LlrConfig llr) {
            if (pfc.dataWidth() != busWidth) {
                throw new IllegalArgumentException("SueInstance pfc.dataWidth must be the bus width (" + busWidth
                        + " bits), got " + pfc.dataWidth());
            }
            long fifoBytes = (long) rxFifoDepth * busWidth / 8;
            if ((long) SueMeta.VCS * pfc.xoffBytes() >= fifoBytes) {
                throw new IllegalArgumentException("SueInstance pfc.xoffBytes must leave room in the receive FIFO"
                        + " the VCs share: " + SueMeta.VCS + " x xoffBytes below its " + fifoBytes + " bytes"
                        + " (rxFifoDepth x bus bytes), with headroom for the frames in flight (docs/protocol.md 9.3),"
                        + " got " + pfc.xoffBytes());
            }
            if (llr != null) {
                throw new IllegalArgumentException("SueInstance pfc cannot go with llr (PFC frames would have to"
                        + " pass beside the replay buffer; not built yet)");
            }
        }

        /** LLR's bus is the instance's, and its largest frame holds the largest PDU the packing buffer makes. */
        public static void checkLlr(CommandPath.Config path, NetConfig net, LlrConfig llr) {
            if (llr.dataWidth() != 2 * path.dataWidth()) {
                throw new IllegalArgumentException("SueInstance llr.dataWidth must be the bus width ("
                        + 2 * path.dataWidth() + " bits), got " + llr.dataWidth());
            }
            int largest = FrameFormat.frameBytes(net, path.pduLimit());
            if (llr.maxFrameBytes() < largest) {
                throw new IllegalArgumentException("SueInstance llr.maxFrameBytes must hold the largest frame ("
                        + largest + " bytes: path.pduLimit with its headers), got " + llr.maxFrameBytes());
            }
        }

        /** The default instance: 512-bit XPU data on a 1024-bit bus, Ethernet/IPv4/UDP, 1024 destinations. */
        public static Config defaults() {
            CommandPath.Config path = CommandPath.Config.defaults(CommandTable.example());
            return new Config(path, NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP),
                    TransportConfig.defaults(2 * path.dataWidth()), 64, 32, 128);
        }

        public Config withNet(NetConfig n) {
            return new Config(path, n, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, llr, pfc, cbfc);
        }

        public Config withTransport(TransportConfig t) {
            return new Config(path, net, t, rxCmdCredits, rxDataCredits, rxFifoDepth, llr, pfc, cbfc);
        }

        public Config withRxFifoDepth(int beats) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, beats, llr, pfc, cbfc);
        }

        public Config withLlr(LlrConfig l) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, l, pfc, cbfc);
        }

        public Config withCbfc(CbfcConfig c) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, llr, pfc, c);
        }

        public Config withPfc(PfcConfig p) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, llr, p, cbfc);
        }

        public int busWidth() {
            return 2 * path.dataWidth();
        }

        public CommandUnpacker.Config unpacker() {
            return path.receiver(rxCmdCredits, rxDataCredits);
        }
    }

    /**
     * Cycles a CC_Update waits after the demux: the framing receiver judges a frame up to
     * {@link FrameReceiver#VERDICT_CYCLES} after its last beat, and a CC_Update's last beat comes at least one cycle
     * after the last beat of the frame before it; so, applied {@code VERDICT_CYCLES} after its own last beat, it
     * comes after the verdicts of all the frames before it (SueInstanceCbfcTest sees false recoveries with one less).
     */
    static final int CC_DELAY = FrameReceiver.VERDICT_CYCLES;

    private final Config config;

    public SueInstance(Config config) {
        super(config);
        this.config = config;
        CommandPath path = child("cmd_path", new CommandPath(config.path()));
        TransportTx ttx = child("transport_tx", new TransportTx(config.transport()));
        FrameTransmitter ftx = child("frame_tx", new FrameTransmitter(new FrameTransmitter.Config(config.busWidth(),
                config.net(), config.path().destinations())));
        FrameReceiver frx = child("frame_rx", new FrameReceiver(new FrameReceiver.Config(config.busWidth(),
                config.net(), config.rxFifoDepth(), true)));
        TransportRx trx = child("transport_rx", new TransportRx(config.transport()));
        CommandUnpacker unpacker = child("unpacker", new CommandUnpacker(config.unpacker()));

        transmitPath(path, ttx, ftx);
        receivePath(frx, trx, unpacker);
        acknowledgements(ttx, trx);
        identity(ttx, frx);
        status(ttx, frx, trx);
        Expr linkVcReady = Hw.ones(SueMeta.VCS);
        if (config.llr() != null) {
            linkLayerRetry(ftx, frx);
        } else if (config.pfc() != null) {
            linkVcReady = priorityFlowControl(ftx, frx);
        } else if (config.cbfc() != null) {
            linkVcReady = creditBasedFlowControl(path, ttx, ftx, frx);
        } else {
            exposeStream(ftx, "m_axis_"); // frames to the MAC
            exposeStream(frx, "s_axis_"); // frames from the MAC
        }
        if (config.pfc() == null && config.cbfc() == null) {
            unused("rx_fifo_kept", frx.buffered.valid(), frx.buffered.payload());
        }
        if (config.cbfc() == null) { // nothing to reserve or charge
            unused("link_credit_events", portOf(path, "picked_valid"), portOf(path, "picked_vc"),
                    ttx.reserve.valid(), ttx.reserve.payload(), ttx.unreserve.valid(), ttx.unreserve.payload(),
                    ttx.charge.valid(), ttx.charge.payload(), ttx.pickVcReady);
        }
        vcEligibility(path, ttx, linkVcReady);
    }

    /**
     * vc_ready (the input) and the link's flow control decide which VCs the transport may start a retransmission or
     * ACK-only PDU on, and the scheduler pick on (with CBFC not beside a transport start, see TransportTx).
     */
    private void vcEligibility(CommandPath path, TransportTx ttx, Expr linkVcReady) {
        Port vcReady = in("vc_ready", SueMeta.VCS);
        Expr ready = wire("vc_ready_now", vcReady.and(linkVcReady));
        ttx.linkVcReady.set(ready);
        portOf(path, "vc_ready").set(config.cbfc() != null ? ttx.pickVcReady : ready);
    }

    /**
     * Framing -> CbfcSender (S_VC_CC, CC_Updates) -> MAC; MAC -> MAC Control frames out -> framing. Link credit is
     * reserved for a largest frame where a PDU is decided (the packing buffer's picks, the transport's starts), given
     * back for a picked PDU the transport holds for a go-back, and charged as the frame's own when its PDU leaves the
     * transport. The receive FIFO is the credits' buffer: a frame is enqueued at the verdict that keeps it and
     * dequeued as its last beat leaves; CC_Updates reach the receiver {@value #CC_DELAY} cycles late, after the
     * verdicts of the frames before them. CF_Updates cross on the control channel ({@code ctl_out}, {@code ctl_in}).
     * Returns the VCs the credits let start.
     */
    private Expr creditBasedFlowControl(CommandPath path, TransportTx ttx, FrameTransmitter ftx, FrameReceiver frx) {
        CbfcConfig cbfc = config.cbfc();
        CbfcSender sender = child("cbfc_tx", new CbfcSender(cbfc));
        CbfcReceiver receiver = child("cbfc_rx", new CbfcReceiver(cbfc));
        // transmit: frames with their VC, credits reserved, returned and charged
        framesToMac(ftx, sender.in, SueMeta.VC.of(ftx.out.tuser()));
        exposeStream(sender, "m_axis_");
        expose(sender.localMac);
        Port picked = portOf(path, "picked_valid");
        sender.reserve.valid().set(picked.or(ttx.reserve.valid())); // never both: no pick beside a transport start
        sender.reserve.field("vc").set(Hw.mux(picked, portOf(path, "picked_vc"), ttx.reserve.field("vc")));
        sender.unreserve.valid().set(ttx.unreserve.valid());
        sender.unreserve.field("vc").set(ttx.unreserve.field("vc"));
        sender.charge.valid().set(ttx.charge.valid());
        sender.charge.field("vc").set(ttx.charge.field("vc"));
        sender.charge.field("bytes").set(frameBytes(ttx.charge.field("len")));
        sender.charge.field("reserved").set(Hw.bool(true));
        Stream.slaveFlow(this, "ctl_in", LinkControl.LAYOUT).into(sender.ctlIn);
        receiver.ctlOut.into(Stream.master(this, "ctl_out", LinkControl.LAYOUT));
        // receive: the frame FIFO's frames per VC, CC_Updates after the verdicts before them
        delayed(macControlFrames(frx), CC_DELAY, "cc_delay", receiver.ccIn);
        receiver.enqueue.valid().set(frx.buffered.valid());
        receiver.enqueue.field("vc").set(frx.buffered.field("vc"));
        receiver.enqueue.field("bytes").set(frameBytes(frx.buffered.field("len")));
        receiver.dequeue.valid().set(frx.out.fire().and(frx.out.tlast()));
        receiver.dequeue.field("vc").set(SueMeta.VC.of(frx.out.tuser()));
        receiver.dequeue.field("bytes").set(frameBytes(SueMeta.LEN.of(frx.out.tuser())));
        sender.statusPorts().forEach((name, p) -> expose(p, "cbfc_" + name));
        receiver.statusPorts().forEach((name, p) -> expose(p, "cbfc_" + name));
        return sender.vcReady;
    }

    /** The frame of a PDU of {@code len} bytes in this format, FCS included (FrameFormat.frameBytes in hardware). */
    private Expr frameBytes(Expr len) {
        int w = CbfcConfig.FRAME_BYTES_WIDTH;
        int overhead = config.net().headerBytes() + FrameFormat.RH_BYTES + FrameFormat.RCRC_BYTES
                + FrameFormat.FCS_BYTES;
        Expr bytes = len.resize(w).add(overhead);
        return Hw.mux(bytes.lt(FrameFormat.MIN_FRAME), Hw.lit(w, FrameFormat.MIN_FRAME), bytes);
    }

    /** The framing's frames into a link-layer block on their way to the MAC, with {@code user} (or none) as tuser. */
    private void framesToMac(FrameTransmitter ftx, Stream into, Expr user) {
        Layout frames = into.layout();
        Layout.ExprBuilder beat = frames.expr().set(Stream.TDATA, ftx.out.tdata()).set(Stream.TKEEP, ftx.out.tkeep())
                .set(Stream.TLAST, ftx.out.tlast());
        if (user != null) {
            beat.set(Stream.TUSER, user);
        }
        ftx.out.map("to_link", frames, beat.build()).into(into);
        unused("framing_tuser", ftx.out.tuser());
    }

    /** Frames from the MAC: MAC Control frames (PFC, CC_Update) returned, the others on to the framing receiver. */
    private Stream macControlFrames(FrameReceiver frx) {
        MacControlDemux demux = child("mac_control", new MacControlDemux(new MacControlDemux.Config(
                config.busWidth())));
        exposeStream(demux, "s_axis_");
        demux.out.into(frx.in);
        expose(portOf(demux, "control_frames"), "mac_control_frames");
        return demux.control;
    }

    /** {@code in} through {@code cycles} register stages into {@code out} (flows, same layout). */
    private void delayed(Stream in, int cycles, String name, Stream out) {
        Expr valid = in.valid();
        Expr payload = in.payload();
        for (int i = 0; i < cycles; i++) {
            Reg v = reg(name + "_valid_" + i, 1, 0);
            Reg p = regNoReset(name + "_payload_" + i, payload.width());
            v.set(valid);
            Expr now = payload;
            when(valid, () -> p.set(now));
            valid = v;
            payload = p;
        }
        out.valid().set(valid);
        for (Layout.Field f : out.layout().fields()) {
            out.field(f.name()).set(f.of(payload));
        }
    }

    /**
     * Framing -> PFC frames inserted -> MAC, MAC -> MAC Control frames out -> framing; the receive FIFO's levels per
     * VC ask for pauses, the peer's pauses hold VCs. Returns the VCs PFC lets start.
     */
    private Expr priorityFlowControl(FrameTransmitter ftx, FrameReceiver frx) {
        PfcConfig pfc = config.pfc();
        PfcGenerator gen = child("pfc_gen", new PfcGenerator(pfc));
        PfcPause pause = child("pfc_pause", new PfcPause(pfc));
        framesToMac(ftx, gen.in, null);
        exposeStream(gen, "m_axis_");
        expose(gen.localMac);
        macControlFrames(frx).into(pause.in);
        List<Expr> levels = receiveLevels(frx);
        for (int v = 0; v < SueMeta.VCS; v++) {
            portOf(gen, "level_" + v).set(levels.get(v));
        }
        for (String p : List.of("class_off", "pfc_frames_sent", "xoff_frames_sent")) {
            expose(portOf(gen, p), p.startsWith("pfc_") ? p : "pfc_" + p);
        }
        for (String p : List.of("class_paused", "pfc_frames_received", "pfc_frames_dropped")) {
            expose(portOf(pause, p), p.startsWith("pfc_") ? p : "pfc_" + p);
        }
        return pause.vcReady;
    }

    /**
     * Bytes of packet-FIFO beats each VC's frames hold: a frame counts from its verdict (the FIFO keeps it) to its last
     * beat leaving; a frame still arriving is part of the headroom above XOFF.
     */
    private List<Expr> receiveLevels(FrameReceiver frx) {
        int beatBytes = config.busWidth() / 8;
        int shift = Integer.numberOfTrailingZeros(beatBytes);
        Function<Expr, Expr> bytesOf = len -> len.resize(PfcConfig.LEVEL_WIDTH).add(beatBytes - 1).shr(shift)
                .shl(shift);
        Expr inLen = wire("rx_level_in_bytes", bytesOf.apply(frx.buffered.field("len")));
        Expr outMeta = frx.out.tuser();
        Expr leaving = wire("rx_level_leaving", frx.out.fire().and(frx.out.tlast()));
        Expr outLen = wire("rx_level_out_bytes", bytesOf.apply(SueMeta.LEN.of(outMeta)));
        List<Expr> levels = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            Reg level = reg("rx_fifo_level_" + v + "_reg", PfcConfig.LEVEL_WIDTH, 0);
            Expr plus = Hw.mux(frx.buffered.valid().and(frx.buffered.field("vc").eq(v)), inLen,
                    Hw.zeros(PfcConfig.LEVEL_WIDTH));
            Expr minus = Hw.mux(leaving.and(SueMeta.VC.of(outMeta).eq(v)), outLen, Hw.zeros(PfcConfig.LEVEL_WIDTH));
            level.set(level.add(plus).sub(minus));
            out("rx_fifo_level_" + v, PfcConfig.LEVEL_WIDTH).set(level);
            levels.add(level);
        }
        return levels;
    }

    /** A child's stream ports, under their own names. */
    private void exposeStream(Component child, String prefix) {
        child.ports().stream().filter(p -> p.name().startsWith(prefix)).forEach(this::expose);
    }

    /**
     * Framing -> LLR transmit -> MAC, MAC -> LLR receive -> framing; both LLR halves share the control channel (the
     * receive side's ACKs, NACKs and INIT_ECHOs and the transmit side's INITs take turns on {@code ctl_out}; every
     * message in goes to both, each takes its own types).
     */
    private void linkLayerRetry(FrameTransmitter ftx, FrameReceiver frx) {
        LlrConfig llr = config.llr();
        LlrTx ltx = child("llr_tx", new LlrTx(llr));
        LlrRx lrx = child("llr_rx", new LlrRx(llr));
        framesToMac(ftx, ltx.in, Hw.bool(false)); // [ours] the framing never poisons a frame: each it makes is whole
        lrx.out.into(frx.in);
        exposeStream(ltx, "m_axis_");
        exposeStream(lrx, "s_axis_");
        Stream ctlOut = Stream.master(this, "ctl_out", LinkControl.LAYOUT);
        Arbiter.Arbitration ctl = Arbiter.roundRobin("ctl_arb", List.of(lrx.ctlOut, ltx.ctlOut));
        ctl.out().into(ctlOut);
        unused("ctl_chosen", ctl.chosen());
        Stream ctlIn = Stream.slaveFlow(this, "ctl_in", LinkControl.LAYOUT);
        ctlIn.into(ltx.ctlIn);
        ctlIn.into(lrx.ctlIn);
        Port enable = in("llr_enable", 1);
        ltx.enable.set(enable);
        lrx.enable.set(enable);
        expose(ltx.linkUp);
        ltx.statusPorts().values().forEach(p -> expose(p, "llr_" + p.name()));
        lrx.statusPorts().values().forEach(p -> expose(p, "llr_" + p.name()));
    }

    /** XPU commands -> packing -> PSN and retransmit store -> RH, R-CRC, network header, FCS -> MAC. */
    private void transmitPath(CommandPath path, TransportTx ttx, FrameTransmitter ftx) {
        for (Port p : path.ports()) {
            if (!p.name().startsWith("m_axis_") && !p.name().equals("dst_ready") && !p.name().equals("vc_ready")
                    && !p.name().startsWith("picked_")) {
                expose(p);
            }
        }
        path.out.into(ttx.in);
        portOf(path, "dst_ready").set(ttx.dstReady); // the transport decides which destinations may be picked
        ttx.out.into(ftx.in);
        for (Port p : ftx.ports()) {
            if (!p.name().startsWith("s_axis_") && !p.name().startsWith("m_axis_")) {
                expose(p); // tbl_wr_*
            }
        }
    }

    /** MAC -> framing checks -> PSN decision -> unpacking -> XPU receive interface. */
    private void receivePath(FrameReceiver frx, TransportRx trx, CommandUnpacker unpacker) {
        frx.out.into(trx.in);
        trx.out.into(unpacker.in);
        for (Port p : unpacker.ports()) {
            if (p.name().startsWith("rx_")) {
                expose(p);
            } else if (!p.name().startsWith("s_axis_")) {
                expose(p, "rx_" + p.name()); // xpuid, credit_error and counters share names with the path's
            }
        }
    }

    /** The four links between the two halves of the transport. */
    private void acknowledgements(TransportTx ttx, TransportRx trx) {
        trx.peerAck.into(ttx.peerAck);
        ttx.ackQuery.into(trx.ackQuery);
        trx.ackReply.into(ttx.ackReply);
        trx.ackRequest.into(ttx.ackRequest);
    }

    /** One local_xpu for both sides: the receiver's address check and the transmitter's source id. */
    private void identity(TransportTx ttx, FrameReceiver frx) {
        Port localXpu = in("local_xpu", frx.localXpu.width());
        frx.localXpu.set(localXpu);
        ttx.localXpu.set(localXpu.bits(SueMeta.XPU_WIDTH - 1, 0));
        if (frx.localIp != null) {
            expose(frx.localIp);
        }
        Port partition = in("local_partition", SueMeta.PARTITION.width());
        frx.localPartition.set(partition);
        ttx.localPartition.set(partition);
    }

    private void status(TransportTx ttx, FrameReceiver frx, TransportRx trx) {
        for (Port p : frx.ports()) {
            if (p.direction() == PortDirection.OUT && !p.name().startsWith("m_axis_")
                    && !p.name().startsWith("buffered_")) {
                expose(p, "net_" + p.name());
            }
        }
        for (Port p : ttx.ports()) {
            if (p.direction() == PortDirection.OUT && !isStreamPort(p) && p != ttx.dstReady) {
                expose(p, "tp_tx_" + p.name());
            }
        }
        for (Port p : trx.ports()) {
            if (p.direction() == PortDirection.OUT && !isStreamPort(p)) {
                expose(p, "tp_rx_" + p.name());
            }
        }
    }

    private static Port portOf(Component c, String name) {
        return c.ports().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    private static boolean isStreamPort(Port p) {
        String n = p.name();
        return n.startsWith("m_axis_") || n.startsWith("s_axis_") || n.startsWith("peer_ack_")
                || n.startsWith("ack_query_") || n.startsWith("ack_reply_") || n.startsWith("ack_request_");
    }

    public Config config() {
        return config;
    }
}
