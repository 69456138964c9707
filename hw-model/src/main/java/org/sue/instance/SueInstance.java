package org.sue.instance;

import java.util.List;
import org.sue.cmd.CommandPath;
import org.sue.cmd.CommandTable;
import org.sue.cmd.CommandUnpacker;
import org.sue.core.Component;
import org.sue.core.Port;
import org.sue.core.PortDirection;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Tag;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Stream;
import org.sue.link.LinkControl;
import org.sue.link.LlrConfig;
import org.sue.link.LlrRx;
import org.sue.link.LlrTx;
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
                         LlrConfig llr) {
        /** Without Link Layer Retry. */
        public Config(CommandPath.Config path, NetConfig net, TransportConfig transport, int rxCmdCredits,
                      int rxDataCredits, int rxFifoDepth) {
            this(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, null);
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
            return new Config(path, n, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, llr);
        }

        public Config withTransport(TransportConfig t) {
            return new Config(path, net, t, rxCmdCredits, rxDataCredits, rxFifoDepth, llr);
        }

        public Config withRxFifoDepth(int beats) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, beats, llr);
        }

        public Config withLlr(LlrConfig l) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, l);
        }

        public int busWidth() {
            return 2 * path.dataWidth();
        }

        public CommandUnpacker.Config unpacker() {
            return path.receiver(rxCmdCredits, rxDataCredits);
        }
    }

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
        if (config.llr() != null) {
            linkLayerRetry(ftx, frx);
        }
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
        Layout toLlr = Stream.packet(config.busWidth(), 1);
        // [ours] the framing never poisons a frame: every frame it makes is whole
        ftx.out.map("to_llr", toLlr, toLlr.expr().set(Stream.TDATA, ftx.out.tdata()).set(Stream.TKEEP,
                ftx.out.tkeep()).set(Stream.TLAST, ftx.out.tlast()).set(Stream.TUSER, Hw.bool(false)).build())
                .into(ltx.in);
        unused("framing_tuser", ftx.out.tuser());
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
        ltx.status.values().forEach(p -> expose(p, "llr_" + p.name()));
        lrx.status.values().forEach(p -> expose(p, "llr_" + p.name()));
    }

    /** XPU commands -> packing -> PSN and retransmit store -> RH, R-CRC, network header, FCS -> MAC. */
    private void transmitPath(CommandPath path, TransportTx ttx, FrameTransmitter ftx) {
        for (Port p : path.ports()) {
            if (!p.name().startsWith("m_axis_") && !p.name().equals("dst_ready")) {
                expose(p);
            }
        }
        path.out.into(ttx.in);
        portOf(path, "dst_ready").set(ttx.dstReady); // the transport decides which destinations may be picked
        ttx.out.into(ftx.in);
        boolean toMac = config.llr() == null; // else LLR comes between
        for (Port p : ftx.ports()) {
            if (!p.name().startsWith("s_axis_") && (toMac || !p.name().startsWith("m_axis_"))) {
                expose(p); // m_axis_* to the MAC, tbl_wr_*
            }
        }
    }

    /** MAC -> framing checks -> PSN decision -> unpacking -> XPU receive interface. */
    private void receivePath(FrameReceiver frx, TransportRx trx, CommandUnpacker unpacker) {
        if (config.llr() == null) {
            exposeStream(frx, "s_axis_"); // frames from the MAC
        }
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
            if (p.direction() == PortDirection.OUT && !p.name().startsWith("m_axis_")) {
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
