package org.sue.verilator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * Dynamic tests whose bodies run one more at a time than there are cores (at least three): the external tools they
 * drive (Verilator, Yosys, GHDL) are single-threaded, so the suite would otherwise leave a core idle. Every body is
 * submitted when the factory runs; each dynamic test waits for its own and reports its failure. While working on one
 * block, {@code -Dsue.only=<regex>} keeps only the items whose name matches (e.g. {@code -Dsue.only='llr_.*'}).
 */
final class InParallel {
    private InParallel() {
    }

    // one more than the cores: a body spends part of its time in the JVM (elaboration, emission) between the tools,
    // and a core would sit idle then
    private static final ExecutorService POOL = Executors.newFixedThreadPool(
            Math.max(2, Runtime.getRuntime().availableProcessors()) + 1, r -> {
                Thread t = new Thread(r, "in-parallel");
                t.setDaemon(true);
                return t;
            });

    static <T> Stream<DynamicTest> tests(List<T> all, Function<T, String> name, ThrowingConsumer<T> body) {
        String only = System.getProperty("sue.only");
        List<T> items = only == null ? all : all.stream().filter(t -> name.apply(t).matches(only)).toList();
        List<Future<Throwable>> results = new ArrayList<>();
        for (T item : items) {
            results.add(POOL.submit(() -> {
                try {
                    body.accept(item);
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            }));
        }
        return IntStream.range(0, items.size()).mapToObj(i -> DynamicTest.dynamicTest(name.apply(items.get(i)), () -> {
            Throwable failure = results.get(i).get();
            if (failure != null) {
                throw failure;
            }
        }));
    }
}
