package org.sue.lib.stream;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sue.core.Component;
import org.sue.core.ConstructionHelper;
import org.sue.core.Expr;
import org.sue.core.HdlException;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.PortDirection;
import org.sue.core.Reg;
import org.sue.core.Scope;
import org.sue.core.Signal;
import org.sue.core.SourceLoc;
import org.sue.core.Wire;
import org.sue.lib.SyncFifo;

/**
 * A handshake: {@code valid}, {@code ready} and a payload described by a {@link Layout}; or, without {@code ready},
 * a flow (a valid-only transfer that cannot be stalled). A beat moves in a cycle where valid and ready are both high
 * ({@link #fire}); the producer keeps valid and the payload steady until then and never makes valid wait for ready.
 *
 * <p>Every member is a named signal. Ports follow one pattern: {@code <name>_valid}, {@code <name>_ready},
 * {@code <name>_<field>}; packet streams (fields {@code tdata}, {@code tkeep}, {@code tlast} and optional
 * {@code tuser}) keep AXI-Stream names: {@code s_axis_tvalid}, {@code m_axis_tdata}, ... The operators build plain
 * registers and wires in the component that reads the stream (the owner of its signals, or its parent when they are
 * a child's ports), named after the stream: {@code haltWhen} on {@code in} gives {@code in_halt_valid}.
 */
@ConstructionHelper
public final class Stream {
    /** Field names of a packet stream. */
    public static final String TDATA = "tdata";
    public static final String TKEEP = "tkeep";
    public static final String TLAST = "tlast";
    public static final String TUSER = "tuser";

    private final String name;
    private final boolean axis;
    private final Signal valid;
    private final Signal ready;
    private final Layout layout;
    private final Map<String, Signal> fields;

    private Stream(String name, boolean axis, Signal valid, Signal ready, Layout layout, Map<String, Signal> fields) {
        this.name = name;
        this.axis = axis;
        this.valid = valid;
        this.ready = ready;
        this.layout = layout;
        this.fields = Collections.unmodifiableMap(fields);
    }

    // ---- layouts -------------------------------------------------------------------------------------------------

    /** The payload of a packet stream: {@code tdata}, {@code tkeep} (a lane each byte), {@code tlast}, {@code tuser}. */
    public static Layout packet(int dataWidth, int userWidth) {
        List<Layout.Spec> specs = new ArrayList<>(List.of(Layout.bits(TDATA, dataWidth),
                Layout.bits(TKEEP, dataWidth / 8), Layout.bits(TLAST, 1)));
        if (userWidth > 0) {
            specs.add(Layout.bits(TUSER, userWidth));
        }
        return Layout.of("packet", specs);
    }

    // ---- ports ---------------------------------------------------------------------------------------------------

    /** Input ports of component {@code c}: valid and the payload fields in, ready out. */
    public static Stream slave(Component c, String name, Layout payload) {
        return ports(c, name, payload, true, PortDirection.IN);
    }

    /** Output ports of component {@code c}: valid and the payload fields out, ready in. */
    public static Stream master(Component c, String name, Layout payload) {
        return ports(c, name, payload, true, PortDirection.OUT);
    }

    /** Input ports without ready: a flow the component must take whenever it is valid. */
    public static Stream slaveFlow(Component c, String name, Layout payload) {
        return ports(c, name, payload, false, PortDirection.IN);
    }

    public static Stream masterFlow(Component c, String name, Layout payload) {
        return ports(c, name, payload, false, PortDirection.OUT);
    }

    /** Packet input {@code s_axis_*} (with tready). */
    public static Stream slave(Component c, StreamConfig cfg) {
        return slave(c, "s_axis", cfg.layout());
    }

    /** Packet output {@code m_axis_*} (with tready). */
    public static Stream master(Component c, StreamConfig cfg) {
        return master(c, "m_axis", cfg.layout());
    }

    private static Stream ports(Component c, String name, Layout payload, boolean withReady, PortDirection forward) {
        Scope s = Scope.of(c);
        PortDirection back = forward == PortDirection.IN ? PortDirection.OUT : PortDirection.IN;
        boolean axis = isPacket(payload);
        Map<String, Signal> fields = new LinkedHashMap<>();
        Signal valid;
        Signal ready = null;
        if (axis) { // AXI-Stream port order: tdata, tkeep, tvalid, tready, tlast, tuser
            fields.put(TDATA, s.port(name + "_" + TDATA, payload.field(TDATA).width(), forward));
            fields.put(TKEEP, s.port(name + "_" + TKEEP, payload.field(TKEEP).width(), forward));
            valid = s.port(name + "_tvalid", 1, forward);
            if (withReady) {
                ready = s.port(name + "_tready", 1, back);
            }
            fields.put(TLAST, s.port(name + "_" + TLAST, 1, forward));
            if (payload.fields().size() > 3) {
                fields.put(TUSER, s.port(name + "_" + TUSER, payload.field(TUSER).width(), forward));
            }
        } else {
            valid = s.port(name + "_valid", 1, forward);
            if (withReady) {
                ready = s.port(name + "_ready", 1, back);
            }
            for (Layout.Field f : payload.fields()) {
                fields.put(f.name(), s.port(name + "_" + f.name(), f.width(), forward));
            }
        }
        s.payloadOf((Port) valid, fields.values().toArray(new Port[0]));
        return new Stream(name, axis, valid, ready, payload, ordered(payload, fields));
    }

    private static boolean isPacket(Layout l) {
        List<Layout.Field> f = l.fields();
        return f.size() >= 3 && f.get(0).name().equals(TDATA) && f.get(1).name().equals(TKEEP)
                && f.get(2).name().equals(TLAST) && (f.size() == 3 || f.size() == 4 && f.get(3).name().equals(TUSER));
    }

    private static Map<String, Signal> ordered(Layout layout, Map<String, Signal> fields) {
        Map<String, Signal> m = new LinkedHashMap<>();
        for (Layout.Field f : layout.fields()) {
            m.put(f.name(), fields.get(f.name()));
        }
        return m;
    }

    // ---- members -------------------------------------------------------------------------------------------------

    public String name() { return name; }
    public Layout layout() { return layout; }
    public Signal valid() { return valid; }
    public boolean hasReady() { return ready != null; }

    public Signal ready() {
        if (ready == null) {
            throw new HdlException("'" + name + "' is a flow: it has no ready", SourceLoc.here());
        }
        return ready;
    }

    /** A payload field by name. */
    public Signal field(String fieldName) {
        Signal s = fields.get(fieldName);
        if (s == null) {
            throw new HdlException("stream '" + name + "' has no field '" + fieldName + "' (fields: " + fields.keySet()
                    + ")", SourceLoc.here());
        }
        return s;
    }

    /** A field of a field that holds a nested layout ({@code head.cell}), or a plain field. */
    public Expr get(String path) {
        int dot = path.indexOf('.');
        return dot < 0 ? field(path) : layout.field(path.substring(0, dot)).nested()
                .get(field(path.substring(0, dot)), path.substring(dot + 1));
    }

    /** The payload packed by the layout (the field itself when there is one). */
    public Expr payload() {
        Layout.ExprBuilder b = layout.expr();
        fields.forEach(b::set);
        return b.build();
    }

    /** The field of a plain stream ({@code Layout.plain("data", w)}, as a {@link SyncFifo} carries). */
    public Signal data() { return field("data"); }

    public Signal tvalid() { return valid(); }
    public Signal tready() { return ready(); }
    public Signal tdata() { return field(TDATA); }
    public Signal tkeep() { return field(TKEEP); }
    public Signal tlast() { return field(TLAST); }
    public Signal tuser() { return field(TUSER); }

    /** A beat moves this cycle: valid and ready (for a flow: valid). */
    public Expr fire() {
        return ready == null ? valid : valid.and(ready);
    }

    // ---- connecting ----------------------------------------------------------------------------------------------

    /**
     * Drives {@code sink} from this stream: its valid and every payload field (matched by name), and this stream's
     * ready from the sink's. A flow may go into a flow; a stream into a flow only through {@link #asFlow}.
     */
    public void into(Stream sink) {
        if (hasReady() != sink.hasReady()) {
            throw new HdlException("cannot connect '" + name + "' (" + kind() + ") to '" + sink.name + "' ("
                    + sink.kind() + ")", SourceLoc.here());
        }
        if (!fields.keySet().equals(sink.fields.keySet())) {
            throw new HdlException("cannot connect '" + name + "' to '" + sink.name + "': fields " + fields.keySet()
                    + " and " + sink.fields.keySet() + " differ", SourceLoc.here());
        }
        sink.valid.set(valid);
        sink.fields.forEach((f, sig) -> sig.set(fields.get(f)));
        if (ready != null) {
            ready.set(sink.ready);
        }
    }

    /** This stream as a flow: it is always ready (for a consumer that takes every beat, like a receive path). */
    public Stream asFlow() {
        ready().set(Hw.bool(true));
        return new Stream(name, axis, valid, null, layout, fields);
    }

    private String kind() {
        return hasReady() ? "a stream" : "a flow";
    }

    // ---- operators -----------------------------------------------------------------------------------------------

    /** Beats wait while {@code cond} is high: nothing moves, nothing is lost. */
    public Stream haltWhen(Expr cond) {
        return haltWhen(name + "_halt", cond);
    }

    public Stream haltWhen(String newName, Expr cond) {
        return gate(newName, cond.not());
    }

    /** Beats move only while {@code cond} is high. */
    public Stream continueWhen(Expr cond) {
        return continueWhen(name + "_go", cond);
    }

    public Stream continueWhen(String newName, Expr cond) {
        return gate(newName, cond);
    }

    private Stream gate(String newName, Expr pass) {
        Scope s = scope();
        Stream out = derived(s, newName, valid.and(pass), true, fields);
        ready().set(out.ready.and(pass));
        return out;
    }

    /** Beats offered while {@code cond} is high are dropped (taken from this stream, not passed on). */
    public Stream throwWhen(Expr cond) {
        return throwWhen(name + "_kept", cond);
    }

    public Stream throwWhen(String newName, Expr cond) {
        Scope s = scope();
        Stream out = derived(s, newName, valid.and(cond.not()), hasReady(), fields);
        if (hasReady()) {
            ready.set(out.ready.or(cond));
        }
        return out;
    }

    /**
     * Every beat to all {@code n} outputs; each output takes it when it is ready, and the beat leaves this stream once
     * all have (a register per output remembers which already did, so no output's valid waits for another's ready).
     */
    public List<Stream> fork(int n) {
        if (n < 2) {
            throw new HdlException("fork needs at least 2 outputs, got " + n, SourceLoc.here());
        }
        Scope s = scope();
        List<Stream> outs = new ArrayList<>();
        List<Reg> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Reg d = s.reg(name + "_fork" + i + "_done", 1, 0);
            done.add(d);
            outs.add(derived(s, name + "_fork" + i, valid.and(d.not()), true, fields));
        }
        Expr all = Hw.bool(true);
        for (int i = 0; i < n; i++) {
            all = all.and(outs.get(i).ready.or(done.get(i)));
        }
        Wire allTaken = s.wire(name + "_fork_all", all);
        ready().set(allTaken);
        for (int i = 0; i < n; i++) {
            Reg d = done.get(i);
            Stream o = outs.get(i);
            d.set(Hw.mux(valid.and(allTaken), Hw.bool(false), d.or(o.fire())));
        }
        return outs;
    }

    /**
     * A register stage forward (valid and payload registered), full throughput: a new beat enters in the cycle the
     * held one leaves. Ready still passes straight through (see {@link #skid} to cut it).
     */
    public Stream stage() {
        return stage(name + "_stage");
    }

    public Stream stage(String newName) {
        Scope s = scope();
        Reg v = s.reg(member(newName, "valid"), 1, 0);
        Map<String, Signal> regs = new LinkedHashMap<>();
        fields.forEach((f, sig) -> regs.put(f, s.regNoReset(newName + "_" + f, sig.width())));
        Stream out = new Stream(newName, axis, v, s.wire(member(newName, "ready"), 1), layout, regs);
        Wire take = s.wire(newName + "_load", v.not().or(out.ready));
        ready().set(take);
        s.when(take, () -> {
            v.set(valid);
            s.when(valid, () -> regs.forEach((f, r) -> r.set(fields.get(f))));
        });
        return out;
    }

    /**
     * A skid buffer: ready is registered (cut from the consumer's ready), full throughput. A beat offered while the
     * consumer stalls waits in a buffer register; this stream is ready only while the buffer is empty.
     */
    public Stream skid() {
        return skid(name + "_skid");
    }

    public Stream skid(String newName) {
        Scope s = scope();
        Reg held = s.reg(newName + "_held", 1, 0);
        Map<String, Signal> buffer = new LinkedHashMap<>();
        fields.forEach((f, sig) -> buffer.put(f, s.regNoReset(newName + "_buf_" + f, sig.width())));
        Map<String, Expr> outFields = new LinkedHashMap<>();
        fields.forEach((f, sig) -> outFields.put(f, Hw.mux(held, buffer.get(f), sig)));
        Stream out = derived(s, newName, valid.or(held), true, outFields);
        ready().set(held.not());
        s.when(out.ready, () -> held.set(0)).elseWhen(valid.and(held.not()), () -> {
            held.set(1);
            buffer.forEach((f, r) -> r.set(fields.get(f)));
        });
        return out;
    }

    /** A FIFO of {@code depth} beats (a {@link SyncFifo} named {@code <name>_fifo}); the payload keeps its layout. */
    public Stream queue(int depth) {
        return queue(name + "_q", depth);
    }

    public Stream queue(String newName, int depth) {
        Scope s = scope();
        SyncFifo fifo = s.child(newName + "_fifo", new SyncFifo(new SyncFifo.Config(layout.width(), depth, false)));
        fifo.push.valid().set(valid);
        fifo.push.data().set(payload());
        ready().set(fifo.push.ready());
        return fifo.pop.as(newName, layout);
    }

    /** The same handshake with a new payload computed from this one (a combinational map, no register). */
    public Stream map(String newName, Layout other, Expr packedPayload) {
        if (packedPayload.width() != other.width()) {
            throw new HdlException("map '" + newName + "': payload is " + packedPayload.width() + " bits, layout '"
                    + other.name() + "' " + other.width(), SourceLoc.here());
        }
        Map<String, Expr> f = new LinkedHashMap<>();
        for (Layout.Field field : other.fields()) {
            f.put(field.name(), other.fields().size() == 1 ? packedPayload : field.of(packedPayload));
        }
        Stream out = derived(scope(), newName, valid, hasReady(), f, isPacket(other), other);
        if (hasReady()) {
            ready.set(out.ready);
        }
        return out;
    }

    /** The same stream with one payload field replaced. */
    public Stream with(String newName, String field, Expr value) {
        return map(newName, layout, layout.with(payload(), field, value));
    }

    /** The same handshake with the payload read through another layout of the same width. */
    public Stream as(String newName, Layout other) {
        if (other.width() != layout.width()) {
            throw new HdlException("stream '" + name + "' carries " + layout.width() + " bits, layout '" + other.name()
                    + "' has " + other.width(), SourceLoc.here());
        }
        Expr packed = payload();
        Map<String, Expr> f = new LinkedHashMap<>();
        for (Layout.Field field : other.fields()) {
            f.put(field.name(), other.fields().size() == 1 ? packed : field.of(packed));
        }
        return new Stream(newName, isPacket(other), valid, ready, other, wires(scope(), newName, f));
    }

    /**
     * A memory read through an output register: whenever the register is empty or its beat leaves, and
     * {@code available} is high, {@code mem[address]} is read into it ({@link RamRead#load} says when: advance the
     * read address then). The output shows the word from the read register, valid from a register: one beat per
     * cycle, no bubble.
     */
    public static RamRead fromRam(String name, Mem ram, Expr address, Expr available, Layout layout) {
        if (layout.width() != ram.width()) {
            throw new HdlException("memory '" + ram.name() + "' is " + ram.width() + " bits wide, layout '"
                    + layout.name() + "' " + layout.width(), SourceLoc.here());
        }
        Scope s = Scope.of(ram.owner());
        Reg v = s.reg(name + "_valid", 1, 0);
        Wire rdy = s.wire(name + "_ready", 1);
        Wire load = s.wire(name + "_load", available.and(v.not().or(v.and(rdy))));
        Signal word = (Signal) ram.readSync(name + "_word", address, load);
        s.when(load, () -> v.set(1)).elseWhen(rdy, () -> v.set(0));
        Map<String, Expr> f = new LinkedHashMap<>();
        for (Layout.Field field : layout.fields()) {
            f.put(field.name(), layout.fields().size() == 1 ? word : field.of(word));
        }
        return new RamRead(new Stream(name, isPacket(layout), v, rdy, layout, wires(s, name, f)), load);
    }

    /** The output of {@link #fromRam} and the read strobe (advance the address when it is high). */
    public record RamRead(Stream out, Expr load) {
    }

    /**
     * A stream built from expressions in {@code c}: valid and the payload fields become wires named after the stream
     * (a field that is already a signal is used as it is); its ready is a wire the consumer drives.
     */
    public static Stream of(Component c, String name, Expr valid, Layout layout, Expr packedPayload) {
        Map<String, Expr> f = new LinkedHashMap<>();
        for (Layout.Field field : layout.fields()) {
            f.put(field.name(), layout.fields().size() == 1 ? packedPayload : field.of(packedPayload));
        }
        return derived(Scope.of(c), name, valid, true, f, isPacket(layout), layout);
    }

    /** Like {@link #of}, without ready: a flow. */
    public static Stream flowOf(Component c, String name, Expr valid, Layout layout, Expr packedPayload) {
        Map<String, Expr> f = new LinkedHashMap<>();
        for (Layout.Field field : layout.fields()) {
            f.put(field.name(), layout.fields().size() == 1 ? packedPayload : field.of(packedPayload));
        }
        return derived(Scope.of(c), name, valid, false, f, isPacket(layout), layout);
    }

    /**
     * Like {@link #flowOf}, through a register stage: valid the cycle after {@code valid}, the payload registered
     * with it and held while not valid ({@code <name>_valid}, {@code <name>_payload}).
     */
    public static Stream registeredFlow(Component c, String name, Expr valid, Layout layout, Expr packedPayload) {
        Scope s = Scope.of(c);
        Reg v = s.reg(name + "_valid", 1, 0);
        Reg p = s.regNoReset(name + "_payload", packedPayload.width());
        v.set(valid);
        s.when(valid, () -> p.set(packedPayload));
        return flowOf(c, name, v, layout, p);
    }

    // ---- internals -----------------------------------------------------------------------------------------------

    private Scope scope() {
        return Scope.reading(valid);
    }

    private String member(String streamName, String what) {
        return memberName(streamName, what, axis);
    }

    private static String memberName(String streamName, String what, boolean axis) {
        return streamName + "_" + (axis ? "t" : "") + what;
    }

    private Stream derived(Scope s, String newName, Expr newValid, boolean withReady, Map<String, ? extends Expr> f) {
        return derived(s, newName, newValid, withReady, f, axis, layout);
    }

    private static Stream derived(Scope s, String newName, Expr newValid, boolean withReady,
                                  Map<String, ? extends Expr> f, boolean axis, Layout layout) {
        Signal v = newValid instanceof Signal sig ? sig : s.wire(memberName(newName, "valid", axis), newValid);
        Signal r = withReady ? s.wire(memberName(newName, "ready", axis), 1) : null;
        return new Stream(newName, axis, v, r, layout, wires(s, newName, f));
    }

    /** Each field as a signal: kept when it is one, else a wire {@code <stream>_<field>}. */
    private static Map<String, Signal> wires(Scope s, String streamName, Map<String, ? extends Expr> f) {
        Map<String, Signal> m = new LinkedHashMap<>();
        f.forEach((name, e) -> m.put(name, e instanceof Signal sig ? sig : s.wire(streamName + "_" + name, e)));
        return m;
    }

    @Override
    public String toString() {
        return (hasReady() ? "stream " : "flow ") + name + " " + layout;
    }
}
