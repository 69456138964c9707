package org.sue.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Hw;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.ResetStyle;

/**
 * Emitted files are lint-clean one by one ({@code verilator --lint-only -Wall}, called directly: hw-gen cannot use
 * verilator-tb's runner), deterministic, follow the reset style, and slices of expressions leave no {@code _zz_}
 * wire with unread bits.
 */
class EmissionLintTest {
    static boolean haveVerilator;

    @BeforeAll
    static void findVerilator() {
        try {
            haveVerilator = new ProcessBuilder("verilator", "--version").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            haveVerilator = false;
        }
    }

    /** Lints one module: its own file, the other files of the emission found through -y. */
    static List<String> lint(Path file, String module) throws Exception {
        Assumptions.assumeTrue(haveVerilator, "verilator not on PATH");
        Process p = new ProcessBuilder("verilator", "--lint-only", "-Wall", "-y", file.getParent().toString(),
                "--top-module", module, file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        List<String> warnings = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("%Warning") || line.startsWith("%Error")) {
                warnings.add(line);
            }
        }
        return warnings;
    }

    static void assertEveryFileLintClean(VerilogEmitter.Result r) throws Exception {
        for (Path f : r.files()) {
            String module = f.getFileName().toString().replace(".v", "");
            assertEquals(List.of(), lint(f, module), "lint of " + f);
        }
    }

    static final class Counter extends Component {
        Counter() {
            Port enable = in("enable", 1);
            Reg value = reg("value", 8, 0);
            Reg stamp = regNoReset("stamp", 8);
            when(enable, () -> value.set(value.add(1))).otherwise(() -> stamp.set(value));
            out("count", 8).set(value);
            out("last", 8).set(stamp);
        }
    }

    /** Slices of expressions that Verilog cannot slice directly. */
    static final class Slices extends Component {
        Slices() {
            Port a = in("a", 64);
            Port s = in("s", 6);
            out("var_shr", 8).set(a.shr(s).bits(15, 8));
            out("sum_hi", 8).set(a.add(a).bits(40, 33));
            out("shr_low", 8).set(a.add(a).shr(3).bits(7, 0));
            out("shl_mid", 8).set(a.shl(s).bits(7, 0).xor(a.shl(5).bits(12, 5)));
            out("top_bits", 3).set(a.shr(62).resize(3));
            out("const_bits", 8).set(Hw.lit(65, 0x1234_5678L).xor(a.resize(65)).bits(39, 32)
                    .xor(Hw.lit(65, 0xabcdefL).bits(15, 8)));
        }
    }

    @Test
    void counterAndSlicesAreLintCleanAndDeterministic(@TempDir Path dir) throws Exception {
        for (Component c : List.of(new Counter(), new Slices())) {
            Design d = Design.elaborate(c);
            VerilogEmitter.Result r1 = VerilogEmitter.emit(d, dir.resolve("one"));
            VerilogEmitter.Result r2 = VerilogEmitter.emit(Design.elaborate(c), dir.resolve("two"));
            assertEveryFileLintClean(r1);
            String v = Files.readString(r1.files().get(0));
            assertEquals(v, Files.readString(r2.files().get(0)), "same design, same bytes");
            assertFalse(v.contains("Git hash"), "no repository hash in the header");
            assertFalse(Files.exists(dir.resolve("one").resolve(r1.topModule() + ".lst")), "only our own file list");
            Matcher zz = Pattern.compile("(?m)^\\s*wire\\s+(\\[[^]]*\\]\\s+)?(_zz_\\w+);").matcher(v);
            while (zz.find()) {
                assertFalse(Pattern.compile(zz.group(2) + "\\[").matcher(v).find(),
                        "temporary " + zz.group(2) + " is sliced, so some of its bits go unread");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ResetStyle.class)
    void resetStyleShapesTheAlwaysBlocks(ResetStyle style, @TempDir Path dir) throws Exception {
        VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(new Counter(), style), dir);
        String v = Files.readString(r.files().get(0));
        assertTrue(v.contains("input  wire          " + style.portName() + ","), "reset port " + style.portName());
        assertTrue(v.contains("input  wire          clk,"), "clock port clk");
        String edge = style.activeHigh() ? "posedge " : "negedge ";
        assertEquals(style.async(), v.contains("always @(posedge clk or " + edge + style.portName() + ")"), v);
        assertTrue(v.contains(style.activeHigh() ? "if(" + style.portName() + ") begin"
                : "if(!" + style.portName() + ") begin"), "reset polarity");
        // the register without reset gets a plain clocked block of its own
        assertTrue(Pattern.compile("always @\\(posedge clk\\) begin\\s+if\\(!?enable\\) begin\\s+stamp <= value;")
                .matcher(v).find(), v);
        assertEveryFileLintClean(r);
    }

    @Test
    void memoryIsEmittedInVerilogAndVhdl(@TempDir Path dir) throws Exception {
        VerilogEmitter.Result v = VerilogEmitter.emit(Design.elaborate(new RamTop()), dir.resolve("v"));
        assertEveryFileLintClean(v);
        String text = Files.readString(dir.resolve("v").resolve("RamTop.v"));
        assertTrue(text.contains("reg [31:0] store [0:23];"), "memory named as in Java");
        assertTrue(text.contains("store_q"), "read port named as in Java");
        VerilogEmitter.Result h = VerilogEmitter.emit(Design.elaborate(new RamTop()), dir.resolve("vhdl"),
                HdlLanguage.VHDL);
        Set<String> names = new TreeSet<>();
        h.files().forEach(f -> names.add(f.getFileName().toString()));
        assertTrue(names.contains("RamTop.vhd"), names.toString());
        assertEquals(h.files().size(), Files.readAllLines(h.fileList()).size(), "file list names every file");
    }

    /** Forgets its width in moduleName(): two widths would be two different modules of one name. */
    static final class Forgetful extends Component {
        Forgetful(int width) {
            Port a = in("a", width);
            Reg r = reg("held", width, 0);
            r.set(a);
            out("y", width).set(r);
        }
    }

    static final class TwoWidths extends Component {
        TwoWidths() {
            Port a = in("a", 8);
            Forgetful narrow = child("narrow", new Forgetful(8));
            Forgetful same = child("same", new Forgetful(8));
            Forgetful wide = child("wide", new Forgetful(16));
            narrow.ports().get(0).set(a);
            same.ports().get(0).set(a.not());
            wide.ports().get(0).set(Hw.cat(a, a));
            out("y", 8).set(narrow.ports().get(1).xor(same.ports().get(1)).xor(wide.ports().get(1).bits(7, 0)));
            out("z", 8).set(wide.ports().get(1).bits(15, 8));
        }
    }

    @Test
    void aModuleNameSharedByDifferentLayoutsIsAnError(@TempDir Path dir) {
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> VerilogEmitter.emit(Design.elaborate(new TwoWidths()), dir));
        assertTrue(e.getMessage().contains("module name 'Forgetful'"), e.getMessage());
        assertTrue(e.getMessage().contains("TwoWidths.wide"), e.getMessage());
    }

    static final class RamTop extends Component {
        RamTop() {
            Port we = in("we", 1);
            Port addr = in("addr", 5);
            Port wdata = in("wdata", 32);
            Port re = in("re", 1);
            Mem ram = mem("store", 24, 32, ReadUnderWrite.READ_FIRST);
            ram.write(we, addr, wdata);
            out("rdata", 32).set(ram.readSync("store_q", addr, re));
        }
    }
}
