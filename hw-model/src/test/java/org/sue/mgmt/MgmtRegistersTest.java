package org.sue.mgmt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.mgmt.RegisterMap.Field;
import org.sue.mgmt.RegisterMap.Register;
import org.sue.mgmt.model.RegisterFileModel;
import org.sue.mgmt.tb.AxiLiteDriver;
import org.sue.mgmt.tb.ExampleMaps;
import org.sue.sim.Simulator;

class MgmtRegistersTest {
    private static final RegisterMap MAP = ExampleMaps.everyAccess();

    /** Random accesses through the bus, events and RO values between them: the model's answers, outputs and pulses. */
    @ParameterizedTest
    @CsvSource({"1, 100, 100", "2, 60, 70", "3, 30, 40"})
    void everyAccessMatchesTheModel(long seed, int validPercent, int readyPercent) {
        Simulator sim = Simulator.compile(Design.elaborate(new MgmtRegisters(new MgmtRegisters.Config(MAP, 12))));
        RegisterFileModel model = new RegisterFileModel(MAP);
        Random rnd = new Random(seed);
        sim.reset();
        AxiLiteDriver bus = new AxiLiteDriver(sim, "s_axil").pace(validPercent, readyPercent);
        List<RegisterFileModel.Pulse> pulses = new ArrayList<>();
        int decerr = 0;
        int rcCleared = 0;
        for (int batch = 0; batch < 400; batch++) {
            eventsAndInputs(sim, model, bus, rnd);
            boolean writes = rnd.nextBoolean();
            List<AxiLiteDriver.Access> accesses = new ArrayList<>();
            List<Object> expected = new ArrayList<>();
            for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
                long address = randomAddress(rnd);
                if (writes) {
                    long data = rnd.nextLong() & 0xFFFF_FFFFL;
                    int strobes = rnd.nextInt(4) == 0 ? rnd.nextInt(16) : 15;
                    accesses.add(bus.write(address, data, strobes));
                    expected.add(model.write(address, data, strobes));
                } else {
                    accesses.add(bus.read(address));
                    RegisterFileModel.ReadResponse r = model.read(address);
                    expected.add(r);
                    rcCleared += address == MAP.register("events", "sticky").offset() && (r.data() >> 8 & 0xff) != 0
                            ? 1 : 0;
                }
            }
            for (long c = 0; !bus.idle(); c++) {
                assertTrue(c < 200, "accesses answered within 200 cycles");
                collectPulses(sim, pulses);
                bus.cycle(rnd);
            }
            for (int i = 0; i < 2; i++) { // a WO pulse comes the cycle after its write
                collectPulses(sim, pulses);
                bus.cycle(rnd);
            }
            for (int i = 0; i < accesses.size(); i++) {
                AxiLiteDriver.Access a = accesses.get(i);
                Object want = expected.get(i);
                if (want instanceof RegisterFileModel.ReadResponse r) {
                    assertEquals(r.resp(), a.resp(), "response of " + a);
                    assertEquals(r.data(), a.readData(), "data of " + a);
                } else {
                    assertEquals((long) (Long) want, a.resp(), "response of " + a);
                }
                decerr += a.resp() == AxiLite.DECERR ? 1 : 0;
            }
            compareOutputs(sim, model);
        }
        assertEquals(model.pulses(), pulses, "WO pulses and POP reads");
        assertTrue(decerr > 20 && rcCleared > 5 && pulses.size() > 20, "unmapped addresses, RC clears and WO"
                + " pulses happened: " + decerr + ", " + rcCleared + ", " + pulses.size());
    }

    /** Reads and writes of different registers in flight together answer as each would alone. */
    @Test
    void readsAndWritesOverlap() {
        Simulator sim = Simulator.compile(Design.elaborate(new MgmtRegisters(new MgmtRegisters.Config(MAP, 12))));
        sim.reset();
        Random rnd = new Random(9);
        AxiLiteDriver bus = new AxiLiteDriver(sim, "s_axil");
        Register limit = MAP.register("ctrl", "limit");
        sim.poke("id_version", 0x0102_0304L);
        List<AxiLiteDriver.Access> reads = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            bus.write(limit.offset(), i, 15);
            reads.add(bus.read(MAP.register("id", "version").offset()));
        }
        bus.finish(rnd, 500);
        reads.forEach(r -> assertEquals(0x0102_0304L, r.readData()));
        assertEquals(19, sim.peek("ctrl_limit"));
    }

    @Test
    void resetValuesAreTheMapsAndReadOnlyWritesAreCounted() {
        Simulator sim = Simulator.compile(Design.elaborate(new MgmtRegisters(new MgmtRegisters.Config(MAP, 12))));
        sim.reset();
        assertEquals(1, sim.peek("ctrl_mode_enable"));
        assertEquals(0x5a5, sim.peek("ctrl_mode_level"));
        assertEquals(0x0200_0000_0001L, sim.peek("ctrl_mac"));
        assertEquals(0xffff, sim.peek("ctrl_limit"));
        AxiLiteDriver bus = new AxiLiteDriver(sim, "s_axil");
        Register roWrites = MAP.register(RegisterMap.OWN_BLOCK, RegisterMap.RO_WRITES);
        for (int i = 0; i < 3; i++) {
            bus.write(MAP.register("id", "version").offset(), 1, 15);
        }
        bus.finish(new Random(1), 100);
        AxiLiteDriver.Access count = bus.read(roWrites.offset());
        bus.finish(new Random(1), 100);
        assertEquals(3, count.readData());
    }

    @Test
    void badParametersAndMapsNameTheProblem() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new MgmtRegisters.Config(MAP, 8))
                .getMessage().contains("addrWidth"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RegisterMap.builder("m").block("b", "B")
                .register("r", "R", new Field("a", 0, 8, Access.RW, 0, "A"), new Field("b", 4, 8, Access.RW, 0, "B")))
                .getMessage().contains("overlaps"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Field("x", 0, 4, Access.RW, 16, "X"))
                .getMessage().contains("reset value"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RegisterMap.builder("m").block("mgmt", "M"))
                .getMessage().contains("mgmt"));
    }

    private static long randomAddress(Random rnd) {
        List<Register> regs = MAP.registers();
        if (rnd.nextInt(8) == 0) {
            return rnd.nextInt(MAP.span() * 2) & ~3; // anywhere, mostly unmapped
        }
        Register r = regs.get(rnd.nextInt(regs.size()));
        return r.offset() + 4L * rnd.nextInt(r.words()) + (rnd.nextInt(4) == 0 ? rnd.nextInt(4) : 0);
    }

    private static void eventsAndInputs(Simulator sim, RegisterFileModel model, AxiLiteDriver bus, Random rnd) {
        for (Register r : MAP.registers()) {
            for (Field f : r.fields()) {
                String port = r.portName(f);
                if ((f.access() == Access.RO || f.access() == Access.POP || f.access() == Access.CNT) && !r.block().equals(RegisterMap.OWN_BLOCK) && rnd.nextInt(3) == 0) {
                    BigInteger v = new BigInteger(f.width(), rnd);
                    sim.poke(port, v);
                    model.drive(port, v);
                } else if (f.access().sticky() && rnd.nextInt(3) == 0) {
                    long bits = rnd.nextLong() & (f.mask() >>> f.lsb());
                    sim.poke(port + "_set", bits);
                    model.set(port, bits);
                    bus.cycle(rnd);
                    sim.poke(port + "_set", 0);
                }
            }
        }
    }

    private static void collectPulses(Simulator sim, List<RegisterFileModel.Pulse> pulses) {
        for (Register r : MAP.registers()) {
            for (Field f : r.fields()) {
                if (f.access() == Access.WO && sim.peek(r.portName(f) + "_valid") == 1) {
                    pulses.add(new RegisterFileModel.Pulse(r.portName(f), sim.peek(r.portName(f) + "_value")));
                }
                if (f.access() == Access.POP && sim.peek(r.portName(f) + "_read") == 1) {
                    pulses.add(new RegisterFileModel.Pulse(r.portName(f) + "_read", sim.peek(r.portName(f))));
                }
            }
        }
    }

    private static void compareOutputs(Simulator sim, RegisterFileModel model) {
        for (Register r : MAP.registers()) {
            for (Field f : r.fields()) {
                if (f.access() == Access.RW || f.access().sticky()) {
                    assertEquals(model.output(r.portName(f)), sim.peekBig(r.portName(f)), r.portName(f));
                }
            }
        }
    }
}
