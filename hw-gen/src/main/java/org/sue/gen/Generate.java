package org.sue.gen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.ResetStyle;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;
import org.sue.lib.stream.Beats;
import org.sue.sim.Simulator;

/**
 * The main job ({@code scripts/generate}): writes the Verilog of every default design into one folder, one file per
 * module plus {@code files.f}, then runs a short JVM simulation of the 1024-bit CRC against java.util.zip.CRC32.
 * Arguments: [output folder, default build/rtl] [--vhdl] [--reset=SYNC_HIGH|SYNC_LOW|ASYNC_HIGH|ASYNC_LOW].
 */
public final class Generate {
    private Generate() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of("build", "rtl");
        HdlLanguage lang = HdlLanguage.VERILOG;
        ResetStyle reset = ResetStyle.SYNC_HIGH;
        for (String a : args) {
            if (a.equals("--vhdl")) {
                lang = HdlLanguage.VHDL;
            } else if (a.startsWith("--reset=")) {
                reset = ResetStyle.valueOf(a.substring("--reset=".length()));
            } else if (a.startsWith("--")) {
                throw new IllegalArgumentException("unknown option " + a + " (use --vhdl, --reset=STYLE)");
            } else {
                out = Path.of(a);
            }
        }
        Set<Path> files = new LinkedHashSet<>();
        for (Map.Entry<String, Supplier<Component>> e : DefaultDesigns.all().entrySet()) {
            long t0 = System.nanoTime();
            VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(e.getValue().get(), reset), out, lang);
            files.addAll(r.files());
            System.out.printf("%-14s -> %-22s %s (%.2f s)%n", e.getKey(), r.topModule(),
                    r.files().stream().map(f -> f.getFileName().toString()).toList(), (System.nanoTime() - t0) / 1e9);
        }
        List<String> lines = new ArrayList<>();
        for (Path f : files) {
            lines.add(f.toAbsolutePath().toString());
        }
        Path list = out.resolve("files.f");
        Files.write(list, lines);
        System.out.println("wrote " + files.size() + " files and " + list);
        simulate();
    }

    /** A short simulation: random back-to-back frames through the 1024-bit CRC, checked against the JDK. */
    static void simulate() {
        Simulator sim = Simulator.compile(Design.elaborate(new ParallelCrc(new ParallelCrc.Config(CrcParams.CRC32, 1024))));
        Random rnd = new Random(1);
        sim.reset();
        java.util.ArrayDeque<Long> expected = new java.util.ArrayDeque<>();
        int frames = 2000;
        long bytes = 0;
        int ok = 0;
        long t0 = System.nanoTime();
        for (int f = 0; f < frames; f++) {
            byte[] frame = new byte[64 + rnd.nextInt(4033)];
            rnd.nextBytes(frame);
            CRC32 c = new CRC32();
            c.update(frame);
            expected.add(c.getValue());
            bytes += frame.length;
            for (int off = 0; off < frame.length; off += 128) {
                int n = Math.min(128, frame.length - off);
                sim.poke("s_valid", 1);
                sim.poke("s_data", Beats.data(frame, off, n, 128));
                sim.poke("s_keep", Beats.keep(n, 128));
                sim.poke("s_last", off + 128 >= frame.length ? 1 : 0);
                ok += check(sim, expected);
                sim.step();
            }
        }
        sim.poke("s_valid", 0);
        for (int i = 0; i < 3; i++) {
            ok += check(sim, expected);
            sim.step();
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("simulation: %d frames, %d bytes through Crc32_w1024 in %d cycles (%.2f s, %.0f cycles/s);"
                + " %d/%d CRCs equal java.util.zip.CRC32%n", frames, bytes, sim.cycle(), s, sim.cycle() / s, ok, frames);
        if (ok != frames) {
            throw new IllegalStateException("CRC mismatch in the simulation");
        }
    }

    private static int check(Simulator sim, java.util.ArrayDeque<Long> expected) {
        if (sim.peek("crc_valid") == 1) {
            return sim.peek("crc") == expected.removeFirst() ? 1 : 0;
        }
        return 0;
    }
}
