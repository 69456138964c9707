package org.sue.sim;

import java.math.BigInteger;
import java.util.List;
import org.sue.core.OpKind;

/**
 * The meaning of every IR operator on unsigned BigIntegers, written for clarity, not speed: the reference the
 * compiled simulator is tested against, and what constant folding computes at elaboration.
 */
public final class ReferenceOps {
    private ReferenceOps() {
    }

    public static BigInteger mask(int width) {
        return BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE);
    }

    /**
     * @param width the result's width
     * @param args the operands' values, each within its own width
     * @param argWidths the operands' widths
     */
    public static BigInteger apply(OpKind kind, int width, int p0, int p1, List<BigInteger> args, int[] argWidths) {
        BigInteger m = mask(width);
        BigInteger a = args.get(0);
        BigInteger b = args.size() > 1 ? args.get(1) : null;
        switch (kind) {
            case AND: return a.and(b);
            case OR: return a.or(b);
            case XOR: return a.xor(b);
            case NOT: return a.xor(m);
            case ADD: return a.add(b).and(m);
            case SUB: return a.subtract(b).and(m);
            case EQ: return bool(a.equals(b));
            case NE: return bool(!a.equals(b));
            case LT: return bool(a.compareTo(b) < 0);
            case LE: return bool(a.compareTo(b) <= 0);
            case GT: return bool(a.compareTo(b) > 0);
            case GE: return bool(a.compareTo(b) >= 0);
            case SHL: return a.shiftLeft(p0).and(m);
            case SHR: return a.shiftRight(p0);
            case SHL_VAR: return b.compareTo(BigInteger.valueOf(width)) >= 0 ? BigInteger.ZERO
                    : a.shiftLeft(b.intValue()).and(m);
            case SHR_VAR: return b.compareTo(BigInteger.valueOf(width)) >= 0 ? BigInteger.ZERO : a.shiftRight(b.intValue());
            case MUX: return a.signum() != 0 ? b : args.get(2);
            case CONCAT: {
                BigInteger v = BigInteger.ZERO;
                for (int i = 0; i < args.size(); i++) {
                    v = v.shiftLeft(argWidths[i]).or(args.get(i));
                }
                return v;
            }
            case SLICE: return a.shiftRight(p1).and(m);
            case RESIZE: return a.and(m);
            case AND_R: return bool(a.equals(mask(argWidths[0])));
            case OR_R: return bool(a.signum() != 0);
            case XOR_R: return BigInteger.valueOf(a.bitCount() & 1);
            default: throw new IllegalArgumentException("no reference meaning for " + kind);
        }
    }

    private static BigInteger bool(boolean b) {
        return b ? BigInteger.ONE : BigInteger.ZERO;
    }
}
