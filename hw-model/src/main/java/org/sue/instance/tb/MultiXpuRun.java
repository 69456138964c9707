package org.sue.instance.tb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongConsumer;
import org.sue.cmd.tb.CommandReceiver;
import org.sue.core.Design;
import org.sue.instance.SueInstance;
import org.sue.sim.Simulator;

/**
 * N XPUs, each with its SUE instance, joined by a {@link SwitchModel} in the JVM simulator: XPU k (k = 1..N) on switch
 * port k - 1 over a link of its own each way ({@link Link}: delay, faults). Instances of 2 or 4 ports have a
 * switch per port, a plane: port p of every XPU on plane p, each over links of its own. Each XPU sends the commands
 * queued to it ({@link #add}) to any other; {@link #run} goes on until every command is delivered, every credit is
 * back, every retransmit store and the switches are empty, and checks per {source, destination, VC} that each
 * command arrived once, unchanged and in order. Faults on top of the links': each {@link XpuSide}'s knobs
 * ({@link #side}), a port that drops everything ({@link #dropAll}), an XPU frozen ({@link #freeze}), a link down
 * ({@link #linkUp}).
 */
public final class MultiXpuRun {
    /** One port's links, the same each way: cycles a frame spends on it and what it does to frames. */
    public record Link(int delay, LinkModel.Faults faults) {
    }

    /** What one {source, destination} pair did. */
    public record Flow(int src, int dst, int commands, int delivered, int lost, long bytes, long[] latencies,
                       long[] deliveries) {
        /** Latency percentile in cycles (first beat in at the sender to first beat out at the receiver). */
        public long latency(double p) {
            return latencies.length == 0 ? -1
                    : latencies[(int) Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
        }

        /** Command bytes delivered per cycle from the first delivery to the last. */
        public double bytesPerCycle() {
            return deliveries.length < 2 ? 0 : (double) bytes / (deliveries[deliveries.length - 1] - deliveries[0]);
        }

        @Override
        public String toString() {
            return String.format("%d -> %d: %d of %d delivered (%d lost to receive resets), %.2f bytes/cycle, latency"
                    + " p50 %d p99 %d", src, dst, delivered, commands, lost, bytesPerCycle(), latency(0.5),
                    latency(0.99));
        }
    }

    /**
     * A run's outcome: the flows, the cycles it took; {@code violation} the first stream not delivered once and in
     * order (null if none); credits all back, retransmit stores empty, and the first instance whose receive counters
     * disagree with its link (null if none).
     */
    public record Result(List<Flow> flows, long cycles, String violation, boolean creditsBack, boolean storesEmpty,
                         String countersMismatch) {
        public boolean ok() {
            return violation == null && creditsBack && storesEmpty && countersMismatch == null;
        }

        /** One line per flow with traffic. */
        public String summary() {
            StringBuilder b = new StringBuilder(cycles + " cycles" + (ok() ? "" : ", NOT OK: " + violation + " "
                    + countersMismatch + (creditsBack ? "" : " credits missing")
                    + (storesEmpty ? "" : " stores busy")));
            flows.stream().filter(f -> f.commands() > 0).forEach(f -> b.append("\n  ").append(f));
            return b.toString();
        }
    }

    /** How far apart the link seeds of two planes are. */
    private static final long PLANE_SEEDS = 1_000_003L;

    private final SueInstance.Config config;
    private final List<XpuSide> sides = new ArrayList<>();
    /** The switch of each port: plane p joins port p of every XPU. */
    private final List<SwitchModel> planes = new ArrayList<>();
    private final SideClock clock;

    /** {@code xpus} XPUs, every port's links {@code delay} cycles each way with {@code faults} (seeded each). */
    public MultiXpuRun(SueInstance.Config config, int xpus, int delay, LinkModel.Faults faults, int fabricDelay,
                       long seed) {
        this(config, java.util.Collections.nCopies(xpus, new Link(delay, faults)), fabricDelay, 0, seed);
    }

    /**
     * @param config      the instance configuration of every XPU; neither CBFC nor PFC (the switch has no link flow
     *                    control), as many destinations as XPUs + 1 at least (XPU ids are 1..N)
     * @param links       per switch port (XPU k on port k - 1) its links, the same on every plane
     * @param fabricDelay cycles across a switch
     * @param queueBytes  each switch output queue's size, 0 for no limit
     * @param seed        seeds commands, credits and the links (each link its own)
     */
    public MultiXpuRun(SueInstance.Config config, List<Link> links, int fabricDelay, long queueBytes, long seed) {
        if (config.cbfc() != null || config.pfc() != null) {
            throw new IllegalArgumentException("MultiXpuRun: the switch has no link flow control, so config.cbfc and"
                    + " config.pfc must be null");
        }
        if (links.size() < 2 || links.size() >= config.path().destinations()) {
            throw new IllegalArgumentException("MultiXpuRun links: one per XPU, 2 .. " + (config.path().destinations()
                    - 1) + " (XPU ids 1..N below config.path.destinations), got " + links.size());
        }
        this.config = config;
        for (int p = 0; p < config.ports(); p++) {
            planes.add(new SwitchModel(config.net(), config.llr(), config.portWidth(), fabricDelay, queueBytes));
        }
        Design design = Design.elaborate(new SueInstance(config));
        List<List<LinkModel>> fromSwitch = new ArrayList<>();
        for (int k = 1; k <= links.size(); k++) {
            Link l = links.get(k - 1);
            long address = SwitchModel.address(config.net(), XpuSide.identity(k, config.net()));
            List<LinkModel> in = new ArrayList<>();
            List<LinkModel> out = new ArrayList<>();
            for (int p = 0; p < config.ports(); p++) { // port 0 keeps the seeds of one port
                long s = seed + 2L * k + PLANE_SEEDS * p;
                in.add(new LinkModel(l.delay(), l.faults(), new Random(s - 1)));
                out.add(new LinkModel(l.delay(), l.faults(), new Random(s)));
                planes.get(p).attach(address, in.get(p), out.get(p));
            }
            Simulator sim = Simulator.compile(design);
            sim.reset();
            // each side its own random numbers: on threads of their own they must not share any
            sides.add(new XpuSide("XPU " + k, k, config, sim, in, new Random(seed * 31 + k), null));
            fromSwitch.add(out);
        }
        for (int i = 0; i < sides.size(); i++) {
            List<XpuSide> others = new ArrayList<>(sides);
            others.remove(i);
            sides.get(i).connect(others, fromSwitch.get(i));
        }
        boolean written = false;
        while (!written) {
            step();
            written = true;
            for (XpuSide s : sides) {
                written &= s.endSetUp();
            }
        }
        while (sides.stream().anyMatch(XpuSide::inReset)) {
            step();
        }
        List<SideClock.Side> clocked = new ArrayList<>(sides.stream().map(SideClock.Side::of).toList());
        planes.forEach(plane -> clocked.add(new SideClock.Side(plane::drive, plane::step)));
        clock = new SideClock(clocked, this::now, links.stream().mapToInt(Link::delay).min().orElse(0), true);
    }

    /** Whether the XPUs run side by side on threads of their own ({@link SideClock}). */
    public boolean parallel() {
        return clock.parallel();
    }

    /** XPU {@code xpu} (1..N), for its knobs and counters. */
    public XpuSide side(int xpu) {
        if (xpu < 1 || xpu > sides.size()) {
            throw new IllegalArgumentException("MultiXpuRun xpu must be 1.." + sides.size() + ", got " + xpu);
        }
        return sides.get(xpu - 1);
    }

    public int xpus() {
        return sides.size();
    }

    /** The switch of port 0 (of the only port). */
    public SwitchModel fabric() {
        return plane(0);
    }

    /** The switch that joins port {@code port} of every XPU. */
    public SwitchModel plane(int port) {
        if (port < 0 || port >= planes.size()) {
            throw new IllegalArgumentException("MultiXpuRun port must be 0.." + (planes.size() - 1) + ", got " + port);
        }
        return planes.get(port);
    }

    /** Queues {@code commands} commands from {@code mix} at XPU {@code src} for XPU {@code dst}. */
    public MultiXpuRun add(int src, int dst, int commands, TwoXpuRun.Mix mix) {
        if (src == dst) {
            throw new IllegalArgumentException("MultiXpuRun.add: src and dst are both " + src);
        }
        side(dst);
        side(src).add(dst, commands, mix);
        return this;
    }

    /** Queues at XPU {@code src} {@code commands} commands for each of {@code dsts}, the destinations taking turns. */
    public MultiXpuRun addRoundRobin(int src, int[] dsts, int commands, TwoXpuRun.Mix mix) {
        for (int i = 0; i < commands; i++) {
            for (int d : dsts) {
                add(src, d, 1, mix);
            }
        }
        return this;
    }

    /** Every XPU queues {@code commands} commands for each other XPU, the destinations taking turns. */
    public MultiXpuRun addAllToAll(int commands, TwoXpuRun.Mix mix) {
        for (int s = 1; s <= sides.size(); s++) {
            int src = s;
            addRoundRobin(src, java.util.stream.IntStream.rangeClosed(1, sides.size()).filter(d -> d != src).toArray(),
                    commands, mix);
        }
        return this;
    }

    /** Every XPU holds commands to a {destination, VC} between SUE's xoff and xon. */
    public MultiXpuRun honorXoff(boolean on) {
        sides.forEach(s -> s.honorXoff(on));
        return this;
    }

    public MultiXpuRun txValidPercent(int p) {
        sides.forEach(s -> s.txValidPercent(p));
        return this;
    }

    public MultiXpuRun rxReturnPercent(int p) {
        sides.forEach(s -> s.rxReturnPercent(p));
        return this;
    }

    /** XPU {@code xpu} frozen ({@link XpuSide#frozen}) or going on. */
    public MultiXpuRun freeze(int xpu, boolean on) {
        side(xpu).frozen(on);
        return this;
    }

    /**
     * The switch ports of XPU {@code xpu}, on every plane, drop everything to and from it
     * ({@link SwitchModel#dropAll}), or not.
     */
    public MultiXpuRun dropAll(int xpu, boolean on) {
        side(xpu);
        planes.forEach(plane -> plane.dropAll(xpu - 1, on));
        return this;
    }

    /** XPU {@code xpu}'s links to the switches down ({@code false}) or up: both ways, both ends' {@code link_up}. */
    public MultiXpuRun linkUp(int xpu, boolean up) {
        side(xpu).linkUp(up);
        planes.forEach(plane -> plane.linkUp(xpu - 1, up));
        return this;
    }

    private void step() {
        for (XpuSide s : sides) {
            s.sim().step();
        }
        planes.forEach(SwitchModel::step);
    }

    /** The cycle now, as every instance counts it. */
    public long now() {
        return sides.get(0).sim().cycle();
    }

    /** Everything driven, nothing new queued, for {@code cycles}. */
    public void idle(long cycles) {
        clock.idle(cycles);
    }

    /** Every command queued so far delivered (but what receive resets cut), every credit back, nothing in flight. */
    private boolean settled() {
        for (XpuSide s : sides) {
            if (!s.tx().idle() || s.tx().inReset() || s.rx().held() != 0 || !s.tx().creditsBack()
                    || !s.nothingInFlightToPeer() || s.counter("tp_tx_store_records") != 0) {
                return false;
            }
        }
        if (!planes.stream().allMatch(SwitchModel::noDataInFlight)) {
            return false;
        }
        for (XpuSide to : sides) {
            for (XpuSide from : sides) {
                if (from != to && !to.deliveredAllFrom(from)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Runs until everything queued is delivered and settled; {@code progress} (or null) hears the cycle now and then.
     * Throws with every side's state when no command is delivered for {@code stallCycles}.
     */
    public Result run(long stallCycles, LongConsumer progress) {
        long start = now();
        long lastProgress = start;
        long deliveredBefore = 0;
        long quiet = 0;
        while (quiet < 3 * config.transport().destinations() + 100) {
            long before = now();
            long now = clock.run(clock.window());
            long delivered = sides.stream().mapToLong(s -> s.rx().delivered().size()).sum();
            if (delivered != deliveredBefore) {
                deliveredBefore = delivered;
                lastProgress = now;
            }
            boolean settled = settled();
            quiet = settled ? quiet + now() - before : 0;
            if (!settled && now - lastProgress > stallCycles) {
                StringBuilder b = new StringBuilder("multi-XPU run: nothing delivered for " + stallCycles
                        + " cycles at cycle " + now);
                sides.forEach(s -> b.append("\n  ").append(s.state()));
                throw new IllegalStateException(b.toString());
            }
            if (progress != null && before / 65536 != now() / 65536) {
                progress.accept(now() - start);
            }
        }
        long cycles = now() - start;
        while (now() - start - cycles < 100_000 && !sides.stream().allMatch(XpuSide::linkQuiet)) {
            clock.run(clock.window());
        }
        return result(cycles);
    }

    private Result result(long cycles) {
        List<Flow> flows = new ArrayList<>();
        String violation = null;
        for (XpuSide from : sides) {
            for (XpuSide to : sides) {
                if (from != to) {
                    flows.add(flow(from, to));
                    String v = to.intactFrom(from, true);
                    violation = violation == null ? v : violation;
                }
            }
        }
        for (XpuSide to : sides) {
            for (CommandReceiver.Delivered d : to.rx().delivered()) {
                if (d.src() < 1 || d.src() > sides.size() || d.src() == to.xpu()) {
                    violation = violation == null ? to.name() + " received a command from XPU " + d.src() : violation;
                }
            }
        }
        boolean credits = sides.stream().allMatch(s -> s.tx().creditsBack() && s.rx().creditsBack());
        boolean stores = sides.stream().allMatch(s -> s.counter("tp_tx_store_used_beats") == 0);
        String mismatch = sides.stream().map(XpuSide::countersAgreeWithLink).filter(m -> m != null).findFirst()
                .orElse(null);
        return new Result(flows, cycles, violation, credits, stores, mismatch);
    }

    /** What {@code from} sent {@code to} and how it went. */
    private static Flow flow(XpuSide from, XpuSide to) {
        long[][] ld = latenciesAndDeliveries(from, to);
        int commands = from.sentTo(to.xpu()).values().stream().mapToInt(List::size).sum();
        long bytes = 0;
        for (CommandReceiver.Delivered d : to.rx().delivered()) {
            bytes += d.src() == from.xpu() ? d.command().control().length + d.command().data().length : 0;
        }
        return new Flow(from.xpu(), to.xpu(), commands, ld[1].length, to.lostFrom(from), bytes, ld[0], ld[1]);
    }

    /**
     * Of the commands {@code from} sent {@code to}: the latencies, sorted, and the delivery cycles, in order. Per VC
     * the i-th delivered command is the i-th sent (so the latencies are those of a run without receive-reset cuts).
     */
    static long[][] latenciesAndDeliveries(XpuSide from, XpuSide to) {
        Map<Long, List<Long>> startsPerVc = new HashMap<>();
        for (long[] s : from.tx().starts()) {
            if (s[0] == to.xpu()) {
                startsPerVc.computeIfAbsent(s[1], k -> new ArrayList<>()).add(s[2]);
            }
        }
        List<CommandReceiver.Delivered> got = to.rx().delivered();
        List<Long> ends = to.rx().deliveryCycles();
        Map<Long, Integer> seen = new HashMap<>();
        List<Long> lat = new ArrayList<>();
        List<Long> at = new ArrayList<>();
        for (int i = 0; i < got.size(); i++) {
            if (got.get(i).src() != from.xpu()) {
                continue;
            }
            long vc = got.get(i).vc();
            int k = seen.merge(vc, 1, Integer::sum) - 1;
            List<Long> starts = startsPerVc.getOrDefault(vc, List.of());
            if (k < starts.size()) {
                lat.add(ends.get(i) - starts.get(k));
            }
            at.add(ends.get(i));
        }
        long[] l = lat.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(l);
        return new long[][] {l, at.stream().mapToLong(Long::longValue).toArray()};
    }

    /**
     * Command bytes (control and data) from XPU {@code src} delivered at XPU {@code dst} per cycle over the cycles
     * {@code from} (inclusive) to {@code to} (exclusive), by the cycle each command's first beat came out.
     */
    public double goodput(int src, int dst, long from, long to) {
        if (to <= from) {
            throw new IllegalArgumentException("MultiXpuRun.goodput: window " + from + ".." + to + " is empty");
        }
        XpuSide d = side(dst);
        side(src);
        List<CommandReceiver.Delivered> got = d.rx().delivered();
        List<Long> at = d.rx().deliveryCycles();
        long bytes = 0;
        for (int i = 0; i < got.size(); i++) {
            if (got.get(i).src() == src && at.get(i) >= from && at.get(i) < to) {
                bytes += got.get(i).command().control().length + got.get(i).command().data().length;
            }
        }
        return (double) bytes / (to - from);
    }

    /**
     * Command bytes from XPU {@code src} delivered per cycle, all destinations together, from the first delivery of
     * one of them to the last: what its port carried.
     */
    public double sourceBytesPerCycle(int src) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long bytes = 0;
        for (XpuSide d : sides) {
            List<CommandReceiver.Delivered> got = d.rx().delivered();
            for (int i = 0; i < got.size(); i++) {
                if (got.get(i).src() == src) {
                    long at = d.rx().deliveryCycles().get(i);
                    first = Math.min(first, at);
                    last = Math.max(last, at);
                    bytes += got.get(i).command().control().length + got.get(i).command().data().length;
                }
            }
        }
        return last > first ? (double) bytes / (last - first) : 0;
    }
}
