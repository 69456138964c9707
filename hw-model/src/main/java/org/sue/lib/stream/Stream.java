package org.sue.lib.stream;

import java.util.ArrayList;
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
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.Scope;
import org.sue.core.Signal;
import org.sue.core.SourceLoc;
import org.sue.core.Wire;

/**
 * A handshake: {@code valid}, {@code ready} and a payload described by a {@link Layout}. A beat moves in a cycle where
 * valid and ready are both high ({@link #fire}); the producer keeps valid and the payload steady until then and never
 * makes valid wait for ready (AXI-Stream's rule; {@code StreamProtocolChecker} checks it in every simulation test).
 *
 * <p>Ports follow one pattern: {@code <name>_valid}, {@code <name>_ready}, {@code <name>_<field>}; packet streams
 * keep AXI-Stream names ({@code s_axis_tvalid}, {@code s_axis_tready}, ...). The operators build plain registers and
 * wires in the component that reads the stream (the owner of its signals, or its parent when they are a child's
 * ports), named after the stream: {@code haltWhen} on {@code in} gives {@code in_halt_valid}. A valid-only transfer
 * is a {@link Flow}.
 */
@ConstructionHelper
public final class Stream extends Channel {
    private final Signal ready;

    private Stream(String name, boolean axis, Signal valid, Signal ready, Layout layout, Map<String, Signal> fields) {
        super(name, axis, valid, layout, fields);
        this.ready = ready;
    }

    // ---- ports ---------------------------------------------------------------------------------------------------

    /** Input ports of component {@code c}: valid and the payload fields in, ready out. */
    public static Stream slave(Component c, String name, Layout payload) {
        return streamPorts(c, name, payload, true, PortDirection.IN);
    }

    /** Output ports of component {@code c}: valid and the payload fields out, ready in. */
    public static Stream master(Component c, String name, Layout payload) {
        return streamPorts(c, name, payload, true, PortDirection.OUT);
    }

    /** Packet input {@code s_axis_*} (with tready). */
    public static Stream slave(Component c, StreamConfig cfg) {
        return slave(c, "s_axis", cfg.layout());
    }

    /** Packet output {@code m_axis_*} (with tready). */
    public static Stream master(Component c, StreamConfig cfg) {
        return master(c, "m_axis", cfg.layout());
    }

    /**
     * The ports {@code <name>_valid}, {@code <name>_ready} and {@code <name>_<field>} that component {@code c} already
     * has (a child that exposes a grandchild's stream with {@code exposeRest}), seen as one stream again, so that its
     * parent connects it with the operators.
     */
    public static Stream ofPorts(Component c, String name, Layout payload) {
        boolean ax = isPacket(payload);
        return new Stream(name, ax, port(c, memberName(name, "valid", ax), 1), port(c, memberName(name, "ready", ax),
                1), payload, fieldPorts(c, name, payload));
    }

    /** The payload ports {@code <name>_<field>} component {@code c} already has. */
    static Map<String, Signal> fieldPorts(Component c, String name, Layout payload) {
        Map<String, Signal> fields = new LinkedHashMap<>();
        for (Layout.Field f : payload.fields()) {
            fields.put(f.name(), port(c, name + "_" + f.name(), f.width()));
        }
        return fields;
    }

    /** Port {@code portName} of component {@code c}, of {@code width} bits. */
    static Port port(Component c, String portName, int width) {
        Port p = c.ports().stream().filter(q -> q.name().equals(portName)).findFirst().orElse(null);
        if (p == null || p.width() != width) {
            throw new HdlException(c.moduleName() + " has no port " + portName + " of " + width + " bits" + (p == null
                    ? "" : " (it has " + p.width() + ")"), SourceLoc.here());
        }
        return p;
    }

    private static Stream streamPorts(Component c, String name, Layout payload, boolean withReady, PortDirection forward) {
        PortSet p = Channel.ports(c, name, payload, withReady, forward);
        return new Stream(name, p.axis(), p.valid(), p.ready(), payload, p.fields());
    }

    // ---- members -------------------------------------------------------------------------------------------------
    // ---- members -------------------------------------------------------------------------------------------------

    public Signal ready() { return ready; }
    public Signal tready() { return ready(); }

    /** A beat moves this cycle: valid and ready. */
    @Override
    public Expr fire() {
        return valid.and(ready);
    }

    // ---- connecting ----------------------------------------------------------------------------------------------

    /**
     * Drives {@code sink} from this stream: its valid and every payload field (matched by name), and this stream's
     * ready from the sink's.
     */
    public void into(Stream sink) {
        driveSame(sink);
        ready.set(sink.ready);
    }

    /**
     * Drives {@code sink}'s handshake from this stream's (valid to it, its ready back), not its payload (SpinalHDL's
     * {@code arbitrationFrom}): drive the payload with {@link #translateInto} or field by field.
     */
    public void arbitrationTo(Stream sink) {
        sink.valid.set(valid);
        ready.set(sink.ready);
    }

    /**
     * Drives {@code sink} from this stream with a payload computed from this one's, packed in the sink's layout (for
     * a child's input of another layout: the handshake passes, the payload is translated).
     */
    public void translateInto(Stream sink, Expr packedPayload) {
        arbitrationTo(sink);
        drivePayload(sink, packedPayload);
    }

    /** This stream as a flow: it is always ready (for a consumer that takes every beat, like a receive path). */
    public Flow asFlow() {
        ready.set(Hw.bool(true));
        return Flow.of(name, axis, valid, layout, fields);
    }

    /**
     * Ties this stream off (a child's input that this configuration never uses): never valid, zero payload. Its
     * ready is left to the caller ({@code unused(...)} it).
     */
    public void tieOff() {
        valid.set(Hw.bool(false));
        tieOffPayload();
    }

    // ---- operators -----------------------------------------------------------------------------------------------

    /**
     * Beats wait while {@code cond} is high: nothing moves, nothing is lost. The output withdraws a waiting beat when
     * {@code cond} rises under it: it keeps the stream rule only where {@code cond} does not rise while the output
     * stalls (the same holds for {@link #continueWhen} and {@link #throwWhen}).
     */
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
        Stream out = derived(newName, valid.and(pass), layout, fields);
        ready.set(out.ready.and(pass));
        return out;
    }

    /** Beats offered while {@code cond} is high are dropped (taken from this stream, not passed on). */
    public Stream throwWhen(Expr cond) {
        return throwWhen(name + "_kept", cond);
    }

    public Stream throwWhen(String newName, Expr cond) {
        Stream out = derived(newName, valid.and(cond.not()), layout, fields);
        ready.set(out.ready.or(cond));
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
            outs.add(derived(name + "_fork" + i, valid.and(d.not()), layout, fields));
        }
        Expr all = Hw.bool(true);
        for (int i = 0; i < n; i++) {
            all = all.and(outs.get(i).ready.or(done.get(i)));
        }
        Wire allTaken = s.wire(name + "_fork_all", all);
        ready.set(allTaken);
        for (int i = 0; i < n; i++) {
            Reg d = done.get(i);
            Stream o = outs.get(i);
            d.set(Hw.mux(valid.and(allTaken), Hw.bool(false), d.or(o.fire())));
        }
        return outs;
    }

    /**
     * Each beat to the one output {@code select} names (a value of {@code log2Up(n)} bits, read while the beat is
     * offered): that output's valid, its ready back; the others see nothing.
     */
    public List<Stream> demux(String newName, Expr select, int n) {
        if (n < 2 || select.width() != Hw.log2Up(n)) {
            throw new HdlException("demux '" + newName + "' to " + n + " outputs needs at least 2 outputs and a select"
                    + " of " + Hw.log2Up(Math.max(n, 2)) + " bits, got " + select.width(), SourceLoc.here());
        }
        List<Stream> outs = new ArrayList<>();
        List<Expr> readies = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Stream o = derived(newName + "_" + i, valid.and(select.eq(i)), layout, fields);
            outs.add(o);
            readies.add(o.ready);
        }
        ready.set(Hw.select(readies, select));
        return outs;
    }

    /**
     * The input {@code select} names, passed through (its valid and payload out, the output's ready back to it); the
     * other inputs wait. The caller keeps {@code select} steady while the chosen input's beat is offered (as
     * {@link Arbiter} does), or the output breaks the stream rule.
     */
    public static Stream mux(String name, List<Stream> inputs, Expr select) {
        int n = inputs.size();
        if (n < 2 || select.width() != Hw.log2Up(n)) {
            throw new HdlException("mux '" + name + "' of " + n + " inputs needs at least 2 inputs and a select of "
                    + Hw.log2Up(Math.max(n, 2)) + " bits, got " + select.width(), SourceLoc.here());
        }
        Layout layout = sameLayout(name, inputs);
        List<Expr> valids = new ArrayList<>();
        List<Expr> payloads = new ArrayList<>();
        for (Stream s : inputs) {
            valids.add(s.valid);
            payloads.add(s.payload());
        }
        Scope sc = inputs.get(0).scope();
        Stream out = of(sc.component(), name, Hw.select(valids, select), layout, Hw.select(payloads, select));
        for (int i = 0; i < n; i++) {
            inputs.get(i).ready.set(out.ready.and(select.eq(i)));
        }
        return out;
    }

    /** The one layout of {@code inputs}, or a clear error naming the first that differs. */
    static Layout sameLayout(String name, List<Stream> inputs) {
        Layout layout = inputs.get(0).layout;
        for (Stream s : inputs) {
            if (s.layout.width() != layout.width() || !s.fields.keySet().equals(inputs.get(0).fields.keySet())) {
                throw new HdlException("'" + name + "': every input must carry layout " + layout + "; " + s
                        + " does not", SourceLoc.here());
            }
        }
        return layout;
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
        Reg v = s.reg(memberName(newName, "valid", axis), 1, 0);
        Map<String, Signal> regs = new LinkedHashMap<>();
        fields.forEach((f, sig) -> regs.put(f, s.regNoReset(newName + "_" + f, sig.width())));
        Stream out = new Stream(newName, axis, v, s.wire(memberName(newName, "ready", axis), 1), layout, regs);
        Wire take = s.wire(newName + "_load", v.not().or(out.ready));
        ready.set(take);
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
        Stream out = derived(newName, valid.or(held), layout, outFields);
        ready.set(held.not());
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
        translateInto(fifo.push, payload());
        return fifo.pop.as(newName, layout);
    }

    /**
     * A FIFO of {@code depth} beats in this stream's reader whose beat shows the cycle after its push when it holds
     * none ({@link #queue}: two cycles), for a path where latency counts: the memory's written word bypasses its read
     * ({@code WRITE_FIRST}), so the output is the read register or the bypass register, a multiplexer after them.
     */
    public Stream queueFallThrough(String newName, int depth) {
        Scope s = scope();
        Mem ram = s.mem(newName + "_ram", depth, layout.width(), ReadUnderWrite.WRITE_FIRST);
        FifoControl fifo = FifoControl.fallThrough(newName + "_fifo", depth, this);
        ram.write(fifo.write(), fifo.wrPtr(), payload());
        return fifo.output(newName, layout, ram.readSync(newName + "_word", fifo.rdPtr(), fifo.load()));
    }

    /**
     * The same handshake with a new payload computed from this one (a combinational map, no register; SpinalHDL's
     * {@code translateWith}).
     */
    public Stream map(String newName, Layout other, Expr packedPayload) {
        checkWidth(other, packedPayload, newName);
        Stream out = derived(newName, valid, other, split(other, packedPayload));
        ready.set(out.ready);
        return out;
    }

    /** The same stream with one payload field replaced. */
    public Stream with(String newName, String field, Expr value) {
        return map(newName, layout, layout.with(payload(), field, value));
    }

    /**
     * A packet stream's beats in another packet layout: {@code tdata}, {@code tkeep} and {@code tlast} as they are,
     * {@code user} as the new {@code tuser} (null for a layout without one); the old {@code tuser}, if any, is
     * declared unused.
     */
    public Stream retagged(String newName, Layout packet, Expr user) {
        return map(newName, packet, retaggedBeat(newName, packet, user));
    }

    /** The same handshake with the payload read through another layout of the same width. */
    public Stream as(String newName, Layout other) {
        if (other.width() != layout.width()) {
            throw new HdlException("stream '" + name + "' carries " + layout.width() + " bits, layout '" + other.name()
                    + "' has " + other.width(), SourceLoc.here());
        }
        return new Stream(newName, isPacket(other), valid, ready, other, wires(scope(), newName, split(other,
                payload())));
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
        return new RamRead(new Stream(name, isPacket(layout), v, rdy, layout, wires(s, name, split(layout, word))),
                load);
    }

    /** The output of {@link #fromRam} and the read strobe (advance the address when it is high). */
    public record RamRead(Stream out, Expr load) {
    }

    /**
     * A stream built from expressions in {@code c}: valid and the payload fields become wires named after the stream
     * (a field that is already a signal is used as it is); its ready is a wire the consumer drives.
     */
    public static Stream of(Component c, String name, Expr valid, Layout layout, Expr packedPayload) {
        checkWidth(layout, packedPayload, name);
        return derived(Scope.of(c), name, valid, layout, split(layout, packedPayload));
    }

    // ---- internals -----------------------------------------------------------------------------------------------

    private Stream derived(String newName, Expr newValid, Layout l, Map<String, ? extends Expr> f) {
        return derived(scope(), newName, newValid, l, f);
    }

    private static Stream derived(Scope s, String newName, Expr newValid, Layout l, Map<String, ? extends Expr> f) {
        boolean ax = isPacket(l);
        return new Stream(newName, ax, validSignal(s, newName, newValid, ax), s.wire(memberName(newName, "ready", ax),
                1), l, wires(s, newName, f));
    }

    @Override
    public String toString() {
        return "stream " + name + " " + layout;
    }
}
