package org.sue.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.TwoXpuRun;

/**
 * Two instances of the committed small FPGA configuration (LLR and PFC; and the same with CBFC) over links of 50
 * cycles, random commands both ways, both XPUs holding every receive credit for 20,000 cycles and then taking
 * commands again: flow control keeps the receive FIFOs from overflowing through the stall and the rush after it (no
 * {@code net_drops_overflow}), and every command arrives once and in order. Without PFC's shared threshold the
 * VCs, each paused at its own XOFF, overshoot it together and overflow the FIFO they share.
 */
class StalledXpuTest {
    @ParameterizedTest
    @ValueSource(strings = {"PFC", "CBFC", "PFC_WITHOUT_SHARED_THRESHOLD"})
    void aLongXpuStallLosesNothingAtTheReceiveFifo(String mode) throws Exception {
        ObjectNode json = (ObjectNode) new ObjectMapper().readTree(Files.readString(
                ConfigsTest.CONFIGS.resolve("small_fpga.json")));
        ObjectNode flow = json.putObject("flowControl");
        boolean pfc = mode.startsWith("PFC");
        flow.put("mode", pfc ? "PFC" : mode);
        if (pfc) { // the committed thresholds
            flow.put("pfcXoffBytes", 4096).put("pfcXonBytes", 2048);
        }
        boolean shared = !mode.equals("PFC_WITHOUT_SHARED_THRESHOLD");
        if (!shared) {
            flow.put("pfcSharedXoffBytes", 0);
        }
        SueInstance.Config config = InstanceConfigJson.fromJson(json).instance();
        TwoXpuRun run = new TwoXpuRun(config, 50, LinkModel.Faults.NONE, 3, null);
        run.add(4000, 4000, TwoXpuRun.RANDOM);
        run.idle(2000);
        run.rxHeldVcs(0xf);
        run.idle(20_000);
        run.rxHeldVcs(0);
        TwoXpuRun.Result r = run.run(0, 0, 200_000, null);
        assertTrue(r.ok(), r.toString()); // the transport repairs what overflowed
        long drops = run.peekA("net_drops_overflow") + run.peekB("net_drops_overflow");
        assertEquals(shared, drops == 0, "receive FIFO overflow drops: " + drops);
        for (String side : new String[] {"A", "B"}) {
            String engaged = pfc ? "pfc_xoff_frames_sent" : "cbfc_s_cu_watermark_0";
            assertTrue(run.peek(side, engaged) > 0, side + " flow control engaged: " + engaged);
        }
    }
}
