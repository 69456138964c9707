package org.sue.instance.tb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.instance.SueInstance;
import org.sue.transport.ConnectionRouter;
import org.sue.transport.tb.ConnectionRouterFollower;
import org.sue.net.HeaderFormat;

/** N XPUs through the {@link SwitchModel}: exactly once and in order per {source, destination, VC}, and line rate. */
class MultiXpuRunTest {
    private static final SueInstance.Config SMALL = SmallInstance.config(HeaderFormat.ETH_IPV4_UDP);

    private static void assertAllDelivered(MultiXpuRun.Result r) {
        assertTrue(r.ok(), r.summary());
        for (MultiXpuRun.Flow f : r.flows()) {
            assertEquals(f.commands(), f.delivered(), f.toString());
        }
    }

    @Test
    void oneXpuSendsRandomCommandsToFourDestinations() {
        MultiXpuRun run = new MultiXpuRun(SMALL, 5, 20, LinkModel.Faults.loss(0.005), 10, 1);
        Random rnd = new Random(2);
        for (int i = 0; i < 240; i++) {
            run.add(1, 2 + rnd.nextInt(4), 1, TwoXpuRun.RANDOM);
        }
        MultiXpuRun.Result r = run.run(30_000, null);
        assertAllDelivered(r);
        assertEquals(240, r.flows().stream().filter(f -> f.src() == 1).mapToInt(MultiXpuRun.Flow::delivered).sum());
        assertTrue(r.flows().stream().filter(f -> f.src() == 1).allMatch(f -> f.delivered() > 30), r.summary());
    }

    @Test
    void fiveXpusSendToEachOther() {
        MultiXpuRun run = new MultiXpuRun(SMALL, 5, 20, LinkModel.Faults.loss(0.005).withBitErrors(0.005), 10, 3);
        run.addAllToAll(15, TwoXpuRun.RANDOM);
        MultiXpuRun.Result r = run.run(30_000, null);
        assertAllDelivered(r);
        assertEquals(20, r.flows().size());
        MultiXpuRun.Flow f = r.flows().get(0);
        long from = f.deliveries()[0];
        long to = f.deliveries()[f.deliveries().length - 1] + 1;
        assertEquals((double) f.bytes() / (to - from), run.goodput(f.src(), f.dst(), from, to), 1e-9,
                "the goodput over the whole delivery span is all the flow's bytes");
        assertEquals(0, run.goodput(f.src(), f.dst(), to, to + 100));
    }

    /**
     * An XPU sending saturating 256-byte commands to four destinations fills its port as it does one destination
     * ({@link LineRate}): at least 0.9 of the port's capacity, the destinations' command bytes per cycle together.
     */
    @Test
    void saturatedCommandsToFourDestinationsFillThePort() {
        SueInstance.Config config = SmallInstance.narrowPort(HeaderFormat.ETH_IPV4_UDP);
        MultiXpuRun run = new MultiXpuRun(config, 5, 2, LinkModel.Faults.NONE, 0, 4).txValidPercent(100)
                .rxReturnPercent(100);
        run.addRoundRobin(1, new int[] {2, 3, 4, 5}, 150, TwoXpuRun.fixed(256, 4));
        MultiXpuRun.Result r = run.run(30_000, null);
        assertAllDelivered(r);
        double capacity = LineRate.capacity(config, 256);
        double rate = run.sourceBytesPerCycle(1);
        System.out.printf("four destinations: %.2f command bytes/cycle of %.2f (%.3f)%n", rate, capacity,
                rate / capacity);
        assertTrue(rate / capacity >= 0.9, String.format("%.2f command bytes/cycle of %.2f (%.3f)", rate, capacity,
                rate / capacity));
    }

    @Test
    void aFrozenXpuAndADeadPortComeBackAndNothingIsLost() {
        MultiXpuRun run = new MultiXpuRun(SMALL, 3, 20, LinkModel.Faults.NONE, 10, 5);
        run.add(1, 2, 300, TwoXpuRun.RANDOM).add(3, 2, 300, TwoXpuRun.RANDOM).add(2, 1, 100, TwoXpuRun.RANDOM);
        run.idle(300);
        run.freeze(2, true);
        run.idle(200);
        XpuSide two = run.side(2);
        int got = two.rx().delivered().size();
        long sent = two.toPeer().sent();
        run.idle(2000);
        assertEquals(sent, two.toPeer().sent(), "a frozen XPU's instance sends nothing");
        assertTrue(two.frozenDropped() > 0, "frames to a frozen XPU are lost");
        assertTrue(two.rx().delivered().size() - got <= SMALL.rxCmdCredits() * 4,
                "deliveries only while the XPU's credits last");
        run.freeze(2, false);
        run.idle(500);
        run.dropAll(3, true);
        run.idle(200);
        long toThree = run.side(3).fromPeer().sent();
        long dead = run.fabric().droppedDead();
        run.idle(2000);
        assertEquals(toThree, run.side(3).fromPeer().sent(), "the switch sends nothing to a port that drops all");
        assertTrue(run.fabric().droppedDead() > dead, "and drops what comes from it");
        run.dropAll(3, false);
        assertAllDelivered(run.run(50_000, null));
    }

    @Test
    void eachPortHasItsOwnLinksAndQueue() {
        List<MultiXpuRun.Link> links = List.of(new MultiXpuRun.Link(5, LinkModel.Faults.NONE),
                new MultiXpuRun.Link(40, LinkModel.Faults.loss(0.02)), new MultiXpuRun.Link(5, LinkModel.Faults.NONE),
                new MultiXpuRun.Link(5, LinkModel.Faults.NONE));
        MultiXpuRun run = new MultiXpuRun(SMALL, links, 10, 8192, 6).txValidPercent(100);
        for (int s : new int[] {1, 3, 4}) {
            run.add(s, 2, 80, TwoXpuRun.fixed(256)); // incast into port 1's 8 KiB queue
        }
        MultiXpuRun.Result r = run.run(50_000, null);
        assertAllDelivered(r);
        assertTrue(run.fabric().queueDrops() > 0, "three senders into one port overflow its queue");
        assertTrue(run.side(2).fromPeer().lost() > 0 && run.side(1).fromPeer().lost() == 0,
                "only port 1's links lose frames");
    }

    /**
     * Instances of 2 and 4 ports (strict and unordered mode), a switch per port: four XPUs send random commands to each
     * other over links that lose frames and flip bits, and every port of every XPU carries some of them.
     */
    @ParameterizedTest
    @CsvSource({"2, STRICT", "4, STRICT", "2, UNORDERED"})
    void xpusOfSeveralPortsMeetOnASwitchPerPort(int ports, SueInstance.Config.Ordering ordering) {
        SueInstance.Config config = switchedInstance(ports).withOrdering(ordering);
        MultiXpuRun run = new MultiXpuRun(config, 4, 20, LinkModel.Faults.loss(0.005).withBitErrors(0.005), 10, 7);
        run.addAllToAll(12, TwoXpuRun.RANDOM);
        assertAllDelivered(run.run(50_000, null));
        for (int x = 1; x <= 4; x++) {
            for (int p = 0; p < ports; p++) {
                assertTrue(run.side(x).toPeer(p).sent() > 0, "XPU " + x + " sent nothing on port " + p);
                assertTrue(run.side(x).fromPeer(p).sent() > 0, "plane " + p + " sent nothing to XPU " + x);
            }
        }
    }

    /**
     * Behind a switch per port, plane 1's port to XPU 2 breaks both ways for 28,000 cycles while every link stays up
     * (the far end's port of that plane gone; docs/protocol.md 10.8): XPU 1, sending to XPUs 2 and 3, moves its
     * connection {1, 2} to port 0, and XPU 2, which sends nothing but ACKs, follows it there, so that they reach XPU 1.
     * Nothing is declared unreachable, lost, duplicated or reordered; XPU 3 never moves; all of them are home at the
     * end, and every router follows its reference every cycle.
     */
    @Test
    void aPairBrokenBothWaysBehindTheSwitchMovesAtBothEnds() {
        int probe = 6000; // two timeouts
        SueInstance.Config base = switchedInstance(2);
        SueInstance.Config config = base.withLlr(null).withTransport(base.transport().toBuilder().probeCycles(probe)
                .build());
        MultiXpuRun run = new MultiXpuRun(config, 3, 20, LinkModel.Faults.NONE, 10, 9);
        List<ConnectionRouterFollower> routers = new ArrayList<>();
        for (int x = 1; x <= 3; x++) {
            routers.add(new ConnectionRouterFollower(run.side(x).sim(), "router.",
                    ConnectionRouter.Config.of(config.transport())));
        }
        run.addRoundRobin(1, new int[] {2, 3}, 300, TwoXpuRun.RANDOM);
        run.idle(1000);
        run.plane(1).dropAll(1, true); // XPU 2's port on plane 1
        for (int i = 0; i < 4; i++) {
            run.addRoundRobin(1, new int[] {2, 3}, 300, TwoXpuRun.RANDOM);
            run.idle(7000);
        }
        XpuSide one = run.side(1);
        XpuSide two = run.side(2);
        assertTrue(one.counter("route_detours") >= 1, "XPU 1's connection {1, 2} took port 0");
        assertTrue(two.counter("route_detours") >= 1, "XPU 2's connection {1, 1} followed it");
        assertTrue(two.counter("route_detoured_pdus") > 0, "XPU 2's ACK-only PDUs took port 0");
        run.plane(1).dropAll(1, false);
        assertAllDelivered(run.run(200_000, null));
        run.idle(2L * probe + 2000);
        for (int x = 1; x <= 3; x++) {
            assertEquals(List.of(), routers.get(x - 1).mismatches(), "XPU " + x + "'s router against its reference");
            assertEquals(0, run.side(x).counter("route_detours_now"), "XPU " + x + "'s connections are home");
            assertEquals(0, run.side(x).counter("tp_tx_destinations_lost"), "XPU " + x + " declared none unreachable");
        }
        assertEquals(0, run.side(3).counter("route_detours"), "XPU 3's way on plane 1 stayed open");
    }

    /** The small multi-port instance ({@link SmallInstance#multiPort}) without CBFC, which the switch does not have. */
    static SueInstance.Config switchedInstance(int ports) {
        return SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, ports, 20).withCbfc(null).withRxVcFifoDepth(0);
    }

    @Test
    void refusesWhatTheSwitchCannotCarry() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MultiXpuRun(SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP), 3, 5, LinkModel.Faults.NONE,
                        0, 1));
        assertTrue(e.getMessage().contains("config.cbfc"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new MultiXpuRun(SMALL, 16, 5, LinkModel.Faults.NONE,
                0, 1));
        assertTrue(e.getMessage().contains("links"), e.getMessage());
    }
}
