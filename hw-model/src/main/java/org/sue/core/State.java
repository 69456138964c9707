package org.sue.core;

/**
 * A state register ({@link Component#state}): one constant of an enum, encoded as its ordinal. Compare and assign
 * by constant; the register itself ({@link #reg}) is an ordinary expression for everything else.
 */
public final class State<E extends Enum<E>> {
    private final Reg reg;
    private final Class<E> type;

    State(Reg reg, Class<E> type) {
        this.reg = reg;
        this.type = type;
    }

    /** The register holding the state's code. */
    public Reg reg() {
        return reg;
    }

    /** The code of {@code s}: a constant as wide as the register. */
    public Expr code(E s) {
        return Hw.lit(reg.width(), s.ordinal());
    }

    /** High while the register holds {@code s}. */
    public Expr is(E s) {
        return reg.eq(code(s));
    }

    /** High while the register holds any of {@code states}. */
    @SafeVarargs
    public final Expr isAny(E... states) {
        Expr any = is(states[0]);
        for (int i = 1; i < states.length; i++) {
            any = any.or(is(states[i]));
        }
        return any;
    }

    /** The next state is {@code s} (under the enclosing conditions, last assignment wins). */
    public void set(E s) {
        reg.set(code(s));
    }

    /** The next state is the code {@code next} computes (a mux of {@link #code}s, say). */
    public void set(Expr next) {
        reg.set(next);
    }

    public Class<E> type() {
        return type;
    }

    @Override
    public String toString() {
        return "state " + reg.path() + " of " + type.getSimpleName();
    }
}
