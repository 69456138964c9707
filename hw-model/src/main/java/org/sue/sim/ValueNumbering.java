package org.sue.sim;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.sue.core.Const;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Op;
import org.sue.core.OpKind;

/**
 * Before code generation: every operator gets a representative, so that the simulator computes each distinct value
 * once. Operators with the same kind, parameters and (represented) operands share one representative (the blocks
 * build the same address multiplexer or lane slice once per lane); operators of constants fold to a constant; a few
 * identities (a multiplexer with a constant select or equal arms, AND/OR with zero or all ones) reduce to an operand.
 */
final class ValueNumbering {
    private final Map<Expr, Expr> rep = new IdentityHashMap<>();
    private final Map<List<Object>, Expr> byKey = new HashMap<>();
    private final Map<String, Const> constants = new HashMap<>();

    /** @param postOrder operators, each after its operands */
    ValueNumbering(List<Expr> postOrder) {
        for (Expr e : postOrder) {
            rep.put(e, number((Op) e));
        }
    }

    /** The expression that computes e's value (e itself, another operator, a signal or a constant). */
    Expr of(Expr e) {
        if (e instanceof Const c) {
            return constant(c.width(), c.value());
        }
        Expr r = rep.get(e);
        return r == null ? e : r;
    }

    private Expr number(Op op) {
        List<Expr> args = new ArrayList<>(op.args().size());
        boolean allConst = true;
        for (Expr a : op.args()) {
            Expr r = of(a);
            args.add(r);
            allConst &= r instanceof Const;
        }
        if (allConst) {
            List<BigInteger> values = new ArrayList<>();
            int[] widths = new int[args.size()];
            for (int i = 0; i < widths.length; i++) {
                values.add(((Const) args.get(i)).value());
                widths[i] = args.get(i).width();
            }
            return constant(op.width(), ReferenceOps.apply(op.kind(), op.width(), op.p0(), op.p1(), values, widths));
        }
        Expr simpler = identity(op, args);
        if (simpler != null) {
            return simpler;
        }
        List<Object> key = new ArrayList<>(args.size() + 4);
        key.add(op.kind());
        key.add(op.width());
        key.add(op.p0());
        key.add(op.p1());
        for (Expr a : args) {
            key.add(new Identity(a));
        }
        return byKey.computeIfAbsent(key, k -> op);
    }

    /** An operand that op's value always equals, or null. */
    private static Expr identity(Op op, List<Expr> a) {
        switch (op.kind()) {
            case MUX:
                if (a.get(0) instanceof Const sel) {
                    return sel.value().signum() != 0 ? a.get(1) : a.get(2);
                }
                return a.get(1) == a.get(2) ? a.get(1) : null;
            case AND:
                return ones(a.get(0)) ? a.get(1) : ones(a.get(1)) ? a.get(0) : null;
            case OR:
            case XOR:
                return zero(a.get(0)) ? a.get(1) : zero(a.get(1)) ? a.get(0) : null;
            default:
                return null;
        }
    }

    private static boolean zero(Expr e) {
        return e instanceof Const c && c.value().signum() == 0;
    }

    private static boolean ones(Expr e) {
        return e instanceof Const c && c.value().equals(ReferenceOps.mask(c.width()));
    }

    private Const constant(int width, BigInteger value) {
        return constants.computeIfAbsent(width + ":" + value.toString(16), k -> (Const) Hw.lit(width, value));
    }

    /** Keys compare operands by identity (Expr does not define equality). */
    private record Identity(Expr e) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Identity i && i.e == e;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(e);
        }
    }
}
