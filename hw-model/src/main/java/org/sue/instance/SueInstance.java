package org.sue.instance;

import org.sue.cmd.CommandPath;
import org.sue.cmd.CommandTable;
import org.sue.cmd.CommandUnpacker;
import org.sue.core.Component;
import org.sue.core.Port;
import org.sue.core.PortDirection;
import org.sue.core.Tag;
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
     */
    public record Config(CommandPath.Config path, NetConfig net, TransportConfig transport,
                         @Tag("rk") int rxCmdCredits, @Tag("rkd") int rxDataCredits, @Tag("rf") int rxFifoDepth) {
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
        }

        /** The default instance: 512-bit XPU data on a 1024-bit bus, Ethernet/IPv4/UDP, 1024 destinations. */
        public static Config defaults() {
            CommandPath.Config path = CommandPath.Config.defaults(CommandTable.example());
            return new Config(path, NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP),
                    TransportConfig.defaults(2 * path.dataWidth()), 64, 32, 128);
        }

        public Config withNet(NetConfig n) {
            return new Config(path, n, transport, rxCmdCredits, rxDataCredits, rxFifoDepth);
        }

        public Config withTransport(TransportConfig t) {
            return new Config(path, net, t, rxCmdCredits, rxDataCredits, rxFifoDepth);
        }

        public Config withRxFifoDepth(int beats) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, beats);
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
        for (Port p : ftx.ports()) {
            if (!p.name().startsWith("s_axis_")) {
                expose(p); // m_axis_* to the MAC, tbl_wr_*
            }
        }
    }

    /** MAC -> framing checks -> PSN decision -> unpacking -> XPU receive interface. */
    private void receivePath(FrameReceiver frx, TransportRx trx, CommandUnpacker unpacker) {
        for (Port p : frx.ports()) {
            if (p.name().startsWith("s_axis_")) {
                expose(p); // frames from the MAC
            }
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
