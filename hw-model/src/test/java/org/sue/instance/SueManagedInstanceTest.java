package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;
import org.sue.core.Design;
import org.sue.core.Status;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.instance.tb.RawFrames;
import org.sue.mgmt.AxiLite;
import org.sue.mgmt.RegisterMap;
import org.sue.mgmt.RegisterMap.Register;
import org.sue.mgmt.tb.AxiLiteDriver;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.SueRegs;
import org.sue.instance.tb.FaultScenarios;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.TwoXpuRun;
import java.util.Map;
import org.sue.net.HeaderFormat;
import org.sue.sim.Simulator;

/**
 * The managed instance: every status of the instance read through the management port equals the instance's own
 * port; the settings drive the instance's inputs; the header table is written indirectly; the interrupt follows
 * status and enable.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SueManagedInstanceTest {
    private static SueManagedInstance top;
    private static Simulator sim;
    private static AxiLiteDriver bus;
    private static final Random RND = new Random(11);

    @BeforeAll
    static void build() {
        top = new SueManagedInstance(new SueManagedInstance.Config(
                SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP).withLlr(SmallInstance.llr(100)), 16));
        sim = Simulator.compile(Design.elaborate(top));
        sim.poke("link_up", 1);
        sim.reset();
        bus = new AxiLiteDriver(sim, "s_axil").pace(70, 80);
    }

    private static long read(String block, String register) {
        AxiLiteDriver.Access a = bus.read(top.registerMap().register(block, register).offset());
        bus.finish(RND, 200);
        assertEquals(AxiLite.OKAY, a.resp(), "read of " + block + "." + register);
        return a.readData();
    }

    private static void write(String block, String register, long data) {
        AxiLiteDriver.Access a = bus.write(top.registerMap().register(block, register).offset(), data, 15);
        bus.finish(RND, 200);
        assertEquals(AxiLite.OKAY, a.resp(), "write of " + block + "." + register);
    }

    @Test
    void everyStatusOfTheInstanceReadsAsItsPort() {
        // frames from the MAC that are mostly garbage: the framing and LLR counters move
        StreamSource mac = new StreamSource(sim, "s_axis");
        for (int i = 0; i < 40; i++) {
            byte[] frame = new byte[20 + RND.nextInt(200)];
            RND.nextBytes(frame);
            mac.add(frame, BigInteger.ZERO);
        }
        for (int c = 0; c < 3000; c++) {
            mac.drive(RND, 100);
            mac.advance();
            bus.cycle(RND);
        }
        SueInstance sue = (SueInstance) top.children().stream().filter(c -> c instanceof SueInstance).findFirst()
                .orElseThrow();
        int nonZero = 0;
        for (Register r : top.registerMap().registers()) {
            if (SueManagedInstance.isStatusBlock(r.block())) {
                BigInteger got = BigInteger.ZERO;
                for (int k = 0; k < r.words(); k++) { // lowest word first: it copies the others
                    AxiLiteDriver.Access a = bus.read(r.offset() + 4L * k);
                    bus.finish(RND, 200);
                    got = got.or(BigInteger.valueOf(a.readData()).shiftLeft(32 * k));
                }
                assertEquals(expected(sue, r), got, r.block() + "." + r.name());
                nonZero += got.signum() != 0 ? 1 : 0;
            }
        }
        assertTrue(nonZero >= 3, "some counters moved: " + nonZero);
        AxiLiteDriver.Access magic = bus.read(SueRegs.ID_MAGIC); // the generated constants of the default map
        bus.finish(RND, 200);
        assertEquals(SueManagedInstance.MAGIC, magic.readData());
        assertEquals(512, read("build", "bus_width"));
        assertEquals(2, read("build", "flow_control"));
    }

    /** The instance's status a register reads (a status wider than 128 bits: its 32 bits of the register's word). */
    private static BigInteger expected(SueInstance sue, Register r) {
        String n = top.statusName(r);
        if (sue.statusPorts().containsKey(n)) {
            return sim.peekBig("sue." + n);
        }
        String array = n.replaceFirst("_[0-9]+$", ""); // a status wider than 128 bits: its 32 bits of this word
        int word = Integer.parseInt(n.substring(array.length() + 1));
        return sim.peekBig("sue." + array).shiftRight(32 * word).and(BigInteger.valueOf(0xFFFF_FFFFL));
    }

    @Test
    void settingsDriveTheInstance() {
        write("ctrl", "local_xpu", 0x1234_0005L);
        write("ctrl", "vc_ready", 0b0101);
        write("ctrl", "local_mac", 0x0605_0403L); // low word first: it waits for the high word
        assertEquals(0, sim.peek("sue.local_mac"), "a wide value changes with its highest word");
        bus.write(top.registerMap().register("ctrl", "local_mac").offset() + 4, 0x0201, 15);
        bus.finish(RND, 200);
        assertEquals(0x1234_0005L, sim.peek("sue.local_xpu"));
        assertEquals(0b0101, sim.peek("sue.vc_ready"));
        assertEquals(0x0201_0605_0403L, sim.peek("sue.local_mac"));
        assertEquals(1, sim.peek("sue.llr_enable"), "LLR runs after reset");
        write("ctrl", "vc_ready", 0b1111);
    }

    @Test
    void theHeaderTableIsWrittenAnEntryAtATime() {
        int words = (int) top.registerMap().registers().stream().filter(r -> r.block().equals("hdr_table")
                && r.name().startsWith("entry_")).count();
        BigInteger entry = BigInteger.ZERO;
        for (int k = 0; k < words; k++) {
            long w = RND.nextLong() & 0xFFFF_FFFFL;
            write("hdr_table", "entry_" + k, w);
            entry = entry.or(BigInteger.valueOf(w).shiftLeft(32 * k));
        }
        int width = sim.signal("sue.tbl_wr_data").width();
        entry = entry.and(BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE));
        write("hdr_table", "index", 7);
        AxiLiteDriver.Access go = bus.write(top.registerMap().register("hdr_table", "write").offset(), 1, 15);
        int pulses = 0;
        for (int c = 0; c < 50; c++) {
            if (sim.peek("sue.tbl_wr_valid") == 1) {
                pulses++;
                assertEquals(7, sim.peek("sue.tbl_wr_addr"));
                assertEquals(entry, sim.peekBig("sue.tbl_wr_data"));
            }
            bus.cycle(RND);
        }
        assertTrue(go.done());
        assertEquals(1, pulses, "one table write");
    }

    @Test
    void theInterruptFollowsStatusAndEnable() {
        int linkDown = SueManagedInstance.Event.LINK_DOWN.ordinal();
        write("irq", "status", 0xff); // clear what earlier tests left
        write("irq", "enable", 1L << linkDown);
        assertEquals(0, sim.peek("irq"));
        sim.poke("link_up", 0);
        for (int c = 0; c < 5; c++) {
            bus.cycle(RND);
        }
        assertEquals(1, sim.peek("irq"), "link down raises irq");
        assertEquals(1L << linkDown, read("irq", "status") & (1L << linkDown));
        sim.poke("link_up", 1);
        write("irq", "status", 1L << linkDown);
        bus.cycle(RND);
        assertEquals(0, sim.peek("irq"), "cleared");
        write("irq", "enable", 0);
    }

    /**
     * The port's status (docs/protocol.md 7.8): with LLR on and no peer, INIT is never echoed and the port stays down;
     * LLR off, the port follows link_up, each change an event.
     */
    @Test
    @Order(Integer.MAX_VALUE - 1) // turning LLR off lets CBFC's updates out: after the tests that count frames
    void thePortStatusFollowsLlrAndTheLinkWithItsEvents() {
        int down = SueManagedInstance.Event.PORT_DOWN.ordinal();
        int up = SueManagedInstance.Event.PORT_UP.ordinal();
        write("irq", "status", 0xffff);
        assertEquals(0, read("port", "up"), "LLR in INIT, never echoed: down");
        long cameUp = read("port", "came_up");
        long wentDown = read("port", "went_down");
        write("irq", "enable", 1L << up);
        write("ctrl", "llr_enable", 0);
        assertEquals(1, read("port", "up"), "LLR off, link_up high: up");
        assertEquals(cameUp + 1, read("port", "came_up"));
        assertEquals(1, sim.peek("irq"), "port_up raises irq");
        write("irq", "status", 1L << up);
        write("irq", "enable", 1L << down);
        sim.poke("link_up", 0);
        for (int c = 0; c < 5; c++) {
            bus.cycle(RND);
        }
        assertEquals(1, sim.peek("irq"), "port_down raises irq");
        assertEquals(0, read("port", "up"));
        assertEquals(wentDown + 1, read("port", "went_down"));
        assertEquals(1L << down, read("irq", "status") & (3L << down), "down only");
        sim.poke("link_up", 1);
        write("irq", "status", 0xffff);
        write("irq", "enable", 0);
        write("ctrl", "llr_enable", 1);
    }

    /**
     * Two managed instances over a lossy, corrupting link, set up by software (identity, header table, LLR enable
     * over the bus): every command delivered once and in order, the receivers' counters agree with the link's own
     * count of what it lost and damaged, and every counter read through the management port lies between the
     * instance's own value just before and just after the reads (equal to it when it did not move).
     */
    @Test
    void aTwoXpuRunOverAFaultyLinkReadsItsCountersOverTheBus() {
        TwoXpuRun run = TwoXpuRun.managed(SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP).withLlr(
                SmallInstance.llr(50)), 50, LinkModel.Faults.loss(0.01).withBitErrors(0.01), 7, null);
        TwoXpuRun.Result r = run.run(150, 150, 100_000, c -> { });
        assertTrue(r.ok(), "delivered once, in order, credits back, stores empty: " + r);
        assertEquals(null, r.countersMismatch(), "the receivers' counters agree with the link");
        int moved = 0;
        for (String side : new String[] {"A", "B"}) {
            Map<String, Long> bus = readStatusOverTheBus(run, side);
            moved += (int) bus.values().stream().filter(v -> v != 0).count();
            assertTrue(bus.containsKey("tp_tx_retransmitted_pdus") && bus.containsKey("llr_rx_ok")
                    && bus.containsKey("net_drops_bad_fcs"), "the transport's, LLR's and the framing's counters");
        }
        assertTrue(moved > 20, "counters moved: " + moved);
    }

    /**
     * Two managed 2-port instances (docs/management.md, more ports): port 1's link goes down and comes back under
     * traffic. The port_down event raises irq; port 1's status reads in block port1 (down while port 0's, in block
     * port, stays up), each port's LLR, CBFC and framing counters and the routes' read as their statuses, and every
     * command arrives once and in order.
     */
    @Test
    void aTwoPortInstanceShowsEachPortInItsBlockAndRaisesItsEvents() {
        TwoXpuRun run = TwoXpuRun.managed(SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, 2, 20), 20,
                LinkModel.Faults.loss(0.01), 5, null);
        long down = 1L << SueManagedInstance.Event.PORT_DOWN.ordinal();
        run.writeRegister("A", "irq", "enable", down);
        run.add(300, 300, TwoXpuRun.RANDOM);
        run.idle(1500);
        assertEquals(1, run.readRegister("A", "port1", "port_up"), "port 1 up");
        run.portUp(1, false);
        run.idle(3000); // LLR's PCS-lost timeout passes
        assertEquals(1, run.side("A").sim().peek("irq"), "port_down raised irq");
        assertEquals(down, run.readRegister("A", "irq", "status") & down);
        assertEquals(0, run.readRegister("A", "port1", "port_up"), "port 1 down");
        assertEquals(1, run.readRegister("A", "port", "up"), "port 0 up, where one port has it");
        run.portUp(1, true);
        TwoXpuRun.Result r = run.run(0, 0, 200_000, c -> { });
        assertTrue(r.ok(), "delivered once, in order, credits back, stores empty: " + r);
        for (String side : new String[] {"A", "B"}) {
            Map<String, Long> bus = readStatusOverTheBus(run, side);
            assertTrue(bus.get("p1_port_went_down") >= 1 && bus.get("route_moves") >= 2, side + ": port 1 went"
                    + " down and its route moved away and back");
            assertTrue(bus.get("p0_llr_rx_ok") > 0 && bus.get("p1_llr_rx_ok") > 0 && bus.get("p1_net_frames_good") > 0,
                    side + ": each port's LLR and framing counters");
        }
    }

    /**
     * Every status register of {@code side} read through its management port, by status name: each lies between the
     * instance's own value just before and just after the reads (equal to it when it did not move).
     */
    private static Map<String, Long> readStatusOverTheBus(TwoXpuRun run, String side) {
        Map<String, Long> before = new java.util.HashMap<>();
        run.statusNames(side).forEach(n -> before.put(n, run.peek(side, n)));
        Map<String, Long> bus = run.readStatus(side);
        for (Map.Entry<String, Long> e : bus.entrySet()) {
            long after = run.peek(side, e.getKey());
            assertTrue(e.getValue() == after || e.getValue() == before.get(e.getKey()) || before.get(e.getKey())
                    <= e.getValue() && e.getValue() <= after, side + " " + e.getKey() + ": read " + e.getValue()
                    + ", the instance had " + before.get(e.getKey()) + " and " + after);
        }
        return bus;
    }

    /**
     * A destination that stops answering raises the interrupt when the transport gives up on it, and again when it
     * answers a probe; each time the status says which event, and a write of 1 clears it.
     */
    @Test
    void theTransportGivingUpAndComingBackRaiseTheInterrupt() {
        TwoXpuRun run = TwoXpuRun.managed(FaultScenarios.deadDestinationConfig(), 20, LinkModel.Faults.NONE, 3, null);
        long down = 1L << SueManagedInstance.Event.DST_DOWN.ordinal();
        long up = 1L << SueManagedInstance.Event.DST_UP.ordinal();
        run.writeRegister("A", "irq", "enable", down | up);
        run.side("B").frozen(true);
        run.add(40, 0, TwoXpuRun.fixed(256));
        assertTrue(untilIrq(run, 100_000), "the transport gave up on B and raised irq");
        assertEquals(down, run.readRegister("A", "irq", "status") & (down | up));
        assertTrue(run.readRegister("A", "tp_tx", "destinations_lost") >= 1);
        run.writeRegister("A", "irq", "status", down);
        run.idle(2);
        assertEquals(0, run.side("A").sim().peek("irq"), "cleared");
        run.side("B").frozen(false);
        assertTrue(untilIrq(run, 100_000), "B answered a probe and raised irq");
        assertEquals(up, run.readRegister("A", "irq", "status") & (down | up));
    }

    /**
     * A raw frame written through the bus leaves on the MAC stream padded and with its FCS (java.util.zip.CRC32's),
     * tuser 0; sent back in from the MAC it is read back through the bus, raising {@code raw_rx} in irq. A frame of an
     * EtherType no entry lists goes on to the instance, which drops and counts it; once software lists its
     * EtherType, such frames go to the buffer.
     */
    @Test
    void aRawFrameLeavesWithItsFcsAndComesBackWhole() {
        List<StreamMonitor.Packet> toMac = new ArrayList<>();
        new StreamMonitor(sim, "m_axis", null).onPacket(toMac::add);
        write("irq", "status", 0xff);
        sim.poke("m_axis_tready", 1);
        byte[] arp = RawFrames.arpRequest(0x02_00_00_00_00_01L, 0x0A00_0001L, 0x0A00_0002L);
        RawFrames.words(arp).forEach(w -> write("raw_tx", "data", w));
        write("raw_tx", "send", arp.length);
        for (int c = 0; c < 40; c++) {
            bus.cycle(RND);
        }
        assertEquals(1, toMac.size(), "one frame to the MAC");
        byte[] wire = toMac.get(0).bytes();
        assertArrayEquals(RawFrames.onTheWire(arp), wire, "padded, with its FCS");
        assertEquals(BigInteger.ZERO, toMac.get(0).user(), "no sequence number, not a flow-control frame");
        assertEquals(1, read("raw_tx", "frames"));

        byte[] other = wire.clone();
        other[12] = (byte) 0x88; // 0x88B5: a frame of another format, to no one here
        other[13] = (byte) 0xB5;
        other = RawFrames.onTheWire(Arrays.copyOf(other, 60));
        long unknownBefore = read("net", "drops_unknown_ethertype");
        fromMac(wire, other);
        assertEquals(1L << SueManagedInstance.Event.RAW_RX.ordinal(), read("irq", "status")
                & (1L << SueManagedInstance.Event.RAW_RX.ordinal()), "a raw frame arrived");
        assertArrayEquals(Arrays.copyOf(arp, 60), receiveRaw(), "the frame, padding and all, without its FCS");
        assertEquals(null, receiveRaw(), "the unlisted EtherType went to the instance");
        assertEquals(unknownBefore + 1, read("net", "drops_unknown_ethertype"));

        write("raw_rx", "filter_2", 0x1_88B5); // enable, EtherType 0x88B5
        fromMac(other);
        assertArrayEquals(Arrays.copyOf(other, 60), receiveRaw(), "listed now");
        assertEquals(2, read("raw_rx", "frames"));
        assertEquals(0, read("raw_rx", "bad") + read("raw_rx", "full"));
        write("raw_rx", "filter_2", 0);
    }

    /**
     * A write to a counter clears it as software sees it: it reads 0, then counts on from there; the instance's own
     * count runs on, and the write is no write to a read-only register. (Last: the other tests compare counters
     * read over the bus with the instance's own.)
     */
    @Test
    @Order(Integer.MAX_VALUE)
    void aWriteClearsACounterAndTheCountGoesOn() {
        byte[] other = RawFrames.arpRequest(1, 2, 3);
        other[12] = (byte) 0x88; // 0x88B5: to no one here
        other[13] = (byte) 0xB5;
        byte[] wire = RawFrames.onTheWire(other);
        fromMac(wire, wire);
        long own = sim.peek("sue.net_drops_unknown_ethertype");
        assertTrue(own >= 2);
        assertEquals(own, read("net", "drops_unknown_ethertype"));
        long roWrites = read("mgmt", "ro_writes");
        write("net", "drops_unknown_ethertype", 0);
        assertEquals(0, read("net", "drops_unknown_ethertype"), "cleared");
        fromMac(wire);
        assertEquals(1, read("net", "drops_unknown_ethertype"), "counting from the clear");
        assertEquals(own + 1, sim.peek("sue.net_drops_unknown_ethertype"), "the instance's own count runs on");
        assertEquals(roWrites, read("mgmt", "ro_writes"), "a counter is writable");
    }

    /** With software away, raw frames fill the buffer; the rest are dropped and counted, and SUE frames still pass. */
    @Test
    void aFullRawBufferDropsAndCounts() {
        byte[] frame = RawFrames.onTheWire(Arrays.copyOf(RawFrames.arpRequest(1, 2, 3), 200));
        long before = read("raw_rx", "frames");
        long fullBefore = read("raw_rx", "full");
        byte[][] frames = new byte[40][];
        Arrays.fill(frames, frame);
        fromMac(frames);
        long kept = read("raw_rx", "frames") - before;
        long dropped = read("raw_rx", "full") - fullBefore;
        assertEquals(40, kept + dropped);
        assertTrue(dropped > 0 && kept >= 8, "kept " + kept + ", dropped " + dropped);
        for (long n = 0; n < kept; n++) {
            assertArrayEquals(Arrays.copyOf(frame, 200), receiveRaw());
        }
        assertEquals(null, receiveRaw());
    }

    /**
     * Two managed instances with SUE traffic both ways: an ARP request software at A sends arrives in B's receive
     * buffer byte for byte, and the traffic is delivered whole around it.
     */
    @Test
    void aRawFrameCrossesFromAToBBetweenSueFrames() {
        TwoXpuRun run = TwoXpuRun.managed(SmallInstance.withCbfc(HeaderFormat.ETH_IPV4_UDP).withLlr(
                SmallInstance.llr(50)), 30, LinkModel.Faults.NONE, 5, null);
        run.add(100, 100, TwoXpuRun.RANDOM);
        run.idle(300); // traffic under way
        byte[] arp = RawFrames.arpRequest(0x02_00_00_00_00_01L, 0x0A00_0001L, 0x0A00_0002L);
        run.sendRaw("A", arp);
        run.idle(200);
        assertArrayEquals(Arrays.copyOf(arp, 60), run.receiveRaw("B"));
        assertEquals(null, run.receiveRaw("A"), "nothing came back");
        TwoXpuRun.Result r = run.run(0, 0, 100_000, c -> { });
        assertTrue(r.ok(), "the SUE traffic delivered whole: " + r);
        assertEquals(1, run.readRegister("B", "raw_rx", "frames"));
    }

    private static void fromMac(byte[]... frames) {
        StreamSource mac = new StreamSource(sim, "s_axis");
        for (byte[] f : frames) {
            mac.add(f, BigInteger.ZERO);
        }
        for (int c = 0; c < 40 * frames.length; c++) {
            mac.drive(RND, 100);
            mac.advance();
            bus.cycle(RND);
        }
    }

    private static byte[] receiveRaw() {
        int length = RawFrames.length(read("raw_rx", "head"));
        if (length < 0) {
            return null;
        }
        byte[] frame = new byte[length];
        for (int k = 0; 4 * k < length; k++) {
            RawFrames.put(frame, k, read("raw_rx", "data"));
        }
        return frame;
    }

    private static boolean untilIrq(TwoXpuRun run, long maxCycles) {
        for (long c = 0; c < maxCycles; c++) {
            if (run.side("A").sim().peek("irq") == 1) {
                return true;
            }
            run.idle(1);
        }
        return false;
    }
}
