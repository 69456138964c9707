package org.sue.mgmt;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Reg;
import org.sue.core.Tag;
import org.sue.lib.stream.Flow;
import org.sue.mgmt.RegisterMap.Field;
import org.sue.mgmt.RegisterMap.Register;

/**
 * The register block of a {@link RegisterMap} behind an AXI4-Lite target port {@code s_axil} (docs/management.md).
 *
 * <p>Hardware ports per field, named {@link Register#portName}: an RO field is an input the hardware drives; an RW
 * field an output holding what software wrote (reset value at reset); an RC or W1C field an input {@code <port>_set}
 * whose high bits set the field's bits and an output {@code <port>} of the bits set; a WO field an output flow
 * {@code <port>_valid}/{@code <port>_value}, valid for one cycle the cycle after the write; a POP field an input as
 * an RO one's and an output {@code <port>_read}, high the cycle a read takes the value (the hardware shows the next
 * value from the next cycle on: the next read of it takes it at the earliest four cycles later); a CNT field an input
 * (the hardware's count), read as the count less its value at software's last write to the field.
 *
 * <p>Writes: AW and W are taken together, one write at a time; the write takes effect at the clock edge it is taken
 * and B follows the next cycle. Byte strobes select the bytes written. Reads: AR is taken when no read is under way,
 * the register is read the next cycle, a CNT field's clear value is subtracted the cycle after, and R follows (AR to
 * R: 3 cycles). An address no register holds is answered DECERR and counted ({@code mgmt.decode_errors}); a write to a
 * register no software write changes is ignored, answered OKAY and counted ({@code mgmt.ro_writes}). Both counts
 * change a cycle after the access's.
 *
 * <p>Atomicity of a register wider than 32 bits: a read of its lowest word also copies its higher words, and reads of
 * the higher words return that copy; writes of its lower words are collected and take effect with the write of its
 * highest word, all at once.
 */
public final class MgmtRegisters extends Component {
    /** @param addrWidth bits of the byte address (the map's span must fit) */
    public record Config(RegisterMap map, @Tag("a") int addrWidth) {
        public Config {
            if (map == null) {
                throw new IllegalArgumentException("MgmtRegisters map must be given");
            }
            if (addrWidth < 3 || addrWidth > 32 || (1L << addrWidth) < map.span()) {
                throw new IllegalArgumentException("MgmtRegisters addrWidth must be 3..32 bits and span the map ("
                        + map.span() + " bytes, at least " + Hw.log2Up(map.span()) + " bits), got " + addrWidth);
            }
        }
    }

    private static final int W = AxiLite.DATA_BITS;

    /**
     * The hardware's side of a field: what a read returns (a CNT field: the hardware's count), and the register
     * software and events change (a CNT field: the count at the last clear).
     */
    private record FieldHw(Expr value, Reg store) { }

    /** One 32-bit word of the map: its register, which word of it, its word address. */
    private record Word(Register register, int index, long address) {
        boolean last() {
            return index == register.words() - 1;
        }
    }

    private final Config config;
    private final AxiLite bus;
    private final List<Word> words = new ArrayList<>();
    private final Map<Field, FieldHw> fields = new IdentityHashMap<>();
    /** A wide RO field's higher words as its lowest word's read copied them. */
    private final Map<Word, Reg> readCopies = new IdentityHashMap<>();
    /** A wide RW field's lower words as written, waiting for its highest word. */
    private final Map<Register, List<Reg>> staging = new IdentityHashMap<>();

    public MgmtRegisters(Config config) {
        super(config);
        this.config = config;
        bus = AxiLite.target(this, "s_axil", config.addrWidth());
        // Every access is treated alike: privileged or not, secure or not, data or instruction.
        unused("protection", bus.aw().field("prot"), bus.ar().field("prot"));
        // An access is of a whole word; the strobes say which bytes a write changes.
        unused("byte_in_word", bus.aw().field("addr").bits(1, 0), bus.ar().field("addr").bits(1, 0));
        for (Register r : config.map().registers()) {
            for (int k = 0; k < r.words(); k++) {
                words.add(new Word(r, k, r.offset() / 4 + k));
            }
        }
        OwnCounts own = fieldPorts();
        Write write = writePath();
        Read read = readPath();
        for (Word w : words) {
            wordUpdates(w, write, read);
        }
        // the counters count a cycle after their events: the address decode does not add to the count's carry
        own.roWrites().set(saturatingUpdate(own.roWrites(), List.of(late("ro_write_event", write.toReadOnly()))));
        own.decodeErrors().set(saturatingUpdate(own.decodeErrors(), List.of(late("wr_decode_error", write.unmapped()),
                late("rd_decode_error", read.unmapped()))));
    }

    public Config config() {
        return config;
    }

    public AxiLite bus() {
        return bus;
    }

    /** The register block's own counters, the RO fields of block {@code mgmt}. */
    private record OwnCounts(Reg roWrites, Reg decodeErrors) { }

    /** Every field's ports and storage (its updates come with the writes and reads, {@link #wordUpdates}). */
    private OwnCounts fieldPorts() {
        Reg roWrites = null;
        Reg decodeErrors = null;
        for (Register r : config.map().registers()) {
            for (Field f : r.fields()) {
                String port = r.portName(f);
                switch (f.access()) {
                    case POP -> fields.put(f, new FieldHw(in(port, f.width()), null));
                    case CNT -> fields.put(f, new FieldHw(in(port, f.width()), reg(port + "_cleared_at", f.width(),
                            0)));
                    case RO -> {
                        if (r.block().equals(RegisterMap.OWN_BLOCK)) {
                            Reg count = reg(port, f.width(), 0);
                            fields.put(f, new FieldHw(count, count));
                            if (f.name().equals(RegisterMap.RO_WRITES)) {
                                roWrites = count;
                            } else {
                                decodeErrors = count;
                            }
                        } else {
                            fields.put(f, new FieldHw(in(port, f.width()), null));
                        }
                    }
                    case RW -> {
                        Reg store = reg(port + "_reg", f.width(), BigInteger.valueOf(f.reset()));
                        out(port, f.width()).set(store);
                        fields.put(f, new FieldHw(store, store));
                    }
                    case RC, W1C -> {
                        Reg store = reg(port + "_reg", f.width(), 0);
                        out(port, f.width()).set(store);
                        fields.put(f, new FieldHw(store, store));
                    }
                    case WO -> fields.put(f, new FieldHw(Hw.zeros(f.width()), null));
                }
            }
        }
        return new OwnCounts(roWrites, decodeErrors);
    }

    /** A write: the word it hits (if any), its data and the bits its strobes select. */
    private record Write(Expr fire, Expr address, Expr data, Expr mask, Expr toReadOnly, Expr unmapped) {
        Expr hits(Word w) {
            return fire.and(address.eq(w.address()));
        }

        /** The data's bits {@code lsb} up, {@code width} of them. */
        Expr data(int lsb, int width) {
            return data.bits(lsb + width - 1, lsb);
        }

        /** The data's bits {@code lsb} up that the strobes select, the others 0. */
        Expr strobed(int lsb, int width) {
            return data(lsb, width).and(mask.bits(lsb + width - 1, lsb));
        }

        /** The written word merged into {@code old}: the bits the strobes select from the data. */
        Expr merge(Expr old, int lsb) {
            return old.and(mask.bits(lsb + old.width() - 1, lsb).not()).or(strobed(lsb, old.width()));
        }
    }

    private Write writePath() {
        Reg bValid = reg("b_valid", 1, 0);
        Reg bResp = reg("b_resp", 2, 0);
        Expr fire = wire("wr_fire", bus.aw().valid().and(bus.w().valid()).and(bValid.not()));
        bus.aw().ready().set(fire);
        bus.w().ready().set(fire);
        Expr address = wire("wr_word", bus.aw().field("addr").bits(config.addrWidth() - 1, 2));
        Expr strb = bus.w().field("strb");
        List<Expr> bytes = new ArrayList<>();
        for (int i = W / 8 - 1; i >= 0; i--) {
            bytes.add(Hw.mux(strb.bit(i), Hw.ones(8), Hw.zeros(8)));
        }
        Expr mask = wire("wr_mask", Hw.cat(bytes));
        Expr hit = Hw.bool(false);
        Expr readOnly = Hw.bool(false);
        for (Word w : words) {
            Expr here = address.eq(w.address());
            hit = hit.or(here);
            readOnly = w.register().readOnly() ? readOnly.or(here) : readOnly;
        }
        Expr unmapped = wire("wr_unmapped", fire.and(hit.not()));
        when(fire, () -> {
            bValid.set(1);
            bResp.set(Hw.mux(unmapped, Hw.lit(2, AxiLite.DECERR), Hw.lit(2, AxiLite.OKAY)));
        }).elseWhen(bus.b().fire(), () -> bValid.set(0));
        bus.b().valid().set(bValid);
        bus.b().field("resp").set(bResp);
        return new Write(fire, address, bus.w().field("data"), mask, wire("wr_read_only", fire.and(readOnly)),
                unmapped);
    }

    /** A read under way: the word it reads this cycle (if {@code active}). */
    private record Read(Expr active, Expr address, Expr unmapped) {
        Expr hits(Word w) {
            return active.and(address.eq(w.address()));
        }
    }

    private Read readPath() {
        Reg pending = reg("rd_pending", 1, 0);
        Reg subtracting = reg("rd_subtracting", 1, 0);
        Reg rValid = reg("r_valid", 1, 0);
        Reg address = regNoReset("rd_word", config.addrWidth() - 2);
        bus.ar().ready().set(wire("rd_accept", pending.or(subtracting).or(rValid).not()));
        when(bus.ar().fire(), () -> {
            pending.set(1);
            address.set(bus.ar().field("addr").bits(config.addrWidth() - 1, 2));
        }).elseWhen(pending, () -> pending.set(0));
        subtracting.set(pending);
        // Each word's value where the read's address selects it, ORed: the read data; beside it, the CNT fields'
        // values at their last clear, subtracted the next cycle (a subtraction after the wide OR is too deep for one).
        Expr data = Hw.zeros(W);
        Expr clearedAt = Hw.zeros(W);
        Expr hit = Hw.bool(false);
        for (Word w : words) {
            Expr here = address.eq(w.address());
            hit = hit.or(here);
            data = data.or(Hw.mux(here, wordValue(w), Hw.zeros(W)));
            Expr at = wordClearedAt(w);
            if (at != null) {
                clearedAt = clearedAt.or(Hw.mux(here, at, Hw.zeros(W)));
            }
        }
        Expr unmapped = wire("rd_unmapped", pending.and(hit.not()));
        Reg rawData = regNoReset("rd_data_raw", W);
        Reg rawClearedAt = regNoReset("rd_cleared_at", W);
        Reg rawResp = regNoReset("rd_resp", 2);
        Expr readData = wire("rd_data", data);
        Expr readClearedAt = wire("rd_cleared_at_now", clearedAt);
        when(pending, () -> {
            rawData.set(readData);
            rawClearedAt.set(readClearedAt);
            rawResp.set(Hw.mux(unmapped, Hw.lit(2, AxiLite.DECERR), Hw.lit(2, AxiLite.OKAY)));
        });
        Reg rData = regNoReset("r_data", W);
        Reg rResp = regNoReset("r_resp", 2);
        when(subtracting, () -> {
            rValid.set(1);
            rData.set(Hw.subShallow(rawData, rawClearedAt)); // a prefix subtractor: a ripple one is 13 LUT levels
            rResp.set(rawResp);
        }).elseWhen(bus.r().fire(), () -> rValid.set(0));
        bus.r().valid().set(rValid);
        bus.r().field("data").set(rData);
        bus.r().field("resp").set(rResp);
        return new Read(pending, address, unmapped);
    }

    /** Word {@code w}'s CNT fields at their last clear, at their bits; null when it has none. */
    private Expr wordClearedAt(Word w) {
        Expr v = null;
        for (Field f : w.register().fields()) {
            if (f.access() == Access.CNT) {
                Expr at = fields.get(f).store().resize(W).shl(f.lsb());
                v = v == null ? at : v.or(at);
            }
        }
        return v;
    }

    /** Word {@code w} as a read returns it: its fields at their bits (a wide field: its 32 bits of this word). */
    private Expr wordValue(Word w) {
        Register r = w.register();
        if (r.words() > 1) {
            Field f = r.fields().get(0);
            if (w.index() > 0 && f.access() == Access.RO) {
                // reset: a read of a higher word before any of the lowest returns 0, not power-up noise
                Reg copy = reg(r.portName(f) + "_copy" + w.index(), W, 0);
                readCopies.put(w, copy);
                return copy;
            }
            return wordOf(fields.get(f).value(), w.index());
        }
        Expr v = Hw.zeros(W);
        for (Field f : r.fields()) {
            v = v.or(fields.get(f).value().resize(W).shl(f.lsb()));
        }
        return v;
    }

    /** Word {@code k} of a wide value, zero-extended to 32 bits. */
    private static Expr wordOf(Expr value, int k) {
        int lo = W * k;
        return value.bits(Math.min(lo + W, value.width()) - 1, lo).resize(W);
    }

    /** What a write or read of word {@code w} does to its fields. */
    private void wordUpdates(Word w, Write write, Read read) {
        Register r = w.register();
        Expr written = write.hits(w);
        Expr readNow = read.hits(w);
        if (r.words() > 1) {
            wideUpdates(w, written, readNow, write);
            return;
        }
        for (Field f : r.fields()) {
            Reg store = fields.get(f).store();
            String port = r.portName(f);
            switch (f.access()) {
                case RW -> when(written, () -> store.set(write.merge(store, f.lsb())));
                case W1C -> {
                    Expr set = in(port + "_set", f.width());
                    Expr cleared = write.strobed(f.lsb(), f.width());
                    store.set(Hw.mux(written, store.and(cleared.not()), store).or(set));
                }
                case RC -> {
                    Expr set = in(port + "_set", f.width());
                    store.set(Hw.mux(readNow, Hw.zeros(f.width()), store).or(set));
                }
                case WO -> Flow.registered(this, port + "_wr", written, Layout.plain("value", f.width()),
                        write.data(f.lsb(), f.width()))
                        .into(Flow.master(this, port, Layout.plain("value", f.width())));
                case POP -> out(port + "_read", 1).set(readNow);
                case CNT -> when(written, () -> store.set(fields.get(f).value()));
                case RO -> { }
            }
        }
    }

    /**
     * A wide register's words: an RO one's lowest-word read copies its higher words; an RW one collects its lower
     * words' writes and takes them all with the write of its highest word.
     */
    private void wideUpdates(Word w, Expr written, Expr readNow, Write write) {
        Register r = w.register();
        Field f = r.fields().get(0);
        FieldHw hw = fields.get(f);
        if (f.access() == Access.RO) {
            if (w.index() == 0) {
                for (Word higher : words) {
                    if (higher.register() == r && higher.index() > 0) {
                        Reg copy = readCopies.get(higher);
                        when(readNow, () -> copy.set(wordOf(hw.value(), higher.index())));
                    }
                }
            }
            return;
        }
        if (!w.last()) {
            Reg staged = reg(r.portName(f) + "_staged" + w.index(), W,
                    BigInteger.valueOf(f.reset()).shiftRight(W * w.index()).and(BigInteger.ONE.shiftLeft(W)
                            .subtract(BigInteger.ONE)));
            staging.computeIfAbsent(r, x -> new ArrayList<>()).add(staged);
            when(written, () -> staged.set(write.merge(staged, 0)));
            return;
        }
        List<Expr> parts = new ArrayList<>();
        parts.add(write.merge(hw.value().bits(f.width() - 1, W * w.index()), 0));
        for (int k = w.index() - 1; k >= 0; k--) {
            parts.add(staging.get(r).get(k));
        }
        when(written, () -> hw.store().set(Hw.cat(parts)));
    }

    /** {@code count} plus the high events (at most two), stopping at all ones. */
    private Expr saturatingUpdate(Reg count, List<Expr> events) {
        Expr next = Hw.upDown(count, events, List.of());
        Expr both = events.size() > 1 ? events.get(0).and(events.get(1)) : Hw.bool(false);
        Expr full = count.andR().or(both.and(count.eq(count.lit(-2L & ((1L << count.width()) - 1)))));
        return Hw.mux(wire(count.name() + "_full", full), Hw.ones(count.width()), next);
    }

    private Reg late(String name, Expr event) {
        Reg r = reg(name, 1, 0);
        r.set(event);
        return r;
    }
}
