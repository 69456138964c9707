package org.sue.instance.tb;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.sue.sim.Simulator;

/**
 * The clock of simulated instances joined only through links of known delay (conservative parallel discrete-event
 * simulation; docs/performance.md, "Many instances: what limits the speed-up"): a frame or control message sent in
 * cycle n reaches the other side in cycle n + delay at the earliest, so in a window of at most {@code lookahead} =
 * delay cycles no side can see anything another sends in it. Each side then runs its window on its own, the sides
 * on a pool of threads, and they meet at the window's end. The result is the same as stepping them in lockstep
 * (every side driven, then every side clocked, cycle by cycle), bit for bit: a side sees the same inputs in the same
 * cycles.
 *
 * <p>With a lookahead of 0 (a link without delay: a control message sent while a side is driven arrives in the same
 * cycle) a window is one cycle: the sides are driven one after the other, then clocked side by side. The threads:
 * the machine's processors unless the system property {@value #THREADS_PROPERTY} says otherwise (1: everything on
 * the caller's thread, in lockstep).
 */
public final class SideClock {
    /** System property: threads the sides run on (default: the machine's processors; 1 for lockstep). */
    public static final String THREADS_PROPERTY = "sue.sim.threads";

    /**
     * One simulated part (an instance with its XPU and MAC, a relay): driven for a cycle (its inputs poked for cycle
     * {@code now}), then its clock edge.
     */
    public record Side(LongConsumer drive, Runnable step) {
        /** An instance's side: its drivers, then its simulator's edge. */
        public static Side of(XpuSide side) {
            Simulator sim = side.sim();
            return new Side(side::drive, sim::step);
        }
    }

    private static ExecutorService pool;

    private final List<Side> sides;
    private final LongSupplier cycle;
    private Runnable windowEnd = () -> { };
    private final int lookahead;
    private final int threads;
    private final boolean parallel;

    /**
     * @param sides     the instances, driven in this order in lockstep
     * @param cycle     the cycle the next driven cycle is (the sides' simulators count alike)
     * @param lookahead the shortest delay of the links between the sides, cycles (0: none)
     * @param parallel  false to step in lockstep on the caller's thread whatever the setting
     */
    public SideClock(List<Side> sides, LongSupplier cycle, int lookahead, boolean parallel) {
        if (lookahead < 0) {
            throw new IllegalArgumentException("SideClock lookahead must be at least 0 cycles, got " + lookahead);
        }
        this.sides = List.copyOf(sides);
        this.cycle = cycle;
        this.lookahead = lookahead;
        this.threads = parallel ? Math.min(threads(), sides.size()) : 1;
        this.parallel = this.threads > 1;
    }

    /** Threads the sides of a run may use: {@value #THREADS_PROPERTY}, else the machine's processors. */
    public static int threads() {
        String set = System.getProperty(THREADS_PROPERTY);
        if (set == null || set.isBlank() || set.startsWith("${")) { // unset (or Maven's unresolved placeholder)
            return Runtime.getRuntime().availableProcessors();
        }
        try {
            int n = Integer.parseInt(set.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the error
        }
        throw new IllegalArgumentException(THREADS_PROPERTY + " must be a whole number of threads, at least 1, got '"
                + set + "'");
    }

    /**
     * What {@code make} makes (a run, whose clock reads the setting as it is made) with {@value #THREADS_PROPERTY} set
     * to {@code threads} meanwhile: a test or a bench comparing lockstep with threads.
     */
    public static <T> T withThreads(int threads, Supplier<T> make) {
        String before = System.getProperty(THREADS_PROPERTY);
        System.setProperty(THREADS_PROPERTY, Integer.toString(threads));
        try {
            return make.get();
        } finally {
            if (before == null) {
                System.clearProperty(THREADS_PROPERTY);
            } else {
                System.setProperty(THREADS_PROPERTY, before);
            }
        }
    }

    /** {@code action} on the caller's thread at the end of every window, the sides at rest. */
    public SideClock onWindowEnd(Runnable action) {
        windowEnd = action;
        return this;
    }

    /** Whether windows run their sides side by side. */
    public boolean parallel() {
        return parallel;
    }

    /** The longest window: the lookahead, or one cycle without one. */
    public int window() {
        return Math.max(1, lookahead);
    }

    /** The cycle the next driven cycle is. */
    public long now() {
        return cycle.getAsLong();
    }

    /**
     * Runs {@code cycles} cycles (1 up to {@link #window}) on every side; returns the last cycle driven.
     */
    public long run(int cycles) {
        if (cycles < 1 || cycles > window()) {
            throw new IllegalArgumentException("SideClock.run: a window is 1.." + window() + " cycles, got " + cycles);
        }
        long first = now();
        if (!parallel) {
            for (long now = first; now < first + cycles; now++) {
                long driven = now;
                sides.forEach(s -> s.drive().accept(driven));
                sides.forEach(s -> s.step().run());
            }
        } else if (lookahead == 0) {
            sides.forEach(s -> s.drive().accept(first));
            sideBySide(s -> s.step().run());
        } else {
            sideBySide(s -> {
                for (int k = 0; k < cycles; k++) {
                    s.drive().accept(first + k);
                    s.step().run();
                }
            });
        }
        windowEnd.run();
        return first + cycles - 1;
    }

    /** Runs {@code cycles} cycles, in windows. */
    public void idle(long cycles) {
        for (long left = cycles; left > 0; ) {
            int n = (int) Math.min(left, window());
            run(n);
            left -= n;
        }
    }

    /**
     * {@code work} on every side, the sides taken in turn by the pool's threads and this one (a cheap side, a relay,
     * does not hold a thread alone); waits for all and throws the first failure.
     */
    private void sideBySide(Consumer<Side> work) {
        AtomicInteger next = new AtomicInteger();
        Callable<Void> worker = () -> {
            for (int i = next.getAndIncrement(); i < sides.size(); i = next.getAndIncrement()) {
                work.accept(sides.get(i));
            }
            return null;
        };
        List<Future<Void>> running = new ArrayList<>();
        ExecutorService p = pool();
        for (int t = 1; t < threads; t++) {
            running.add(p.submit(worker));
        }
        Throwable failed = null;
        try {
            worker.call();
        } catch (Exception | Error e) {
            failed = e;
        }
        for (Future<Void> f : running) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("SideClock: interrupted while the sides ran", e);
            } catch (ExecutionException e) {
                failed = failed != null ? failed : e.getCause();
            }
        }
        if (failed instanceof RuntimeException r) {
            throw r;
        }
        if (failed instanceof Error e) {
            throw e;
        }
        if (failed != null) {
            throw new IllegalStateException("SideClock: a side failed", failed);
        }
    }

    /** The pool every clock shares: daemon threads, as many as the clocks use at once (each its threads - 1). */
    private static synchronized ExecutorService pool() {
        if (pool == null) {
            pool = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "sue-side-clock");
                t.setDaemon(true);
                return t;
            });
        }
        return pool;
    }
}
