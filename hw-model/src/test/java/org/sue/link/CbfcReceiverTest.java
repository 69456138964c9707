package org.sue.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.link.model.CbfcReceiverModel;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * CBFC receiver against {@link CbfcReceiverModel}, cycle by cycle: frames enqueued, drained and discarded at random
 * rates on every VC (a discard often beside a dequeue of the same VC), CC_Update frames that report lost frames,
 * that lag behind, that are malformed (a header byte off, too short, too long) or flagged bad by the MAC, and a
 * control channel that stalls. Every cycle the CF_Update on {@code ctl_out} and every status output equal the
 * model's; the CC_Update's counters are read from the bytes by the model, not by the RTL's layout; CC_Updates apply
 * 0, 1 or 6 cycles after their last beat.
 */
class CbfcReceiverTest {
    @ParameterizedTest
    @CsvSource({"256,15,0,1,0", "512,13,-16,2,6", "1024,14,100,3,1"})
    void followsTheModel(int width, int lossless, int overhead, long seed, int ccDelay) {
        CbfcConfig cfg = CbfcConfig.defaults(width).withCredits(lossless, 128, overhead).withSpacing(800, 16384);
        CbfcReceiver dut = new CbfcReceiver(new CbfcReceiver.Config(cfg, ccDelay));
        Simulator sim = Simulator.compile(Design.elaborate(dut));
        sim.reset();
        Random rnd = new Random(seed);
        CbfcReceiverModel model = new CbfcReceiverModel(cfg, ccDelay);
        StreamSource cc = new StreamSource(sim, "s_axis_cc");
        ArrayDeque<byte[]> ccSent = new ArrayDeque<>();
        ArrayDeque<Boolean> ccBad = new ArrayDeque<>();
        List<ArrayDeque<Integer>> buffers = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            buffers.add(new ArrayDeque<>());
        }
        int cfSeen = 0;
        int discardsBesideDequeue = 0;
        for (long c = 0; c < 30_000; c++) {
            int[] enq = null;
            if (rnd.nextInt(3) == 0) {
                enq = new int[] {rnd.nextInt(SueMeta.VCS), 64 + rnd.nextInt(4000)};
                buffers.get(enq[0]).add(enq[1]);
            }
            int d = rnd.nextInt(SueMeta.VCS);
            int[] deq = rnd.nextInt(4 + 2 * d) == 0 ? leave(buffers, d) : null;
            // a third of the discards on the dequeue's VC when there is one, to hit both in one counter
            int x = deq != null && rnd.nextInt(3) == 0 ? deq[0] : rnd.nextInt(SueMeta.VCS);
            int[] dis = rnd.nextInt(6) == 0 ? leave(buffers, x) : null;
            discardsBesideDequeue += deq != null && dis != null && deq[0] == dis[0] ? 1 : 0;
            pokeFrame(sim, "enqueue", enq);
            pokeFrame(sim, "dequeue", deq);
            pokeFrame(sim, "discard", dis);
            if (cc.idle() && rnd.nextInt(300) == 0) {
                byte[] f = ccUpdate(cfg, model, rnd);
                boolean bad = rnd.nextInt(15) == 0;
                cc.add(f, BigInteger.ZERO);
                ccSent.add(f);
                ccBad.add(bad);
            }
            cc.drive(rnd, 70);
            boolean ccLast = sim.peek("s_axis_cc_tvalid") == 1 && sim.peek("s_axis_cc_tlast") == 1;
            boolean bad = ccLast && ccBad.peek();
            sim.poke("s_axis_cc_tuser", bad ? 1 : 0);
            boolean outReady = rnd.nextInt(4) > 0;
            sim.poke("ctl_out_ready", outReady ? 1 : 0);

            long[] offered = model.offered();
            assertEquals(offered != null ? 1 : 0, sim.peek("ctl_out_valid"), "ctl_out_valid at cycle " + c);
            if (offered != null) {
                assertEquals(cfg.codes().cfUpdate(), sim.peek("ctl_out_type"));
                assertEquals(offered[0], sim.peek("ctl_out_vc"), "CF_Update VC at cycle " + c);
                assertEquals(offered[1], sim.peek("ctl_out_value"), "CF_Update value at cycle " + c);
                cfSeen += outReady ? 1 : 0;
            }
            for (String name : dut.statusPorts().keySet()) {
                assertEquals(model.status(name), sim.peek(name), name + " at cycle " + c);
            }
            byte[] ended = null;
            if (ccLast) {
                ended = ccSent.poll();
                ccBad.poll();
                assertNotNull(ended);
            }
            model.step(enq, deq, dis, ended, bad, outReady);
            cc.advance();
            sim.step();
        }
        assertTrue(cfSeen > 100, "CF_Updates sent: " + cfSeen);
        assertTrue(discardsBesideDequeue > 100, "discards beside a dequeue of the same VC: " + discardsBesideDequeue);
        assertTrue(model.status("cc_updates_received") > 20, "CC_Updates taken");
        assertTrue(model.status("cc_frames_dropped") > 5, "CC_Updates dropped");
        assertTrue(model.status("cc_credits_recovered") > 0, "credits recovered");
    }

    /** {vc, bytes} of a frame leaving VC v's buffer (dequeued or discarded), or null when it is empty. */
    private static int[] leave(List<ArrayDeque<Integer>> buffers, int v) {
        Integer bytes = buffers.get(v).poll();
        return bytes != null ? new int[] {v, bytes} : null;
    }

    /** Drives flow input {@code name} with {@code frame} ({vc, bytes}), or idle when null. */
    private static void pokeFrame(Simulator sim, String name, int[] frame) {
        sim.poke(name + "_valid", frame != null ? 1 : 0);
        sim.poke(name + "_vc", frame != null ? frame[0] : 0);
        sim.poke(name + "_bytes", frame != null ? frame[1] : 0);
    }

    /** A CC_Update reporting a few lost credits, or lagging, or malformed. */
    private static byte[] ccUpdate(CbfcConfig cfg, CbfcReceiverModel model, Random rnd) {
        long[] counters = new long[CbfcConfig.CC_COUNTERS];
        for (int v = 0; v < SueMeta.VCS; v++) {
            int lost = rnd.nextInt(4) == 0 ? -rnd.nextInt(20) : rnd.nextInt(3) == 0 ? rnd.nextInt(30) : 0;
            counters[v] = model.status("r_cc_" + v) + lost & 0xFFFFF;
        }
        for (int v = SueMeta.VCS; v < counters.length; v++) {
            counters[v] = rnd.nextInt(1 << 20); // not ours: ignored
        }
        byte[] f = CcUpdateFrame.encode(cfg, rnd.nextLong() & 0xFFFF_FFFF_FFFFL, counters);
        return switch (rnd.nextInt(20)) {
            case 0 -> {
                f[12 + rnd.nextInt(8)] ^= (byte) (1 << rnd.nextInt(8)); // header
                yield f;
            }
            case 1 -> java.util.Arrays.copyOf(f, 60 + rnd.nextInt(4));
            case 2 -> java.util.Arrays.copyOf(f, 65 + rnd.nextInt(100));
            default -> f;
        };
    }

    @Test
    void aCcDelayOutOfRangeIsRefusedByName() {
        CbfcConfig cfg = CbfcConfig.defaults(512);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CbfcReceiver.Config(cfg, 65));
        assertTrue(e.getMessage().contains("ccDelay"), e.getMessage());
    }
}
