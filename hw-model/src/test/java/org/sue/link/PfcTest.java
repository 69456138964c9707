package org.sue.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.model.Beats;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.link.model.PfcGeneratorModel;
import org.sue.link.model.PfcPauseModel;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * PFC blocks against their models, cycle by cycle. {@link PfcPause}: PFC frames with random enable vectors and pause
 * times (0 = resume), malformed ones (wrong address, EtherType, opcode or length, flagged bad): vc_ready, the paused
 * priorities and the counters equal {@link PfcPauseModel}'s. {@link PfcGenerator}: buffer levels wandering across
 * the thresholds, frames passing to a stalling MAC: s_axis_tready, every beat on m_axis (PFC frames byte for byte,
 * FCS from java.util.zip), the priorities off and the counters equal {@link PfcGeneratorModel}'s.
 */
class PfcTest {
    @ParameterizedTest
    @CsvSource({"256,256,1", "512,128,2", "1024,1024,3"})
    void pauseFollowsTheModel(int width, int bitsPerCycle, long seed) {
        PfcConfig cfg = PfcConfig.builder().vcClasses(PfcConfig.classes(3, 5, 3, 0)).bitsPerCycle(bitsPerCycle)
                .pauseQuanta(300).refreshCycles(100).xoffBytes(4096).xonBytes(1024).build(width);
        PfcPause dut = new PfcPause(cfg);
        Simulator sim = Simulator.compile(Design.elaborate(dut));
        sim.reset();
        Random rnd = new Random(seed);
        PfcPauseModel model = new PfcPauseModel(cfg);
        StreamSource frames = new StreamSource(sim, "s_axis_pfc");
        ArrayDeque<byte[]> sent = new ArrayDeque<>();
        ArrayDeque<Boolean> bads = new ArrayDeque<>();
        int pausedCycles = 0;
        for (long c = 0; c < 20_000; c++) {
            if (frames.idle() && rnd.nextInt(150) == 0) {
                int[] times = new int[PfcConfig.CLASSES];
                for (int i = 0; i < times.length; i++) {
                    times[i] = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(rnd.nextBoolean() ? 20 : 400);
                }
                byte[] f = PfcFrame.encode(rnd.nextLong() & 0xFFFFFFFFFFFFL, rnd.nextInt(1 << 16), times);
                switch (rnd.nextInt(14)) {
                    case 0 -> f[rnd.nextInt(6)] ^= 1;
                    case 1 -> f[12 + rnd.nextInt(4)] ^= 0x20;
                    case 2 -> f = Arrays.copyOf(f, 60 + rnd.nextInt(4));
                    case 3 -> f = Arrays.copyOf(f, 65 + rnd.nextInt(80));
                    default -> { }
                }
                frames.add(f, BigInteger.ZERO);
                sent.add(f);
                bads.add(rnd.nextInt(15) == 0);
            }
            frames.drive(rnd, 60);
            boolean last = sim.peek("s_axis_pfc_tvalid") == 1 && sim.peek("s_axis_pfc_tlast") == 1;
            boolean bad = last && bads.peek();
            sim.poke("s_axis_pfc_tuser", bad ? 1 : 0);
            for (String name : new String[] {"vc_ready", "class_paused", "pfc_frames_received", "pfc_frames_dropped"}) {
                assertEquals(model.status(name), sim.peek(name), name + " at cycle " + c);
            }
            pausedCycles += model.vcReady() != 0xF ? 1 : 0;
            byte[] ended = null;
            if (last) {
                ended = sent.poll();
                bads.poll();
            }
            model.step(ended, bad);
            frames.advance();
            sim.step();
        }
        assertTrue(model.status("pfc_frames_received") > 50, "PFC frames taken");
        assertTrue(model.status("pfc_frames_dropped") > 10, "PFC frames dropped");
        assertTrue(pausedCycles > 2000 && pausedCycles < 19_000, "VCs paused for " + pausedCycles + " cycles");
    }

    @ParameterizedTest
    @CsvSource({"256,1,0", "512,2,120000", "1024,3,150000"})
    void generatorFollowsTheModel(int width, long seed, int sharedXoff) {
        PfcConfig cfg = PfcConfig.builder().vcClasses(PfcConfig.classes(1, 1, 6, 2)).pauseQuanta(400)
                .refreshCycles(150).xoffBytes(3000).xonBytes(1000).sharedXoffBytes(sharedXoff).build(width);
        PfcGenerator dut = new PfcGenerator(cfg);
        Simulator sim = Simulator.compile(Design.elaborate(dut));
        sim.reset();
        Random rnd = new Random(seed);
        PfcGeneratorModel model = new PfcGeneratorModel(cfg);
        StreamSource frames = new StreamSource(sim, "s_axis");
        int lanes = width / 8;
        long mac = 0x02_11_22_33_44_55L;
        sim.poke("local_mac", mac);
        long[] levels = new long[SueMeta.VCS];
        long pfcBeats = 0;
        long sharedCycles = 0;
        for (long c = 0; c < 20_000; c++) {
            if (frames.idle()) {
                byte[] f = new byte[64 + rnd.nextInt(rnd.nextInt(5) == 0 ? 9000 : 300)];
                rnd.nextBytes(f);
                frames.add(f, BigInteger.ZERO);
            }
            frames.drive(rnd, 85);
            for (int v = 0; v < SueMeta.VCS; v++) { // a random walk with a drift that changes sign now and then
                long drift = (c / (1500 + 500 * v)) % 2 == 0 ? 3 : -3;
                levels[v] = Math.max(0, Math.min((1 << 24) - 1, levels[v] + drift * 10 + rnd.nextInt(61) - 30));
                sim.poke("level_" + v, levels[v]);
            }
            long total = Arrays.stream(levels).sum();
            if (cfg.shared()) {
                sim.poke("level_total", total);
                assertEquals(model.status("shared_off"), sim.peek("shared_off"), "shared_off at cycle " + c);
                sharedCycles += model.status("shared_off");
            }
            boolean outReady = rnd.nextInt(5) > 0;
            sim.poke("m_axis_tready", outReady ? 1 : 0);
            boolean beatValid = sim.peek("s_axis_tvalid") == 1;
            var ins = model.inserter();
            assertEquals(!model.holding() && !ins.sending() && outReady ? 1 : 0, sim.peek("s_axis_tready"),
                    "s_axis_tready at cycle " + c);
            if (ins.sending()) {
                int b = ins.beat();
                int n = Math.min(lanes, 64 - b * lanes);
                assertEquals(1, sim.peek("m_axis_tvalid"));
                assertArrayEquals(Beats.data(ins.frame(), b * lanes, n, lanes), sim.peekWide("m_axis_tdata"),
                        "PFC frame beat " + b + " at cycle " + c);
                assertArrayEquals(Beats.keep(n, lanes), sim.peekWide("m_axis_tkeep"));
                assertEquals(b * lanes + n == 64 ? 1 : 0, sim.peek("m_axis_tlast"));
                assertEquals(1, sim.peek("m_axis_tuser"));
                pfcBeats++;
            } else {
                boolean passes = beatValid && !model.holding();
                assertEquals(passes ? 1 : 0, sim.peek("m_axis_tvalid"), "m_axis_tvalid at cycle " + c);
                if (passes) {
                    assertArrayEquals(sim.peekWide("s_axis_tdata"), sim.peekWide("m_axis_tdata"));
                    assertEquals(0, sim.peek("m_axis_tuser"));
                }
            }
            for (String name : new String[] {"class_off", "xoff_frames_sent", "pfc_frames_sent"}) {
                assertEquals(model.status(name), sim.peek(name), name + " at cycle " + c);
            }
            model.step(levels.clone(), total, beatValid, beatValid && sim.peek("s_axis_tlast") == 1, outReady, mac);
            frames.advance();
            sim.step();
        }
        assertTrue(model.status("pfc_frames_sent") > 20, "PFC frames sent: " + model.status("pfc_frames_sent"));
        assertTrue(model.status("xoff_frames_sent") > 10, "XOFF frames sent");
        assertTrue(pfcBeats > 0);
        assertTrue(!cfg.shared() || sharedCycles > 500 && sharedCycles < 19_000, "shared threshold on for "
                + sharedCycles + " cycles");
    }
}
