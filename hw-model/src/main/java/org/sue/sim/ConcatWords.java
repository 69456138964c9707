package org.sue.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.sue.core.Const;
import org.sue.core.Expr;
import org.sue.core.Op;
import org.sue.core.OpKind;

/**
 * Word-parallel code for a concatenation of per-lane parts, the shape lane logic takes in the IR: instead of one
 * shift-and-OR per lane, a run of similar lanes costs one term per 64-bit word. Runs it recognises (lowest lane
 * first, adjacent, at least two lanes):
 * <ul>
 * <li>thermometer: bit i is {@code x > i + c} (a keep from a byte count): {@link SimOps#thermo};
 * <li>byte mask: byte i is {@code v[i + c] ? 0xff : 0x00} (a keep widened to bytes): {@link SimOps#byteMask};
 * <li>lane multiplexer: byte i is {@code v[i + c] ? X[8i+7:8i] : Y[8i+7:8i]}: X and Y merged under a byte mask;
 * <li>slices: part i is bits of one source at a fixed distance (bytes of a bus reassembled): a word of the source.
 * </ul>
 * Other parts stay single terms (or deposits, when they are wide or straddle a word).
 */
final class ConcatWords {
    /** What the code generator knows: operands as computed, and how to read a value. */
    interface Context {
        List<Expr> args(Op op);

        String ref(Expr e);

        /** For a read port of a {@link MemoryBank}: its bank's read-data field and its bit offset there; else null. */
        Object[] bankLane(Expr e);
    }

    /** A run's shape: parts in one run have equal keys. */
    private record Key(String shape, Expr source, long offset, Expr x, Expr y) {
    }

    private final Context cx;
    /** Terms ORed into each result word. */
    final List<List<String>> terms = new ArrayList<>();
    /** Parts that are none of the above and do not fit in one word: deposited after clearing. */
    final List<int[]> deposits = new ArrayList<>();
    final List<Expr> depositParts = new ArrayList<>();

    /** @param parts most significant first, as in the IR */
    ConcatWords(Context cx, int width, List<Expr> parts) {
        this.cx = cx;
        int words = SimCompiler.words(width);
        for (int i = 0; i < words; i++) {
            terms.add(new ArrayList<>());
        }
        int n = parts.size();
        int[] lo = new int[n];
        Key[] keys = new Key[n];
        int off = width;
        for (int i = 0; i < n; i++) {
            off -= parts.get(i).width();
            lo[i] = off;
            keys[i] = key(parts.get(i), off);
        }
        // scan from the least significant part up, grouping adjacent parts of equal key
        int i = n - 1;
        while (i >= 0) {
            int j = i;
            while (keys[i] != null && j - 1 >= 0 && keys[i].equals(keys[j - 1])) {
                j--;
            }
            if (j < i) {
                run(keys[i], lo[i], lo[j] + parts.get(j).width() - 1);
            } else {
                single(parts.get(i), lo[i]);
            }
            i = j - 1;
        }
    }

    boolean needsClear() {
        return !deposits.isEmpty();
    }

    private void single(Expr p, int lo) {
        if (p.width() <= 64 && (lo & 63) + p.width() <= 64) {
            String r = cx.ref(p);
            terms.get(lo >>> 6).add((lo & 63) == 0 ? r : "(" + r + " << " + (lo & 63) + ")");
        } else {
            deposits.add(new int[] {lo, p.width()});
            depositParts.add(p);
        }
    }

    private Key key(Expr p, int lo) {
        Object[] lane = cx.bankLane(p);
        if (lane != null) {
            return new Key("bank " + lane[0], null, (Integer) lane[1] - lo, null, null);
        }
        if (!(p instanceof Op op)) {
            return null;
        }
        List<Expr> a = cx.args(op);
        switch (op.kind()) {
            case GT:
                // x > k at bit lo: the thermometer x > lo + c; x narrow enough for signed arithmetic
                if (op.width() == 1 && a.get(1) instanceof Const k && a.get(0).width() <= 62 && k.width() <= 62) {
                    return new Key("thermo", a.get(0), k.value().longValue() - lo, null, null);
                }
                return null;
            case SLICE:
                return new Key("slice", a.get(0), op.p1() - lo, null, null);
            case MUX: {
                if (op.width() != 8 || (lo & 7) != 0 || !(a.get(0) instanceof Op sel) || sel.kind() != OpKind.SLICE) {
                    return null;
                }
                Expr v = cx.args(sel).get(0);
                long c = sel.p1() - lo / 8;
                if (isConst(a.get(1), 0xff) && isConst(a.get(2), 0)) {
                    return new Key("bytemask", v, c, null, null);
                }
                Expr x = sliceSource(a.get(1), lo);
                Expr y = sliceSource(a.get(2), lo);
                return x != null && y != null ? new Key("lanemux", v, c, x, y) : null;
            }
            default:
                return null;
        }
    }

    /** The wide source e is a byte of, at the same bit position as the lane (or null). */
    private Expr sliceSource(Expr e, int lo) {
        if (e instanceof Op op && op.kind() == OpKind.SLICE && op.p1() == lo) {
            return cx.args(op).get(0);
        }
        return null;
    }

    private static boolean isConst(Expr e, long value) {
        return e instanceof Const c && c.value().longValue() == value && c.value().bitLength() <= 63;
    }

    /** Adds the terms of a run covering result bits lo..hi. */
    private void run(Key k, int lo, int hi) {
        for (int w = lo >>> 6; w <= hi >>> 6; w++) {
            int a = Math.max(lo, 64 * w) - 64 * w;
            int b = Math.min(hi, 64 * w + 63) - 64 * w;
            long mask = (b == 63 ? -1L : (1L << (b + 1)) - 1) & (-1L << a);
            String term = k.shape().startsWith("bank ") ? bankWord(k.shape().substring(5), 64L * w + k.offset())
                    : switch (k.shape()) {
                        case "thermo" -> "SimOps.thermo(" + cx.ref(k.source()) + ", " + (64L * w + k.offset()) + "L)";
                        case "slice" -> word(k.source(), 64L * w + k.offset());
                        case "bytemask" -> byteMask(k.source(), 8L * w + k.offset());
                        default -> "SimOps.laneMux(" + byteMask(k.source(), 8L * w + k.offset()) + ", "
                                + word(k.x(), 64L * w) + ", " + word(k.y(), 64L * w) + ")";
                    };
            terms.get(w).add(mask == -1L ? term : "(" + term + " & " + SimCompiler.hex(mask) + ")");
        }
    }

    /** Bits [from + 63 : from] of e as one word (bits below 0 or beyond e's width read as zero). */
    private String word(Expr e, long from) {
        String r = cx.ref(e);
        if (e.width() > 64) {
            return from >= 0 && (from & 63) == 0 ? (from >>> 6 < SimCompiler.words(e.width()) ? r + "[" + (from >>> 6) + "]" : "0L")
                    : "SimOps.word(" + r + ", " + from + ")";
        }
        if (from >= 64 || from <= -64) {
            return "0L";
        }
        return from == 0 ? r : from > 0 ? "(" + r + " >>> " + from + ")" : "(" + r + " << " + (-from) + ")";
    }

    private static String bankWord(String field, long from) {
        return from >= 0 && (from & 63) == 0 ? field + "[" + (from >>> 6) + "]" : "SimOps.word(" + field + ", " + from + ")";
    }

    /** The byte mask of the 8 bits of v from bit {@code from} (v's lane selects). */
    private String byteMask(Expr v, long from) {
        return "SimOps.byteMask(" + word(v, from) + ")";
    }

    @Override
    public String toString() {
        return Objects.toString(terms);
    }

    /** Joins a word's terms with OR ("0L" when none). */
    static String or(List<String> t, Function<String, String> wrap) {
        return t.isEmpty() ? "0L" : wrap.apply(String.join(" | ", t));
    }
}
