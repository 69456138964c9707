package org.sue.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.Wire;
import org.sue.lib.stream.SyncFifo;

/** Hierarchy, memories, switch, size limits and waveforms of the JVM simulator. */
class StructureSimTest {
    static final class TwoFifos extends Component {
        final Port inValid = in("in_valid", 1);
        final Port inData = in("in_data", 72);
        final Port outValid = out("out_valid", 1);
        final Port outData = out("out_data", 72);

        TwoFifos() {
            SyncFifo a = child("first", new SyncFifo(new SyncFifo.Config(72, 4)));
            SyncFifo b = child("second", new SyncFifo(new SyncFifo.Config(72, 4)));
            a.push.valid().set(inValid);
            a.push.data().set(inData);
            b.push.valid().set(a.pop.valid());
            b.push.data().set(a.pop.data());
            a.pop.ready().set(b.push.ready());
            b.pop.ready().set(Hw.bool(true));
            outValid.set(b.pop.valid());
            outData.set(b.pop.data());
        }
    }

    @Test
    void dataFlowsThroughChildrenInOrder() {
        Simulator sim = Simulator.compile(Design.elaborate(new TwoFifos()));
        sim.reset();
        List<BigInteger> sent = new ArrayList<>();
        List<BigInteger> got = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            boolean v = i < 40 && i % 3 != 0;
            BigInteger d = BigInteger.valueOf(i).shiftLeft(60).add(BigInteger.valueOf(i * 3L));
            sim.poke("in_valid", v ? 1 : 0);
            sim.poke("in_data", d);
            if (v) {
                sent.add(d);
            }
            if (sim.peek("out_valid") == 1) {
                got.add(sim.peekBig("out_data"));
            }
            sim.step();
        }
        assertEquals(sent, got);
        assertEquals(0, sim.peek("first.level"), "child signals are visible by relative path");
    }

    static final class RamPair extends Component {
        RamPair() {
            Port we = in("we", 1);
            Port addr = in("addr", 3);
            Port data = in("data", 100);
            for (ReadUnderWrite rdw : ReadUnderWrite.values()) {
                Mem m = mem("ram_" + rdw.name().toLowerCase(), 8, 100, rdw);
                m.write(we, addr, data);
                out("q_" + rdw.name().toLowerCase(), 100).set(m.readSync("rd_" + rdw.name().toLowerCase(), addr, Hw.bool(true)));
            }
        }
    }

    /** Every input in one call, as a replay writes them: the same run as port by port; a misfit fails naming it. */
    @Test
    void allInputsAtOnceActAsPortByPort() {
        Simulator byPort = Simulator.compile(Design.elaborate(new TwoFifos()));
        Simulator atOnce = Simulator.compile(Design.elaborate(new TwoFifos()));
        byPort.reset();
        atOnce.reset();
        List<String> names = atOnce.design().top().ports().stream().map(Port::name).toList();
        long[][] out = atOnce.newPortBuffers();
        long[][] expected = byPort.newPortBuffers();
        java.util.Random rnd = new java.util.Random(5);
        for (int i = 0; i < 50; i++) {
            long valid = rnd.nextInt(2);
            long[] data = {rnd.nextLong(), rnd.nextInt(256)};
            byPort.poke("in_valid", valid);
            byPort.poke(byPort.signal("in_data").id(), data);
            long[][] values = new long[names.size()][];
            values[names.indexOf("in_valid")] = new long[] {valid};
            values[names.indexOf("in_data")] = data;
            atOnce.pokePorts(values);
            byPort.peekPorts(expected);
            atOnce.peekPorts(out);
            assertTrue(java.util.Arrays.deepEquals(expected, out), "cycle " + i);
            byPort.step();
            atOnce.step();
        }
        long[][] tooWide = new long[names.size()][];
        tooWide[names.indexOf("in_data")] = new long[] {0, 0x100};
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> atOnce.pokePorts(tooWide));
        assertTrue(e.getMessage().contains("in_data' (72 bits"), e.getMessage());
    }

    @Test
    void readDuringWriteFollowsTheDeclaredPolicy() {
        Simulator sim = Simulator.compile(Design.elaborate(new RamPair()));
        sim.reset();
        sim.poke("we", 1);
        sim.poke("addr", 5);
        sim.poke("data", BigInteger.ONE.shiftLeft(99).add(BigInteger.TWO));
        sim.step();
        assertEquals(BigInteger.ZERO, sim.peekBig("q_read_first"), "read-first returns the old word");
        assertEquals(BigInteger.ONE.shiftLeft(99).add(BigInteger.TWO), sim.peekBig("q_write_first"));
        sim.poke("we", 0);
        sim.step();
        assertEquals(BigInteger.ONE.shiftLeft(99).add(BigInteger.TWO), sim.peekBig("q_read_first"));
        assertEquals(BigInteger.ONE.shiftLeft(99).add(BigInteger.TWO), sim.peekBig("q_write_first"));
    }

    static final class Decoder extends Component {
        Decoder() {
            Port sel = in("sel", 3);
            Port y = out("y", 8);
            Wire w = wire("w", 8);
            w.set(0xff);
            switchOn(sel)
                    .is(0, () -> w.set(1))
                    .is(1, () -> w.set(2))
                    .is(5, () -> w.set(0x20))
                    .otherwise(() -> w.set(0x80));
            when(sel.eq(7), () -> w.set(0x77)); // last assignment wins
            y.set(w);
        }
    }

    @Test
    void switchAndLastAssignmentWins() {
        Simulator sim = Simulator.compile(Design.elaborate(new Decoder()));
        long[] expect = {1, 2, 0x80, 0x80, 0x80, 0x20, 0x80, 0x77};
        for (int s = 0; s < 8; s++) {
            sim.poke("sel", s);
            assertEquals(expect[s], sim.peek("y"), "sel=" + s);
        }
    }

    /** Thousands of registers and adders: generated code far beyond one method's 64 KB must still compile. */
    static final class BigChain extends Component {
        BigChain(int n) {
            Port in = in("d", 16);
            Expr prev = in;
            for (int i = 0; i < n; i++) {
                Reg r = reg("r" + i, 16, i & 0xffff);
                r.set(prev.add(i & 0xffff).xor(r));
                prev = r;
            }
            out("q", 16).set(prev);
        }
    }

    @Test
    void largeDesignsAreSplitIntoManyMethods() {
        int n = 4000;
        Design d = Design.elaborate(new BigChain(n));
        String src = Simulator.generatedSource(d);
        assertTrue(src.length() > 200_000, "the test design generates a big model");
        Simulator sim = Simulator.compile(d);
        sim.reset();
        sim.poke("d", 3);
        // reference: same recurrence in plain Java
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            r[i] = i & 0xffff;
        }
        for (int c = 0; c < 20; c++) {
            assertEquals(r[n - 1], sim.peek("q"), "cycle " + c);
            long[] next = new long[n];
            for (int i = 0; i < n; i++) {
                long prev = i == 0 ? 3 : r[i - 1];
                next[i] = ((prev + (i & 0xffff)) & 0xffff) ^ r[i];
            }
            r = next;
            sim.step();
        }
    }

    /** A wide value of many inlined parts: its statement would be one method too large for HotSpot to compile. */
    static final class ManyParts extends Component {
        ManyParts() {
            Port data = in("data", 64);
            Port count = in("count", 4);
            out("fields", 7 * DifferentialSimTest.MANY_PARTS).set(Hw.cat(DifferentialSimTest.manyParts(data, count,
                    8)));
        }
    }

    @Test
    void aWideValueOfManyPartsStaysInMethodsHotSpotCompiles() {
        String src = Simulator.generatedSource(Design.elaborate(new ManyParts()));
        // inlined, these 96 parts made one statement of 6,643 characters (the 2-port instance had one of 18,511, a
        // method over HotSpot's limit of 8,000 bytes of bytecode, so it ran interpreted for ever)
        int longest = src.lines().mapToInt(String::length).max().orElseThrow();
        assertTrue(longest < 3000, "longest line of the generated model: " + longest + " characters");
    }

    @Test
    void vcdHasScopesAndValueChanges(@TempDir Path dir) throws Exception {
        Simulator sim = Simulator.compile(Design.elaborate(new TwoFifos()));
        Path vcd = dir.resolve("w.vcd");
        sim.vcd(vcd);
        sim.reset();
        sim.poke("in_valid", 1);
        sim.poke("in_data", 0x1234);
        sim.step(5);
        sim.close();
        String text = Files.readString(vcd);
        assertTrue(text.contains("$scope module TwoFifos $end"));
        assertTrue(text.contains("$scope module first $end"));
        assertTrue(text.contains(" in_data [71:0] $end"));
        assertTrue(text.contains("$enddefinitions $end"));
        assertTrue(text.contains("#45"), "five cycles were dumped");
        assertTrue(text.contains("b1001000110100 "), "in_data's value appears in binary");
    }
}
