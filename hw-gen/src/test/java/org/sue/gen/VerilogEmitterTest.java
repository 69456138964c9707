package org.sue.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Hw;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.Tag;
import org.sue.core.Wire;
import org.sue.lib.stream.SyncFifo;

/** Structure and names of the emitted Verilog. */
class VerilogEmitterTest {
    record LeafConfig(@Tag("w") int width) {
    }

    static final class Leaf extends Component {
        final Port a;
        final Port y;

        Leaf(int width) {
            super(new LeafConfig(width));
            a = in("a", width);
            y = out("y", width);
            Reg r = reg("held", width, 0);
            r.set(a.add(1));
            y.set(r);
        }
    }

    static final class Parent extends Component {
        Parent() {
            Port in = in("in_word", 8);
            Port wide = in("wide_in", 16);
            Leaf one = child("one", new Leaf(8));
            Leaf two = child("two", new Leaf(8));
            Leaf other = child("other", new Leaf(16));
            one.a.set(in);
            two.a.set(one.y);
            other.a.set(wide);
            Wire sum = wire("sum", two.y.xor(in));
            Mem lookup = mem("lookup", 16, 8, ReadUnderWrite.READ_FIRST);
            lookup.write(in.bit(0), in.bits(4, 1), sum);
            out("q", 8).set(lookup.readSync("lookup_q", sum.bits(3, 0), Hw.bool(true)));
            out("q_wide", 16).set(other.y);
        }
    }

    @Test
    void oneModulePerComponentTypeAndNamesSurvive(@TempDir Path dir) throws Exception {
        VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(new Parent()), dir);
        Set<String> names = new TreeSet<>();
        r.files().forEach(f -> names.add(f.getFileName().toString()));
        assertEquals(Set.of("Parent.v", "Leaf_w8.v", "Leaf_w16.v"), names, "two Leaf_w8 instances share one module");
        String parent = Files.readString(dir.resolve("Parent.v"));
        assertTrue(parent.contains("Leaf_w8 one ("), parent);
        assertTrue(parent.contains("Leaf_w8 two ("));
        assertTrue(parent.contains("Leaf_w16 other ("));
        assertTrue(Pattern.compile("reg \\[7:0\\] lookup \\[0:15\\];").matcher(parent).find(), "memory named as in Java");
        assertTrue(parent.contains("wire       [7:0]    sum;"), "named wire");
        assertTrue(parent.contains("lookup_q"), "named memory read port");
        assertTrue(Files.readString(dir.resolve("Leaf_w8.v")).contains("reg        [7:0]    held;"), "named register");
        List<String> lines = Files.readAllLines(r.fileList());
        assertEquals(3, lines.size());
    }

    /**
     * A library user's program sees nothing of SpinalHDL's printing unless it asks: its lines go to Scala's
     * {@code Console.out}, which the test points at a buffer of its own around the emission.
     */
    @Test
    void quietUnlessVerboseIsAskedFor(@TempDir Path dir) {
        assertEquals("", spinalPrints(dir.resolve("quiet")), "nothing printed by default");
        System.setProperty(VerilogEmitter.VERBOSE, "true");
        try {
            String printed = spinalPrints(dir.resolve("verbose"));
            assertTrue(printed.contains("[Progress]") && printed.contains("[Done]"), printed);
        } finally {
            System.clearProperty(VerilogEmitter.VERBOSE);
        }
    }

    private static String spinalPrints(Path dir) {
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        scala.Console$.MODULE$.withOut(printed, () -> VerilogEmitter.emit(Design.elaborate(new Leaf(8)), dir));
        return printed.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** No generated name on a port, register, memory or named wire of any default design. */
    @Test
    void generatedNamesOnlyOnTemporaries(@TempDir Path dir) throws Exception {
        for (var e : DefaultDesigns.all().entrySet()) {
            Component top = e.getValue().get();
            VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(top), dir.resolve(e.getKey()));
            String v = Files.readString(dir.resolve(e.getKey()).resolve(r.topModule() + ".v"));
            Matcher ports = Pattern.compile("(?m)^\\s*(input|output)\\s+wire\\s+(\\[[^]]*\\]\\s+)?(\\w+)").matcher(v);
            int portCount = 0;
            while (ports.find()) {
                assertFalse(ports.group(3).startsWith("_zz_"), "port " + ports.group(3));
                portCount++;
            }
            assertEquals(top.ports().size() + 2, portCount, "every port plus clk and rst");
            Matcher regs = Pattern.compile("(?m)^\\s*(\\w+) <= ").matcher(v);
            while (regs.find()) {
                assertFalse(regs.group(1).startsWith("_zz_"), "register " + regs.group(1) + " in " + e.getKey());
            }
            for (Reg reg : top.regs()) {
                assertTrue(v.contains(" " + reg.name() + ";"), "register " + reg.name() + " keeps its name");
            }
            for (Wire w : top.wires()) {
                assertTrue(v.contains(" " + w.name() + ";"), "wire " + w.name() + " keeps its name");
            }
            for (Mem m : top.mems()) {
                assertTrue(v.contains(" " + m.name() + " [0:"), "memory " + m.name() + " keeps its name");
            }
        }
    }

    @Test
    void conditionsAreSignalsOrWrittenInline(@TempDir Path dir) throws Exception {
        VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(new SyncFifo(new SyncFifo.Config(8, 4))), dir);
        String v = Files.readString(r.files().get(0));
        assertTrue(v.contains("if(write) begin"), "a 1-bit signal is the condition itself:\n" + v);
        assertTrue(v.contains("if((push_valid && full)) begin"), "an expression read once stays inline:\n" + v);
        assertFalse(v.contains("when_"), "no when_<File>_l<line> wire:\n" + v);
    }
}
