package org.sue.sim;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Reg;

/**
 * Value change dump of every named signal, scoped by component instance. Time unit 1 ns, clock period 10: values of
 * cycle c are shown from time 10c with the clock low, the rising edge that ends the cycle at 10c + 5. A state
 * register ({@link org.sue.core.State}) also gets {@code <name>_state}, its state's name as a VCD string variable
 * (GTKWave and Surfer show it as text).
 */
final class VcdWriter implements Simulator.CycleListener {
    private final BufferedWriter out;
    private final List<SimSignal> signals;
    private final String[] codes;
    /** Per signal: the names of its states (a state register), or null. */
    private final List<String>[] stateNames;
    private final String[] stateCodes;
    private final long[][] last;
    private final long[] scratch = new long[64];
    private final String clockCode;
    private final String resetCode;
    private long lastReset = -1;
    private boolean first = true;

    VcdWriter(Path file, Simulator sim) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        this.out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII);
        this.signals = sim.signals();
        this.codes = new String[signals.size()];
        this.stateNames = newStateNames(signals.size());
        this.stateCodes = new String[signals.size()];
        this.last = new long[signals.size()][];
        out.write("$timescale 1ns $end\n");
        // scopes from hierarchical paths
        List<String> openScopes = new ArrayList<>();
        int code = 0;
        clockCode = code(code++);
        resetCode = code(code++);
        String resetName = sim.design().resetStyle().portName();
        for (SimSignal s : signals) {
            String[] parts = s.path().split("\\.");
            List<String> scopes = List.of(parts).subList(0, parts.length - 1);
            int common = 0;
            while (common < openScopes.size() && common < scopes.size() && openScopes.get(common).equals(scopes.get(common))) {
                common++;
            }
            while (openScopes.size() > common) {
                out.write("$upscope $end\n");
                openScopes.remove(openScopes.size() - 1);
            }
            while (openScopes.size() < scopes.size()) {
                String sc = scopes.get(openScopes.size());
                out.write("$scope module " + sc + " $end\n");
                if (openScopes.isEmpty()) {
                    out.write("$var wire 1 " + clockCode + " clk $end\n");
                    out.write("$var wire 1 " + resetCode + " " + resetName + " $end\n");
                }
                openScopes.add(sc);
            }
            codes[s.id()] = code(code++);
            out.write("$var wire " + s.width() + " " + codes[s.id()] + " " + parts[parts.length - 1]
                    + (s.width() > 1 ? " [" + (s.width() - 1) + ":0]" : "") + " $end\n");
            if (s.signal() instanceof Reg r && r.stateNames() != null) {
                stateNames[s.id()] = r.stateNames();
                stateCodes[s.id()] = code(code++);
                out.write("$var string 1 " + stateCodes[s.id()] + " " + parts[parts.length - 1] + "_state $end\n");
            }
        }
        while (!openScopes.isEmpty()) {
            out.write("$upscope $end\n");
            openScopes.remove(openScopes.size() - 1);
        }
        out.write("$enddefinitions $end\n");
    }

    @SuppressWarnings("unchecked")
    private static List<String>[] newStateNames(int n) {
        return (List<String>[]) new List<?>[n];
    }

    private static String code(int n) {
        StringBuilder sb = new StringBuilder();
        do {
            sb.append((char) (33 + n % 94));
            n /= 94;
        } while (n > 0);
        return sb.toString();
    }

    @Override
    public void sample(Simulator sim, long cycle) throws IOException {
        out.write("#" + (cycle * 10) + "\n0" + clockCode + "\n");
        long rst = sim.resetPortValue();
        if (rst != lastReset) {
            out.write(rst + resetCode + "\n");
            lastReset = rst;
        }
        for (SimSignal s : signals) {
            int words = (s.width() + 63) >>> 6;
            long[] v = words <= scratch.length ? scratch : new long[words];
            sim.peekInto(s.id(), v);
            long[] prev = last[s.id()];
            if (!first && equal(prev, v, words)) {
                continue;
            }
            if (prev == null) {
                prev = new long[words];
                last[s.id()] = prev;
            }
            System.arraycopy(v, 0, prev, 0, words);
            if (stateNames[s.id()] != null) {
                List<String> names = stateNames[s.id()];
                int state = (int) v[0];
                out.write("s" + (state < names.size() ? names.get(state) : "?") + " " + stateCodes[s.id()] + "\n");
            }
            if (s.width() == 1) {
                out.write((v[0] & 1) + codes[s.id()] + "\n");
            } else {
                out.write('b');
                out.write(binary(v, s.width()));
                out.write(' ');
                out.write(codes[s.id()]);
                out.write('\n');
            }
        }
        first = false;
        out.write("#" + (cycle * 10 + 5) + "\n1" + clockCode + "\n");
    }

    private static boolean equal(long[] a, long[] b, int n) {
        for (int i = 0; i < n; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    private static String binary(long[] v, int width) {
        int top = width - 1;
        while (top > 0 && ((v[top >>> 6] >>> (top & 63)) & 1) == 0) {
            top--;
        }
        StringBuilder sb = new StringBuilder(top + 1);
        for (int i = top; i >= 0; i--) {
            sb.append((char) ('0' + ((v[i >>> 6] >>> (i & 63)) & 1)));
        }
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
