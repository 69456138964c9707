package org.sue.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;
import org.sue.cmd.CommandTable;
import org.sue.gen.DefaultDesigns;
import org.sue.gen.VerilogEmitter;
import org.sue.instance.SueAxiInstance;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.AxiTwoXpuRun;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.vectors.GoldenFiles;
import org.sue.vectors.GoldenScenario;
import org.sue.vectors.GoldenScenarios;
import org.sue.verilator.SynthReport;
import org.sue.verilator.Yosys;

/**
 * The AXI4 command interface for {@code scripts/bench axi}: two instances of configs/axi4.json (512-bit data and
 * port, LLR and CBFC) over links of {@value #DELAY} cycles, A's SoC master saturating B's memory, which answers at
 * once ({@link AxiTwoXpuRun.Traffic#saturating}).
 *
 * <ul>
 * <li>{@code axi_write_bytes_per_cycle_<bytes>}, {@code axi_read_bytes_per_cycle_<bytes>}: data bytes of INCR bursts
 * of that size written (read) per cycle, first AW (AR) taken to the last B (R beat); {@code fifo_bytes_per_cycle_<bytes>}:
 * the same data through the FIFO interface of the same instance (the example command table; commands of at most 256
 * data bytes, so a 4 KiB burst's payload is 16 of them), command data delivered per cycle.
 * <li>{@code axi_read_latency_cycles}: one 64-byte read into idle instances without link layer (2000 cycles after its
 * write was answered), zero link delay, from
 * AR taken at A's slave to the last R beat there; {@code axi_fifo_e2e_latency_cycles}: one 64-byte command from A's
 * FIFO interface to B's on the same instances (the target is at most twice it plus 8).
 * <li>{@code axi_slave_*}, {@code axi_master_*}: Yosys cells, flip-flops and memory bits of the slave (request packer
 * and response unpacker) and the far master, 512-bit data.
 * </ul>
 */
final class AxiBench {
    private AxiBench() {
    }

    static final int DELAY = 50;
    static final int[] SIZES = {64, 256, 4096};

    /**
     * Alone: {@code java ... org.sue.bench.AxiBench}, the figures printed, nothing written; with the argument
     * {@code latency} only the latencies (seconds instead of minutes).
     */
    public static void main(String[] args) {
        BiConsumer<String, Double> print = (k, v) -> System.out.println(k + " = " + v);
        if (args.length > 0 && args[0].equals("latency")) {
            SueAxiInstance.Config axi = DefaultDesigns.axiInstance();
            latency(axi, fifoInstance(axi), print);
            return;
        }
        measure(print, Path.of("build", "bench"));
    }

    /** The same instance with the FIFO interface and the example command table. */
    private static SueInstance.Config fifoInstance(SueAxiInstance.Config axi) {
        return axi.sue().withPath(axi.sue().path().toBuilder().table(CommandTable.example()).build());
    }

    static void measure(BiConsumer<String, Double> put, Path out) {
        SueAxiInstance.Config axi = DefaultDesigns.axiInstance();
        SueInstance.Config fifo = fifoInstance(axi);
        for (int bytes : SIZES) {
            long t0 = System.nanoTime();
            AxiTwoXpuRun.Result r = new AxiTwoXpuRun(axi, DELAY, LinkModel.Faults.NONE, 1,
                    AxiTwoXpuRun.Traffic.saturating(393_216 / bytes + 64, bytes), null).macReadyPercent(100)
                    .run(50_000, null);
            double write = r.a().stats().writeBytesPerCycle();
            double read = r.a().stats().readBytesPerCycle();
            double viaFifo = fifoRate(fifo, bytes);
            put.accept("axi_write_bytes_per_cycle_" + bytes, Bench.round(write, 2));
            put.accept("axi_read_bytes_per_cycle_" + bytes, Bench.round(read, 2));
            put.accept("fifo_bytes_per_cycle_" + bytes, Bench.round(viaFifo, 2));
            System.out.printf("axi: %4d-byte bursts, 512-bit data: writes %.2f, reads %.2f data bytes/cycle; FIFO"
                    + " interface %.2f (writes %.3f, reads %.3f of it) (%.0f s)%n", bytes, write, read, viaFifo,
                    write / viaFifo, read / viaFifo, (System.nanoTime() - t0) / 1e9);
        }
        latency(axi, fifo, put);
        SimSpeedBench.measure(speedCase(), out, put, true);
        synthesis("axi_slave", put, out, "axi_request_packer_w512", "axi_response_unpacker_w512");
        synthesis("axi_master", put, out, "axi_remote_master_w512");
        synthesis("axi_wrapper", put, out, "axi_credit_wrapper_w512");
    }

    /**
     * The simulators' speed on the AXI4 instance of the golden vectors (256-bit data, LLR and CBFC) against its peer
     * over a lossy link, 400 random bursts each way: figures {@code sue_axi_*} ({@link SimSpeedBench}).
     */
    static SimSpeedBench.Case speedCase() {
        GoldenScenario scenario = GoldenScenarios.sueAxiInstance("sue_axi_speed", 20_000, 400);
        return new SimSpeedBench.Case("sue_axi", "SUE AXI4 instance", () -> GoldenFiles.elaborate(scenario),
                (design, manifest) -> GoldenFiles.record(scenario, manifest));
    }

    /** Data bytes per cycle of {@code bytes} through the FIFO interface: commands of up to 256 data bytes. */
    private static double fifoRate(SueInstance.Config fifo, int bytes) {
        int data = Math.min(bytes, 256);
        TwoXpuRun run = new TwoXpuRun(fifo, DELAY, LinkModel.Faults.NONE, 1, null).rxReturnPercent(100)
                .txValidPercent(100).macReadyPercent(100); // as the AXI4 run's MACs: never stalling
        TwoXpuRun.Result r = run.run(393_216 / data, 0, TwoXpuRun.fixed(data), 50_000, null);
        return (double) r.aToB().delivered() * data / r.aToB().deliverySpan();
    }

    /** The read latency in the default form (the wrapper) and without the credit loops ({@code _direct}). */
    private static void latency(SueAxiInstance.Config axi, SueInstance.Config fifo, BiConsumer<String, Double> put) {
        TwoXpuRun.Result e2e = new TwoXpuRun(fifo.withoutLinkLayer(), 0, LinkModel.Faults.NONE, 1, null)
                .macReadyPercent(100).run(1, 0, TwoXpuRun.fixed(64), 10_000, null);
        long oneWay = e2e.aToB().latency(0);
        put.accept("axi_fifo_e2e_latency_cycles", (double) oneWay);
        for (SueAxiInstance.Form form : List.of(axi.form(), SueAxiInstance.Form.DIRECT)) {
            AxiTwoXpuRun.Result one = new AxiTwoXpuRun(axi.withoutLinkLayer().withForm(form), 0,
                    LinkModel.Faults.NONE, 1, AxiTwoXpuRun.Traffic.oneReadIdle(64, 2000), null).macReadyPercent(100)
                    .run(10_000, null);
            long read = one.a().stats().readLatencies.get(0);
            put.accept("axi_read_latency_cycles" + (form == axi.form() ? "" : "_direct"), (double) read);
            System.out.printf("axi: one 64-byte read, idle, zero link delay, no link layer, %s: %d cycles AR to the"
                    + " last R beat (target at most 2 x %d + 8 = %d, the FIFO interface's one-way latency)%n", form,
                    read, oneWay, 2 * oneWay + 8);
        }
    }

    /** Yosys figures of default designs, summed under {@code name}. */
    private static void synthesis(String name, BiConsumer<String, Double> put, Path out, String... designs) {
        long cells = 0;
        long ffs = 0;
        long bits = 0;
        for (String d : designs) {
            VerilogEmitter.Result v = Bench.defaultDesign(d, out.resolve("rtl_" + d));
            SynthReport s = Yosys.synth(v.files(), v.topModule());
            cells += s.cells();
            ffs += s.flipFlops();
            bits += s.memoryBits();
        }
        put.accept(name + "_cells", (double) cells);
        put.accept(name + "_ffs", (double) ffs);
        put.accept(name + "_mem_bits", (double) bits);
        System.out.printf("axi: %s (%s): %d cells, %d flip-flops, %d memory bits%n", name, String.join(" + ", designs),
                cells, ffs, bits);
    }
}
