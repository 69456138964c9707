package org.sue.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Mem;
import org.sue.core.MemRead;
import org.sue.core.Op;
import org.sue.core.OpKind;

/**
 * Byte-lane memories simulated as one: the blocks keep a bus in one 8-bit memory per lane (each lane with its own
 * write enable, and an address that is one of two shared addresses, chosen per lane), which costs a separate access
 * per lane. A bank stores lane i of row a at byte i of the flat row {@code a}, so a read or write of all lanes is a
 * few word operations per row ({@link SimOps#bankRead}, {@link SimOps#bankWrite}).
 *
 * <p>Lanes qualify when they sit in one component, are 8 bits wide with the same depth, have one read port each with
 * the same enable, and each port's address is the same for every lane or a per-lane choice between the same two
 * addresses ({@code sel_i ? a : b}); likewise for the write ports.
 */
final class MemoryBank {
    /** Lanes, lane i at byte i of the row. */
    final List<Mem> lanes;
    final Expr readEnable;
    /** Per-lane address choice: sel_i ? a : b (for an address common to all lanes: sel_i = 1, a = b). */
    final Port read;
    final Port write;
    /** Write enables and data per lane (the address choice is in {@link #write}). */
    final List<Expr> writeEnables = new ArrayList<>();
    final List<Expr> writeData = new ArrayList<>();

    /** An address port of the bank: lane i uses {@code selects.get(i) ? a : b}. */
    record Port(List<Expr> selects, Expr a, Expr b) {
    }

    private MemoryBank(List<Mem> lanes, Expr readEnable, Port read, Port write) {
        this.lanes = lanes;
        this.readEnable = readEnable;
        this.read = read;
        this.write = write;
    }

    int depth() {
        return lanes.get(0).depth();
    }

    /** 64-bit words per row. */
    int rowWords() {
        return (lanes.size() + 7) / 8;
    }

    MemRead readPort(int lane) {
        return lanes.get(lane).reads().get(0);
    }

    /**
     * The banks of a design.
     *
     * @param rep an expression's representative (value numbering), so that equal addresses built per lane compare
     *     equal
     */
    static List<MemoryBank> find(Design design, UnaryOperator<Expr> rep) {
        List<MemoryBank> banks = new ArrayList<>();
        for (Component c : design.components()) {
            Map<List<Object>, List<Mem>> groups = new LinkedHashMap<>();
            for (Mem m : c.mems()) {
                if (m.width() == 8 && m.write() != null && m.reads().size() == 1) {
                    groups.computeIfAbsent(List.of(m.depth(), new Same(rep.apply(m.reads().get(0).enable()))),
                            k -> new ArrayList<>()).add(m);
                }
            }
            for (List<Mem> g : groups.values()) {
                if (g.size() < 4) {
                    continue; // too few lanes to gain anything
                }
                Port read = port(g, m -> m.reads().get(0).address(), rep);
                Port write = port(g, m -> m.write().address(), rep);
                if (read == null || write == null) {
                    continue;
                }
                MemoryBank b = new MemoryBank(List.copyOf(g), g.get(0).reads().get(0).enable(), read, write);
                for (Mem m : g) {
                    b.writeEnables.add(m.write().enable());
                    b.writeData.add(m.write().data());
                }
                banks.add(b);
            }
        }
        return banks;
    }

    /** The lanes' addresses as one port, or null when they are not all equal nor all choices between two. */
    private static Port port(List<Mem> lanes, java.util.function.Function<Mem, Expr> address, UnaryOperator<Expr> rep) {
        Expr first = rep.apply(address.apply(lanes.get(0)));
        boolean allSame = true;
        for (Mem m : lanes) {
            allSame &= rep.apply(address.apply(m)) == first;
        }
        if (allSame) {
            List<Expr> ones = new ArrayList<>();
            lanes.forEach(m -> ones.add(Hw.bool(true)));
            return new Port(ones, first, first);
        }
        Expr a = null;
        Expr b = null;
        List<Expr> selects = new ArrayList<>();
        for (Mem m : lanes) {
            if (!(rep.apply(address.apply(m)) instanceof Op op) || op.kind() != OpKind.MUX) {
                return null;
            }
            Expr sel = rep.apply(op.arg(0));
            Expr x = rep.apply(op.arg(1));
            Expr y = rep.apply(op.arg(2));
            if (a == null) {
                a = x;
                b = y;
            } else if (x != a || y != b) {
                return null;
            }
            selects.add(sel);
        }
        return new Port(selects, a, b);
    }

    /** Identity key for grouping. */
    private record Same(Expr e) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Same s && s.e == e;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(e);
        }
    }
}
