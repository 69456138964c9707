package org.sue.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.model.Beats;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.link.model.CbfcSenderModel;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * CBFC sender against {@link CbfcSenderModel}, cycle by cycle: reservations, charges (reserved, unreserved, and now
 * and then one that ignores vc_ready), CF_Updates (right, refusable, of other types), frames of every VC through to
 * the MAC with a stalling MAC, CC_Updates between them. Every cycle vc_ready, s_axis_tready, what m_axis carries
 * (frames unchanged; the CC_Update byte for byte, FCS from java.util.zip) and every status output equal the model's.
 */
class CbfcSenderTest {
    @ParameterizedTest
    @CsvSource({"256,15,0,1", "512,11,-16,2", "1024,7,127,3"})
    void followsTheModel(int width, int lossless, int overhead, long seed) {
        CbfcConfig cfg = CbfcConfig.defaults(width).withCredits(lossless, 64, overhead).withLimits(120, 300, 1500, 700);
        CbfcSender dut = new CbfcSender(cfg);
        Simulator sim = Simulator.compile(Design.elaborate(dut));
        sim.reset();
        Random rnd = new Random(seed);
        CbfcSenderModel model = new CbfcSenderModel(cfg);
        StreamSource frames = new StreamSource(sim, "s_axis");
        int lanes = cfg.beatBytes();
        int[] held = new int[SueMeta.VCS]; // reservations the testbench's scheduler holds
        long mac = 0x02AB_CDEF_0123L;
        sim.poke("local_mac", mac);
        long ccFrames = 0;
        long asked = 0;
        long refused = 0;
        for (long c = 0; c < 20_000; c++) {
            if (frames.idle()) {
                int bytes = 64 + rnd.nextInt(rnd.nextInt(4) == 0 ? cfg.maxFrameBytes() - 63 : 200);
                byte[] f = new byte[bytes];
                rnd.nextBytes(f);
                frames.add(f, BigInteger.valueOf(rnd.nextInt(SueMeta.VCS)));
            }
            frames.drive(rnd, 80);
            int ready = (int) sim.peek("vc_ready");
            assertEquals(model.vcReady(), ready, "vc_ready at cycle " + c);
            // the scheduler: reserve for a ready VC, charge or give back what it holds, now and then misbehave
            int reserveVc = -1;
            int v = rnd.nextInt(SueMeta.VCS);
            if (rnd.nextInt(4) == 0 && (ready >> v & 1) == 1) {
                reserveVc = v;
            }
            int chargeVc = -1;
            boolean chargeReserved = false;
            int u = rnd.nextInt(SueMeta.VCS);
            if (rnd.nextInt(3) == 0) {
                chargeReserved = held[u] > 0 && rnd.nextBoolean();
                if (chargeReserved || (ready >> u & 1) == 1 || rnd.nextInt(30) == 0) {
                    chargeVc = u;
                }
            }
            int unreserveVc = -1;
            int x = rnd.nextInt(SueMeta.VCS);
            if (rnd.nextInt(10) == 0 && held[x] > (chargeReserved && chargeVc == x ? 1 : 0)) {
                unreserveVc = x;
            }
            int chargeBytes = 64 + rnd.nextInt(cfg.maxFrameBytes() - 63);
            poke(sim, "reserve", reserveVc);
            poke(sim, "unreserve", unreserveVc);
            poke(sim, "charge", chargeVc);
            sim.poke("charge_bytes", chargeBytes);
            sim.poke("charge_reserved", chargeReserved ? 1 : 0);
            if (reserveVc >= 0) {
                held[reserveVc]++;
            }
            if (chargeReserved && chargeVc >= 0) {
                held[chargeVc]--;
            }
            if (unreserveVc >= 0) {
                held[unreserveVc]--;
            }
            // CF_Updates: mostly what a receiver could return, some too many, some other messages
            int cfVc = -1;
            long cfValue = 0;
            int type = 0;
            if (rnd.nextInt(6) == 0) {
                int w = rnd.nextInt(SueMeta.VCS);
                long inUse = model.status("s_cu_" + w);
                long back = rnd.nextInt(20) == 0 ? inUse + 1 + rnd.nextInt(50) : inUse == 0 ? 0 : rnd.nextLong(inUse + 1);
                cfValue = model.status("s_cf_" + w) + back & 0xFFFFF;
                type = rnd.nextInt(10) == 0 ? cfg.codes().ack() : cfg.codes().cfUpdate();
                cfVc = type == cfg.codes().cfUpdate() ? w : -1;
                sim.poke("ctl_in_vc", w);
            }
            sim.poke("ctl_in_valid", type != 0 ? 1 : 0);
            sim.poke("ctl_in_type", type);
            sim.poke("ctl_in_value", cfValue);
            boolean outReady = rnd.nextInt(5) > 0;
            sim.poke("m_axis_tready", outReady ? 1 : 0);
            boolean ccNow = rnd.nextInt(700) == 0; // a CC_Update asked for beside the timer's
            sim.poke("cc_now", ccNow ? 1 : 0);
            asked += ccNow ? 1 : 0;

            // this cycle's outputs
            boolean beatValid = sim.peek("s_axis_tvalid") == 1;
            assertEquals(!model.holding() && !model.sendingCc() && outReady ? 1 : 0, sim.peek("s_axis_tready"),
                    "s_axis_tready at cycle " + c);
            if (model.sendingCc()) {
                int b = model.ccBeat();
                int n = Math.min(lanes, 64 - b * lanes);
                assertEquals(1, sim.peek("m_axis_tvalid"), "CC_Update beat at cycle " + c);
                assertArrayEquals(Beats.data(model.ccFrame(), b * lanes, n, lanes), sim.peekWide("m_axis_tdata"),
                        "CC_Update beat " + b + " at cycle " + c);
                assertArrayEquals(Beats.keep(n, lanes), sim.peekWide("m_axis_tkeep"));
                assertEquals(b * lanes + n == 64 ? 1 : 0, sim.peek("m_axis_tlast"));
                assertEquals(1, sim.peek("m_axis_tuser"));
                ccFrames += b == 0 ? 1 : 0;
            } else {
                boolean passes = beatValid && !model.holding();
                assertEquals(passes ? 1 : 0, sim.peek("m_axis_tvalid"), "m_axis_tvalid at cycle " + c);
                if (passes) {
                    assertArrayEquals(sim.peekWide("s_axis_tdata"), sim.peekWide("m_axis_tdata"));
                    assertEquals(sim.peek("s_axis_tlast"), sim.peek("m_axis_tlast"));
                    assertEquals(0, sim.peek("m_axis_tuser"));
                }
            }
            for (String name : dut.statusPorts().keySet()) {
                assertEquals(model.status(name), sim.peek(name), name + " at cycle " + c);
            }
            refused = model.status("cf_update_errors");
            int keepCount = beatValid ? Long.bitCount(sim.peekWide("s_axis_tkeep")[0])
                    + (lanes > 64 ? Long.bitCount(sim.peekWide("s_axis_tkeep")[1]) : 0) : 0;
            model.step(new CbfcSenderModel.Inputs(reserveVc, unreserveVc, chargeVc, chargeBytes, chargeReserved, cfVc,
                    cfValue, beatValid, beatValid && sim.peek("s_axis_tlast") == 1, keepCount,
                    beatValid ? (int) sim.peek("s_axis_tuser") : 0, outReady, mac, ccNow));
            frames.advance();
            sim.step();
        }
        assertTrue(ccFrames > 10, "CC_Updates sent: " + ccFrames);
        assertTrue(asked > 10 && ccFrames >= 20_000 / cfg.ccTimerCycles() + asked / 2, "CC_Updates sent: " + ccFrames
                + ", " + asked + " of them asked for");
        assertTrue(refused > 0, "some CF_Updates refused");
        assertTrue(model.status("credit_overdraws") > 0, "some charges ignored vc_ready");
        assertTrue(model.status("cf_updates_received") > 100, "CF_Updates taken");
    }

    private static void poke(Simulator sim, String stream, int vc) {
        sim.poke(stream + "_valid", vc >= 0 ? 1 : 0);
        sim.poke(stream + "_vc", Math.max(vc, 0));
    }
}
