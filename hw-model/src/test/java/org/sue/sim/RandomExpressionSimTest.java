package org.sue.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sue.core.Component;
import org.sue.core.Const;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Op;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Signal;

/**
 * Random expression trees over widths 1..1024 (including 63, 64, 65, 144), simulated by the compiled JVM model and
 * evaluated independently with BigInteger arithmetic straight from the operator definitions.
 */
class RandomExpressionSimTest {
    static final int[] WIDTHS = {1, 3, 7, 63, 64, 65, 127, 144, 1024};

    static final class RandomDesign extends Component {
        final List<Port> inputs = new ArrayList<>();
        final List<Expr> exprs = new ArrayList<>();
        final List<Port> outputs = new ArrayList<>();
        final List<Reg> regs = new ArrayList<>();
        final List<Expr> regNext = new ArrayList<>();
        private final Random rnd;

        RandomDesign(long seed, int count) {
            rnd = new Random(seed);
            for (int w : WIDTHS) {
                inputs.add(in("i" + w, w));
                inputs.add(in("j" + w, w));
            }
            for (int k = 0; k < count; k++) {
                int w = WIDTHS[rnd.nextInt(WIDTHS.length)];
                Expr e = gen(w, 4);
                exprs.add(e);
                Port o = out("o" + k, w);
                o.set(e);
                outputs.add(o);
            }
            // registers fed by expressions of inputs and of themselves (state through the clock edge)
            for (int k = 0; k < 6; k++) {
                int w = WIDTHS[rnd.nextInt(WIDTHS.length)];
                Reg r = reg("r" + k, w, BigInteger.ONE.shiftLeft(w - 1));
                regs.add(r);
            }
            for (int k = 0; k < regs.size(); k++) {
                Reg r = regs.get(k);
                Expr next = r.xor(gen(r.width(), 3)).add(regs.get((k + 1) % regs.size()).resize(r.width()));
                regNext.add(next);
                r.set(next);
                out("q" + k, r.width()).set(r);
            }
        }

        private Port input(int w) {
            for (Port p : inputs) {
                if (p.width() == w && rnd.nextBoolean()) {
                    return p;
                }
            }
            for (Port p : inputs) {
                if (p.width() == w) {
                    return p;
                }
            }
            return null;
        }

        Expr gen(int w, int depth) {
            if (depth == 0) {
                Port p = input(w);
                if (p != null && rnd.nextInt(5) > 0) {
                    return p;
                }
                if (rnd.nextBoolean()) {
                    return Hw.lit(w, new BigInteger(w, rnd));
                }
                int src = WIDTHS[rnd.nextInt(WIDTHS.length)];
                return input(src).resize(w);
            }
            int d = depth - 1;
            switch (rnd.nextInt(w == 1 ? 16 : 12)) {
                case 0: return gen(w, d).and(gen(w, d));
                case 1: return gen(w, d).or(gen(w, d));
                case 2: return gen(w, d).xor(gen(w, d));
                case 3: return gen(w, d).not();
                case 4: return gen(w, d).add(gen(w, d));
                case 5: return gen(w, d).sub(gen(w, d));
                case 6: return rnd.nextBoolean() ? gen(w, d).shl(rnd.nextInt(w + 2)) : gen(w, d).shr(rnd.nextInt(w + 2));
                case 7: {
                    Expr amount = gen(rnd.nextInt(4) == 0 ? 65 : 1 + rnd.nextInt(11), 0);
                    return rnd.nextBoolean() ? gen(w, d).shl(amount) : gen(w, d).shr(amount);
                }
                case 8: return Hw.mux(gen(1, d), gen(w, d), gen(w, d));
                case 9: {
                    if (w == 1) {
                        return gen(1, d);
                    }
                    int split = 1 + rnd.nextInt(w - 1);
                    return Hw.cat(gen(w - split, d), gen(split, d));
                }
                case 10: {
                    int src = WIDTHS[rnd.nextInt(WIDTHS.length)];
                    if (src < w) {
                        return gen(src, d).resize(w);
                    }
                    int lo = rnd.nextInt(src - w + 1);
                    return gen(src, d).bits(lo + w - 1, lo);
                }
                case 11: return gen(WIDTHS[rnd.nextInt(WIDTHS.length)], d).resize(w);
                case 12: {
                    int src = WIDTHS[rnd.nextInt(WIDTHS.length)];
                    Expr a = gen(src, d);
                    Expr b = gen(src, d);
                    return switch (rnd.nextInt(6)) {
                        case 0 -> a.eq(b);
                        case 1 -> a.ne(b);
                        case 2 -> a.lt(b);
                        case 3 -> a.le(b);
                        case 4 -> a.gt(b);
                        default -> a.ge(b);
                    };
                }
                case 13: return gen(WIDTHS[rnd.nextInt(WIDTHS.length)], d).andR();
                case 14: return gen(WIDTHS[rnd.nextInt(WIDTHS.length)], d).orR();
                default: {
                    // the parity-of-masked-bus form a parallel CRC uses
                    int src = WIDTHS[rnd.nextInt(WIDTHS.length)];
                    return gen(src, d).and(Hw.lit(src, new BigInteger(src, rnd))).xorR();
                }
            }
        }
    }

    /** Reference semantics, straight from the operator definitions. */
    static BigInteger eval(Expr e, Map<Signal, BigInteger> env) {
        if (e instanceof Const c) {
            return c.value();
        }
        if (e instanceof Signal s) {
            return env.get(s);
        }
        Op op = (Op) e;
        int w = op.width();
        BigInteger mask = BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE);
        List<BigInteger> a = new ArrayList<>();
        for (Expr x : op.args()) {
            a.add(eval(x, env));
        }
        BigInteger a0 = a.get(0);
        int w0 = op.arg(0).width();
        BigInteger m0 = BigInteger.ONE.shiftLeft(w0).subtract(BigInteger.ONE);
        return switch (op.kind()) {
            case AND -> a0.and(a.get(1));
            case OR -> a0.or(a.get(1));
            case XOR -> a0.xor(a.get(1));
            case NOT -> a0.xor(mask);
            case ADD -> a0.add(a.get(1)).and(mask);
            case SUB -> a0.subtract(a.get(1)).and(mask);
            case EQ -> bool(a0.equals(a.get(1)));
            case NE -> bool(!a0.equals(a.get(1)));
            case LT -> bool(a0.compareTo(a.get(1)) < 0);
            case LE -> bool(a0.compareTo(a.get(1)) <= 0);
            case GT -> bool(a0.compareTo(a.get(1)) > 0);
            case GE -> bool(a0.compareTo(a.get(1)) >= 0);
            case SHL -> a0.shiftLeft(op.p0()).and(mask);
            case SHR -> a0.shiftRight(op.p0());
            case SHL_VAR -> a.get(1).compareTo(BigInteger.valueOf(w)) >= 0 ? BigInteger.ZERO
                    : a0.shiftLeft(a.get(1).intValue()).and(mask);
            case SHR_VAR -> a.get(1).compareTo(BigInteger.valueOf(w)) >= 0 ? BigInteger.ZERO
                    : a0.shiftRight(a.get(1).intValue());
            case MUX -> a0.signum() != 0 ? a.get(1) : a.get(2);
            case CONCAT -> {
                BigInteger v = BigInteger.ZERO;
                for (int i = 0; i < a.size(); i++) {
                    v = v.shiftLeft(op.arg(i).width()).or(a.get(i));
                }
                yield v;
            }
            case SLICE -> a0.shiftRight(op.p1()).and(mask);
            case RESIZE -> a0.and(mask);
            case AND_R -> bool(a0.equals(m0));
            case OR_R -> bool(a0.signum() != 0);
            case XOR_R -> BigInteger.valueOf(a0.bitCount() & 1);
        };
    }

    static BigInteger bool(boolean b) {
        return b ? BigInteger.ONE : BigInteger.ZERO;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void compiledModelMatchesBigIntegerSemantics(long seed) {
        RandomDesign d = new RandomDesign(seed, 40);
        Simulator sim = Simulator.compile(Design.elaborate(d));
        Random rnd = new Random(seed * 31);
        Map<Signal, BigInteger> env = new HashMap<>();
        for (Reg r : d.regs) {
            env.put(r, r.resetValue());
        }
        sim.reset();
        for (int cycle = 0; cycle < 40; cycle++) {
            for (Port p : d.inputs) {
                BigInteger v = new BigInteger(p.width(), rnd);
                if (rnd.nextInt(8) == 0) {
                    v = BigInteger.ONE.shiftLeft(p.width()).subtract(BigInteger.ONE); // all ones: carries, masks
                }
                env.put(p, v);
                sim.poke(p.name(), v);
            }
            for (int k = 0; k < d.exprs.size(); k++) {
                assertEquals(eval(d.exprs.get(k), env), sim.peekBig("o" + k),
                        "seed " + seed + " cycle " + cycle + " output o" + k + " = " + d.exprs.get(k));
            }
            for (int k = 0; k < d.regs.size(); k++) {
                assertEquals(env.get(d.regs.get(k)), sim.peekBig("q" + k), "register r" + k + " cycle " + cycle);
            }
            List<BigInteger> next = new ArrayList<>();
            for (Expr e : d.regNext) {
                next.add(eval(e, env));
            }
            for (int k = 0; k < d.regs.size(); k++) {
                env.put(d.regs.get(k), next.get(k));
            }
            sim.step();
        }
    }
}
