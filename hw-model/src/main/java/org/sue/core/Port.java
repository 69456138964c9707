package org.sue.core;

/** A component port. Inputs are driven by the parent, outputs inside the component. */
public final class Port extends Signal {
    private final PortDirection direction;

    Port(String name, int width, PortDirection direction, Component owner, SourceLoc loc) {
        super(name, width, owner, loc);
        this.direction = direction;
    }

    public PortDirection direction() {
        return direction;
    }

    public boolean isInput() {
        return direction == PortDirection.IN;
    }

    @Override
    String kindName() {
        return isInput() ? "input" : "output";
    }
}
