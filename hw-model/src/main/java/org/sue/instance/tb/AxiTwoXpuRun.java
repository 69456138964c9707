package org.sue.instance.tb;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongConsumer;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;
import org.sue.axi.AxiConfig;
import org.sue.axi.AxiRemoteMaster;
import org.sue.axi.tb.AxiMemorySlave;
import org.sue.axi.tb.AxiWriteReadRun;
import org.sue.core.Design;
import org.sue.core.ResetStyle;
import org.sue.instance.SueAxiInstance;
import org.sue.net.SueMeta;
import org.sue.net.tb.PcapWriter;
import org.sue.sim.Simulator;

/**
 * SoC A - SUE A (AXI4) - link - SUE B (AXI4) - SoC B in the JVM simulator. Each SoC's master writes random bursts
 * (every burst type, narrow, unaligned, partial strobes; some illegal, some to unconfigured XPUs) into the other
 * XPU's memory, each burst to a page of its own, then reads them all back ({@link AxiWriteReadRun}); each SoC's
 * memory answers the remote XPU's requests with random ready and latency ({@link AxiMemorySlave}); the sides'
 * networks are {@link XpuSide}s over {@link LinkModel}s. Checked as it runs: every B and every R beat as the byte
 * model says, in order per ID; at the end of the writes the far memory holds exactly the bytes written; at the end
 * every credit is back, the retransmit stores are empty and the framing counters agree with what the links did.
 */
public final class AxiTwoXpuRun {
    public static final int XPU_A = 1;
    public static final int XPU_B = 2;

    /** One SoC's side: what its master saw, and what its instance counted. */
    public record Side(AxiWriteReadRun.Stats stats, long retransmitted, long timeouts, long framesSent, long lost,
                       long damaged) {
    }

    public record Result(Side a, Side b, long cycles, boolean creditsBack, boolean storesEmpty,
                         String countersMismatch) {
        public boolean ok() {
            return creditsBack && storesEmpty && countersMismatch == null;
        }
    }

    private final SueAxiInstance.Config config;
    private final XpuSide a;
    private final XpuSide b;
    /** Per pair: each side's memory (on its master) and SoC master (on its slave). */
    private final List<AxiMemorySlave> memoriesA = new ArrayList<>();
    private final List<AxiMemorySlave> memoriesB = new ArrayList<>();
    private final List<AxiWriteReadRun> socsA = new ArrayList<>();
    private final List<AxiWriteReadRun> socsB = new ArrayList<>();
    /** Each side's random numbers (its SoC's and its memory's): on threads of their own they must not share any. */
    private final Random rndA;
    private final Random rndB;
    private final PcapWriter pcap;
    private final SideClock clock;
    /** The cycle A was at when the sides were joined (their header tables written at the next edge). */
    private final long start;
    private boolean setUp;
    /** The windows B is frozen in: {first cycle of A's, cycles}. */
    private final List<long[]> freezes = new ArrayList<>();

    /**
     * What the SoCs do: {@code requests} bursts each way (random ones, or INCR bursts of {@code burstBytes} in full
     * beats), their masters offering a beat and taking an answer {@code validPercent} of the cycles, their memories
     * ready {@code memoryReadyPercent} of the cycles and answering within {@code memoryLatency} cycles.
     */
    public record Traffic(int requests, boolean bothWays, int burstBytes, int validPercent, int memoryReadyPercent,
                          int memoryLatency, int pauseBeforeReads) {
        /** Random bursts both ways, random gaps everywhere (memories answering within 20 cycles). */
        public static Traffic random(int requests, int validPercent) {
            return new Traffic(requests, true, 0, validPercent, validPercent, 20, 0);
        }

        /** From A only, bursts of {@code bytes} as fast as everything goes: no gaps, B's memory answering at once. */
        public static Traffic saturating(int requests, int bytes) {
            return new Traffic(requests, false, bytes, 100, 100, 0, 0);
        }

        /** From A only, one write of {@code bytes}, then {@code pause} idle cycles, then its read (a latency). */
        public static Traffic oneReadIdle(int bytes, int pause) {
            return new Traffic(1, false, bytes, 100, 100, 0, pause);
        }
    }

    /**
     * @param config   both instances' configuration
     * @param delay    cycles a frame spends on the link each way
     * @param faults   what each direction of the link does to frames (independently seeded)
     * @param traffic  what each SoC writes and then reads, and how its memory answers
     * @param pcapFile both directions' frames, or null
     */
    public AxiTwoXpuRun(SueAxiInstance.Config config, int delay, LinkModel.Faults faults, long seed, Traffic traffic,
                        Path pcapFile) {
        this(config, outOfReset(config), outOfReset(config), delay, faults, seed, traffic, pcapFile);
        step();
        while (!(a.endSetUp() & b.endSetUp())) {
            step();
        }
        setUp = true;
        macReadyPercent(TwoXpuRun.MAC_READY_PERCENT);
    }

    /** Whether the sides run side by side on threads of their own ({@link SideClock}). */
    public boolean parallel() {
        return clock.parallel();
    }

    /** Each MAC takes a beat {@code percent} of the cycles at random (100: a MAC that never stalls). */
    public AxiTwoXpuRun macReadyPercent(int percent) {
        a.macReadyPercent(percent, a.sim().cycle() + 5);
        b.macReadyPercent(percent, b.sim().cycle() + 6);
        return this;
    }

    /**
     * A run whose side A is {@code recorded}, a simulator someone else steps (a golden recording) after
     * {@link #driveRecorded}; B is compiled here with {@code reset}, held in reset as long as A has been.
     */
    public static AxiTwoXpuRun recording(SueAxiInstance.Config config, Simulator recorded, ResetStyle reset, int delay,
                                         LinkModel.Faults faults, long seed, Traffic traffic) {
        Simulator peer = compiled(config, reset);
        peer.setReset(true);
        peer.step(recorded.cycle());
        peer.setReset(false);
        return new AxiTwoXpuRun(config, recorded, peer, delay, faults, seed, traffic, null);
    }

    private static Simulator outOfReset(SueAxiInstance.Config config) {
        Simulator sim = compiled(config, ResetStyle.SYNC_HIGH);
        sim.reset();
        return sim;
    }

    private static Simulator compiled(SueAxiInstance.Config config, ResetStyle reset) {
        return Simulator.compile(Design.elaborate(new SueAxiInstance(config), reset));
    }

    private AxiTwoXpuRun(SueAxiInstance.Config config, Simulator simA, Simulator simB, int delay,
                         LinkModel.Faults faults, long seed, Traffic t, Path pcapFile) {
        this.config = config;
        rndA = new Random(seed);
        rndB = new Random(seed + 9);
        pcap = pcapFile == null ? null : PcapWriter.of(pcapFile, config.sue().net().format());
        PcapOrder order = pcap == null ? null : new PcapOrder(pcap);
        a = new XpuSide("A", XPU_A, config.sue(), simA, TwoXpuRun.links(config.sue(), delay, faults, seed + 1), rndA,
                order == null ? null : order.a, false);
        b = new XpuSide("B", XPU_B, config.sue(), simB, TwoXpuRun.links(config.sue(), delay, faults, seed + 2), rndB,
                order == null ? null : order.b, false);
        a.connect(b);
        b.connect(a);
        start = simA.cycle();
        AxiConfig axi = config.bridge().axi();
        int masterIds = new AxiRemoteMaster.Config(axi, config.bridge().remapEntries(),
                config.bridge().maxPartsPerEntry()).masterIdWidth();
        for (int p = 0; p < config.bridge().pairs(); p++) { // pair p's requests reach the far side's pair p
            String s = config.bridge().prefix("s", p);
            String m = config.bridge().prefix("m", p);
            AxiMemorySlave memoryA = new AxiMemorySlave(simA, axi, m, masterIds, t.memoryReadyPercent(),
                    t.memoryLatency(), true, 0);
            AxiMemorySlave memoryB = new AxiMemorySlave(simB, axi, m, masterIds, t.memoryReadyPercent(),
                    t.memoryLatency(), true, 0);
            memoriesA.add(memoryA);
            memoriesB.add(memoryB);
            socsA.add(new AxiWriteReadRun(simA, axi, s, memoryB, false, new int[] {XPU_B}, t.requests(),
                    t.burstBytes(), seed + 3 + 2 * p, t.validPercent(), t.validPercent())
                    .pauseBeforeReads(t.pauseBeforeReads()));
            socsB.add(new AxiWriteReadRun(simB, axi, s, memoryA, false, new int[] {XPU_A},
                    t.bothWays() ? t.requests() : 0, t.burstBytes(), seed + 4 + 2 * p, t.validPercent(),
                    t.validPercent()));
        }
        clock = new SideClock(List.of(new SideClock.Side(now -> drive(a, socsA, memoriesA, rndA, now), simA::step),
                new SideClock.Side(now -> drive(b, socsB, memoriesB, rndB, now), simB::step)), simA::cycle, delay, true);
        if (order != null) {
            clock.onWindowEnd(order::write);
        }
    }

    /**
     * For a recording: every input of both designs for the cycle now (the header tables written at the first call,
     * traffic from the second), then B's clock edge; the recorder steps A.
     */
    public void driveRecorded() {
        if (!setUp) {
            setUp = a.sim().cycle() > start && a.endSetUp() & b.endSetUp();
        }
        if (setUp) {
            long now = a.sim().cycle();
            drive(a, socsA, memoriesA, rndA, now);
            drive(b, socsB, memoriesB, rndB, now);
        }
        b.sim().step();
    }

    private void step() {
        a.sim().step();
        b.sim().step();
    }

    /** As many cycles as the link's delay lets the sides run apart ({@link SideClock}). */
    private void window() {
        clock.run(clock.window());
    }

    /**
     * B's network stops for {@code cycles} from {@code after} cycles on (its MAC takes nothing, what reaches it is
     * lost; see {@link XpuSide#frozen}; its SoC goes on): A's transport may give up on B, so the SoCs may see SLVERR
     * where OKAY was due ({@link AxiWriteReadRun#givingUpAllowed}). Called again, another window.
     */
    public AxiTwoXpuRun freezeB(long after, long cycles) {
        freezes.add(new long[] {a.sim().cycle() + after, cycles});
        socs().forEach(AxiWriteReadRun::givingUpAllowed);
        return this;
    }

    /**
     * Every input of one side's design for the cycle now (its SoC's masters, its memories, its network; B's frozen
     * or not), and what moves at the coming edge checked.
     */
    private void drive(XpuSide side, List<AxiWriteReadRun> socs, List<AxiMemorySlave> memories, Random rnd,
                       long now) {
        if (side == b && !freezes.isEmpty()) {
            b.frozen(freezes.stream().anyMatch(f -> now >= f[0] && now < f[0] + f[1]));
        }
        socs.forEach(r -> r.drive(rnd));
        memories.forEach(m -> m.drive(rnd));
        side.drive(now);
        socs.forEach(r -> r.taken(rnd));
        memories.forEach(m -> m.taken(rnd));
    }

    /**
     * Runs until both SoCs' writes and reads are answered and the instances have settled; {@code progress} (or null)
     * hears the cycle now and then. Throws with both sides' state when nothing is answered for {@code stallCycles}.
     */
    public Result run(long stallCycles, LongConsumer progress) {
        long cycles = Settling.settle(a, b, this::window, () -> socs().stream().allMatch(AxiWriteReadRun::finished)
                && memories().stream().allMatch(AxiMemorySlave::idle)
                && a.nothingInFlightToPeer() && b.nothingInFlightToPeer()
                && a.counter("tp_tx_store_records") == 0 && b.counter("tp_tx_store_records") == 0,
                () -> answered(socsA) + answered(socsB), 3L * config.sue().transport().destinations() + 100,
                stallCycles, progress, () -> "AXI4 two-XPU run: nothing answered (A answered " + answered(socsA)
                        + ", B " + answered(socsB) + ")");
        String mismatch = Settling.countersAtQuiet(a, b, this::window, pcap);
        socs().forEach(r -> r.monitor().assertQuiet());
        memories().forEach(m -> m.monitor().assertQuiet());
        return new Result(side(socsA, a), side(socsB, b), cycles, creditsBack(a) && creditsBack(b),
                a.counter("tp_tx_store_used_beats") == 0 && b.counter("tp_tx_store_used_beats") == 0, mismatch);
    }

    private static long answered(List<AxiWriteReadRun> socs) {
        return socs.stream().mapToLong(r -> r.stats().writesAnswered() + r.stats().readsAnswered()).sum();
    }

    /** A side's figures: what its SoC's masters saw, all pairs together, and its instance's counts. */
    private static Side side(List<AxiWriteReadRun> socs, XpuSide x) {
        return new Side(AxiWriteReadRun.Stats.sum(socs.stream().map(AxiWriteReadRun::stats).toList()),
                x.counter("tp_tx_retransmitted_pdus"), x.counter("tp_tx_timeouts"), sum(x, LinkModel::sent),
                sum(x, LinkModel::lost), sum(x, LinkModel::damaged));
    }

    /** A figure of every port's link from {@code x}, summed. */
    private static long sum(XpuSide x, ToLongFunction<LinkModel> figure) {
        return IntStream.range(0, x.portCount()).mapToLong(p -> figure.applyAsLong(x.toPeer(p))).sum();
    }

    private List<AxiMemorySlave> memories() {
        List<AxiMemorySlave> all = new ArrayList<>(memoriesA);
        all.addAll(memoriesB);
        return all;
    }

    /** The bridge's transmit credits, per VC, all back: SUE's command path holds no command of this XPU. */
    private boolean creditsBack(XpuSide x) {
        for (int v = 0; v < SueMeta.VCS; v++) {
            String tx = config.bridgePath() + "tx.";
            if (x.sim().peek(tx + "cmd_credits_" + v) != config.sue().path().cmdCredits()
                    || x.sim().peek(tx + "data_credits_" + v) != config.sue().path().dataCredits()) {
                return false;
            }
        }
        return true;
    }

    /** Both sides driven for {@code cycles}, the SoCs' traffic going on, without waiting for anything. */
    public void cycles(long cycles) {
        clock.idle(cycles);
    }

    /**
     * Takes port {@code port}'s link between the sides down ({@code false}) or back up: both directions lose what is
     * sent meanwhile, and both instances' {@code link_up} follows ({@link XpuSide#linkUp}).
     */
    public AxiTwoXpuRun portUp(int port, boolean up) {
        a.linkUp(port, up);
        b.linkUp(port, up);
        return this;
    }

    /** Side "A" or "B": its network knobs and counters. */
    public XpuSide side(String side) {
        return switch (side) {
            case "A" -> a;
            case "B" -> b;
            default -> throw new IllegalArgumentException("side must be A or B, got '" + side + "'");
        };
    }

    /** The SoC masters' runs, A's pairs then B's. */
    public List<AxiWriteReadRun> socs() {
        List<AxiWriteReadRun> all = new ArrayList<>(socsA);
        all.addAll(socsB);
        return all;
    }
}
