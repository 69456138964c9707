package org.sue.verilator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.gen.HdlLanguage;
import org.sue.gen.VerilogEmitter;
import org.sue.sim.Simulator;

/**
 * 1-bit values are lowered as SpinalHDL Bools (plain wires, {@code && || !}), with their own rules for what a Bool
 * lacks (sums and differences, order, shifts, extension, memories of 1-bit words) and comparisons that the operands'
 * range decides folded to constants. The golden vectors barely touch those rules; here every one of them runs on
 * random inputs in the JVM simulation and in Verilator, cycle by cycle, and the Verilog is lint-clean and the VHDL
 * GHDL-clean.
 */
class OneBitLoweringTest {
    static final Path OUT = Path.of("target", "one-bit").toAbsolutePath();

    static final class OneBitOps extends Component {
        OneBitOps() {
            Port a = in("a", 1);
            Port b = in("b", 1);
            Port c = in("c", 1);
            Port n = in("n", 4);
            Port m = in("m", 4);
            Port s1 = in("s1", 1);
            Port s3 = in("s3", 3);
            out("bitwise", 3).set(Hw.cat(a.and(b).or(c.not()), a.xor(b), Hw.mux(c, a, b)));
            out("arith", 2).set(Hw.cat(a.add(b), a.sub(b)));
            out("order", 6).set(Hw.cat(a.eq(b), a.ne(b), a.lt(b), a.le(b), a.gt(b), a.ge(b)));
            Expr wide = n.resize(6);
            // decided by n's range (true, false, true, false, true) and one that is not (n == 0)
            out("decided", 6).set(Hw.cat(wide.lt(Hw.lit(6, 20)), Hw.lit(6, 15).lt(wide), wide.ge(Hw.lit(6, 0)),
                    wide.eq(Hw.lit(6, 16)), wide.ne(Hw.lit(6, 33)), n.eq(0)));
            out("shifts", 4).set(Hw.cat(a.shl(s1), a.shr(s3), b.shl(m), c.shr(s1)));
            out("wide_shifts", 8).set(Hw.cat(n.shl(s1), n.shr(s1)));
            out("extended", 8).set(a.resize(8).add(n.resize(8)).add(Hw.cat(b, c).resize(8)));
            out("low_bits", 3).set(Hw.cat(n.add(m).resize(1), n.sub(m).bit(2), n.shl(s1).bit(0)));
            out("reductions", 6).set(Hw.cat(a.andR(), a.orR(), a.xorR(), n.andR(), n.orR(), n.xorR()));

            Reg flag = reg("flag", 1, 1);
            Reg count = reg("count", 4, 0);
            Reg last = regNoReset("last", 1);
            Expr fire = a.and(b); // read by two whens: a named condition
            when(fire, () -> flag.set(c)).elseWhen(c.and(n.bit(0)), () -> flag.set(0));
            when(fire, () -> {
                count.set(count.add(1));
                last.set(a.xor(c));
            });
            out("flag_q", 1).set(flag);
            out("count_q", 4).set(count);
            out("last_q", 1).set(last);

            Mem flags = mem("flags", 8, 1, ReadUnderWrite.READ_FIRST); // 1-bit words
            flags.write(c, n.bits(2, 0), a.xor(b));
            out("flag_read", 1).set(flags.readSync("flags_q", m.bits(2, 0), Hw.bool(true)));
            Mem pair = mem("pair", 2, 4, ReadUnderWrite.READ_FIRST); // a 1-bit address
            pair.write(b, a, n);
            out("pair_read", 4).set(pair.readSync("pair_q", c, s1));
        }
    }

    @Test
    void everyOneBitRuleAgreesWithTheJvmSimulation() throws Exception {
        Design design = Design.elaborate(new OneBitOps());
        VerilogEmitter.Result v = VerilogEmitter.emit(design, OUT.resolve("verilog"));
        assertEquals(List.of(), VerilatorLint.lint(v.files(), v.topModule()), "lint of " + v.files());
        String text = Files.readString(v.files().get(0));
        assertTrue(text.contains("  input  wire          a,"), "a 1-bit port is a plain wire:\n" + text);
        assertTrue(text.contains("  reg                 flag;"), "a 1-bit register is a plain reg:\n" + text);

        Path manifest = OUT.resolve("one_bit_ops.json");
        Files.createDirectories(OUT);
        Random rnd = new Random(5);
        try (Simulator sim = Simulator.compile(design)) {
            sim.record(manifest);
            sim.setReset(true);
            sim.step(2);
            sim.setReset(false);
            for (int cycle = 0; cycle < 600; cycle++) {
                for (String p : List.of("a", "b", "c", "s1")) {
                    sim.poke(p, rnd.nextInt(2));
                }
                sim.poke("n", rnd.nextInt(16));
                sim.poke("m", rnd.nextInt(16));
                sim.poke("s3", rnd.nextInt(8));
                sim.step();
            }
        }
        ReplayResult r = VerilatorReplay.replay(v.files(), v.topModule(), manifest, Set.of(), OUT.resolve("waves"));
        assertTrue(r.passed(), r.mismatchCount() + " mismatches, first: " + r.firstMismatches() + "; waveform "
                + r.waveform());
        assertEquals(602, r.cycles(), "every cycle replayed");

        VerilogEmitter.Result h = VerilogEmitter.emit(design, OUT.resolve("vhdl"), HdlLanguage.VHDL);
        List<String> ghdl = Ghdl.check(h.files(), h.topModule());
        assertEquals(List.of(), ghdl, "GHDL on " + h.files());
    }
}
