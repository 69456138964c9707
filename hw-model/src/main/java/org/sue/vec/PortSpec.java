package org.sue.vec;

/** One port column of a vector file. */
public record PortSpec(String name, PortDir dir, int width) {
    public PortSpec {
        if (width < 1) {
            throw new IllegalArgumentException("port '" + name + "': width must be positive, got " + width);
        }
    }

    public int words() {
        return (width + 63) >>> 6;
    }
}
