package org.sue.core;

/**
 * Building inside a component from outside its class: how library helpers that are not components themselves
 * (streams and their operators, arbiters) add ports, registers, wires, children and conditional statements to the
 * component being built. It offers exactly what the component's own constructor could do, and like it only while the
 * component is being built.
 */
@ConstructionHelper
public final class Scope {
    private final Component component;

    private Scope(Component component) {
        this.component = component;
    }

    /** Building in {@code c}, which must still be under construction. */
    public static Scope of(Component c) {
        if (c.isComplete()) {
            throw new HdlException("component '" + c.path() + "' is complete; nothing more can be built in it",
                    SourceLoc.here());
        }
        return new Scope(c);
    }

    /**
     * Where logic that reads {@code s} is built: its owner while the owner is being built, or the owner's parent once
     * the owner is a complete child (then {@code s} is one of the child's ports, seen from the parent).
     */
    public static Scope reading(Signal s) {
        Component owner = s.owner();
        if (!owner.isComplete()) {
            return new Scope(owner);
        }
        if (owner.parent() == null || owner.parent().isComplete()) {
            throw new HdlException(s.describe() + " belongs to a complete design; nothing more can be built around it",
                    SourceLoc.here());
        }
        return new Scope(owner.parent());
    }

    public Component component() {
        return component;
    }

    public Port port(String name, int width, PortDirection direction) {
        return component.port(name, width, direction);
    }

    public Wire wire(String name, int width) {
        return component.wire(name, width);
    }

    public Wire wire(String name, Expr value) {
        return component.wire(name, value);
    }

    public Reg reg(String name, int width, long resetValue) {
        return component.reg(name, width, resetValue);
    }

    public Reg regNoReset(String name, int width) {
        return component.regNoReset(name, width);
    }

    public Mem mem(String name, int depth, int width, ReadUnderWrite readUnderWrite) {
        return component.mem(name, depth, width, readUnderWrite);
    }

    public <T extends Component> T child(String name, T child) {
        return component.child(name, child);
    }

    /** See {@link Component#payloadOf}. */
    public void payloadOf(Port valid, Port... payload) {
        component.payloadOf(valid, payload);
    }

    /** See {@link Component#unused}. */
    public Wire unused(String what, Expr... signals) {
        return component.unused(what, signals);
    }

    public WhenChain when(Expr cond, Runnable body) {
        return component.when(cond, body);
    }
}
