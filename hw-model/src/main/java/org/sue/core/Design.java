package org.sue.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An elaborated design: the component tree after every check, plus the final driver of every signal with the
 * when/otherwise structure folded into multiplexers (last assignment wins). Both back ends start from here: the JVM
 * simulator uses the folded drivers, the Verilog back end the statement structure.
 */
public final class Design {
    private final Component top;
    private final ResetStyle resetStyle;
    private final List<Component> components = new ArrayList<>();
    /** register: next value; wire / output / child input: its value. */
    private final Map<Signal, Expr> drivers = new IdentityHashMap<>();

    private Design(Component top, ResetStyle resetStyle) {
        this.top = top;
        this.resetStyle = resetStyle;
    }

    public static Design elaborate(Component top) {
        return elaborate(top, ResetStyle.SYNC_HIGH);
    }

    public static Design elaborate(Component top, ResetStyle resetStyle) {
        if (top.parent() != null) {
            throw new HdlException("component '" + top.path() + "' is a child; elaborate its top instead");
        }
        top.markComplete();
        Design d = new Design(top, resetStyle);
        d.collect(top);
        for (Component c : d.components) {
            d.checkReferences(c);
            d.fold(c);
        }
        for (Component c : d.components) {
            d.checkDriven(c);
        }
        d.checkCombinationalLoops();
        return d;
    }

    public Component top() { return top; }
    public ResetStyle resetStyle() { return resetStyle; }
    /** Every component instance, parents before children. */
    public List<Component> components() { return Collections.unmodifiableList(components); }

    /** The folded driver of a register (next value), wire, output, or child input; null for top inputs / memory reads. */
    public Expr driver(Signal s) {
        return drivers.get(s);
    }

    // ---- collection ----------------------------------------------------------------------------------------------

    private void collect(Component c) {
        components.add(c);
        for (Component child : c.children()) {
            collect(child);
        }
    }

    // ---- references: a component reads its own signals and its children's ports, nothing else --------------------

    private void checkReferences(Component c) {
        Set<Expr> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        walkStatements(c, c.body(), seen);
        for (Mem m : c.mems()) {
            if (m.write() != null) {
                checkExpr(c, m.write().enable(), m.write().loc(), seen);
                checkExpr(c, m.write().address(), m.write().loc(), seen);
                checkExpr(c, m.write().data(), m.write().loc(), seen);
            }
            for (MemRead r : m.reads()) {
                checkExpr(c, r.address(), r.loc(), seen);
                checkExpr(c, r.enable(), r.loc(), seen);
            }
        }
    }

    private void walkStatements(Component c, List<Stmt> stmts, Set<Expr> seen) {
        for (Stmt s : stmts) {
            if (s instanceof Stmt.Assign a) {
                checkExpr(c, a.value(), a.loc(), seen);
            } else if (s instanceof Stmt.When w) {
                checkExpr(c, w.cond(), w.loc(), seen);
                walkStatements(c, w.then(), seen);
                walkStatements(c, w.otherwise(), seen);
            }
        }
    }

    private void checkExpr(Component c, Expr root, SourceLoc stmtLoc, Set<Expr> seen) {
        Deque<Expr> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            Expr e = stack.pop();
            if (!seen.add(e)) {
                continue;
            }
            if (e instanceof Signal s) {
                boolean own = s.owner() == c;
                boolean childPort = s instanceof Port && s.owner().parent() == c;
                if (!own && !childPort) {
                    throw new HdlException(s.describe() + " is read in component " + c.path()
                            + ", which can see only its own signals and its children's ports", stmtLoc);
                }
            } else if (e instanceof Op op) {
                op.args().forEach(stack::push);
            }
        }
    }

    // ---- folding when/otherwise into multiplexers ----------------------------------------------------------------

    private void fold(Component c) {
        Map<Signal, Expr> result = foldBlock(c.body(), new LinkedHashMap<>());
        drivers.putAll(result);
    }

    private Map<Signal, Expr> foldBlock(List<Stmt> stmts, Map<Signal, Expr> current) {
        for (Stmt s : stmts) {
            if (s instanceof Stmt.Assign a) {
                current.put(a.target(), a.value());
            } else if (s instanceof Stmt.When w) {
                Map<Signal, Expr> thenMap = foldBlock(w.then(), new LinkedHashMap<>(current));
                Map<Signal, Expr> elseMap = foldBlock(w.otherwise(), new LinkedHashMap<>(current));
                Set<Signal> touched = new LinkedHashSet<>(thenMap.keySet());
                touched.addAll(elseMap.keySet());
                for (Signal sig : touched) {
                    Expr before = current.containsKey(sig) ? current.get(sig) : holdValue(sig);
                    Expr t = thenMap.getOrDefault(sig, before);
                    Expr e = elseMap.getOrDefault(sig, before);
                    current.put(sig, t == e ? t : new Op(OpKind.MUX, sig.width(), List.of(w.cond(), t, e), 0, 0, w.loc()));
                }
            }
        }
        return current;
    }

    /** What a signal has on a path that does not assign it: registers hold, everything else has nothing. */
    private static Expr holdValue(Signal s) {
        return s instanceof Reg ? s : new Undriven(s.width());
    }

    // ---- every output, wire, register and child input is driven, on every path -----------------------------------

    private void checkDriven(Component c) {
        List<Signal> mustDrive = new ArrayList<>();
        for (Port p : c.ports()) {
            if (!p.isInput()) {
                mustDrive.add(p);
            }
        }
        mustDrive.addAll(c.wires());
        mustDrive.addAll(c.regs());
        for (Component child : c.children()) {
            for (Port p : child.ports()) {
                if (p.isInput()) {
                    mustDrive.add(p);
                }
            }
        }
        for (Signal s : mustDrive) {
            Expr d = drivers.get(s);
            if (d == null) {
                throw new HdlException(s.describe() + " is never driven", s.loc());
            }
            if (!(s instanceof Reg) && hasUndrivenPath(d)) {
                throw new HdlException(s.describe() + " is not assigned on every path (that would be a latch);"
                        + " give it a default value before the when", s.loc());
            }
        }
    }

    private static boolean hasUndrivenPath(Expr e) {
        if (e instanceof Undriven) {
            return true;
        }
        // Only the multiplexers made by folding can hold the placeholder.
        return e instanceof Op op && op.kind() == OpKind.MUX
                && (hasUndrivenPath(op.arg(1)) || hasUndrivenPath(op.arg(2)));
    }

    // ---- combinational loops through wires, outputs and child inputs ---------------------------------------------

    private void checkCombinationalLoops() {
        Map<Expr, List<Signal>> reachMemo = new IdentityHashMap<>();
        Map<Signal, List<Signal>> edges = new IdentityHashMap<>();
        for (Map.Entry<Signal, Expr> e : drivers.entrySet()) {
            if (isCombinational(e.getKey())) {
                edges.put(e.getKey(), combinationalInputs(e.getValue(), reachMemo));
            }
        }
        // Iterative DFS with colours; on a back edge, print the loop.
        Map<Signal, Integer> colour = new IdentityHashMap<>();
        for (Signal start : edges.keySet()) {
            if (colour.containsKey(start)) {
                continue;
            }
            Deque<Signal> path = new ArrayDeque<>();
            Deque<Integer> nextEdge = new ArrayDeque<>();
            path.push(start);
            nextEdge.push(0);
            colour.put(start, 1);
            while (!path.isEmpty()) {
                Signal s = path.peek();
                int i = nextEdge.pop();
                List<Signal> out = edges.getOrDefault(s, List.of());
                if (i == out.size()) {
                    colour.put(s, 2);
                    path.pop();
                    continue;
                }
                nextEdge.push(i + 1);
                Signal t = out.get(i);
                Integer ct = colour.get(t);
                if (ct == null) {
                    colour.put(t, 1);
                    path.push(t);
                    nextEdge.push(0);
                } else if (ct == 1) {
                    throw loopError(path, t);
                }
            }
        }
    }

    private static HdlException loopError(Deque<Signal> path, Signal closing) {
        List<Signal> loop = new ArrayList<>();
        for (Signal s : path) { // innermost first
            loop.add(s);
            if (s == closing) {
                break;
            }
        }
        Collections.reverse(loop);
        StringBuilder sb = new StringBuilder("combinational loop: ");
        for (Signal s : loop) {
            sb.append(s.path()).append(" (").append(s.loc()).append(") -> ");
        }
        sb.append(closing.path());
        return new HdlException(sb.toString());
    }

    private static boolean isCombinational(Signal s) {
        return s instanceof Wire || s instanceof Port;
    }

    /** The combinational signals an expression reads directly (through operators, not through other signals). */
    private List<Signal> combinationalInputs(Expr root, Map<Expr, List<Signal>> memo) {
        Set<Signal> found = new LinkedHashSet<>();
        Deque<Expr> stack = new ArrayDeque<>();
        Set<Expr> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        stack.push(root);
        while (!stack.isEmpty()) {
            Expr e = stack.pop();
            if (!seen.add(e)) {
                continue;
            }
            List<Signal> known = memo.get(e);
            if (known != null) {
                found.addAll(known);
            } else if (e instanceof Signal s) {
                if (isCombinational(s) && drivers.containsKey(s)) {
                    found.add(s);
                }
            } else if (e instanceof Op op) {
                op.args().forEach(stack::push);
            }
        }
        List<Signal> list = new ArrayList<>(found);
        memo.put(root, list);
        return list;
    }

    /** Counts of signals by kind, for reports. */
    public Map<String, Integer> statistics() {
        Map<String, Integer> m = new HashMap<>();
        for (Component c : components) {
            m.merge("components", 1, Integer::sum);
            m.merge("registers", c.regs().size(), Integer::sum);
            m.merge("wires", c.wires().size(), Integer::sum);
            m.merge("memories", c.mems().size(), Integer::sum);
        }
        return m;
    }
}
