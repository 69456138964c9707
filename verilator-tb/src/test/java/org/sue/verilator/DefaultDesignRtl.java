package org.sue.verilator;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.sue.core.Design;
import org.sue.gen.DefaultDesigns;
import org.sue.gen.VerilogEmitter;

/**
 * The default designs' Verilog and Yosys reports, each made once per test JVM: {@link GeneratedRtlQualityTest} checks
 * every design, and the synthesis tests that look inside one ({@link SueInstanceSynthTest},
 * {@link TransportRxSynthTest}) read the same report instead of running Yosys again on the same Verilog. A second
 * caller for a design waits for the first.
 */
final class DefaultDesignRtl {
    static final Path OUT = Path.of("target", "quality").toAbsolutePath();

    private static final Map<String, CompletableFuture<VerilogEmitter.Result>> VERILOG = new HashMap<>();
    private static final Map<String, CompletableFuture<SynthReport>> SYNTH = new HashMap<>();
    private static final Map<String, CompletableFuture<SynthReport>> ELABORATION = new HashMap<>();

    private DefaultDesignRtl() {
    }

    /** The design's Verilog under target/quality/{@code name}. */
    static VerilogEmitter.Result verilog(String name) {
        return once(VERILOG, name, () -> VerilogEmitter.emit(Design.elaborate(DefaultDesigns.all().get(name).get()),
                OUT.resolve(name)));
    }

    /** {@link Yosys#synth} on {@link #verilog}; prints how long it took. */
    static SynthReport synth(String name) {
        return once(SYNTH, name, () -> timed("synth", name, Yosys::synth));
    }

    /** {@link Yosys#elaborate} on {@link #verilog}; prints how long it took. */
    static SynthReport elaboration(String name) {
        return once(ELABORATION, name, () -> timed("elaborate", name, Yosys::elaborate));
    }

    private static SynthReport timed(String what, String name, BiFunction<List<Path>, String, SynthReport> yosys) {
        VerilogEmitter.Result r = verilog(name);
        long t0 = System.nanoTime();
        SynthReport s = yosys.apply(r.files(), r.topModule());
        System.out.printf("[yosys %s] %s: %.0f s, %d cells, %d flip-flop bits, %d memory bits%n", what, name,
                (System.nanoTime() - t0) / 1e9, s.cells(), s.flipFlops(), s.memoryBits());
        return s;
    }

    private static <T> T once(Map<String, CompletableFuture<T>> made, String name, Supplier<T> make) {
        CompletableFuture<T> f;
        boolean mine = false;
        synchronized (made) {
            f = made.get(name);
            if (f == null) {
                f = new CompletableFuture<>();
                made.put(name, f);
                mine = true;
            }
        }
        if (mine) {
            try {
                f.complete(make.get());
            } catch (RuntimeException | Error e) {
                f.completeExceptionally(e);
            }
        }
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
