package org.sue.vectors;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.sue.mgmt.MgmtRegisters;
import org.sue.instance.SueManagedInstance;
import org.sue.mgmt.tb.ExampleMaps;
import org.sue.axi.AxiBridge;
import org.sue.axi.AxiCommandLoopback;
import org.sue.axi.AxiCreditLoopback;
import org.sue.axi.AxiCreditPair;
import org.sue.axi.AxiConfig;
import org.sue.axi.AxiCredits;
import org.sue.axi.AxiRemoteMaster;
import org.sue.axi.AxiRequestPacker;
import org.sue.axi.AxiResponseUnpacker;
import org.sue.axi.tb.AxiRemoteMasterRun;
import org.sue.axi.tb.AxiRequestRun;
import org.sue.axi.tb.AxiResponseRun;
import org.sue.axi.tb.AxiWriteReadRun;
import org.sue.cmd.BufferCredits;
import org.sue.cmd.CommandIngress;
import org.sue.cmd.CommandLoopback;
import org.sue.cmd.CommandPath;
import org.sue.cmd.CommandTable;
import org.sue.cmd.CommandUnpacker;
import org.sue.cmd.PackingBuffer;
import org.sue.cmd.QueueStore;
import org.sue.cmd.XpuCommandRx;
import org.sue.cmd.XpuCommandTx;
import org.sue.cmd.tb.BufferTraffic;
import org.sue.cmd.tb.XpuCommandRxRun;
import org.sue.cmd.tb.XpuCommandTxRun;
import org.sue.cmd.tb.QueueStoreTraffic;
import org.sue.core.ResetStyle;
import org.sue.instance.SueAxiInstance;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.AxiTwoXpuRun;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.lib.CreditCounter;
import org.sue.lib.stream.CreditReceiver;
import org.sue.lib.stream.CreditSender;
import org.sue.lib.stream.SyncFifo;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;
import org.sue.lib.stream.PacketFifo;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamCrcAppend;
import org.sue.lib.stream.StreamNarrow;
import org.sue.lib.stream.StreamPrepend;
import org.sue.lib.stream.StreamSlice;
import org.sue.lib.stream.StreamWiden;
import org.sue.link.CbfcConfig;
import org.sue.link.CbfcReceiver;
import org.sue.link.CbfcSender;
import org.sue.link.FrameAction;
import org.sue.link.LlrConfig;
import org.sue.link.PfcConfig;
import org.sue.link.PfcGenerator;
import org.sue.link.PfcPause;
import org.sue.link.LlrRx;
import org.sue.link.LlrTx;
import org.sue.link.MacControlDemux;
import org.sue.net.FrameReceiver;
import org.sue.net.FrameTransmitter;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.NetHeaderInserter;
import org.sue.net.RhInserter;
import org.sue.net.tb.LoopbackRun;
import org.sue.sim.Simulator;
import org.sue.transport.ConnectionRouter;
import org.sue.transport.TransportConfig;
import org.sue.transport.TransportTx;
import org.sue.transport.TransportRx;
import org.sue.transport.tb.ConnectionRouterTraffic;
import org.sue.transport.tb.TransportRxTraffic;

/** Every committed golden-vector scenario. */
public final class GoldenScenarios {
    private GoldenScenarios() {
    }

    public static List<GoldenScenario> all() {
        List<GoldenScenario> list = new ArrayList<>();
        list.add(fifo("fifo_w72_d5", 72, 5, ResetStyle.SYNC_HIGH, 1500));
        list.add(fifo("fifo_w256_d16_async_low", 256, 16, ResetStyle.ASYNC_LOW, 600));
        list.add(creditCounter("credit_counter_m1000_a8", 1000, 8, 3000));
        list.add(new GoldenScenario("mgmt_registers_example", () -> new MgmtRegisters(new MgmtRegisters.Config(
                ExampleMaps.everyAccess(), 12)), ResetStyle.SYNC_HIGH, 3000,
                () -> MgmtTraffic.of(ExampleMaps.everyAccess())));
        list.add(managedInstance("sue_managed_instance_llr_cbfc_w512", SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP)
                .withLlr(SmallInstance.llr(50)), 4000));
        // two ports: port 1's status in its own block, the links going down at different times
        list.add(managedInstance("sue_managed_instance_p2_llr_cbfc_w512", SmallInstance.multiPort(
                HeaderFormat.ETH_IPV4_UDP, 2, 50), 4000));
        // the two ends of a credit loop, the other end in the testbench (it breaks the rules now and then)
        list.add(new GoldenScenario("credit_receiver_w12_c5", () -> new CreditReceiver(new CreditReceiver.Config(12, 5)),
                ResetStyle.SYNC_HIGH, 3000, () -> CreditTraffic.toReceiver(12, 5)));
        list.add(new GoldenScenario("credit_sender_w12_c3", () -> new CreditSender(new CreditSender.Config(12, 3)),
                ResetStyle.SYNC_HIGH, 3000, () -> CreditTraffic.fromSender(12, 3)));
        TransportConfig tx4 = TransportConfig.builder(256).destinations(4).storeBytes(16384).windowPdus(8)
                .rtoCycles(400).ackDelay(60).ackCount(2).build();
        list.add(new GoldenScenario("transport_tx_w256_d4", () -> new TransportTx(tx4), ResetStyle.SYNC_HIGH, 8000,
                () -> new TransportTxTraffic(4, 300)));
        TransportConfig txDead = tx4.toBuilder().unreachableTimeouts(2).probeCycles(700).build();
        list.add(new GoldenScenario("transport_tx_dead_w256_d4", () -> new TransportTx(txDead), ResetStyle.SYNC_HIGH,
                9000, () -> new TransportTxTraffic(4, 300, 1, 2000, 6500)));
        // larger PDUs, so the store fills behind the dead destination's records and they are relocated
        list.add(new GoldenScenario("transport_tx_fenced_w256_d4", () -> new TransportTx(txDead), ResetStyle.SYNC_HIGH,
                9000, () -> new TransportTxTraffic(4, 1200, 1, 1500, 7500)));
        // AXI4 requests into commands: 8 destinations by address bits, and 1024 by AxUSER on a 1024-bit bus
        AxiConfig axiByAddress = new AxiConfig(512, 48, 4, 3, 8, false, 36, 3);
        list.add(new GoldenScenario("axi_request_packer_w512_d8", () -> new AxiRequestPacker(
                new AxiRequestPacker.Config(axiByAddress)), ResetStyle.SYNC_HIGH, 5000,
                () -> new RunStimulus<>((sim, seed) -> new AxiRequestRun(sim, axiByAddress,
                        AxiRequestRun.Traffic.MIXED, 1, 160, seed, 80, 70), AxiRequestRun::cycle))); // XPU 1 down
        AxiConfig axiByUser = new AxiConfig(1024, 40, 3, 12, 16, true, 0, 2);
        list.add(new GoldenScenario("axi_request_packer_w1024_user", () -> new AxiRequestPacker(
                new AxiRequestPacker.Config(axiByUser)), ResetStyle.ASYNC_LOW, 3000,
                () -> new RunStimulus<>((sim, seed) -> new AxiRequestRun(sim, axiByUser, 120, seed, 80, 70),
                        AxiRequestRun::cycle)));
        list.add(new GoldenScenario("axi_response_unpacker_w512", () -> new AxiResponseUnpacker(
                new AxiResponseUnpacker.Config(axiByAddress)), ResetStyle.SYNC_HIGH, 3000,
                () -> new RunStimulus<>((sim, seed) -> new AxiResponseRun(sim, axiByAddress, 150, seed, 80, 70),
                        AxiResponseRun::cycle)));
        AxiRemoteMaster.Config remote = new AxiRemoteMaster.Config(axiByAddress, 4, 4);
        list.add(new GoldenScenario("axi_remote_master_w512_e4", () -> new AxiRemoteMaster(remote), ResetStyle.SYNC_HIGH,
                4000, () -> new RunStimulus<>((sim, seed) -> new AxiRemoteMasterRun(sim, remote.axi(),
                        remote.masterIdWidth(), remote.maxPartsPerEntry(), new AxiRemoteMasterRun.Options(120, seed, 6,
                        85, 70, 70, 30, true, 10, AxiRemoteMasterRun.Traffic.MIXED)), AxiRemoteMasterRun::cycle)));
        // the AXI4 pair over the command path closed on itself: writes, then reads of what was written
        AxiConfig axiLoop = new AxiConfig(512, 48, 4, 0, 8, false, 36, 4);
        AxiCommandLoopback.Config axiLoopback = new AxiCommandLoopback.Config(new AxiBridge.Config(axiLoop, 4, 4, 16,
                8, 8, 4), new CommandLoopback.Config(CommandPath.Config.builder(axiLoop.commandTable()).dataWidth(512)
                .destinations(8).cells(512).cmdCredits(16).dataCredits(8).build(), 8, 4));
        list.add(new GoldenScenario("axi_command_loopback_w512", () -> new AxiCommandLoopback(axiLoopback),
                ResetStyle.SYNC_HIGH, 6000, () -> new RunStimulus<>((sim, seed) -> new AxiWriteReadRun(sim, axiLoop, 2, 40, seed, 85, 75),
                        (run, rnd) -> {
                            if (!run.finished()) {
                                run.cycle(rnd);
                            }
                        })));
        list.add(sueAxiInstance("sue_axi_instance_llr_cbfc_w512_d16", 6000, 40));
        list.add(sueAxiInstanceDeadPeer("sue_axi_instance_p2_dead_peer_w512_d16", 8500));
        // the same pair in the spec's credit form, through the SoC's side of every loop (default credits)
        AxiCreditLoopback.Config axiCredit = new AxiCreditLoopback.Config(AxiCreditPair.Config.of(
                axiLoopback.bridge()), axiLoopback.sue());
        list.add(new GoldenScenario("axi_credit_loopback_w512", () -> new AxiCreditLoopback(axiCredit),
                ResetStyle.SYNC_HIGH, 6000, () -> new RunStimulus<>((sim, seed) -> new AxiWriteReadRun(sim, axiLoop, 2,
                        40, seed, 85, 75), (run, rnd) -> {
                            if (!run.finished()) {
                                run.cycle(rnd);
                            }
                        })));
        list.add(new GoldenScenario("xpu_command_tx_w512_k4", () -> new XpuCommandTx(new XpuCommandTx.Config(512, 4, 2)),
                ResetStyle.SYNC_HIGH, 2500, () -> new RunStimulus<>((sim, seed) -> new XpuCommandTxRun(sim, 512, 4, 2, 300, seed, 85, 40),
                        XpuCommandTxRun::cycle)));
        list.add(new GoldenScenario("xpu_command_rx_w512_k4_v2", () -> new XpuCommandRx(new XpuCommandRx.Config(512, 4,
                2, 2)), ResetStyle.SYNC_HIGH, 2500, () -> new RunStimulus<>((sim, seed) -> new XpuCommandRxRun(sim, 512, 4, 2, 2, 300, seed,
                        85, 60), XpuCommandRxRun::cycle)));
        list.add(creditCounter("credit_counter_m16_a3_sync_low", 16, 3, 800, ResetStyle.SYNC_LOW));
        list.add(crc("crc32_w64", CrcParams.CRC32, 64, ResetStyle.SYNC_HIGH, 1500));
        list.add(crc("crc32c_w512", CrcParams.CRC32C, 512, ResetStyle.ASYNC_HIGH, 600));
        list.add(crc("crc32_w1024", CrcParams.CRC32, 1024, ResetStyle.SYNC_HIGH, 400));
        list.add(prepend("prepend_w512_h42", 512, 42, 1200));
        list.add(prepend("prepend_w1024_h62", 1024, 62, 600));
        list.add(prepend("prepend_w512_h8", 512, 8, 600));
        list.add(crcAppend("crc_append_w512", 512, 800));
        list.add(crcAppend("crc_append_w1024", 1024, 500));
        list.add(netHeader("net_header_ipv4_vlan_w512", 512, NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP).withVlan(true)));
        list.add(netHeader("net_header_ipv6_w1024", 1024, NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP)));
        list.add(netHeader("net_header_gen2c_w512", 512, NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED)));
        list.add(new GoldenScenario("packet_fifo_w512_d32", () -> new PacketFifo(new PacketFifo.Config(
                new StreamConfig(512, 16), 32)), ResetStyle.SYNC_HIGH, 1500,
                () -> new JudgedPacketStream(64, 3000))); // some packets do not fit: overflow drops
        list.add(new GoldenScenario("slice_w512_h42_t4", () -> new StreamSlice(new StreamSlice.Config(512, 42, 4)),
                ResetStyle.SYNC_HIGH, 800, () -> new FrameStream(64, 0.2)));
        list.add(new GoldenScenario("slice_w1024_h74_t8", () -> new StreamSlice(new StreamSlice.Config(1024, 74, 8)),
                ResetStyle.SYNC_HIGH, 600, () -> new FrameStream(128, 0.2)));
        list.add(narrow("narrow_w1024_r2", 1024, 2, 800));
        list.add(narrow("narrow_w1024_r4", 1024, 4, 800));
        list.add(widen("widen_w256_r2", 256, 2, 800));
        list.add(widen("widen_w256_r4", 256, 4, 800));
        list.add(new GoldenScenario("connection_router_p4", () -> new ConnectionRouter(new ConnectionRouter.Config(4,
                16, 64)), ResetStyle.SYNC_HIGH, 3000, () -> new ConnectionRouterTraffic(4)::drive));
        list.add(tx("tx_w512_ipv4_vlan", 512, NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP).withVlan(true)));
        list.add(tx("tx_w1024_gen2n", 1024, NetConfig.defaults(HeaderFormat.AFH_GEN2_NORMAL)));
        // the UDP checksum lands in the second beat: bytes 64-65 behind the 802.1Q tag
        list.add(tx("tx_w512_ipv6_vlan", 512, NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP).withVlan(true)));
        list.add(rx("rx_w512_gen1_shim", 512,
                NetConfig.defaults(HeaderFormat.AFH_GEN1).withVlan(true).withGen1Options(0x88B7, true)));
        list.add(rx("rx_w1024_ipv4", 1024, NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP)));
        list.add(rx("rx_w1024_ipv6_vlan", 1024, NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP).withVlan(true)));
        list.add(new GoldenScenario("rh_inserter_w512", () -> new RhInserter(new RhInserter.Config(512, 1)),
                ResetStyle.SYNC_HIGH, 600, () -> new PacketStream(64, 0, 300)));
        list.add(unpacker("cmd_unpacker_s512_d256", 512, 256));
        list.add(unpacker("cmd_unpacker_s1024_d512", 1024, 512));
        list.add(unpacker("cmd_unpacker_vc_s512_d256", 512, 256, 8)); // per-VC FIFOs, contexts switched
        list.add(new GoldenScenario("packing_w1024_c64_d8", () -> new PackingBuffer(new PackingBuffer.Config(1024, 64,
                8, 1024, 6, 2)), ResetStyle.SYNC_HIGH, 2500, () -> new PackedCommandStream(128, 8, 64)));
        list.add(new GoldenScenario("packing_w512_c128_d4", () -> new PackingBuffer(new PackingBuffer.Config(512, 128,
                4, 600, 4, 1)), ResetStyle.SYNC_HIGH, 2500, () -> new PackedCommandStream(64, 4, 128)));
        list.add(new GoldenScenario("packing_w1024_c128_one_queue", () -> new PackingBuffer(new PackingBuffer.Config(
                1024, 128, 2, 1024, 8, 4)), ResetStyle.SYNC_HIGH, 2500, () -> new PackedCommandStream(128, 2, 128,
                true)));
        BufferCredits.Config credits = new BufferCredits.Config(256, 64, 8, 4);
        list.add(new GoldenScenario("buffer_credits_c256_b64", () -> new BufferCredits(credits), ResetStyle.SYNC_HIGH,
                4000, () -> bufferTraffic(credits)));
        CommandIngress.Config ingress256 = new CommandIngress.Config(256, CommandTable.example(), 8, 6, 3);
        list.add(new GoldenScenario("cmd_ingress_n256", () -> new CommandIngress(ingress256), ResetStyle.SYNC_HIGH,
                3000, () -> new FaultyCommandTraffic(ingress256)));
        CommandIngress.Config ingress1024 = new CommandIngress.Config(1024, CommandTable.example(), 16, 8, 4);
        list.add(new GoldenScenario("cmd_ingress_n1024", () -> new CommandIngress(ingress1024), ResetStyle.SYNC_HIGH,
                2000, () -> new FaultyCommandTraffic(ingress1024)));
        CommandLoopback.Config loopback = new CommandLoopback.Config(CommandPath.Config.builder(CommandTable.example())
                .dataWidth(256).destinations(8).cells(256).pduLimit(700).xoffThreshold(6).xonThreshold(2)
                .cmdCredits(24).dataCredits(8).build(), 5, 2);
        list.add(new GoldenScenario("cmd_loopback_n256_d8", () -> new CommandLoopback(loopback), ResetStyle.SYNC_HIGH,
                4000, () -> new CommandLoopbackTraffic(loopback)));
        list.add(queueStore("queue_store_w256_c32_d4", new QueueStore.Config(256, 32, 4), 4000));
        list.add(queueStore("queue_store_w1024_c64_d2", new QueueStore.Config(1024, 64, 2), 3000));
        list.add(transportRx("transport_rx_w1024_d64", TransportConfig.builder(1024).destinations(64).storeBytes(16384)
                .windowPdus(64).rtoCycles(256).ackDelay(40).ackCount(4).build(), 3000));
        list.add(sueInstance("sue_instance_w512_d16", 10000));
        list.add(sueInstance("sue_instance_n256_w256_d16", 10000));
        list.add(sueInstanceLlr("sue_instance_llr_w512_d16", 6000));
        list.add(sueInstancePfc("sue_instance_pfc_w512_d16", 6000));
        list.add(sueInstanceCbfc("sue_instance_cbfc_w512_d16", 6000));
        list.add(sueInstancePfc("sue_instance_llr_pfc_w512_d16", 6000));
        list.add(sueInstanceCbfc("sue_instance_llr_cbfc_w512_d16", 6000));
        list.add(sueInstancePorts("sue_instance_p2_llr_cbfc_w512_d16", 2, SueInstance.Config.Ordering.STRICT, 5000));
        list.add(sueInstancePorts("sue_instance_p4_unordered_llr_cbfc_w1024_d16", 4,
                SueInstance.Config.Ordering.UNORDERED, 4000));
        LlrConfig llrTx = LlrConfig.defaults(256).withMaxFrameBytes(512).withLimits(16, 4096, 300, 2)
                .withFlush(FrameAction.BLOCK, FrameAction.DISCARD, true, 200, 5000);
        list.add(new GoldenScenario("llr_tx_w256", () -> new LlrTx(llrTx), ResetStyle.SYNC_HIGH, 8000,
                () -> new LlrTxTraffic(llrTx, LlrTxTraffic.Schedule.EVERYTHING)));
        // the default FLUSH rules (re-init, PCS-lost timeout 1000 cycles): the link down for 1300 cycles
        LlrConfig llrFlap = LlrConfig.builder().maxFrameBytes(512).outstandingFramesMax(16).outstandingBytesMax(4096)
                .replayTimerCycles(300).build(256);
        list.add(new GoldenScenario("llr_tx_flap_w256", () -> new LlrTx(llrFlap), ResetStyle.SYNC_HIGH, 5000,
                () -> new LlrTxTraffic(llrFlap, LlrTxTraffic.Schedule.flap(5000, 1500, 1300))));
        LlrConfig llrRx = LlrConfig.defaults(512).withLimits(64, 16384, 400, 3);
        list.add(new GoldenScenario("llr_rx_w512", () -> new LlrRx(llrRx), ResetStyle.SYNC_HIGH, 6000,
                () -> new LlrRxTraffic(llrRx)));
        CbfcConfig cbfcTx = CbfcConfig.defaults(512).withCredits(0b1011, 64, -8).withLimits(120, 300, 1500, 600);
        list.add(new GoldenScenario("cbfc_tx_w512", () -> new CbfcSender(cbfcTx), ResetStyle.SYNC_HIGH, 5000,
                () -> FlowControlTraffic.sender(cbfcTx)));
        CbfcConfig cbfcRx = CbfcConfig.defaults(256).withSpacing(800, 16384);
        list.add(new GoldenScenario("cbfc_rx_w256", () -> new CbfcReceiver(cbfcRx), ResetStyle.SYNC_HIGH, 5000,
                () -> FlowControlTraffic.receiver(cbfcRx)));
        PfcConfig pfcPause = PfcConfig.builder().vcClasses(PfcConfig.classes(3, 5, 3, 0)).bitsPerCycle(256)
                .pauseQuanta(300).refreshCycles(100).xoffBytes(4096).xonBytes(1024).build(512);
        list.add(new GoldenScenario("pfc_pause_w512", () -> new PfcPause(pfcPause), ResetStyle.SYNC_HIGH, 5000,
                FlowControlTraffic::pause));
        PfcConfig pfcGen = PfcConfig.builder().vcClasses(PfcConfig.classes(1, 1, 6, 2)).pauseQuanta(400)
                .refreshCycles(150).xoffBytes(3000).xonBytes(1000).sharedXoffBytes(6000).build(256);
        list.add(new GoldenScenario("pfc_gen_w256", () -> new PfcGenerator(pfcGen), ResetStyle.SYNC_HIGH, 5000,
                FlowControlTraffic::generator));
        list.add(new GoldenScenario("mac_control_demux_w512", () -> new MacControlDemux(new MacControlDemux.Config(512)),
                ResetStyle.SYNC_HIGH, 3000, () -> FlowControlTraffic.demux(CbfcConfig.defaults(512))));
        return list;
    }

    /**
     * The small SUE instance (512-bit bus, or 256 bits as the XPU's when the name says {@code _w256_}, 16
     * destinations) against a scripted peer instance over a lossy, corrupting
     * link each way: commands both ways, ACKs on data and ACK-only PDUs, NACKs, go-backs (restarted by a NACK too),
     * FCS drops, and an outage of 600 cycles that leaves a go-back only the timeout recovers.
     */
    static GoldenScenario sueInstance(String name, long cycles) {
        // _w256: the port as wide as the XPU interface, PDUs narrowed on their way from the packing buffer
        SueInstance.Config config = name.contains("_w256_") ? SmallInstance.narrowPort(HeaderFormat.ETH_IPV4_UDP)
                : SmallInstance.config(HeaderFormat.ETH_IPV4_UDP);
        LinkModel.Faults faults = LinkModel.Faults.loss(0.015).withBitErrors(0.02).withOutage(5400, 600);
        return new GoldenScenario(name, () -> new SueInstance(config), ResetStyle.SYNC_HIGH, cycles,
                () -> new SueInstancePeerTraffic(config, ResetStyle.SYNC_HIGH, 50, faults));
    }

    /**
     * The small instance with Link Layer Retry against its scripted peer over a link that loses, corrupts and flags
     * frames and loses control messages: LLR's INIT, ACKs, NACKs and replays beneath the transport.
     */
    static GoldenScenario sueInstanceLlr(String name, long cycles) {
        SueInstance.Config config = SmallInstance.withLlr(HeaderFormat.ETH_IPV4_UDP, 50);
        LinkModel.Faults faults = LinkModel.Faults.loss(0.01).withBitErrors(0.02).withMacErrors(0.01);
        return new GoldenScenario(name, () -> new SueInstance(config), ResetStyle.SYNC_HIGH, cycles,
                () -> new SueInstancePeerTraffic(config, ResetStyle.SYNC_HIGH, 50, faults));
    }

    /**
     * With Link Layer Retry too when the scenario's name says {@code llr} (for the link of 20 cycles each way): PFC
     * frames merged beside the replay buffer, CC_Updates numbered and replayed with the frames.
     */
    private static SueInstance.Config withLlrIfNamed(String name, SueInstance.Config config) {
        return name.contains("_llr_") ? config.withLlr(SmallInstance.llr(20)) : config;
    }

    /**
     * The small instance with PFC against its scripted peer, both XPUs slow to take what they receive (credits back on
     * 2..10 percent of cycles), over a link that loses and corrupts a few frames: PFC frames asking for pauses and
     * lifting them both ways, paused VCs, MAC Control frames lost or flagged bad.
     */
    static GoldenScenario sueInstancePfc(String name, long cycles) {
        SueInstance.Config config = withLlrIfNamed(name, SmallInstance.withPfc(HeaderFormat.ETH_IPV4_UDP));
        LinkModel.Faults faults = LinkModel.Faults.loss(0.01).withBitErrors(0.01);
        return new GoldenScenario(name, () -> new SueInstance(config), ResetStyle.SYNC_HIGH, cycles,
                () -> new SueInstancePeerTraffic(config, ResetStyle.SYNC_HIGH, 20, faults).rxReturnPercent(2, 10));
    }

    /**
     * The small instance with CBFC against its scripted peer, both XPUs slow (credits back on 2..10 percent of
     * cycles), over a link that loses and corrupts a few frames and loses control messages: reservations at picks and
     * go-back starts, charges, CF_Updates, CC_Updates recovering the lost frames' credits, VCs waiting for credit.
     */
    static GoldenScenario sueInstanceCbfc(String name, long cycles) {
        SueInstance.Config config = withLlrIfNamed(name, SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP));
        LinkModel.Faults faults = LinkModel.Faults.loss(0.01).withBitErrors(0.01);
        return new GoldenScenario(name, () -> new SueInstance(config), ResetStyle.SYNC_HIGH, cycles,
                () -> new SueInstancePeerTraffic(config, ResetStyle.SYNC_HIGH, 20, faults).rxReturnPercent(2, 10));
    }

    /**
     * The small instance with {@code ports} ports ({@link SmallInstance#multiPort}: LLR and CBFC on each) against its
     * scripted peer, a link per port that loses and corrupts frames, MACs that stall, port 1's link down from cycle
     * 600 to 3000: each {destination, VC} on its pinned port (strict) or each PDU on the port chosen at its pick
     * (unordered), every port's LLR, credits, ACKs and go-backs, a port going down (its connections carried by
     * another, docs/protocol.md 10.6) and coming back.
     */
    static GoldenScenario sueInstancePorts(String name, int ports, SueInstance.Config.Ordering ordering,
                                           long cycles) {
        SueInstance.Config config = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, 20)
                .withOrdering(ordering);
        LinkModel.Faults faults = LinkModel.Faults.loss(0.01).withBitErrors(0.01);
        return new GoldenScenario(name, () -> new SueInstance(config), ResetStyle.SYNC_HIGH, cycles,
                () -> new SueInstancePeerTraffic(config, ResetStyle.SYNC_HIGH, 20, faults));
    }

    /**
     * The AXI4 instance (256-bit data on a 512-bit port, 16 XPUs, LLR and CBFC) against a scripted peer instance over
     * a link of 20 cycles that loses and damages 1% of the frames each: both SoCs write random bursts into the other's
     * memory and read them back ({@link AxiTwoXpuRun}, every answer checked as it is recorded), {@code requests}
     * bursts each way.
     */
    public static GoldenScenario sueAxiInstance(String name, long cycles, int requests) {
        SueAxiInstance.Config config = SmallInstance.axi(HeaderFormat.ETH_IPV4_UDP, 20, SmallInstance.axiPair());
        LinkModel.Faults faults = LinkModel.Faults.loss(0.01).withBitErrors(0.01);
        return new GoldenScenario(name, () -> new SueAxiInstance(config), ResetStyle.SYNC_HIGH, cycles,
                () -> new RunStimulus<>((sim, seed) -> AxiTwoXpuRun.recording(config, sim, ResetStyle.SYNC_HIGH, 20,
                        faults, seed, AxiTwoXpuRun.Traffic.random(requests, 80)), (run, rnd) -> run.driveRecorded()));
    }

    /**
     * The AXI4 instance with 2 ports (256-bit data on 2 x 256-bit ports, LLR and CBFC on each, strict; a short
     * retransmit timeout) while its peer's network stops twice for 2,500 cycles, from cycle 300 (during its SoC's
     * writes) and from 4,300 (during its reads): each time the transport gives up on the connection the requests to
     * the peer are pinned to, outstanding requests are answered SLVERR, and the late responses after the peer's
     * return are dropped.
     */
    static GoldenScenario sueAxiInstanceDeadPeer(String name, long cycles) {
        SueInstance.Config sue = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, 2, 20);
        // a response timeout short enough to fire during a freeze, before the transport gives up, as well
        SueInstance.Config fast = sue.withTransport(sue.transport().toBuilder().rtoCycles(250).probeCycles(1000)
                .build());
        SueAxiInstance.Config config = SueAxiInstance.Config.with(fast, SueAxiInstance.Config.bridgeFor(fast,
                SmallInstance.axiPair()).withResponseTimeout(900), SueAxiInstance.Form.WRAPPER, AxiCredits.defaults(),
                AxiCredits.defaults());
        return new GoldenScenario(name, () -> new SueAxiInstance(config), ResetStyle.SYNC_HIGH, cycles,
                () -> new RunStimulus<>((sim, seed) -> AxiTwoXpuRun.recording(config, sim, ResetStyle.SYNC_HIGH, 20,
                        LinkModel.Faults.NONE, seed, AxiTwoXpuRun.Traffic.random(40, 80)).freezeB(300, 2500).freezeB(4300, 2500),
                        (run, rnd) -> run.driveRecorded()));
    }

    /**
     * PDUs from six sources (in order, gaps, repeats, ACK-only, unknown sources, one-beat bursts), queries and
     * backpressure on both outputs; every 500 cycles new rates.
     */
    static GoldenScenario transportRx(String name, TransportConfig config, long cycles) {
        return new GoldenScenario(name, () -> new TransportRx(config), ResetStyle.SYNC_HIGH, cycles, () -> {
            TransportRxTraffic[] traffic = new TransportRxTraffic[1]; // made at the first cycle, with the simulator
            return (Simulator sim, long cycle, Random rnd) -> {
                if (traffic[0] == null) {
                    traffic[0] = new TransportRxTraffic(config, sim, rnd, 6);
                    traffic[0].maxBytes = config.beatBytes() + 64;
                }
                if (cycle % 500 == 0) {
                    traffic[0].validPercent = 30 + rnd.nextInt(71);
                    traffic[0].outReadyPercent = 30 + rnd.nextInt(71);
                    traffic[0].queryPercent = rnd.nextInt(25);
                    traffic[0].requestReadyPercent = 50 + rnd.nextInt(51);
                }
                traffic[0].drive(rnd);
                traffic[0].takeEntered(); // nothing checks them here: the vectors record what happened
            };
        });
    }

    /** Commands of all sizes to 8 queues and runs read back; every 400 cycles new request and ready rates. */
    static GoldenScenario queueStore(String name, QueueStore.Config config, long cycles) {
        return new GoldenScenario(name, () -> new QueueStore(config), ResetStyle.SYNC_HIGH, cycles, () -> {
            QueueStoreTraffic[] traffic = new QueueStoreTraffic[1]; // made at the first cycle, with the simulator
            return (Simulator sim, long cycle, Random rnd) -> {
                if (traffic[0] == null) {
                    traffic[0] = new QueueStoreTraffic(config, sim);
                    traffic[0].queues = 8;
                }
                if (cycle % 400 == 0) {
                    traffic[0].requestPercent = 10 + rnd.nextInt(91);
                    traffic[0].readyPercent = 30 + rnd.nextInt(71);
                    traffic[0].maxRunBytes = rnd.nextBoolean() ? 2048 : 300;
                }
                traffic[0].drive(rnd);
            };
        });
    }

    public static GoldenScenario byName(String name) {
        return all().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no golden scenario '" + name + "'"));
    }

    /** Commands in and cells out on random VCs; every 250 cycles a new drain rate and new VCs blocked. */
    static GoldenScenario.Stimulus bufferTraffic(BufferCredits.Config config) {
        BufferTraffic traffic = new BufferTraffic(config);
        return (Simulator sim, long cycle, Random rnd) -> {
            if (cycle % 250 == 0) {
                traffic.drainPercent = 10 + rnd.nextInt(90);
                for (int v = 0; v < traffic.blocked.length; v++) {
                    traffic.blocked[v] = rnd.nextInt(3) == 0;
                }
            }
            traffic.drive(sim, rnd);
        };
    }

    static GoldenScenario fifo(String name, int width, int depth, ResetStyle style, long cycles) {
        return new GoldenScenario(name, () -> new SyncFifo(new SyncFifo.Config(width, depth)), style, cycles, () -> {
            boolean[] stalled = new boolean[1]; // the push offered at the last edge was refused: offered again
            return (Simulator sim, long cycle, Random rnd) -> {
                // fill, drain and mixed phases; a push while full waits (and sets overflow) until a pop makes room
                int phase = (int) (cycle / 100) % 3;
                boolean push = rnd.nextInt(10) < (phase == 1 ? 2 : 7) || stalled[0];
                sim.poke("push_valid", push ? 1 : 0);
                if (push && !stalled[0]) {
                    sim.poke("push_data", new BigInteger(width, rnd));
                }
                sim.poke("pop_ready", rnd.nextInt(10) < (phase == 0 ? 2 : 7) ? 1 : 0);
                if (cycle == cycles / 2) {
                    sim.setReset(true); // a reset in the middle of traffic
                } else if (cycle == cycles / 2 + 2) {
                    sim.setReset(false);
                }
                stalled[0] = push && sim.peek("push_ready") == 0;
            };
        });
    }

    /**
     * The small instance with LLR and CBFC behind its management port: software reads and writes every register while
     * garbage frames arrive and the link goes down and up (docs/management.md).
     */
    static GoldenScenario managedInstance(String name, SueInstance.Config sue, long cycles) {
        SueManagedInstance.Config config = new SueManagedInstance.Config(sue, 16);
        return new GoldenScenario(name, () -> new SueManagedInstance(config), ResetStyle.SYNC_HIGH, cycles,
                () -> MgmtTraffic.managedInstance(new SueManagedInstance(config).registerMap(), sue));
    }

    static GoldenScenario creditCounter(String name, int max, int amountWidth, long cycles) {
        return creditCounter(name, max, amountWidth, cycles, ResetStyle.SYNC_HIGH);
    }

    static GoldenScenario creditCounter(String name, int max, int amountWidth, long cycles, ResetStyle style) {
        return new GoldenScenario(name, () -> new CreditCounter(new CreditCounter.Config(max, amountWidth)), style,
                cycles, () -> (Simulator sim, long cycle, Random rnd) -> {
                    boolean spending = (cycle / 400) % 2 == 0;
                    sim.poke("consume_valid", rnd.nextInt(3) < (spending ? 2 : 1) ? 1 : 0);
                    sim.poke("consume_amount", rnd.nextInt(1 << amountWidth));
                    sim.poke("return_valid", rnd.nextInt(3) < (spending ? 1 : 2) ? 1 : 0);
                    sim.poke("return_amount", rnd.nextInt(1 << amountWidth));
                });
    }

    static GoldenScenario crc(String name, CrcParams params, int width, ResetStyle style, long cycles) {
        return new GoldenScenario(name, () -> new ParallelCrc(new ParallelCrc.Config(params, width)), style, cycles,
                () -> new FrameStream(width / 8, 0.1));
    }

    static GoldenScenario prepend(String name, int width, int headerBytes, long cycles) {
        return new GoldenScenario(name, () -> new StreamPrepend(new StreamPrepend.Config(new StreamConfig(width, 16),
                headerBytes)), ResetStyle.SYNC_HIGH, cycles, () -> new PacketStream(width / 8, headerBytes, 600));
    }

    /** Random packets of up to 600 bytes: short last beats give fewer pieces; output stalls hold a piece. */
    static GoldenScenario narrow(String name, int width, int ratio, long cycles) {
        return new GoldenScenario(name, () -> new StreamNarrow(new StreamNarrow.Config(new StreamConfig(width, 16),
                ratio)), ResetStyle.SYNC_HIGH, cycles, () -> new PacketStream(width / 8, 0, 600));
    }

    /**
     * Random packets of up to 600 bytes into a {@code width}-bit input: short packets and last beats give output beats
     * of fewer pieces; output stalls hold the input beat that completes one.
     */
    static GoldenScenario widen(String name, int width, int ratio, long cycles) {
        return new GoldenScenario(name, () -> new StreamWiden(new StreamWiden.Config(new StreamConfig(width, 16),
                ratio)), ResetStyle.SYNC_HIGH, cycles, () -> new PacketStream(width / 8, 0, 600));
    }

    static GoldenScenario crcAppend(String name, int width, long cycles) {
        return new GoldenScenario(name, () -> new StreamCrcAppend(new StreamCrcAppend.Config(
                new StreamConfig(width, 16), CrcParams.CRC32, 8)), ResetStyle.SYNC_HIGH, cycles,
                () -> new PacketStream(width / 8, 0, 400));
    }

    static GoldenScenario unpacker(String name, int streamWidth, int dataWidth) {
        return unpacker(name, streamWidth, dataWidth, 0);
    }

    static GoldenScenario unpacker(String name, int streamWidth, int dataWidth, int vcBufferDepth) {
        return new GoldenScenario(name, () -> new CommandUnpacker(new CommandUnpacker.Config(streamWidth, dataWidth,
                CommandTable.example(), 6, 3, vcBufferDepth)), ResetStyle.SYNC_HIGH, vcBufferDepth > 0 ? 2000 : 1400,
                () -> new CommandPduStream(CommandTable.example(), streamWidth / 8));
    }

    static GoldenScenario tx(String name, int width, NetConfig net) {
        return new GoldenScenario(name, () -> new FrameTransmitter(new FrameTransmitter.Config(width, net,
                LoopbackRun.TABLE_DEPTH)), ResetStyle.SYNC_HIGH, 1200, () -> new PduStream(net, width / 8, 700));
    }

    static GoldenScenario rx(String name, int width, NetConfig net) {
        return new GoldenScenario(name, () -> new FrameReceiver(new FrameReceiver.Config(width, net, 64)),
                ResetStyle.SYNC_HIGH, 1200, () -> new DamagedFrameStream(net, width / 8));
    }

    /** The table is written with random templates in the first cycles, then random PDUs flow. */
    static GoldenScenario netHeader(String name, int width, NetConfig net) {
        return new GoldenScenario(name, () -> new NetHeaderInserter(new NetHeaderInserter.Config(width, net, 8)),
                ResetStyle.SYNC_HIGH, 700, () -> {
                    PacketStream packets = new PacketStream(width / 8, 0, 600);
                    return (Simulator sim, long cycle, Random rnd) -> {
                        boolean writing = cycle < 8;
                        sim.poke("tbl_wr_valid", writing ? 1 : 0);
                        sim.poke("tbl_wr_addr", cycle & 7);
                        sim.poke("tbl_wr_data", new BigInteger(8 * net.headerBytes(), rnd));
                        if (writing) {
                            sim.poke("s_axis_tvalid", 0);
                        } else {
                            packets.drive(sim, cycle, rnd);
                        }
                    };
                });
    }
}
