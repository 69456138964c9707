package org.sue.lib.stream;

import org.sue.core.ConstructionHelper;
import org.sue.core.Port;
import org.sue.core.PortDirection;

/**
 * The ports of one stream interface, named AXI-Stream style: {@code s_axis_*} for an input (slave),
 * {@code m_axis_*} for an output (master). Create them from a component with {@code StreamPorts.slave(this::port, cfg)}.
 */
@ConstructionHelper
public record StreamPorts(Port tdata, Port tkeep, Port tvalid, Port tready, Port tlast, Port tuser) {
    /** The component's {@code port} method. */
    @FunctionalInterface
    public interface PortMaker {
        Port port(String name, int width, PortDirection direction);
    }

    public static StreamPorts slave(PortMaker c, String prefix, StreamConfig cfg) {
        return make(c, prefix, cfg, PortDirection.IN, PortDirection.OUT);
    }

    public static StreamPorts master(PortMaker c, String prefix, StreamConfig cfg) {
        return make(c, prefix, cfg, PortDirection.OUT, PortDirection.IN);
    }

    public static StreamPorts slave(PortMaker c, StreamConfig cfg) {
        return slave(c, "s_axis", cfg);
    }

    public static StreamPorts master(PortMaker c, StreamConfig cfg) {
        return master(c, "m_axis", cfg);
    }

    private static StreamPorts make(PortMaker c, String prefix, StreamConfig cfg, PortDirection fwd, PortDirection back) {
        return new StreamPorts(c.port(prefix + "_tdata", cfg.dataWidth(), fwd),
                c.port(prefix + "_tkeep", cfg.lanes(), fwd),
                c.port(prefix + "_tvalid", 1, fwd),
                c.port(prefix + "_tready", 1, back),
                c.port(prefix + "_tlast", 1, fwd),
                c.port(prefix + "_tuser", cfg.userWidth(), fwd));
    }

    /**
     * Connects a stream source to a sink in the enclosing component: a parent's input to a child's input, or a
     * child's output to the parent's output (or one child's output to another's input).
     */
    public static void connect(StreamPorts source, StreamPorts sink) {
        sink.tdata().set(source.tdata());
        sink.tkeep().set(source.tkeep());
        sink.tvalid().set(source.tvalid());
        sink.tlast().set(source.tlast());
        sink.tuser().set(source.tuser());
        source.tready().set(sink.tready());
    }
}
