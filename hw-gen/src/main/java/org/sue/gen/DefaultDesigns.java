package org.sue.gen;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.sue.axi.AxiBridge;
import org.sue.axi.AxiCreditPair;
import org.sue.axi.AxiCreditWrapper;
import org.sue.axi.AxiConfig;
import org.sue.axi.AxiRemoteMaster;
import org.sue.axi.AxiRequestPacker;
import org.sue.axi.AxiResponseUnpacker;
import org.sue.axi.AxiWrappedPair;
import org.sue.cmd.XpuCommandRx;
import org.sue.cmd.XpuCommandTx;
import java.util.function.Supplier;
import org.sue.cmd.CommandPath;
import org.sue.cmd.CommandTable;
import org.sue.cmd.CommandUnpacker;
import org.sue.core.Component;
import org.sue.lib.CreditCounter;
import org.sue.mgmt.MgmtRegisters;
import org.sue.mgmt.RawFrameFilter;
import org.sue.mgmt.RawRxBuffer;
import org.sue.mgmt.RawTxBuffer;
import org.sue.mgmt.tb.ExampleMaps;
import org.sue.lib.stream.CreditReceiver;
import org.sue.lib.stream.CreditSender;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamNarrow;
import org.sue.lib.stream.StreamWiden;
import org.sue.lib.stream.SyncFifo;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;
import org.sue.link.CbfcConfig;
import org.sue.link.CbfcReceiver;
import org.sue.link.CbfcSender;
import org.sue.link.LlrConfig;
import org.sue.link.LlrRx;
import org.sue.link.LlrTx;
import org.sue.link.MacControlDemux;
import org.sue.link.PfcConfig;
import org.sue.link.PfcGenerator;
import org.sue.link.PfcPause;
import org.sue.link.PortStatus;
import org.sue.net.FrameReceiver;
import org.sue.net.FrameTransmitter;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.SueMeta;
import org.sue.instance.SueAxiInstance;
import org.sue.instance.SueInstance;
import org.sue.instance.SueManagedInstance;
import org.sue.transport.ConnectionRouter;
import org.sue.transport.TransportConfig;
import org.sue.transport.TransportTx;
import org.sue.transport.TransportRx;

/**
 * The designs the test suite lints and synthesises, by name: the SUE instance of each configuration under configs/
 * (default, AFH Gen2, small, AXI4; {@code ConfigsTest} checks that the files describe these) and the standalone blocks.
 */
public final class DefaultDesigns {
    private DefaultDesigns() {
    }

    public static Map<String, Supplier<Component>> all() {
        Map<String, Supplier<Component>> m = new LinkedHashMap<>();
        // the whole instance, what scripts/generate writes, and the other two configurations, then the transmit
        // command path: first, as the longest to check and synthesise, so that they start first when the designs are
        // worked through in parallel
        // each behind its management port, as scripts/generate writes them
        m.put("sue_instance", () -> managed(SueInstance.Config.defaults()));
        m.put("sue_instance_w512_gen2", () -> managed(gen2Instance())); // 512-bit AFH Gen2
        m.put("sue_instance_small", () -> managed(smallInstance())); // for FPGA experiments
        m.put("sue_instance_small_ports", () -> new SueInstance(smallInstance())); // output.management false
        m.put("sue_instance_two_port", () -> managed(portsInstance(2))); // configs/two_port.json
        m.put("sue_instance_four_port", () -> new SueInstance(portsInstance(4))); // configs/four_port.json
        m.put("sue_axi_instance", () -> new SueAxiInstance(axiInstance())); // the XPU on AXI4
        m.put("sue_axi_instance_managed", () -> new SueManagedInstance(new SueManagedInstance.Config(
                axiInstance()))); // as scripts/generate writes configs/axi4.json
        // the transmit command path, its packing buffer on QueueStore (1024-bit cells, 512 KiB)
        m.put("cmd_path_n512", () -> new CommandPath(CommandPath.Config.defaults(CommandTable.example())));
        m.put("command_fifo", () -> new SyncFifo(new SyncFifo.Config(512, 64)));
        // the instance's 2N-bit PDU beats onto an N-bit port bus: 1024 to 512 bits, SueMeta in tuser
        m.put("narrow_w1024_r2", () -> new StreamNarrow(new StreamNarrow.Config(new StreamConfig(1024, SueMeta.WIDTH),
                2)));
        // its inverse: N-bit beats gathered into 2N-bit ones, SueMeta in tuser
        m.put("widen_w512_r2", () -> new StreamWiden(new StreamWiden.Config(new StreamConfig(512, SueMeta.WIDTH), 2)));
        m.put("connection_router_p4", () -> new ConnectionRouter(new ConnectionRouter.Config(4, 16, 64)));
        m.put("credit_counter", () -> new CreditCounter(new CreditCounter.Config(1024, 8)));
        m.put("mgmt_registers_example", () -> new MgmtRegisters(new MgmtRegisters.Config(ExampleMaps.everyAccess(),
                12)));
        // the default instance's register block alone
        // the raw-packet blocks of the management port, at the default instance's bus
        m.put("raw_tx_buffer_w1024", () -> new RawTxBuffer(new RawTxBuffer.Config(1024, 1518)));
        m.put("raw_rx_buffer_w1024", () -> new RawRxBuffer(new RawRxBuffer.Config(1024, 1518, 4096)));
        m.put("raw_frame_filter_w1024", () -> new RawFrameFilter(new RawFrameFilter.Config(1024, false, 0x0800)));
        m.put("mgmt_registers_sue", () -> new MgmtRegisters(new MgmtRegisters.Config(RegisterMapFiles.defaultMap(),
                SueManagedInstance.Config.ADDR_WIDTH)));
        m.put("transport_tx", () -> new TransportTx(TransportConfig.defaults(1024)));
        m.put("crc32_w64", () -> new ParallelCrc(new ParallelCrc.Config(CrcParams.CRC32, 64)));
        m.put("crc32_w512", () -> new ParallelCrc(new ParallelCrc.Config(CrcParams.CRC32, 512)));
        m.put("crc32_w1024", () -> new ParallelCrc(new ParallelCrc.Config(CrcParams.CRC32, 1024)));
        m.put("crc32c_w1024", () -> new ParallelCrc(new ParallelCrc.Config(CrcParams.CRC32C, 1024)));
        // SUE framing, default configuration: 1024-bit bus, Ethernet/IPv4/UDP; other formats at 512 bits
        NetConfig ipv4 = NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP);
        m.put("sue_tx_w1024", () -> new FrameTransmitter(new FrameTransmitter.Config(1024, ipv4, 1024)));
        m.put("sue_rx_w1024", () -> new FrameReceiver(new FrameReceiver.Config(1024, ipv4, 128)));
        NetConfig ipv6 = NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP).withVlan(true); // with its UDP checksum
        m.put("sue_tx_w512_ipv6_vlan", () -> new FrameTransmitter(new FrameTransmitter.Config(512, ipv6, 1024)));
        NetConfig gen2 = NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED).withVlan(true);
        m.put("sue_tx_w512_gen2c", () -> new FrameTransmitter(new FrameTransmitter.Config(512, gen2, 1024)));
        NetConfig gen1 = NetConfig.defaults(HeaderFormat.AFH_GEN1).withGen1Options(0x88B7, true);
        m.put("sue_rx_w512_gen1", () -> new FrameReceiver(new FrameReceiver.Config(512, gen1, 128)));
        // command interface to the XPU: 512-bit data, packed commands on the framing's 1024-bit bus
        m.put("cmd_unpacker_s1024_d512", () -> new CommandUnpacker(new CommandUnpacker.Config(1024, 512,
                CommandTable.example(), 64, 32)));
        // the transport's receive side: 1024 sources, expected PSNs in RAM
        m.put("transport_rx_w1024", () -> new TransportRx(TransportConfig.defaults(1024)));
        // Link Layer Retry, the 800G / 40 m profile on the 1024-bit bus
        m.put("llr_tx_w1024", () -> new LlrTx(LlrConfig.defaults(1024)));
        m.put("cbfc_tx_w1024", () -> new CbfcSender(CbfcConfig.defaults(1024)));
        m.put("cbfc_rx_w1024", () -> new CbfcReceiver(CbfcConfig.defaults(1024)));
        m.put("pfc_pause_w1024", () -> new PfcPause(PfcConfig.defaults(1024)));
        m.put("port_status", PortStatus::new);
        m.put("pfc_gen_w1024", () -> new PfcGenerator(PfcConfig.defaults(1024)));
        m.put("mac_control_demux_w1024", () -> new MacControlDemux(new MacControlDemux.Config(1024)));
        m.put("llr_rx_w1024", () -> new LlrRx(LlrConfig.defaults(1024)));
        // the AXI4 form of the command interface, 512-bit data, 1024 destinations
        m.put("axi_request_packer_w512", () -> new AxiRequestPacker(new AxiRequestPacker.Config(
                AxiConfig.defaults(512, 1024))));
        m.put("axi_bridge_w512", () -> new AxiBridge(AxiBridge.Config.of(AxiConfig.defaults(512, 1024), 64, 32, 16,
                8)));
        m.put("axi_bridge_w512_p2", () -> new AxiBridge(AxiBridge.Config.of(AxiConfig.defaults(512, 1024), 64, 32, 16,
                8).withPairs(2))); // two pairs on one FIFO interface
        m.put("axi_remote_master_w512", () -> new AxiRemoteMaster(new AxiRemoteMaster.Config(
                AxiConfig.defaults(512, 1024))));
        m.put("xpu_command_tx_n512", () -> new XpuCommandTx(new XpuCommandTx.Config(512, 64, 32)));
        m.put("xpu_command_rx_n512_v2", () -> new XpuCommandRx(new XpuCommandRx.Config(512, 16, 8, 2)));
        // the AXI4 pair in the spec's credit form (default credits): the two ends of a loop at the W channel's width,
        // the SoC's side of the ten loops, and the pair (its bridge is axi_bridge_w512's)
        AxiConfig axi512 = AxiConfig.defaults(512, 1024);
        int wWidth = axi512.w().width();
        m.put("credit_receiver_w577", () -> new CreditReceiver(new CreditReceiver.Config(wWidth, 8)));
        m.put("credit_sender_w577", () -> new CreditSender(new CreditSender.Config(wWidth, 8)));
        AxiCreditPair.Config creditPair = AxiCreditPair.Config.of(AxiBridge.Config.of(axi512, 64, 32, 16, 8));
        m.put("axi_credit_wrapper_w512", () -> new AxiCreditWrapper(creditPair.wrapper()));
        m.put("axi_credit_pair_w512", () -> new AxiCreditPair(creditPair));
        m.put("axi_wrapped_pair_w512", () -> new AxiWrappedPair(creditPair)); // the AXI4 instance's default form
        m.put("axi_response_unpacker_w512", () -> new AxiResponseUnpacker(new AxiResponseUnpacker.Config(
                AxiConfig.defaults(512, 1024))));
        return m;
    }

    /**
     * Designs the test suite elaborates whole (latches, drivers, loops, memories) but synthesises to gates only around
     * their blocks: the top module, its submodules black boxes. Every module below their tops is, kind for kind, in a
     * design that is synthesised whole ({@code GeneratedRtlQualityTest} checks that it stays so): the instances' blocks
     * are default designs of their own, the 1024-bit framing and the AFH Gen2 transmitter are made of the modules of
     * the 512-bit framing, and the AXI4 bridges and pairs of the AXI4 blocks, the credit loops' ends and the XPU
     * ends of the FIFO interface (whole, each bridge would synthesise the slave's request side again). Whole, the instances take Yosys 7 to 12 CPU minutes each; the bench maps every
     * default design, these too, to LUTs.
     */
    public static Set<String> topModuleSynthesisOnly() {
        return Set.of("sue_instance", "sue_instance_w512_gen2", "sue_instance_small", "sue_axi_instance",
                "sue_instance_small_ports", "sue_axi_instance_managed", "sue_instance_two_port", "sue_instance_four_port",
                "sue_tx_w1024", "sue_rx_w1024", "sue_tx_w512_gen2c", "axi_bridge_w512", "axi_bridge_w512_p2",
                "axi_credit_pair_w512", "axi_wrapped_pair_w512");
    }

    /**
     * A small instance for FPGA experiments (configs/small_fpga.json): 256-bit XPU data on a 512-bit bus, 64
     * destinations, a 64 KiB packing buffer and a 64 KiB retransmit store, Ethernet/IPv4/UDP; PFC with XOFF at 4 KiB
     * and XON at 2 KiB of a 32 KiB receive FIFO the VCs share (per-VC FIFOs would each need LLR's 32 KiB outstanding
     * as headroom).
     */
    /** {@code sue} behind its management port, as the configuration's generated top. */
    static SueManagedInstance managed(SueInstance.Config sue) {
        return new SueManagedInstance(new SueManagedInstance.Config(sue));
    }

    public static SueInstance.Config smallInstance() {
        return SueInstance.Config.builder()
                .path(p -> p.dataWidth(256).destinations(64).cells(1024).cmdCredits(32).dataCredits(16)).busWidth(512)
                .transport(t -> t.storeBytes(65536).windowPdus(256).rtoCycles(4096).ackDelay(256))
                .rxCmdCredits(32).rxDataCredits(16).rxFifoDepth(512)
                .llr(l -> l.outstandingFramesMax(64).outstandingBytesMax(32768))
                .flowControl(SueInstance.Config.FlowControl.PFC).pfc(p -> p.xoffBytes(4096).xonBytes(2048))
                .build();
    }

    /**
     * The XPU on AXI4 (configs/axi4.json): 512-bit data on a 512-bit port, 64 destinations, 2048 cells, the AXI4
     * form's command types, otherwise the defaults (Ethernet/IPv4/UDP, LLR, CBFC); the AXI4 pair's defaults (48-bit
     * addresses with the XPU in bits 36..45, 4-bit IDs, 8 outstanding per ID, 8 remap entries of 4 parts).
     */
    public static SueAxiInstance.Config axiInstance() {
        AxiConfig axi = AxiConfig.defaults(512, 64);
        return SueAxiInstance.Config.of(SueInstance.Config.builder().path(p -> p.dataWidth(512).destinations(64)
                .cells(2048)).build(), axi);
    }

    /**
     * An instance of {@code ports} ports (configs/two_port.json, configs/four_port.json): 512-bit XPU data on a
     * 1024-bit transport, so 2 ports of 512 bits or 4 of 256 (an 800G instance as 2 x 400G or 4 x 200G at the same
     * clock), 64 destinations, 2048 cells, otherwise the defaults (Ethernet/IPv4/UDP, LLR and CBFC on every port, CBFC
     * sized for each port's 1024-beat receive FIFO); its statuses and settings as ports (the management port's map
     * has one port's blocks). Two ports in strict mode, four in unordered mode: an example of each.
     */
    public static SueInstance.Config portsInstance(int ports) {
        return SueInstance.Config.builder().path(p -> p.dataWidth(512).destinations(64).cells(2048)).busWidth(1024)
                .transport(t -> t.ports(ports)).ordering(ports == 4 ? SueInstance.Config.Ordering.UNORDERED
                        : SueInstance.Config.Ordering.STRICT).build();
    }

    /**
     * A 512-bit bus (256-bit XPU data), AFH Gen2 compressed with a VLAN tag, otherwise the defaults; CBFC on a
     * 1024-beat (64 KiB) receive FIFO: 512 port credits of 128 bytes, 256 per VC, largest frame 2304 bytes; a VC's
     * 256 credits in its own 512-beat (32 KiB) receive FIFO behind the transport.
     */
    public static SueInstance.Config gen2Instance() {
        return SueInstance.Config.builder()
                .path(p -> p.dataWidth(256)).busWidth(512)
                .net(n -> n.format(HeaderFormat.AFH_GEN2_COMPRESSED).vlan(true))
                .cbfc(c -> c.vcCreditLimit(256).portCreditLimit(512).maxFrameBytes(2304))
                .build();
    }
}
