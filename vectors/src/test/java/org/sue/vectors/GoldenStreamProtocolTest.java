package org.sue.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.sue.core.ResetStyle;
import org.sue.sim.StreamProtocolChecker;
import org.sue.vec.PortDir;
import org.sue.vec.PortSpec;
import org.sue.vec.VectorManifest;
import org.sue.vec.VectorReader;

/**
 * The committed golden vectors obey the stream protocol on every stream, inputs and outputs: read back from the files
 * alone (not from the simulation that wrote them), a user replaying them under AXI4-Stream assertions sees none
 * fire. Streams are found by name in each manifest: {@code <name>_valid} with {@code <name>_ready} going the other
 * way ({@code _tvalid}/{@code _tready}), its payload every other port of the valid's direction named
 * {@code <name>_...} that belongs to no longer-named stream.
 */
class GoldenStreamProtocolTest {
    @TestFactory
    Stream<DynamicTest> everyCommittedFileObeysTheStreamProtocol() throws IOException {
        List<Path> manifests;
        try (Stream<Path> files = Files.list(GoldenFiles.goldenDir())) {
            manifests = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        long withStreams = manifests.stream().filter(m -> !streams(VectorManifest.read(m).ports()).isEmpty()).count();
        assertTrue(withStreams > manifests.size() / 2, "streams found in " + withStreams + " of " + manifests.size()
                + " files (the others have flows only)");
        return manifests.stream().map(m -> DynamicTest.dynamicTest(m.getFileName().toString(), () -> {
            VectorManifest manifest = VectorManifest.read(m);
            assertEquals(manifest.cycles(), check(m, streams(manifest.ports())), m + ": cycles read");
        }));
    }

    /** Replays one file through the checker; returns the cycles read. */
    private static long check(Path manifestJson, List<StreamProtocolChecker.Watched> streams) {
        try (VectorReader in = VectorReader.open(manifestJson)) {
            VectorManifest manifest = in.manifest();
            StreamProtocolChecker checker = new StreamProtocolChecker(manifest.ports().stream().map(PortSpec::name)
                    .toList(), streams);
            long asserted = ResetStyle.valueOf(manifest.resetStyle()).activeHigh() ? 1 : 0;
            long[][] values = in.newCycleBuffer();
            boolean resetSeen = false;
            long cycle = 0;
            while (in.next(values)) {
                boolean reset = values[0][0] == asserted;
                resetSeen |= reset;
                checker.check(cycle++, values, reset || !resetSeen); // outputs mean nothing before the first reset
            }
            return cycle;
        }
    }

    /** The streams of a manifest's ports (column 0 is the reset), found by their names. */
    static List<StreamProtocolChecker.Watched> streams(List<PortSpec> ports) {
        List<String> names = new ArrayList<>();
        List<int[]> pairs = new ArrayList<>(); // valid, ready
        for (int v = 0; v < ports.size(); v++) {
            String valid = ports.get(v).name();
            boolean axis = valid.endsWith("_tvalid");
            if (!axis && !valid.endsWith("_valid")) {
                continue;
            }
            String name = valid.substring(0, valid.length() - (axis ? 7 : 6));
            for (int r = 0; r < ports.size(); r++) {
                if (ports.get(r).name().equals(name + (axis ? "_tready" : "_ready"))
                        && ports.get(r).dir() != ports.get(v).dir()) {
                    names.add(name);
                    pairs.add(new int[] {v, r});
                }
            }
        }
        List<StreamProtocolChecker.Watched> streams = new ArrayList<>();
        for (int s = 0; s < names.size(); s++) {
            int v = pairs.get(s)[0];
            int r = pairs.get(s)[1];
            List<Integer> payload = new ArrayList<>();
            for (int p = 1; p < ports.size(); p++) {
                if (p != v && p != r && ports.get(p).dir() == ports.get(v).dir()
                        && names.get(s).equals(owner(ports.get(p).name(), names))) {
                    payload.add(p);
                }
            }
            streams.add(new StreamProtocolChecker.Watched(names.get(s), ports.get(v).dir() == PortDir.IN, v, r,
                    payload.stream().mapToInt(Integer::intValue).toArray()));
        }
        return streams;
    }

    /** The longest stream name that prefixes {@code port} as {@code <name>_...}, or null. */
    private static String owner(String port, List<String> names) {
        String best = null;
        for (String n : names) {
            if (port.startsWith(n + "_") && (best == null || n.length() > best.length())) {
                best = n;
            }
        }
        return best;
    }

    private static List<Integer> payload(StreamProtocolChecker.Watched w) {
        return java.util.Arrays.stream(w.payload()).boxed().toList();
    }

    /** The search by names finds a packet stream's payload and not a neighbour's ports. */
    @Test
    void streamsAreFoundByName() {
        List<PortSpec> ports = List.of(new PortSpec("rst", PortDir.IN, 1), new PortSpec("s_axis_tdata", PortDir.IN, 8),
                new PortSpec("s_axis_tvalid", PortDir.IN, 1), new PortSpec("s_axis_tready", PortDir.OUT, 1),
                new PortSpec("s_axis_tlast", PortDir.IN, 1), new PortSpec("cmd_valid", PortDir.OUT, 1),
                new PortSpec("cmd_ready", PortDir.IN, 1), new PortSpec("cmd_data_valid", PortDir.OUT, 1),
                new PortSpec("cmd_data_ready", PortDir.IN, 1), new PortSpec("cmd_data_bits", PortDir.OUT, 4),
                new PortSpec("cmd_op", PortDir.OUT, 2), new PortSpec("cmd_credit", PortDir.IN, 2),
                new PortSpec("flow_valid", PortDir.OUT, 1), new PortSpec("flow_x", PortDir.OUT, 1));
        List<StreamProtocolChecker.Watched> streams = streams(ports);
        assertEquals(List.of("s_axis", "cmd", "cmd_data"), streams.stream().map(StreamProtocolChecker.Watched::name)
                .toList());
        assertEquals(List.of(1, 4), payload(streams.get(0)));
        assertEquals(List.of(10), payload(streams.get(1)), "cmd_op; cmd_data_* belong to cmd_data");
        assertEquals(List.of(9), payload(streams.get(2)));
        StreamProtocolChecker checker = new StreamProtocolChecker(ports.stream().map(PortSpec::name).toList(), streams);
        long[][] v = new long[ports.size()][1];
        v[2][0] = 1; // s_axis offered, not ready
        checker.check(0, v, false);
        v[1][0] = 5; // the data changes while stalled
        assertThrows(StreamProtocolChecker.Violation.class, () -> checker.check(1, v, false));
    }
}
