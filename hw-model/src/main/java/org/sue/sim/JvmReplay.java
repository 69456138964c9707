package org.sue.sim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sue.vec.PortDir;
import org.sue.vec.PortSpec;
import org.sue.vec.VectorManifest;
import org.sue.vec.VectorReader;

/**
 * Replays a golden-vector file into the JVM simulation: applies each cycle's inputs, compares every output, steps the
 * clock. The same procedure the Verilator harness runs on the generated Verilog.
 */
public final class JvmReplay {
    private JvmReplay() {
    }

    /** One differing output value. */
    public record Mismatch(long cycle, String port, String expected, String actual) {
        @Override
        public String toString() {
            return "cycle " + cycle + " port " + port + ": expected " + expected + ", got " + actual;
        }
    }

    /** replayNanos: the whole loop with parsing; simNanos: only the simulation of the parsed cycles. */
    public record Result(long cycles, long mismatchCount, List<Mismatch> firstMismatches, long replayNanos,
                         long simNanos) {
        public boolean passed() {
            return mismatchCount == 0;
        }

        /** Simulation speed, parsing excluded. */
        public double cyclesPerSecond() {
            return cycles * 1e9 / Math.max(1, simNanos);
        }

        public double replayCyclesPerSecond() {
            return cycles * 1e9 / Math.max(1, replayNanos);
        }
    }

    public static Result replay(Simulator sim, Path manifestJson) {
        try (VectorReader reader = VectorReader.open(manifestJson)) {
            VectorManifest m = reader.manifest();
            if (!m.module().equals(sim.design().top().moduleName())) {
                throw new IllegalArgumentException(manifestJson + " is for module " + m.module() + ", the simulation is "
                        + sim.design().top().moduleName());
            }
            List<PortSpec> ports = m.ports();
            int n = ports.size();
            int[] top = new int[n]; // where each port's value is in peekPorts' buffers
            boolean[] isReset = new boolean[n];
            List<String> topNames = sim.design().top().ports().stream().map(org.sue.core.Port::name).toList();
            for (int i = 0; i < n; i++) {
                PortSpec p = ports.get(i);
                top[i] = topNames.indexOf(p.name());
                isReset[i] = p.name().equals(m.reset());
                if (!isReset[i]) {
                    SimSignal s = sim.signal(p.name());
                    if (s.width() != p.width()) {
                        throw new IllegalArgumentException("port " + p.name() + " is " + s.width()
                                + " bits in the design, " + p.width() + " in " + manifestJson);
                    }
                }
            }
            int[] inputs = java.util.stream.IntStream.range(0, n).filter(i -> ports.get(i).dir() == PortDir.IN)
                    .toArray();
            int[] outputs = java.util.stream.IntStream.range(0, n).filter(i -> ports.get(i).dir() == PortDir.OUT)
                    .toArray();
            // A chunk of cycles is parsed into memory, then simulated; only the simulation is timed in simNanos.
            final int chunkSize = 4096;
            long[][][] chunk = new long[chunkSize][][];
            for (int c = 0; c < chunkSize; c++) {
                chunk[c] = reader.newCycleBuffer();
            }
            long[][] actual = sim.newPortBuffers();
            long[][] in = new long[actual.length][]; // this cycle's inputs, in the simulator's port order
            boolean[][] dontCare = new boolean[chunkSize][n];
            List<Mismatch> first = new ArrayList<>();
            long mismatches = 0;
            long cycle = 0;
            long simNanos = 0;
            long t0 = System.nanoTime();
            boolean more = true;
            while (more) {
                int filled = 0;
                while (filled < chunkSize && (more = reader.next(chunk[filled], dontCare[filled]))) {
                    filled++;
                }
                long s0 = System.nanoTime();
                for (int c = 0; c < filled; c++) {
                    long[][] row = chunk[c];
                    for (int i : inputs) {
                        if (isReset[i]) {
                            sim.pokeResetPort(row[i][0]);
                        } else {
                            in[top[i]] = row[i];
                        }
                    }
                    sim.pokePorts(in);
                    sim.peekPorts(actual);
                    for (int i : outputs) {
                        long[] want = row[i];
                        long[] got = actual[top[i]];
                        boolean same = want.length == 1 ? want[0] == got[0] : java.util.Arrays.equals(want, got);
                        if (!same && !dontCare[c][i]) {
                            mismatches++;
                            if (first.size() < 10) {
                                first.add(new Mismatch(cycle, ports.get(i).name(), hex(row[i]), hex(actual[top[i]])));
                            }
                        }
                    }
                    sim.step();
                    cycle++;
                }
                simNanos += System.nanoTime() - s0;
            }
            return new Result(cycle, mismatches, first, System.nanoTime() - t0, simNanos);
        }
    }

    static String hex(long[] v) {
        StringBuilder sb = new StringBuilder();
        for (int i = v.length - 1; i >= 0; i--) {
            sb.append(i == v.length - 1 ? Long.toHexString(v[i]) : String.format("%016x", v[i]));
        }
        return sb.toString();
    }
}
