package org.sue.core;

/**
 * A status output a block reports ({@link Component#statusList()}): its port, what kind of value it carries and what
 * it means. The management register map, the docs and the testbench summaries are made from these.
 */
public record Status(Port port, Kind kind, String description, SourceLoc declaredAt) {
    /** What a status value is. */
    public enum Kind {
        /** A saturating count of events since reset (32 bits). */
        COUNTER,
        /** A quantity now: an occupancy, a credit count, a level. */
        LEVEL,
        /** A state or mode of the block, or a condition that holds now. */
        STATE,
        /** A sticky flag: set by an event, held until reset. */
        FLAG
    }

    public Status {
        if (description == null || description.isBlank()) {
            throw new HdlException("status '" + port.name() + "' needs a description", declaredAt);
        }
    }

    public String name() {
        return port.name();
    }

    public int width() {
        return port.width();
    }
}
