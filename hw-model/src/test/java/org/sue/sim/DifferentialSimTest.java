package org.sue.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.ResetStyle;
import org.sue.lib.stream.Keep;

/**
 * Random designs built from the shapes the real blocks use, with the lane and memory structure the simulator's
 * optimisations look for (byte-lane memories with per-lane addresses and enables, thermometer keeps, byte masks,
 * lane multiplexers, wide and narrow memories of both read-under-write kinds, registers with and without reset in
 * when-blocks, a child component), plus random expressions around them; the compiled simulator must equal
 * {@link ReferenceSimulator} on every signal and every memory word, every cycle, under random inputs and resets,
 * with spans of held inputs in which the activity-driven evaluation skips the partitions that did not change.
 */
class DifferentialSimTest {

    /** A random block: {@code lanes} byte lanes over a small storage, and random logic around it. */
    static final class LaneBlock extends Component {
        final List<Port> inputs = new ArrayList<>();
        private final Random rnd;
        private final List<Expr> leaves = new ArrayList<>();

        LaneBlock(Random rnd, int lanes) {
            this.rnd = rnd;
            int bus = lanes * 8;
            int depth = 2 + rnd.nextInt(20);
            int aw = Hw.log2Up(depth);
            int cw = Hw.log2Up(lanes + 2);
            Port data = input("data", bus);
            Port other = input("other", bus);
            Port count = input("count", cw);
            Port addrA = input("addr_a", aw);
            Port addrB = input("addr_b", aw);
            Port sel = input("sel", lanes);
            Port write = input("write", 1);
            Port read = input("read", 1);
            Port pick = input("pick", 1);

            // lane masks: thermometer keep from a count, its byte mask, a lane multiplexer under that mask
            Expr keep = Keep.below(count, lanes);
            out("keep", lanes).set(keep);
            Expr byteMask = Keep.byteMask(keep);
            List<Expr> laneMux = new ArrayList<>();
            for (int l = lanes - 1; l >= 0; l--) {
                laneMux.add(Hw.mux(keep.bit(l), data.bits(8 * l + 7, 8 * l), other.bits(8 * l + 7, 8 * l)));
            }
            Expr merged = Hw.cat(laneMux);
            out("merged", bus).set(merged.xor(data.and(byteMask)));

            // byte-lane memories: per-lane addresses chosen by a lane bit, per-lane write enables, shared read enable
            List<Expr> laneRead = new ArrayList<>();
            Expr wsel = rnd.nextBoolean() ? sel : keep;
            int readAddressing = rnd.nextInt(3); // one address for all lanes, or a choice of two by sel or by keep
            Expr rsel = readAddressing == 1 ? sel : keep;
            for (int l = 0; l < lanes; l++) {
                Mem m = mem("lane_" + l, depth, 8, ReadUnderWrite.READ_FIRST);
                Expr wAddr = Hw.mux(wsel.bit(l), addrA, addrB);
                Expr wEn = write.and(rnd.nextInt(4) == 0 ? sel.bit(l).not() : keep.bit(l).or(pick));
                m.write(wEn, wAddr, data.bits(8 * l + 7, 8 * l));
                Expr rAddr = readAddressing == 0 ? addrB : Hw.mux(rsel.bit(l), addrB, addrA);
                laneRead.add(m.readSync("read_" + l, rAddr, read));
            }
            java.util.Collections.reverse(laneRead);
            Expr lanesOut = Hw.cat(laneRead);
            out("lanes_out", bus).set(lanesOut);

            // a header's per-lane fields: small arithmetic parts of 7 bits, so many that the simulator computes
            // them into fields of their own before the concatenation (SimCompiler.hoistInlinedArgs)
            out("fields", 7 * MANY_PARTS).set(Hw.cat(manyParts(data, count, lanes)));

            // a wide write-first memory and a narrow one written under a when
            Mem wide = mem("wide", depth, bus + 1 + rnd.nextInt(70), ReadUnderWrite.WRITE_FIRST);
            wide.write(write.and(pick), addrA, Hw.cat(lanesOut, count.resize(wide.width() - bus)));
            out("wide_out", wide.width()).set(wide.readSync("wide_read", addrB, read.or(pick)));
            Mem narrow = mem("narrow", depth, 1 + rnd.nextInt(64), ReadUnderWrite.READ_FIRST);
            when(pick, () -> narrow.write(addrB, merged.resize(narrow.width())));
            out("narrow_out", narrow.width()).set(narrow.readSync("narrow_read", addrA, Hw.bool(true)));

            // registers with and without reset under when/otherwise
            Reg acc = reg("acc", bus, BigInteger.ONE.shiftLeft(bus - 1));
            Reg held = regNoReset("held", cw);
            when(write, () -> acc.set(acc.xor(lanesOut)))
                    .elseWhen(pick, () -> acc.set(merged))
                    .otherwise(() -> held.set(count));
            out("acc_out", bus).set(acc);
            out("held_out", cw).set(held.add(count));

            // random logic over all of it, in a child and here
            leaves.addAll(List.of(data, other, count, addrA, sel, lanesOut, merged, acc, held, keep));
            // registers over random logic, some held by an enable, some counting, some read by the next values of
            // the registers after them: both ways the clock edge updates a register (SimCompiler.emitRegisters)
            for (int k = 0; k < 6; k++) {
                int w = RandomExpressionSimTest.WIDTHS[rnd.nextInt(RandomExpressionSimTest.WIDTHS.length)];
                Reg r = k % 2 == 0 ? reg("rand_" + k, w, new BigInteger(w, rnd)) : regNoReset("rand_" + k, w);
                Expr next = k % 3 == 2 ? r.add(1) : gen(w, 2);
                when(gen(1, 1).orR(), () -> r.set(next));
                leaves.add(r);
                out("rand_out_" + k, w).set(r);
            }
            Adder child = child("adder", new Adder(bus));
            child.a.set(acc);
            child.b.set(lanesOut.shl(8).or(keep.resize(bus)));
            out("sum", bus).set(child.sum);
            for (int k = 0; k < 4; k++) {
                int w = RandomExpressionSimTest.WIDTHS[rnd.nextInt(RandomExpressionSimTest.WIDTHS.length)];
                Expr e = Hw.mux(lanesOut.bit(k), gen(w, 3), merged.resize(w).xor(Hw.lit(w, new BigInteger(w, rnd))));
                out("logic_" + k, w).set(e);
            }
        }

        /** A random expression of width w over the block's signals. */
        private Expr gen(int w, int depth) {
            if (depth == 0) {
                Expr leaf = leaves.get(rnd.nextInt(leaves.size()));
                return rnd.nextInt(4) == 0 ? Hw.lit(w, new BigInteger(w, rnd)) : leaf.resize(w);
            }
            int d = depth - 1;
            switch (rnd.nextInt(9)) {
                case 0: return gen(w, d).and(gen(w, d));
                case 1: return gen(w, d).or(gen(w, d).not());
                case 2: return gen(w, d).xor(gen(w, d));
                case 3: return gen(w, d).add(gen(w, d));
                case 4: return gen(w, d).sub(gen(w, d)).shr(rnd.nextInt(w));
                case 5: return Hw.mux(gen(1, d).orR(), gen(w, d), gen(w, d));
                case 6: {
                    Expr src = leaves.get(rnd.nextInt(leaves.size()));
                    int lo = rnd.nextInt(src.width());
                    return src.bits(src.width() - 1, lo).resize(w);
                }
                case 7: return gen(w, d).eq(gen(w, d)).resize(w);
                default: return w == 1 ? gen(1, d).xorR() : Hw.cat(gen(w - w / 2, d), gen(w / 2, d));
            }
        }

        private Port input(String name, int width) {
            Port p = in(name, width);
            inputs.add(p);
            return p;
        }
    }

    static final class Adder extends Component {
        final Port a;
        final Port b;
        final Port sum;

        Adder(int width) {
            a = in("a", width);
            b = in("b", width);
            sum = out("sum", width);
            Reg r = reg("r", width, 0);
            r.set(a.add(b));
            sum.set(r.sub(a));
        }
    }

    static final int MANY_PARTS = 96;

    /** {@value #MANY_PARTS} 7-bit parts, each a choice between sums of one of the bus's bytes. */
    static List<Expr> manyParts(Expr data, Expr count, int lanes) {
        List<Expr> parts = new ArrayList<>();
        for (int k = 0; k < MANY_PARTS; k++) {
            Expr lane = data.bits(8 * (k % lanes) + 7, 8 * (k % lanes));
            Expr half = lane.add(0x25 + k).shr(1).bits(6, 0);
            parts.add(Hw.mux(count.eq(k % (1 << count.width())), half, Hw.mux(lane.msb(), half.xor(0x15), 0x2d)));
        }
        return parts;
    }

    /** Seeds above 10 compile with the narrow temporaries and dirty flags packed into arrays, as large designs are. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
    void compiledSimulatorEqualsReferenceEveryCycle(long seed) {
        Random rnd = new Random(seed);
        int lanes = new int[] {1, 3, 8, 9, 16, 24}[rnd.nextInt(6)];
        ResetStyle style = ResetStyle.values()[rnd.nextInt(ResetStyle.values().length)];
        LaneBlock block = new LaneBlock(rnd, lanes);
        List<Port> inputs = new ArrayList<>(block.inputs);
        for (Port p : block.ports()) {
            if (p.isInput() && !inputs.contains(p)) {
                inputs.add(p); // the random expressions' own inputs
            }
        }
        Design design = Design.elaborate(block, style);
        Simulator sim = seed > 10 ? Simulator.compilePacked(design) : Simulator.compile(design);
        ReferenceSimulator ref = new ReferenceSimulator(design);
        List<Mem> mems = new ArrayList<>();
        design.components().forEach(c -> mems.addAll(c.mems()));

        for (int cycle = 0; cycle < 160; cycle++) {
            // every fourth span of 10 cycles holds every input: the design settles, and the activity-driven
            // evaluation skips what did not change (ActivityPartition)
            boolean quiet = cycle % 40 >= 30;
            boolean reset = cycle < 2 || (!quiet && rnd.nextInt(40) == 0);
            sim.setReset(reset);
            ref.setReset(reset);
            for (Port p : inputs) {
                if (quiet || (cycle > 0 && rnd.nextInt(3) == 0)) {
                    continue; // inputs that keep their value: unchanged parts of the design
                }
                BigInteger v = switch (rnd.nextInt(6)) {
                    case 0 -> BigInteger.ZERO;
                    case 1 -> ReferenceOps.mask(p.width());
                    default -> new BigInteger(p.width(), rnd);
                };
                sim.poke(p.name(), v);
                ref.poke(p, v);
            }
            for (SimSignal s : sim.signals()) {
                assertEquals(ref.value(s.signal()).toString(16), sim.peekBig(s.id()).toString(16),
                        "seed " + seed + ", " + style + ", cycle " + cycle + ": " + s.path());
            }
            sim.step();
            ref.step();
            if (cycle % 20 == 19) {
                for (Mem m : mems) {
                    for (int a = 0; a < m.depth(); a++) {
                        assertEquals(ref.readMem(m, a), toBig(sim.readMem(m, a)),
                                "seed " + seed + ", cycle " + cycle + ": " + m.path() + "[" + a + "]");
                    }
                }
            }
        }
    }

    private static BigInteger toBig(long[] words) {
        BigInteger v = BigInteger.ZERO;
        for (int i = words.length - 1; i >= 0; i--) {
            v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(words[i])));
        }
        return v;
    }
}
