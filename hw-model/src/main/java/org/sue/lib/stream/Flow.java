package org.sue.lib.stream;

import java.util.Map;
import org.sue.core.Component;
import org.sue.core.ConstructionHelper;
import org.sue.core.Expr;
import org.sue.core.HdlException;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.PortDirection;
import org.sue.core.Reg;
import org.sue.core.Scope;
import org.sue.core.Signal;
import org.sue.core.SourceLoc;

/**
 * A valid-only transfer that cannot be stalled: the consumer takes every beat in the cycle it is valid (an event, a
 * receive path, a status report). A {@link Stream} becomes one only through {@link Stream#asFlow}, so connecting a
 * stream where a flow is expected, or the other way round, does not compile.
 */
@ConstructionHelper
public final class Flow extends Channel {
    private Flow(String name, boolean axis, Signal valid, Layout layout, Map<String, Signal> fields) {
        super(name, axis, valid, layout, fields);
    }

    /** A flow of existing signals (a stream's members, seen without its ready). */
    static Flow of(String name, boolean axis, Signal valid, Layout layout, Map<String, Signal> fields) {
        return new Flow(name, axis, valid, layout, fields);
    }

    // ---- ports ---------------------------------------------------------------------------------------------------

    /** Input ports of component {@code c}: valid and the payload fields in. */
    public static Flow slave(Component c, String name, Layout payload) {
        return fromPorts(name, payload, ports(c, name, payload, false, PortDirection.IN));
    }

    /** Output ports of component {@code c}: valid and the payload fields out. */
    public static Flow master(Component c, String name, Layout payload) {
        return fromPorts(name, payload, ports(c, name, payload, false, PortDirection.OUT));
    }

    /**
     * The ports {@code <name>_valid} and {@code <name>_<field>} that component {@code c} already has (a child's flow
     * interface), seen as one flow again, so that its parent connects it with the operators.
     */
    public static Flow ofPorts(Component c, String name, Layout payload) {
        boolean axis = isPacket(payload);
        return new Flow(name, axis, Stream.port(c, memberName(name, "valid", axis), 1), payload,
                Stream.fieldPorts(c, name, payload));
    }

    private static Flow fromPorts(String name, Layout payload, PortSet p) {
        return new Flow(name, p.axis(), p.valid(), payload, p.fields());
    }

    /**
     * A flow built from expressions in {@code c}: valid and the payload fields become wires named after the flow (a
     * field that is already a signal is used as it is).
     */
    public static Flow of(Component c, String name, Expr valid, Layout layout, Expr packedPayload) {
        checkWidth(layout, packedPayload, name);
        Scope s = Scope.of(c);
        boolean axis = isPacket(layout);
        return new Flow(name, axis, validSignal(s, name, valid, axis), layout, wires(s, name, split(layout,
                packedPayload)));
    }

    /**
     * Like {@link #of}, through a register stage: valid the cycle after {@code valid}, the payload registered with it
     * and held while not valid ({@code <name>_valid}, {@code <name>_payload}).
     */
    public static Flow registered(Component c, String name, Expr valid, Layout layout, Expr packedPayload) {
        Scope s = Scope.of(c);
        Reg v = s.reg(name + "_valid", 1, 0);
        Reg p = s.regNoReset(name + "_payload", packedPayload.width());
        v.set(valid);
        s.when(valid, () -> p.set(packedPayload));
        return of(c, name, v, layout, p);
    }

    // ---- connecting ----------------------------------------------------------------------------------------------

    @Override
    public Expr fire() {
        return valid;
    }

    /** Drives {@code sink} from this flow: its valid and every payload field (matched by name). */
    public void into(Flow sink) {
        driveSame(sink);
    }

    /**
     * Drives this flow (a child's input, or an output of the component being built) from a valid and a payload
     * packed in its layout.
     */
    public void drive(Expr newValid, Expr packedPayload) {
        valid.set(newValid);
        drivePayload(this, packedPayload);
    }

    /** Ties this flow off (a child's input that this configuration never uses): never valid, zero payload. */
    public void tieOff() {
        valid.set(Hw.bool(false));
        tieOffPayload();
    }

    // ---- operators -----------------------------------------------------------------------------------------------

    /** Beats offered while {@code cond} is high are dropped. */
    public Flow throwWhen(Expr cond) {
        return throwWhen(name + "_kept", cond);
    }

    public Flow throwWhen(String newName, Expr cond) {
        return derived(newName, valid.and(cond.not()), layout, fields);
    }

    /** The same beats with a new payload computed from this one (SpinalHDL's translateWith; combinational). */
    public Flow map(String newName, Layout other, Expr packedPayload) {
        checkWidth(other, packedPayload, newName);
        return derived(newName, valid, other, split(other, packedPayload));
    }

    /**
     * A packet flow's beats in another packet layout: {@code tdata}, {@code tkeep} and {@code tlast} as they are,
     * {@code user} as the new {@code tuser} (null for a layout without one, or to send it zero); the old
     * {@code tuser}, if any, is declared unused.
     */
    public Flow retagged(String newName, Layout packet, Expr user) {
        return map(newName, packet, retaggedBeat(newName, packet, user));
    }

    /** The same flow with one payload field replaced. */
    public Flow with(String newName, String field, Expr value) {
        return map(newName, layout, layout.with(payload(), field, value));
    }

    /** The same beats with the payload read through another layout of the same width. */
    public Flow as(String newName, Layout other) {
        if (other.width() != layout.width()) {
            throw new HdlException("flow '" + name + "' carries " + layout.width() + " bits, layout '" + other.name()
                    + "' has " + other.width(), SourceLoc.here());
        }
        return new Flow(newName, isPacket(other), valid, other, wires(scope(), newName, split(other, payload())));
    }

    /**
     * A choice made once per packet: {@code decision} as the packet's first beat shows it, held to its last beat (a
     * frame's EtherType, read on its first beat, steering all of it). Registers {@code <name>_first},
     * {@code <name>_held}.
     */
    public Expr perPacket(String name, Expr decision) {
        Scope s = scope();
        Reg first = s.reg(name + "_first", 1, 1);
        s.when(valid, () -> first.set(tlast()));
        Reg held = s.regNoReset(name + "_held", 1);
        s.when(valid.and(first), () -> held.set(decision));
        return s.wire(name, Hw.mux(first, decision, held));
    }

    /** A register stage: the same beats a cycle later ({@code <name>_valid}, {@code <name>_payload}). */
    public Flow stage(String newName) {
        return registered(scope().component(), newName, valid, layout, payload());
    }

    private Flow derived(String newName, Expr newValid, Layout l, Map<String, ? extends Expr> f) {
        Scope s = scope();
        boolean ax = isPacket(l);
        return new Flow(newName, ax, validSignal(s, newName, newValid, ax), l, wires(s, newName, f));
    }

    @Override
    public String toString() {
        return "flow " + name + " " + layout;
    }
}
