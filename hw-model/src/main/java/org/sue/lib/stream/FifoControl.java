package org.sue.lib.stream;

import java.util.List;
import org.sue.core.ConstructionHelper;
import org.sue.core.Expr;
import org.sue.core.HdlException;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Reg;
import org.sue.core.Scope;
import org.sue.core.SourceLoc;
import org.sue.core.Wire;

/**
 * The control of a first-word-fall-through FIFO of {@code depth} words whose storage and output register are its
 * user's: {@link SyncFifo}'s (a memory whose read register is the output) and, where a FIFO's words must do more than
 * wait (follow other state, be looked at a cycle early), registers or a memory of the block itself. One push and one
 * pop a cycle; a word pushed into an empty FIFO is in the output register two cycles later.
 *
 * <p>{@code in} is ready while fewer than {@code depth} words are held (in the storage or the output register); a beat
 * it takes ({@link #write}) is written at {@link #wrPtr}. The output register, valid while {@link #valid}, loads the
 * word at {@link #rdPtr} ({@link #load}) whenever the storage holds one and the register is empty or its word is
 * taken: {@link #ready}, which the user drives, or {@link #output} from its stream.
 *
 * @param rdNext    the read pointer after {@link #load} (the address of the word after the one loading)
 * @param ready     the output register's word is taken where it is valid (a wire its user drives)
 * @param occupancy words held, the output register's included
 * @param full      {@code depth} words held: {@code in} is not ready
 */
@ConstructionHelper
public record FifoControl(Reg wrPtr, Reg rdPtr, Expr rdNext, Expr write, Expr load, Reg valid, Wire ready,
                          Reg occupancy, Expr full) {
    /**
     * The control of a FIFO fed by {@code in}. Its registers and wires are named {@code <name>_wr_ptr},
     * {@code <name>_rd_ptr}, {@code <name>_stored}, {@code <name>_occupancy}, {@code <name>_full},
     * {@code <name>_write}, {@code <name>_valid}, {@code <name>_head_ready} and {@code <name>_load} (without the
     * prefix for an empty name).
     */
    public static FifoControl of(String name, int depth, Stream in) {
        return of(name, depth, in, false);
    }

    /**
     * As {@link #of(String, int, Stream)}, but a word written while the storage holds none loads into the output
     * register at once (when it is empty or its word is taken): it shows the cycle after its push. The storage must
     * give the word being written to a read of its address in the same cycle (a {@code WRITE_FIRST} memory): the
     * word is written as usual and read straight back.
     */
    public static FifoControl fallThrough(String name, int depth, Stream in) {
        return of(name, depth, in, true);
    }

    private static FifoControl of(String name, int depth, Stream in, boolean fallThrough) {
        if (depth < 2) {
            throw new HdlException("FIFO control '" + name + "': depth must be at least 2, got " + depth,
                    SourceLoc.here());
        }
        Scope s = in.scope();
        String p = name.isEmpty() ? "" : name + "_";
        int lw = Hw.log2Up(depth + 1);
        Reg wrPtr = s.reg(p + "wr_ptr", Hw.log2Up(depth), 0);
        Reg rdPtr = s.reg(p + "rd_ptr", Hw.log2Up(depth), 0);
        Reg stored = s.reg(p + "stored", lw, 0); // in the storage, not yet in the output register
        Reg occupancy = s.reg(p + "occupancy", lw, 0);
        Expr full = s.wire(p + "full", occupancy.eq(depth));
        in.ready().set(full.not());
        Expr write = s.wire(p + "write", in.valid().and(full.not()));
        Reg valid = s.reg(p + "valid", 1, 0);
        Wire ready = s.wire(p + "head_ready", 1);
        Expr available = fallThrough ? stored.ne(0).or(write) : stored.ne(0);
        Expr load = s.wire(p + "load", available.and(valid.not().or(ready)));
        Expr rdNext = next(rdPtr, depth);
        s.when(load, () -> valid.set(1)).elseWhen(ready, () -> valid.set(0));
        s.when(write, () -> wrPtr.set(next(wrPtr, depth)));
        s.when(load, () -> rdPtr.set(rdNext));
        // the pop's ready is often the end of a long path: a multiplexer after it, not an adder (Hw.upDown)
        stored.set(Hw.upDown(stored, List.of(write), List.of(load)));
        occupancy.set(Hw.upDown(occupancy, List.of(write), List.of(valid.and(ready))));
        return new FifoControl(wrPtr, rdPtr, rdNext, write, load, valid, ready, occupancy, full);
    }

    /**
     * The output register as a stream {@code name}: valid while {@link #valid}, {@code payload} (what the register
     * holds) in {@code layout}; its ready drives {@link #ready}.
     */
    public Stream output(String name, Layout layout, Expr payload) {
        Stream out = Stream.of(Scope.reading(valid).component(), name, valid, layout, payload);
        ready.set(out.ready());
        return out;
    }

    /** ptr + 1, wrapping at depth (depth need not be a power of two). */
    private static Expr next(Reg ptr, int depth) {
        if (Integer.bitCount(depth) == 1) {
            return ptr.add(1);
        }
        return Hw.mux(ptr.eq(depth - 1), ptr.lit(0), ptr.add(1));
    }
}
