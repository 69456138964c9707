package org.sue.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * PFC over a link: a sender that starts a frame on a VC only while {@link PfcPause} lets it, line rate, a link of
 * {@code delay} cycles each way, per-VC receive buffers drained at their own slow rates (VC 3 stopping for long
 * stretches) whose levels feed {@link PfcGenerator}, whose PFC frames go back between the receiver's own frames.
 *
 * <p>Independent truth: the testbench's buffers. No buffer ever passes its XOFF threshold by more than the headroom
 * docs/protocol.md section 9 gives ({@code 2 x largest frame + (2 x delay + 4) x beat bytes + a control frame's
 * beats}), VC 3 does pass XOFF (the pauses are needed), every VC keeps moving, and VC 0 moves while VC 3 is
 * paused.
 */
class PfcLinkTest {
    @ParameterizedTest
    @CsvSource({"512,100,1", "1024,200,2", "256,50,3"})
    void buffersStayWithinTheHeadroomAndNoVcBlocksAnother(int width, int delay, long seed) {
        int lanes = width / 8;
        int largest = 2048;
        PfcConfig cfg = PfcConfig.builder().pauseQuanta(2000).refreshCycles(400).xoffBytes(20_000).xonBytes(10_000)
                .build(width);
        Simulator pause = Simulator.compile(Design.elaborate(new PfcPause(cfg)));
        Simulator gen = Simulator.compile(Design.elaborate(new PfcGenerator(cfg)));
        pause.reset();
        gen.reset();
        Random rnd = new Random(seed);
        StreamSource reverse = new StreamSource(gen, "s_axis"); // the receiver's own traffic
        StreamSource pfcIn = new StreamSource(pause, "s_axis_pfc");
        gen.poke("local_mac", 0x020000000002L);
        ArrayDeque<long[]> data = new ArrayDeque<>();  // {arrival cycle, vc, bytes} of frames on the link
        ArrayDeque<Object[]> back = new ArrayDeque<>(); // {arrival cycle, PFC frame}
        long[] level = new long[SueMeta.VCS];
        long[] maxLevel = new long[SueMeta.VCS];
        long[] delivered = new long[SueMeta.VCS];
        long vc0WhileVc3Paused = 0;
        int rr = 0;
        int sending = -1;      // VC of the frame on the wire, -1 idle
        int left = 0;          // its bytes still to send
        int frameBytes = 0;
        java.io.ByteArrayOutputStream pfc = new java.io.ByteArrayOutputStream();
        for (long c = 0; c < 60_000; c++) {
            // the sender: a beat a cycle; a new frame only on a VC not paused
            int ready = (int) pause.peek("vc_ready");
            if (sending < 0) {
                for (int k = 1; k <= SueMeta.VCS; k++) {
                    int v = (rr + k) % SueMeta.VCS;
                    if ((ready >> v & 1) == 1) {
                        sending = v;
                        rr = v;
                        frameBytes = 64 + rnd.nextInt(largest - 63);
                        left = frameBytes;
                        break;
                    }
                }
            }
            if (sending >= 0) {
                left -= lanes;
                if (left <= 0) {
                    data.add(new long[] {c + delay, sending, frameBytes});
                    sending = -1;
                }
            }
            while (!data.isEmpty() && data.peek()[0] <= c) {
                long[] f = data.poll();
                level[(int) f[1]] += f[2];
            }
            // the XPU drains: VC v one frame's worth of bytes at 1/(3+2v), VC 3 stopping for stretches
            boolean vc3Stopped = c % 12_000 < 7_000;
            int d = rnd.nextInt(SueMeta.VCS);
            if (!(d == 3 && vc3Stopped) && rnd.nextInt(3 + 2 * d) == 0 && level[d] > 0) {
                level[d] -= Math.min(level[d], 64 + rnd.nextInt(largest));
                delivered[d]++;
                if (d == 0 && (pause.peek("class_paused") >> 3 & 1) == 1) {
                    vc0WhileVc3Paused++;
                }
            }
            for (int v = 0; v < SueMeta.VCS; v++) {
                maxLevel[v] = Math.max(maxLevel[v], level[v]);
                gen.poke("level_" + v, level[v]);
            }
            // the receiver's own frames, with its PFC frames between them, over the link back
            if (reverse.idle()) {
                byte[] f = new byte[64 + rnd.nextInt(largest - 63)];
                reverse.add(f, BigInteger.ZERO);
            }
            reverse.drive(rnd, 70);
            gen.poke("m_axis_tready", 1);
            if (gen.peek("m_axis_tvalid") == 1 && gen.peek("m_axis_tuser") == 1) {
                byte[] beat = gen.peekBig("m_axis_tdata").toByteArray();
                int n = Math.min(lanes, 64 - pfc.size());
                for (int i = 0; i < n; i++) {
                    int at = beat.length - 1 - i;
                    pfc.write(at >= 0 ? beat[at] : 0);
                }
                if (gen.peek("m_axis_tlast") == 1) {
                    back.add(new Object[] {c + delay, pfc.toByteArray()});
                    pfc.reset();
                }
            }
            if (pfcIn.idle() && !back.isEmpty() && (long) back.peek()[0] <= c) {
                pfcIn.add((byte[]) back.poll()[1], BigInteger.ZERO);
            }
            pfcIn.drive(rnd, 100);
            pause.poke("s_axis_pfc_tuser", 0);
            reverse.advance();
            pfcIn.advance();
            pause.step();
            gen.step();
        }
        int controlBeats = (64 + lanes - 1) / lanes;
        long headroom = 2L * largest + (2L * delay + 4 + controlBeats) * lanes;
        for (int v = 0; v < SueMeta.VCS; v++) {
            assertTrue(maxLevel[v] <= cfg.xoffBytes() + headroom, "VC " + v + " buffer reached " + maxLevel[v]
                    + " bytes, XOFF " + cfg.xoffBytes() + " + headroom " + headroom);
            assertTrue(delivered[v] > 200, "VC " + v + " delivered only " + delivered[v]);
        }
        assertTrue(maxLevel[3] > cfg.xoffBytes(), "VC 3 went past XOFF (into its headroom): " + maxLevel[3]);
        assertTrue(vc0WhileVc3Paused > 100, "VC 0 moved while VC 3 was paused: " + vc0WhileVc3Paused);
        assertEquals(0, pause.peek("pfc_frames_dropped"));
        assertTrue(gen.peek("xoff_frames_sent") > 5);
    }
}
