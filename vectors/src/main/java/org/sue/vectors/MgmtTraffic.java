package org.sue.vectors;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.sue.mgmt.Access;
import org.sue.mgmt.RegisterMap;
import org.sue.mgmt.RegisterMap.Field;
import org.sue.mgmt.RegisterMap.Register;
import org.sue.lib.stream.tb.StreamSource;
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
        return of(map, true);
    }

    /**
     * Software on a managed instance's port, while garbage frames arrive from the MAC, the MAC takes every frame and its
     * link now and then goes down for a while: the counters, levels and the interrupt move under the reads.
     */
    static GoldenScenario.Stimulus managedInstance(RegisterMap map) {
        GoldenScenario.Stimulus software = of(map, false);
        StreamSource[] mac = new StreamSource[1];
        return (Simulator sim, long cycle, Random rnd) -> {
            if (mac[0] == null) {
                mac[0] = new StreamSource(sim, "s_axis");
            }
            if (rnd.nextInt(40) == 0) {
                byte[] frame = new byte[20 + rnd.nextInt(300)];
                rnd.nextBytes(frame);
                mac[0].add(frame, BigInteger.ZERO);
            }
            mac[0].drive(rnd, 90);
            sim.poke("m_axis_tready", 1);
            sim.poke("link_up", cycle % 1500 < 1300 ? 1 : 0);
            software.drive(sim, cycle, rnd);
        };
    }

    private static GoldenScenario.Stimulus of(RegisterMap map, boolean hardware) {
        AxiLiteDriver[] bus = new AxiLiteDriver[1];
        List<Register> regs = map.registers();
        return (Simulator sim, long cycle, Random rnd) -> {
            if (bus[0] == null) {
                bus[0] = new AxiLiteDriver(sim, "s_axil").pace(70, 70);
            }
            for (Register r : hardware ? regs : List.<Register>of()) {
                for (Field f : r.fields()) {
                    String port = r.portName(f);
                    if (f.access() == Access.RO && !r.block().equals(RegisterMap.OWN_BLOCK) && rnd.nextInt(20) == 0) {
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
