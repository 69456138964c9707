package org.sue.instance;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.sue.cmd.CommandIngress;
import org.sue.cmd.CommandPath;
import org.sue.cmd.CommandTable;
import org.sue.cmd.CommandUnpacker;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Signal;
import org.sue.core.Status;
import org.sue.core.Wire;
import org.sue.core.Tag;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamNarrow;
import org.sue.lib.stream.StreamWiden;
import org.sue.link.CbfcConfig;
import org.sue.link.CbfcReceiver;
import org.sue.link.CbfcSender;
import org.sue.link.FrameAction;
import org.sue.link.LinkControl;
import org.sue.link.LlrConfig;
import org.sue.link.LlrRx;
import org.sue.link.LlrSideband;
import org.sue.link.LlrTx;
import org.sue.link.MacControlDemux;
import org.sue.link.PfcConfig;
import org.sue.link.PfcGenerator;
import org.sue.link.PfcPause;
import org.sue.link.PortStatus;
import org.sue.net.FrameFormat;
import org.sue.net.FrameReceiver;
import org.sue.net.FrameTransmitter;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.SueMeta;
import org.sue.transport.ConnectionRouter;
import org.sue.transport.TransportConfig;
import org.sue.transport.TransportRx;
import org.sue.transport.TransportTx;
/**
 * One SUE instance (SUE spec Figure 2): the XPU command interface (spec Tables 1 and 2, FIFO form) into the command
 * path, the transport, the transmit framing and out to the MAC ({@code m_axis}); from the MAC ({@code s_axis})
 * through the receive framing and the transport to the command unpacker and the XPU's receive interface. With 2 or 4
 * ports ({@code transport.ports}; docs/protocol.md 10) each port has its own framing, link layer, MAC streams and
 * status, their ports named {@code p<i>_...}, and each {destination, VC} is pinned to one port; the command path,
 * the transport and the unpacker are shared.
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
     * @param pfc           PFC on the port, or null
     * @param cbfc          CBFC on the port, or null (not both)
     * @param rxVcFifoDepth beats of each VC's receive FIFO behind the transport, 0 for none
     * @param ordering      with more than one port: each {destination, VC} on its pinned port (strict), or each PDU
     *                      on a port chosen when it is picked (unordered); docs/protocol.md 10
     */
    public record Config(CommandPath.Config path, NetConfig net, TransportConfig transport,
                         @Tag("rk") int rxCmdCredits, @Tag("rkd") int rxDataCredits, @Tag("rf") int rxFifoDepth,
                         LlrConfig llr, PfcConfig pfc, CbfcConfig cbfc, @Tag("rv") int rxVcFifoDepth,
                         Ordering ordering) {
        private static final String NAME = "SueInstance";

        /** Link-level flow control of the port. */
        public enum FlowControl { NONE, PFC, CBFC }

        /** How PDUs are given to ports (docs/protocol.md 10.2, 10.7). */
        public enum Ordering { STRICT, UNORDERED }

        /** The transport's bus: the XPU data width, or twice it (checked against the path in the constructor). */
        public static final Bound BUS_WIDTH = Bound.powerOfTwo(256, 2048);
        /** A port's bus: the transport's divided by the ports (docs/protocol.md 10). */
        public static final Bound PORT_WIDTH = Bound.powerOfTwo(256, 2048);
        /** The default instance's XPU data width: its port, of the same width, then runs at the XPU's rate. */
        public static final int DEFAULT_XPU_WIDTH = 1024;

        /** Without flow control, beats of each VC's receive FIFO unless set. */
        public static final int VC_FIFO_DEPTH_WITHOUT_FLOW_CONTROL = 256;

        /** Every rule between the parts, once; each part's own rules are its record's. */
        public Config {
            if (path == null || net == null || transport == null) {
                throw new IllegalArgumentException("SueInstance path, net and transport configurations must be given");
            }
            int bus = transport.busWidth();
            int xpu = path.dataWidth();
            if (bus != xpu && bus != 2 * xpu) {
                throw new ConfigException(NAME, "{transport.busWidth} must be {path.dataWidth} (" + xpu + " bits: the"
                        + " port at the XPU interface's rate) or twice it (" + 2 * xpu + "), got " + bus);
            }
            if (!PORT_WIDTH.contains(bus / transport.ports())) {
                throw new ConfigException(NAME, "{transport.ports} must leave each port a bus of "
                        + PORT_WIDTH.text() + " bits ({transport.busWidth} / {transport.ports}: each port carries its"
                        + " share of the transport's rate), got " + bus + " / " + transport.ports());
            }
            int port = bus / transport.ports();
            if (transport.destinations() != path.destinations()) {
                throw new ConfigException(NAME, "{transport.destinations} must equal {path.destinations} ("
                        + path.destinations() + "), got " + transport.destinations());
            }
            CommandIngress.Config.CMD_CREDITS.check(NAME, "rxCmdCredits", rxCmdCredits);
            CommandIngress.Config.DATA_CREDITS.check(NAME, "rxDataCredits", rxDataCredits);
            FrameReceiver.Config.FIFO_DEPTH.check(NAME, "rxFifoDepth", rxFifoDepth);
            if ((long) rxFifoDepth * port / 8 < path.pduLimit()) {
                throw new ConfigException(NAME, "{rxFifoDepth} must hold a PDU's commands ({path.pduLimit}: "
                        + path.pduLimit() + " bytes in " + port / 8 + "-byte beats): at least "
                        + beatsFor(path.pduLimit(), port, true) + ", got " + rxFifoDepth);
            }
            CommandUnpacker.Config.VC_BUFFER_DEPTH.check(NAME, "rxVcFifoDepth", rxVcFifoDepth);
            int ports = transport.ports();
            String perPort = ports == 1 ? "" : " x {transport.ports}";
            if (ordering == null) {
                throw new IllegalArgumentException("SueInstance ordering must be given");
            }
            if (ordering == Ordering.UNORDERED && ports == 1) {
                throw new ConfigException(NAME, "{ordering} UNORDERED needs more than one port ({transport.ports} is"
                        + " 1): one port keeps every PDU in order");
            }
            if (llr != null) {
                checkLlr(path, net, port, transport.ports(), llr);
            }
            if (pfc != null) {
                checkPfc(port, rxFifoDepth, FrameFormat.frameBytes(net, path.pduLimit()), pfc);
                // frames LLR replays after a pause arrive on top of XOFF: the headroom holds its outstanding bytes
                checkVcBuffers((llr == null ? "{pfc.xoffBytes}" : "({pfc.xoffBytes} + {llr.outstandingBytesMax})")
                        + perPort, ports * (pfc.xoffBytes() + 1L + (llr == null ? 0 : llr.outstandingBytesMax())),
                        bus, rxVcFifoDepth);
            }
            if (cbfc != null) {
                checkCbfc(path, net, port, rxFifoDepth, llr, pfc, cbfc);
                checkVcBuffers("{cbfc.vcCreditLimit} x {cbfc.creditSize}" + perPort,
                        (long) ports * cbfc.vcCreditLimit() * cbfc.creditSize(), bus, rxVcFifoDepth);
            }
        }

        /** Beats of {@code bus} bits that hold {@code bytes}, as a power of two when {@code powerOfTwo}. */
        private static long beatsFor(long bytes, int bus, boolean powerOfTwo) {
            long beats = (bytes + bus / 8 - 1) / (bus / 8);
            return powerOfTwo ? Math.max(FrameReceiver.Config.FIFO_DEPTH.min(), Long.highestOneBit(beats - 1) << 1)
                    : beats;
        }

        /**
         * With per-VC receive buffers, what the flow control lets one VC have in flight ({@code bytes}) must fit in
         * that VC's FIFO, so that one VC never fills its FIFO and stops the PDUs of the others behind it.
         */
        private static void checkVcBuffers(String what, long bytes, int bus, int rxVcFifoDepth) {
            long fifoBytes = (long) rxVcFifoDepth * bus / 8;
            if (rxVcFifoDepth > 0 && bytes > fifoBytes) {
                throw new ConfigException(NAME, "{rxVcFifoDepth} must be at least " + beatsFor(bytes, bus, false)
                        + " (or 0: none), so that a VC's receive FIFO holds what the flow control lets a VC have in"
                        + " flight, " + what + " = " + bytes + " bytes, got " + rxVcFifoDepth + " (" + fifoBytes
                        + " bytes)");
            }
        }

        /**
         * CBFC's bus is the instance's, its largest frame the largest the packing buffer makes, and the credits the
         * sender may have in use fit in the receive FIFO the VCs share (so all VCs must be lossless).
         */
        private static void checkCbfc(CommandPath.Config path, NetConfig net, int bus, int rxFifoDepth,
                                      LlrConfig llr, PfcConfig pfc, CbfcConfig cbfc) {
            int largest = FrameFormat.frameBytes(net, path.pduLimit());
            long fifoBytes = (long) rxFifoDepth * bus / 8;
            long inUse = (long) cbfc.portCreditLimit() * cbfc.creditSize();
            String why = null;
            if (cbfc.dataWidth() != bus) {
                why = "{cbfc.dataWidth} must be the bus width (" + bus + " bits), got " + cbfc.dataWidth();
            } else if (cbfc.maxFrameBytes() < largest) {
                why = "{cbfc.maxFrameBytes} must hold the largest frame: at least " + largest + " bytes"
                        + " ({path.pduLimit} with its headers), got " + cbfc.maxFrameBytes();
            } else if (cbfc.losslessVcs() != (1 << SueMeta.VCS) - 1) {
                why = "{cbfc.losslessVcs} must be all " + SueMeta.VCS + " VCs (0x" + Integer.toHexString((1
                        << SueMeta.VCS) - 1) + "): the VCs share the receive FIFO, a best-effort VC could fill what"
                        + " the credits promise, got 0x" + Integer.toHexString(cbfc.losslessVcs());
            } else if (cbfc.creditSize() < bus / 8) {
                why = "{cbfc.creditSize} must be at least a bus beat (" + bus / 8 + " bytes: the FIFO stores whole"
                        + " beats), got " + cbfc.creditSize();
            } else if (fifoBytes / cbfc.creditSize() < cbfc.maxFrameCredits()) {
                why = "{rxFifoDepth} must be at least " + beatsFor((long) cbfc.maxFrameCredits() * cbfc.creditSize(),
                        bus, true) + ": the receive FIFO, {rxFifoDepth} x " + bus / 8 + " bytes = " + fifoBytes
                        + ", must hold the credits of the largest frame, {cbfc.maxFrameBytes} in {cbfc.creditSize}-byte"
                        + " credits (" + cbfc.maxFrameCredits() + " x " + cbfc.creditSize() + "), got " + rxFifoDepth;
            } else if (inUse > fifoBytes) {
                why = "{cbfc.portCreditLimit} x {cbfc.creditSize} must fit in the receive FIFO, {rxFifoDepth} x "
                        + bus / 8 + " bytes = " + fifoBytes + ": {cbfc.portCreditLimit} at most "
                        + fifoBytes / cbfc.creditSize() + ", or {rxFifoDepth} at least " + beatsFor(inUse, bus, true)
                        + ", got " + cbfc.portCreditLimit() + " x " + cbfc.creditSize();
            } else if (pfc != null) {
                why = "{cbfc} cannot go with {pfc} (one flow control per port)";
            } else if (llr != null && !cbfc.codes().equals(llr.codes())) {
                why = "{cbfc.codes} must be {llr.codes} (one control channel), got " + cbfc.codes() + " and "
                        + llr.codes();
            }
            if (why != null) {
                throw new ConfigException(NAME, why);
            }
        }

        /**
         * PFC's bus is the instance's, its XOFF level leaves room in the receive FIFO for frames in flight, and its
         * shared threshold leaves at least the headroom of a link without delay.
         */
        private static void checkPfc(int bus, int rxFifoDepth, int largestFrame, PfcConfig pfc) {
            if (pfc.dataWidth() != bus) {
                throw new ConfigException(NAME, "{pfc.dataWidth} must be the bus width (" + bus + " bits), got "
                        + pfc.dataWidth());
            }
            long fifoBytes = (long) rxFifoDepth * bus / 8;
            long levels = (long) SueMeta.VCS * pfc.xoffBytes();
            if (levels >= fifoBytes) {
                throw new ConfigException(NAME, "{pfc.xoffBytes} must be at most " + (fifoBytes - 1) / SueMeta.VCS
                        + ": " + SueMeta.VCS + " x it below the receive FIFO the VCs share, {rxFifoDepth} x " + bus / 8
                        + " bytes = " + fifoBytes + ", with headroom for the frames in flight (docs/protocol.md"
                        + " 9.3); or {rxFifoDepth} at least " + beatsFor(levels + 1, bus, true) + ", got "
                        + pfc.xoffBytes());
            }
            long headroom = pfcHeadroomBytes(bus, largestFrame, 0);
            if (pfc.sharedXoffBytes() > fifoBytes - headroom) {
                throw new ConfigException(NAME, "{pfc.sharedXoffBytes} must be at most " + (fifoBytes - headroom)
                        + ": the receive FIFO, {rxFifoDepth} x " + bus / 8 + " bytes = " + fifoBytes + ", less the"
                        + " headroom of a link without delay, " + headroom + " bytes (docs/protocol.md 9.4); or"
                        + " {rxFifoDepth} at least " + beatsFor(pfc.sharedXoffBytes() + headroom, bus, true)
                        + ", got " + pfc.sharedXoffBytes());
            }
        }

        /**
         * LLR's bus is the port's, its largest frame holds the largest PDU the packing buffer makes, and with more
         * ports it never holds frames while its port is down.
         */
        private static void checkLlr(CommandPath.Config path, NetConfig net, int bus, int ports, LlrConfig llr) {
            if (llr.dataWidth() != bus) {
                throw new ConfigException(NAME, "{llr.dataWidth} must be the bus width (" + bus + " bits), got "
                        + llr.dataWidth());
            }
            int largest = FrameFormat.frameBytes(net, path.pduLimit());
            if (llr.maxFrameBytes() < largest) {
                throw new ConfigException(NAME, "{llr.maxFrameBytes} must hold the largest frame: at least " + largest
                        + " bytes ({path.pduLimit} with its headers), got " + llr.maxFrameBytes());
            }
            for (String action : new String[] {"initFrameAction", "flushFrameAction"}) {
                FrameAction a = action.startsWith("init") ? llr.initFrameAction() : llr.flushFrameAction();
                if (ports > 1 && a == FrameAction.BLOCK) {
                    throw new ConfigException(NAME, "{llr." + action + "} must not be BLOCK with {transport.ports} "
                            + ports + ": the frames a down port holds would fill its transmit queue and stop the"
                            + " transport for every port (docs/protocol.md 10.2); BEST_EFFORT or DISCARD, got BLOCK");
                }
            }
        }

        /**
         * The default instance: 1024-bit XPU data on a 1024-bit port, Ethernet/IPv4/UDP, 1024 destinations; its port
         * with Link Layer Retry (the 800G / 40 m profile, {@link LlrConfig#defaults}) and CBFC (128-byte credits, 256
         * per VC and 1024 for the port: the 1024-beat, 128 KiB receive FIFO; the largest frame, in whole credits,
         * reserved per PDU); a 256-beat receive FIFO per VC, what a VC's credits cover.
         */
        public static Config defaults() {
            return builder().build();
        }

        /** The default instance ({@link #defaults}), to change by name. */
        public static Builder builder() {
            return new Builder();
        }

        /** The same instance without Link Layer Retry and flow control: the framing straight to the MAC. */
        public Config withoutLinkLayer() {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    null, null, null, rxVcFifoDepth, ordering);
        }

        public Config withPath(CommandPath.Config p) {
            return new Config(p, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    llr, pfc, cbfc, rxVcFifoDepth, ordering);
        }

        public Config withNet(NetConfig n) {
            return new Config(path, n, transport, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    llr, pfc, cbfc, rxVcFifoDepth, ordering);
        }

        public Config withTransport(TransportConfig t) {
            return new Config(path, net, t, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    llr, pfc, cbfc, rxVcFifoDepth, ordering);
        }

        public Config withRxFifoDepth(int beats) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, beats, llr, pfc, cbfc,
                    rxVcFifoDepth, ordering);
        }

        public Config withRxVcFifoDepth(int beats) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, llr, pfc, cbfc, beats,
                    ordering);
        }

        public Config withOrdering(Ordering o) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, llr, pfc, cbfc,
                    rxVcFifoDepth, o);
        }

        /** PDUs go to ports as they are picked (more than one port, {@link Ordering#UNORDERED}). */
        public boolean unordered() {
            return ordering == Ordering.UNORDERED;
        }

        public Config withLlr(LlrConfig l) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    l, pfc, cbfc, rxVcFifoDepth, ordering);
        }

        public Config withCbfc(CbfcConfig c) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    llr, pfc, c, rxVcFifoDepth, ordering);
        }

        public Config withPfc(PfcConfig p) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    llr, p, cbfc, rxVcFifoDepth, ordering);
        }

        /** Bits of the transport's bus (with one port, the port's too). */
        public int busWidth() {
            return transport.busWidth();
        }

        /** The instance's ports: 1, 2 or 4 ({@code transport.ports}). */
        public int ports() {
            return transport.ports();
        }

        /**
         * Bits of each port's bus: the framing, the link layer and the MAC interface; the transport's divided by the
         * ports, so that the ports together carry the transport's rate [ours].
         */
        public int portWidth() {
            return transport.busWidth() / transport.ports();
        }

        /**
         * Beats of the transport's bus each port's transmit queue holds (more ports): {@value #TX_QUEUE_PDUS} of the
         * largest PDUs, a power of two, so that the transport sends one port's PDU while the other ports drain theirs
         * [ours].
         */
        public int portQueueBeats() {
            long largest = path.pduLimit() + FrameFormat.RH_BYTES + FrameFormat.RCRC_BYTES;
            return (int) beatsFor(TX_QUEUE_PDUS * largest, busWidth(), true);
        }

        /** What port {@code port}'s ports and children are named with: nothing with one port, {@code p<i>_} with more. */
        public String portPrefix(int port) {
            return ports() == 1 ? "" : "p" + port + "_";
        }

        /** Bytes of a port's framing receiver FIFO, which the VCs share. */
        public long rxFifoBytes() {
            return (long) rxFifoDepth * portWidth() / 8;
        }

        /** The largest frame the port sends: the largest PDU with its headers. */
        public int largestFrame() {
            return FrameFormat.frameBytes(net, path.pduLimit());
        }

        public CommandUnpacker.Config unpacker() {
            return new CommandUnpacker.Config(busWidth(), path.dataWidth(), path.table(), rxCmdCredits, rxDataCredits,
                    rxVcFifoDepth);
        }

        /**
         * An instance by name. What is not set is the default instance's ({@link #defaults}) where that fits what is
         * set, and follows from it where it depends on it: the port's bus ({@link #busWidth}) is the XPU data width,
         * LLR's and the flow control's bus is the port's, the transport's destinations the path's; LLR's and CBFC's
         * control codes are one set ({@link #controlCodes}); CBFC is sized for the receive FIFO and the largest frame
         * ({@link CbfcConfig.Builder#build(int, long, int)}), PFC's XOFF fits the receive FIFO
         * ({@link PfcConfig.Builder#build(int, long)}); each VC's receive FIFO holds what CBFC lets a VC have in
         * flight, none with PFC (a VC's FIFO would need LLR's outstanding bytes as headroom, docs/protocol.md 9.4),
         * {@value #VC_FIFO_DEPTH_WITHOUT_FLOW_CONTROL} beats without flow control. A part's refusal names its
         * parameter by its path from the instance ({@code SueInstance transport.windowPdus must be ...}).
         */
        public static final class Builder {
            private final CommandPath.Config.Builder path = CommandPath.Config.builder(CommandTable.example())
                    .dataWidth(DEFAULT_XPU_WIDTH);
            private Integer busWidth;
            private final NetConfig.Builder net = NetConfig.builder(HeaderFormat.ETH_IPV4_UDP);
            private final TransportConfig.Builder transport = TransportConfig.builder(1024);
            private int rxCmdCredits = 64;
            private int rxDataCredits = 32;
            private int rxFifoDepth = 1024;
            private Integer rxVcFifoDepth;
            private Ordering ordering = Ordering.STRICT;
            private boolean llrOn = true;
            private final LlrConfig.Builder llr = LlrConfig.builder();
            private FlowControl flowControl = FlowControl.CBFC;
            private final PfcConfig.Builder pfc = PfcConfig.builder();
            private final CbfcConfig.Builder cbfc = CbfcConfig.builder();

            private Builder() {
            }

            public Builder path(Consumer<CommandPath.Config.Builder> edit) {
                edit.accept(path);
                return this;
            }

            public Builder net(Consumer<NetConfig.Builder> edit) {
                edit.accept(net);
                return this;
            }

            /** The transport's parameters; its destinations follow the path, its bus width is {@link #busWidth}. */
            public Builder transport(Consumer<TransportConfig.Builder> edit) {
                edit.accept(transport);
                return this;
            }

            /** Bits of the port's bus: the XPU data width unless set (or set to twice it). */
            public Builder busWidth(int v) {
                busWidth = v;
                return this;
            }

            public Builder rxCmdCredits(int v) {
                rxCmdCredits = v;
                return this;
            }

            public Builder rxDataCredits(int v) {
                rxDataCredits = v;
                return this;
            }

            public Builder rxFifoDepth(int v) {
                rxFifoDepth = v;
                return this;
            }

            public Builder rxVcFifoDepth(int v) {
                rxVcFifoDepth = v;
                return this;
            }

            /** Link Layer Retry on the port (default) or not. */
            public Builder llr(boolean on) {
                llrOn = on;
                return this;
            }

            /** LLR's parameters, used while it is on; its bus width follows the path. */
            public Builder llr(Consumer<LlrConfig.Builder> edit) {
                edit.accept(llr);
                return this;
            }

            public Builder flowControl(FlowControl mode) {
                flowControl = mode;
                return this;
            }

            /** PFC's parameters, used in {@link FlowControl#PFC} mode. */
            public Builder pfc(Consumer<PfcConfig.Builder> edit) {
                edit.accept(pfc);
                return this;
            }

            /** CBFC's parameters, used in {@link FlowControl#CBFC} mode. */
            public Builder cbfc(Consumer<CbfcConfig.Builder> edit) {
                edit.accept(cbfc);
                return this;
            }

            /** How PDUs are given to ports when there are more than one (strict by default). */
            public Builder ordering(Ordering v) {
                ordering = v;
                return this;
            }

            /** The link-control message types of LLR and CBFC, which share the control channel. */
            public Builder controlCodes(LinkControl.Codes codes) {
                llr.codes(codes);
                cbfc.codes(codes);
                return this;
            }

            public Config build() {
                CommandPath.Config p = part("path", path::build);
                NetConfig n = part("net", net::build);
                int bus = busWidth != null ? busWidth : p.dataWidth();
                int largest = FrameFormat.frameBytes(n, p.pduLimit());
                TransportConfig t = part("transport", () -> transport.busWidth(bus).destinations(p.destinations())
                        .build());
                // the link layer runs on each port's bus; a port too narrow is the instance's to refuse
                int port = (int) Math.max(PORT_WIDTH.min(), bus / t.ports());
                long fifoBytes = (long) Math.max(0, rxFifoDepth) * port / 8;
                LlrConfig l = llrOn ? part("llr", () -> llr.build(port)) : null;
                PfcConfig f = flowControl == FlowControl.PFC ? part("pfc", () -> pfc.build(port, fifoBytes,
                        pfcHeadroomBytes(port, largest, PfcConfig.DEFAULT_LINK_DELAY_CYCLES))) : null;
                CbfcConfig c = flowControl == FlowControl.CBFC ? part("cbfc", () -> cbfc.build(port, fifoBytes,
                        largest)) : null;
                // each VC's FIFO holds what the credits of every port let a VC have in flight
                int vcFifo = rxVcFifoDepth != null ? rxVcFifoDepth : c != null
                        ? (int) Math.min(CommandUnpacker.Config.VC_BUFFER_DEPTH.max(),
                                (long) t.ports() * c.vcCreditLimit() * c.creditSize() / (bus / 8))
                        : f != null ? 0 : VC_FIFO_DEPTH_WITHOUT_FLOW_CONTROL;
                return new Config(p, n, t, rxCmdCredits, rxDataCredits, rxFifoDepth, l, f, c, vcFifo, ordering);
            }

            /** Builds a part, its refusal naming the parameter by its path from the instance. */
            private static <T> T part(String component, Supplier<T> build) {
                try {
                    return build.get();
                } catch (ConfigException e) {
                    throw e.within(NAME, component);
                }
            }
        }
    }

    /**
     * Cycles a CC_Update waits in the CBFC receiver before it applies: the framing receiver judges a frame up to
     * {@link FrameReceiver#VERDICT_CYCLES} after its last beat, and a CC_Update's last beat comes at least one cycle
     * after the last beat of the frame before it; so, applied {@code VERDICT_CYCLES} after its own last beat, it
     * comes after the verdicts of all the frames before it (SueInstanceCbfcTest sees false recoveries with one less).
     */
    static final int CC_DELAY = FrameReceiver.VERDICT_CYCLES;

    /**
     * Largest frames the peer still sends after a PFC pause reaches it (docs/protocol.md 9.4): a pause acts at its
     * packing buffer's scheduler, so the frame it has started, the {@code PackingBuffer.PDUS_AHEAD} = 2 PDUs picked
     * ahead, and the two in its transport's stages still come.
     */
    private static final int PFC_PEER_FRAMES_AHEAD = 5;

    /** Port choices waiting for their PDUs in unordered mode: more than are ever picked ahead of the PDU leaving. */
    private static final int CHOICES = 8;

    /** The largest PDUs each port's transmit queue holds (more ports; {@link Config#portQueueBeats}). */
    private static final int TX_QUEUE_PDUS = 3;

    /**
     * The headroom above a PFC threshold in this instance for a link of {@code linkDelayCycles} each way
     * ({@link PfcConfig#headroomBytes} with the peer's frames ahead of a pause).
     */
    public static long pfcHeadroomBytes(int busWidth, int largestFrame, long linkDelayCycles) {
        return PfcConfig.headroomBytes(busWidth, largestFrame, PFC_PEER_FRAMES_AHEAD, linkDelayCycles);
    }

    private final Config config;
    /** Which port each connection port's PDUs take (more than one port), null with one port. */
    private final ConnectionRouter router;
    /** The connection port of the PDU the packing buffer picks (more than one port), null with one port. */
    private final Wire pickedPort;

    /** One port's framing and the prefix of its names: none with one port, {@code p<i>_} with more. */
    private record PortParts(int index, String prefix, FrameTransmitter ftx, FrameReceiver frx) {
    }

    public SueInstance(Config config) {
        super(config);
        this.config = config;
        CommandPath path = child("cmd_path", new CommandPath(config.path()));
        TransportTx ttx = child("transport_tx", new TransportTx(config.transport()));
        router = config.ports() == 1 ? null : child("router", new ConnectionRouter(
                ConnectionRouter.Config.of(config.transport())));
        pickedPort = config.ports() == 1 ? null : wire("picked_port", SueMeta.PORT.width());
        List<PortParts> ports = new ArrayList<>();
        for (int p = 0; p < config.ports(); p++) {
            String px = config.portPrefix(p);
            ports.add(new PortParts(p, px, child(px + "frame_tx", new FrameTransmitter(new FrameTransmitter.Config(
                    config.portWidth(), config.net(), config.path().destinations()))),
                    child(px + "frame_rx", new FrameReceiver(new FrameReceiver.Config(config.portWidth(),
                            config.net(), config.rxFifoDepth(), true)))));
        }
        TransportRx trx = child("transport_rx", new TransportRx(config.transport()));
        CommandUnpacker unpacker = child("unpacker", new CommandUnpacker(config.unpacker()));

        List<Expr> leftQueue = transmitPath(path, ttx, ports);
        receivePath(ports, trx, unpacker);
        acknowledgements(ttx, trx);
        identity(ttx, ports);
        status(ttx, trx, ports);
        List<PortDecisions> decided = new ArrayList<>();
        if (config.cbfc() != null || router != null) {
            ports.forEach(port -> decided.add(decisions(port, path, ttx)));
        }
        List<PortLink> links = new ArrayList<>();
        for (PortParts port : ports) {
            links.add(linkLayer(port, trx, unpacker, decided.isEmpty() ? null : decided.get(port.index())));
        }
        if (router != null) {
            routeEvents(path, ttx);
            stuckConnections(ttx, trx).into(router.stuck);
            exposeStatus(router, "route_");
        }
        if (config.cbfc() == null) { // nothing to reserve or charge
            unused("pick_vc_ready_unread", ttx.pickVcReady);
            if (router == null) {
                unused("link_credit_events", path.picked.valid(), path.picked.payload(), ttx.reserve.valid(),
                        ttx.reserve.payload(), ttx.unreserve.valid(), ttx.unreserve.payload(), ttx.charge.valid(),
                        ttx.charge.payload());
            }
        }
        // what leaves the receive buffers is read by the flow control only (Departures)
        if (unpacker.freed == null) { // a frame leaves only through its port's framing FIFO
            unused("transport_discarded", trx.discarded.valid(), trx.discarded.payload());
        } else if (config.pfc() == null && config.cbfc() == null) {
            unused("rx_vc_fifo_leaving", unpacker.freed.valid(), unpacker.freed.payload(), trx.discarded.valid(),
                    trx.discarded.payload());
        }
        eligibility(path, ttx, links, router == null ? null : txBacklog(ports, decided, leftQueue));
    }

    /**
     * The port the PDUs of a {destination, VC} take in strict mode ([ours], docs/protocol.md 10): the XOR of the
     * destination id's {@code log2(ports)}-bit groups and of the VC's low bits, so consecutive ids, ids a power of two
     * apart and the VCs of one destination spread over the ports. The reference for {@link #pinnedPortExpr}.
     */
    public static int pinnedPort(int xpu, int vc, int destinations, int ports) {
        int pw = Integer.numberOfTrailingZeros(ports);
        int id = xpu & (destinations - 1);
        int port = vc & (ports - 1);
        for (int shift = 0; pw > 0 && shift < Hw.log2Up(destinations); shift += pw) {
            port ^= (id >>> shift) & (ports - 1);
        }
        return port;
    }

    /** {@link #pinnedPort} in hardware: {@code log2(ports)} bits of destination id {@code dst} and VC {@code vc}. */
    private Expr pinnedPortExpr(Expr dst, Expr vc) {
        int pw = Integer.numberOfTrailingZeros(config.ports());
        int xw = Hw.log2Up(config.path().destinations());
        Expr port = vc.bits(pw - 1, 0);
        for (int lo = 0; lo < xw; lo += pw) {
            int hi = Math.min(xw, lo + pw) - 1;
            port = port.xor(dst.bits(hi, lo).resize(pw));
        }
        return port;
    }

    /**
     * The port that connection {@code home}, {@code xpu}'s PDUs take now ({@link ConnectionRouter}): its port's
     * route, or its detour route while it is detoured; with one port, {@code home}.
     */
    private Expr routeOf(Expr home, Expr xpu) {
        if (router == null) {
            return home;
        }
        int d = config.path().destinations();
        List<Expr> routes = new ArrayList<>();
        for (int h = 0; h < config.ports(); h++) {
            Expr detoured = detouredOf(h).shr(xpu.bits(Hw.log2Up(d) - 1, 0)).bit(0);
            routes.add(Hw.mux(detoured, detourRouteOf(h), routeOf(h)));
        }
        return Hw.select(routes, home.bits(Integer.numberOfTrailingZeros(config.ports()) - 1, 0));
    }

    /** The port that connection port {@code home}'s PDUs take now, its connections not detoured (more ports). */
    private Expr routeOf(int home) {
        return fieldOf(router.route, home);
    }

    /** The port connection port {@code home}'s detoured connections take now (more ports). */
    private Expr detourRouteOf(int home) {
        return fieldOf(router.detourRoute, home);
    }

    /** Which of connection port {@code home}'s connections take its detour route, a bit per XPU (more ports). */
    private Expr detouredOf(int home) {
        int d = config.path().destinations();
        return router.detoured.bits((home + 1) * d - 1, home * d);
    }

    /** Connection port {@code home}'s field of a router output of a port number per connection port. */
    private Expr fieldOf(Expr perPort, int home) {
        int pw = Integer.numberOfTrailingZeros(config.ports());
        return perPort.bits(pw * home + pw - 1, pw * home);
    }

    /**
     * What the router counts to know when a route may move: PDUs decided (the packing buffer's picks on their pinned
     * connection port, the transport's starts) and ended (returned, or charged as they leave the transport); and what
     * it tells the transport: the connection ports whose route fled a dead port go back at once.
     */
    private void routeEvents(CommandPath path, TransportTx ttx) {
        router.picked.drive(path.picked.valid(), pickedPort);
        router.started.drive(ttx.reserve.valid(), ttx.reserve.field("port"));
        router.returned.drive(ttx.unreserve.valid(), ttx.unreserve.field("port"));
        router.charged.drive(ttx.charge.valid(), ConnectionRouter.CONNECTION.expr().set("port",
                ttx.charge.field("port")).set("xpu", ttx.charge.field("xpu")).build());
        int xw = Hw.log2Up(config.path().destinations());
        if (xw < SueMeta.XPU_WIDTH) { // a connection is its XPU id's low bits (the transport's tables)
            unused("link_event_xpu_high", ttx.reserve.field("xpu").bits(SueMeta.XPU_WIDTH - 1, xw),
                    ttx.unreserve.field("xpu").bits(SueMeta.XPU_WIDTH - 1, xw));
        }
        router.outFire.set(ttx.out.fire());
        router.outLast.set(ttx.out.tlast());
        ttx.hurry.set(router.fled); // what the dead port or broken way carried goes again at once
    }

    /**
     * The connections the router hears stuck (docs/protocol.md 10.8), a register stage after their sources: the
     * transport's, with its port up, which may take another; and a connection whose peer's PDUs come in on another port
     * than the connection's own (the peer's route or detour took them there), so that its ACKs follow them instead of
     * taking a way that may be broken. The transport's go first. A connection already detoured, a connection port
     * whose routes are moving and the cycles before the router has heard the last report report nothing (the peer's
     * next PDU tells it again).
     */
    private Flow stuckConnections(TransportTx ttx, TransportRx trx) {
        Stream in = trx.in;
        Expr home = SueMeta.PORT.of(in.tuser());
        Flow offHome = Flow.registered(this, "off_home", in.fire().and(in.tlast()).and(SueMeta.LINK.of(in.tuser())
                .ne(home)), ConnectionRouter.CONNECTION, ConnectionRouter.CONNECTION.expr().set("port", home)
                .set("xpu", SueMeta.SRC_XPU.of(in.tuser())).build());
        Expr h = offHome.field("port").bits(Integer.numberOfTrailingZeros(config.ports()) - 1, 0);
        Expr x = offHome.field("xpu").bits(Hw.log2Up(config.path().destinations()) - 1, 0);
        Expr detoured = router.detoured.shr(Hw.cat(h, x)).bit(0);
        Reg quiet = reg("off_home_quiet", 2, 0); // the report reaches the router's moving flags in three cycles
        Expr report = wire("off_home_report", offHome.fire().and(detoured.not()).and(router.moving.shr(h).bit(0).not())
                .and(quiet.eq(0)).and(ttx.stuck.fire().not()));
        quiet.set(Hw.mux(report, Hw.lit(2, 3), Hw.mux(quiet.eq(0), quiet, quiet.sub(1))));
        return Flow.registered(this, "stuck_event", ttx.stuck.fire().or(report), ConnectionRouter.CONNECTION,
                Hw.mux(ttx.stuck.fire(), ttx.stuck.payload(), offHome.payload()));
    }

    /**
     * A port's share of the PDUs decided and ended, each on the port that carries it (its connection port's route):
     * the packing buffer's picks, the transport's starts, picked PDUs the transport holds for a go-back, and PDUs
     * charged as they leave the transport. A PDU's route stays put from its decision to its charge (the router moves
     * a route only when none of its PDUs is decided and not yet charged).
     */
    private record PortDecisions(Flow picked, Flow started, Flow held, Flow sent) {
    }

    private PortDecisions decisions(PortParts port, CommandPath path, TransportTx ttx) {
        Expr dst = path.picked.field("dst");
        return new PortDecisions(
                onPort(port, "picked_here", path.picked, config.ports() == 1 ? dst : routeOf(pickedPort, dst)),
                onPort(port, "started_here", ttx.reserve, routeOfEvent(ttx.reserve)),
                onPort(port, "held_here", ttx.unreserve, routeOfEvent(ttx.unreserve)),
                onPort(port, "sent_here", ttx.charge, routeOfEvent(ttx.charge)));
    }

    /** The port a transport link event's connection takes now (with one port, read by nothing). */
    private Expr routeOfEvent(Flow event) {
        return router == null ? event.field("port") : routeOf(event.field("port"), event.field("xpu"));
    }

    /**
     * Which ports take more picks (more than one port): a port whose PDUs decided and not yet out of its transmit
     * queue number {@value #TX_QUEUE_PDUS} is picked for no more until one leaves. The queue holds that many of the
     * largest, so a picked PDU finds room there, and one port slower than the others (carrying a dead port's
     * connections, or paused) does not hold the transport's single output in front of the others' PDUs [ours]. The
     * transport's own starts (go-backs, ACK-only PDUs) are counted but not held: a go-back that frees the retransmit
     * store must not wait for picks that wait for room in it. Every decided PDU leaves the transport once, or is held
     * and decided again, so the count is exact.
     */
    private List<Expr> txBacklog(List<PortParts> ports, List<PortDecisions> decided, List<Expr> leftQueue) {
        List<Expr> takes = new ArrayList<>();
        for (PortParts port : ports) {
            PortDecisions d = decided.get(port.index());
            // above the limit: the starts the transport holds offered (one a source), and what its queue holds
            Reg backlog = reg(port.prefix() + "tx_backlog", Hw.log2Up(TX_QUEUE_PDUS + 4 + config.portQueueBeats()),
                    0);
            backlog.set(Hw.upDown(backlog, List.of(d.picked().valid(), d.started().valid()),
                    List.of(d.held().valid(), leftQueue.get(port.index()))));
            takes.add(wire(port.prefix() + "tx_takes", backlog.lt(TX_QUEUE_PDUS)));
            if (config.cbfc() == null) { // what leaves the transport is counted as it leaves the queue
                unused(port.prefix() + "sent_here_unread", d.sent().valid());
            }
        }
        return takes;
    }

    /**
     * The events of {@code events} that are port {@code port}'s ({@code portOf} says whose an event is). With one
     * port, all of them, and {@code portOf} is read by nothing.
     */
    private Flow onPort(PortParts port, String name, Flow events, Expr portOf) {
        if (config.ports() == 1) {
            unused(name + "_port", portOf);
            return events;
        }
        return events.throwWhen(port.prefix() + name, portOf.ne(port.index()));
    }

    /** What a port's link layer tells the rest: the VCs its flow control lets start, and whether it is up. */
    private record PortLink(Expr vcReady, Expr up) {
    }

    /**
     * vc_ready (the input) and each port's flow control decide which VCs the transport may start a retransmission or
     * ACK-only PDU on (each on its connection's port) and the scheduler pick on (with CBFC not beside a transport
     * start, see TransportTx); the transport's window per connection which queues {destination, VC} the scheduler
     * may pick. With more ports each connection port's VCs are those of the port that carries it (its route,
     * docs/protocol.md 10.6); in strict mode a queue waits for its pinned connection port's route (10.2), so a port
     * paused holds only the queues it carries; in unordered mode (10.7) any connection port that may take it will do,
     * and the pick's connection port ({@code picked_port}) is chosen here.
     */
    private void eligibility(CommandPath path, TransportTx ttx, List<PortLink> links, List<Expr> takes) {
        Port vcReady = in("vc_ready", SueMeta.VCS);
        int d = config.path().destinations();
        if (config.ports() == 1) {
            Expr ready = wire("vc_ready_now", vcReady.and(links.get(0).vcReady()));
            ttx.linkVcReady.set(ready);
            path.vcReady.set(config.cbfc() != null ? ttx.pickVcReady : ready);
            // every VC of a destination on its one connection; nothing new while the port is down (7.8): a PDU
            // sent into it would be lost (or, with LLR in INIT, go unnumbered) and cost a go-back
            Expr window = wire("dst_window_up", Hw.mux(links.get(0).up(), ttx.dstReady, Hw.zeros(d)));
            path.dstReady.set(Hw.cat(window, window, window, window));
            return;
        }
        List<Expr> rows = new ArrayList<>(); // per port: the VCs it lets start
        List<Expr> ups = new ArrayList<>();
        Expr anyPort = Hw.zeros(SueMeta.VCS);
        for (int p = 0; p < config.ports(); p++) {
            Expr row = wire(config.portPrefix(p) + "vc_ready_now", vcReady.and(links.get(p).vcReady()));
            rows.add(row);
            ups.add(0, links.get(p).up());
            anyPort = anyPort.or(row);
        }
        router.portUp.set(Hw.cat(ups));
        // per connection port: the VCs its route lets start (none while it moves), and whether it takes new PDUs:
        // its route is up and has room for more (txBacklog), and in unordered mode the route is its own (a connection
        // detoured over another port only finishes what it has: the connections at home there carry the new PDUs, so
        // no port takes two shares); the same for its detour route, which its detoured connections take (10.8)
        List<Way> ways = new ArrayList<>();
        List<Expr> highestFirst = new ArrayList<>();
        List<Expr> detoursFirst = new ArrayList<>();
        for (int h = 0; h < config.ports(); h++) {
            Expr detoured = wire(config.portPrefix(h) + "detoured", detouredOf(h));
            Way way = way(config.portPrefix(h), routeOf(h), h, detoured, rows, links, takes);
            Way detour = way(config.portPrefix(h) + "detour_", detourRouteOf(h), h, detoured.not(), rows, links,
                    takes);
            ways.add(way);
            ways.add(detour);
            highestFirst.add(0, way.vcReady());
            detoursFirst.add(0, detour.vcReady());
        }
        ttx.linkVcReady.set(Hw.cat(highestFirst)); // connection port 0 in the lowest bits
        ttx.detourVcReady.set(Hw.cat(detoursFirst));
        ttx.detoured.set(router.detoured);
        path.vcReady.set(config.cbfc() != null ? ttx.pickVcReady : anyPort);
        List<Expr> queues = new ArrayList<>(); // per VC, the highest first: its destinations' queues
        for (int v = SueMeta.VCS - 1; v >= 0; v--) {
            Expr row = Hw.zeros(d);
            for (int i = 0; i < ways.size(); i++) {
                int h = i / 2;
                Way way = ways.get(i);
                Expr open = way.takesNew().and(way.vcReady().bit(v)); // the way takes new PDUs, of VC v now
                Expr window = ttx.dstReady.bits((h + 1) * d - 1, h * d).and(way.notOn().not());
                window = config.unordered() ? window : window.and(pinnedTo(h, v)); // unordered: any port will do
                row = row.or(Hw.mux(open, window, Hw.zeros(d)));
            }
            queues.add(row);
        }
        path.dstReady.set(wire("queues_ready", Hw.cat(queues)));
        Expr dst = path.picked.field("dst");
        Expr vc = path.picked.field("vc");
        if (!config.unordered()) {
            pickedPort.set(pinnedPortExpr(dst, vc).resize(SueMeta.PORT.width()));
            return;
        }
        List<Expr> candidates = new ArrayList<>(); // the connection ports that may take the picked PDU now
        for (int h = 0; h < config.ports(); h++) {
            Way way = ways.get(2 * h); // a detoured connection takes no new PDUs in unordered mode
            Expr window = ttx.dstReady.bits((h + 1) * d - 1, h * d).and(way.notOn().not())
                    .shr(dst.resize(Hw.log2Up(d))).bit(0);
            candidates.add(wire(config.portPrefix(h) + "candidate", way.takesNew()
                    .and(way.vcReady().shr(vc).bit(0)).and(window)));
        }
        pickedPort.set(choose(candidates, path.picked.valid()).resize(SueMeta.PORT.width()));
    }

    /**
     * One way a connection port's connections may take (more ports): the VCs it lets start (none while the connection
     * port moves), whether it takes new PDUs, and the connections that do not take it ({@code notOn}, a bit per XPU).
     */
    private record Way(Expr vcReady, Expr takesNew, Expr notOn) {
    }

    /**
     * Connection port h's way through port {@code route}, for its connections but {@code notOn}: its VCs and whether
     * it takes new PDUs (the port is up and has room in its transmit backlog; in unordered mode, only on h's own port,
     * so a detour takes none).
     */
    private Way way(String name, Expr route, int h, Expr notOn, List<Expr> rows, List<PortLink> links,
                    List<Expr> takes) {
        Expr vcReady = wire(name + "routed_vc_ready", Hw.mux(router.moving.bit(h), Hw.zeros(SueMeta.VCS),
                Hw.select(rows, route)));
        Expr up = Hw.select(links.stream().map(PortLink::up).toList(), route).and(Hw.select(takes, route));
        return new Way(vcReady, wire(name + "takes_new", config.unordered() ? up.and(route.eq(h)) : up), notOn);
    }

    /**
     * Unordered mode's choice of a connection port for a picked PDU (docs/protocol.md 10.7): round robin over the
     * {@code candidates} (whose route is up, whose flow control lets the PDU's VC start and whose connection to its
     * destination has its window open), from the one after the last chosen; with none (a window that closed since
     * the pick was decided), the next in turn.
     */
    private Expr choose(List<Expr> candidates, Expr picking) {
        int pw = Integer.numberOfTrailingZeros(candidates.size());
        Reg last = reg("choice_last", pw, candidates.size() - 1);
        Expr any = candidates.stream().reduce(Hw.bool(false), Expr::or);
        Expr chosen = wire("choice", Hw.mux(any, Arbiter.rotatingPick(candidates, last), last.add(Hw.lit(pw, 1))));
        when(picking, () -> last.set(chosen));
        return chosen;
    }

    /** The destinations whose VC {@code vc} is pinned to port {@code port}, a bit each (a constant). */
    private Expr pinnedTo(int port, int vc) {
        int d = config.path().destinations();
        BigInteger mask = BigInteger.ZERO;
        for (int x = 0; x < d; x++) {
            if (pinnedPort(x, vc, d, config.ports()) == port) {
                mask = mask.setBit(x);
            }
        }
        return Hw.lit(d, mask);
    }

    /**
     * A port's link layer between its framing and its MAC: CBFC or PFC, Link Layer Retry, both, or none. With LLR
     * the frames of the framing, and with CBFC its CC_Updates, pass through the replay buffer (a CC_Update counts
     * the frames before it, so a replay must not let it overtake them); PFC frames go beside it. Messages of LLR
     * and CBFC share the port's control channel. Returns the VCs the port's flow control lets start.
     */
    private PortLink linkLayer(PortParts port, TransportRx trx, CommandUnpacker unpacker, PortDecisions decided) {
        String px = port.prefix();
        FrameTransmitter ftx = port.ftx();
        LlrTx ltx = config.llr() == null ? null : child(px + "llr_tx", new LlrTx(config.llr()));
        LlrRx lrx = config.llr() == null ? null : child(px + "llr_rx", new LlrRx(config.llr()));
        Flow control = framesFromMac(port, lrx);
        Flow kept = port.frx().buffered;
        Departures leaving = null; // what the receive buffer's accounting needs, with flow control only
        if (config.pfc() == null && config.cbfc() == null) {
            unused(px + "rx_fifo_kept", kept.valid(), kept.payload());
        } else {
            unused(px + "rx_fifo_kept_port", kept.field("port")); // the framing's frames are this port's
            leaving = departures(port, trx, unpacker);
        }
        List<Stream> ctlOut = new ArrayList<>();
        List<Flow> ctlIn = new ArrayList<>();
        Expr vcReady = Hw.ones(SueMeta.VCS);
        CbfcSender sender = null;
        if (config.cbfc() != null) {
            sender = child(px + "cbfc_tx", new CbfcSender(config.cbfc()));
            ftx.out.retagged(px + "to_cbfc", sender.in.layout(), SueMeta.VC.of(ftx.out.tuser())).into(sender.in);
            vcReady = creditBasedFlowControl(port, decided, leaving, sender, control, ctlOut, ctlIn);
            if (ltx == null) {
                toMac(port, sender.out);
            } else { // CC_Updates numbered like the frames around them: never poisoned
                sender.out.retagged(px + "cbfc_to_llr", ltx.in.layout(), Hw.bool(false)).into(ltx.in);
            }
        } else if (ltx != null) {
            // [ours] the framing never poisons: each frame is whole
            ftx.out.retagged(px + "to_llr", ltx.in.layout(), Hw.bool(false)).into(ltx.in);
        }
        if (config.pfc() != null) {
            vcReady = priorityFlowControl(port, leaving, ltx, control);
        } else if (config.cbfc() == null && ltx == null) {
            toMac(port, ftx.out);
        }
        if (ltx != null) {
            linkLayerRetry(px, ltx, lrx, ctlOut, ctlIn);
            if (config.pfc() == null) {
                toMac(port, ltx.out);
            }
        }
        controlChannel(px, ctlOut, ctlIn);
        Expr up = portStatus(px, ltx);
        if (sender != null) { // credits of frames lost while the port was down come back at once
            Reg upWas = reg(px + "port_up_was", 1, 0);
            upWas.set(up);
            sender.ccNow.set(up.and(upWas.not()));
        }
        return new PortLink(vcReady, up);
    }

    /**
     * The port's status ({@code port_up}, counters {@code port_*}; docs/protocol.md 7.8): LLR's judgement of the link
     * with LLR, the MAC's {@code link_up} without it.
     */
    private Expr portStatus(String px, LlrTx ltx) {
        PortStatus status = child(px + "port_status", new PortStatus());
        status.usable.set(ltx != null ? ltx.usable : in(px + "link_up", 1));
        exposeStatus(status, px, "port_");
        return status.up;
    }

    /**
     * Link credit is reserved for a largest frame where a PDU is decided (the packing buffer's picks, the
     * transport's starts), on the port the PDU will take, given back for a picked PDU the transport holds for a
     * go-back, and charged as the frame's own when its PDU leaves the transport. The receive FIFO is the credits'
     * buffer: a frame is enqueued at the verdict that keeps it and dequeued as its last beat leaves; CC_Updates apply
     * {@value #CC_DELAY} cycles after their last beat, after the verdicts of the frames before them. CF_Updates cross
     * on the port's control channel. Returns the VCs the credits let start.
     */
    private Expr creditBasedFlowControl(PortParts port, PortDecisions decided, Departures leaving,
                                        CbfcSender sender, Flow ccUpdates, List<Stream> ctlOut, List<Flow> ctlIn) {
        String px = port.prefix();
        CbfcReceiver receiver = child(px + "cbfc_rx", new CbfcReceiver(new CbfcReceiver.Config(config.cbfc(),
                CC_DELAY)));
        expose(sender.localMac, px + "local_mac");
        Flow picked = decided.picked(); // never beside a transport start
        Flow started = decided.started();
        sender.reserve.drive(picked.valid().or(started.valid()), Hw.mux(picked.valid(), picked.field("vc"),
                started.field("vc")));
        Flow unreserved = decided.held();
        sender.unreserve.drive(unreserved.valid(), sender.unreserve.layout().expr().set("vc",
                unreserved.field("vc")).build());
        Flow charged = decided.sent();
        sender.charge.drive(charged.valid(), sender.charge.layout().expr().set("vc", charged.field("vc"))
                .set("bytes", frameBytes(charged.field("len"))).set("reserved", Hw.bool(true)).build());
        ctlIn.add(sender.ctlIn);
        ctlOut.add(receiver.ctlOut);
        // receive: the frame FIFO's frames per VC, CC_Updates after the verdicts before them
        ccUpdates.into(receiver.ccIn);
        frameEvent(port.frx().buffered, receiver.enqueue);
        frameEvent(leaving.delivered(), receiver.dequeue);
        if (leaving.discarded() != null) {
            frameEvent(leaving.discarded(), receiver.discard);
        } else {
            receiver.discard.tieOff(); // a frame leaves only one way
        }
        exposeStatus(sender, px, "cbfc_");
        exposeStatus(receiver, px, "cbfc_");
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

    /**
     * Frames from the port's MAC: through LLR's receive side if there is one, then, with PFC or CBFC, the MAC Control
     * frames split off (returned; null without flow control), the others on to the framing receiver.
     */
    private Flow framesFromMac(PortParts port, LlrRx lrx) {
        String px = port.prefix();
        Flow toFraming = port.frx().in; // the first block after the MAC
        Flow control = null;
        if (config.pfc() != null || config.cbfc() != null) {
            MacControlDemux demux = child(px + "mac_control", new MacControlDemux(new MacControlDemux.Config(
                    config.portWidth())));
            demux.out.into(port.frx().in);
            exposeStatus(demux, px, "mac_");
            toFraming = demux.in;
            control = demux.control;
        }
        if (lrx != null) {
            lrx.out.into(toFraming);
            toFraming = lrx.in;
        }
        Flow.slave(this, px + "s_axis", toFraming.layout()).into(toFraming);
        return control;
    }

    /**
     * PFC frames between the frames to the MAC (without LLR inserted between the framing's frames; with LLR merged
     * after its transmit side, beside the replay buffer); the MAC Control frames from the MAC hold VCs; the receive
     * FIFO's levels per VC ask for pauses. Returns the VCs PFC lets start.
     */
    private Expr priorityFlowControl(PortParts port, Departures leaving, LlrTx ltx, Flow pfcFrames) {
        String px = port.prefix();
        PfcConfig pfc = config.pfc();
        PfcGenerator gen = child(px + "pfc_gen", new PfcGenerator(pfc));
        PfcPause pause = child(px + "pfc_pause", new PfcPause(pfc));
        if (ltx == null) {
            port.ftx().out.retagged(px + "to_pfc", gen.in.layout(), null).into(gen.in);
            toMac(port, gen.out);
        } else { // the generator makes only PFC frames; they leave unnumbered, between LLR's frames
            gen.in.tieOff();
            unused(px + "no_frames_ready", gen.in.ready());
            Layout mac = ltx.out.layout();
            Expr unnumbered = LlrSideband.TX.expr().set("seq", Hw.zeros(LinkControl.SEQ_WIDTH)).set("llr",
                    Hw.bool(false)).set("poisoned", Hw.bool(false)).build();
            Stream pfcOut = gen.out.retagged(px + "pfc_to_mac", mac, unnumbered);
            Arbiter.Arbitration toMac = Arbiter.roundRobinPackets(px + "mac_arb", List.of(ltx.out, pfcOut));
            toMac(port, toMac.out());
            unused(px + "mac_chosen", toMac.chosen());
        }
        expose(gen.localMac, px + "local_mac");
        pfcFrames.into(pause.in);
        receiveLevels(px, gen, port.frx(), leaving);
        exposeStatus(gen, px, "pfc_");
        exposeStatus(pause, px, "pfc_");
        return pause.vcReady;
    }

    /**
     * The generator's levels: bytes of receive-buffer beats each VC's frames hold and, with a shared threshold, all
     * VCs' frames together. A frame counts from its verdict (the packet FIFO keeps it) until it leaves the receive
     * buffer ({@link Departures}); a frame still arriving is part of the headroom above XOFF.
     */
    private void receiveLevels(String px, PfcGenerator gen, FrameReceiver frx, Departures leaving) {
        int beatBytes = config.portWidth() / 8;
        int shift = Integer.numberOfTrailingZeros(beatBytes);
        Function<Expr, Expr> bytesOf = len -> len.resize(PfcConfig.LEVEL_WIDTH).add(beatBytes - 1).shr(shift)
                .shl(shift);
        Expr inLen = wire(px + "rx_level_in_bytes", bytesOf.apply(frx.buffered.field("len")));
        BiFunction<String, Function<Flow, Expr>, Reg> level = (name, counted) -> {
            Reg bytes = reg(name + "_reg", PfcConfig.LEVEL_WIDTH, 0);
            Expr next = bytes.add(Hw.mux(frx.buffered.valid().and(counted.apply(frx.buffered)), inLen,
                    Hw.zeros(PfcConfig.LEVEL_WIDTH)));
            for (Flow f : leaving.flows()) {
                next = next.sub(Hw.mux(f.valid().and(counted.apply(f)), bytesOf.apply(f.field("len")),
                        Hw.zeros(PfcConfig.LEVEL_WIDTH)));
            }
            bytes.set(next);
            return bytes;
        };
        for (int v = 0; v < SueMeta.VCS; v++) {
            int vc = v;
            Reg bytes = level.apply(px + "rx_fifo_level_" + v, f -> f.field("vc").eq(vc));
            status(px + "rx_fifo_level_" + v, Status.Kind.LEVEL, bytes, "Bytes of receive-buffer beats VC " + v
                    + "'s kept frames hold (what PFC compares with its XOFF and XON levels)");
            gen.levels.get(v).set(bytes);
        }
        if (gen.levelTotal != null) { // kept beside the VCs' levels rather than added from them: no adder tree
            Reg total = level.apply(px + "rx_fifo_level_total", f -> Hw.bool(true));
            status(px + "rx_fifo_level_total", Status.Kind.LEVEL, total, "Bytes of receive-buffer beats all VCs'"
                    + " kept frames hold (what PFC compares with its shared threshold)");
            gen.levelTotal.set(total);
        }
    }

    /**
     * Where a frame a port's framing receiver kept leaves the receive buffer, as {vc, len} flows: without per-VC
     * buffers as its last beat leaves the packet FIFO ({@code delivered}; {@code discarded} null); with them as its
     * PDU's last beat leaves its VC's FIFO, or when the transport does not deliver it ({@code discarded}); of the
     * PDUs of all ports, this port's.
     */
    private record Departures(Flow delivered, Flow discarded) {
        List<Flow> flows() {
            return discarded == null ? List.of(delivered) : List.of(delivered, discarded);
        }
    }

    private Departures departures(PortParts port, TransportRx trx, CommandUnpacker unpacker) {
        if (unpacker.freed != null) {
            return new Departures(onPort(port, "freed_here", unpacker.freed, unpacker.freed.field("port")),
                    onPort(port, "discarded_here", trx.discarded, trx.discarded.field("port")));
        }
        Stream out = port.frx().out;
        Flow leaving = Flow.of(this, port.prefix() + "rx_fifo_leaving", out.fire().and(out.tlast()),
                SueMeta.PDU_SIZE, SueMeta.sizeOf(out.tuser()));
        unused(port.prefix() + "rx_fifo_leaving_port", leaving.field("port")); // the port is this one
        return new Departures(leaving, null);
    }

    /** CBFC's event of a frame kept or leaving: its VC and its frame's bytes. */
    private void frameEvent(Flow pdu, Flow event) {
        event.drive(pdu.valid(), event.layout().expr().set("vc", pdu.field("vc")).set("bytes",
                frameBytes(pdu.field("len"))).build());
    }

    /** The frames to the port's MAC ({@code m_axis}) from the last block on the way out. */
    private void toMac(PortParts port, Stream frames) {
        frames.into(Stream.master(this, port.prefix() + "m_axis", frames.layout()));
    }

    /**
     * LLR's ports: its control messages (the receive side's ACKs, NACKs and INIT_ECHOs, the transmit side's INITs)
     * on the control channel, which each half reads for its own types; {@code llr_enable}, {@code link_up}, counters.
     */
    private void linkLayerRetry(String px, LlrTx ltx, LlrRx lrx, List<Stream> ctlOut, List<Flow> ctlIn) {
        ctlOut.add(lrx.ctlOut);
        ctlOut.add(ltx.ctlOut);
        ctlIn.add(ltx.ctlIn);
        ctlIn.add(lrx.ctlIn);
        Port enable = in(px + "llr_enable", 1);
        ltx.enable.set(enable);
        lrx.enable.set(enable);
        expose(ltx.linkUp, px + "link_up");
        exposeStatus(ltx, px, "llr_");
        exposeStatus(lrx, px, "llr_");
    }

    /**
     * A port's link-control channel ({@code ctl_out}, {@code ctl_in}; docs/protocol.md 7.2) for the blocks that use
     * it: their messages out take turns, every message in goes to all of them (each takes its own types).
     */
    private void controlChannel(String px, List<Stream> from, List<Flow> to) {
        if (from.isEmpty()) {
            return;
        }
        Stream out = Stream.master(this, px + "ctl_out", LinkControl.LAYOUT);
        if (from.size() == 1) {
            from.get(0).into(out);
        } else {
            Arbiter.Arbitration ctl = Arbiter.roundRobin(px + "ctl_arb", from);
            ctl.out().into(out);
            unused(px + "ctl_chosen", ctl.chosen());
        }
        Flow in = Flow.slave(this, px + "ctl_in", LinkControl.LAYOUT);
        to.forEach(in::into);
    }

    /**
     * XPU commands -> packing -> each PDU onto its destination's port -> PSN and retransmit store -> the port's RH,
     * R-CRC, network header, FCS -> the port's MAC.
     */
    private List<Expr> transmitPath(CommandPath path, TransportTx ttx, List<PortParts> ports) {
        List<Expr> leftQueue = new ArrayList<>(); // more ports: a PDU's last beat leaving a port's transmit queue
        List<Signal> inside = new ArrayList<>(path.out.signals());
        inside.addAll(path.picked.signals());
        inside.addAll(List.of(path.dstReady, path.vcReady));
        exposeRest(path, "", inside); // the XPU's transmit interface, xoff, the path's status
        Stream pdus = toPort(path.out);
        if (config.ports() == 1) {
            pdus.into(ttx.in);
            ttx.out.into(ports.get(0).ftx().in);
        } else {
            (config.unordered() ? chosen(pdus, path.picked) : pinned(pdus)).into(ttx.in);
            List<Stream> perPort = ttx.out.demux("to_port", routeOf(SueMeta.PORT.of(ttx.out.tuser()),
                    SueMeta.DST_XPU.of(ttx.out.tuser())), config.ports());
            StreamConfig bus = new StreamConfig(config.busWidth(), SueMeta.WIDTH);
            for (PortParts port : ports) {
                StreamNarrow narrow = child(port.prefix() + "narrow", new StreamNarrow(new StreamNarrow.Config(bus,
                        config.ports())));
                // a port takes a beat every `ports` cycles: its queue lets the transport go on with the others'
                Stream queued = perPort.get(port.index()).queue(port.prefix() + "tx_queue", config.portQueueBeats());
                queued.into(narrow.in);
                leftQueue.add(queued.fire().and(queued.tlast()));
                narrow.out.into(port.ftx().in);
            }
        }
        for (PortParts port : ports) {
            Flow.slave(this, port.prefix() + "tbl_wr", port.ftx().tableWrite.layout()).into(port.ftx().tableWrite);
        }
        return leftQueue;
    }

    /**
     * Strict mode (docs/protocol.md 10.2): each PDU takes its {destination, VC}'s pinned port ({@link #pinnedPort}),
     * which names its connection.
     */
    private Stream pinned(Stream pdus) {
        Expr port = pinnedPortExpr(SueMeta.DST_XPU.of(pdus.tuser()), SueMeta.VC.of(pdus.tuser()));
        unused("unpinned_port", SueMeta.PORT.of(pdus.tuser())); // the packing buffer leaves it 0
        return pdus.with("pinned", Stream.TUSER, SueMeta.LAYOUT.with(pdus.tuser(), "port", port.resize(
                SueMeta.PORT.width())));
    }

    /**
     * Unordered mode (docs/protocol.md 10.7): each PDU takes the connection port chosen when it was picked
     * ({@link #choose}); the choices wait in a queue for their PDUs, which leave the packing buffer in the order they
     * were picked (at most {@code PackingBuffer.PDUS_AHEAD} behind the one leaving, and one in the narrowing stage).
     */
    private Stream chosen(Stream pdus, Flow picked) {
        Stream choice = Stream.of(this, "choice", picked.valid(), ConnectionRouter.EVENT, pickedPort);
        Stream choices = choice.queue("choices", CHOICES);
        Reg lost = reg("choice_lost", 1, 0);
        when(picked.valid().and(choice.ready().not()), () -> lost.set(1));
        status("choice_overflow", Status.Kind.FLAG, lost, "1: a pick found the queue of port choices full (never:"
                + " it holds more than can be picked ahead)");
        Reg first = reg("chosen_first", 1, 1);
        when(pdus.fire(), () -> first.set(pdus.tlast()));
        Reg held = reg("chosen_port", SueMeta.PORT.width(), 0);
        when(pdus.fire().and(first), () -> held.set(choices.payload()));
        Stream waiting = pdus.continueWhen("chosen_ready", first.not().or(choices.valid()));
        choices.ready().set(pdus.fire().and(first));
        unused("unchosen_port", SueMeta.PORT.of(pdus.tuser())); // the packing buffer leaves it 0
        return waiting.with("chosen", Stream.TUSER, SueMeta.LAYOUT.with(waiting.tuser(), "port",
                Hw.mux(first, choices.payload(), held)));
    }

    /**
     * The packing buffer's PDUs (2N bits a beat) onto the transport's bus: as they are on a bus of 2N bits, cut into
     * N-bit beats on a bus as wide as the XPU interface (docs/protocol.md 11.9).
     */
    private Stream toPort(Stream pdus) {
        int ratio = pdus.tdata().width() / config.busWidth();
        if (ratio == 1) {
            return pdus;
        }
        StreamConfig pduBus = new StreamConfig(pdus.tdata().width(), pdus.tuser().width());
        StreamNarrow narrow = child("narrow", new StreamNarrow(new StreamNarrow.Config(pduBus, ratio)));
        pdus.into(narrow.in);
        return narrow.out;
    }

    /**
     * Each port's MAC -> framing checks, then (more ports) widened to the transport's bus, tagged with its port and
     * taking turns a PDU at a time -> PSN decision -> unpacking -> XPU receive interface.
     */
    private void receivePath(List<PortParts> ports, TransportRx trx, CommandUnpacker unpacker) {
        if (config.ports() == 1) {
            ports.get(0).frx().out.into(trx.in);
        } else {
            List<Stream> pdus = new ArrayList<>();
            StreamConfig portBus = new StreamConfig(config.portWidth(), SueMeta.WIDTH);
            for (PortParts port : ports) {
                StreamWiden widen = child(port.prefix() + "widen", new StreamWiden(new StreamWiden.Config(portBus,
                        config.ports())));
                port.frx().out.into(widen.in);
                Stream w = widen.out;
                unused(port.prefix() + "untagged_link", SueMeta.LINK.of(w.tuser())); // the framing leaves it 0
                pdus.add(wholePdus(port.prefix(), w.with(port.prefix() + "tagged", Stream.TUSER,
                        SueMeta.LAYOUT.with(w.tuser(), "link", Hw.lit(SueMeta.LINK.width(), port.index())))));
            }
            Arbiter.Arbitration arb = Arbiter.roundRobinPackets("rx_port_arb", pdus);
            arb.out().into(trx.in);
            unused("rx_port_chosen", arb.chosen());
        }
        trx.out.into(unpacker.in);
        // the XPU's receive interface and the unpacker's status; xpuid, credit_error and counters share names with
        // the path's, so they take the rx_ prefix the interface has
        exposeRest(unpacker, "rx_", unpacker.in.signals());
    }

    /**
     * A port's PDUs queued whole before they take their turn into the transport: the port fills its queue at its own
     * rate, and the transport then reads a whole PDU a beat a cycle, so the ports together keep it busy (a PDU taken
     * while still arriving would hold the others for its port's slower beats).
     */
    private Stream wholePdus(String px, Stream pdus) {
        int depth = config.portQueueBeats();
        Reg whole = reg(px + "rx_whole_pdus", Hw.log2Up(depth + 1), 0); // PDUs whose last beat is in the queue
        Stream out = pdus.queue(px + "rx_queue", depth).continueWhen(px + "rx_whole", whole.ne(0));
        whole.set(Hw.upDown(whole, List.of(pdus.fire().and(pdus.tlast())), List.of(out.fire().and(out.tlast()))));
        return out;
    }

    /** The four links between the two halves of the transport. */
    private void acknowledgements(TransportTx ttx, TransportRx trx) {
        trx.peerAck.into(ttx.peerAck);
        ttx.ackQuery.into(trx.ackQuery);
        trx.ackReply.into(ttx.ackReply);
        trx.ackRequest.into(ttx.ackRequest);
    }

    /** One local_xpu for all: each port's receive check and the transmitter's source id. */
    private void identity(TransportTx ttx, List<PortParts> ports) {
        FrameReceiver first = ports.get(0).frx();
        Port localXpu = in("local_xpu", first.localXpu.width());
        Port localIp = first.localIp == null ? null : in("local_ip", first.localIp.width());
        Port partition = in("local_partition", SueMeta.PARTITION.width());
        for (PortParts port : ports) {
            port.frx().localXpu.set(localXpu);
            port.frx().localPartition.set(partition);
            if (localIp != null) {
                port.frx().localIp.set(localIp);
            }
        }
        ttx.localXpu.set(localXpu.bits(SueMeta.XPU_WIDTH - 1, 0));
        ttx.localPartition.set(partition);
    }

    /**
     * The counters and levels of each port's framing receiver and of the transport; the transport's reachability
     * events ({@code dst_down}, {@code dst_up}: a destination declared unreachable, back again; docs/protocol.md 6.7).
     */
    private void status(TransportTx ttx, TransportRx trx, List<PortParts> ports) {
        ports.forEach(port -> exposeStatus(port.frx(), port.prefix(), "net_"));
        exposeStatus(ttx, "tp_tx_");
        exposeStatus(trx, "tp_rx_");
        ttx.dstDown.into(Flow.master(this, "dst_down", ttx.dstDown.layout()));
        ttx.dstUp.into(Flow.master(this, "dst_up", ttx.dstUp.layout()));
    }

    public Config config() {
        return config;
    }
}
