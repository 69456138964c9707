package org.sue.vectors;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.sue.mgmt.Access;
import org.sue.mgmt.RegisterMap;
import org.sue.mgmt.RegisterMap.Field;
import org.sue.mgmt.RegisterMap.Register;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.RawFrames;
import org.sue.mgmt.tb.AxiLiteDriver;
import org.sue.sim.Simulator;

/**
 * Software on a register block's AXI4-Lite port ({@code s_axil}): random reads and writes of every register (some of
 * an unmapped address, some with partial strobes), reads and writes in flight together, random gaps and response
 * stalls; the hardware changes its RO inputs and sets RC and W1C bits at random.
 */
final class MgmtTraffic {
    private MgmtTraffic() {
    }

    /** Software and the hardware around a bare register block. */
    static GoldenScenario.Stimulus of(RegisterMap map) {
        return of(map, true, new AxiLiteDriver[1]);
    }

    /**
     * Software on a managed instance's port, while garbage frames and raw ARP frames (some damaged) arrive from the
     * MAC, the MAC takes every frame and its link now and then goes down for a while: the counters, levels and the
     * interrupt move under the reads. Now and then software sends a raw frame and reads the oldest one received. With
     * more ports each port's MAC does the same, its link down at its own times.
     */
    static GoldenScenario.Stimulus managedInstance(RegisterMap map, SueInstance.Config sue) {
        int ports = sue.ports();
        AxiLiteDriver[] bus = new AxiLiteDriver[1];
        GoldenScenario.Stimulus software = of(map, false, bus);
        StreamSource[] mac = new StreamSource[ports];
        return (Simulator sim, long cycle, Random rnd) -> {
            for (int p = 0; p < ports; p++) {
                String px = sue.portPrefix(p);
                if (mac[p] == null) {
                    mac[p] = new StreamSource(sim, px + "s_axis");
                } else {
                    mac[p].advance(); // the beat offered before the last edge was taken (the MAC does not wait)
                }
                macFrames(mac[p], rnd);
            }
            if (bus[0] == null) {
                bus[0] = new AxiLiteDriver(sim, "s_axil").pace(70, 70);
            }
            if (cycle % 1000 == 100) { // software sends a raw frame: its words, then its length
                byte[] raw = new byte[14 + rnd.nextInt(100)];
                rnd.nextBytes(raw);
                RawFrames.words(raw).forEach(w -> bus[0].write(map.register("raw_tx", "data").offset(), w, 15));
                bus[0].write(map.register("raw_tx", "send").offset(), raw.length, 15);
            }
            if (cycle % 200 == 50) { // software reads the oldest raw frame's head and words
                bus[0].read(map.register("raw_rx", "head").offset());
                for (int k = 0; k < 20; k++) {
                    bus[0].read(map.register("raw_rx", "data").offset());
                }
            }
            for (int p = 0; p < ports; p++) {
                String px = sue.portPrefix(p);
                mac[p].drive(rnd, 90);
                sim.poke(px + "m_axis_tready", 1);
                sim.poke(px + "link_up", (cycle + 700L * p) % 1500 < 1300 ? 1 : 0);
            }
            software.drive(sim, cycle, rnd);
        };
    }

    /** Now and then a garbage frame, or a raw ARP frame (whole, or now and then damaged), queued at a MAC. */
    private static void macFrames(StreamSource mac, Random rnd) {
        if (rnd.nextInt(40) == 0) {
            byte[] frame = new byte[20 + rnd.nextInt(300)];
            rnd.nextBytes(frame);
            if (rnd.nextInt(3) == 0) { // a raw frame for the receive buffer: ARP, whole, or now and then damaged
                frame = RawFrames.onTheWire(Arrays.copyOf(RawFrames.arpRequest(rnd.nextLong() & 0xFFFF_FFFF_FFFFL,
                        rnd.nextInt(), rnd.nextInt()), 42 + rnd.nextInt(200)));
                frame[rnd.nextInt(4) == 0 ? rnd.nextInt(frame.length) : 0] ^= (byte) (rnd.nextInt(4) == 0 ? 1 : 0);
            }
            mac.add(frame, BigInteger.ZERO);
        }
    }

    /** Random accesses on {@code bus[0]} (made here unless the caller made it). */
    private static GoldenScenario.Stimulus of(RegisterMap map, boolean hardware, AxiLiteDriver[] bus) {
        List<Register> regs = map.registers();
        return (Simulator sim, long cycle, Random rnd) -> {
            if (bus[0] == null) {
                bus[0] = new AxiLiteDriver(sim, "s_axil").pace(70, 70);
            }
            for (Register r : hardware ? regs : List.<Register>of()) {
                for (Field f : r.fields()) {
                    String port = r.portName(f);
                    boolean driven = f.access() == Access.RO || f.access() == Access.POP || f.access() == Access.CNT;
                    if (driven && !r.block().equals(RegisterMap.OWN_BLOCK) && rnd.nextInt(20) == 0) {
                        sim.poke(port, new BigInteger(f.width(), rnd));
                    } else if (f.access().sticky()) {
                        sim.poke(port + "_set", rnd.nextInt(10) == 0 ? rnd.nextLong() & (f.mask() >>> f.lsb()) : 0);
                    }
                }
            }
            if (rnd.nextInt(4) == 0) {
                Register r = regs.get(rnd.nextInt(regs.size()));
                long address = rnd.nextInt(10) == 0 ? rnd.nextInt(2 * map.span()) & ~3
                        : r.offset() + 4L * rnd.nextInt(r.words());
                if (rnd.nextBoolean()) {
                    bus[0].write(address, rnd.nextLong() & 0xFFFF_FFFFL, rnd.nextInt(4) == 0 ? rnd.nextInt(16) : 15);
                } else {
                    bus[0].read(address);
                }
            }
            bus[0].drive(rnd);
            bus[0].taken();
        };
    }
}
