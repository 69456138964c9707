package org.sue.verilator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.sue.vec.PortDir;
import org.sue.vec.PortSpec;
import org.sue.vec.VectorManifest;

/**
 * Replays a golden-vector file on Verilog with Verilator. A C++ harness specialised to the file's ports is generated,
 * built once per content hash (Verilator version, flags, Verilog, harness) into a cache directory, and run: per cycle
 * it applies the inputs, evaluates, compares every output, then clocks. On a mismatch it is run again with tracing on
 * and the VCD is left for inspection.
 */
public final class VerilatorReplay {
    private VerilatorReplay() {
    }

    /**
     * The C++ compiler's optimisation of the harness: -O2 by default (the bench's simulation speed figures); the test
     * suite replays a few thousand cycles a file and sets {@code sue.verilator.cxxopt} to -O0, which halves the build
     * (a 512-bit instance: 94 s of g++ at -O2, 48 s at -O0).
     */
    private static final String CXX_OPT = System.getProperty("sue.verilator.cxxopt", "-O2");
    private static final String MAKE_OPT = "OPT_FAST=" + CXX_OPT + " OPT_GLOBAL=" + CXX_OPT;
    /**
     * Unoptimised, g++'s time goes largely to reading Verilator's headers once per file, so the C++ comes in as few
     * files as Verilator will make (a 512-bit instance: 89 files, 61 s of g++; 10 files, 40 s); optimised, the default
     * split lets make compile the files in parallel.
     */
    private static final List<String> SPLIT = CXX_OPT.equals("-O0") ? List.of("--output-split", "1000000")
            : List.of();
    private static final List<String> FLAGS = Stream.concat(Stream.of("--cc", "--exe", "--build", "-j", "2", "-O3",
            "--trace", "-Wno-fatal", "-Wno-lint", "-Wno-style", "--x-assign", "unique", "--x-initial", "unique",
            "-CFLAGS", "-std=c++14", "-MAKEFLAGS", MAKE_OPT), SPLIT.stream()).toList();

    /**
     * Replays with every register and memory starting at zero, as the JVM simulation does.
     *
     * @param absentPorts manifest ports the Verilog does not have (e.g. a reset for a module without registers)
     * @param waveDir where a waveform goes on failure
     */
    public static ReplayResult replay(List<Path> verilog, String top, Path manifestJson, Set<String> absentPorts,
                                      Path waveDir) {
        return replay(verilog, top, manifestJson, absentPorts, waveDir, -1);
    }

    /**
     * Replays with every register and memory starting at random values drawn from {@code seed} (a negative seed:
     * zeros), as a 4-state simulator's X or real silicon would; outputs the vectors mark don't-care are not compared.
     */
    public static ReplayResult replay(List<Path> verilog, String top, Path manifestJson, Set<String> absentPorts,
                                      Path waveDir, long seed) {
        VectorManifest m = VectorManifest.read(manifestJson);
        String harness = harness(m, top, absentPorts);
        Build b = build(verilog, top, harness);
        Path binDir = b.dir();
        boolean rebuilt = b.rebuilt();
        double buildSeconds = b.seconds();
        Path body = plainBody(manifestJson, m);
        ReplayResult r = run(binDir, body, null, seed, rebuilt, buildSeconds);
        if (!r.passed()) {
            try {
                Files.createDirectories(waveDir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Path vcd = waveDir.resolve(manifestJson.getFileName().toString().replace(".json", "")
                    + (seed < 0 ? "" : "_seed" + seed) + ".vcd").toAbsolutePath();
            run(binDir, body, vcd, seed, rebuilt, buildSeconds);
            System.out.println("[verilator] mismatch replaying " + manifestJson + "; waveform: " + vcd);
            r = new ReplayResult(r.cycles(), r.mismatchCount(), r.firstMismatches(), r.replayNanos(), r.simNanos(), vcd,
                    rebuilt, buildSeconds);
        }
        return r;
    }

    // ---- harness ---------------------------------------------------------------------------------------------------

    static String harness(VectorManifest m, String top, Set<String> absent) {
        List<PortSpec> ports = m.ports();
        int maxWords = 1;
        for (PortSpec p : ports) {
            maxWords = Math.max(maxWords, (p.width() + 31) / 32);
        }
        StringBuilder apply = new StringBuilder();
        StringBuilder compare = new StringBuilder();
        for (int i = 0; i < ports.size(); i++) {
            PortSpec p = ports.get(i);
            if (absent.contains(p.name())) {
                continue;
            }
            int words32 = (p.width() + 31) / 32;
            String name = "top->" + p.name();
            if (p.dir() == PortDir.IN) {
                if (p.width() > 64) {
                    for (int k = 0; k < words32; k++) {
                        apply.append("    ").append(name).append("[").append(k).append("] = cur[").append(i)
                                .append("][").append(k).append("];\n");
                    }
                } else {
                    apply.append("    ").append(name).append(" = ").append(p.width() > 32
                            ? "((uint64_t)cur[" + i + "][1] << 32) | cur[" + i + "][0]" : "cur[" + i + "][0]")
                            .append(";\n");
                }
            } else {
                compare.append("    {\n      uint32_t act[").append(words32).append("];\n");
                if (p.width() > 64) {
                    for (int k = 0; k < words32; k++) {
                        compare.append("      act[").append(k).append("] = ").append(name).append("[").append(k)
                                .append("];\n");
                    }
                } else {
                    compare.append("      uint64_t v = ").append(name).append(";\n      act[0] = (uint32_t) v;\n");
                    if (words32 > 1) {
                        compare.append("      act[1] = (uint32_t)(v >> 32);\n");
                    }
                }
                compare.append("      if (!dc[").append(i).append("] && memcmp(act, cur[").append(i).append("], ").append(words32)
                        .append(" * 4) != 0) report(cycle, \"").append(p.name()).append("\", cur[").append(i)
                        .append("], act, ").append(words32).append(");\n    }\n");
            }
        }
        String tpl = resource("harness.cpp.tpl");
        return tpl.replace("@TOP@", top)
                .replace("@NPORTS@", Integer.toString(ports.size()))
                .replace("@MAXWORDS@", Integer.toString(maxWords))
                .replace("@WIDTHS@", String.join(", ", ports.stream().map(p -> Integer.toString(p.width())).toList()))
                .replace("@CLOCK@", m.clock())
                // start with the reset released so an asserted reset in cycle 0 is an edge for async resets
                .replace("@RESET_INIT@", absent.contains(m.reset()) ? ""
                        : "    top->" + m.reset() + " = " + (m.resetStyle().endsWith("_LOW") ? 1 : 0) + ";\n")
                .replace("@APPLY@", apply.toString())
                .replace("@COMPARE@", compare.toString());
    }

    private static String resource(String name) {
        try (InputStream in = VerilatorReplay.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- build (cached) ----------------------------------------------------------------------------------------------

    /** A built harness: its directory, whether this call built it, and how long that took. */
    record Build(Path dir, boolean rebuilt, double seconds) {
    }

    /** One lock per build directory: two tests may build different designs at once, never the same one twice. */
    private static final java.util.concurrent.ConcurrentHashMap<Path, Object> BUILD_LOCKS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** Compiler cache for the C++ build when the machine has one (scripts/test installs ccache). */
    private static final boolean CCACHE = Tool.onPath("ccache");

    public static Path cacheRoot() {
        String p = System.getProperty("sue.verilator.cache");
        return p != null ? Path.of(p) : Path.of(System.getProperty("user.home"), ".cache", "sue-verilator");
    }

    static Build build(List<Path> verilog, String top, String harness) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(Tool.verilatorVersion().getBytes(StandardCharsets.UTF_8));
            sha.update(String.join(" ", FLAGS).getBytes(StandardCharsets.UTF_8));
            sha.update(top.getBytes(StandardCharsets.UTF_8));
            for (Path f : verilog) {
                sha.update(f.getFileName().toString().getBytes(StandardCharsets.UTF_8));
                sha.update(withoutVolatileComments(Files.readString(f)).getBytes(StandardCharsets.UTF_8));
            }
            sha.update(harness.getBytes(StandardCharsets.UTF_8));
            String hash = HexFormat.of().formatHex(sha.digest()).substring(0, 24);
            Path dir = cacheRoot().resolve(top + "-" + hash);
            synchronized (BUILD_LOCKS.computeIfAbsent(dir, k -> new Object())) {
                return buildIn(dir, verilog, top, harness);
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Build buildIn(Path dir, List<Path> verilog, String top, String harness) {
        try {
            Path bin = dir.resolve("obj").resolve("replay");
            if (Files.isExecutable(bin)) {
                return new Build(dir, false, 0);
            }
            Files.createDirectories(dir);
            Path src = dir.resolve("src");
            Files.createDirectories(src);
            List<String> cmd = new ArrayList<>(List.of("verilator"));
            cmd.addAll(FLAGS);
            if (CCACHE) { // the C++ of Verilator's runtime is the same in every build: compiled once
                cmd.set(cmd.indexOf(MAKE_OPT), MAKE_OPT + " OBJCACHE=ccache");
            }
            cmd.addAll(List.of("--top-module", top, "-Mdir", dir.resolve("obj").toString(), "-o", "replay"));
            for (Path f : verilog) {
                Path copy = src.resolve(f.getFileName());
                Files.copy(f, copy, StandardCopyOption.REPLACE_EXISTING);
                cmd.add(copy.toString());
            }
            Path cpp = src.resolve("replay_main.cpp");
            Files.writeString(cpp, harness);
            cmd.add(cpp.toString());
            System.out.println("[verilator] building " + top + " replay harness in " + dir + " ...");
            long t0 = System.nanoTime();
            Tool.Output out = Tool.run(cmd, dir, 1800);
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (out.exitCode() != 0 || !Files.isExecutable(bin)) {
                throw new IllegalStateException("Verilator build of " + top + " failed (exit " + out.exitCode() + "):\n"
                        + out.tail(40));
            }
            System.out.printf("[verilator] built %s in %.1f s%n", top, seconds);
            return new Build(dir, true, seconds);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SpinalHDL stamps the generating repository's git hash into a comment; it must not defeat the cache. */
    static String withoutVolatileComments(String verilog) {
        return verilog.replaceAll("(?m)^// Git hash.*$", "");
    }

    // ---- run ---------------------------------------------------------------------------------------------------------

    /** The harness reads plain text; a gzip body is unpacked to a temporary file first. */
    private static Path plainBody(Path manifestJson, VectorManifest m) {
        Path body = manifestJson.toAbsolutePath().getParent().resolve(m.body());
        if (!m.body().endsWith(".gz")) {
            return body;
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(body))) {
            Path tmp = Files.createTempFile("sue-vectors", ".vec");
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ReplayResult run(Path dir, Path body, Path vcd, long seed, boolean rebuilt, double buildSeconds) {
        List<String> cmd = new ArrayList<>(List.of(dir.resolve("obj").resolve("replay").toString(), body.toString()));
        if (vcd != null) {
            cmd.addAll(List.of("--vcd", vcd.toString()));
        }
        if (seed >= 0) {
            cmd.addAll(List.of("--seed", Long.toString(seed)));
        }
        Tool.Output out = Tool.run(cmd, dir, 3600);
        long cycles = -1;
        long mismatches = -1;
        long nanos = 0;
        long simNanos = 0;
        List<String> first = new ArrayList<>();
        for (String line : out.text().split("\n")) {
            if (line.startsWith("MISMATCH ")) {
                first.add(line.substring(9));
            } else if (line.startsWith("RESULT ")) {
                String[] f = line.split(" ");
                cycles = Long.parseLong(f[1]);
                mismatches = Long.parseLong(f[2]);
                nanos = Long.parseLong(f[3]);
                simNanos = Long.parseLong(f[4]);
            }
        }
        if (out.exitCode() != 0 || cycles < 0) {
            throw new IllegalStateException("replay harness failed (exit " + out.exitCode() + "):\n" + out.tail(20));
        }
        return new ReplayResult(cycles, mismatches, first, nanos, simNanos, null, rebuilt, buildSeconds);
    }
}
