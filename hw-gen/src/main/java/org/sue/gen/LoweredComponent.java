package org.sue.gen;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.sue.core.Component;
import org.sue.core.Const;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Mem;
import org.sue.core.MemRead;
import org.sue.core.MemWrite;
import org.sue.core.Op;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.ResetStyle;
import org.sue.core.Signal;
import org.sue.core.SourceLoc;
import org.sue.core.Stmt;
import org.sue.core.Wire;
import scala.runtime.BoxedUnit;
import spinal.core.ASYNC$;
import spinal.core.BitCount;
import spinal.core.Bool;
import spinal.core.ClockDomain;
import spinal.core.ClockDomain$;
import spinal.core.ClockDomainConfig;
import spinal.core.ClockDomainConfig$;
import spinal.core.DataPimper;
import spinal.core.HIGH$;
import spinal.core.HardType$;
import spinal.core.LOW$;
import spinal.core.Mux$;
import spinal.core.RISING$;
import spinal.core.SYNC$;
import spinal.core.U$;
import spinal.core.UInt;
import spinal.core.WhenContext;
import spinal.core.in$;
import spinal.core.out$;
import spinal.core.package$;
import spinal.core.readFirst$;
import spinal.core.when$;
import spinal.idslplugin.Location;

/**
 * One of our components rebuilt as a SpinalHDL component. Every signal is a UInt named as in Java; 1-bit values are
 * UInt(1) too and become Bool only where SpinalHDL needs a condition. The when/otherwise structure is kept, so the
 * Verilog reads like the Java. Expressions are built before any when block: SpinalHDL assigns an operator's result
 * in the scope where it is created, and a value shared across branches must not be assigned in one of them.
 */
final class LoweredComponent extends spinal.core.Component {
    private final Component source;
    private final Design design;
    private final ClockUse clocks;
    private final Map<Signal, UInt> signals = new IdentityHashMap<>();
    private final Map<Expr, UInt> lowered = new IdentityHashMap<>();
    final Bool clk;
    final Bool rst;
    private final HdlLanguage language;
    /** Numbers the wires that hold an expression of which only some bits are read (see {@link #spill}). */
    private int spilled;

    LoweredComponent(Component source, Design design, ClockUse clocks, HdlLanguage language) {
        this.source = source;
        this.design = design;
        this.clocks = clocks;
        this.language = language;
        setDefinitionName(source.moduleName(), false);
        ResetStyle style = design.resetStyle();
        clk = clocks.needsClock(source) ? named(in$.MODULE$.apply(package$.MODULE$.Bool(BoxedUnit.UNIT)), ResetStyle.CLOCK) : null;
        rst = clocks.needsReset(source) ? named(in$.MODULE$.apply(package$.MODULE$.Bool(BoxedUnit.UNIT)), style.portName()) : null;
        for (Port p : source.ports()) {
            UInt u = p.isInput() ? in$.MODULE$.apply(uint(p.width())) : out$.MODULE$.apply(uint(p.width()));
            signals.put(p, named(u, p.name()));
        }
        for (Component child : source.children()) {
            LoweredComponent lc = new LoweredComponent(child, design, clocks, language);
            lc.postInitCallback();
            lc.setName(child.instanceName(), false);
            for (Port p : child.ports()) {
                signals.put(p, lc.signals.get(p));
            }
            if (lc.clk != null) {
                lc.clk.$colon$eq(clk, loc(child.createdAt()));
            }
            if (lc.rst != null) {
                lc.rst.$colon$eq(rst, loc(child.createdAt()));
            }
        }
        if (clk != null) {
            clockDomain(style).apply(() -> {
                build();
                return BoxedUnit.UNIT;
            });
        } else {
            build();
        }
    }

    /** The component of ours this one was built from. */
    Component source() {
        return source;
    }

    private ClockDomain clockDomain(ResetStyle style) {
        ClockDomainConfig cfg = ClockDomainConfig$.MODULE$.apply(RISING$.MODULE$,
                style.async() ? ASYNC$.MODULE$ : SYNC$.MODULE$, style.activeHigh() ? HIGH$.MODULE$ : LOW$.MODULE$,
                ClockDomainConfig$.MODULE$.apply$default$4(), ClockDomainConfig$.MODULE$.apply$default$5());
        return ClockDomain$.MODULE$.apply(clk, rst, ClockDomain$.MODULE$.apply$default$3(),
                ClockDomain$.MODULE$.apply$default$4(), ClockDomain$.MODULE$.apply$default$5(), cfg,
                ClockDomain$.MODULE$.apply$default$7(), ClockDomain$.MODULE$.apply$default$8());
    }

    private void build() {
        for (Reg r : source.regs()) {
            UInt u = uint(r.width());
            u.setAsReg();
            named(u, r.name());
            if (r.hasReset()) {
                new DataPimper<>(u).init(constant(r.resetValue(), r.width()));
            }
            signals.put(r, u);
        }
        for (Wire w : source.wires()) {
            UInt u = named(uint(w.width()), w.name());
            if (w.name().startsWith("unused_")) {
                u.allowPruning(); // Component.unused(): nothing reads it, by design; SpinalHDL drops it silently
            }
            signals.put(w, u);
        }
        for (Mem m : source.mems()) {
            lowerMem(m);
        }
        lowerAll(source.body());
        emit(source.body());
    }

    private void lowerMem(Mem m) {
        spinal.core.Mem<UInt> mem = spinal.core.Mem$.MODULE$.apply(HardType$.MODULE$.apply(() -> uint(m.width())),
                m.depth());
        mem.setName(m.name(), false);
        MemWrite w = m.write();
        if (w != null) {
            mem.write(lower(w.address()), lower(w.data()), bool(lower(w.enable())), null);
        }
        for (MemRead r : m.reads()) {
            // Verilog: read and write in one always block, old data out (read-first). SpinalHDL's VHDL back end
            // refuses readFirst; with dontCare it writes the read in its own clocked process, which reads the signal
            // before the same edge's write lands, i.e. also the old data.
            spinal.core.ReadUnderWritePolicy policy = language == HdlLanguage.VHDL ? spinal.core.dontCare$.MODULE$
                    : readFirst$.MODULE$;
            UInt q = mem.readSync(lower(r.address()), bool(lower(r.enable())), policy, false);
            signals.put(r, named(q, r.name()));
        }
    }

    // ---- statements --------------------------------------------------------------------------------------------------

    /** Builds every expression of the body at the component's top scope (see class comment). */
    private void lowerAll(List<Stmt> stmts) {
        for (Stmt s : stmts) {
            if (s instanceof Stmt.Assign a) {
                lower(a.value());
            } else if (s instanceof Stmt.When w) {
                lower(w.cond());
                lowerAll(w.then());
                lowerAll(w.otherwise());
            }
        }
    }

    private void emit(List<Stmt> stmts) {
        for (Stmt s : stmts) {
            if (s instanceof Stmt.Assign a) {
                signals.get(a.target()).$colon$eq(lowered.get(a.value()), loc(a.loc()));
            } else if (s instanceof Stmt.When w) {
                WhenContext ctx = when$.MODULE$.apply(bool(lowered.get(w.cond())), block(w.then()), loc(w.loc()));
                List<Stmt> rest = w.otherwise();
                // an otherwise holding exactly one when is an elseWhen: keep the chain flat
                while (rest.size() == 1 && rest.get(0) instanceof Stmt.When next) {
                    ctx = ctx.elsewhen(bool(lowered.get(next.cond())), block(next.then()), loc(next.loc()));
                    rest = next.otherwise();
                }
                if (!rest.isEmpty()) {
                    ctx.otherwise(block(rest));
                }
            }
        }
    }

    private scala.Function0<BoxedUnit> block(List<Stmt> stmts) {
        return () -> {
            emit(stmts);
            return BoxedUnit.UNIT;
        };
    }

    // ---- expressions -------------------------------------------------------------------------------------------------

    private UInt lower(Expr e) {
        UInt done = lowered.get(e);
        if (done != null) {
            return done;
        }
        UInt u;
        if (e instanceof Const c) {
            u = constant(c.value(), c.width());
        } else if (e instanceof Signal s) {
            u = signals.get(s);
            if (u == null) {
                throw new IllegalStateException("Verilog back end: " + s.path() + " is not visible in "
                        + source.path());
            }
        } else {
            u = lowerOp((Op) e);
        }
        lowered.put(e, u);
        return u;
    }

    private UInt lowerOp(Op op) {
        List<Expr> a = op.args();
        int w = op.width();
        return switch (op.kind()) {
            case AND -> lower(a.get(0)).$amp(lower(a.get(1)));
            case OR -> lower(a.get(0)).$bar(lower(a.get(1)));
            case XOR -> lower(a.get(0)).$up(lower(a.get(1)));
            case NOT -> lower(a.get(0)).unary_$tilde();
            case ADD -> lower(a.get(0)).$plus(lower(a.get(1)));
            case SUB -> lower(a.get(0)).$minus(lower(a.get(1)));
            case EQ -> lower(a.get(0)).$eq$eq$eq(lower(a.get(1))).asUInt();
            case NE -> lower(a.get(0)).$eq$div$eq(lower(a.get(1))).asUInt();
            case LT -> lower(a.get(0)).$less(lower(a.get(1))).asUInt();
            case LE -> lower(a.get(0)).$less$eq(lower(a.get(1))).asUInt();
            case GT -> lower(a.get(0)).$greater(lower(a.get(1))).asUInt();
            case GE -> lower(a.get(0)).$greater$eq(lower(a.get(1))).asUInt();
            case SHL -> lower(a.get(0)).$bar$less$less(op.p0());
            case SHR -> lower(a.get(0)).$bar$greater$greater(op.p0());
            case SHL_VAR -> lower(a.get(0)).$bar$less$less(shiftAmount(a.get(1), w));
            case SHR_VAR -> lower(a.get(0)).$bar$greater$greater(shiftAmount(a.get(1), w));
            case MUX -> Mux$.MODULE$.apply(bool(lower(a.get(0))), lower(a.get(1)), lower(a.get(2)));
            case CONCAT -> concat(a);
            case SLICE -> slice(a.get(0), op.p0(), op.p1());
            case RESIZE -> a.get(0).width() > w ? lowerLow(a.get(0), w) : lower(a.get(0)).resize(w);
            case AND_R -> lower(a.get(0)).andR().asUInt();
            case OR_R -> lower(a.get(0)).orR().asUInt();
            case XOR_R -> lower(a.get(0)).xorR().asUInt();
        };
    }

    private final Map<Expr, Map<Integer, UInt>> loweredLow = new IdentityHashMap<>();

    /**
     * The low {@code w} bits of e. Truncation is pushed down through operators whose low bits depend only on their
     * operands' low bits (bitwise, add, sub, mux, concat, left shift), so no intermediate wire is built whose high
     * bits nobody reads (lint flags those).
     */
    private UInt lowerLow(Expr e, int w) {
        if (w == e.width()) {
            return lower(e);
        }
        UInt done = loweredLow.computeIfAbsent(e, k -> new java.util.HashMap<>()).get(w);
        if (done != null) {
            return done;
        }
        UInt u;
        if (e instanceof Const c) {
            u = constant(c.value().and(java.math.BigInteger.ONE.shiftLeft(w).subtract(java.math.BigInteger.ONE)), w);
        } else if (e instanceof Op op) {
            List<Expr> a = op.args();
            u = switch (op.kind()) {
                case AND -> lowerLow(a.get(0), w).$amp(lowerLow(a.get(1), w));
                case OR -> lowerLow(a.get(0), w).$bar(lowerLow(a.get(1), w));
                case XOR -> lowerLow(a.get(0), w).$up(lowerLow(a.get(1), w));
                case NOT -> lowerLow(a.get(0), w).unary_$tilde();
                case ADD -> lowerLow(a.get(0), w).$plus(lowerLow(a.get(1), w));
                case SUB -> lowerLow(a.get(0), w).$minus(lowerLow(a.get(1), w));
                case MUX -> Mux$.MODULE$.apply(bool(lower(a.get(0))), lowerLow(a.get(1), w), lowerLow(a.get(2), w));
                case SHL -> op.p0() >= w ? constant(java.math.BigInteger.ZERO, w)
                        : lowerLow(a.get(0), w).$bar$less$less(op.p0());
                case RESIZE -> a.get(0).width() >= w ? lowerLow(a.get(0), w) : lower(a.get(0)).resize(w);
                case SLICE -> slice(a.get(0), op.p1() + w - 1, op.p1());
                case CONCAT -> lowerLowConcat(a, w);
                case SHR -> sliceOfExtension(a.get(0), op.p0() + w - 1, op.p0());
                case SHL_VAR -> lowerLow(a.get(0), w).$bar$less$less(shiftAmount(a.get(1), w));
                default -> spill(e).apply(0, new BitCount(w));
            };
        } else {
            u = lower(e).resize(w);
        }
        loweredLow.get(e).put(w, u);
        return u;
    }

    private UInt lowerLowConcat(List<Expr> parts, int w) {
        // parts are most significant first; keep the low ones that fit, truncating the one that straddles w
        List<UInt> kept = new java.util.ArrayList<>();
        int have = 0;
        for (int i = parts.size() - 1; i >= 0 && have < w; i--) {
            Expr p = parts.get(i);
            int take = Math.min(p.width(), w - have);
            kept.add(0, lowerLow(p, take));
            have += take;
        }
        return cat(kept);
    }

    private UInt concat(List<Expr> parts) {
        List<UInt> lowered = new java.util.ArrayList<>();
        for (Expr p : parts) {
            lowered.add(lower(p));
        }
        return cat(lowered);
    }

    /** One Verilog concatenation {a, b, c} (most significant first), not a chain of pairs. */
    private static UInt cat(List<UInt> msbFirst) {
        if (msbFirst.size() == 1) {
            return msbFirst.get(0);
        }
        List<spinal.core.Data> lsbFirst = new java.util.ArrayList<>(msbFirst);
        java.util.Collections.reverse(lsbFirst);
        return spinal.core.Cat$.MODULE$.apply(scala.jdk.javaapi.CollectionConverters.asScala(lsbFirst)).asUInt();
    }

    private final Map<Expr, Map<Long, UInt>> slices = new IdentityHashMap<>();

    /**
     * x[hi:lo]. Verilog cannot slice an expression, so SpinalHDL would put it in a wire whose other bits nobody
     * reads (lint flags those): the slice is pushed into concatenations and bitwise operators instead, and taken
     * directly on signals.
     */
    private UInt slice(Expr x, int hi, int lo) {
        int w = hi - lo + 1;
        if (lo == 0) {
            return lowerLow(x, w);
        }
        if (x instanceof Signal) {
            return lower(x).apply(lo, new BitCount(w));
        }
        long key = (long) hi << 32 | lo;
        UInt done = slices.computeIfAbsent(x, k -> new java.util.HashMap<>()).get(key);
        if (done != null) {
            return done;
        }
        UInt u;
        if (x instanceof Op op) {
            List<Expr> a = op.args();
            u = switch (op.kind()) {
                case AND -> slice(a.get(0), hi, lo).$amp(slice(a.get(1), hi, lo));
                case OR -> slice(a.get(0), hi, lo).$bar(slice(a.get(1), hi, lo));
                case XOR -> slice(a.get(0), hi, lo).$up(slice(a.get(1), hi, lo));
                case NOT -> slice(a.get(0), hi, lo).unary_$tilde();
                case MUX -> Mux$.MODULE$.apply(bool(lower(a.get(0))), slice(a.get(1), hi, lo), slice(a.get(2), hi, lo));
                case SLICE -> slice(a.get(0), op.p1() + hi, op.p1() + lo);
                case RESIZE -> sliceOfExtension(a.get(0), hi, lo);
                case CONCAT -> sliceOfConcat(a, hi, lo);
                case SHR -> sliceOfExtension(a.get(0), hi + op.p0(), lo + op.p0());
                case SHL -> sliceOfShiftedLeft(a.get(0), op.p0(), hi, lo);
                // the low hi+1 bits of a sum or of a left shift are the sum or shift of the operands' low bits
                case ADD, SUB, SHL_VAR -> spill(x, hi + 1).apply(lo, new BitCount(w));
                default -> spill(x).apply(lo, new BitCount(w));
            };
        } else {
            // a constant: the bits themselves (slicing a literal would put it in a wire first)
            java.math.BigInteger bits = ((Const) x).value().shiftRight(lo);
            u = constant(bits.and(java.math.BigInteger.ONE.shiftLeft(w).subtract(java.math.BigInteger.ONE)), w);
        }
        slices.get(x).put(key, u);
        return u;
    }

    /** Bits [hi:lo] of a zero-extended value. */
    private UInt sliceOfExtension(Expr y, int hi, int lo) {
        int yw = y.width();
        if (hi < yw) {
            return slice(y, hi, lo);
        }
        if (lo >= yw) {
            return constant(java.math.BigInteger.ZERO, hi - lo + 1);
        }
        return cat(List.of(constant(java.math.BigInteger.ZERO, hi - yw + 1), slice(y, yw - 1, lo)));
    }

    /** Bits [hi:lo] of y << k (within y's width; the caller's slice is inside it). */
    private UInt sliceOfShiftedLeft(Expr y, int k, int hi, int lo) {
        if (hi < k) {
            return constant(java.math.BigInteger.ZERO, hi - lo + 1);
        }
        if (lo >= k) {
            return slice(y, hi - k, lo - k);
        }
        return cat(List.of(slice(y, hi - k, 0), constant(java.math.BigInteger.ZERO, k - lo)));
    }

    private final Map<Expr, Map<Integer, UInt>> spills = new IdentityHashMap<>();

    /** The whole of e in a wire named {@code unused_bits_N}: see {@link #spill(Expr, int)}. */
    private UInt spill(Expr e) {
        return spill(e, e.width());
    }

    /**
     * The low w bits of e in a wire of their own, for a slice that cannot be pushed into e's operands (a variable
     * right shift, the upper bits of a sum, ...). Verilog cannot slice an expression, so some wire must hold bits
     * that nobody reads; SpinalHDL would call it {@code _zz_x} and Verilator's -Wall flags it (UNUSEDSIGNAL). Its
     * name matches Verilator's default {@code --unused-regexp} ({@code *unused*}), which says the unread bits are
     * intended.
     */
    private UInt spill(Expr e, int w) {
        UInt done = spills.computeIfAbsent(e, k -> new java.util.HashMap<>()).get(w);
        if (done != null) {
            return done;
        }
        UInt wire = uint(w);
        wire.setName("unused_bits_" + spilled++, true);
        wire.$colon$eq(lowerLow(e, w), loc(e.loc()));
        spills.get(e).put(w, wire);
        return wire;
    }

    /** Bits [hi:lo] of a concatenation: the overlapping pieces of the parts, concatenated. */
    private UInt sliceOfConcat(List<Expr> partsMsbFirst, int hi, int lo) {
        List<UInt> pieces = new java.util.ArrayList<>();
        int top = 0;
        for (Expr p : partsMsbFirst) {
            top += p.width();
        }
        for (Expr p : partsMsbFirst) {
            int partLo = top - p.width(); // bit position of the part's bit 0 in the whole
            int from = Math.max(lo, partLo);
            int to = Math.min(hi, top - 1);
            if (from <= to) {
                pieces.add(slice(p, to - partLo, from - partLo));
            }
            top = partLo;
        }
        return cat(pieces);
    }

    /**
     * A variable shift amount narrowed to what the width needs: SpinalHDL sizes a shift by the amount's range, so a
     * wide amount would build a huge intermediate. Amounts of width or more all shift everything out.
     */
    private UInt shiftAmount(Expr amount, int width) {
        int need = Hw.log2Up(width + 1L);
        UInt amt = lower(amount);
        if (amount.width() <= need) {
            return amt;
        }
        Bool tooFar = amt.$greater$eq(constant(java.math.BigInteger.valueOf(width), amount.width()));
        return Mux$.MODULE$.apply(tooFar, constant(java.math.BigInteger.valueOf(width), need), amt.resize(need));
    }

    // ---- helpers -----------------------------------------------------------------------------------------------------

    private static UInt uint(int width) {
        return package$.MODULE$.UInt(new BitCount(width));
    }

    private static UInt constant(java.math.BigInteger value, int width) {
        return (UInt) U$.MODULE$.apply(scala.math.BigInt$.MODULE$.apply(value), new BitCount(width));
    }

    private static Bool bool(UInt oneBit) {
        return oneBit.apply(0);
    }

    private static <T extends spinal.core.Nameable> T named(T t, String name) {
        t.setName(name, false);
        return t;
    }

    private static Location loc(SourceLoc l) {
        return new Location(l.file(), l.line(), 0);
    }
}
