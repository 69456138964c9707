package org.sue.lib.stream;

import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Tag;

/**
 * The receiving end of a credit loop (SUE spec 3.2.2, the AXI form's channels): beats arrive as a flow (valid and
 * payload, no ready) from a sender that holds {@code credits} credits and spends one per beat ({@link CreditSender});
 * they leave as a stream, in the cycle they arrive when nothing is held and the taker is ready, else through a FIFO;
 * each beat that leaves gives one credit back on {@code credit_return}, a one-cycle pulse the cycle after it left.
 *
 * <ul>
 * <li>A beat that arrives while {@code credits} beats are held (the FIFO's words, its output register's included, and
 * the hold register's) was
 * sent without a credit: it is dropped, nothing held changes, and {@code overflow_beats} counts it. A beat leaving in
 * the same cycle does not make room for it, since its credit is not back at the sender yet.</li>
 * <li>The FIFO is {@code max(credits, 4)} deep (a 2-deep {@link SyncFifo} passes two words in three cycles), but it
 * and the hold never hold more than {@code credits}: the credits are exactly the configured number.</li>
 * <li>A beat arriving while nothing is held is offered on {@code out} in the same cycle (a FIFO's beat shows two
 * cycles after its push): taken then, it is gone; not taken, it waits in a hold register, still offered, ahead of the
 * FIFO's beats. Beats leave in arrival order.</li>
 * <li>Full throughput, one beat a cycle in and out, with {@code credits} at least the loop's round trip: 2 cycles for
 * a sender wired straight to this block (in and out in one cycle, the credit pulse, the sender's count), plus every
 * register stage on the way there and back.</li>
 * </ul>
 */
public final class CreditReceiver extends Component {
    /** Credits of one loop: buffer entries (a FIFO's memory). */
    public static final Bound CREDITS = Bound.of(1, 4096);
    /** Payload bits, as a {@link SyncFifo} holds them. */
    public static final Bound WIDTH = Bound.of(1, 4096);
    /** The smallest FIFO that passes a beat a cycle. */
    static final int MIN_DEPTH = 4;

    /**
     * @param width   payload bits ({@code in_data}, {@code out_data})
     * @param credits the sender's credits: the beats this block holds at most
     */
    public record Config(@Tag("w") int width, @Tag("c") int credits) {
        public Config {
            WIDTH.check("CreditReceiver", "width", width);
            CREDITS.check("CreditReceiver", "credits", credits);
        }

        /** Entries of the FIFO underneath. */
        public int depth() {
            return Math.max(credits, MIN_DEPTH);
        }
    }

    /** Beats from the sender: {@code in_valid}, {@code in_data}. */
    public final Flow in;
    /** Beats on, in arrival order: {@code out_valid}, {@code out_ready}, {@code out_data}. */
    public final Stream out;
    /** One cycle high per beat that left {@code out}, the cycle after. */
    public final Port creditReturn;
    private final Config config;

    public CreditReceiver(Config config) {
        super(config);
        this.config = config;
        Layout word = Layout.plain("data", config.width());
        in = Flow.slave(this, "in", word);
        out = Stream.master(this, "out", word);
        creditReturn = out("credit_return", 1);

        SyncFifo fifo = child("fifo", new SyncFifo(new SyncFifo.Config(config.width(), config.depth(), true)));
        // the beat offered straight from the input and not taken waits here, still offered, ahead of the FIFO's
        Reg hold = reg("hold", 1, 0);
        Reg holdData = regNoReset("hold_data", config.width());
        Expr empty = fifo.level.eq(0); // level counts a beat from its push: the FIFO's beats always go first
        Expr held = fifo.level.resize(fifo.level.width() + 1).add(hold.resize(fifo.level.width() + 1));
        // a beat beyond the credits reaches neither: what is held stays as it was
        Expr noCredit = wire("no_credit", held.ge(config.credits()));
        Expr violation = wire("violation", in.valid().and(noCredit));
        Expr accepted = in.valid().and(noCredit.not());
        Expr through = wire("through", accepted.and(hold.not()).and(empty));
        out.valid().set(hold.or(fifo.pop.valid()).or(through));
        out.data().set(Hw.mux(hold, holdData, Hw.mux(fifo.pop.valid(), fifo.pop.data(), in.data())));
        fifo.pop.ready().set(out.ready().and(hold.not()));
        // into the hold: a beat offered straight and not taken, or one arriving at an empty FIFO as the hold leaves
        Expr toHold = wire("to_hold", through.and(out.ready().not()).or(hold.and(out.ready()).and(accepted)
                .and(empty)));
        when(toHold, () -> {
            hold.set(1);
            holdData.set(in.data());
        }).elseWhen(hold.and(out.ready()), () -> hold.set(0));
        fifo.push.valid().set(accepted.and(through.and(out.ready()).not()).and(toHold.not()));
        fifo.push.data().set(in.data());
        // never full below the credits: the FIFO is at least as deep
        unused("fifo_status", fifo.push.ready(), fifo.overflow, fifo.creditReturn);
        Reg left = reg("credit_pulse", 1, 0);
        left.set(out.fire());
        creditReturn.set(left);
        statusCounter("overflow_beats", violation, "beats that arrived without a credit (the FIFO held all "
                + config.credits() + "), dropped");
    }

    public Config config() {
        return config;
    }
}
