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
import spinal.core.Bits;
import spinal.core.Bool;
import spinal.core.ClockDomain;
import spinal.core.ClockDomain$;
import spinal.core.ClockDomainConfig;
import spinal.core.ClockDomainConfig$;
import spinal.core.Data;
import spinal.core.DataPimper;
import spinal.core.HIGH$;
import spinal.core.HardType$;
import spinal.core.LOW$;
import spinal.core.Mux$;
import spinal.core.SpinalEnum;
import spinal.core.SpinalEnumCraft;
import spinal.core.SpinalEnumElement;
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
 * One of our components rebuilt as a SpinalHDL component. Every signal is named as in Java; a 1-bit signal or value
 * is a {@link Bool} (so it is emitted as a plain {@code wire}/{@code reg}, used directly as a condition, and combined
 * with {@code && || !}), a wider one a {@link UInt}; a Bool is cast to a UInt only where an operator needs a vector.
 * The when/otherwise structure is kept, so the Verilog reads like the Java. Expressions are built before any when
 * block: SpinalHDL assigns an operator's result in the scope where it is created, and a value shared across branches
 * must not be assigned in one of them.
 *
 * <p>Temporaries: SpinalHDL writes a value read once inline and puts one read in several places in a {@code _zz_}
 * wire. Constants and bits of signals are therefore built again for every use; a value that still needs a wire is
 * named after what it computes or the signal it lands in ({@link #nameTemporaries}), an operand of a memory port
 * after the port ({@link #portOperand}). No name depends on a Java line. A memory of 1-bit words or with a 1-bit
 * address keeps {@code [0:0]} ranges: SpinalHDL writes memory words and addresses as vectors.
 */
final class LoweredComponent extends spinal.core.Component {
    private final Component source;
    private final Design design;
    private final ClockUse clocks;
    private final StateEnums enums;
    /** State registers ({@link org.sue.core.State}) as SpinalHDL enums; {@link #signals} holds their value as bits. */
    private final Map<Reg, SpinalEnumCraft<SpinalEnum>> states = new IdentityHashMap<>();
    private final Map<Signal, Data> signals = new IdentityHashMap<>();
    private final Map<Expr, Data> lowered = new IdentityHashMap<>();
    /** The value of each assignment and the condition of each when, built at the top scope by {@link #lowerAll}. */
    private final Map<Stmt, Data> built = new IdentityHashMap<>();
    final Bool clk;
    final Bool rst;
    private final HdlLanguage language;
    /** Numbers the wires that hold an expression of which only some bits are read (see {@link #spill}). */
    private int spilled;

    LoweredComponent(Component source, Design design, ClockUse clocks, StateEnums enums, HdlLanguage language) {
        this.source = source;
        this.enums = enums;
        this.design = design;
        this.clocks = clocks;
        this.language = language;
        setDefinitionName(source.moduleName(), false);
        ResetStyle style = design.resetStyle();
        clk = clocks.needsClock(source) ? named(in$.MODULE$.apply(package$.MODULE$.Bool(BoxedUnit.UNIT)), ResetStyle.CLOCK) : null;
        rst = clocks.needsReset(source) ? named(in$.MODULE$.apply(package$.MODULE$.Bool(BoxedUnit.UNIT)), style.portName()) : null;
        for (Port p : source.ports()) {
            Data d = p.isInput() ? in$.MODULE$.apply(hardware(p.width())) : out$.MODULE$.apply(hardware(p.width()));
            signals.put(p, named(d, p.name()));
        }
        for (Component child : source.children()) {
            LoweredComponent lc = new LoweredComponent(child, design, clocks, enums, language);
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
            if (r.states() != null) {
                lowerState(r);
                continue;
            }
            Data d = hardware(r.width());
            d.setAsReg();
            named(d, r.name());
            if (r.hasReset()) {
                new DataPimper<>(d).init(constant(r.resetValue(), r.width()));
            }
            signals.put(r, d);
        }
        for (Wire w : source.wires()) {
            Data d = named(hardware(w.width()), w.name());
            if (w.name().startsWith("unused_")) {
                d.allowPruning(); // Component.unused(): nothing reads it, by design; SpinalHDL drops it silently
            }
            signals.put(w, d);
        }
        for (Mem m : source.mems()) {
            lowerMem(m);
        }
        lowerAll(source.body());
        emit(source.body());
        nameTemporaries();
    }

    /**
     * A state register as a SpinalHDL enum register: its states are {@code localparam}s, assignments of a state and
     * comparisons with one use their names ({@link #assign}, {@link #compare}); every other use reads its bits.
     */
    private void lowerState(Reg r) {
        SpinalEnumCraft<SpinalEnum> craft = (SpinalEnumCraft<SpinalEnum>) enums.of(r.states()).craft();
        craft.setAsReg();
        named(craft, r.name());
        if (r.hasReset()) {
            new DataPimper<>(craft).init(enums.element(r.states(), r.resetValue().intValueExact()).craft());
        }
        states.put(r, craft);
        Bits bits = craft.asBits();
        signals.put(r, r.width() == 1 ? bits.apply(0) : bits.asUInt());
    }

    /**
     * A memory of Bits: SpinalHDL stores words as Bits, and puts any write data that is not a Bits signal (a UInt
     * port, say) in a {@code _zz_} wire; the data goes through a wire named after the memory instead. Port operands
     * that are expressions get such names too ({@link #portOperand}).
     */
    private void lowerMem(Mem m) {
        spinal.core.Mem<Bits> mem = spinal.core.Mem$.MODULE$.apply(
                HardType$.MODULE$.apply(() -> package$.MODULE$.Bits(new BitCount(m.width()))), m.depth());
        mem.setName(m.name(), false);
        MemWrite w = m.write();
        if (w != null) {
            Bits data = package$.MODULE$.Bits(new BitCount(m.width()));
            data.setName(generatedName(m.name() + "_wdata"), true);
            Data value = lower(w.data());
            data.$colon$eq(value instanceof Bool b ? b.asBits() : ((UInt) value).asBits(), loc(m.loc()));
            mem.write(portOperand(lowerU(w.address()), m.name() + "_waddr"), data,
                    portOperand(lowerB(w.enable()), m.name() + "_wen"), null);
        }
        for (MemRead r : m.reads()) {
            // Verilog: read and write in one always block, old data out (read-first). SpinalHDL's VHDL back end
            // refuses readFirst; with dontCare it writes the read in its own clocked process, which reads the signal
            // before the same edge's write lands, i.e. also the old data.
            spinal.core.ReadUnderWritePolicy policy = language == HdlLanguage.VHDL ? spinal.core.dontCare$.MODULE$
                    : readFirst$.MODULE$;
            Bits q = mem.readSync(portOperand(lowerU(r.address()), r.name() + "_addr"),
                    portOperand(lowerB(r.enable()), r.name() + "_en"), policy, false);
            signals.put(r, named(r.width() == 1 ? q.apply(0) : q.asUInt(), r.name()));
        }
    }

    /** An operand of a memory port that is not a signal gets a name after the port, not SpinalHDL's {@code _zz_}. */
    private <T extends Data> T portOperand(T operand, String name) {
        if (operand.isUnnamed()) {
            operand.setName(generatedName(name), true);
        }
        return operand;
    }

    // ---- names of temporaries ----------------------------------------------------------------------------------------

    /** Names given to temporaries so far and every name our core gave, in lower case (see {@link #generatedName}). */
    private final java.util.Set<String> taken = new java.util.HashSet<>();
    /** The expression each cached lowered value stands for, in the order they were built (see {@link #lower}). */
    private final Map<Data, Expr> origin = new IdentityHashMap<>();
    private final List<Data> originOrder = new java.util.ArrayList<>();

    /**
     * A name for a temporary: {@code base}, or {@code base_1}, {@code base_2}, ... when that is taken by a name of
     * ours or by an earlier temporary (SpinalHDL would give a weak name a suffix too, but a user name declared after
     * it would then clash). Deterministic: it depends on the order of the Java statements, not on their lines.
     */
    private String generatedName(String base) {
        if (taken.isEmpty()) {
            List<String> ours = new java.util.ArrayList<>(List.of(ResetStyle.CLOCK, design.resetStyle().portName()));
            source.ports().forEach(p -> ours.add(p.name()));
            source.regs().forEach(r -> ours.add(r.name()));
            source.wires().forEach(w -> ours.add(w.name()));
            for (Mem m : source.mems()) {
                ours.add(m.name());
                m.reads().forEach(r -> ours.add(r.name()));
            }
            source.children().forEach(c -> ours.add(c.instanceName()));
            ours.forEach(n -> taken.add(n.toLowerCase(java.util.Locale.ROOT)));
        }
        String name = base;
        for (int i = 1; !taken.add(name.toLowerCase(java.util.Locale.ROOT)); i++) {
            name = base + "_" + i; // VHDL names are case-insensitive
        }
        return name;
    }

    /**
     * Names the temporaries SpinalHDL would otherwise write as {@code _zz_} wires, after what they compute: a value
     * read in more than one place (SpinalHDL inlines a value read once) and a sum, difference or shift that is an
     * operand of another operator (SpinalHDL's Verilog back end gives those a wire of their own for their width).
     * A value read once elsewhere stays inline. The name says what the value is ({@code vc_eq_2},
     * {@code first_beat_and_vc_eq_2}, {@code ram_count_plus_push}); a condition too complex for that is named after
     * the signals it tests ({@code when_rx_credit_vc}); anything else keeps SpinalHDL's name.
     */
    private void nameTemporaries() {
        Map<spinal.core.BaseType, Integer> reads = new IdentityHashMap<>();
        Map<spinal.core.BaseType, Boolean> direct = new IdentityHashMap<>();
        dslBody().walkStatements(s -> {
            s.walkDrivingExpressions(e -> {
                if (e instanceof spinal.core.BaseType b) {
                    reads.merge(b, 1, Integer::sum);
                }
                return BoxedUnit.UNIT;
            });
            if (s instanceof spinal.core.internals.AssignmentStatement a
                    && a.source() instanceof spinal.core.BaseType b) {
                direct.put(b, true);
            }
            return BoxedUnit.UNIT;
        });
        java.util.Set<Data> conditions = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        built.forEach((stmt, value) -> {
            if (stmt instanceof Stmt.When) {
                conditions.add(value);
            }
        });
        for (Data d : originOrder) {
            spinal.core.BaseType value = (spinal.core.BaseType) d;
            int n = reads.getOrDefault(value, 0);
            if (!value.isUnnamed() || n == 0) {
                continue;
            }
            Expr x = origin.get(d);
            boolean widthOp = x instanceof Op op && x.width() > 1 && switch (op.kind()) {
                case ADD, SUB, SHL, SHR, SHL_VAR, SHR_VAR -> true;
                default -> false;
            };
            if (n == 1 && !(widthOp && !direct.containsKey(value))) {
                continue;
            }
            String name = describe(x);
            if (name == null) {
                name = partNames().get(x);
            }
            if (name == null && conditions.contains(value)) {
                name = "when_" + String.join("_", leaves(x, new java.util.LinkedHashSet<>()));
            }
            if (name != null && name.length() <= MAX_NAME) {
                value.setName(generatedName(name), true);
            }
        }
    }

    private Map<Expr, String> partNames;

    /**
     * For each part of a concatenation assigned to a signal, a name after that signal and where the part lands in it
     * ({@code keep_bit_5}, {@code data_bits_15_8}); the first assignment in statement order names a part.
     */
    private Map<Expr, String> partNames() {
        if (partNames == null) {
            partNames = new IdentityHashMap<>();
            collectPartNames(source.body());
        }
        return partNames;
    }

    private void collectPartNames(List<Stmt> stmts) {
        for (Stmt s : stmts) {
            if (s instanceof Stmt.Assign a && a.value() instanceof Op op && op.kind() == org.sue.core.OpKind.CONCAT) {
                int top = op.width();
                for (Expr part : op.args()) {
                    int lo = top - part.width();
                    partNames.putIfAbsent(part, a.target().name() + (part.width() == 1 ? "_bit_" + lo
                            : "_bits_" + (top - 1) + "_" + lo));
                    top = lo;
                }
            } else if (s instanceof Stmt.When w) {
                collectPartNames(w.then());
                collectPartNames(w.otherwise());
            }
        }
    }

    /** Longest name made for a temporary; a longer description is not worth reading. */
    private static final int MAX_NAME = 48;

    /**
     * e in words, for a name ({@code vc_eq_2}, {@code count_gt_16}); null when that would not help a reader (muxes,
     * concatenations, deep expressions). A constant is written in decimal, after the signal it is compared with.
     */
    private static String describe(Expr e) {
        String d = describe(e, 0);
        return d == null || Character.isLetter(d.charAt(0)) ? d : "c" + d; // 16_minus_x: names start with a letter
    }

    private static String describe(Expr e, int depth) {
        if (e instanceof Signal s) {
            return s.name();
        }
        if (e instanceof Const c) {
            return c.value().bitLength() <= 16 ? c.value().toString() : null;
        }
        if (depth > 3) {
            return null;
        }
        Op op = (Op) e;
        String a = describe(op.arg(0), depth + 1);
        if (a == null) {
            return null;
        }
        if (op.args().size() == 1) {
            return switch (op.kind()) {
                case NOT -> "not_" + a;
                case SLICE -> op.width() == 1 ? a + "_bit_" + op.p1() : a + "_bits_" + op.p0() + "_" + op.p1();
                case RESIZE -> a;
                case SHL -> a + "_shl_" + op.p0();
                case SHR -> a + "_shr_" + op.p0();
                case AND_R -> "all_" + a;
                case OR_R -> "any_" + a;
                case XOR_R -> "parity_" + a;
                default -> null;
            };
        }
        if (op.args().size() != 2) {
            return null;
        }
        String b = describe(op.arg(1), depth + 1);
        if (b == null) {
            return null;
        }
        boolean swap = op.arg(0) instanceof Const && !(op.arg(1) instanceof Const);
        String word = switch (op.kind()) {
            case AND -> "and";
            case OR -> "or";
            case XOR -> "xor";
            case ADD -> "plus";
            case SUB -> swap ? null : "minus";
            case EQ -> "eq";
            case NE -> "ne";
            case LT -> swap ? "gt" : "lt";
            case LE -> swap ? "ge" : "le";
            case GT -> swap ? "lt" : "gt";
            case GE -> swap ? "le" : "ge";
            case SHL_VAR -> swap ? null : "shl";
            case SHR_VAR -> swap ? null : "shr";
            default -> null;
        };
        if (word == null) {
            return null;
        }
        return swap ? b + "_" + word + "_" + a : a + "_" + word + "_" + b;
    }

    /** The signals e reads, first seen first, at most three (for a name). */
    private static java.util.Set<String> leaves(Expr e, java.util.Set<String> into) {
        if (into.size() >= 3) {
            return into;
        }
        if (e instanceof Signal s) {
            into.add(s.name());
        } else if (e instanceof Op op) {
            for (Expr a : op.args()) {
                leaves(a, into);
            }
        }
        return into;
    }

    // ---- statements --------------------------------------------------------------------------------------------------

    /** Builds every expression of the body at the component's top scope (see class comment). */
    private void lowerAll(List<Stmt> stmts) {
        for (Stmt s : stmts) {
            if (s instanceof Stmt.Assign a) {
                built.put(s, lower(a.value()));
            } else if (s instanceof Stmt.When w) {
                built.put(s, lower(w.cond()));
                lowerAll(w.then());
                lowerAll(w.otherwise());
            }
        }
    }

    private void emit(List<Stmt> stmts) {
        for (Stmt s : stmts) {
            if (s instanceof Stmt.Assign a && a.target() instanceof Reg r && states.containsKey(r)) {
                assignState(r, a.value(), built.get(a), loc(a.loc()));
            } else if (s instanceof Stmt.Assign a) {
                assign(signals.get(a.target()), built.get(a), loc(a.loc()));
            } else if (s instanceof Stmt.When w) {
                WhenContext ctx = when$.MODULE$.apply(asB(built.get(w), w.cond()), block(w.then()), loc(w.loc()));
                List<Stmt> rest = w.otherwise();
                // an otherwise holding exactly one when is an elseWhen: keep the chain flat
                while (rest.size() == 1 && rest.get(0) instanceof Stmt.When next) {
                    ctx = ctx.elsewhen(asB(built.get(next), next.cond()), block(next.then()), loc(next.loc()));
                    rest = next.otherwise();
                }
                if (!rest.isEmpty()) {
                    ctx.otherwise(block(rest));
                }
            }
        }
    }

    /** A state by name where the value is a constant, else the value's bits. */
    private void assignState(Reg r, Expr value, Data lowered, Location at) {
        SpinalEnumCraft<SpinalEnum> craft = states.get(r);
        if (value instanceof Const c) {
            craft.$colon$eq(enums.element(r.states(), c.value().intValueExact()));
        } else {
            craft.assignFromBits(lowered instanceof Bool b ? b.asBits() : ((UInt) lowered).asBits());
        }
    }

    private scala.Function0<BoxedUnit> block(List<Stmt> stmts) {
        return () -> {
            emit(stmts);
            return BoxedUnit.UNIT;
        };
    }

    // ---- expressions -------------------------------------------------------------------------------------------------
    // Every lowered value of width 1 is a Bool, every wider one a UInt (see the class comment).

    private Data lower(Expr e) {
        if (isLeaf(e)) {
            return lowerOnce(e);
        }
        Data done = lowered.get(e);
        if (done != null) {
            return done;
        }
        Data d = lowerOnce(e);
        lowered.put(e, d);
        if (e instanceof Op && origin.put(d, e) == null) {
            originOrder.add(d);
        }
        return d;
    }

    /**
     * A constant, or bits of a signal: built again for every use, so that SpinalHDL writes it inline ({@code x[3]},
     * {@code 8'h0}) instead of in a {@code _zz_} wire of its own (it keeps an unnamed value in a wire when the value
     * has more than one reader).
     */
    private static boolean isLeaf(Expr e) {
        return e instanceof Const || e instanceof Op op && (op.kind() == org.sue.core.OpKind.SLICE
                || op.kind() == org.sue.core.OpKind.RESIZE) && op.arg(0) instanceof Signal;
    }

    private Data lowerOnce(Expr e) {
        Data d;
        if (e instanceof Const c) {
            d = constant(c.value(), c.width());
        } else if (e instanceof Signal s) {
            d = signals.get(s);
            if (d == null) {
                throw new IllegalStateException("Verilog back end: " + s.path() + " is not visible in "
                        + source.path());
            }
        } else {
            d = lowerOp((Op) e);
        }
        return d;
    }

    /** e as a UInt: wider values are UInts already; a 1-bit one (a Bool) is cast where an operator needs a vector. */
    private UInt lowerU(Expr e) {
        return asU(lower(e));
    }

    /** A 1-bit e as a Bool. */
    private Bool lowerB(Expr e) {
        return asB(lower(e), e);
    }

    private Data lowerOp(Op op) {
        List<Expr> a = op.args();
        int w = op.width();
        return switch (op.kind()) {
            case AND -> and(lower(a.get(0)), lower(a.get(1)));
            case OR -> or(lower(a.get(0)), lower(a.get(1)));
            case XOR -> xor(lower(a.get(0)), lower(a.get(1)));
            case NOT -> not(lower(a.get(0)));
            // a 1-bit sum or difference is the exclusive or of the operands
            case ADD -> w == 1 ? xor(lower(a.get(0)), lower(a.get(1))) : lowerU(a.get(0)).$plus(lowerU(a.get(1)));
            case SUB -> w == 1 ? xor(lower(a.get(0)), lower(a.get(1))) : lowerU(a.get(0)).$minus(lowerU(a.get(1)));
            case EQ, NE, LT, LE, GT, GE -> compare(op.kind(), a.get(0), a.get(1));
            case SHL -> lowerU(a.get(0)).$bar$less$less(op.p0());
            case SHR -> lowerU(a.get(0)).$bar$greater$greater(op.p0());
            case SHL_VAR -> w == 1 ? lowerB(a.get(0)).$amp$amp(isZero(a.get(1)))
                    : lowerU(a.get(0)).$bar$less$less(shiftAmount(a.get(1), w));
            case SHR_VAR -> w == 1 ? lowerB(a.get(0)).$amp$amp(isZero(a.get(1)))
                    : lowerU(a.get(0)).$bar$greater$greater(shiftAmount(a.get(1), w));
            case MUX -> mux(lowerB(a.get(0)), lower(a.get(1)), lower(a.get(2)));
            case CONCAT -> concat(a);
            case SLICE -> slice(a.get(0), op.p0(), op.p1());
            case RESIZE -> a.get(0).width() > w ? lowerLow(a.get(0), w) : zeroExtend(a.get(0), w);
            case AND_R -> a.get(0).width() == 1 ? lower(a.get(0)) : lowerU(a.get(0)).andR();
            case OR_R -> a.get(0).width() == 1 ? lower(a.get(0)) : lowerU(a.get(0)).orR();
            case XOR_R -> a.get(0).width() == 1 ? lower(a.get(0)) : lowerU(a.get(0)).xorR();
        };
    }

    /**
     * Unsigned comparison; of two 1-bit values it is a little logic (Bool has no order). A comparison with a constant
     * that the other side's range decides (a zero-extended value against a constant at or above its maximum) is that
     * constant: Verilator's lint flags such a comparison (CMPCONST), and synthesis would fold it anyway.
     */
    private Bool compare(org.sue.core.OpKind kind, Expr x, Expr y) {
        Boolean decided = decided(kind, x, y);
        if (decided != null) {
            return (Bool) constant(decided ? java.math.BigInteger.ONE : java.math.BigInteger.ZERO, 1);
        }
        if (kind == org.sue.core.OpKind.EQ || kind == org.sue.core.OpKind.NE) {
            Bool byName = compareState(kind == org.sue.core.OpKind.EQ, x, y);
            if (byName != null) {
                return byName;
            }
            Data p = lower(x);
            Data q = lower(y);
            boolean eq = kind == org.sue.core.OpKind.EQ;
            if (p instanceof Bool b) {
                return eq ? b.$eq$eq$eq(q) : b.$eq$div$eq(q);
            }
            return eq ? ((UInt) p).$eq$eq$eq(q) : ((UInt) p).$eq$div$eq(q);
        }
        if (x.width() == 1) {
            Bool p = lowerB(x);
            Bool q = lowerB(y);
            return switch (kind) {
                case LT -> p.unary_$bang().$amp$amp(q);
                case LE -> p.unary_$bang().$bar$bar(q);
                case GT -> p.$amp$amp(q.unary_$bang());
                case GE -> p.$bar$bar(q.unary_$bang());
                default -> throw new IllegalArgumentException(kind.name());
            };
        }
        UInt p = lowerU(x);
        UInt q = lowerU(y);
        return switch (kind) {
            case LT -> p.$less(q);
            case LE -> p.$less$eq(q);
            case GT -> p.$greater(q);
            case GE -> p.$greater$eq(q);
            default -> throw new IllegalArgumentException(kind.name());
        };
    }

    /** The value of {@code x kind y} when one side is a constant and the other's range decides it; else null. */
    /** A state register compared with a state: by the state's name; null for any other comparison. */
    private Bool compareState(boolean eq, Expr x, Expr y) {
        if (y instanceof Reg && x instanceof Const) {
            return compareState(eq, y, x);
        }
        if (!(x instanceof Reg r && states.containsKey(r) && y instanceof Const c)) {
            return null;
        }
        SpinalEnumCraft<SpinalEnum> craft = states.get(r);
        SpinalEnumElement<SpinalEnum> state = enums.element(r.states(), c.value().intValueExact());
        return eq ? craft.$eq$eq$eq(state) : craft.$eq$div$eq(state.craft());
    }

    private static Boolean decided(org.sue.core.OpKind kind, Expr x, Expr y) {
        if (y instanceof Const c && !(x instanceof Const)) {
            return decided(kind, maxValue(x), c.value());
        }
        if (x instanceof Const c && !(y instanceof Const)) {
            org.sue.core.OpKind mirrored = switch (kind) {
                case LT -> org.sue.core.OpKind.GT;
                case LE -> org.sue.core.OpKind.GE;
                case GT -> org.sue.core.OpKind.LT;
                case GE -> org.sue.core.OpKind.LE;
                default -> kind;
            };
            return decided(mirrored, maxValue(y), c.value());
        }
        return null;
    }

    /** The value of {@code v kind c} for every v in [0, max], or null if that depends on v. */
    private static Boolean decided(org.sue.core.OpKind kind, java.math.BigInteger max, java.math.BigInteger c) {
        boolean zero = c.signum() == 0;
        int vsC = max.compareTo(c);
        return switch (kind) {
            case LT -> vsC < 0 ? Boolean.TRUE : zero ? Boolean.FALSE : null;
            case LE -> vsC <= 0 ? Boolean.TRUE : null;
            case GT -> vsC <= 0 ? Boolean.FALSE : null;
            case GE -> vsC < 0 ? Boolean.FALSE : zero ? Boolean.TRUE : null;
            case EQ -> vsC < 0 ? Boolean.FALSE : null;
            case NE -> vsC < 0 ? Boolean.TRUE : null;
            default -> null;
        };
    }

    /** An upper bound of e's value: zero-extensions and constant parts of concatenations lower it below all ones. */
    private static java.math.BigInteger maxValue(Expr e) {
        if (e instanceof Const c) {
            return c.value();
        }
        if (e instanceof Op op) {
            switch (op.kind()) {
                case RESIZE -> {
                    java.math.BigInteger m = maxValue(op.arg(0));
                    return op.width() >= op.arg(0).width() ? m : m.min(ones(op.width()));
                }
                case CONCAT -> {
                    java.math.BigInteger m = java.math.BigInteger.ZERO;
                    for (Expr part : op.args()) {
                        m = m.shiftLeft(part.width()).or(maxValue(part));
                    }
                    return m;
                }
                case AND -> {
                    return maxValue(op.arg(0)).min(maxValue(op.arg(1)));
                }
                default -> {
                }
            }
        }
        return ones(e.width());
    }

    private static java.math.BigInteger ones(int w) {
        return java.math.BigInteger.ONE.shiftLeft(w).subtract(java.math.BigInteger.ONE);
    }

    /** amount == 0: a 1-bit value shifted by a variable amount survives only a shift by nothing. */
    private Bool isZero(Expr amount) {
        return amount.width() == 1 ? lowerB(amount).unary_$bang()
                : lowerU(amount).$eq$eq$eq(constant(java.math.BigInteger.ZERO, amount.width()));
    }

    /**
     * x zero-extended to w bits (w wider than x): {zeros, x}, a concatenation rather than a SpinalHDL resize, which
     * its Verilog back end puts in a {@code _zz_} wire whenever the resize is an operand.
     */
    private Data zeroExtend(Expr x, int w) {
        return cat(List.of(constant(java.math.BigInteger.ZERO, w - x.width()), lower(x)));
    }

    private final Map<Expr, Map<Integer, Data>> loweredLow = new IdentityHashMap<>();

    /**
     * The low {@code w} bits of e. Truncation is pushed down through operators whose low bits depend only on their
     * operands' low bits (bitwise, add, sub, mux, concat, left shift), so no intermediate wire is built whose high
     * bits nobody reads (lint flags those).
     */
    private Data lowerLow(Expr e, int w) {
        if (w == e.width()) {
            return lower(e);
        }
        if (e instanceof Signal || e instanceof Const) {
            return e instanceof Const c ? constant(low(c.value(), w), w) : bits(lowerU(e), 0, w); // leaves: see isLeaf
        }
        Data done = loweredLow.computeIfAbsent(e, k -> new java.util.HashMap<>()).get(w);
        if (done != null) {
            return done;
        }
        Data d;
        if (e instanceof Op op) {
            List<Expr> a = op.args();
            d = switch (op.kind()) {
                case AND -> and(lowerLow(a.get(0), w), lowerLow(a.get(1), w));
                case OR -> or(lowerLow(a.get(0), w), lowerLow(a.get(1), w));
                case XOR -> xor(lowerLow(a.get(0), w), lowerLow(a.get(1), w));
                case NOT -> not(lowerLow(a.get(0), w));
                case ADD -> w == 1 ? xor(lowerLow(a.get(0), w), lowerLow(a.get(1), w))
                        : asU(lowerLow(a.get(0), w)).$plus(asU(lowerLow(a.get(1), w)));
                case SUB -> w == 1 ? xor(lowerLow(a.get(0), w), lowerLow(a.get(1), w))
                        : asU(lowerLow(a.get(0), w)).$minus(asU(lowerLow(a.get(1), w)));
                case MUX -> mux(lowerB(a.get(0)), lowerLow(a.get(1), w), lowerLow(a.get(2), w));
                case SHL -> op.p0() >= w ? constant(java.math.BigInteger.ZERO, w)
                        : asU(lowerLow(a.get(0), w)).$bar$less$less(op.p0());
                case RESIZE -> a.get(0).width() >= w ? lowerLow(a.get(0), w) : zeroExtend(a.get(0), w);
                case SLICE -> slice(a.get(0), op.p1() + w - 1, op.p1());
                case CONCAT -> lowerLowConcat(a, w);
                case SHR -> sliceOfExtension(a.get(0), op.p0() + w - 1, op.p0());
                case SHL_VAR -> w == 1 ? asB(lowerLow(a.get(0), 1), e).$amp$amp(isZero(a.get(1)))
                        : asU(lowerLow(a.get(0), w)).$bar$less$less(shiftAmount(a.get(1), w));
                default -> bits(spill(e), 0, w);
            };
        } else {
            throw new IllegalStateException(e.toString());
        }
        loweredLow.get(e).put(w, d);
        return d;
    }

    private Data lowerLowConcat(List<Expr> parts, int w) {
        // parts are most significant first; keep the low ones that fit, truncating the one that straddles w
        List<Data> kept = new java.util.ArrayList<>();
        int have = 0;
        for (int i = parts.size() - 1; i >= 0 && have < w; i--) {
            Expr p = parts.get(i);
            int take = Math.min(p.width(), w - have);
            kept.add(0, lowerLow(p, take));
            have += take;
        }
        return cat(kept);
    }

    private Data concat(List<Expr> parts) {
        List<Data> lowered = new java.util.ArrayList<>();
        for (Expr p : parts) {
            lowered.add(lower(p));
        }
        return cat(lowered);
    }

    /** One Verilog concatenation {a, b, c} (most significant first), not a chain of pairs. */
    private static Data cat(List<Data> msbFirst) {
        if (msbFirst.size() == 1) {
            return msbFirst.get(0);
        }
        List<Data> lsbFirst = new java.util.ArrayList<>(msbFirst);
        java.util.Collections.reverse(lsbFirst);
        return spinal.core.Cat$.MODULE$.apply(scala.jdk.javaapi.CollectionConverters.asScala(lsbFirst)).asUInt();
    }

    private final Map<Expr, Map<Long, Data>> slices = new IdentityHashMap<>();

    /**
     * x[hi:lo]. Verilog cannot slice an expression, so SpinalHDL would put it in a wire whose other bits nobody
     * reads (lint flags those): the slice is pushed into concatenations and bitwise operators instead, and taken
     * directly on signals.
     */
    private Data slice(Expr x, int hi, int lo) {
        int w = hi - lo + 1;
        if (lo == 0) {
            return lowerLow(x, w);
        }
        if (x instanceof Signal) {
            return bits(lowerU(x), lo, w);
        }
        if (x instanceof Const c) {
            return constant(low(c.value().shiftRight(lo), w), w); // the bits themselves, not a slice of a literal
        }
        long key = (long) hi << 32 | lo;
        Data done = slices.computeIfAbsent(x, k -> new java.util.HashMap<>()).get(key);
        if (done != null) {
            return done;
        }
        Data d;
        if (x instanceof Op op) {
            List<Expr> a = op.args();
            d = switch (op.kind()) {
                case AND -> and(slice(a.get(0), hi, lo), slice(a.get(1), hi, lo));
                case OR -> or(slice(a.get(0), hi, lo), slice(a.get(1), hi, lo));
                case XOR -> xor(slice(a.get(0), hi, lo), slice(a.get(1), hi, lo));
                case NOT -> not(slice(a.get(0), hi, lo));
                case MUX -> mux(lowerB(a.get(0)), slice(a.get(1), hi, lo), slice(a.get(2), hi, lo));
                case SLICE -> slice(a.get(0), op.p1() + hi, op.p1() + lo);
                case RESIZE -> sliceOfExtension(a.get(0), hi, lo);
                case CONCAT -> sliceOfConcat(a, hi, lo);
                case SHR -> sliceOfExtension(a.get(0), hi + op.p0(), lo + op.p0());
                case SHL -> sliceOfShiftedLeft(a.get(0), op.p0(), hi, lo);
                // the low hi+1 bits of a sum or of a left shift are the sum or shift of the operands' low bits
                case ADD, SUB, SHL_VAR -> bits(spill(x, hi + 1), lo, w);
                default -> bits(spill(x), lo, w);
            };
        } else {
            throw new IllegalStateException(x.toString());
        }
        slices.get(x).put(key, d);
        return d;
    }

    /** Bits [hi:lo] of a zero-extended value. */
    private Data sliceOfExtension(Expr y, int hi, int lo) {
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
    private Data sliceOfShiftedLeft(Expr y, int k, int hi, int lo) {
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
     * The low w bits of e (w of 2 or more) in a wire of their own, for a slice that cannot be pushed into e's
     * operands (a variable right shift, the upper bits of a sum, ...). Verilog cannot slice an expression, so some
     * wire must hold bits that nobody reads; SpinalHDL would call it {@code _zz_x} and Verilator's -Wall flags it
     * (UNUSEDSIGNAL). Its name matches Verilator's default {@code --unused-regexp} ({@code *unused*}), which says the
     * unread bits are intended.
     */
    private UInt spill(Expr e, int w) {
        UInt done = spills.computeIfAbsent(e, k -> new java.util.HashMap<>()).get(w);
        if (done != null) {
            return done;
        }
        UInt wire = uint(w);
        wire.setName("unused_bits_" + spilled++, true);
        wire.$colon$eq(asU(lowerLow(e, w)), loc(e.loc()));
        spills.get(e).put(w, wire);
        return wire;
    }

    /** Bits [hi:lo] of a concatenation: the overlapping pieces of the parts, concatenated. */
    private Data sliceOfConcat(List<Expr> partsMsbFirst, int hi, int lo) {
        List<Data> pieces = new java.util.ArrayList<>();
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
        UInt amt = lowerU(amount);
        if (amount.width() <= need) {
            return amt;
        }
        Bool tooFar = amt.$greater$eq((UInt) constant(java.math.BigInteger.valueOf(width), amount.width()));
        // the low bits as a slice: a resize inside the mux would get a _zz_ wire of its own
        return (UInt) mux(tooFar, constant(java.math.BigInteger.valueOf(width), need), bits(amt, 0, need));
    }

    // ---- helpers -----------------------------------------------------------------------------------------------------

    /** A fresh signal of the width: a Bool for one bit, else a UInt. */
    private static Data hardware(int width) {
        return width == 1 ? package$.MODULE$.Bool(BoxedUnit.UNIT) : package$.MODULE$.UInt(new BitCount(width));
    }

    private static UInt uint(int width) {
        return package$.MODULE$.UInt(new BitCount(width));
    }

    private static Data constant(java.math.BigInteger value, int width) {
        if (width == 1) {
            return package$.MODULE$.Bool(value.signum() != 0, NO_LOCATION);
        }
        return (UInt) U$.MODULE$.apply(scala.math.BigInt$.MODULE$.apply(value), new BitCount(width));
    }

    /** The low w bits of a value. */
    private static java.math.BigInteger low(java.math.BigInteger v, int w) {
        return v.and(java.math.BigInteger.ONE.shiftLeft(w).subtract(java.math.BigInteger.ONE));
    }

    /** w bits of v from bit lo: a Bool for one bit, else a UInt. */
    private static Data bits(UInt v, int lo, int w) {
        return w == 1 ? v.apply(lo) : v.apply(lo, new BitCount(w));
    }

    private static void assign(Data target, Data value, Location at) {
        if (target instanceof Bool b) {
            b.$colon$eq(value, at);
        } else {
            ((UInt) target).$colon$eq(value, at);
        }
    }

    private static UInt asU(Data d) {
        return d instanceof Bool b ? b.asUInt() : (UInt) d;
    }

    private static Bool asB(Data d, Expr of) {
        if (d instanceof Bool b) {
            return b;
        }
        throw new IllegalStateException("Verilog back end: " + of + " (" + of.width() + " bits) is not a 1-bit value");
    }

    private static Data and(Data x, Data y) {
        return x instanceof Bool p ? p.$amp$amp((Bool) y) : ((UInt) x).$amp((UInt) y);
    }

    private static Data or(Data x, Data y) {
        return x instanceof Bool p ? p.$bar$bar((Bool) y) : ((UInt) x).$bar((UInt) y);
    }

    private static Data xor(Data x, Data y) {
        return x instanceof Bool p ? p.$up((Bool) y) : ((UInt) x).$up((UInt) y);
    }

    private static Data not(Data x) {
        return x instanceof Bool p ? p.unary_$bang() : ((UInt) x).unary_$tilde();
    }

    private static Data mux(Bool sel, Data ifTrue, Data ifFalse) {
        return Mux$.MODULE$.<Data>apply(sel, ifTrue, ifFalse);
    }

    private static final Location NO_LOCATION = new Location("LoweredComponent", 0, 0);

    private static <T extends spinal.core.Nameable> T named(T t, String name) {
        t.setName(name, false);
        return t;
    }

    private static Location loc(SourceLoc l) {
        return new Location(l.file(), l.line(), 0);
    }
}
