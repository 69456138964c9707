package org.sue.bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.sue.cmd.tb.CommandReceiver;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.instance.tb.XpuSide;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.net.HeaderFormat;
import org.sue.net.SueMeta;
import org.sue.transport.TransportTx;

/**
 * A port that dies under saturating traffic, for {@code scripts/bench ports} (docs/protocol.md 10.6): the instances of
 * {@link PortsBench}, XPU A sending 256-byte commands to B on four VCs, each VC its own queue at the XPU (one VC that
 * waits holds no other); after {@value #WARMUP} cycles B's goodput is measured for {@value #WINDOW} cycles, then port 1's
 * link goes down for good at both ends.
 *
 * <ul>
 * <li>{@code failover_goodput_<P>}: B's goodput from {@value #SETTLED} to {@value #SETTLED} + {@value #WINDOW} cycles
 * after the failure, relative to (P - 1) / P of the goodput before it (strict mode: the VCs pinned to port 1 are
 * carried by port 2 mod P).
 * <li>{@code failover_cycles_<P>}: from the failure to the first PDU of port 1's connections that B's transport
 * accepts in order from another port.
 * <li>{@code failover_settle_cycles_<P>}: from the failure to the first {@value #STEP}-cycle step from which on every
 * step's goodput is within 5% of the settled goodput.
 * </ul>
 * The same in unordered mode (docs/protocol.md 10.7): {@code failover_goodput_unordered_<P>} and so on.
 *
 * <p>One {port, XPU} way broken while the port stays up (docs/protocol.md 10.8): the same traffic, but A's frames
 * into port 1's link vanish (MAC Control frames cross) and its link stays up; instances without LLR and flow
 * control, whose credits would leak into the hole on a direct link.
 * <ul>
 * <li>{@code pair_detour_cycles_<P>}: from the hole to the first PDU of A's connection {1, B} that B's transport
 * accepts in order from another port (two retransmit timeouts, {@code pair_detour_detect_cycles}, and the go-back).
 * <li>{@code pair_detour_goodput_<P>}: B's goodput from {@value #SETTLED} to {@value #SETTLED} + {@value #WINDOW}
 * cycles after the detour, relative to (P - 1) / P of the goodput before the hole.
 * </ul>
 * The failure is seen when LLR's PCS-lost timeout passes ({@code failover_detect_cycles}); the first moved command
 * also waits for what the dead link lost to be resent. Every command must still arrive once (and in strict mode in
 * order).
 */
final class FailoverBench {
    private FailoverBench() {
    }

    static final int WARMUP = 4000;
    static final int WINDOW = 6000;
    static final int SETTLED = 8000;
    static final int STEP = 250;
    static final int COMMANDS = 16000;

    static void measure(BiConsumer<String, Double> put) {
        for (SueInstance.Config.Ordering ordering : SueInstance.Config.Ordering.values()) {
            for (int ports : new int[] {2, 4}) {
                measure(put, ordering, ports);
            }
        }
        for (int ports : new int[] {2, 4}) {
            blackHole(put, ports);
        }
    }

    private static void blackHole(BiConsumer<String, Double> put, int ports) {
        long t0 = System.nanoTime();
        SueInstance.Config config = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, PortsBench.WIDTH,
                PortsBench.WIDTH, PortsBench.DELAY).withLlr(null).withCbfc(null).withRxVcFifoDepth(0);
        Loaded l = loaded(config);
        TwoXpuRun run = l.run();
        XpuSide a = run.side("A");
        XpuSide b = run.side("B");
        AtomicLong firstMovedAt = l.firstMovedAt();
        double healthy = l.healthy();
        a.toPeer(1).blackHole(true);
        long hole = b.sim().cycle();
        int detect = TransportTx.STUCK_STRIKES * config.transport().rtoCycles();
        while (firstMovedAt.get() < 0 && b.sim().cycle() - hole < 4L * detect) {
            run.idle(STEP);
        }
        run.idle(SETTLED);
        long at = bytes(b);
        run.idle(WINDOW);
        double settled = (double) (bytes(b) - at) / WINDOW;
        long detoured = a.counter("route_detoured_pdus");
        a.toPeer(1).blackHole(false);
        TwoXpuRun.Result r = run.run(0, 0, 2_000_000, null);
        if (!r.ok()) {
            throw new IllegalStateException("black-hole run (" + ports + " ports) lost or reordered commands: " + r);
        }
        long moved = firstMovedAt.get() < 0 ? -1 : firstMovedAt.get() - hole;
        double ideal = healthy * (ports - 1) / ports;
        put.accept("pair_detour_cycles_" + ports, (double) moved);
        put.accept("pair_detour_goodput_" + ports, Bench.round(settled / ideal, 3));
        put.accept("pair_detour_detect_cycles", (double) detect);
        System.out.printf("pair detour: %d ports, A's way to B through port 1 broken: %.1f command bytes/cycle"
                + " before, %.1f after the detour (%.3f of (P-1)/P); first detoured PDU accepted %d cycles after the"
                + " hole (two timeouts: %d); %d PDUs detoured (%.0f s)%n", ports, healthy, settled, settled / ideal,
                moved, detect, detoured, (System.nanoTime() - t0) / 1e9);
    }

    /** Two instances under saturating traffic, {@link #WARMUP} + {@link #WINDOW} cycles on, and B's goodput then. */
    private record Loaded(TwoXpuRun run, AtomicLong firstMovedAt, double healthy) {
    }

    private static Loaded loaded(SueInstance.Config config) {
        TwoXpuRun run = new TwoXpuRun(config, PortsBench.DELAY, LinkModel.Faults.NONE, 1, null)
                .txValidPercent(100).macReadyPercent(100).rxReturnPercent(100);
        XpuSide a = run.side("A");
        XpuSide b = run.side("B");
        AtomicLong firstMovedAt = firstMoved(b);
        a.tx().independentVcs(true);
        run.add(COMMANDS, 0, TwoXpuRun.fixed(PortsBench.BYTES, 4));
        run.idle(WARMUP);
        long before = bytes(b);
        run.idle(WINDOW);
        double healthy = (double) (bytes(b) - before) / WINDOW;
        return new Loaded(run, firstMovedAt, healthy);
    }

    /** The cycle B's transport first accepts a PDU of a connection of port 1 that came in on another port (-1). */
    private static AtomicLong firstMoved(XpuSide b) {
        AtomicLong at = new AtomicLong(-1);
        new StreamMonitor(b.sim(), "transport_rx.m_axis", null).onPacket(pdu -> {
            SueMeta meta = SueMeta.unpack(pdu.user());
            if (meta.port() == 1 && meta.link() != 1) {
                at.compareAndSet(-1, pdu.cycle());
            }
        });
        return at;
    }

    private static void measure(BiConsumer<String, Double> put, SueInstance.Config.Ordering ordering, int ports) {
        long t0 = System.nanoTime();
        SueInstance.Config config = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, PortsBench.WIDTH,
                PortsBench.WIDTH, PortsBench.DELAY).withOrdering(ordering);
        String tag = ordering == SueInstance.Config.Ordering.UNORDERED ? "unordered_" : "";
        Loaded l = loaded(config);
        TwoXpuRun run = l.run();
        XpuSide a = run.side("A");
        XpuSide b = run.side("B");
        AtomicLong firstMovedAt = l.firstMovedAt();
        double healthy = l.healthy();
        a.linkUp(1, false);
        b.linkUp(1, false);
        long failed = b.sim().cycle();
        double[] steps = new double[(SETTLED + WINDOW) / STEP];
        long[] perVc = new long[4];
        for (int i = 0; i < steps.length; i++) {
            long at = bytes(b);
            if (i == SETTLED / STEP) {
                perVc = bytesPerVc(b);
            }
            run.idle(STEP);
            steps[i] = (double) (bytes(b) - at) / STEP;
        }
        long[] perVcAfter = bytesPerVc(b);
        StringBuilder vcs = new StringBuilder();
        for (int v = 0; v < 4; v++) {
            vcs.append(v == 0 ? "" : ", ").append(String.format("VC %d (port %d) %.1f", v,
                    SueInstance.pinnedPort(b.xpu(), v, config.path().destinations(), ports),
                    (double) (perVcAfter[v] - perVc[v]) / WINDOW));
        }
        long firstMoved = firstMovedAt.get() < 0 ? -1 : firstMovedAt.get() - failed;
        double settled = 0;
        for (int i = SETTLED / STEP; i < steps.length; i++) {
            settled += steps[i] / (steps.length - SETTLED / STEP);
        }
        int settle = steps.length;
        while (settle > 0 && Math.abs(steps[settle - 1] - settled) <= 0.05 * settled) {
            settle--;
        }
        TwoXpuRun.Result r = run.run(0, 0, 2_000_000, null);
        if (!r.ok()) {
            throw new IllegalStateException("failover run (" + ports + " ports) lost or reordered commands: " + r);
        }
        double ideal = healthy * (ports - 1) / ports;
        put.accept("failover_goodput_" + tag + ports, Bench.round(settled / ideal, 3));
        put.accept("failover_cycles_" + tag + ports, (double) firstMoved);
        put.accept("failover_settle_cycles_" + tag + ports, (double) settle * STEP);
        put.accept("failover_detect_cycles", (double) config.llr().pcsLostTimeoutCycles());
        System.out.printf("failover (%s): %d ports, port 1 down for good: %.1f command bytes/cycle before, %.1f after"
                + " (%.3f of (P-1)/P); first moved command %d cycles after the failure (LLR detects in %d),"
                + " settled within 5%% after %d; %s; settled per VC: %s (%.0f s)%n", ordering, ports, healthy,
                settled,
                settled / ideal, firstMoved, config.llr().pcsLostTimeoutCycles(), settle * STEP,
                a.counter("route_detoured_pdus") + " PDUs detoured", vcs, (System.nanoTime() - t0) / 1e9);
    }

    /** Command bytes B's XPU has received on each VC. */
    private static long[] bytesPerVc(XpuSide b) {
        long[] n = new long[4];
        for (CommandReceiver.Delivered d : b.rx().delivered()) {
            n[d.vc()] += d.command().control().length + d.command().data().length;
        }
        return n;
    }

    /** Command bytes B's XPU has received. */
    private static long bytes(XpuSide b) {
        long n = 0;
        for (CommandReceiver.Delivered d : b.rx().delivered()) {
            n += d.command().control().length + d.command().data().length;
        }
        return n;
    }
}
