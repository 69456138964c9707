package org.sue.instance.tb;

import org.sue.axi.AxiConfig;
import org.sue.instance.SueAxiInstance;
import org.sue.instance.SueInstance;
import org.sue.link.CbfcConfig;
import org.sue.link.FrameAction;
import org.sue.link.LlrConfig;
import org.sue.link.PfcConfig;
import org.sue.net.HeaderFormat;

/**
 * The small SUE instance the JVM tests and the instance's golden vectors share, quick to simulate: 256-bit XPU data
 * (512-bit bus), 16 destinations, 1024 cells, 1 KiB PDUs; a 16 KiB retransmit store, window 64 PDUs, timeout 3000
 * cycles, ACK after 200 cycles or 8 PDUs; receive credits 32 commands and 16 buffers per VC, a 256-beat frame FIFO.
 */
public final class SmallInstance {
    private SmallInstance() {
    }

    public static SueInstance.Config config(HeaderFormat format) {
        return builder(format).busWidth(512).build(); // a port twice the XPU's: the XPU fills half of it
    }

    /** The same with the port as wide as the XPU interface (256 bits): PDUs narrowed from the command path's 512. */
    public static SueInstance.Config narrowPort(HeaderFormat format) {
        return builder(format).build();
    }

    /** The same for {@code destinations} XPU ids (a power of two) and an XPU interface of {@code width} bits. */
    public static SueInstance.Config narrowPort(HeaderFormat format, int destinations, int width) {
        return builder(format).path(p -> p.destinations(destinations).dataWidth(width)).build();
    }

    private static SueInstance.Config.Builder builder(HeaderFormat format) {
        return SueInstance.Config.builder()
                .path(p -> p.dataWidth(256).destinations(16).cells(1024).pduLimit(1024).cmdCredits(32).dataCredits(16))
                .net(n -> n.format(format))
                .transport(t -> t.storeBytes(16384).windowPdus(64).rtoCycles(3000).ackDelay(200).ackCount(8))
                .rxCmdCredits(32).rxDataCredits(16).rxFifoDepth(256)
                .llr(false).flowControl(SueInstance.Config.FlowControl.NONE).rxVcFifoDepth(0);
    }

    /**
     * The same with Link Layer Retry for a link of about {@code delay} cycles each way: 64 frames / 32 KiB
     * outstanding, replay timer 4 x delay + 200 cycles without a replay limit, no data age limit, frames held during
     * INIT and FLUSH (so every frame is numbered); the default FLUSH rules otherwise (PCS-lost timeout 1000 cycles,
     * INIT again after a flush).
     */
    public static SueInstance.Config withLlr(HeaderFormat format, int delay) {
        return config(format).withLlr(llr(delay));
    }

    /** The Link Layer Retry of {@link #withLlr}, to add to the flow-control instances below. */
    public static LlrConfig llr(int delay) {
        return LlrConfig.builder().maxFrameBytes(1536).outstandingFramesMax(64).outstandingBytesMax(32768)
                .replayTimerCycles(4 * delay + 200).replayCountMax(LlrConfig.NO_REPLAY_LIMIT).dataAgeTimeoutCycles(0)
                .initFrameAction(FrameAction.BLOCK).flushFrameAction(FrameAction.BLOCK).build(512);
    }

    /**
     * The same with PFC, a 512-beat (32 KiB) frame FIFO and a 64 KiB retransmit store (a sender can have more in
     * flight than the receiver holds): XOFF at 2 KiB, XON at 1 KiB, VC v at priority v, pauses
     * of 65535 quanta (65535 cycles at 512 bits a cycle) refreshed every 20,000 cycles. The FIFO is shared: the
     * shared threshold pauses every VC when the VCs together leave only the headroom of docs/protocol.md 9.3 for a
     * link of 20 cycles each way (the outgoing frame the PFC frame waits for, the PFC frame, both link delays and the
     * up to 5 PDUs of 1 KiB the peer picked before the pause). No per-VC FIFOs: with LLR a VC's headroom would have
     * to hold LLR's 32 KiB outstanding too (docs/protocol.md 9.4).
     */
    public static SueInstance.Config withPfc(HeaderFormat format) {
        SueInstance.Config c = withBigStore(config(format)).withRxFifoDepth(512);
        int shared = (int) (c.rxFifoBytes() - SueInstance.pfcHeadroomBytes(512, c.largestFrame(), 20));
        PfcConfig pfc = PfcConfig.defaults(512).withThresholds(2048, 1024).withPause(PfcConfig.classes(0, 1, 2, 3),
                0xFFFF, 20_000).withSharedXoff(shared);
        return c.withPfc(pfc);
    }

    /**
     * The same with CBFC and a 512-beat (32 KiB) frame FIFO and a 64 KiB retransmit store: 128-byte credits, 128 per
     * VC and 256 for the port (the FIFO), largest frame 1536 bytes, a CC_Update every 2000 cycles, CF_Updates at
     * least 800 and at most 16384 bytes of link time apart; behind the transport a 256-beat (16 KiB) FIFO per VC,
     * what a VC's 128 credits cover.
     */
    public static SueInstance.Config withCbfc(HeaderFormat format) {
        CbfcConfig cbfc = CbfcConfig.defaults(512).withLimits(128, 256, 1536, 2000).withSpacing(800, 16384);
        return withBigStore(config(format)).withRxFifoDepth(512).withCbfc(cbfc).withRxVcFifoDepth(256);
    }

    /**
     * {@link #withCbfc} and {@link #llr LLR} for a link of about {@code delay} cycles, its XPU speaking AXI4 through
     * the pair {@code axi} (256-bit data, 16 destinations), with the AXI form's command table.
     */
    public static SueAxiInstance.Config axi(HeaderFormat format, int delay, AxiConfig axi) {
        return SueAxiInstance.Config.of(withCbfc(format).withLlr(llr(delay)), axi);
    }

    /** The AXI4 pair of {@link #axi}: 48-bit addresses (the XPU in bits 36..45), 4-bit IDs, 8 outstanding per ID. */
    public static AxiConfig axiPair() {
        return AxiConfig.defaults(256, 16);
    }

    /**
     * The small instance with {@code ports} ports (2 or 4), each with LLR for a link of about {@code delay} cycles
     * ({@link #llr}'s settings, but LLR's default best effort in INIT and FLUSH) and CBFC sized for its 1024-beat
     * frame FIFO: 2 ports of 256 bits on a 512-bit
     * transport (256-bit XPU data), or 4 of 256 bits on a 1024-bit one (512-bit XPU data); a 64 KiB retransmit store
     * per port; each VC's receive FIFO holds what every port's credits let that VC have in flight.
     */
    public static SueInstance.Config multiPort(HeaderFormat format, int ports, int delay) {
        return ports == 4 ? multiPort(format, ports, 512, 1024, delay) : multiPort(format, ports, 256, 512, delay);
    }

    /**
     * The same with {@code ports} ports (1, 2 or 4), XPU data of {@code xpuWidth} bits on a transport of
     * {@code transportWidth} (the XPU's, or twice it).
     */
    public static SueInstance.Config multiPort(HeaderFormat format, int ports, int xpuWidth, int transportWidth,
                                               int delay) {
        return multiPort(format, ports, xpuWidth, transportWidth, 16, delay);
    }

    /** The same for {@code destinations} XPU ids (a power of two). */
    public static SueInstance.Config multiPort(HeaderFormat format, int ports, int xpuWidth, int transportWidth,
                                               int destinations, int delay) {
        SueInstance.Config c = builder(format).path(p -> p.dataWidth(xpuWidth).destinations(destinations))
                .busWidth(transportWidth)
                .transport(t -> t.ports(ports).storeBytes(65536)).rxFifoDepth(1024)
                .llr(true).llr(l -> l.maxFrameBytes(1536).outstandingFramesMax(64).outstandingBytesMax(32768)
                        .replayTimerCycles(4 * delay + 200).replayCountMax(LlrConfig.NO_REPLAY_LIMIT)
                        .dataAgeTimeoutCycles(0)) // frames go out best effort while a port is down: lost on the
                // dead link, not held in front of the live ports' (docs/protocol.md 10.2)
                .flowControl(SueInstance.Config.FlowControl.CBFC).cbfc(f -> f.maxFrameBytes(1536)).build();
        long inFlight = (long) ports * c.cbfc().vcCreditLimit() * c.cbfc().creditSize();
        return c.withRxVcFifoDepth((int) (inFlight / (c.busWidth() / 8)));
    }

    /** The same with a 64 KiB retransmit store. */
    private static SueInstance.Config withBigStore(SueInstance.Config c) {
        return c.withTransport(c.transport().toBuilder().storeBytes(65536).build());
    }
}
