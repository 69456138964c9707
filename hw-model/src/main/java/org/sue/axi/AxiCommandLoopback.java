package org.sue.axi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sue.cmd.CommandLoopback;
import org.sue.core.Component;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Signal;

/**
 * An {@link AxiBridge} on SUE's command path closed on itself ({@link CommandLoopback}: ingress, packing buffer, PDUs,
 * unpacker; each PDU comes back as if its destination had sent it): the pair's requests reach its own far master and
 * the responses its own response side through packing and unpacking, credits and all. So one design carries the AXI4
 * form end to end without a network, for tests and golden vectors. The bridge's ports keep their names; the command
 * path's other ports (its counters, xoff) take the prefix {@code sue_}; its resets are held low and every VC and
 * destination is ready.
 */
public final class AxiCommandLoopback extends Component {
    public record Config(AxiBridge.Config bridge, CommandLoopback.Config sue) {
        public Config {
            if (bridge == null || sue == null) {
                throw new IllegalArgumentException("AxiCommandLoopback bridge and sue must be given");
            }
        }
    }

    public AxiCommandLoopback(Config config) {
        super(config);
        AxiBridge bridge = child("bridge", new AxiBridge(config.bridge()));
        CommandLoopback sue = child("sue", new CommandLoopback(config.sue()));
        List<Signal> inside = onCommandPath(bridge, sue);
        exposeRest(bridge, "", inside);
        exposeRest(sue, "sue_", inside);
    }

    /**
     * Joins the FIFO interface of {@code pair} (an {@link AxiBridge} or a design with its ports) to the command path:
     * every port the command path has under the same name, the other way; the command path's resets held low, every VC
     * and destination ready. Returns the ports joined and tied.
     */
    static List<Signal> onCommandPath(Component pair, CommandLoopback sue) {
        List<Signal> inside = joinByName(pair, sue, "");
        Map<String, Port> suePorts = new HashMap<>();
        sue.ports().forEach(p -> suePorts.put(p.name(), p));
        for (String tied : List.of("tx_reset_in", "rx_reset_in", "vc_ready", "dst_ready")) {
            Port q = suePorts.get(tied);
            q.set(tied.endsWith("ready") ? Hw.ones(q.width()) : Hw.zeros(q.width()));
            inside.add(q);
        }
        return inside;
    }

    /**
     * Joins every port of {@code a} to the port of {@code b} named {@code prefix} + its name, where one is an input and
     * the other an output (the output drives the input); returns the ports joined.
     */
    public static List<Signal> joinByName(Component a, Component b, String prefix) {
        Map<String, Port> bPorts = new HashMap<>();
        b.ports().forEach(p -> bPorts.put(p.name(), p));
        List<Signal> joined = new ArrayList<>();
        for (Port p : a.ports()) {
            Port q = bPorts.get(prefix + p.name());
            if (q != null && p.isInput() != q.isInput()) {
                (p.isInput() ? p : q).set(p.isInput() ? q : p);
                joined.add(p);
                joined.add(q);
            }
        }
        return joined;
    }
}
