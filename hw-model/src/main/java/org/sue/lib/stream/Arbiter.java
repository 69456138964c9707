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

    /** The arbiter's output and the index of the input its beat comes from. */
    public record Arbitration(Stream out, Expr chosen) {
    }

    /**
     * Round robin over streams of one layout: the output is valid when any input is; the input after the one served
     * last wins. Once offered, a beat stays offered until taken (the choice is held while the output stalls), so the
     * output keeps the AXI rule that valid and payload do not change until ready.
     */
    public static Arbitration roundRobin(String name, List<Stream> inputs) {
        return roundRobin(name, inputs, false);
    }

    /**
     * Round robin over packet streams: like {@link #roundRobin(String, List)}, but a packet's input keeps the output
     * from its first beat to its {@code tlast}, so packets never interleave.
     */
    public static Arbitration roundRobinPackets(String name, List<Stream> inputs) {
        return roundRobin(name, inputs, true);
    }

    private static Arbitration roundRobin(String name, List<Stream> inputs, boolean packets) {
        int n = inputs.size();
        if (n < 2) {
            throw new HdlException("an arbiter needs at least 2 inputs, got " + n, SourceLoc.here());
        }
        Layout layout = inputs.get(0).layout();
        for (Stream s : inputs) {
            if (s.layout().width() != layout.width() || !s.hasReady()) {
                throw new HdlException("arbiter '" + name + "': every input must be a stream of layout "
                        + layout + "; " + s + " is not", SourceLoc.here());
            }
        }
        Scope sc = Scope.reading(inputs.get(0).valid());
        int w = Hw.log2Up(n);
        List<Expr> valids = new ArrayList<>();
        List<Expr> payloads = new ArrayList<>();
        for (Stream s : inputs) {
            valids.add(s.valid());
            payloads.add(s.payload());
        }
        Reg last = sc.reg(name + "_last", w, n - 1);
        Reg held = sc.reg(name + "_held", 1, 0);    // a beat was offered and not taken: keep its input
        Reg heldIndex = sc.reg(name + "_held_index", w, 0);
        Wire chosen = sc.wire(name + "_chosen", Hw.mux(held, heldIndex, rotatingPick(valids, last)));
        Expr any = Hw.cat(valids).orR();
        // mid-packet the held input may pause; then nothing is offered, whatever the others hold
        Expr offered = packets ? Hw.select(valids, chosen) : any;
        Stream out = Stream.of(sc.component(), name, offered, layout, Hw.select(payloads, chosen));
        for (int i = 0; i < n; i++) {
            inputs.get(i).ready().set(out.ready().and(chosen.eq(i)));
        }
        sc.when(out.fire(), () -> {
            last.set(chosen);
            held.set(packets ? out.tlast().not() : Hw.bool(false));
            if (packets) {
                heldIndex.set(chosen); // the rest of the packet comes from the same input
            }
        }).elseWhen(any, () -> {
            held.set(1);
            heldIndex.set(chosen);
        });
        return new Arbitration(out, chosen);
    }
}
