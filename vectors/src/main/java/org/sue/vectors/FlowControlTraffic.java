package org.sue.vectors;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Random;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.link.CbfcConfig;
import org.sue.link.CcUpdateFrame;
import org.sue.link.PfcConfig;
import org.sue.link.PfcFrame;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/** Stimuli of the link-layer flow-control blocks' golden vectors (CBFC, PFC). */
final class FlowControlTraffic {
    private FlowControlTraffic() {
    }

    /**
     * A {@link org.sue.link.CbfcSender}: a scheduler that reserves for ready VCs and charges (mostly reserved, now and
     * then ignoring vc_ready), CF_Updates returning part of what is in use (some too many, some of another type),
     * frames of every VC and a stalling MAC, so CC_Updates wait between frames.
     */
    static GoldenScenario.Stimulus sender(CbfcConfig cfg) {
        return new GoldenScenario.Stimulus() {
            private StreamSource frames;
            private final int[] held = new int[SueMeta.VCS];

            @Override
            public void drive(Simulator sim, long cycle, Random rnd) {
                if (frames == null) {
                    frames = new StreamSource(sim, "s_axis");
                    sim.poke("local_mac", 0x02AB_CDEF_0042L);
                }
                if (frames.idle()) {
                    byte[] f = new byte[64 + rnd.nextInt(rnd.nextInt(4) == 0 ? cfg.maxFrameBytes() - 63 : 300)];
                    rnd.nextBytes(f);
                    frames.add(f, BigInteger.valueOf(rnd.nextInt(SueMeta.VCS)));
                }
                int ready = (int) sim.peek("vc_ready");
                int r = rnd.nextInt(SueMeta.VCS);
                boolean reserve = rnd.nextInt(4) == 0 && (ready >> r & 1) == 1;
                int u = rnd.nextInt(SueMeta.VCS);
                boolean fromReserve = held[u] > 0 && rnd.nextBoolean();
                boolean charge = rnd.nextInt(3) == 0 && (fromReserve || (ready >> u & 1) == 1 || rnd.nextInt(40) == 0);
                int x = rnd.nextInt(SueMeta.VCS);
                boolean unreserve = rnd.nextInt(10) == 0 && held[x] > (charge && fromReserve && u == x ? 1 : 0);
                held[r] += reserve ? 1 : 0;
                held[u] -= charge && fromReserve ? 1 : 0;
                held[x] -= unreserve ? 1 : 0;
                event(sim, "reserve", reserve, r);
                event(sim, "charge", charge, u);
                sim.poke("charge_bytes", 64 + rnd.nextInt(cfg.maxFrameBytes() - 63));
                sim.poke("charge_reserved", charge && fromReserve ? 1 : 0);
                event(sim, "unreserve", unreserve, x);
                boolean cf = rnd.nextInt(6) == 0;
                int w = rnd.nextInt(SueMeta.VCS);
                long inUse = sim.peek("s_cu_" + w);
                long back = rnd.nextInt(20) == 0 ? inUse + 1 + rnd.nextInt(40) : rnd.nextLong(inUse + 1);
                sim.poke("ctl_in_valid", cf ? 1 : 0);
                sim.poke("ctl_in_type", rnd.nextInt(10) == 0 ? cfg.codes().ack() : cfg.codes().cfUpdate());
                sim.poke("ctl_in_vc", w);
                sim.poke("ctl_in_value", sim.peek("s_cf_" + w) + back & 0xFFFFF);
                sim.poke("m_axis_tready", rnd.nextInt(5) > 0 ? 1 : 0);
                frames.drive(rnd, 80);
                frames.advance();
                sim.poke("cc_now", rnd.nextInt(500) == 0 ? 1 : 0); // a CC_Update asked for beside the timer's
            }
        };
    }

    /**
     * A {@link org.sue.link.CbfcReceiver}: frames enqueued, drained and discarded on every VC (a discard often beside
     * a dequeue of the same VC), CC_Updates that report lost credits, lag behind or are malformed or flagged bad, a
     * control channel that stalls.
     */
    static GoldenScenario.Stimulus receiver(CbfcConfig cfg) {
        return new GoldenScenario.Stimulus() {
            private StreamSource cc;

            @Override
            public void drive(Simulator sim, long cycle, Random rnd) {
                if (cc == null) {
                    cc = new StreamSource(sim, "s_axis_cc");
                }
                boolean enq = rnd.nextInt(3) == 0;
                sim.poke("enqueue_valid", enq ? 1 : 0);
                sim.poke("enqueue_vc", rnd.nextInt(SueMeta.VCS));
                sim.poke("enqueue_bytes", 64 + rnd.nextInt(4000));
                boolean deq = rnd.nextInt(4) == 0;
                int deqVc = rnd.nextInt(SueMeta.VCS);
                sim.poke("dequeue_valid", deq ? 1 : 0);
                sim.poke("dequeue_vc", deqVc);
                sim.poke("dequeue_bytes", 64 + rnd.nextInt(4000));
                // a third on the dequeue's VC: both frames' credits into one counter
                sim.poke("discard_valid", rnd.nextInt(5) == 0 ? 1 : 0);
                sim.poke("discard_vc", rnd.nextInt(3) == 0 ? deqVc : rnd.nextInt(SueMeta.VCS));
                sim.poke("discard_bytes", 64 + rnd.nextInt(4000));
                if (cc.idle() && rnd.nextInt(200) == 0) {
                    long[] counters = new long[CbfcConfig.CC_COUNTERS];
                    for (int v = 0; v < counters.length; v++) {
                        long rcc = v < SueMeta.VCS ? sim.peek("r_cc_" + v) : rnd.nextInt(1 << 20);
                        counters[v] = rcc + rnd.nextInt(40) - 10 & 0xFFFFF;
                    }
                    byte[] f = CcUpdateFrame.encode(cfg, 0x020000000007L, counters);
                    int damage = rnd.nextInt(12);
                    if (damage == 0) {
                        f[12 + rnd.nextInt(8)] ^= 0x10;
                    }
                    cc.add(damage == 1 ? java.util.Arrays.copyOf(f, 70) : f, BigInteger.ZERO);
                }
                cc.drive(rnd, 70);
                sim.poke("s_axis_cc_tuser", rnd.nextInt(15) == 0 ? 1 : 0);
                sim.poke("ctl_out_ready", rnd.nextInt(4) > 0 ? 1 : 0);
                cc.advance();
            }
        };
    }

    /** A {@link org.sue.link.PfcPause}: PFC frames enabling random priorities, pausing and resuming, some malformed. */
    static GoldenScenario.Stimulus pause() {
        return new GoldenScenario.Stimulus() {
            private StreamSource frames;

            @Override
            public void drive(Simulator sim, long cycle, Random rnd) {
                if (frames == null) {
                    frames = new StreamSource(sim, "s_axis_pfc");
                }
                if (frames.idle() && rnd.nextInt(120) == 0) {
                    int[] times = new int[PfcConfig.CLASSES];
                    for (int i = 0; i < times.length; i++) {
                        times[i] = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(300);
                    }
                    byte[] f = PfcFrame.encode(0x020000000009L, rnd.nextInt(1 << 16), times);
                    if (rnd.nextInt(10) == 0) {
                        f[14 + rnd.nextInt(2)] ^= 0x01; // opcode
                    }
                    frames.add(rnd.nextInt(12) == 0 ? java.util.Arrays.copyOf(f, 61) : f, BigInteger.ZERO);
                }
                frames.drive(rnd, 60);
                sim.poke("s_axis_pfc_tuser", rnd.nextInt(20) == 0 ? 1 : 0);
                frames.advance();
            }
        };
    }

    /**
     * A {@link org.sue.link.PfcGenerator} with a shared threshold: buffer levels wandering across XOFF and XON, their
     * total across the shared threshold, frames to a stalling MAC.
     */
    static GoldenScenario.Stimulus generator() {
        return new GoldenScenario.Stimulus() {
            private StreamSource frames;
            private final long[] levels = new long[SueMeta.VCS];

            @Override
            public void drive(Simulator sim, long cycle, Random rnd) {
                if (frames == null) {
                    frames = new StreamSource(sim, "s_axis");
                    sim.poke("local_mac", 0x02000000000AL);
                }
                if (frames.idle()) {
                    byte[] f = new byte[64 + rnd.nextInt(rnd.nextInt(5) == 0 ? 3000 : 300)];
                    rnd.nextBytes(f);
                    frames.add(f, BigInteger.ZERO);
                }
                for (int v = 0; v < SueMeta.VCS; v++) {
                    long drift = (cycle / (700 + 300 * v)) % 2 == 0 ? 30 : -30;
                    levels[v] = Math.max(0, levels[v] + drift + rnd.nextInt(61) - 30);
                    sim.poke("level_" + v, levels[v]);
                }
                sim.poke("level_total", Arrays.stream(levels).sum());
                sim.poke("m_axis_tready", rnd.nextInt(5) > 0 ? 1 : 0);
                frames.drive(rnd, 85);
                frames.advance();
            }
        };
    }

    /** A {@link org.sue.link.MacControlDemux}: data frames, VLAN-tagged ones, PFC and CC_Update frames, runts. */
    static GoldenScenario.Stimulus demux(CbfcConfig cfg) {
        return new GoldenScenario.Stimulus() {
            private StreamSource frames;

            @Override
            public void drive(Simulator sim, long cycle, Random rnd) {
                if (frames == null) {
                    frames = new StreamSource(sim, "s_axis");
                }
                if (frames.idle()) {
                    byte[] f = switch (rnd.nextInt(5)) {
                        case 0 -> PfcFrame.encode(0x02000000000BL, rnd.nextInt(256), new int[PfcConfig.CLASSES]);
                        case 1 -> CcUpdateFrame.encode(cfg, 0x02000000000CL, new long[] {rnd.nextInt(1 << 20)});
                        case 2 -> new byte[1 + rnd.nextInt(13)];
                        default -> new byte[14 + rnd.nextInt(700)];
                    };
                    if (f.length > 18 && rnd.nextInt(3) == 0 && f[12] != (byte) 0x88) {
                        f[12] = (byte) 0x81; // VLAN-tagged: not MAC Control, whatever follows
                        f[16] = (byte) 0x88;
                        f[17] = 0x08;
                    }
                    frames.add(f, BigInteger.valueOf(rnd.nextInt(6) == 0 ? 1 : 0));
                }
                frames.drive(rnd, 75);
                frames.advance();
            }
        };
    }

    private static void event(Simulator sim, String stream, boolean valid, int vc) {
        sim.poke(stream + "_valid", valid ? 1 : 0);
        sim.poke(stream + "_vc", vc);
    }
}
