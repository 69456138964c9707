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

/** Records every top-level port (the reset first) each cycle into a golden-vector file. */
final class VectorRecorder implements Simulator.CycleListener {
    private final VectorWriter writer;
    private final List<SimSignal> ports;
    private final long[][] values;

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
    }

    @Override
    public void sample(Simulator sim, long cycle) {
        values[0][0] = sim.resetPortValue();
        for (int i = 0; i < ports.size(); i++) {
            sim.peekInto(ports.get(i).id(), values[i + 1]);
        }
        writer.writeCycle(values);
    }

    @Override
    public void close() {
        writer.close();
    }
}
