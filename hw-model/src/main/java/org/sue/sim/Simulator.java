package org.sue.sim;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.sue.core.Design;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.sim.StreamProtocolChecker;

/**
 * Cycle-accurate simulation of an elaborated design in the JVM, with Verilog cycle semantics: inputs are applied,
 * combinational logic settles, then every register and memory updates together on {@link #step()}.
 *
 * <pre>{@code
 * Simulator sim = Simulator.compile(Design.elaborate(new Counter()));
 * sim.reset();
 * sim.poke("enable", 1);
 * sim.step(10);
 * long count = sim.peek("count");
 * }</pre>
 */
public final class Simulator implements Closeable {
    private final Design design;
    private final CompiledModel model;
    private final List<SimSignal> signals;
    private final Map<String, SimSignal> byName = new HashMap<>();
    private final List<Mem> mems;
    private final List<CycleListener> listeners = new ArrayList<>();
    private boolean dirty = true;
    private long cycle;
    private long resetValue;

    /** Called once per cycle with settled values, just before the clock edge. */
    public interface CycleListener extends Closeable {
        void sample(Simulator sim, long cycle) throws IOException;
    }

    private Simulator(Design design, CompiledModel model, List<SimSignal> signals, List<Mem> mems) {
        this.design = design;
        this.model = model;
        this.signals = List.copyOf(signals);
        this.mems = List.copyOf(mems);
        String topPrefix = design.top().path() + ".";
        for (SimSignal s : signals) {
            byName.put(s.path(), s);
            byName.put(s.path().substring(topPrefix.length()), s); // relative to the top: "count", "fifo.level"
        }
        resetValue = design.resetStyle().activeHigh() ? 0 : 1;
        model.setReset(resetValue);
    }

    /**
     * Compiled classes by generated source, most recently used last: a design simulated again (the same block in
     * many tests, a bench's repeated runs) skips the compiler and shares the JIT's work on the class.
     */
    private static final Map<String, Class<?>> COMPILED = new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Class<?>> eldest) {
            return size() > 64;
        }
    };

    /**
     * Generates, compiles and loads the simulation code of a design (typically 0.1-2 s; a design whose code was
     * compiled before in this JVM reuses that class), and returns a simulator in its initial state.
     */
    public static Simulator compile(Design design) {
        SimCompiler compiler = new SimCompiler(design);
        String source = compiler.generate();
        if (compiler.constantsEstimate() > CONSTANTS_LIMIT) { // too many fields for one class: pack the temporaries
            compiler = new SimCompiler(design, true);
            source = compiler.generate();
        }
        return load(design, compiler, source);
    }

    /**
     * The compiled simulator with the narrow temporaries packed into arrays ({@link SimCompiler#SimCompiler(Design,
     * boolean)}) whatever the design's size: for the differential tests, which must cover both forms.
     */
    static Simulator compilePacked(Design design) {
        SimCompiler compiler = new SimCompiler(design, true);
        return load(design, compiler, compiler.generate());
    }

    /**
     * Constants a generated class may use, by {@link SimCompiler#constantsEstimate}, before its temporaries are
     * packed: the JVM allows 65,535, the estimate leaves out long literals, strings and classes and counts fields no
     * method reads (a 4-port instance estimated at 56,300 compiles unpacked; its AXI4 form, 93,700 unpacked, compiles
     * packed at 61,400).
     */
    private static final int CONSTANTS_LIMIT = 60_000;

    private static Simulator load(Design design, SimCompiler compiler, String source) {
        Class<?> cls;
        synchronized (COMPILED) {
            cls = COMPILED.get(source);
        }
        if (cls == null) {
            cls = InMemoryCompiler.compile(compiler.className, source);
            synchronized (COMPILED) {
                COMPILED.put(source, cls);
            }
        }
        try {
            CompiledModel model = (CompiledModel) cls.getDeclaredConstructor().newInstance();
            Simulator sim = new Simulator(design, model, compiler.simSignals, compiler.memList);
            autoWaveform(sim);
            // every module's surefire configuration sets it: each simulator of a test checks its streams' handshakes
            if (Boolean.getBoolean(StreamProtocolChecker.PROPERTY)) {
                StreamProtocolChecker.on(sim);
            }
            return sim;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final java.util.concurrent.atomic.AtomicInteger WAVE_COUNTER = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * With {@code -Dsue.vcd=DIR} (e.g. {@code mvn test -Dsue.vcd=target/vcd}) every simulator dumps a VCD into DIR,
     * so a failing JVM test can be looked at in a waveform viewer; files are flushed when the JVM exits.
     */
    private static void autoWaveform(Simulator sim) {
        String dir = System.getProperty("sue.vcd");
        if (dir == null || dir.isBlank() || dir.startsWith("${")) {
            return;
        }
        Path file = Path.of(dir, sim.design().top().moduleName() + "-" + WAVE_COUNTER.incrementAndGet() + ".vcd");
        sim.vcd(file);
        Runtime.getRuntime().addShutdownHook(new Thread(sim::close));
        System.out.println("[sim] waveform: " + file.toAbsolutePath());
    }

    /** The generated Java source, for debugging the simulator itself. */
    public static String generatedSource(Design design) {
        return new SimCompiler(design).generate();
    }

    public Design design() { return design; }
    public long cycle() { return cycle; }
    public List<SimSignal> signals() { return signals; }

    /** Top-level ports in declaration order. */
    public List<SimSignal> topPorts() {
        List<SimSignal> ports = new ArrayList<>();
        for (Port p : design.top().ports()) {
            ports.add(byName.get(p.name()));
        }
        return ports;
    }

    // ---- handles -------------------------------------------------------------------------------------------------

    /** Id of a signal by top-level port name, path relative to the top ("fifo.level") or full path. */
    public int handle(String name) {
        return signal(name).id();
    }

    public SimSignal signal(String name) {
        SimSignal s = byName.get(name);
        if (s == null) {
            throw new IllegalArgumentException("no signal '" + name + "' in " + design.top().moduleName()
                    + "; top-level ports are " + topPorts().stream().map(SimSignal::path).toList());
        }
        return s;
    }

    // ---- inputs --------------------------------------------------------------------------------------------------

    public void poke(String name, long value) { poke(handle(name), value); }
    public void poke(String name, long[] value) { poke(handle(name), value); }
    public void poke(String name, BigInteger value) { poke(handle(name), value); }

    public void poke(int id, long value) {
        SimSignal s = signals.get(id);
        if (!s.settable() || s.wide()) {
            if (s.settable()) {
                poke(id, BigInteger.valueOf(value).and(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)));
                return;
            }
            throw notInput(s);
        }
        if (s.width() < 64 && (value >>> s.width()) != 0) {
            throw new IllegalArgumentException("value 0x" + Long.toHexString(value) + " does not fit input '"
                    + s.path() + "' (" + s.width() + " bits)");
        }
        model.set(id, value);
        dirty = true;
    }

    public void poke(int id, long[] words) {
        SimSignal s = signals.get(id);
        if (!s.settable()) {
            throw notInput(s);
        }
        if (!s.wide()) {
            poke(id, words[0]);
            return;
        }
        int n = SimCompiler.words(s.width());
        if (words.length != n || (words[n - 1] & ~SimOps.topMask(s.width())) != 0) {
            throw new IllegalArgumentException("value does not fit input '" + s.path() + "' (" + s.width() + " bits, "
                    + n + " words)");
        }
        model.setWide(id, words);
        dirty = true;
    }

    public void poke(int id, BigInteger value) {
        SimSignal s = signals.get(id);
        if (value.signum() < 0 || value.bitLength() > s.width()) {
            throw new IllegalArgumentException("value 0x" + value.toString(16) + " does not fit '" + s.path() + "' ("
                    + s.width() + " bits)");
        }
        if (s.wide()) {
            poke(id, SimCompiler.toWords(value, s.width()));
        } else {
            poke(id, value.longValue());
        }
    }

    /**
     * Every top-level input whose array in {@code values} is not null ({@link #topPorts} order, shaped as
     * {@link #newPortBuffers} makes them), in one call: what a replay does every cycle. A value that does not fit its
     * port fails naming it, as {@link #poke} does.
     */
    public void pokePorts(long[][] values) {
        int bad = model.setPorts(values);
        dirty = true;
        if (bad >= 0) {
            SimSignal s = topPorts().get(bad);
            throw new IllegalArgumentException("value does not fit input '" + s.path() + "' (" + s.width() + " bits, "
                    + SimCompiler.words(s.width()) + " words)");
        }
    }

    private IllegalArgumentException notInput(SimSignal s) {
        return new IllegalArgumentException("'" + s.path() + "' is not a top-level input and cannot be poked");
    }

    // ---- outputs and internal signals ----------------------------------------------------------------------------

    public long peek(String name) { return peek(handle(name)); }
    public long[] peekWide(String name) { return peekWide(handle(name)); }
    public BigInteger peekBig(String name) { return peekBig(handle(name)); }

    public long peek(int id) {
        settle();
        SimSignal s = signals.get(id);
        if (s.wide()) {
            throw new IllegalArgumentException("'" + s.path() + "' is " + s.width() + " bits; use peekWide or peekBig");
        }
        return model.get(id);
    }

    public long[] peekWide(int id) {
        SimSignal s = signals.get(id);
        long[] d = new long[SimCompiler.words(s.width())];
        peekInto(id, d);
        return d;
    }

    /** Copies a signal's value into dst (ceil(width/64) words); no allocation. */
    public void peekInto(int id, long[] dst) {
        settle();
        SimSignal s = signals.get(id);
        if (s.wide()) {
            model.getWide(id, dst);
        } else {
            dst[0] = model.get(id);
        }
    }

    /** Every top-level port ({@link #topPorts} order) into its array of dst, as {@link #newPortBuffers} makes. */
    public void peekPorts(long[][] dst) {
        settle();
        model.getPorts(dst);
    }

    /** One array per top-level port, as wide as the port in words, for {@link #peekPorts}. */
    public long[][] newPortBuffers() {
        return topPorts().stream().map(s -> new long[SimCompiler.words(s.width())]).toArray(long[][]::new);
    }

    public BigInteger peekBig(int id) {
        long[] w = peekWide(id);
        BigInteger v = BigInteger.ZERO;
        for (int i = w.length - 1; i >= 0; i--) {
            v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(w[i])));
        }
        return v;
    }

    public long[] readMem(Mem mem, int address) {
        long[] d = new long[SimCompiler.words(mem.width())];
        model.readMem(memIndex(mem), address, d);
        return d;
    }

    public void writeMem(Mem mem, int address, long[] value) {
        model.writeMem(memIndex(mem), address, value);
        dirty = true;
    }

    private int memIndex(Mem mem) {
        int i = mems.indexOf(mem);
        if (i < 0) {
            throw new IllegalArgumentException("memory " + mem.path() + " is not in this design");
        }
        return i;
    }

    // ---- time ----------------------------------------------------------------------------------------------------

    /** One rising clock edge. */
    public void step() {
        settle();
        if (!listeners.isEmpty()) {
            for (CycleListener l : listeners) {
                try {
                    l.sample(this, cycle);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        model.tick();
        cycle++;
        dirty = true;
    }

    public void step(long n) {
        for (long i = 0; i < n; i++) {
            step();
        }
    }

    /** Asserts the reset for {@code cycles} clock edges, then releases it. */
    public void reset(int cycles) {
        setReset(true);
        step(cycles);
        setReset(false);
    }

    public void reset() {
        reset(1);
    }

    /** Drives the reset input directly (true = asserted, whatever its polarity). */
    public void setReset(boolean asserted) {
        resetValue = asserted == design.resetStyle().activeHigh() ? 1 : 0;
        model.setReset(resetValue);
        dirty = true;
    }

    /** Drives the reset port with its raw level (as recorded in vector files). */
    public void pokeResetPort(long raw) {
        resetValue = raw & 1;
        model.setReset(resetValue);
        dirty = true;
    }

    /** The raw value of the reset port ({@code rst} or {@code rst_n}). */
    public long resetPortValue() {
        return resetValue;
    }

    /** Steps until the condition holds (checked before each edge); returns the cycles stepped. */
    public long runUntil(BooleanSupplier condition, long maxCycles) {
        for (long i = 0; i < maxCycles; i++) {
            if (condition.getAsBoolean()) {
                return i;
            }
            step();
        }
        if (condition.getAsBoolean()) {
            return maxCycles;
        }
        throw new IllegalStateException("condition not reached within " + maxCycles + " cycles (now at cycle " + cycle
                + ")");
    }

    private void settle() {
        if (dirty) {
            model.eval();
            dirty = false;
        }
    }

    // ---- waveforms and recording ---------------------------------------------------------------------------------

    /** Dumps every named signal to a VCD file from now on. */
    public void vcd(Path file) {
        try {
            listeners.add(new VcdWriter(file, this));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Records every top-level port, every cycle from now on, into a golden-vector file (manifest + body). The stream
     * protocol is checked while recording ({@link StreamProtocolChecker}): vectors come from sources that obey it.
     */
    public void record(Path manifestJson) {
        StreamProtocolChecker.on(this);
        listeners.add(new VectorRecorder(this, manifestJson));
    }

    public void addListener(CycleListener l) {
        listeners.add(l);
    }

    /** The attached listener of class {@code type}, or null. */
    public <T extends CycleListener> T listener(Class<T> type) {
        for (CycleListener l : listeners) {
            if (type.isInstance(l)) {
                return type.cast(l);
            }
        }
        return null;
    }

    @Override
    public void close() {
        for (CycleListener l : listeners) {
            try {
                l.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        listeners.clear();
    }
}
