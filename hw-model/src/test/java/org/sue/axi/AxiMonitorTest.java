package org.sue.axi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sue.axi.tb.AxiMonitor;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Layout;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.tb.LayoutPorts;
import org.sue.sim.Simulator;

/**
 * {@link AxiMonitor} catches each AXI4 rule it stands for, with a message naming cycle, channel and rule. The design
 * is five wires ({@code t_<ch>} in, {@code s_<ch>} out), so the test plays both master and slave of the monitored
 * {@code s_} ports and can break any rule on any channel. Correct runs are the AXI4 testbenches with their monitors.
 */
class AxiMonitorTest {
    private static final AxiConfig AXI = new AxiConfig(512, 48, 4, 0, 4, false, 36, 4);
    private static final List<String> CHANNELS = List.of("aw", "w", "ar", "b", "r");

    /** The five AXI4 channels wired through: whatever the test offers on {@code t_*} appears on {@code s_*}. */
    static final class Wires extends Component {
        Wires() {
            for (String ch : CHANNELS) {
                Stream.slave(this, "t_" + ch, layout(ch)).into(Stream.master(this, "s_" + ch, layout(ch)));
            }
        }
    }

    private static Layout layout(String ch) {
        return switch (ch) {
            case "aw", "ar" -> AXI.ax();
            case "w" -> AXI.w();
            case "b" -> AXI.b();
            default -> AXI.r();
        };
    }

    /** The test's side of both ends: what each channel offers and whether it is taken, one edge at a time. */
    private static final class Bench {
        final Simulator sim = Simulator.compile(Design.elaborate(new Wires()));
        final AxiMonitor monitor;

        Bench(boolean checkBursts) {
            sim.reset();
            monitor = new AxiMonitor(sim, AXI, "s_", AXI.idWidth(), checkBursts);
        }

        Bench ax(String ch, long addr, int id, int len, int size, int burst, boolean ready) {
            return offer(ch, AXI.ax().word().set("addr", addr).set("id", id).set("len", len).set("size", size)
                    .set("burst", burst).toBigInteger(), ready);
        }

        /** A full-width INCR burst of {@code len + 1} beats at a page start. */
        Bench ax(String ch, int id, int len, boolean ready) {
            return ax(ch, 0x1000, id, len, AXI.fullSize(), AxiConfig.INCR, ready);
        }

        Bench w(long data, boolean last, boolean ready) {
            BigInteger strb = BigInteger.ONE.shiftLeft(AXI.beatBytes()).subtract(BigInteger.ONE);
            return offer("w", AXI.w().word().set("data", data).set("strb", strb).set("last", last ? 1 : 0)
                    .toBigInteger(), ready);
        }

        Bench b(int id, boolean ready) {
            return offer("b", AXI.b().word().set("id", id).toBigInteger(), ready);
        }

        Bench r(int id, boolean last, boolean ready) {
            return offer("r", AXI.r().word().set("id", id).set("last", last ? 1 : 0).toBigInteger(), ready);
        }

        Bench offer(String ch, BigInteger payload, boolean ready) {
            sim.poke("t_" + ch + "_valid", 1);
            LayoutPorts.poke(sim, "t_" + ch, layout(ch), payload);
            sim.poke("s_" + ch + "_ready", ready ? 1 : 0);
            return this;
        }

        /** The monitor at the edge, the edge, then nothing offered until the next cycle's calls say so. */
        void edge() {
            monitor.check();
            sim.step();
            for (String ch : CHANNELS) {
                sim.poke("t_" + ch + "_valid", 0);
                sim.poke("s_" + ch + "_ready", 0);
            }
        }
    }

    private static void caught(String expected, Bench bench, Runnable lastEdge) {
        AssertionError e = assertThrows(AssertionError.class, lastEdge::run);
        assertTrue(e.getMessage().startsWith("AXI4 monitor, cycle " + bench.sim.cycle() + ", "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
    }

    @Test
    void aLegalExchangePassesAndIsCounted() {
        Bench t = new Bench(true);
        t.ax("aw", 1, 1, false).edge(); // AW waits two cycles, unchanged
        t.ax("aw", 1, 1, false).w(10, false, true).edge(); // W leads its AW
        t.ax("aw", 1, 1, true).w(11, true, true).edge();
        t.w(20, true, true).edge(); // a whole W burst before its AW
        t.ax("aw", 2, 0, true).ax("ar", 3, 1, true).edge();
        t.b(1, true).ax("ar", 4, 0, true).edge();
        t.r(3, false, true).b(2, false).edge(); // B waits a cycle
        t.r(4, true, true).b(2, true).edge(); // R of ID 4 between the beats of ID 3
        t.r(3, true, false).edge();
        t.r(3, true, true).edge();
        t.monitor.assertQuiet();
        assertEquals(new AxiMonitor.Counts(2, 3, 2, 2, 3, 2), t.monitor.counts());
    }

    @Test
    void validDroppedBeforeReadyIsCaught() {
        Bench t = new Bench(false);
        t.ax("ar", 3, 0, false).edge();
        t.ax("ar", 3, 0, false).edge();
        caught("s_ar: handshake: valid dropped before ready (the beat offered since cycle 1 never moved)", t, t::edge);
    }

    @Test
    void aPayloadChangedWhileWaitingIsCaughtOnRequestAndResponseChannels() {
        Bench t = new Bench(false);
        t.ax("aw", 1, 0, true).edge();
        t.w(0xAB, false, false).edge();
        caught("s_w: handshake: s_w_data changed while waiting for ready (offered since cycle 2): 0xab -> 0xac", t,
                () -> t.w(0xAC, false, false).edge());
        Bench u = new Bench(false);
        u.ax("ar", 5, 0, true).edge();
        u.r(5, true, false).edge();
        caught("s_r: handshake: s_r_last changed while waiting for ready", u, () -> u.r(5, false, true).edge());
    }

    @Test
    void wlastEarlyLateOrOnALeadingBurstOfTheWrongLengthIsCaught() {
        Bench early = new Bench(false);
        early.ax("aw", 1, 3, true).w(0, false, true).edge();
        caught("s_w: WLAST: W beat 1 of the write of ID 1, 4 beats, taken at cycle 1 has WLAST 1; it belongs on beat "
                + "3 only", early, () -> early.w(1, true, true).edge());
        Bench late = new Bench(false);
        late.ax("aw", 1, 0, true).edge();
        caught("s_w: WLAST: W beat 0 of the write of ID 1, 1 beats", late, () -> late.w(0, false, true).edge());
        Bench leading = new Bench(false);
        leading.w(0, false, true).edge();
        leading.w(1, true, true).edge();
        caught("s_w: W beats: the W burst that led this AW had 2 beats, AWLEN + 1 is 1", leading,
                () -> leading.ax("aw", 1, 0, true).edge());
        Bench unfinished = new Bench(false);
        unfinished.w(0, false, true).edge();
        unfinished.w(1, false, true).edge();
        caught("s_w: WLAST: beat 1 of the W burst that led this AW had no WLAST", unfinished,
                () -> unfinished.ax("aw", 1, 1, true).edge());
    }

    @Test
    void aBWithoutItsWriteOrBeforeItsLastWBeatIsCaught() {
        Bench none = new Bench(false);
        caught("s_b: response ID: B with ID 3 but no write of that ID is outstanding", none,
                () -> none.b(3, true).edge());
        Bench early = new Bench(false);
        early.ax("aw", 3, 1, true).w(0, false, true).edge();
        caught("(one has its AW but not yet its last W beat)", early, () -> early.b(3, true).edge());
        Bench sameEdge = new Bench(false); // the B moves at the edge of the last W beat, not after it
        sameEdge.ax("aw", 3, 0, true).edge();
        caught("s_b: response ID: B with ID 3", sameEdge, () -> sameEdge.w(0, true, true).b(3, true).edge());
    }

    @Test
    void anRWithoutItsReadOrWithRlastMisplacedOrOutOfOrderWithinAnIdIsCaught() {
        Bench none = new Bench(false);
        none.ax("ar", 2, 0, true).edge();
        caught("s_r: response ID: R beat with ID 1 but no read of that ID is outstanding", none,
                () -> none.r(1, true, true).edge());
        Bench early = new Bench(false);
        early.ax("ar", 2, 2, true).edge();
        early.r(2, false, true).edge();
        caught("s_r: RLAST: R beat 1 of the read of ID 2, 3 beats, taken at cycle 1 has RLAST 1", early,
                () -> early.r(2, true, true).edge());
        Bench late = new Bench(false);
        late.ax("ar", 2, 0, true).edge();
        caught("s_r: RLAST: R beat 0 of the read of ID 2, 1 beats", late, () -> late.r(2, false, true).edge());
        // two reads of ID 6, the second (4 beats) answered first: its first beat lacks the first read's RLAST
        Bench order = new Bench(false);
        order.ax("ar", 6, 0, true).edge();
        order.ax("ar", 6, 3, true).edge();
        caught("s_r: RLAST: R beat 0 of the read of ID 6, 1 beats, taken at cycle 1 has RLAST 0", order,
                () -> order.r(6, false, true).edge());
    }

    @Test
    void burstsAxi4ForbidsAreCaughtWhenAskedAndPassOtherwise() {
        int full = AXI.fullSize();
        List<Object[]> bad = List.of(
                new Object[] {0x1000L, 0, full, 3, "AxBURST 3 is reserved"},
                new Object[] {0x1000L, 0, full + 1, AxiConfig.INCR,
                    "AxSIZE 7 (128 bytes) is wider than the 64-byte data bus"},
                new Object[] {0x1000L, 2, full, AxiConfig.WRAP, "WRAP of 3 beats (2, 4, 8 or 16 only)"},
                new Object[] {0x1004L, 3, full, AxiConfig.WRAP, "WRAP address not aligned to its 64-byte transfers"},
                new Object[] {0x1000L, 16, full, AxiConfig.FIXED, "FIXED of 17 beats (16 at most)"},
                new Object[] {0x1FC0L, 1, full, AxiConfig.INCR, "INCR of 2 x 64 bytes crosses a 4 KiB boundary"});
        for (Object[] c : bad) {
            for (String ch : List.of("aw", "ar")) {
                Bench checked = new Bench(true);
                caught("s_" + ch + ": burst: " + c[4] + " (address 0x" + Long.toHexString((long) c[0]), checked,
                        () -> checked.ax(ch, (long) c[0], 1, (int) c[1], (int) c[2], (int) c[3], true).edge());
                Bench lenient = new Bench(false);
                lenient.ax(ch, (long) c[0], 1, (int) c[1], (int) c[2], (int) c[3], true).edge();
                assertEquals(1, ch.equals("aw") ? lenient.monitor.counts().aw() : lenient.monitor.counts().ar());
            }
        }
        Bench edge = new Bench(true); // the last 64 bytes of a page, a WRAP of 16, FIXED of 16: all legal
        edge.ax("aw", 0x1FC0L, 1, 0, full, AxiConfig.INCR, true).ax("ar", 0x1040L, 1, 15, full, AxiConfig.WRAP, true)
                .edge();
        edge.ax("ar", 0x1004L, 2, 15, 2, AxiConfig.FIXED, true).edge();
        assertEquals(2, edge.monitor.counts().ar());
    }

    @Test
    void anythingOutstandingAtTheEndIsCaught() {
        Bench t = new Bench(false);
        t.ax("aw", 1, 1, true).ax("ar", 2, 0, true).w(0, false, true).edge();
        AssertionError e = assertThrows(AssertionError.class, t.monitor::assertQuiet);
        assertEquals("AXI4 monitor, cycle 2, s_: outstanding at the end: 1 AW without all their W beats (first: ID 1, "
                + "2 beats, taken at cycle 1); 1 reads without all their R beats", e.getMessage());
        Bench lead = new Bench(false);
        lead.w(0, true, true).edge();
        e = assertThrows(AssertionError.class, lead.monitor::assertQuiet);
        assertTrue(e.getMessage().endsWith("outstanding at the end: W beats without their AW"), e.getMessage());
        Bench unanswered = new Bench(false);
        unanswered.ax("aw", 1, 0, true).w(0, true, true).edge();
        e = assertThrows(AssertionError.class, unanswered.monitor::assertQuiet);
        assertTrue(e.getMessage().endsWith("outstanding at the end: 1 writes without their B"), e.getMessage());
    }
}
