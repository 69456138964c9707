package org.sue.mgmt.model;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sue.mgmt.Access;
import org.sue.mgmt.AxiLite;
import org.sue.mgmt.RegisterMap;
import org.sue.mgmt.RegisterMap.Field;
import org.sue.mgmt.RegisterMap.Register;

/**
 * What software sees of a {@link RegisterMap}, one access at a time, written from the rules of docs/management.md:
 * access types, strobes, DECERR for an address no register holds, the two counters of block {@code mgmt}, and the
 * atomicity of a register wider than 32 bits (a read of its lowest word copies the rest; writes of its lower words
 * wait for its highest word).
 */
public final class RegisterFileModel {
    private static final BigInteger WORD = BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE);
    private static final long SATURATED = 0xFFFF_FFFFL;

    /** A read's answer. */
    public record ReadResponse(long data, long resp) { }

    /** A WO field's write (the port and the value the hardware saw), or a POP field's read (port {@code <port>_read}). */
    public record Pulse(String port, long value) { }

    private final RegisterMap map;
    /** Field values by port name: RO (what the hardware drives), RW, RC, W1C (what is stored). */
    private final Map<String, BigInteger> values = new HashMap<>();
    private final Map<String, BigInteger> readCopy = new HashMap<>();
    private final Map<String, BigInteger> staged = new HashMap<>();
    /** A CNT field's count at software's last write to it. */
    private final Map<String, Long> clearedAt = new HashMap<>();
    private final List<Pulse> pulses = new ArrayList<>();
    private long roWrites;
    private long decodeErrors;

    public RegisterFileModel(RegisterMap map) {
        this.map = map;
        for (Register r : map.registers()) {
            for (Field f : r.fields()) {
                values.put(r.portName(f), BigInteger.valueOf(f.reset()));
                if (r.words() > 1) {
                    staged.put(r.portName(f), BigInteger.valueOf(f.reset()));
                    readCopy.put(r.portName(f), BigInteger.ZERO);
                }
            }
        }
    }

    /** The hardware drives an RO, POP or CNT field's input. */
    public void drive(String port, BigInteger value) {
        values.put(port, value);
    }

    /** A hardware event sets the given bits of an RC or W1C field. */
    public void set(String port, long bits) {
        values.put(port, values.get(port).or(BigInteger.valueOf(bits)));
    }

    /** What an RW, RC or W1C field's output shows now. */
    public BigInteger output(String port) {
        return values.get(port);
    }

    /** The WO writes and POP reads so far. */
    public List<Pulse> pulses() {
        return pulses;
    }

    public long write(long address, long data, int strobes) {
        Located at = locate(address);
        if (at == null) {
            decodeErrors = Math.min(SATURATED, decodeErrors + 1);
            return AxiLite.DECERR;
        }
        Register r = at.register();
        if (r.readOnly()) {
            roWrites = Math.min(SATURATED, roWrites + 1);
            return AxiLite.OKAY;
        }
        long mask = 0;
        for (int b = 0; b < 4; b++) {
            mask |= (strobes >> b & 1) != 0 ? 0xFFL << (8 * b) : 0;
        }
        if (r.words() > 1) {
            String port = r.portName(r.fields().get(0));
            BigInteger merged = mergeWord(staged.get(port), at.word(), data, mask);
            staged.put(port, merged);
            if (at.word() == r.words() - 1) {
                values.put(port, merged.and(ones(r.fields().get(0).width())));
            }
            return AxiLite.OKAY;
        }
        for (Field f : r.fields()) {
            String port = r.portName(f);
            long bits = (data & mask) >>> f.lsb() & (f.mask() >>> f.lsb());
            long selected = mask >>> f.lsb() & (f.mask() >>> f.lsb());
            long old = values.get(port).longValue();
            switch (f.access()) {
                case RW -> values.put(port, BigInteger.valueOf(old & ~selected | bits));
                case W1C -> values.put(port, BigInteger.valueOf(old & ~bits));
                case WO -> pulses.add(new Pulse(port, data >>> f.lsb() & (f.mask() >>> f.lsb())));
                case CNT -> clearedAt.put(port, old);
                default -> { }
            }
        }
        return AxiLite.OKAY;
    }

    public ReadResponse read(long address) {
        Located at = locate(address);
        if (at == null) {
            decodeErrors = Math.min(SATURATED, decodeErrors + 1);
            return new ReadResponse(0, AxiLite.DECERR);
        }
        Register r = at.register();
        if (r.words() > 1) {
            Field f = r.fields().get(0);
            String port = r.portName(f);
            BigInteger v = values.get(port);
            if (f.access() == Access.RO) {
                if (at.word() == 0) {
                    readCopy.put(port, v);
                } else {
                    v = readCopy.get(port);
                }
            }
            return new ReadResponse(v.shiftRight(32 * at.word()).and(WORD).longValue(), AxiLite.OKAY);
        }
        long word = 0;
        for (Field f : r.fields()) {
            String port = r.portName(f);
            long v = own(r, f);
            if (f.access() == Access.CNT) { // counted from software's last clear, modulo the field
                v = v - clearedAt.getOrDefault(port, 0L) & f.mask() >>> f.lsb();
            }
            if (f.access() != Access.WO) {
                word |= v << f.lsb();
            }
            if (f.access() == Access.RC) {
                values.put(port, BigInteger.ZERO);
            }
            if (f.access() == Access.POP) {
                pulses.add(new Pulse(port + "_read", v));
            }
        }
        return new ReadResponse(word & SATURATED, AxiLite.OKAY);
    }

    private long own(Register r, Field f) {
        if (r.block().equals(RegisterMap.OWN_BLOCK)) {
            return f.name().equals(RegisterMap.RO_WRITES) ? roWrites : decodeErrors;
        }
        return values.get(r.portName(f)).longValue();
    }

    private record Located(Register register, int word) { }

    private Located locate(long address) {
        if (address >= map.span()) {
            return null;
        }
        long aligned = address & ~3L;
        for (Register r : map.registers()) {
            if (aligned >= r.offset() && aligned < r.offset() + 4L * r.words()) {
                return new Located(r, (int) ((aligned - r.offset()) / 4));
            }
        }
        return null;
    }

    private static BigInteger mergeWord(BigInteger value, int word, long data, long mask) {
        BigInteger m = BigInteger.valueOf(mask).shiftLeft(32 * word);
        BigInteger d = BigInteger.valueOf(data & mask).shiftLeft(32 * word);
        return value.andNot(m).or(d);
    }

    private static BigInteger ones(int width) {
        return BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE);
    }
}
