package org.sue.sim;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.sue.core.Component;
import org.sue.core.Const;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Mem;
import org.sue.core.MemRead;
import org.sue.core.Op;
import org.sue.core.OpKind;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Signal;

/**
 * Turns an elaborated design into straight-line Java: the combinational graph is sorted once (levelized), every
 * signal and every shared or wide intermediate value gets a field, single-use narrow operators are inlined, and the
 * code is split into small methods so the JIT compiles them (HotSpot skips methods over 8000 bytecodes), grouped in
 * partitions that run only when what they read changed ({@link ActivityPartition}).
 */
final class SimCompiler {
    /** Source characters per generated method; keeps each well under HotSpot's huge-method limit. */
    private static final int CHUNK_CHARS = 2500;
    /** An inlined expression longer than this is stored in a field instead. */
    private static final int INLINE_CHARS = 300;
    /** Code that reads a field or is a constant: nothing to compute. */
    private static final java.util.regex.Pattern FIELD_OR_CONSTANT = java.util.regex.Pattern.compile(
            "[A-Za-z_]\\w*|0x[0-9a-f]+L");

    private final Design design;
    private final Map<Expr, Integer> fanout = new IdentityHashMap<>();
    private final Map<Expr, String> code = new IdentityHashMap<>();
    private final List<Expr> order = new ArrayList<>();
    private final List<String> fields = new ArrayList<>();
    private final List<String> evalStmts = new ArrayList<>();
    /** Per eval statement, the sources its value depends on (canonical sets, see {@link ActivityPartition}). */
    private final List<BitSet> evalSupports = new ArrayList<>();
    /** Per eval statement, the operator or signal whose value it computes into its field. */
    private final List<Expr> evalOwners = new ArrayList<>();
    private final Map<Expr, Integer> stmtOf = new IdentityHashMap<>();
    private BitSet currentSupport;
    private Expr currentOwner;
    private Supports sources;
    private ActivityPartition partition;
    private final List<String> tickStmts = new ArrayList<>();
    private final List<String> commitStmts = new ArrayList<>();
    private final Map<Signal, String> signalField = new IdentityHashMap<>();
    private final List<Signal> allSignals = new ArrayList<>();
    private final List<Mem> mems = new ArrayList<>();
    private final List<Reg> regs = new ArrayList<>();
    private final List<MemRead> memReads = new ArrayList<>();
    private int nextId;
    private final boolean packed;
    /** Elements of {@code x} given out (packed). */
    private int packedSlots;
    /** Methods written, and partitions (a dirty flag each): with the fields, what fills the class's constants. */
    private int methods;
    private int partitions;
    private ValueNumbering vn;
    private final String resetField;
    final List<SimSignal> simSignals = new ArrayList<>();
    final List<Mem> memList = mems;
    final String className;

    SimCompiler(Design design) {
        this(design, false);
    }

    /**
     * With {@code packed}, the narrow temporaries (operators' values, registers' and memory reads' next values) are
     * elements of one array {@code x} and the partitions' dirty flags of one array {@code dirty}, instead of a field
     * each: a class holds at most 65,535 constants, and every field a method reads takes three of them (a design of
     * some 20,000 fields, as a 4-port instance with AXI4, exceeds it). An array element costs a bounds check, so only
     * designs too large for fields are packed ({@link Simulator#compile}).
     */
    SimCompiler(Design design, boolean packed) {
        this.design = design;
        this.packed = packed;
        // named after the module (readable in profiles); each compiled class has its own class loader
        this.className = "org.sue.sim.gen." + design.top().moduleName().replaceAll("[^A-Za-z0-9_]", "_") + "Sim";
        this.resetField = "in_rst";
    }

    String generate() {
        collectSignals();
        List<Expr> roots = new ArrayList<>();
        for (Signal s : allSignals) {
            Expr d = design.driver(s);
            if (d != null) {
                roots.add(d);
            }
        }
        for (MemRead r : memReads) {
            roots.add(r.address());
            roots.add(r.enable());
        }
        for (Mem m : mems) {
            if (m.write() != null) {
                roots.add(m.write().enable());
                roots.add(m.write().address());
                roots.add(m.write().data());
            }
        }
        roots.forEach(this::visit);
        vn = new ValueNumbering(order);
        order.removeIf(e -> vn.of(e) != e); // only representatives are computed
        banks.addAll(MemoryBank.find(design, vn::of));
        for (int k = 0; k < banks.size(); k++) {
            for (int i = 0; i < banks.get(k).lanes.size(); i++) {
                bankOf.put(banks.get(k).lanes.get(i), new int[] {k, i});
            }
        }
        declareMemories();
        roots.forEach(r -> count(vn.of(r)));
        emitCombinational();
        partitionEval();
        emitTick();
        return assemble();
    }

    // ---- collection ----------------------------------------------------------------------------------------------

    private void collectSignals() {
        fields.add("long " + resetField + ";");
        for (Component c : design.components()) {
            for (Port p : c.ports()) {
                addSignal(p, c == design.top() && p.isInput());
            }
            for (Reg r : c.regs()) {
                addSignal(r, false);
                regs.add(r);
            }
            c.wires().forEach(w -> addSignal(w, false));
            for (MemRead r : c.memReads()) {
                addSignal(r, false);
                memReads.add(r);
            }
            mems.addAll(c.mems());
        }
    }

    /** A field per memory, except byte lanes kept in a bank: one flat array of rows per bank. */
    private void declareMemories() {
        for (int m = 0; m < mems.size(); m++) {
            Mem mem = mems.get(m);
            if (bankOf.containsKey(mem)) {
                continue;
            }
            fields.add((mem.width() > 64 ? "final long[][] mem" + m + " = new long[" + mem.depth() + "]["
                    + words(mem.width()) + "];" : "final long[] mem" + m + " = new long[" + mem.depth() + "];"));
        }
        for (int k = 0; k < banks.size(); k++) {
            MemoryBank b = banks.get(k);
            int w = b.rowWords();
            int lanes64 = (b.lanes.size() + 63) / 64;
            fields.add("final long[] bank" + k + " = new long[" + (b.depth() * w) + "];");
            fields.add("final long[] bankR" + k + " = new long[" + w + "];");
            fields.add("final long[] nbankR" + k + " = new long[" + w + "];");
            fields.add("final long[] bankRsel" + k + " = new long[" + lanes64 + "];");
            fields.add("final long[] bankWen" + k + " = new long[" + lanes64 + "];");
            fields.add("final long[] bankWsel" + k + " = new long[" + lanes64 + "];");
            fields.add("final long[] bankWdata" + k + " = new long[" + w + "];");
            for (int i = 0; i < b.lanes.size(); i++) {
                MemRead r = b.readPort(i);
                bankLane.put(r, new Object[] {"bankR" + k, 8 * i});
                code.put(r, "((bankR" + k + "[" + (i >>> 3) + "] >>> " + 8 * (i & 7) + ") & 0xffL)");
            }
        }
    }

    private final List<MemoryBank> banks = new ArrayList<>();
    /** memory -> {bank index, lane} */
    private final Map<Mem, int[]> bankOf = new IdentityHashMap<>();
    private final Map<Expr, Object[]> bankLane = new IdentityHashMap<>();

    private void addSignal(Signal s, boolean settable) {
        int id = simSignals.size();
        String f = (s.width() > 64 ? "w" : "s") + id;
        signalField.put(s, f);
        code.put(s, f);
        allSignals.add(s);
        simSignals.add(new SimSignal(id, s, s.path(), s.width(), settable));
        fields.add(declare(f, s.width()));
    }

    private static String declare(String name, int width) {
        return width > 64 ? "final long[] " + name + " = new long[" + words(width) + "];" : "long " + name + ";";
    }

    /** Depth-first post-order over operator nodes, iteratively (deep expression chains must not overflow the stack). */
    private void visit(Expr root) {
        if (!(root instanceof Op) || fanout.containsKey(root)) {
            return;
        }
        Deque<Expr> stack = new ArrayDeque<>();
        Deque<Boolean> expanded = new ArrayDeque<>();
        stack.push(root);
        expanded.push(false);
        fanout.put(root, 0);
        while (!stack.isEmpty()) {
            Expr e = stack.pop();
            boolean done = expanded.pop();
            if (done) {
                order.add(e);
                continue;
            }
            stack.push(e);
            expanded.push(true);
            for (Expr a : ((Op) e).args()) {
                if (a instanceof Op && !fanout.containsKey(a)) {
                    fanout.put(a, 0);
                    stack.push(a);
                    expanded.push(false);
                }
            }
        }
    }

    /** Counts one more use of e (by a signal driver, a memory port, or a parent operator when first seen). */
    private void count(Expr e) {
        if (e instanceof Op) {
            fanout.merge(e, 1, Integer::sum);
        }
    }

    // ---- combinational code ----------------------------------------------------------------------------------------

    private void emitCombinational() {
        // Uses by parent operators (each node's args counted once per parent).
        for (Expr e : order) {
            for (Expr a : args((Op) e)) {
                count(a);
            }
        }
        for (Expr e : order) {
            if (e instanceof Op op && op.kind() == OpKind.XOR_R && args(op).get(0) instanceof Op) {
                parityUsers.put(args(op).get(0), true);
            }
        }
        indexSources();
        // Operators in dependency order; signals are written when their driver is ready, which needs signals in
        // dependency order too: emit each signal right after the last operator it needs, by sorting signals after ops.
        List<Signal> combSignals = new ArrayList<>();
        for (Signal s : allSignals) {
            if (!(s instanceof Reg) && !(s instanceof MemRead) && design.driver(s) != null) {
                combSignals.add(s);
            }
        }
        // Signals can depend on signals through operators; a global topological order over both kinds is needed.
        for (Expr e : topologicalOrder(combSignals)) {
            currentSupport = sources.support(e);
            currentOwner = e;
            if (e instanceof Signal s) {
                emitSignal(s);
            } else {
                emitOp((Op) e);
            }
        }
    }

    /** Topological order over operators and combinational signals together. */
    private List<Expr> topologicalOrder(List<Signal> combSignals) {
        Map<Expr, Boolean> isComb = new IdentityHashMap<>();
        combSignals.forEach(s -> isComb.put(s, true));
        List<Expr> out = new ArrayList<>();
        Map<Expr, Integer> state = new IdentityHashMap<>();
        Deque<Expr> stack = new ArrayDeque<>();
        List<Expr> roots = new ArrayList<>(combSignals);
        roots.addAll(order);
        for (Expr root : roots) {
            if (state.containsKey(root)) {
                continue;
            }
            stack.push(root);
            while (!stack.isEmpty()) {
                Expr e = stack.peek();
                Integer st = state.get(e);
                if (st == null) {
                    state.put(e, 1);
                    for (Expr dep : deps(e, isComb)) {
                        if (!state.containsKey(dep)) {
                            stack.push(dep);
                        }
                    }
                } else {
                    stack.pop();
                    if (st == 1) {
                        state.put(e, 2);
                        out.add(e);
                    }
                }
            }
        }
        return out;
    }

    private List<Expr> deps(Expr e, Map<Expr, Boolean> isComb) {
        List<Expr> d = new ArrayList<>();
        List<Expr> sources = e instanceof Op op ? args(op) : List.of(vn.of(design.driver((Signal) e)));
        for (Expr a : sources) {
            if (a instanceof Op || isComb.containsKey(a)) {
                d.add(a);
            }
        }
        return d;
    }

    private void addEval(String stmt) {
        stmtOf.put(currentOwner, evalStmts.size());
        evalStmts.add(stmt);
        evalSupports.add(currentSupport);
        evalOwners.add(currentOwner);
    }

    private void partitionEval() {
        int n = evalStmts.size();
        int[] chars = new int[n];
        List<int[]> reads = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            chars[i] = evalStmts.get(i).length();
            reads.add(readsOf(evalOwners.get(i)));
        }
        partition = new ActivityPartition(chars, evalSupports, reads, sources.count, CHUNK_CHARS);
    }

    /**
     * What the statement computing owner reads: the statements and sources ({@code -(s + 1)}) behind the fields its
     * code names, looking through inlined operators, fused parities and signals that read another field in place.
     */
    private int[] readsOf(Expr owner) {
        java.util.Set<Integer> out = new java.util.LinkedHashSet<>();
        Map<Expr, Boolean> seen = new IdentityHashMap<>();
        Deque<Expr> todo = new ArrayDeque<>(depsOf(owner));
        while (!todo.isEmpty()) {
            Expr d = todo.pop();
            if (d instanceof Const || seen.put(d, true) != null) {
                continue;
            }
            Integer source = sources.index.get(d);
            Integer stmt = stmtOf.get(d);
            if (source != null) {
                out.add(-source - 1);
            } else if (stmt != null) {
                out.add(stmt);
            } else if (d instanceof Op || (design.driver((Signal) d) != null)) {
                todo.addAll(depsOf(d));
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private List<Expr> depsOf(Expr e) {
        return e instanceof Op op ? args(op) : List.of(vn.of(design.driver((Signal) e)));
    }

    private void indexSources() {
        sources = new Supports();
        for (SimSignal ss : simSignals) {
            Signal s = ss.signal();
            if (s instanceof Reg || (s instanceof MemRead r && !bankLane.containsKey(r)) || ss.settable()) {
                sources.add(s);
            }
        }
        for (int k = 0; k < banks.size(); k++) {
            for (int i = 0; i < banks.get(k).lanes.size(); i++) {
                sources.index.put(banks.get(k).readPort(i), sources.count);
            }
            sources.count++;
        }
    }

    /**
     * The sources (registers, registered memory reads, banks' read words, top-level inputs) and the support of every
     * combinational value: the sources it is a function of. Supports are canonical: equal sets are one object.
     */
    private final class Supports {
        final Map<Expr, Integer> index = new IdentityHashMap<>();
        int count;
        private final Map<Expr, BitSet> memo = new IdentityHashMap<>();
        private final Map<BitSet, BitSet> canonical = new HashMap<>();
        private final BitSet empty = canon(new BitSet());

        void add(Signal s) {
            index.put(s, count++);
        }

        /** The support of an operator or combinational signal whose operands' supports are known. */
        BitSet support(Expr e) {
            List<Expr> deps = depsOf(e);
            BitSet widest = empty;
            for (Expr d : deps) {
                BitSet b = of(d);
                if (b.cardinality() > widest.cardinality()) {
                    widest = b;
                }
            }
            BitSet union = null;
            for (Expr d : deps) {
                BitSet b = of(d);
                if (b != widest && b != empty) {
                    if (union == null) {
                        union = (BitSet) widest.clone();
                    }
                    union.or(b);
                }
            }
            BitSet result = union == null ? widest : canon(union);
            memo.put(e, result);
            return result;
        }

        private BitSet of(Expr x) {
            BitSet b = memo.get(x);
            if (b != null) {
                return b;
            }
            Integer i = index.get(x);
            if (i != null) {
                BitSet one = new BitSet();
                one.set(i);
                b = canon(one);
                memo.put(x, b);
                return b;
            }
            if (x instanceof Op || (x instanceof Signal s && design.driver(s) != null && !(s instanceof Reg)
                    && !(s instanceof MemRead))) {
                throw new IllegalStateException("simulator: support of " + x + " needed before it was computed");
            }
            return empty; // a constant or an undriven signal
        }

        private BitSet canon(BitSet b) {
            return canonical.computeIfAbsent(b, k -> k);
        }

        /** Statements marking dirty the partitions that read a source. */
        String marks(Expr source) {
            Integer i = index.get(source);
            return i == null ? "" : SimCompiler.this.marks(partition.sourceReaders.get(i));
        }
    }

    /** Statements setting the dirty flags of partitions. */
    private String marks(java.util.Collection<Integer> parts) {
        StringBuilder sb = new StringBuilder();
        parts.forEach(p -> sb.append(sb.length() == 0 ? "" : " ").append(dirty(p)).append(" = true;"));
        return sb.toString();
    }

    /** Writes {@code value} into narrow field f; if it changed, marks the partitions depending on source. */
    private String commitNarrow(String f, String value, Expr source) {
        String marks = sources.marks(source);
        return marks.isEmpty() ? f + " = " + value + ";"
                : "if (" + f + " != (" + value + ")) { " + f + " = " + value + "; " + marks + " }";
    }

    /** Copies wide {@code from} into f; if it changed, marks the partitions depending on source. */
    private String commitWide(String from, String f, int width, Expr source) {
        String marks = sources.marks(source);
        return marks.isEmpty() ? "System.arraycopy(" + from + ", 0, " + f + ", 0, " + words(width) + ");"
                : "if (SimOps.copyChanged(" + from + ", " + f + ")) { " + marks + " }";
    }

    private void emitSignal(Signal s) {
        Expr d = design.driver(s);
        String f = signalField.get(s);
        String value = ref(d);
        if (FIELD_OR_CONSTANT.matcher(value).matches()) {
            code.put(s, value); // a copy of a field or a constant: read that instead
            return;
        }
        if (s.width() > 64) {
            addEval("System.arraycopy(" + ref(d) + ", 0, " + f + ", 0, " + words(s.width()) + ");");
        } else {
            addEval(f + " = " + ref(d) + ";");
        }
    }

    private final ConcatWords.Context concatContext = new ConcatWords.Context() {
        @Override
        public List<Expr> args(Op op) {
            return SimCompiler.this.args(op);
        }

        @Override
        public String ref(Expr e) {
            return SimCompiler.this.ref(e);
        }

        @Override
        public Object[] bankLane(Expr e) {
            return bankLane.get(e);
        }
    };

    /** The operands of op as computed: each replaced by its representative. */
    private List<Expr> args(Op op) {
        List<Expr> a = new ArrayList<>(op.args().size());
        for (Expr x : op.args()) {
            a.add(vn.of(x));
        }
        return a;
    }

    /** How to read an expression's value in generated code (a field, literal, or inlined expression). */
    private String ref(Expr e) {
        e = vn.of(e);
        if (e instanceof Const c) {
            return constant(c);
        }
        String s = code.get(e);
        if (s == null) {
            throw new IllegalStateException("simulator: expression used before it was generated: " + e);
        }
        return s;
    }

    private final Map<String, String> wideConstants = new java.util.HashMap<>();

    private String constant(Const c) {
        if (c.width() <= 64) {
            return "0x" + c.value().toString(16) + "L";
        }
        String key = c.width() + ":" + c.value().toString(16);
        return wideConstants.computeIfAbsent(key, k -> {
            String name = "C" + wideConstants.size();
            long[] w = toWords(c.value(), c.width());
            StringBuilder sb = new StringBuilder("static final long[] " + name + " = {");
            for (int i = 0; i < w.length; i++) {
                sb.append(i == 0 ? "" : ", ").append("0x").append(Long.toHexString(w[i])).append("L");
            }
            fields.add(sb.append("};").toString());
            return name;
        });
    }

    /** A wide AND with a constant whose only user is an XOR reduction: computed fused, as one parity. */
    private boolean fusedIntoParity(Op op) {
        return op.kind() == OpKind.AND && op.width() > 64 && fanout.getOrDefault(op, 0) == 1
                && (args(op).get(0) instanceof Const || args(op).get(1) instanceof Const) && parityUsers.containsKey(op);
    }

    private final Map<Expr, Boolean> parityUsers = new IdentityHashMap<>();

    private void emitOp(Op op) {
        if (fusedIntoParity(op)) {
            return;
        }
        if (op.kind() == OpKind.XOR_R && args(op).get(0) instanceof Op and && fusedIntoParity(and)) {
            List<Expr> ands = args(and);
            Expr x = ands.get(0) instanceof Const ? ands.get(1) : ands.get(0);
            Const c = (Const) (ands.get(0) instanceof Const ? ands.get(0) : ands.get(1));
            String expr = "SimOps.parityAnd(" + ref(x) + ", " + constant(c) + ")";
            if (fanout.getOrDefault(op, 0) > 1) {
                String f = newField(1);
                addEval(f + " = " + expr + ";");
                code.put(op, f);
            } else {
                code.put(op, expr);
            }
            return;
        }
        boolean wide = op.width() > 64;
        if (wide) {
            String f = newField(op.width());
            code.put(op, f);
            String stmt = wideOp(op, f);
            if (stmt.length() > CHUNK_CHARS) {
                // a wide value of many inlined parts (a concatenation of lane expressions) would be one method
                // over HotSpot's huge-method limit, never compiled: the parts first, each into a field
                hoistInlinedArgs(op);
                stmt = wideOp(op, f);
            }
            addEval(stmt);
            return;
        }
        String expr = narrowOp(op);
        if (fanout.getOrDefault(op, 0) > 1 || expr.length() > INLINE_CHARS) {
            String f = newField(op.width());
            addEval(f + " = " + expr + ";");
            code.put(op, f);
        } else {
            code.put(op, expr);
        }
    }

    /** Computes each narrow argument of op that is an inlined expression into a field of its own, read from there. */
    private void hoistInlinedArgs(Op op) {
        BitSet support = currentSupport;
        for (Expr a : args(op)) {
            String c = code.get(a);
            if (a instanceof Op && a.width() <= 64 && c != null && !FIELD_OR_CONSTANT.matcher(c).matches()) {
                currentSupport = sources.of(a);
                currentOwner = a;
                String f = newField(a.width());
                addEval(f + " = " + c + ";");
                code.put(a, f);
            }
        }
        currentSupport = support;
        currentOwner = op;
    }

    private String newField(int width) {
        String f = (width > 64 ? "v" : "t") + (nextId++);
        if (width <= 64) {
            return narrowTemp(f);
        }
        fields.add(declare(f, width));
        return f;
    }

    /** A narrow temporary: field {@code name}, or an element of {@code x} when packed. */
    private String narrowTemp(String name) {
        if (packed) {
            return "x[" + packedSlots++ + "]";
        }
        fields.add("long " + name + ";");
        return name;
    }

    /** Partition p's dirty flag. */
    private String dirty(int p) {
        return packed ? "dirty[" + p + "]" : "d" + p;
    }

    /**
     * Roughly the constants the generated class needs: three per field and per method it refers to (a reference, a
     * name and type, a name), so that {@link Simulator#compile} can tell when to pack.
     */
    int constantsEstimate() {
        return 3 * (fields.size() + partitions + methods);
    }

    private String narrowOp(Op op) {
        int w = op.width();
        String m = w >= 64 ? "" : " & " + hex(SimOps.mask(w));
        List<Expr> a = args(op);
        Expr a0 = a.get(0);
        boolean wideArg = a0.width() > 64;
        switch (op.kind()) {
            case AND: return "(" + ref(a0) + " & " + ref(a.get(1)) + ")";
            case OR: return "(" + ref(a0) + " | " + ref(a.get(1)) + ")";
            case XOR: return "(" + ref(a0) + " ^ " + ref(a.get(1)) + ")";
            case NOT: return "(~" + ref(a0) + m + ")";
            case ADD: return "((" + ref(a0) + " + " + ref(a.get(1)) + ")" + m + ")";
            case SUB: return "((" + ref(a0) + " - " + ref(a.get(1)) + ")" + m + ")";
            case EQ: case NE: {
                String cmp = wideArg ? "SimOps.eq(" + ref(a0) + ", " + ref(a.get(1)) + ")"
                        : ref(a0) + " == " + ref(a.get(1));
                return op.kind() == OpKind.EQ ? "(" + cmp + " ? 1L : 0L)" : "(" + cmp + " ? 0L : 1L)";
            }
            case LT: case LE: case GT: case GE: {
                String rel = switch (op.kind()) {
                    case LT -> " < 0";
                    case LE -> " <= 0";
                    case GT -> " > 0";
                    default -> " >= 0";
                };
                String c = wideArg ? "SimOps.compare(" + ref(a0) + ", " + ref(a.get(1)) + ")"
                        : "Long.compareUnsigned(" + ref(a0) + ", " + ref(a.get(1)) + ")";
                return "(" + c + rel + " ? 1L : 0L)";
            }
            case SHL: return "((" + ref(a0) + " << " + op.p0() + ")" + m + ")";
            case SHR: return "(" + ref(a0) + " >>> " + op.p0() + ")";
            case SHL_VAR: return "SimOps.shl(" + ref(a0) + ", " + amount(a.get(1)) + ", " + w + ")";
            case SHR_VAR: return "SimOps.shr(" + ref(a0) + ", " + amount(a.get(1)) + ", " + w + ")";
            case MUX: return "(" + ref(a0) + " != 0L ? " + ref(a.get(1)) + " : " + ref(a.get(2)) + ")";
            case CONCAT:
                return ConcatWords.or(new ConcatWords(concatContext, w, a).terms.get(0), t -> "(" + t + ")");
            case SLICE:
                if (wideArg && (op.p1() & 63) + w <= 64) { // within one word: inline
                    return "((" + ref(a0) + "[" + (op.p1() >>> 6) + "] >>> " + (op.p1() & 63) + ")" + m + ")";
                }
                return wideArg ? "SimOps.extract(" + ref(a0) + ", " + op.p1() + ", " + w + ")"
                        : "((" + ref(a0) + " >>> " + op.p1() + ")" + m + ")";
            case RESIZE:
                if (wideArg) {
                    return "(" + ref(a0) + "[0]" + m + ")";
                }
                return w >= a0.width() ? ref(a0) : "(" + ref(a0) + m + ")";
            case AND_R:
                return wideArg ? "SimOps.andR(" + ref(a0) + ", " + a0.width() + ")"
                        : "(" + ref(a0) + " == " + hex(SimOps.mask(a0.width())) + " ? 1L : 0L)";
            case OR_R:
                return wideArg ? "SimOps.orR(" + ref(a0) + ")" : "(" + ref(a0) + " != 0L ? 1L : 0L)";
            case XOR_R:
                if (wideArg) {
                    return "SimOps.xorR(" + ref(a0) + ")";
                }
                return "(Long.bitCount(" + ref(a0) + ") & 1L)";
            default:
                throw new IllegalStateException("simulator: no narrow code for " + op.kind());
        }
    }

    private String amount(Expr e) {
        return e.width() > 64 ? "SimOps.amount(" + ref(e) + ")" : ref(e);
    }

    private String wideOp(Op op, String d) {
        List<Expr> a = args(op);
        String top = hex(SimOps.topMask(op.width()));
        switch (op.kind()) {
            case AND: return "SimOps.and(" + d + ", " + ref(a.get(0)) + ", " + ref(a.get(1)) + ");";
            case OR: return "SimOps.or(" + d + ", " + ref(a.get(0)) + ", " + ref(a.get(1)) + ");";
            case XOR: return "SimOps.xor(" + d + ", " + ref(a.get(0)) + ", " + ref(a.get(1)) + ");";
            case NOT: return "SimOps.not(" + d + ", " + ref(a.get(0)) + ", " + top + ");";
            case ADD: return "SimOps.add(" + d + ", " + ref(a.get(0)) + ", " + ref(a.get(1)) + ", " + top + ");";
            case SUB: return "SimOps.sub(" + d + ", " + ref(a.get(0)) + ", " + ref(a.get(1)) + ", " + top + ");";
            case SHL: return "SimOps.shl(" + d + ", " + ref(a.get(0)) + ", " + op.p0() + "L, " + top + ");";
            case SHR: return "SimOps.shr(" + d + ", " + ref(a.get(0)) + ", " + op.p0() + "L);";
            case SHL_VAR: return "SimOps.shl(" + d + ", " + ref(a.get(0)) + ", " + amount(a.get(1)) + ", " + top + ");";
            case SHR_VAR: return "SimOps.shr(" + d + ", " + ref(a.get(0)) + ", " + amount(a.get(1)) + ");";
            case MUX: return "System.arraycopy(" + ref(a.get(0)) + " != 0L ? " + ref(a.get(1)) + " : " + ref(a.get(2))
                    + ", 0, " + d + ", 0, " + words(op.width()) + ");";
            case CONCAT: {
                // one term per word for runs of similar lanes and for parts inside one word; wide or straddling
                // parts are deposited into the cleared destination first
                ConcatWords cw = new ConcatWords(concatContext, op.width(), a);
                StringBuilder sb = new StringBuilder();
                if (cw.needsClear()) {
                    sb.append("SimOps.clear(" + d + ");");
                    for (int i = 0; i < cw.deposits.size(); i++) {
                        int[] at = cw.deposits.get(i);
                        Expr p = cw.depositParts.get(i);
                        sb.append(p.width() > 64
                                ? " SimOps.depositWide(" + d + ", " + at[0] + ", " + ref(p) + ", " + p.width() + ");"
                                : " SimOps.deposit(" + d + ", " + at[0] + ", " + ref(p) + ", " + p.width() + ");");
                    }
                }
                for (int i = 0; i < cw.terms.size(); i++) {
                    List<String> t = cw.terms.get(i);
                    if (cw.needsClear() && !t.isEmpty()) {
                        sb.append(" " + d + "[" + i + "] |= " + String.join(" | ", t) + ";");
                    } else if (!cw.needsClear()) {
                        sb.append(" " + d + "[" + i + "] = " + ConcatWords.or(t, x -> x) + ";");
                    }
                }
                return sb.toString().trim();
            }
            case SLICE: return "SimOps.extractWide(" + d + ", " + ref(a.get(0)) + ", " + op.p1() + ", " + top + ");";
            case RESIZE:
                return a.get(0).width() > 64 ? "SimOps.resize(" + d + ", " + ref(a.get(0)) + ", " + top + ");"
                        : "SimOps.fromNarrow(" + d + ", " + ref(a.get(0)) + ");";
            default:
                throw new IllegalStateException("simulator: no wide code for " + op.kind());
        }
    }

    // ---- clock edge ----------------------------------------------------------------------------------------------

    private void emitTick() {
        // 1. next values of memory reads from the pre-edge state (read-first), then memory writes; registers below
        List<String> regNext = new ArrayList<>();
        for (Reg r : regs) {
            regNext.add(ref(design.driver(r)));
        }
        for (MemRead r : memReads) {
            if (bankLane.containsKey(r)) {
                continue;
            }
            String f = signalField.get(r);
            int m = mems.indexOf(r.mem());
            String addr = ref(r.address());
            String guard = "if (" + ref(r.enable()) + " != 0L && " + addr + " < " + r.mem().depth() + "L) ";
            String tmp = r.width() > 64 ? "n" + f : narrowTemp("n" + f);
            if (r.width() > 64) {
                fields.add("final long[] " + tmp + " = new long[" + words(r.width()) + "];");
                fields.add("boolean e" + f + ";");
                tickStmts.add("e" + f + " = false; " + guard + "{ System.arraycopy(mem" + m + "[(int) " + addr
                        + "], 0, " + tmp + ", 0, " + words(r.width()) + "); e" + f + " = true; }");
                commitStmts.add("if (e" + f + ") { " + commitWide(tmp, f, r.width(), r) + " }");
            } else {
                tickStmts.add(tmp + " = " + f + "; " + guard + tmp + " = mem" + m + "[(int) " + addr + "];");
                commitStmts.add(commitNarrow(f, tmp, r));
            }
        }
        // 2. memory writes (after the reads above: read-first)
        for (int k = 0; k < banks.size(); k++) {
            emitBankRead(k);
        }
        for (int m = 0; m < mems.size(); m++) {
            Mem mem = mems.get(m);
            if (mem.write() == null || bankOf.containsKey(mem)) {
                continue;
            }
            String addr = ref(mem.write().address());
            String guard = "if (" + ref(mem.write().enable()) + " != 0L && " + addr + " < " + mem.depth() + "L) ";
            if (mem.width() > 64) {
                tickStmts.add(guard + "System.arraycopy(" + ref(mem.write().data()) + ", 0, mem" + m + "[(int) " + addr
                        + "], 0, " + words(mem.width()) + ");");
            } else {
                tickStmts.add(guard + "mem" + m + "[(int) " + addr + "] = " + ref(mem.write().data()) + ";");
            }
        }
        for (int k = 0; k < banks.size(); k++) {
            emitBankWrite(k);
        }
        emitRegisters(regNext);
    }

    /**
     * Registers. One whose field nothing else on the clock edge reads (no other register's next value, no memory
     * port) is updated in one step, straight from its next value, before the others commit; the others take two:
     * next value into {@code n<field>} with the memory reads, then commit, so every next value sees the pre-edge
     * state.
     */
    private void emitRegisters(List<String> regNext) {
        Map<String, Integer> readers = new HashMap<>();
        List<String> edge = new ArrayList<>(tickStmts);
        edge.addAll(regNext);
        for (String stmt : edge) {
            identifiers(stmt).forEach(id -> readers.merge(id, 1, Integer::sum));
        }
        List<String> twoStep = new ArrayList<>();
        List<String> oneStep = new ArrayList<>();
        for (int i = 0; i < regs.size(); i++) {
            Reg r = regs.get(i);
            String f = signalField.get(r);
            String next = regNext.get(i);
            boolean alone = readers.getOrDefault(f, 0) == (identifiers(next).contains(f) ? 1 : 0);
            String tmp = alone ? next : r.width() > 64 ? "n" + f : narrowTemp("n" + f);
            if (r.width() > 64) {
                String from = r.hasReset() ? "(resetNow ? " + constantOf(r.resetValue(), r.width()) + " : " + tmp + ")"
                        : tmp;
                if (!alone) {
                    fields.add("final long[] " + tmp + " = new long[" + words(r.width()) + "];");
                    twoStep.add("System.arraycopy(" + next + ", 0, " + tmp + ", 0, " + words(r.width()) + ");");
                }
                (alone ? oneStep : commitStmts).add(commitWide(from, f, r.width(), r));
            } else {
                String value = (r.hasReset() ? "resetNow ? " + hex(r.resetValue().longValue()) + " : " : "") + tmp;
                if (alone) {
                    oneStep.add("{ long v = " + value + "; " + commitNarrow(f, "v", r) + " }");
                } else {
                    twoStep.add(tmp + " = " + next + ";");
                    commitStmts.add(commitNarrow(f, value, r));
                }
            }
        }
        tickStmts.addAll(0, twoStep);
        commitStmts.addAll(0, oneStep);
    }

    private static final java.util.regex.Pattern IDENTIFIER = java.util.regex.Pattern.compile("[A-Za-z_]\\w*");

    /** The identifiers a statement names (fields, among others). */
    private static java.util.Set<String> identifiers(String stmt) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        java.util.regex.Matcher m = IDENTIFIER.matcher(stmt);
        while (m.find()) {
            ids.add(m.group());
        }
        return ids;
    }

    /** The next read data of a bank's lanes: lane i from row sel_i ? a : b. */
    private void emitBankRead(int k) {
        MemoryBank b = banks.get(k);
        laneWords("bankRsel" + k, b.read.selects());
        tickStmts.add("if (" + ref(b.readEnable) + " != 0L) SimOps.bankRead(bank" + k + ", " + b.rowWords() + ", "
                + b.depth() + ", " + ref(b.read.a()) + ", " + ref(b.read.b()) + ", bankRsel" + k + ", bankR" + k
                + ", nbankR" + k + "); else System.arraycopy(bankR" + k + ", 0, nbankR" + k + ", 0, " + b.rowWords()
                + ");");
        commitStmts.add(commitWide("nbankR" + k, "bankR" + k, 64 * b.rowWords(), b.readPort(0)));
    }

    /** The writes of a bank's lanes: lane i, if enabled, to row sel_i ? a : b. */
    private void emitBankWrite(int k) {
        MemoryBank b = banks.get(k);
        laneWords("bankWen" + k, b.writeEnables);
        laneWords("bankWsel" + k, b.write.selects());
        List<Expr> data = new ArrayList<>(b.writeData);
        java.util.Collections.reverse(data); // most significant lane first, as a concatenation
        ConcatWords cw = new ConcatWords(concatContext, 8 * data.size(), data);
        for (int w = 0; w < cw.terms.size(); w++) {
            tickStmts.add("bankWdata" + k + "[" + w + "] = " + ConcatWords.or(cw.terms.get(w), x -> x) + ";");
        }
        tickStmts.add("SimOps.bankWrite(bank" + k + ", " + b.rowWords() + ", " + b.depth() + ", "
                + ref(b.write.a()) + ", " + ref(b.write.b()) + ", bankWen" + k + ", bankWsel" + k + ", bankWdata"
                + k + ");");
    }

    /** Packs one bit per lane into 64-lane words of a field (lane i at bit i % 64 of word i / 64). */
    private void laneWords(String field, List<Expr> bits) {
        List<Expr> parts = new ArrayList<>(bits);
        java.util.Collections.reverse(parts);
        ConcatWords cw = new ConcatWords(concatContext, parts.size(), parts);
        for (int w = 0; w < cw.terms.size(); w++) {
            tickStmts.add(field + "[" + w + "] = " + ConcatWords.or(cw.terms.get(w), x -> x) + ";");
        }
    }

    private String constantOf(BigInteger value, int width) {
        return constant((Const) org.sue.core.Hw.lit(width, value));
    }

    private String resetActive() {
        return design.resetStyle().activeHigh() ? "(" + resetField + " != 0L)" : "(" + resetField + " == 0L)";
    }

    // ---- assembly ------------------------------------------------------------------------------------------------

    private String assemble() {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        StringBuilder sb = new StringBuilder();
        sb.append("package org.sue.sim.gen;\n");
        sb.append("import org.sue.sim.SimOps;\n");
        sb.append("@SuppressWarnings(\"all\")\n");
        sb.append("public final class ").append(simple).append(" extends org.sue.sim.CompiledModel {\n");
        for (String f : fields) {
            sb.append("  ").append(f).append('\n');
        }
        if (packedSlots > 0) {
            sb.append("  final long[] x = new long[").append(packedSlots).append("];\n");
        }
        sb.append("  boolean resetNow;\n");
        emitEval(sb);
        chunked(sb, "next", tickStmts);
        chunked(sb, "commit", commitStmts);
        sb.append("  public void tick() { resetNow = ").append(resetActive()).append("; next(); commit(); }\n");
        sb.append("  public void setReset(long v) { ").append(resetField).append(" = v; }\n");
        emitAsyncReset(sb);
        emitAccessors(sb);
        sb.append("}\n");
        return sb.toString();
    }

    /**
     * The partitions of the combinational statements, each run by {@code eval()} only while its dirty flag is set
     * (all are set at first and by an asynchronous reset); a statement read by later partitions marks them dirty
     * when its value changes.
     */
    private void emitEval(StringBuilder sb) {
        List<String> dispatch = new ArrayList<>();
        List<String> markAll = new ArrayList<>();
        if (design.resetStyle().async()) {
            dispatch.add("if (" + resetActive() + ") { asyncReset(); markAll(); }");
        }
        for (int p = 0; p < partition.parts.size(); p++) {
            List<String> stmts = new ArrayList<>();
            for (int i : partition.parts.get(p)) {
                stmts.add(withChangeMarks(i));
            }
            if (!packed) {
                sb.append("  boolean d").append(p).append(" = true;\n");
            }
            List<String> calls = chunkMethods(sb, "eval" + p, stmts);
            dispatch.add("if (" + dirty(p) + ") { " + dirty(p) + " = false; " + String.join(" ", calls) + " }");
            markAll.add(dirty(p) + " = true;");
        }
        partitions = partition.parts.size();
        if (packed) {
            sb.append("  final boolean[] dirty = new boolean[").append(partitions).append("];\n");
            sb.append("  { java.util.Arrays.fill(dirty, true); }\n");
        }
        chunked(sb, "eval", dispatch);
        chunked(sb, "markAll", markAll);
    }

    /**
     * Statement i, followed by marking its readers in later partitions dirty: a narrow value if it changed, a wide
     * one whenever it was computed (comparing 1024-bit values cost more than it saved in the bench).
     */
    private String withChangeMarks(int i) {
        String stmt = evalStmts.get(i);
        java.util.TreeSet<Integer> readers = partition.consumers.get(i);
        if (readers.isEmpty()) {
            return stmt;
        }
        String marks = marks(readers);
        Expr owner = evalOwners.get(i);
        String f = owner instanceof Signal sig ? signalField.get(sig) : code.get(owner);
        if (owner.width() <= 64) {
            return "{ long was = " + f + "; " + stmt + " if (" + f + " != was) { " + marks + " } }";
        }
        return stmt + " " + marks;
    }

    /** Splits statements into methods {@code name_0 .. name_K}, called in order by {@code name()}. */
    private void chunked(StringBuilder sb, String name, List<String> stmts) {
        List<String> calls = chunkMethods(sb, name, stmts);
        sb.append("  ").append(name.equals("eval") ? "public" : "private").append(" void ").append(name).append("() {");
        calls.forEach(c -> sb.append(" ").append(c));
        sb.append(" }\n");
    }

    /** Writes statements as methods {@code name_0 .. name_K}; returns their calls, in order. */
    private List<String> chunkMethods(StringBuilder sb, String name, List<String> stmts) {
        List<List<String>> chunks = new ArrayList<>();
        List<String> cur = new ArrayList<>();
        int chars = 0;
        for (String s : stmts) {
            if (chars + s.length() > CHUNK_CHARS && !cur.isEmpty()) {
                chunks.add(cur);
                cur = new ArrayList<>();
                chars = 0;
            }
            cur.add(s);
            chars += s.length();
        }
        chunks.add(cur);
        methods += chunks.size();
        for (int i = 0; i < chunks.size(); i++) {
            sb.append("  private void ").append(name).append("_").append(i).append("() {\n");
            for (String s : chunks.get(i)) {
                sb.append("    ").append(s).append('\n');
            }
            sb.append("  }\n");
        }
        List<String> calls = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            calls.add(name + "_" + i + "();");
        }
        return calls;
    }

    private void emitAsyncReset(StringBuilder sb) {
        sb.append("  private void asyncReset() {\n");
        for (Reg r : regs) {
            if (!r.hasReset()) {
                continue;
            }
            String f = signalField.get(r);
            if (r.width() > 64) {
                sb.append("    System.arraycopy(").append(constantOf(r.resetValue(), r.width())).append(", 0, ")
                        .append(f).append(", 0, ").append(words(r.width())).append(");\n");
            } else {
                sb.append("    ").append(f).append(" = ").append(hex(r.resetValue().longValue())).append(";\n");
            }
        }
        sb.append("  }\n");
    }

    private void emitAccessors(StringBuilder sb) {
        // get / getWide / set / setWide as switches, split in blocks of 256 ids
        accessor(sb, "public long get(int id)", "get", s -> !s.wide(), s -> "return " + fieldOf(s) + ";",
                "throw new IllegalArgumentException(\"signal \" + id + \" is wide or unknown\");", true);
        accessor(sb, "public void getWide(int id, long[] d)", "getWide", SimSignal::wide,
                s -> "System.arraycopy(" + fieldOf(s) + ", 0, d, 0, " + words(s.width()) + "); return;",
                "throw new IllegalArgumentException(\"signal \" + id + \" is narrow or unknown\");", false);
        accessor(sb, "public void set(int id, long v)", "set", s -> s.settable() && !s.wide(),
                s -> commitNarrow(fieldOf(s), "v", s.signal()) + " return;",
                "throw new IllegalArgumentException(\"signal \" + id + \" is not a narrow input\");",
                false);
        accessor(sb, "public void setWide(int id, long[] v)", "setWide", s -> s.settable() && s.wide(),
                s -> commitWide("v", fieldOf(s), s.width(), s.signal()) + " return;",
                "throw new IllegalArgumentException(\"signal \" + id + \" is not a wide input\");", false);
        // all top-level ports at once, straight-line: a replay or a recorder reads every port every cycle
        Map<Signal, SimSignal> bySignal = new IdentityHashMap<>();
        simSignals.forEach(ss -> bySignal.put(ss.signal(), ss));
        sb.append("  public void getPorts(long[][] d) {\n");
        List<Port> ports = design.top().ports();
        for (int i = 0; i < ports.size(); i++) {
            SimSignal ss = bySignal.get(ports.get(i));
            sb.append(ss.wide() ? "    System.arraycopy(" + fieldOf(ss) + ", 0, d[" + i + "], 0, " + words(ss.width())
                    + ");\n" : "    d[" + i + "][0] = " + fieldOf(ss) + ";\n");
        }
        sb.append("  }\n");
        // and every top-level input at once: a replay writes every input every cycle
        sb.append("  public int setPorts(long[][] v) {\n");
        for (int i = 0; i < ports.size(); i++) {
            SimSignal ss = bySignal.get(ports.get(i));
            if (!ss.settable()) {
                continue;
            }
            String f = fieldOf(ss);
            String fits = ss.wide() ? "a.length == " + words(ss.width()) + " && (a[" + (words(ss.width()) - 1)
                    + "] & ~" + hex(SimOps.topMask(ss.width())) + ") == 0L"
                    : ss.width() == 64 ? "true" : "(a[0] >>> " + ss.width() + ") == 0L";
            String write = ss.wide() ? commitWide("a", f, ss.width(), ss.signal())
                    : commitNarrow(f, "a[0]", ss.signal());
            sb.append("    { long[] a = v[").append(i).append("]; if (a != null) { if (!(").append(fits)
                    .append(")) return ").append(i).append("; ").append(write).append(" } }\n");
        }
        sb.append("    return -1;\n  }\n");
        // memories
        sb.append("  public void readMem(int m, int a, long[] d) {\n    switch (m) {\n");
        for (int m = 0; m < mems.size(); m++) {
            int[] lane = bankOf.get(mems.get(m));
            sb.append(lane != null
                    ? "      case " + m + ": d[0] = SimOps.bankLane(bank" + lane[0] + ", " + banks.get(lane[0]).rowWords()
                    + ", a, " + lane[1] + "); return;\n"
                    : mems.get(m).width() > 64
                    ? "      case " + m + ": System.arraycopy(mem" + m + "[a], 0, d, 0, d.length); return;\n"
                    : "      case " + m + ": d[0] = mem" + m + "[a]; return;\n");
        }
        sb.append("      default: throw new IllegalArgumentException(\"memory \" + m);\n    }\n  }\n");
        sb.append("  public void writeMem(int m, int a, long[] v) {\n    switch (m) {\n");
        for (int m = 0; m < mems.size(); m++) {
            int[] lane = bankOf.get(mems.get(m));
            sb.append(lane != null
                    ? "      case " + m + ": SimOps.setBankLane(bank" + lane[0] + ", " + banks.get(lane[0]).rowWords()
                    + ", a, " + lane[1] + ", v[0]); return;\n"
                    : mems.get(m).width() > 64
                    ? "      case " + m + ": System.arraycopy(v, 0, mem" + m + "[a], 0, v.length); return;\n"
                    : "      case " + m + ": mem" + m + "[a] = v[0]; return;\n");
        }
        sb.append("      default: throw new IllegalArgumentException(\"memory \" + m);\n    }\n  }\n");
    }

    /** Where an accessor reads a signal: its field, or what a copy signal reads instead. */
    private String fieldOf(SimSignal s) {
        return code.get(s.signal());
    }

    private void accessor(StringBuilder sb, String signature, String name, java.util.function.Predicate<SimSignal> use,
                          java.util.function.Function<SimSignal, String> body, String fallback, boolean returnsValue) {
        int blocks = (simSignals.size() + 255) / 256;
        String params = signature.substring(signature.indexOf('('));
        String args = params.contains("long[]") ? "(id, d)" : params.contains("long v") ? "(id, v)" : "(id)";
        if (params.contains("long[] v")) {
            args = "(id, v)";
        }
        sb.append("  ").append(signature).append(" {\n    switch (id >> 8) {\n");
        for (int b = 0; b < blocks; b++) {
            sb.append("      case ").append(b).append(": ").append(returnsValue ? "return " : "").append(name).append(b)
                    .append(args).append(";").append(returnsValue ? "" : " return;").append('\n');
        }
        sb.append("      default: ").append(fallback).append("\n    }\n  }\n");
        String ret = returnsValue ? "long" : "void";
        for (int b = 0; b < blocks; b++) {
            sb.append("  private ").append(ret).append(" ").append(name).append(b).append(params).append(" {\n");
            sb.append("    switch (id) {\n");
            for (int i = b * 256; i < Math.min(simSignals.size(), (b + 1) * 256); i++) {
                SimSignal s = simSignals.get(i);
                if (use.test(s)) {
                    sb.append("      case ").append(i).append(": ").append(body.apply(s)).append('\n');
                }
            }
            sb.append("      default: ").append(fallback).append("\n    }\n  }\n");
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    static int words(int width) {
        return (width + 63) >>> 6;
    }

    static String hex(long v) {
        return "0x" + Long.toHexString(v) + "L";
    }

    static long[] toWords(BigInteger v, int width) {
        long[] w = new long[words(width)];
        for (int i = 0; i < w.length; i++) {
            w[i] = v.shiftRight(64 * i).longValue();
        }
        return w;
    }
}
