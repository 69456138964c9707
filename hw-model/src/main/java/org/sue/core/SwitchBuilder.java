package org.sue.core;

/** {@code switch}: cases are tested in order; the first equal case runs, else the default. */
public final class SwitchBuilder {
    private final Component owner;
    private final Expr selector;
    private WhenChain chain;

    SwitchBuilder(Component owner, Expr selector) {
        this.owner = owner;
        this.selector = selector;
    }

    public SwitchBuilder is(long value, Runnable body) {
        Expr match = selector.eq(value);
        chain = chain == null ? owner.when(match, body) : chain.elseWhen(match, body);
        return this;
    }

    public void otherwise(Runnable body) {
        if (chain == null) {
            body.run();
        } else {
            chain.otherwise(body);
        }
    }
}
