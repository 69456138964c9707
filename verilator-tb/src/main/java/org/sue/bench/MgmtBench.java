package org.sue.bench;

import java.nio.file.Path;
import java.util.Random;
import java.util.function.BiConsumer;
import org.sue.core.Design;
import org.sue.gen.DefaultDesigns;
import org.sue.gen.VerilogEmitter;
import org.sue.instance.tb.RawFrames;
import org.sue.instance.tb.SueRegs;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.mgmt.tb.AxiLiteDriver;
import org.sue.sim.Simulator;
import org.sue.verilator.SynthReport;
import org.sue.verilator.Yosys;

/**
 * The management port for {@code scripts/bench mgmt} (docs/management.md):
 * <ul>
 * <li>{@code mgmt_read_latency_cycles}: AR taken to R valid, {@code mgmt_write_latency_cycles}: AW and W taken to B
 * valid, on the default instance's register block (JVM simulation, no stalls);</li>
 * <li>{@code mgmt_reads_per_kcycle}: reads answered per 1000 cycles when software keeps AR full and R ready;</li>
 * <li>{@code mgmt_regs_cells}, {@code mgmt_regs_ffs}, {@code mgmt_regs_lut6_depth}, {@code mgmt_regs_lut6_luts}: the
 * default map's register block synthesised whole (Yosys) and mapped to 6-input LUTs;</li>
 * <li>{@code mgmt_raw_tx_frames_per_s_<64|1500>}: raw frames of 64 and 1500 bytes on the wire (FCS included) that
 * software sends per second at {@value #CLOCK_MHZ} MHz through the small instance's port, writing each frame's words,
 * its length, and reading {@code raw_tx.busy} until 0 (JVM simulation, the MAC never stalls);</li>
 * <li>{@code mgmt_instance_small_cells_*}, {@code mgmt_instance_small_ffs_*}: the small instance (configs/small_fpga.json)
 * elaborated whole with its statuses and settings as ports ({@code ports}) and behind its management port
 * ({@code managed}).</li>
 * </ul>
 */
final class MgmtBench {
    private MgmtBench() {
    }

    /** The clock the raw rate is stated at: 800 Gb/s on 1024 bits, 400 Gb/s on the small instance's 512. */
    static final double CLOCK_MHZ = 781.25;

    static void measure(BiConsumer<String, Double> put, Path out) {
        latency(put);
        rawTransmitRate(put);
        VerilogEmitter.Result regs = emit("mgmt_registers_sue", out);
        SynthReport s = Yosys.synth(regs.files(), regs.topModule());
        Yosys.LutDepth d = Yosys.lut6(regs.files(), regs.topModule());
        put.accept("mgmt_regs_cells", (double) s.cells());
        put.accept("mgmt_regs_ffs", (double) s.flipFlops());
        put.accept("mgmt_regs_lut6_depth", (double) d.levels());
        put.accept("mgmt_regs_lut6_luts", (double) d.luts());
        System.out.printf("mgmt: register block %d cells, %d flip-flops, %d LUT6 levels, %d LUTs%n", s.cells(),
                s.flipFlops(), d.levels(), d.luts());
        for (String[] v : new String[][] {{"ports", "sue_instance_small_ports"}, {"managed", "sue_instance_small"}}) {
            VerilogEmitter.Result r = emit(v[1], out);
            SynthReport e = Yosys.elaborate(r.files(), r.topModule());
            put.accept("mgmt_instance_small_cells_" + v[0], (double) e.cells());
            put.accept("mgmt_instance_small_ffs_" + v[0], (double) e.flipFlops());
            System.out.printf("mgmt: small instance, %s: %d cells, %d flip-flops%n", v[0], e.cells(), e.flipFlops());
        }
    }

    private static VerilogEmitter.Result emit(String design, Path out) {
        return Bench.defaultDesign(design, out.resolve("mgmt-" + design));
    }

    /** One read and one write alone, then reads back to back. */
    private static void latency(BiConsumer<String, Double> put) {
        Simulator sim = Simulator.compile(Design.elaborate(DefaultDesigns.all().get("mgmt_registers_sue").get()));
        sim.reset();
        Random rnd = new Random(1);
        AxiLiteDriver bus = new AxiLiteDriver(sim, "s_axil");
        bus.read(SueRegs.ID_MAGIC);
        long read = handshakeToResponse(sim, bus, rnd, "s_axil_ar", "s_axil_r");
        bus.write(SueRegs.CTRL_LOCAL_XPU, 5, 15);
        long write = handshakeToResponse(sim, bus, rnd, "s_axil_aw", "s_axil_b");
        int reads = 1000;
        long start = sim.cycle();
        for (int i = 0; i < reads; i++) {
            bus.read(SueRegs.ID_VERSION);
        }
        bus.finish(rnd, 10L * reads);
        long cycles = sim.cycle() - start;
        put.accept("mgmt_read_latency_cycles", (double) read);
        put.accept("mgmt_write_latency_cycles", (double) write);
        put.accept("mgmt_reads_per_kcycle", Math.round(10_000.0 * reads / cycles) / 10.0);
        System.out.printf("mgmt: read latency %d cycles (AR taken to R valid), write %d (AW/W taken to B valid), %d"
                + " reads back to back in %d cycles%n", read, write, reads, cycles);
    }

    /** Software sends raw frames back to back: words, length, then waits for the buffer to be free. */
    private static void rawTransmitRate(BiConsumer<String, Double> put) {
        Simulator sim = Simulator.compile(Design.elaborate(DefaultDesigns.all().get("sue_instance_small").get()));
        sim.poke("link_up", 1);
        sim.poke("m_axis_tready", 1);
        sim.reset();
        Random rnd = new Random(2);
        AxiLiteDriver bus = new AxiLiteDriver(sim, "s_axil");
        int[] onWire = {0};
        new StreamMonitor(sim, "m_axis", null).onPacket(p -> onWire[0] += p.bytes().length >= 64 ? 1 : 0);
        for (int wireBytes : new int[] {64, 1500}) {
            byte[] frame = new byte[wireBytes - 4];
            rnd.nextBytes(frame);
            int frames = 50;
            int seen = onWire[0];
            long start = sim.cycle();
            for (int n = 0; n < frames; n++) {
                RawFrames.words(frame).forEach(w -> bus.write(SueRegs.RAW_TX_DATA, w, 15));
                bus.write(SueRegs.RAW_TX_SEND, frame.length, 15);
                bus.finish(rnd, 10_000);
                AxiLiteDriver.Access busy;
                do {
                    busy = bus.read(SueRegs.RAW_TX_BUSY);
                    bus.finish(rnd, 100);
                } while (busy.readData() != 0);
            }
            long cycles = sim.cycle() - start;
            sim.step(100);
            if (onWire[0] - seen != frames) {
                throw new IllegalStateException("raw rate: " + (onWire[0] - seen) + " of " + frames + " frames left");
            }
            double perS = frames / (cycles / (CLOCK_MHZ * 1e6));
            put.accept("mgmt_raw_tx_frames_per_s_" + wireBytes, (double) Math.round(perS));
            System.out.printf("mgmt: raw frames of %d bytes: %.0f cycles each, %,.0f frames/s at %.2f MHz%n",
                    wireBytes, (double) cycles / frames, perS, CLOCK_MHZ);
        }
    }

    /** Cycles from the request's handshake on {@code request} to valid on {@code response}; runs until answered. */
    private static long handshakeToResponse(Simulator sim, AxiLiteDriver bus, Random rnd, String request,
                                            String response) {
        long taken = -1;
        long latency = -1;
        for (int c = 0; c < 100 && latency < 0; c++) {
            bus.drive(rnd);
            if (taken < 0 && sim.peek(request + "_valid") == 1 && sim.peek(request + "_ready") == 1) {
                taken = sim.cycle();
            }
            if (taken >= 0 && sim.peek(response + "_valid") == 1) {
                latency = sim.cycle() - taken;
            }
            bus.taken();
            sim.step();
        }
        bus.finish(rnd, 100);
        return latency;
    }
}
