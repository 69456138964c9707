package org.sue.core;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;

/**
 * A hardware component: subclass it and build ports, registers, wires, memories, children and statements in the
 * constructor. The clock and reset are implicit (see {@link ResetStyle}).
 *
 * <pre>{@code
 * class Counter extends Component {
 *     final Port enable = in("enable", 1);
 *     final Port count = out("count", 8);
 *     Counter() {
 *         Reg value = reg("value", 8, 0);
 *         when(enable, () -> value.set(value.add(1)));
 *         count.set(value);
 *     }
 * }
 * }</pre>
 */
public abstract class Component {
    private final SourceLoc createdAt = SourceLoc.here();
    private String instanceName;
    private Component parent;
    /** Set once added as a child or elaborated as the top: from then on only its inputs may be driven. */
    private boolean complete;
    private final List<Component> children = new ArrayList<>();
    private final List<Port> ports = new ArrayList<>();
    private final List<Reg> regs = new ArrayList<>();
    private final List<Wire> wires = new ArrayList<>();
    private final List<MemRead> memReads = new ArrayList<>();
    private final List<Mem> mems = new ArrayList<>();
    private final List<Stmt> body = new ArrayList<>();
    /** Ports whose value means nothing while their valid port is zero (a stream's payload), by valid port. */
    private final java.util.Map<Port, List<Port>> payloadOf = new java.util.LinkedHashMap<>();
    /** This component's ports that expose a child's port, and that port. */
    private final java.util.Map<Port, Port> exposedFrom = new java.util.LinkedHashMap<>();
    private final List<Status> statusList = new ArrayList<>();
    /** Where statements go now: the body, or the branch of the when being built. */
    private final Deque<List<Stmt>> blocks = new ArrayDeque<>();
    /** The conditions of the enclosing when branches, innermost last. */
    private final Deque<Expr> conditions = new ArrayDeque<>();

    /** The configuration record the component was built from, or null. */
    private final Record configuration;
    private String moduleName;

    protected Component() {
        this(null);
    }

    /**
     * A component built from a configuration record: its module name and parameters derive from the record
     * ({@link ModuleName}), so two different configurations never share a module name.
     */
    protected Component(Record configuration) {
        this.configuration = configuration;
        blocks.push(body);
    }

    // ---- identity ------------------------------------------------------------------------------------------------

    /**
     * Verilog module name: {@link #moduleBase} and the configuration record's tags, plus a hash of the record where
     * the tags do not identify it (e.g. {@code "SyncFifo_w32_d16_status"}). Equal configurations share a module, different
     * ones never do.
     */
    public final String moduleName() {
        if (moduleName == null) {
            moduleName = ModuleName.of(moduleBase(), configuration);
        }
        return moduleName;
    }

    /** The module name before the configuration's part: the class name. */
    protected String moduleBase() {
        String simple = getClass().getSimpleName();
        if (simple.isEmpty()) { // anonymous class: Outer$1 -> Outer_1
            String name = getClass().getName();
            simple = name.substring(name.lastIndexOf('.') + 1).replace('$', '_');
        }
        return simple;
    }

    /** The configuration record the component was built from, or null. */
    public Record configuration() {
        return configuration;
    }

    /** Instance name given by the parent, or the module name for the top. */
    public String instanceName() {
        return instanceName != null ? instanceName : moduleName();
    }

    public String path() {
        return parent == null ? instanceName() : parent.path() + "." + instanceName();
    }

    public Component parent() { return parent; }
    public List<Component> children() { return Collections.unmodifiableList(children); }
    public List<Port> ports() { return Collections.unmodifiableList(ports); }
    public List<Reg> regs() { return Collections.unmodifiableList(regs); }
    public List<Wire> wires() { return Collections.unmodifiableList(wires); }
    public List<MemRead> memReads() { return Collections.unmodifiableList(memReads); }
    public List<Mem> mems() { return Collections.unmodifiableList(mems); }
    public List<Stmt> body() { return Collections.unmodifiableList(body); }
    public SourceLoc createdAt() { return createdAt; }

    /**
     * Says that {@code payload} ports carry meaning only while {@code valid} is non-zero (a stream's or flow's
     * payload): golden vectors record them as don't-care in the other cycles, so a simulator that starts with
     * random register values need not agree with one that starts at zero there.
     */
    protected final void payloadOf(Port valid, Port... payload) {
        SourceLoc here = SourceLoc.here();
        if (valid.owner() != this) {
            throw new HdlException("payloadOf: '" + valid.path() + "' is not a port of " + path(), here);
        }
        List<Port> list = payloadOf.computeIfAbsent(valid, k -> new ArrayList<>());
        for (Port p : payload) {
            if (p.owner() != this || p.direction() != valid.direction()) {
                throw new HdlException("payloadOf: '" + p.path() + "' is not a port of " + path()
                        + " going the same way as '" + valid.name() + "'", here);
            }
            list.add(p);
        }
    }

    /**
     * The payload ports of each valid port ({@link #payloadOf}), including a child's groups where this component
     * exposes the child's valid and payload ports ({@link #expose}).
     */
    public java.util.Map<Port, List<Port>> payloads() {
        java.util.Map<Port, List<Port>> all = new java.util.LinkedHashMap<>(payloadOf);
        java.util.Map<Port, Port> exposing = new java.util.IdentityHashMap<>(); // child port -> this component's
        exposedFrom.forEach((mine, childs) -> exposing.put(childs, mine));
        // each child's groups once: asking again per exposed port grows with ports to the power of the depth
        java.util.Map<Component, java.util.Map<Port, List<Port>>> ofChild = new java.util.IdentityHashMap<>();
        exposedFrom.forEach((mine, childs) -> {
            List<Port> childPayload = ofChild.computeIfAbsent(childs.owner(), Component::payloads).get(childs);
            if (childPayload != null && !all.containsKey(mine)) {
                List<Port> exposed = new ArrayList<>();
                for (Port c : childPayload) {
                    if (exposing.containsKey(c)) {
                        exposed.add(exposing.get(c));
                    }
                }
                all.put(mine, exposed);
            }
        });
        return Collections.unmodifiableMap(all);
    }

    /** Configuration shown in vector manifests and generation reports: every leaf of the configuration record. */
    public final java.util.Map<String, Object> parameters() {
        return ModuleName.parameters(configuration);
    }

    // ---- construction API ----------------------------------------------------------------------------------------

    protected final Port in(String name, int width) {
        return register(new Port(name, width, PortDirection.IN, this, SourceLoc.here()), SourceLoc.here());
    }

    protected final Port out(String name, int width) {
        return register(new Port(name, width, PortDirection.OUT, this, SourceLoc.here()), SourceLoc.here());
    }

    /** A port of either direction; lets bundle helpers (e.g. {@code Stream}) create ports. */
    protected final Port port(String name, int width, PortDirection direction) {
        SourceLoc here = SourceLoc.here();
        return register(new Port(name, width, direction, this, here), here);
    }

    /**
     * A port of this component with the name, width and direction of a child's port, connected straight to it: how
     * a top level exposes the interfaces of the blocks it wraps.
     */
    protected final Port expose(Port childPort) {
        return expose(childPort, childPort.name());
    }

    /** Like {@link #expose(Port)}, under another name (when two children have ports of the same name). */
    protected final Port expose(Port childPort, String name) {
        SourceLoc here = SourceLoc.here();
        if (childPort.owner().parent != this) {
            throw new HdlException("expose: port '" + childPort.name() + "' is not a port of a child of '" + path()
                    + "'", here);
        }
        Port p = register(new Port(name, childPort.width(), childPort.direction(), this, here), here);
        exposedFrom.put(p, childPort);
        if (p.isInput()) {
            childPort.set(p);
        } else {
            p.set(childPort);
        }
        return p;
    }

    /** A register reset to {@code resetValue}. */
    protected final Reg reg(String name, int width, long resetValue) {
        SourceLoc here = SourceLoc.here();
        return register(new Reg(name, width, Hw.unsigned(resetValue, width, here), this, here), here);
    }

    protected final Reg reg(String name, int width, BigInteger resetValue) {
        SourceLoc here = SourceLoc.here();
        return register(new Reg(name, width, resetValue, this, here), here);
    }

    /**
     * A state register: holds one constant of {@code reset}'s enum, encoded as its ordinal in the fewest bits, reset
     * to {@code reset}. The state names reach the Verilog (a localparam each) and the waveforms.
     */
    protected final <E extends Enum<E>> State<E> state(String name, E reset) {
        SourceLoc here = SourceLoc.here();
        Class<E> type = reset.getDeclaringClass();
        int count = type.getEnumConstants().length;
        if (count < 2) {
            throw new HdlException("state register '" + name + "': enum " + type.getSimpleName()
                    + " needs at least 2 constants, has " + count, here);
        }
        for (E c : type.getEnumConstants()) { // each a localparam of the Verilog and a VHDL enumeration literal
            Names.check(c.name(), "a state of " + type.getSimpleName(), here);
        }
        int width = Hw.log2Up(count);
        Reg r = register(new Reg(name, width, BigInteger.valueOf(reset.ordinal()), type, this, here), here);
        return new State<>(r, type);
    }

    /** A register without reset (datapath storage that needs none). */
    protected final Reg regNoReset(String name, int width) {
        SourceLoc here = SourceLoc.here();
        return register(new Reg(name, width, null, this, here), here);
    }

    /**
     * A register counting the cycles in which {@code increment} is high; it stops at all ones instead of wrapping
     * (a status counter never wraps silently).
     */
    protected final Reg saturatingCounter(String name, int width, Expr increment) {
        Reg count = reg(name, width, 0);
        when(increment.and(count.andR().not()), () -> count.set(count.add(1)));
        return count;
    }

    /**
     * The status this block reports, in the order it was declared: its own ({@link #statusCounter},
     * {@link #status}) and its children's that it exposes ({@link #exposeStatus}). A parent gathers them from here;
     * the management register map, the docs and the testbench summaries are made from this list.
     */
    public final List<Status> statusList() {
        return Collections.unmodifiableList(statusList);
    }

    /** The status outputs of {@link #statusList()} by name (convenience for tests and testbenches). */
    public final java.util.Map<String, Port> statusPorts() {
        java.util.Map<String, Port> m = new java.util.LinkedHashMap<>();
        statusList.forEach(st -> m.put(st.name(), st.port()));
        return Collections.unmodifiableMap(m);
    }

    /**
     * A status output {@code name} carrying {@code value} (a level, a state or a flag; a count of events is a
     * {@link #statusCounter}), listed in {@link #statusList()}.
     */
    protected final Port status(String name, Status.Kind kind, Expr value, String description) {
        if (kind == Status.Kind.COUNTER) {
            throw new HdlException("status '" + name + "': an event counter is made by statusCounter",
                    SourceLoc.here());
        }
        Port p = out(name, value.width());
        p.set(value);
        return listStatus(p, kind, description);
    }

    /**
     * A 32-bit saturating counter of the cycles {@code increment} is high, on an output {@code name}, listed in
     * {@link #statusList()} as an event counter.
     */
    protected final Port statusCounter(String name, Expr increment, String description) {
        Port p = out(name, 32);
        p.set(saturatingCounter(name + "_count", 32, increment));
        return listStatus(p, Status.Kind.COUNTER, description);
    }

    /**
     * {@link #statusCounter}, counting from a register a cycle after each event: for an event at the end of a long
     * path, so that the counter's carry does not add to it.
     */
    protected final Port lateStatusCounter(String name, Expr increment, String description) {
        Reg event = reg(name + "_event", 1, 0);
        event.set(increment);
        return statusCounter(name, event, description);
    }

    /**
     * Exposes every status of {@code child} as a port of this component named {@code prefix + name}, listed in this
     * component's {@link #statusList()} with the child's kind and description.
     */
    protected final void exposeStatus(Component child, String prefix) {
        exposeStatus(child, "", prefix);
    }

    /**
     * Like {@link #exposeStatus(Component, String)}, each name then preceded by {@code outer} (a port's
     * {@code p0_} before {@code llr_}).
     */
    protected final void exposeStatus(Component child, String outer, String prefix) {
        for (Status st : child.statusList()) {
            listStatus(expose(st.port(), outer + prefixed(prefix, st.name())), st.kind(), st.description());
        }
    }

    /**
     * Exposes every port of {@code child} that this component does not connect itself ({@code inside}), in the
     * child's order, named {@code prefix + name}; a child's status keeps its kind and description in this component's
     * {@link #statusList()}. How a top level offers the interfaces and status of the blocks it joins.
     */
    protected final void exposeRest(Component child, String prefix, java.util.Collection<? extends Signal> inside) {
        exposeRest(child, name -> prefixed(prefix, name), inside);
    }

    /** {@link #exposeRest(Component, String, java.util.Collection)} with each port named by {@code rename}. */
    protected final void exposeRest(Component child, java.util.function.UnaryOperator<String> rename,
                                    java.util.Collection<? extends Signal> inside) {
        java.util.Set<Signal> connected = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        connected.addAll(inside);
        java.util.Map<Port, Status> status = new java.util.IdentityHashMap<>();
        child.statusList().forEach(st -> status.put(st.port(), st));
        for (Port p : child.ports()) {
            if (connected.contains(p)) {
                continue;
            }
            Port mine = expose(p, rename.apply(p.name()));
            Status st = status.get(p);
            if (st != null) {
                listStatus(mine, st.kind(), st.description());
            }
        }
    }

    /** {@code prefix + name}, or {@code name} where it already starts with the prefix ({@code pfc_frames_sent}). */
    private static String prefixed(String prefix, String name) {
        return name.startsWith(prefix) ? name : prefix + name;
    }

    /**
     * Exposes one output of a child that reports a status (a child's count this block reports under its own name) as
     * a port of this component named {@code name}, listed in this component's {@link #statusList()} as
     * {@code kind} with {@code description}.
     */
    protected final Port exposeStatus(Port childPort, String name, Status.Kind kind, String description) {
        return listStatus(expose(childPort, name), kind, description);
    }

    private Port listStatus(Port p, Status.Kind kind, String description) {
        statusList.add(new Status(p, kind, description, SourceLoc.here()));
        return p;
    }

    protected final Wire wire(String name, int width) {
        SourceLoc here = SourceLoc.here();
        return register(new Wire(name, width, this, here), here);
    }

    /** A named wire driven by {@code value}. */
    protected final Wire wire(String name, Expr value) {
        SourceLoc here = SourceLoc.here();
        Wire w = register(new Wire(name, value.width(), this, here), here);
        assign(w, value, here);
        return w;
    }

    /**
     * Says that these signals (or bits of them) are deliberately left unread, e.g. an input field this configuration
     * does not need or reserved bits: they feed a wire named {@code unused_<what>}, which lint knows to be intended
     * (Verilator's default {@code --unused-regexp}).
     */
    protected final Wire unused(String what, Expr... signals) {
        SourceLoc here = SourceLoc.here();
        Expr all = Hw.cat(signals);
        Wire w = register(new Wire("unused_" + what, all.width(), this, here), here);
        assign(w, all, here);
        return w;
    }

    /** {@code e} {@code cycles} later, through registers {@code <name>_d1 .. _d<cycles>} (no reset). */
    protected final Expr delay(String name, Expr e, int cycles) {
        Expr d = e;
        for (int i = 1; i <= cycles; i++) {
            Reg r = regNoReset(name + "_d" + i, e.width());
            r.set(d);
            d = r;
        }
        return d;
    }

    protected final Mem mem(String name, int depth, int width, ReadUnderWrite readUnderWrite) {
        SourceLoc here = SourceLoc.here();
        Mem m = new Mem(name, depth, width, readUnderWrite, this, here);
        checkNewName(name, here);
        mems.add(m);
        return m;
    }

    /** Adds {@code child} as a sub-component named {@code name}; then drive its inputs with {@code set}. */
    protected final <T extends Component> T child(String name, T newChild) {
        SourceLoc here = SourceLoc.here();
        Component child = newChild;
        if (child == this) {
            throw new HdlException("component '" + path() + "' cannot be its own child", here);
        }
        if (child.parent != null) {
            throw new HdlException("component '" + child.path() + "' is already a child of '" + child.parent.path()
                    + "'", here);
        }
        checkNewName(name, here);
        child.instanceName = name;
        child.parent = this;
        child.complete = true;
        children.add(child);
        return newChild;
    }

    /** Statements in {@code body} take effect only while {@code cond} (1 bit) is high. */
    protected final WhenChain when(Expr cond, Runnable thenBody) {
        SourceLoc here = SourceLoc.here();
        checkCondition(cond, here);
        Stmt.When w = new Stmt.When(cond, new ArrayList<>(), new ArrayList<>(), here);
        blocks.peek().add(w);
        WhenChain chain = new WhenChain(this, blocks.size(), w);
        runIn(w.then(), cond, thenBody);
        return chain;
    }

    /** {@code switch (selector)}: cases compared for equality, first match wins. */
    protected final SwitchBuilder switchOn(Expr selector) {
        return new SwitchBuilder(this, selector);
    }

    // ---- internals used by the other core classes ----------------------------------------------------------------

    void runIn(List<Stmt> block, Expr cond, Runnable body) {
        blocks.push(block);
        conditions.addLast(cond);
        try {
            body.run();
        } finally {
            conditions.removeLast();
            blocks.pop();
        }
    }

    int blockDepth() {
        return blocks.size();
    }

    void checkCondition(Expr cond, SourceLoc here) {
        if (cond.width() != 1) {
            throw new HdlException("condition " + cond.describe() + " must be 1 bit, is " + cond.width(), here);
        }
    }

    /** {@code e} ANDed with every enclosing when-condition. */
    Expr withPathCondition(Expr e) {
        Expr r = e;
        for (Expr c : conditions) {
            r = c.and(r);
        }
        return r;
    }

    void assign(Signal target, Expr value, SourceLoc here) {
        Component stmtOwner = target.owner();
        if (target instanceof Port p && p.isInput()) {
            // A component's input is driven by its parent.
            stmtOwner = target.owner().parent;
            if (stmtOwner == null) {
                throw new HdlException("input '" + target.path() + "' can only be driven by a parent; add the component"
                        + " with child(...) first (a top-level input is driven by the testbench)", here);
            }
        }
        if (stmtOwner.complete) {
            throw new HdlException(target.describe() + " can only be driven inside " + stmtOwner.path()
                    + " while it is built; driving it from outside would give it two drivers", here);
        }
        stmtOwner.blocks.peek().add(new Stmt.Assign(target, value, here));
    }

    void markComplete() {
        complete = true;
    }

    boolean isComplete() {
        return complete;
    }

    <S extends Signal> S register(S s, SourceLoc here) {
        checkNewName(s.name(), here);
        if (s instanceof Port p) {
            ports.add(p);
        } else if (s instanceof Reg r) {
            regs.add(r);
        } else if (s instanceof Wire w) {
            wires.add(w);
        } else if (s instanceof MemRead m) {
            memReads.add(m);
        }
        return s;
    }

    /** Names must be legal in Verilog and VHDL and unique in the component, ignoring case (VHDL). */
    private void checkNewName(String name, SourceLoc here) {
        Names.check(name, "in component " + moduleName(), here);
        for (String existing : allNames()) {
            if (existing.equalsIgnoreCase(name)) {
                throw new HdlException("name '" + name + "' collides with '" + existing + "' in component "
                        + path(), here);
            }
        }
    }

    private List<String> allNames() {
        List<String> names = new ArrayList<>();
        ports.forEach(p -> names.add(p.name()));
        regs.forEach(p -> names.add(p.name()));
        wires.forEach(p -> names.add(p.name()));
        memReads.forEach(p -> names.add(p.name()));
        mems.forEach(p -> names.add(p.name()));
        children.forEach(p -> names.add(p.instanceName()));
        return names;
    }

    @Override
    public String toString() {
        return path();
    }
}
