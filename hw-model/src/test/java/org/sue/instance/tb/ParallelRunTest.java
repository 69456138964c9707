package org.sue.instance.tb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sue.axi.tb.AxiWriteReadRun;
import org.sue.instance.SueAxiInstance;
import org.sue.instance.SueInstance;
import org.sue.net.HeaderFormat;
import org.sue.sim.Simulator;

/**
 * A two-XPU run whose sides run on threads of their own ({@link SideClock}) gives what the same run in lockstep gives,
 * bit for bit and cycle for cycle: every port of both instances in every cycle (a running hash each), every command
 * delivered, the run's figures and every output at the end. Over a faulty link with LLR and CBFC (frames and control
 * messages cross; a pcap file of both directions), a link without delay (a window of one cycle), a relay (a third
 * side), four XPUs behind a switch, and two AXI4 instances with their SoCs' masters and memories.
 */
class ParallelRunTest {
    /** What a run did, all of it compared. */
    private record Trace(List<Long> portHashes, String result, List<Object> delivered, List<Long> outputs,
                         boolean parallel) {
    }

    /** Both directions' frames in the pcap file too, in the same order. */
    @Test
    void aFaultyLinkWithLlrAndCbfc(@TempDir Path dir) throws IOException {
        int[] runs = {0};
        same(() -> new TwoXpuRun(SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP).withLlr(SmallInstance.llr(40)), 40,
                LinkModel.Faults.loss(0.02).withBitErrors(0.02), 21, dir.resolve("run" + runs[0]++ + ".pcap")), 250);
        byte[] lockstep = Files.readAllBytes(dir.resolve("run0.pcap"));
        assertTrue(lockstep.length > 50_000, "both directions' frames: " + lockstep.length + " bytes");
        assertArrayEquals(lockstep, Files.readAllBytes(dir.resolve("run1.pcap")), "the pcap file");
    }

    @Test
    void aLinkWithoutDelay() {
        same(() -> new TwoXpuRun(SmallInstance.config(HeaderFormat.ETH_IPV4_UDP), 0, LinkModel.Faults.loss(0.01), 22,
                null), 120);
    }

    @Test
    void throughARelay() {
        same(() -> TwoXpuRun.throughRelay(SmallInstance.withLlr(HeaderFormat.ETH_IPV4_UDP, 20), 20, 60,
                LinkModel.Faults.loss(0.02), 23), 150);
    }

    @Test
    void fourXpusBehindASwitch() {
        SueInstance.Config config = SmallInstance.withLlr(HeaderFormat.ETH_IPV4_UDP, 25);
        MultiRun lockstep = multi(config, 1);
        MultiRun threads = multi(config, 2);
        assertFalse(lockstep.parallel());
        assertTrue(threads.parallel());
        assertEquals(lockstep.summary(), threads.summary(), "every flow's figures");
        assertEquals(lockstep.outputs(), threads.outputs(), "every output of every XPU at the end");
        assertEquals(lockstep.portHashes(), threads.portHashes(), "every port of every XPU, every cycle");
    }

    /** The AXI4 instances' run: each SoC's master and memory on its side's thread. */
    @Test
    void axiInstancesWithTheirSocs() {
        SueAxiInstance.Config config = SmallInstance.axi(HeaderFormat.ETH_IPV4_UDP, 20, SmallInstance.axiPair());
        List<String> seen = new ArrayList<>();
        for (int threads : new int[] {1, 2}) {
            AxiTwoXpuRun run = SideClock.withThreads(threads, () -> new AxiTwoXpuRun(config, 20,
                    LinkModel.Faults.loss(0.01), 41, AxiTwoXpuRun.Traffic.random(40, 70), null));
            assertEquals(threads > 1, run.parallel());
            List<PortHash> hashes = List.of(PortHash.on(run.side("A").sim()), PortHash.on(run.side("B").sim()));
            AxiTwoXpuRun.Result r = run.run(100_000, null);
            assertTrue(r.ok(), r.toString());
            List<Object> figures = new ArrayList<>(List.of(r.cycles(), r.a().framesSent(), r.b().framesSent(),
                    r.a().lost(), r.b().lost(), r.a().retransmitted(), r.b().retransmitted()));
            for (AxiWriteReadRun.Stats st : List.of(r.a().stats(), r.b().stats())) {
                figures.addAll(List.of(Arrays.toString(st.writes), Arrays.toString(st.reads), st.bytesWritten,
                        st.bytesRead, Arrays.toString(st.span), st.writeLatencies, st.readLatencies));
            }
            seen.add(figures + " " + hashes.stream().map(h -> h.hash).toList() + " " + outputs(run.side("A").sim())
                    + outputs(run.side("B").sim()));
        }
        assertEquals(seen.get(0), seen.get(1), "the figures, every port every cycle, every output at the end");
    }

    private record MultiRun(String summary, List<Long> outputs, List<Long> portHashes, boolean parallel) {
    }

    private static MultiRun multi(SueInstance.Config config, int threads) {
        MultiXpuRun run = SideClock.withThreads(threads, () -> new MultiXpuRun(config, 4, 25,
                LinkModel.Faults.loss(0.02), 40, 31));
        List<PortHash> hashes = new ArrayList<>();
        for (int x = 1; x <= run.xpus(); x++) {
            hashes.add(PortHash.on(run.side(x).sim()));
            for (int to = 1; to <= run.xpus(); to++) {
                if (to != x) {
                    run.side(x).add(to, 40, TwoXpuRun.RANDOM);
                }
            }
        }
        MultiXpuRun.Result r = run.run(200_000, null);
        assertTrue(r.ok(), r.summary());
        List<Long> outputs = new ArrayList<>();
        for (int x = 1; x <= run.xpus(); x++) {
            outputs.addAll(outputs(run.side(x).sim()));
        }
        return new MultiRun(r.summary(), outputs, hashes.stream().map(h -> h.hash).toList(), run.parallel());
    }

    private static void same(Supplier<TwoXpuRun> make, int commands) {
        Trace lockstep = run(make, 1, commands);
        Trace threads = run(make, 2, commands);
        assertFalse(lockstep.parallel(), "one thread: lockstep");
        assertTrue(threads.parallel(), "two threads: side by side");
        assertEquals(lockstep.result(), threads.result(), "the run's figures");
        assertEquals(lockstep.delivered(), threads.delivered(), "every command delivered, in order");
        assertEquals(lockstep.outputs(), threads.outputs(), "every output at the end");
        assertEquals(lockstep.portHashes(), threads.portHashes(), "every port of both instances, every cycle");
    }

    private static Trace run(Supplier<TwoXpuRun> make, int threads, int commands) {
        TwoXpuRun run = SideClock.withThreads(threads, make);
        List<PortHash> hashes = List.of(PortHash.on(run.side("A").sim()), PortHash.on(run.side("B").sim()));
        TwoXpuRun.Result r = run.run(commands, commands, 200_000, null);
        assertTrue(r.ok(), "the run itself: " + r);
        List<Object> delivered = new ArrayList<>();
        for (var got : List.of(run.gotAToB(), run.gotBToA())) {
            got.forEach((vc, cs) -> cs.forEach(c -> delivered.add(vc + ":" + c.type() + ":"
                    + HexFormat.of().formatHex(c.control()) + ":" + HexFormat.of().formatHex(c.data()))));
        }
        List<Long> outputs = new ArrayList<>(outputs(run.side("A").sim()));
        outputs.addAll(outputs(run.side("B").sim()));
        String result = describe(r.aToB()) + " | " + describe(r.bToA()) + " | cycles " + r.cycles();
        return new Trace(hashes.stream().map(h -> h.hash).toList(), result, delivered, outputs, run.parallel());
    }

    /** Every word of every top-level port now. */
    private static List<Long> outputs(Simulator sim) {
        long[][] ports = sim.newPortBuffers();
        sim.peekPorts(ports);
        List<Long> words = new ArrayList<>();
        for (long[] port : ports) {
            for (long w : port) {
                words.add(w);
            }
        }
        return words;
    }

    /** A direction's figures, its arrays by content (latency and cycle of every delivery). */
    private static String describe(TwoXpuRun.Direction d) {
        return List.of(d.commands(), d.delivered(), d.bytes(), d.frames(), d.framesLost(), d.framesDamaged(),
                d.retransmitted(), d.timeouts(), d.nacksSent(), d.acksOnly(), d.lastLossCycle()) + " "
                + Arrays.toString(d.latencies()) + " " + Arrays.toString(d.deliveries());
    }

    /** Every top-level port, every cycle, folded into one number (on the side's own thread). */
    private static final class PortHash implements Simulator.CycleListener {
        private final long[][] ports;
        long hash = 1;

        private PortHash(Simulator sim) {
            ports = sim.newPortBuffers();
        }

        static PortHash on(Simulator sim) {
            PortHash h = new PortHash(sim);
            sim.addListener(h);
            return h;
        }

        @Override
        public void sample(Simulator sim, long cycle) {
            sim.peekPorts(ports);
            for (long[] p : ports) {
                for (long w : p) {
                    hash = hash * 0x9E3779B97F4A7C15L + w;
                }
            }
            hash = hash * 31 + cycle;
        }

        @Override
        public void close() {
        }
    }
}
