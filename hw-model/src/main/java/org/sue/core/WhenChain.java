package org.sue.core;

import java.util.ArrayList;
import java.util.List;

/** Returned by {@code when}: continue with {@link #elseWhen} and {@link #otherwise}. */
public final class WhenChain {
    private final Component owner;
    private final int depth;
    /** The whens of the chain so far; each later one sits in the otherwise list of the one before. */
    private final List<Stmt.When> links = new ArrayList<>();
    private boolean closed;

    WhenChain(Component owner, int depth, Stmt.When first) {
        this.owner = owner;
        this.depth = depth;
        links.add(first);
    }

    public WhenChain elseWhen(Expr cond, Runnable body) {
        SourceLoc here = SourceLoc.here();
        owner.checkCondition(cond, here);
        Stmt.When next = new Stmt.When(cond, new ArrayList<>(), new ArrayList<>(), here);
        enterElse(here, () -> {
            last().otherwise().add(next);
            owner.runIn(next.then(), cond, body);
        }, 0);
        links.add(next);
        return this;
    }

    public void otherwise(Runnable body) {
        SourceLoc here = SourceLoc.here();
        enterElse(here, body, 0);
        closed = true;
    }

    private Stmt.When last() {
        return links.get(links.size() - 1);
    }

    /** Runs {@code body} inside the else branches of every link of the chain (so the path condition is right). */
    private void enterElse(SourceLoc here, Runnable body, int i) {
        if (i == 0) {
            if (closed) {
                throw new HdlException("when chain already ended with otherwise", here);
            }
            if (owner.blockDepth() != depth) {
                throw new HdlException("elseWhen/otherwise must follow its when at the same nesting level", here);
            }
        }
        if (i == links.size()) {
            body.run();
            return;
        }
        Stmt.When link = links.get(i);
        owner.runIn(link.otherwise(), link.cond().not(), () -> enterElse(here, body, i + 1));
    }
}
