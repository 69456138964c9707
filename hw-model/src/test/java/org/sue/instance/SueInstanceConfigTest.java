package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sue.core.ConfigException;
import org.sue.instance.SueInstance.Config.FlowControl;
import org.sue.link.CbfcConfig;
import org.sue.link.LlrConfig;
import org.sue.link.PfcConfig;
import org.sue.transport.TransportConfig;

/**
 * The instance's builder: the default instance as the records' own defaults make it, what follows other parameters
 * derived from them, and refusals naming each parameter by its path from the instance.
 */
class SueInstanceConfigTest {
    @Test
    void theDefaultInstanceIsItsPartsDefaults() {
        SueInstance.Config c = SueInstance.Config.defaults();
        assertEquals(TransportConfig.defaults(1024), c.transport());
        assertEquals(LlrConfig.defaults(1024), c.llr());
        assertNull(c.pfc());
        // the receive FIFO's 1024 credits of 128 bytes, 256 per VC, the largest frame (2106 bytes) in whole credits
        assertEquals(CbfcConfig.defaults(1024).withLimits(256, 1024, 2176, 200_000), c.cbfc());
        assertEquals(256, c.rxVcFifoDepth(), "what a VC's credits cover");
    }

    @Test
    void thePortIsAsWideAsTheXpuInterfaceUnlessSetToTwiceIt() {
        assertEquals(1024, SueInstance.Config.defaults().path().dataWidth());
        assertEquals(1024, SueInstance.Config.defaults().busWidth());
        for (int xpu : new int[] {256, 512, 1024}) {
            assertEquals(xpu, SueInstance.Config.builder().path(p -> p.dataWidth(xpu)).build().busWidth());
            assertEquals(2 * xpu, SueInstance.Config.builder().path(p -> p.dataWidth(xpu)).busWidth(2 * xpu).build()
                    .busWidth());
        }
        ConfigException odd = assertThrows(ConfigException.class,
                () -> SueInstance.Config.builder().path(p -> p.dataWidth(512)).busWidth(256).build());
        assertEquals("SueInstance transport.busWidth must be path.dataWidth (512 bits: the port at the XPU"
                + " interface's rate) or twice it (1024), got 256", odd.getMessage());
    }

    @Test
    void whatDependsOnTheBusFollowsIt() {
        SueInstance.Config wide = SueInstance.Config.builder().busWidth(2048).build();
        assertEquals(2048, wide.transport().busWidth());
        assertEquals(2048, wide.llr().dataWidth());
        assertEquals(256, wide.cbfc().creditSize(), "a credit is at least a bus beat");
        assertEquals(1024, wide.cbfc().portCreditLimit(), "the FIFO's 256 KiB in 256-byte credits");
        assertEquals(256, wide.rxVcFifoDepth(), "a VC's 256 credits of 256 bytes");
        SueInstance.Config narrowPfc = SueInstance.Config.builder().path(p -> p.dataWidth(256)).busWidth(512)
                .flowControl(FlowControl.PFC).build();
        // the shared threshold leaves the headroom of a 64-cycle link: 6 largest frames, (2 x 64 + 4 + 1) beats
        int shared = 65536 - (6 * narrowPfc.largestFrame() + (2 * 64 + 4 + 1) * 64);
        assertEquals(PfcConfig.defaults(512).withThresholds(8192, 4096).withSharedXoff(shared), narrowPfc.pfc(),
                "XOFF an eighth of the 64 KiB FIFO, XON half of it");
        assertEquals(0, narrowPfc.rxVcFifoDepth(), "no per-VC FIFOs with PFC");
        SueInstance.Config none = SueInstance.Config.builder().llr(false).flowControl(FlowControl.NONE).build();
        assertNull(none.llr());
        assertNull(none.cbfc());
        assertEquals(256, none.rxVcFifoDepth());
    }

    @Test
    void whatIsSetStaysAndWhatFollowsItIsDerived() {
        PfcConfig pfc = SueInstance.Config.builder().flowControl(FlowControl.PFC)
                .pfc(p -> p.xoffBytes(6000).pauseQuanta(1000)).build().pfc();
        assertEquals(6000, pfc.xoffBytes());
        assertEquals(3000, pfc.xonBytes(), "the default XON (8192) is not below XOFF: half of it");
        assertEquals(250, pfc.refreshCycles(), "a 500-cycle pause is refreshed at half its time");
        LlrConfig llr = SueInstance.Config.builder().llr(l -> l.replayTimerCycles(200)).build().llr();
        assertEquals(199, llr.ackIdleCycles(), "an idle ACK before the replay timer");
        assertEquals(100_000, llr.dataAgeTimeoutCycles());
    }

    @Test
    void refusalsNameTheParameterByItsPathFromTheInstance() {
        ConfigException part = assertThrows(ConfigException.class,
                () -> SueInstance.Config.builder().transport(t -> t.windowPdus(1)).build());
        assertEquals("SueInstance transport.windowPdus must be 4..16384 (PSN comparisons need the window below"
                + " 2^15), got 1", part.getMessage());
        ConfigException rule = assertThrows(ConfigException.class, () -> SueInstance.Config.builder()
                .rxFifoDepth(128).flowControl(FlowControl.PFC).pfc(p -> p.xoffBytes(16384)).build());
        assertEquals(List.of("pfc.xoffBytes", "rxFifoDepth"), rule.fields());
        assertEquals("SueInstance pfc.xoffBytes must be at most 4095: 4 x it below the receive FIFO the VCs share,"
                + " rxFifoDepth x 128 bytes = 16384, with headroom for the frames in flight (docs/protocol.md 9.3);"
                + " or rxFifoDepth at least 1024, got 16384", rule.getMessage());
    }
}
