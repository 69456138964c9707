package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.sue.cmd.tb.CommandReceiver;
import org.sue.core.ConfigException;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.instance.tb.XpuSide;
import org.sue.link.FrameAction;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.net.SueMeta;
import org.sue.net.HeaderFormat;
import org.sue.transport.ConnectionRouter;
import org.sue.transport.tb.ConnectionRouterFollower;

/**
 * Instances of 2 and 4 ports (docs/protocol.md 10) against each other, each port its own faulty link with LLR and
 * CBFC and a MAC that stalls: every command once and in order per {source, destination, VC}, stores empty, credits
 * back, each port's counters what its link did; every port carries frames.
 */
class MultiPortInstanceTest {
    private static final int DELAY = 20;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void everyCommandOnceInOrderOverFaultyPorts(int ports) {
        SueInstance.Config config = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, DELAY);
        LinkModel.Faults faults = LinkModel.Faults.loss(0.02).withBitErrors(0.02);
        TwoXpuRun run = new TwoXpuRun(config, DELAY, faults, 11 + ports, null);
        List<String> wrongPort = new ArrayList<>();
        long[] dataPdus = new long[2 * ports];
        List<ConnectionRouterFollower> routers = new ArrayList<>();
        for (String s : new String[] {"A", "B"}) {
            for (int p = 0; p < ports; p++) {
                watchPort(run.side(s), p, wrongPort, dataPdus);
            }
            routers.add(new ConnectionRouterFollower(run.side(s).sim(), "router.", routerOf(config)));
        }
        TwoXpuRun.Result r = run.run(2000, 2000, 200_000, null);
        assertTrue(r.ok(), r.toString());
        for (ConnectionRouterFollower router : routers) {
            assertEquals(List.of(), router.mismatches(), "a router against its reference");
        }
        assertEquals(List.of(), wrongPort.subList(0, Math.min(5, wrongPort.size())), "PDUs on the wrong port");
        for (int i = 0; i < dataPdus.length; i++) {
            assertTrue(dataPdus[i] > 20, "data PDUs into side " + (i < ports ? "A" : "B") + "'s port " + i % ports
                    + ": " + dataPdus[i]);
        }
        for (String s : new String[] {"A", "B"}) {
            XpuSide side = run.side(s);
            for (int p = 0; p < ports; p++) {
                assertTrue(side.toPeer(p).sent() > 50, s + " port " + p + " sent " + side.toPeer(p).sent());
                assertTrue(side.toPeer(p).lost() + side.toPeer(p).damaged() > 0, "the faults reached port " + p);
            }
        }
    }

    /**
     * The other link layers on 2 ports: PFC with LLR (a pause holds only the queues pinned to its port), and neither
     * LLR nor flow control (the transport alone recovers the losses): every command once and in order.
     */
    @ParameterizedTest
    @ValueSource(strings = {"PFC", "NONE"})
    void otherLinkLayersOnTwoPorts(String mode) {
        SueInstance.Config.FlowControl fc = SueInstance.Config.FlowControl.valueOf(mode);
        SueInstance.Config config = SueInstance.Config.builder()
                .path(p -> p.dataWidth(256).destinations(16).cells(1024).pduLimit(1024).cmdCredits(32)
                        .dataCredits(16))
                .busWidth(512).transport(t -> t.ports(2).storeBytes(65536).windowPdus(64).rtoCycles(3000)
                        .ackDelay(200).ackCount(8))
                .rxCmdCredits(32).rxDataCredits(16).rxFifoDepth(1024).llr(fc == SueInstance.Config.FlowControl.PFC)
                .flowControl(fc).build();
        TwoXpuRun run = new TwoXpuRun(config, DELAY, LinkModel.Faults.loss(0.01).withBitErrors(0.01), 3, null)
                .rxReturnPercent(20);
        TwoXpuRun.Result r = run.run(1500, 1500, 200_000, null);
        assertTrue(r.ok(), r.toString());
        if (fc == SueInstance.Config.FlowControl.PFC) {
            assertTrue(run.side("B").counter("p0_pfc_xoff_frames_sent") + run.side("B").counter("p1_pfc_xoff_frames_sent")
                    > 0, "the slow XPU made its ports pause the sender");
        }
    }

    /**
     * A port down for long gives its connections to another (docs/protocol.md 10.6): while port 1's link is down the
     * VCs pinned to it go on being delivered through port 0, and after it returns they move back; everything arrives
     * once and in order, and both routers follow their reference every cycle.
     */
    @Test
    void aPortDownMovesItsConnectionsToAnother() {
        SueInstance.Config config = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, 2, DELAY);
        TwoXpuRun run = new TwoXpuRun(config, DELAY, LinkModel.Faults.NONE, 5, null);
        XpuSide a = run.side("A");
        XpuSide b = run.side("B");
        ConnectionRouterFollower routerA = new ConnectionRouterFollower(a.sim(), "router.", routerOf(config));
        ConnectionRouterFollower routerB = new ConnectionRouterFollower(b.sim(), "router.", routerOf(config));
        a.tx().independentVcs(true);
        run.add(3000, 0, TwoXpuRun.RANDOM);
        run.idle(2000);
        run.portUp(1, false);
        run.idle(3000); // LLR's PCS-lost timeout passes: port 1 is down
        int[] before = deliveredPerPort(b, config);
        run.idle(8000);
        int[] during = deliveredPerPort(b, config);
        long detouredDuring = a.counter("route_detoured_pdus");
        run.portUp(1, true);
        TwoXpuRun.Result r = run.run(3000, 0, 200_000, null); // port 1's route comes back under traffic
        assertTrue(r.ok(), r.toString());
        assertEquals(List.of(), routerA.mismatches(), "A's router against its reference");
        assertEquals(List.of(), routerB.mismatches(), "B's router against its reference");
        assertTrue(during[0] - before[0] > 200, "VCs on port 0 went on: " + (during[0] - before[0]) + " commands");
        assertTrue(during[1] - before[1] > 200, "VCs on port 1 moved to port 0: " + (during[1] - before[1])
                + " commands");
        assertTrue(detouredDuring > 50, "A's PDUs of port 1 went through port 0: " + detouredDuring);
        assertTrue(routerA.moves() >= 2, "port 1's route went away and came back: " + routerA.moves() + " moves");
        assertTrue(b.counter("p1_port_went_down") > 0 && b.counter("p0_port_went_down") <= 1, "port 1 went down");
    }

    /**
     * One connection {port, XPU} that stops answering while its port stays up (docs/protocol.md 10.8): A's frames into
     * port 1's link vanish for 35,000 cycles, the link and its MAC Control frames unharmed (the far end's way is broken,
     * not the link). Neither LLR, which would take the port down, nor CBFC, whose credits would leak into the hole on
     * a direct link (a switch that drops a frame has given its credit back). A's connection {1, B} is stuck after two timeouts and takes
     * another port, the VCs pinned to port 1 go on being delivered meanwhile, a probe on the home port fails while the
     * way is broken and succeeds after; every command arrives once (in strict mode in order), nothing stays detoured,
     * no destination is declared unreachable, and both routers follow their reference every cycle. In unordered mode
     * the detoured connection only finishes what it has: the other connection ports take B's new PDUs.
     */
    @ParameterizedTest
    @CsvSource({"2, STRICT", "4, STRICT", "2, UNORDERED"})
    void aConnectionThatStopsAnsweringTakesAnotherPort(int ports, SueInstance.Config.Ordering ordering) {
        int probe = 6000; // two timeouts
        SueInstance.Config config = SueInstance.Config.builder()
                .path(p -> p.dataWidth(128 * ports).destinations(16).cells(1024).pduLimit(1024).cmdCredits(32)
                        .dataCredits(16))
                .busWidth(256 * ports).transport(t -> t.ports(ports).storeBytes(65536).windowPdus(64).rtoCycles(3000)
                        .ackDelay(200).ackCount(8).probeCycles(probe))
                .rxCmdCredits(32).rxDataCredits(16).rxFifoDepth(1024).llr(false)
                .flowControl(SueInstance.Config.FlowControl.NONE).build().withOrdering(ordering);
        TwoXpuRun run = new TwoXpuRun(config, DELAY, LinkModel.Faults.NONE, 40 + ports, null);
        XpuSide a = run.side("A");
        XpuSide b = run.side("B");
        ConnectionRouterFollower routerA = new ConnectionRouterFollower(a.sim(), "router.", routerOf(config));
        ConnectionRouterFollower routerB = new ConnectionRouterFollower(b.sim(), "router.", routerOf(config));
        a.tx().independentVcs(true);
        run.add(1000, 250, TwoXpuRun.RANDOM);
        run.idle(1000);
        a.toPeer(1).blackHole(true);
        int[] before = deliveredPerPort(b, config);
        for (int i = 0; i < 5; i++) { // traffic all along: the connection is stuck, detoured, probes home, ...
            run.add(1000, 250, TwoXpuRun.RANDOM);
            run.idle(7000);
        }
        int[] during = deliveredPerPort(b, config);
        long detoursDuring = a.counter("route_detours");
        a.toPeer(1).blackHole(false);
        TwoXpuRun.Result r = run.run(0, 0, 200_000, null);
        assertTrue(r.ok(), r.toString());
        run.idle(2L * probe + 2000); // the detour ends: a probe on the home port finds the way open
        assertEquals(List.of(), routerA.mismatches(), "A's router against its reference");
        assertEquals(List.of(), routerB.mismatches(), "B's router against its reference");
        if (ordering == SueInstance.Config.Ordering.STRICT) {
            assertTrue(during[1] - before[1] > (during[0] - before[0]) / 2, "VCs pinned to port 1 went on: "
                    + (during[1] - before[1]) + " commands (port 0's: " + (during[0] - before[0]) + ")");
        }
        assertTrue(detoursDuring >= 2, "A's connection {1, B} took another port, again after a failed probe: "
                + detoursDuring + " detours");
        long round = a.counter("route_detoured_pdus"); // unordered: only what the connection had when detoured
        assertTrue(round > (ordering == SueInstance.Config.Ordering.STRICT ? 100 : 10), "PDUs went round: " + round);
        assertTrue(a.counter("route_home_probes") >= 2, "home probes: " + a.counter("route_home_probes"));
        assertEquals(0, a.counter("route_detours_now"), "A's connections are home again");
        assertEquals(0, a.counter("tp_tx_destinations_lost"), "no destination declared unreachable");
        assertEquals(0, a.counter("p1_port_went_down"), "port 1 stayed up");
    }

    /**
     * Unordered mode (docs/protocol.md 10.7) over faulty ports, one of them down for a while: every command arrives
     * exactly once though not in order (some overtake others: the ports really are shared), a {destination, VC}'s PDUs
     * take several connection ports, and the routers follow their reference every cycle.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void unorderedModeDeliversEveryCommandOnce(int ports) {
        SueInstance.Config config = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, DELAY)
                .withOrdering(SueInstance.Config.Ordering.UNORDERED);
        TwoXpuRun run = new TwoXpuRun(config, DELAY, LinkModel.Faults.loss(0.02).withBitErrors(0.02), 31 + ports,
                null);
        List<ConnectionRouterFollower> routers = new ArrayList<>();
        Set<String> spread = new HashSet<>(); // {side, destination, VC, connection port} of the data PDUs
        for (String s : new String[] {"A", "B"}) {
            XpuSide side = run.side(s);
            routers.add(new ConnectionRouterFollower(side.sim(), "router.", routerOf(config)));
            for (int p = 0; p < ports; p++) {
                new StreamMonitor(side.sim(), config.portPrefix(p) + "frame_tx.s_axis", null).onPacket(pdu -> {
                    SueMeta meta = SueMeta.unpack(pdu.user());
                    if (meta.len() > 1) {
                        synchronized (spread) {
                            spread.add(s + " " + meta.dstXpu() + " " + meta.vc() + " " + meta.port());
                        }
                    }
                });
            }
        }
        run.add(1500, 1500, TwoXpuRun.RANDOM);
        run.idle(3000);
        run.portUp(1, false);
        run.idle(4000);
        run.portUp(1, true);
        TwoXpuRun.Result r = run.run(500, 500, 300_000, null);
        assertTrue(r.ok(), r.toString());
        for (ConnectionRouterFollower router : routers) {
            assertEquals(List.of(), router.mismatches(), "a router against its reference");
        }
        int overtaken = 0;
        for (int vc = 0; vc < 4; vc++) {
            overtaken += run.side("B").arrivalFrom(run.side("A"), vc).overtaken()
                    + run.side("A").arrivalFrom(run.side("B"), vc).overtaken();
        }
        assertTrue(overtaken > 0, "commands of one VC overtook each other on different ports");
        assertTrue(spread.size() >= 2 * 4 * ports - 2, "each side's {destination, VC} used (nearly) every connection"
                + " port: " + spread.size() + " of " + 2 * 4 * ports);
        for (String s : new String[] {"A", "B"}) {
            assertEquals(0, run.side(s).counter("choice_overflow"), s + " lost a port choice");
            assertTrue(run.side(s).counter("route_detoured_pdus") > 0, s + "'s port 1 connections went elsewhere");
        }
    }

    /**
     * A slow port costs the others nothing (docs/protocol.md 10.2, transmit backlog): A sends saturating 256-byte
     * commands to B on four VCs (two pinned to each port), then port 1's MAC takes a beat only one cycle in ten. The
     * VCs of port 0 keep at least 90% of the goodput they have when both MACs run at full speed; without the backlog
     * limit a PDU for port 1 at the head of the transport's single output holds port 0's behind it, and port 0 falls to
     * port 1's pace.
     */
    @Test
    void aSlowPortDoesNotHoldTheOthers() {
        double full = portZeroGoodput(100);
        double slowNeighbour = portZeroGoodput(10);
        assertTrue(slowNeighbour >= 0.9 * full, "port 0's VCs: " + slowNeighbour + " command bytes/cycle beside a"
                + " slow port 1, " + full + " beside a fast one");
    }

    /**
     * Unordered mode shares the PDUs by the bandwidth each port has (docs/protocol.md 10.7): with port 1's MAC taking
     * a beat one cycle in ten, port 1 carries about its share of the two ports' rate (a tenth of one port's among
     * 1.1 ports', 9%), not the half that turns alone would give it, and the pair keeps at least 85% of the goodput
     * it has with both MACs at full speed.
     */
    @Test
    void unorderedModeSharesThePdusByBandwidth() {
        double[] full = unorderedShares(100);
        double[] slow = unorderedShares(10);
        assertTrue(slow[1] > 0.05 && slow[1] < 0.15, "port 1's share of the frames: " + slow[1]);
        assertTrue(slow[0] >= 0.85 * full[0], slow[0] + " command bytes/cycle beside a slow port 1, " + full[0]
                + " beside a fast one");
    }

    /**
     * A sends saturating 256-byte commands to B on 4 VCs, unordered, port 1's MAC ready {@code percent}% of the
     * cycles: {B's goodput, port 1's share of A's frames}, over 4,000 cycles once the traffic runs; then the rest
     * drains at full speed and is checked.
     */
    private static double[] unorderedShares(int percent) {
        TwoXpuRun run = besideASlowPort(SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, 2, DELAY)
                .withOrdering(SueInstance.Config.Ordering.UNORDERED), percent, 2000);
        run.idle(1000);
        long bytes = commandBytes(run.side("B"), d -> true);
        long[] frames = {run.side("A").toPeer(0).sent(), run.side("A").toPeer(1).sent()};
        run.idle(4000);
        double goodput = (commandBytes(run.side("B"), d -> true) - bytes) / 4000.0;
        double frames0 = run.side("A").toPeer(0).sent() - frames[0];
        double frames1 = run.side("A").toPeer(1).sent() - frames[1];
        drainAtFullSpeed(run);
        return new double[] {goodput, frames1 / (frames0 + frames1)};
    }

    /** B's goodput on the VCs pinned to port 0 (command bytes a cycle) with port 1's MAC ready {@code percent}%. */
    private static double portZeroGoodput(int percent) {
        SueInstance.Config config = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, 2, DELAY);
        TwoXpuRun run = besideASlowPort(config, percent, 1600);
        run.idle(2000);
        Predicate<CommandReceiver.Delivered> portZero = d -> SueInstance.pinnedPort(run.side("B").xpu(), d.vc(),
                config.path().destinations(), config.ports()) == 0;
        long before = commandBytes(run.side("B"), portZero);
        run.idle(4000);
        double goodput = (commandBytes(run.side("B"), portZero) - before) / 4000.0;
        drainAtFullSpeed(run);
        return goodput;
    }

    /**
     * Two instances of {@code config}, A sending {@code commands} 256-byte commands to B on the four VCs as fast as
     * everything takes them, A's port 1 MAC ready {@code percent}% of the cycles.
     */
    private static TwoXpuRun besideASlowPort(SueInstance.Config config, int percent, int commands) {
        TwoXpuRun run = new TwoXpuRun(config, DELAY, LinkModel.Faults.NONE, 3, null).txValidPercent(100)
                .macReadyPercent(100).rxReturnPercent(100);
        run.side("A").macReadyPercent(1, percent, 3);
        run.side("A").tx().independentVcs(true);
        run.add(commands, 0, TwoXpuRun.fixed(256, 4));
        return run;
    }

    /** Port 1's MAC back at full speed, the rest drained: every command once and in order, everything settled. */
    private static ConnectionRouter.Config routerOf(SueInstance.Config config) {
        return ConnectionRouter.Config.of(config.transport());
    }

    private static void drainAtFullSpeed(TwoXpuRun run) {
        run.side("A").macReadyPercent(1, 100, 3);
        TwoXpuRun.Result r = run.run(0, 0, 200_000, null);
        assertTrue(r.ok(), r.toString());
    }

    /** Command bytes (control and data) B received so far of the commands {@code which} takes. */
    private static long commandBytes(XpuSide b, Predicate<CommandReceiver.Delivered> which) {
        return b.rx().delivered().stream().filter(which)
                .mapToLong(d -> d.command().control().length + d.command().data().length).sum();
    }

    /** Commands B received so far, by the port their {source, VC} is pinned to. */
    private static int[] deliveredPerPort(XpuSide b, SueInstance.Config config) {
        int[] n = new int[config.ports()];
        b.rx().delivered().forEach(d -> n[SueInstance.pinnedPort(b.xpu(), d.vc(),
                config.path().destinations(), config.ports())]++);
        return n;
    }

    /**
     * Every PDU into port {@code port}'s framing, decision by decision: a data PDU's connection port (its port field)
     * is where the reference ({@link SueInstance#pinnedPort}) pins its {destination, VC}; which port carries it is
     * the router's ({@link ConnectionRouterFollower}). Runs on the side's own thread: it only records.
     */
    private static void watchPort(XpuSide side, int port, List<String> wrong, long[] dataPdus) {
        SueInstance.Config config = side.sim().design().top() instanceof SueInstance i ? i.config() : null;
        int slot = (side.name().equals("A") ? 0 : config.ports()) + port;
        new StreamMonitor(side.sim(), config.portPrefix(port) + "frame_tx.s_axis", null).onPacket(pdu -> {
            SueMeta meta = SueMeta.unpack(pdu.user());
            boolean data = meta.len() > 1;
            int pinned = SueInstance.pinnedPort(meta.dstXpu(), meta.vc(), config.path().destinations(),
                    config.ports());
            if (data && pinned != meta.port()) {
                synchronized (wrong) {
                    wrong.add(side.name() + " cycle " + pdu.cycle() + ": " + meta + " into port " + port
                            + ", pinned to " + pinned);
                }
            }
            dataPdus[slot] += data ? 1 : 0;
        });
    }

    @Test
    void pinningSpreadsOneDestinationsVcsOverEveryPort() {
        for (int ports : new int[] {2, 4}) {
            for (int dst = 0; dst < 16; dst++) {
                Set<Integer> used = new HashSet<>();
                for (int vc = 0; vc < 4; vc++) {
                    used.add(SueInstance.pinnedPort(dst, vc, 16, ports));
                }
                assertEquals(ports, used.size(), "destination " + dst + " on " + ports + " ports");
            }
        }
        // 4 ports: id 0110 in 2-bit groups 01 and 10, XOR 11, then the VC's low 2 bits
        assertEquals(3, SueInstance.pinnedPort(0b0110, 0, 16, 4));
        assertEquals(2, SueInstance.pinnedPort(0b0110, 1, 16, 4));
        // 2 ports: the id's bits 0 ^ 1 ^ 1 ^ 0, then the VC's low bit
        assertEquals(1, SueInstance.pinnedPort(0b0110, 1, 16, 2));
        assertEquals(1, SueInstance.pinnedPort(0b0111, 2, 16, 2));
    }

    @Test
    void llrHoldingFramesOnSeveralPortsIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> SueInstance.Config.builder()
                .transport(t -> t.ports(2)).llr(l -> l.flushFrameAction(FrameAction.BLOCK)).build());
        assertTrue(e.getMessage().contains("llr.flushFrameAction must not be BLOCK with transport.ports 2"),
                e.getMessage());
    }

    @Test
    void portsNarrowerThanTheFramingTakesAreRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> SueInstance.Config.builder()
                .path(p -> p.dataWidth(256)).transport(t -> t.ports(2)).build());
        assertTrue(e.getMessage().contains("transport.ports must leave each port a bus of"), e.getMessage());
    }
}
