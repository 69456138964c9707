package org.sue.instance;

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
import org.sue.core.Tag;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamNarrow;
import org.sue.link.CbfcConfig;
import org.sue.link.CbfcReceiver;
import org.sue.link.CbfcSender;
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
     * @param pfc           PFC on the port, or null
     * @param cbfc          CBFC on the port, or null (not both)
     * @param rxVcFifoDepth beats of each VC's receive FIFO behind the transport, 0 for none
     */
    public record Config(CommandPath.Config path, NetConfig net, TransportConfig transport,
                         @Tag("rk") int rxCmdCredits, @Tag("rkd") int rxDataCredits, @Tag("rf") int rxFifoDepth,
                         LlrConfig llr, PfcConfig pfc, CbfcConfig cbfc, @Tag("rv") int rxVcFifoDepth) {
        private static final String NAME = "SueInstance";

        /** Link-level flow control of the port. */
        public enum FlowControl { NONE, PFC, CBFC }

        /** The port's bus: the XPU data width, or twice it (checked against the path in the constructor). */
        public static final Bound BUS_WIDTH = Bound.powerOfTwo(256, 2048);
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
            if (transport.ports() != 1) {
                throw new ConfigException(NAME, "{transport.ports} must be 1: an instance with 2 or 4 ports is not"
                        + " built yet (the transport's tables already hold their rows), got " + transport.ports());
            }
            if (transport.destinations() != path.destinations()) {
                throw new ConfigException(NAME, "{transport.destinations} must equal {path.destinations} ("
                        + path.destinations() + "), got " + transport.destinations());
            }
            CommandIngress.Config.CMD_CREDITS.check(NAME, "rxCmdCredits", rxCmdCredits);
            CommandIngress.Config.DATA_CREDITS.check(NAME, "rxDataCredits", rxDataCredits);
            FrameReceiver.Config.FIFO_DEPTH.check(NAME, "rxFifoDepth", rxFifoDepth);
            if ((long) rxFifoDepth * bus / 8 < path.pduLimit()) {
                throw new ConfigException(NAME, "{rxFifoDepth} must hold a PDU's commands ({path.pduLimit}: "
                        + path.pduLimit() + " bytes in " + bus / 8 + "-byte beats): at least "
                        + beatsFor(path.pduLimit(), bus, true) + ", got " + rxFifoDepth);
            }
            CommandUnpacker.Config.VC_BUFFER_DEPTH.check(NAME, "rxVcFifoDepth", rxVcFifoDepth);
            if (llr != null) {
                checkLlr(path, net, bus, llr);
            }
            if (pfc != null) {
                checkPfc(bus, rxFifoDepth, FrameFormat.frameBytes(net, path.pduLimit()), pfc);
                // frames LLR replays after a pause arrive on top of XOFF: the headroom holds its outstanding bytes
                checkVcBuffers(llr == null ? "{pfc.xoffBytes}" : "{pfc.xoffBytes} + {llr.outstandingBytesMax}",
                        pfc.xoffBytes() + 1L + (llr == null ? 0 : llr.outstandingBytesMax()), bus, rxVcFifoDepth);
            }
            if (cbfc != null) {
                checkCbfc(path, net, bus, rxFifoDepth, llr, pfc, cbfc);
                checkVcBuffers("{cbfc.vcCreditLimit} x {cbfc.creditSize}",
                        (long) cbfc.vcCreditLimit() * cbfc.creditSize(), bus, rxVcFifoDepth);
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

        /** LLR's bus is the instance's, and its largest frame holds the largest PDU the packing buffer makes. */
        private static void checkLlr(CommandPath.Config path, NetConfig net, int bus, LlrConfig llr) {
            if (llr.dataWidth() != bus) {
                throw new ConfigException(NAME, "{llr.dataWidth} must be the bus width (" + bus + " bits), got "
                        + llr.dataWidth());
            }
            int largest = FrameFormat.frameBytes(net, path.pduLimit());
            if (llr.maxFrameBytes() < largest) {
                throw new ConfigException(NAME, "{llr.maxFrameBytes} must hold the largest frame: at least " + largest
                        + " bytes ({path.pduLimit} with its headers), got " + llr.maxFrameBytes());
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
                    null, null, null, rxVcFifoDepth);
        }

        public Config withPath(CommandPath.Config p) {
            return new Config(p, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    llr, pfc, cbfc, rxVcFifoDepth);
        }

        public Config withNet(NetConfig n) {
            return new Config(path, n, transport, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    llr, pfc, cbfc, rxVcFifoDepth);
        }

        public Config withTransport(TransportConfig t) {
            return new Config(path, net, t, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    llr, pfc, cbfc, rxVcFifoDepth);
        }

        public Config withRxFifoDepth(int beats) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, beats, llr, pfc, cbfc,
                    rxVcFifoDepth);
        }

        public Config withRxVcFifoDepth(int beats) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth, llr, pfc, cbfc, beats);
        }

        public Config withLlr(LlrConfig l) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    l, pfc, cbfc, rxVcFifoDepth);
        }

        public Config withCbfc(CbfcConfig c) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    llr, pfc, c, rxVcFifoDepth);
        }

        public Config withPfc(PfcConfig p) {
            return new Config(path, net, transport, rxCmdCredits, rxDataCredits, rxFifoDepth,
                    llr, p, cbfc, rxVcFifoDepth);
        }

        /** Bits of the port's bus: the transport, the framing, the link layer and the MAC interface. */
        public int busWidth() {
            return transport.busWidth();
        }

        /** Bytes of the framing receiver's FIFO, which the VCs share. */
        public long rxFifoBytes() {
            return (long) rxFifoDepth * busWidth() / 8;
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
                long fifoBytes = (long) Math.max(0, rxFifoDepth) * bus / 8;
                TransportConfig t = part("transport", () -> transport.busWidth(bus).destinations(p.destinations())
                        .build());
                LlrConfig l = llrOn ? part("llr", () -> llr.build(bus)) : null;
                PfcConfig f = flowControl == FlowControl.PFC ? part("pfc", () -> pfc.build(bus, fifoBytes,
                        pfcHeadroomBytes(bus, largest, PfcConfig.DEFAULT_LINK_DELAY_CYCLES))) : null;
                CbfcConfig c = flowControl == FlowControl.CBFC ? part("cbfc", () -> cbfc.build(bus, fifoBytes, largest))
                        : null;
                int vcFifo = rxVcFifoDepth != null ? rxVcFifoDepth : c != null
                        ? (int) Math.min(CommandUnpacker.Config.VC_BUFFER_DEPTH.max(),
                                (long) c.vcCreditLimit() * c.creditSize() / (bus / 8))
                        : f != null ? 0 : VC_FIFO_DEPTH_WITHOUT_FLOW_CONTROL;
                return new Config(p, n, t, rxCmdCredits, rxDataCredits, rxFifoDepth, l, f, c, vcFifo);
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

    /**
     * The headroom above a PFC threshold in this instance for a link of {@code linkDelayCycles} each way
     * ({@link PfcConfig#headroomBytes} with the peer's frames ahead of a pause).
     */
    public static long pfcHeadroomBytes(int busWidth, int largestFrame, long linkDelayCycles) {
        return PfcConfig.headroomBytes(busWidth, largestFrame, PFC_PEER_FRAMES_AHEAD, linkDelayCycles);
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
        Departures leaving = departures(frx, trx, unpacker);
        Expr linkVcReady = linkLayer(path, ttx, ftx, frx, leaving);
        if (config.pfc() == null && config.cbfc() == null) {
            unused("rx_fifo_kept", frx.buffered.valid(), frx.buffered.payload());
            leaving.flows().forEach(f -> unused(f.name() + "_unread", f.valid(), f.payload()));
        }
        if (config.cbfc() == null) { // nothing to reserve or charge
            unused("link_credit_events", path.picked.valid(), path.picked.payload(), ttx.reserve.valid(), ttx.reserve.payload(), ttx.unreserve.valid(), ttx.unreserve.payload(),
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
        path.vcReady.set(config.cbfc() != null ? ttx.pickVcReady : ready);
    }

    /**
     * The port's link layer between the framing and the MAC: CBFC or PFC, Link Layer Retry, both, or none. With LLR
     * the frames of the framing, and with CBFC its CC_Updates, pass through the replay buffer (a CC_Update counts
     * the frames before it, so a replay must not let it overtake them); PFC frames go beside it. Messages of LLR
     * and CBFC share the control channel. Returns the VCs the link's flow control lets start.
     */
    private Expr linkLayer(CommandPath path, TransportTx ttx, FrameTransmitter ftx, FrameReceiver frx,
                           Departures leaving) {
        LlrTx ltx = config.llr() == null ? null : child("llr_tx", new LlrTx(config.llr()));
        LlrRx lrx = config.llr() == null ? null : child("llr_rx", new LlrRx(config.llr()));
        Flow control = framesFromMac(frx, lrx);
        List<Stream> ctlOut = new ArrayList<>();
        List<Flow> ctlIn = new ArrayList<>();
        Expr vcReady = Hw.ones(SueMeta.VCS);
        if (config.cbfc() != null) {
            CbfcSender sender = child("cbfc_tx", new CbfcSender(config.cbfc()));
            ftx.out.retagged("to_cbfc", sender.in.layout(), SueMeta.VC.of(ftx.out.tuser())).into(sender.in);
            vcReady = creditBasedFlowControl(path, ttx, frx, leaving, sender, control, ctlOut, ctlIn);
            if (ltx == null) {
                toMac(sender.out);
            } else { // CC_Updates numbered like the frames around them: never poisoned
                sender.out.retagged("cbfc_to_llr", ltx.in.layout(), Hw.bool(false)).into(ltx.in);
            }
        } else if (ltx != null) {
            // [ours] the framing never poisons: each frame is whole
            ftx.out.retagged("to_llr", ltx.in.layout(), Hw.bool(false)).into(ltx.in);
        }
        if (config.pfc() != null) {
            vcReady = priorityFlowControl(ftx, frx, leaving, ltx, control);
        } else if (config.cbfc() == null && ltx == null) {
            toMac(ftx.out);
        }
        if (ltx != null) {
            linkLayerRetry(ltx, lrx, ctlOut, ctlIn);
            if (config.pfc() == null) {
                toMac(ltx.out);
            }
        }
        controlChannel(ctlOut, ctlIn);
        portStatus(ltx);
        return vcReady;
    }

    /**
     * The port's status ({@code port_up}, counters {@code port_*}; docs/protocol.md 7.8): LLR's judgement of the link
     * with LLR, the MAC's {@code link_up} without it.
     */
    private void portStatus(LlrTx ltx) {
        PortStatus status = child("port_status", new PortStatus());
        status.usable.set(ltx != null ? ltx.usable : in("link_up", 1));
        exposeStatus(status, "port_");
    }

    /**
     * Link credit is reserved for a largest frame where a PDU is decided (the packing buffer's picks, the
     * transport's starts), given back for a picked PDU the transport holds for a go-back, and charged as the
     * frame's own when its PDU leaves the transport. The receive FIFO is the credits' buffer: a frame is enqueued at
     * the verdict that keeps it and dequeued as its last beat leaves; CC_Updates apply {@value #CC_DELAY}
     * cycles after their last beat, after the verdicts of the frames before them. CF_Updates cross on the control
     * channel. Returns the VCs the credits let start.
     */
    private Expr creditBasedFlowControl(CommandPath path, TransportTx ttx, FrameReceiver frx, Departures leaving,
                                        CbfcSender sender, Flow ccUpdates, List<Stream> ctlOut,
                                        List<Flow> ctlIn) {
        CbfcReceiver receiver = child("cbfc_rx", new CbfcReceiver(new CbfcReceiver.Config(config.cbfc(), CC_DELAY)));
        expose(sender.localMac);
        Flow picked = path.picked; // never beside a transport start
        sender.reserve.drive(picked.valid().or(ttx.reserve.valid()), Hw.mux(picked.valid(), picked.field("vc"),
                ttx.reserve.field("vc")));
        ttx.unreserve.into(sender.unreserve);
        sender.charge.drive(ttx.charge.valid(), sender.charge.layout().expr().set("vc", ttx.charge.field("vc"))
                .set("bytes", frameBytes(ttx.charge.field("len"))).set("reserved", Hw.bool(true)).build());
        ctlIn.add(sender.ctlIn);
        ctlOut.add(receiver.ctlOut);
        // receive: the frame FIFO's frames per VC, CC_Updates after the verdicts before them
        ccUpdates.into(receiver.ccIn);
        frameEvent(frx.buffered, receiver.enqueue);
        frameEvent(leaving.delivered(), receiver.dequeue);
        if (leaving.discarded() != null) {
            frameEvent(leaving.discarded(), receiver.discard);
        } else {
            receiver.discard.tieOff(); // a frame leaves only one way
        }
        exposeStatus(sender, "cbfc_");
        exposeStatus(receiver, "cbfc_");
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
     * Frames from the MAC: through LLR's receive side if there is one, then, with PFC or CBFC, the MAC Control
     * frames split off (returned; null without flow control), the others on to the framing receiver.
     */
    private Flow framesFromMac(FrameReceiver frx, LlrRx lrx) {
        Flow toFraming = frx.in; // the first block after the MAC
        Flow control = null;
        if (config.pfc() != null || config.cbfc() != null) {
            MacControlDemux demux = child("mac_control", new MacControlDemux(new MacControlDemux.Config(
                    config.busWidth())));
            demux.out.into(frx.in);
            exposeStatus(demux, "mac_");
            toFraming = demux.in;
            control = demux.control;
        }
        if (lrx != null) {
            lrx.out.into(toFraming);
            toFraming = lrx.in;
        }
        Flow.slave(this, "s_axis", toFraming.layout()).into(toFraming);
        return control;
    }

    /**
     * PFC frames between the frames to the MAC (without LLR inserted between the framing's frames; with LLR merged
     * after its transmit side, beside the replay buffer); the MAC Control frames from the MAC hold VCs; the receive
     * FIFO's levels per VC ask for pauses. Returns the VCs PFC lets start.
     */
    private Expr priorityFlowControl(FrameTransmitter ftx, FrameReceiver frx, Departures leaving, LlrTx ltx,
                                     Flow pfcFrames) {
        PfcConfig pfc = config.pfc();
        PfcGenerator gen = child("pfc_gen", new PfcGenerator(pfc));
        PfcPause pause = child("pfc_pause", new PfcPause(pfc));
        if (ltx == null) {
            ftx.out.retagged("to_pfc", gen.in.layout(), null).into(gen.in);
            toMac(gen.out);
        } else { // the generator makes only PFC frames; they leave unnumbered, between LLR's frames
            gen.in.tieOff();
            unused("no_frames_ready", gen.in.ready());
            Layout mac = ltx.out.layout();
            Expr unnumbered = LlrSideband.TX.expr().set("seq", Hw.zeros(LinkControl.SEQ_WIDTH)).set("llr",
                    Hw.bool(false)).set("poisoned", Hw.bool(false)).build();
            Stream pfcOut = gen.out.retagged("pfc_to_mac", mac, unnumbered);
            Arbiter.Arbitration toMac = Arbiter.roundRobinPackets("mac_arb", List.of(ltx.out, pfcOut));
            toMac(toMac.out());
            unused("mac_chosen", toMac.chosen());
        }
        expose(gen.localMac);
        pfcFrames.into(pause.in);
        receiveLevels(gen, frx, leaving);
        exposeStatus(gen, "pfc_");
        exposeStatus(pause, "pfc_");
        return pause.vcReady;
    }

    /**
     * The generator's levels: bytes of receive-buffer beats each VC's frames hold and, with a shared threshold, all
     * VCs' frames together. A frame counts from its verdict (the packet FIFO keeps it) until it leaves the receive
     * buffer ({@link Departures}); a frame still arriving is part of the headroom above XOFF.
     */
    private void receiveLevels(PfcGenerator gen, FrameReceiver frx, Departures leaving) {
        int beatBytes = config.busWidth() / 8;
        int shift = Integer.numberOfTrailingZeros(beatBytes);
        Function<Expr, Expr> bytesOf = len -> len.resize(PfcConfig.LEVEL_WIDTH).add(beatBytes - 1).shr(shift)
                .shl(shift);
        Expr inLen = wire("rx_level_in_bytes", bytesOf.apply(frx.buffered.field("len")));
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
            Reg bytes = level.apply("rx_fifo_level_" + v, f -> f.field("vc").eq(vc));
            status("rx_fifo_level_" + v, Status.Kind.LEVEL, bytes, "Bytes of receive-buffer beats VC " + v
                    + "'s kept frames hold (what PFC compares with its XOFF and XON levels)");
            gen.levels.get(v).set(bytes);
        }
        if (gen.levelTotal != null) { // kept beside the VCs' levels rather than added from them: no adder tree
            Reg total = level.apply("rx_fifo_level_total", f -> Hw.bool(true));
            status("rx_fifo_level_total", Status.Kind.LEVEL, total, "Bytes of receive-buffer beats all VCs' kept"
                    + " frames hold (what PFC compares with its shared threshold)");
            gen.levelTotal.set(total);
        }
    }

    /**
     * Where a frame the framing receiver kept leaves the receive buffer, as {vc, len} flows: without per-VC buffers
     * as its last beat leaves the packet FIFO ({@code delivered}; {@code discarded} null); with them as its PDU's last
     * beat leaves its VC's FIFO, or when the transport does not deliver it ({@code discarded}).
     */
    private record Departures(Flow delivered, Flow discarded) {
        List<Flow> flows() {
            return discarded == null ? List.of(delivered) : List.of(delivered, discarded);
        }
    }

    private Departures departures(FrameReceiver frx, TransportRx trx, CommandUnpacker unpacker) {
        if (unpacker.freed != null) {
            return new Departures(unpacker.freed, trx.discarded);
        }
        unused("transport_discarded", trx.discarded.valid(), trx.discarded.payload());
        return new Departures(Flow.of(this, "rx_fifo_leaving", frx.out.fire().and(frx.out.tlast()),
                SueMeta.PDU_SIZE, SueMeta.sizeOf(frx.out.tuser())), null);
    }

    /** CBFC's event of a frame kept or leaving: its VC and its frame's bytes. */
    private void frameEvent(Flow pdu, Flow event) {
        event.drive(pdu.valid(), event.layout().expr().set("vc", pdu.field("vc")).set("bytes",
                frameBytes(pdu.field("len"))).build());
    }

    /** The frames to the MAC ({@code m_axis}) from the last block on the way out. */
    private void toMac(Stream frames) {
        frames.into(Stream.master(this, "m_axis", frames.layout()));
    }

    /**
     * LLR's ports: its control messages (the receive side's ACKs, NACKs and INIT_ECHOs, the transmit side's INITs)
     * on the control channel, which each half reads for its own types; {@code llr_enable}, {@code link_up}, counters.
     */
    private void linkLayerRetry(LlrTx ltx, LlrRx lrx, List<Stream> ctlOut, List<Flow> ctlIn) {
        ctlOut.add(lrx.ctlOut);
        ctlOut.add(ltx.ctlOut);
        ctlIn.add(ltx.ctlIn);
        ctlIn.add(lrx.ctlIn);
        Port enable = in("llr_enable", 1);
        ltx.enable.set(enable);
        lrx.enable.set(enable);
        expose(ltx.linkUp);
        exposeStatus(ltx, "llr_");
        exposeStatus(lrx, "llr_");
    }

    /**
     * The link-control channel ({@code ctl_out}, {@code ctl_in}; docs/protocol.md 7.2) for the blocks that use it:
     * their messages out take turns, every message in goes to all of them (each takes its own types).
     */
    private void controlChannel(List<Stream> from, List<Flow> to) {
        if (from.isEmpty()) {
            return;
        }
        Stream out = Stream.master(this, "ctl_out", LinkControl.LAYOUT);
        if (from.size() == 1) {
            from.get(0).into(out);
        } else {
            Arbiter.Arbitration ctl = Arbiter.roundRobin("ctl_arb", from);
            ctl.out().into(out);
            unused("ctl_chosen", ctl.chosen());
        }
        Flow in = Flow.slave(this, "ctl_in", LinkControl.LAYOUT);
        to.forEach(in::into);
    }

    /** XPU commands -> packing -> PSN and retransmit store -> RH, R-CRC, network header, FCS -> MAC. */
    private void transmitPath(CommandPath path, TransportTx ttx, FrameTransmitter ftx) {
        List<Signal> inside = new ArrayList<>(path.out.signals());
        inside.addAll(path.picked.signals());
        inside.addAll(List.of(path.dstReady, path.vcReady));
        exposeRest(path, "", inside); // the XPU's transmit interface, xoff, the path's status
        toPort(path.out).into(ttx.in);
        path.dstReady.set(ttx.dstReady); // the transport decides which destinations may be picked
        ttx.out.into(ftx.in);
        Flow.slave(this, "tbl_wr", ftx.tableWrite.layout()).into(ftx.tableWrite);
    }

    /**
     * The packing buffer's PDUs (2N bits a beat) onto the port's bus: as they are on a port of 2N bits, cut into
     * N-bit beats on a port as wide as the XPU interface (docs/protocol.md 11.9).
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

    /** MAC -> framing checks -> PSN decision -> unpacking -> XPU receive interface. */
    private void receivePath(FrameReceiver frx, TransportRx trx, CommandUnpacker unpacker) {
        frx.out.into(trx.in);
        trx.out.into(unpacker.in);
        // the XPU's receive interface and the unpacker's status; xpuid, credit_error and counters share names with
        // the path's, so they take the rx_ prefix the interface has
        exposeRest(unpacker, "rx_", unpacker.in.signals());
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

    /**
     * The counters and levels of the framing receiver and the transport; the transport's reachability events
     * ({@code dst_down}, {@code dst_up}: a destination declared unreachable, back again; docs/protocol.md 6.7).
     */
    private void status(TransportTx ttx, FrameReceiver frx, TransportRx trx) {
        exposeStatus(frx, "net_");
        exposeStatus(ttx, "tp_tx_");
        exposeStatus(trx, "tp_rx_");
        ttx.dstDown.into(Flow.master(this, "dst_down", ttx.dstDown.layout()));
        ttx.dstUp.into(Flow.master(this, "dst_up", ttx.dstUp.layout()));
    }

    public Config config() {
        return config;
    }
}
