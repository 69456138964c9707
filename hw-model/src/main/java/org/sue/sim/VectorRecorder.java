package org.sue.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.ResetStyle;
import org.sue.vec.PortDir;
import org.sue.vec.PortSpec;
import org.sue.vec.VectorManifest;
import org.sue.vec.VectorWriter;

/**
 * Records every top-level port (the reset first) each cycle into a golden-vector file. Outputs whose value is not
 * defined are recorded as don't-care: every output up to and including the first cycle with the reset asserted
 * (registers hold their power-up values until the reset's first edge), and a stream's payload outputs in cycles where
 * its valid is zero ({@link org.sue.core.Component#payloadOf}).
 */
final class VectorRecorder implements Simulator.CycleListener {
    private final VectorWriter writer;
    private final List<SimSignal> ports;
    private final long[][] values;
    /** The top-level ports' arrays of values (all but the reset column), for {@link Simulator#peekPorts}. */
    private final long[][] portValues;
    private final boolean[] dontCare;
    /** Per column: the column of the valid that qualifies it, or -1. */
    private final int[] validColumn;
    private final long resetAsserted;
    private boolean resetSeen;

    VectorRecorder(Simulator sim, Path manifestJson) {
        ports = sim.topPorts();
        String file = manifestJson.getFileName().toString();
        String base = file.endsWith(".json") ? file.substring(0, file.length() - 5) : file;
        ResetStyle style = sim.design().resetStyle();
        List<PortSpec> specs = new ArrayList<>();
        specs.add(new PortSpec(style.portName(), PortDir.IN, 1));
        for (SimSignal s : ports) {
            boolean input = s.settable();
            specs.add(new PortSpec(s.signal().name(), input ? PortDir.IN : PortDir.OUT, s.width()));
        }
        VectorManifest header = new VectorManifest(sim.design().top().moduleName(),
                new ObjectMapper().valueToTree(new java.util.TreeMap<>(sim.design().top().parameters())), ResetStyle.CLOCK, style.portName(),
                style.name(), 0, base + ".vec", specs);
        writer = VectorWriter.create(manifestJson, header);
        values = new long[specs.size()][];
        for (int i = 0; i < specs.size(); i++) {
            values[i] = new long[specs.get(i).words()];
        }
        portValues = java.util.Arrays.copyOfRange(values, 1, values.length);
        dontCare = new boolean[specs.size()];
        validColumn = new int[specs.size()];
        java.util.Arrays.fill(validColumn, -1);
        for (var group : sim.design().top().payloads().entrySet()) {
            if (group.getKey().isInput()) {
                continue;
            }
            int v = column(group.getKey());
            for (org.sue.core.Port p : group.getValue()) {
                validColumn[column(p)] = v;
            }
        }
        resetAsserted = style.activeHigh() ? 1 : 0;
    }

    private int column(org.sue.core.Port p) {
        for (int i = 0; i < ports.size(); i++) {
            if (ports.get(i).signal() == p) {
                return i + 1;
            }
        }
        throw new IllegalStateException("port " + p.path() + " is not a top-level port");
    }

    @Override
    public void sample(Simulator sim, long cycle) {
        values[0][0] = sim.resetPortValue();
        sim.peekPorts(portValues);
        for (int i = 1; i < values.length; i++) {
            int v = validColumn[i];
            dontCare[i] = !ports.get(i - 1).settable() && (!resetSeen || v >= 0 && isZero(values[v]));
        }
        writer.writeCycle(values, dontCare);
        resetSeen |= values[0][0] == resetAsserted;
    }

    private static boolean isZero(long[] words) {
        for (long w : words) {
            if (w != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        writer.close();
    }
}
