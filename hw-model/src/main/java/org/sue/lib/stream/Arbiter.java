package org.sue.lib.stream;

import java.util.ArrayList;
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

/** Round-robin choice among requesters: as an index picker, and as an arbiter of streams. */
@ConstructionHelper
public final class Arbiter {
    private Arbiter() {
    }

    /**
     * The first eligible index after {@code last}, circularly, so the one served last goes to the back (index 0 when
     * none is eligible). {@code last} has {@code log2Up(n)} bits; so has the result.
     */
    public static Expr rotatingPick(List<? extends Expr> eligible, Expr last) {
        int n = eligible.size();
        int w = Hw.log2Up(n);
        if (last.width() != w) {
            throw new HdlException("rotatingPick over " + n + " requesters: last must be " + w + " bits, is "
                    + last.width(), SourceLoc.here());
        }
        Expr choice = Hw.lit(w, 0);
        for (int start = 0; start < n; start++) {
            // candidates in order start+1, start+2, ..., start (when last == start)
            Expr pickHere = Hw.lit(w, start);
            for (int k = n; k >= 1; k--) {
                int v = (start + k) % n;
                pickHere = Hw.mux(eligible.get(v), Hw.lit(w, v), pickHere);
            }
            choice = Hw.mux(last.eq(start), pickHere, choice);
        }
        return choice;
    }

    /** The lowest index whose requester is eligible (index 0 when none is); {@code log2Up(n)} bits. */
    public static Expr firstPick(List<? extends Expr> eligible) {
        int w = Hw.log2Up(eligible.size());
        Expr choice = Hw.lit(w, 0);
        for (int k = eligible.size() - 1; k >= 0; k--) {
            choice = Hw.mux(eligible.get(k), Hw.lit(w, k), choice);
        }
        return choice;
    }

    /** The arbiter's output and the index of the input its beat comes from. */
    public record Arbitration(Stream out, Expr chosen) {
    }

    /** How long a choice holds once the output offers its beat. */
    public enum Lock {
        /**
         * Not at all: the choice is made anew every cycle, so a beat offered from one input may be replaced by one of
         * higher priority while the output stalls. Only where the output's consumer does not need the stream rule
         * (a register stage that loads whatever is offered when it has room).
         */
        NONE,
        /** Until the offered beat is taken: the output keeps the stream rule. */
        BEAT,
        /** Until the offered packet's last beat is taken: packets never interleave. */
        PACKET
    }

    /**
     * Fixed priority over streams of one layout: the lowest-numbered input with a beat wins; {@code lock} says how
     * long the choice holds.
     */
    public static Arbitration priority(String name, List<Stream> inputs, Lock lock) {
        return arbitrate(name, inputs, lock, (valids, sc) -> firstPick(valids));
    }

    /**
     * Round robin over streams of one layout: the output is valid when any input is; the input after the one served
     * last wins. Once offered, a beat stays offered until taken (the choice is held while the output stalls), so the
     * output keeps the AXI rule that valid and payload do not change until ready.
     */
    public static Arbitration roundRobin(String name, List<Stream> inputs) {
        return roundRobin(name, inputs, Lock.BEAT);
    }

    /**
     * Round robin over packet streams: like {@link #roundRobin(String, List)}, but a packet's input keeps the output
     * from its first beat to its {@code tlast}, so packets never interleave.
     */
    public static Arbitration roundRobinPackets(String name, List<Stream> inputs) {
        return roundRobin(name, inputs, Lock.PACKET);
    }

    private static Arbitration roundRobin(String name, List<Stream> inputs, Lock lock) {
        int w = Hw.log2Up(inputs.size());
        Reg[] last = new Reg[1];
        Arbitration a = arbitrate(name, inputs, lock, (valids, sc) -> {
            last[0] = sc.reg(name + "_last", w, inputs.size() - 1);
            return rotatingPick(valids, last[0]);
        });
        Scope.reading(a.out().valid()).when(a.out().fire(), () -> last[0].set(a.chosen()));
        return a;
    }

    /** The pick among the inputs' valids, built in the arbiter's scope. */
    private interface Pick {
        Expr of(List<Expr> valids, Scope sc);
    }

    private static Arbitration arbitrate(String name, List<Stream> inputs, Lock lock, Pick pick) {
        int n = inputs.size();
        if (n < 2) {
            throw new HdlException("an arbiter needs at least 2 inputs, got " + n, SourceLoc.here());
        }
        Layout layout = Stream.sameLayout(name, inputs);
        Scope sc = Scope.reading(inputs.get(0).valid());
        List<Expr> valids = new ArrayList<>();
        List<Expr> payloads = new ArrayList<>();
        for (Stream s : inputs) {
            valids.add(s.valid());
            payloads.add(s.payload());
        }
        Expr any = Hw.cat(valids).orR();
        Expr picked = pick.of(valids, sc);
        if (lock == Lock.NONE) {
            Wire chosen = sc.wire(name + "_chosen", picked);
            return connect(sc, name, inputs, any, layout, Hw.select(payloads, chosen), chosen);
        }
        boolean packets = lock == Lock.PACKET;
        int w = Hw.log2Up(n);
        Reg held = sc.reg(name + "_held", 1, 0);    // a beat was offered and not taken: keep its input
        Reg heldIndex = sc.reg(name + "_held_index", w, 0);
        Wire chosen = sc.wire(name + "_chosen", Hw.mux(held, heldIndex, picked));
        // mid-packet the held input may pause; then nothing is offered, whatever the others hold
        Expr offered = packets ? Hw.select(valids, chosen) : any;
        Arbitration a = connect(sc, name, inputs, offered, layout, Hw.select(payloads, chosen), chosen);
        Stream out = a.out();
        sc.when(out.fire(), () -> {
            held.set(packets ? out.tlast().not() : Hw.bool(false));
            if (packets) {
                heldIndex.set(chosen); // the rest of the packet comes from the same input
            }
        }).elseWhen(any, () -> {
            held.set(1);
            heldIndex.set(chosen);
        });
        return a;
    }

    private static Arbitration connect(Scope sc, String name, List<Stream> inputs, Expr valid, Layout layout,
                                       Expr payload, Wire chosen) {
        Stream out = Stream.of(sc.component(), name, valid, layout, payload);
        for (int i = 0; i < inputs.size(); i++) {
            inputs.get(i).ready().set(out.ready().and(chosen.eq(i)));
        }
        return new Arbitration(out, chosen);
    }
}
