package org.sue.core;

import java.util.List;

/** A statement of a component body. Later assignments to the same signal win over earlier ones. */
public sealed interface Stmt permits Stmt.Assign, Stmt.When {
    SourceLoc loc();

    /** target := value */
    record Assign(Signal target, Expr value, SourceLoc loc) implements Stmt {
    }

    /** if (cond) then else otherwise; the otherwise list is extended by elseWhen/otherwise. */
    record When(Expr cond, List<Stmt> then, List<Stmt> otherwise, SourceLoc loc) implements Stmt {
    }
}
