package org.sue.vectors;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.sue.mgmt.Access;
import org.sue.mgmt.RegisterMap;
import org.sue.mgmt.RegisterMap.Field;
import org.sue.mgmt.RegisterMap.Register;
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

    static GoldenScenario.Stimulus of(RegisterMap map) {
        AxiLiteDriver[] bus = new AxiLiteDriver[1];
        List<Register> regs = map.registers();
        return (Simulator sim, long cycle, Random rnd) -> {
            if (bus[0] == null) {
                bus[0] = new AxiLiteDriver(sim, "s_axil").pace(70, 70);
            }
            for (Register r : regs) {
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
