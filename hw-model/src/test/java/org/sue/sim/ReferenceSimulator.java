package org.sue.sim;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.sue.core.Component;
import org.sue.core.Const;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Mem;
import org.sue.core.MemRead;
import org.sue.core.MemWrite;
import org.sue.core.Op;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Signal;

/**
 * The straightforward simulator the compiled one is checked against: it walks the elaborated IR every cycle with
 * BigInteger values ({@link ReferenceOps}), no ordering, no sharing, no optimisation. Same cycle semantics: inputs
 * apply, combinational values follow from inputs and state, then every register, read port and memory updates at
 * the edge (reads see the old contents); an asynchronous reset forces the registers with a reset value at once.
 */
final class ReferenceSimulator {
    private final Design design;
    private final Map<Signal, BigInteger> inputs = new IdentityHashMap<>();
    /** registers and memory read ports */
    private final Map<Signal, BigInteger> state = new IdentityHashMap<>();
    private final Map<Mem, BigInteger[]> mems = new IdentityHashMap<>();
    private final List<Reg> regs = new ArrayList<>();
    private final List<MemRead> reads = new ArrayList<>();
    private final List<Mem> memList = new ArrayList<>();
    private Map<Expr, BigInteger> settled = new IdentityHashMap<>();
    private boolean resetAsserted;

    ReferenceSimulator(Design design) {
        this.design = design;
        for (Component c : design.components()) {
            for (Port p : c.ports()) {
                if (c == design.top() && p.isInput()) {
                    inputs.put(p, BigInteger.ZERO);
                }
            }
            for (Reg r : c.regs()) {
                regs.add(r);
                state.put(r, BigInteger.ZERO);
            }
            for (MemRead r : c.memReads()) {
                reads.add(r);
                state.put(r, BigInteger.ZERO);
            }
            for (Mem m : c.mems()) {
                memList.add(m);
                BigInteger[] words = new BigInteger[m.depth()];
                java.util.Arrays.fill(words, BigInteger.ZERO);
                mems.put(m, words);
            }
        }
    }

    void poke(Signal input, BigInteger value) {
        if (!inputs.containsKey(input)) {
            throw new IllegalArgumentException(input + " is not a top-level input");
        }
        inputs.put(input, value);
        settled = new IdentityHashMap<>();
    }

    void setReset(boolean asserted) {
        resetAsserted = asserted;
        settled = new IdentityHashMap<>();
    }

    /** The settled value of any signal or expression. */
    BigInteger value(Expr e) {
        applyAsyncReset();
        return eval(e);
    }

    BigInteger readMem(Mem m, int address) {
        return mems.get(m)[address];
    }

    void step() {
        applyAsyncReset();
        Map<Signal, BigInteger> next = new IdentityHashMap<>();
        for (Reg r : regs) {
            next.put(r, resetAsserted && r.hasReset() ? r.resetValue() : eval(design.driver(r)));
        }
        for (MemRead r : reads) {
            BigInteger address = eval(r.address());
            boolean inRange = address.compareTo(BigInteger.valueOf(r.mem().depth())) < 0;
            next.put(r, eval(r.enable()).signum() != 0 && inRange ? mems.get(r.mem())[address.intValue()] : state.get(r));
        }
        List<Runnable> writes = new ArrayList<>();
        for (Mem m : memList) {
            MemWrite w = m.write();
            if (w != null && eval(w.enable()).signum() != 0) {
                BigInteger address = eval(w.address());
                BigInteger data = eval(w.data());
                if (address.compareTo(BigInteger.valueOf(m.depth())) < 0) {
                    writes.add(() -> mems.get(m)[address.intValue()] = data);
                }
            }
        }
        writes.forEach(Runnable::run);
        state.putAll(next);
        settled = new IdentityHashMap<>();
    }

    private void applyAsyncReset() {
        if (design.resetStyle().async() && resetAsserted) {
            boolean changed = false;
            for (Reg r : regs) {
                if (r.hasReset() && !state.get(r).equals(r.resetValue())) {
                    state.put(r, r.resetValue());
                    changed = true;
                }
            }
            if (changed) {
                settled = new IdentityHashMap<>();
            }
        }
    }

    private BigInteger eval(Expr e) {
        BigInteger known = settled.get(e);
        if (known != null) {
            return known;
        }
        BigInteger v;
        if (e instanceof Const c) {
            v = c.value();
        } else if (e instanceof Reg || e instanceof MemRead) {
            v = state.get((Signal) e);
        } else if (e instanceof Signal s) {
            v = inputs.containsKey(s) ? inputs.get(s) : eval(design.driver(s));
        } else if (e instanceof Op op) {
            List<BigInteger> args = new ArrayList<>();
            int[] widths = new int[op.args().size()];
            for (int i = 0; i < widths.length; i++) {
                args.add(eval(op.arg(i)));
                widths[i] = op.arg(i).width();
            }
            v = ReferenceOps.apply(op.kind(), op.width(), op.p0(), op.p1(), args, widths);
        } else {
            throw new IllegalStateException("reference simulator: cannot evaluate " + e);
        }
        settled.put(e, v);
        return v;
    }
}
