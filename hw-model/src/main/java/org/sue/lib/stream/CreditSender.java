package org.sue.lib.stream;

import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Status;
import org.sue.core.Tag;

/**
 * The sending end of a credit loop (SUE spec 3.2.2, the AXI form's channels): beats come in as a stream and leave as a
 * flow (valid and payload, no ready) to a receiver with {@code credits} buffer entries ({@link CreditReceiver}). The
 * sender starts with {@code credits} credits and spends one per beat; each {@code credit_return} pulse gives one back.
 *
 * <ul>
 * <li>{@code in_ready} is high while a credit is held (from the count register alone); {@code out_valid} is
 * {@code in_valid} while it is, the payload passes unchanged, in the same cycle.</li>
 * <li>A credit returned in a cycle counts from the next: a beat can move in every cycle the count is not zero, and the
 * count takes the spend and the return of one cycle together.</li>
 * <li>A return that would bring the count above {@code credits} (the receiver gave back a credit it never got) is
 * dropped: the count stays at {@code credits} and {@code excess_returns} counts it.</li>
 * </ul>
 */
public final class CreditSender extends Component {
    /**
     * @param width   payload bits ({@code in_data}, {@code out_data})
     * @param credits the receiver's buffer entries: the credits this block starts with
     */
    public record Config(@Tag("w") int width, @Tag("c") int credits) {
        public Config {
            CreditReceiver.WIDTH.check("CreditSender", "width", width);
            CreditReceiver.CREDITS.check("CreditSender", "credits", credits);
        }
    }

    /** Beats to send: {@code in_valid}, {@code in_ready}, {@code in_data}. */
    public final Stream in;
    /** Beats sent, one credit each: {@code out_valid}, {@code out_data}. */
    public final Flow out;
    /** One credit back per cycle it is high. */
    public final Port creditReturn;
    private final Config config;

    public CreditSender(Config config) {
        super(config);
        this.config = config;
        int credits = config.credits();
        Layout word = Layout.plain("data", config.width());
        in = Stream.slave(this, "in", word);
        out = Flow.master(this, "out", word);
        creditReturn = in("credit_return", 1);

        Reg count = reg("count", Hw.log2Up(credits + 1), credits);
        Expr held = wire("held", count.ne(0));
        Flow sent = in.continueWhen("send", held).asFlow(); // the receiver takes every beat
        sent.into(out);
        Expr spend = sent.fire();
        // a return at the limit with nothing spent would create a credit from nothing
        Expr excess = wire("excess", creditReturn.and(count.eq(credits)).and(spend.not()));
        count.set(Hw.upDown(count, List.of(creditReturn.and(excess.not())), List.of(spend)));
        statusCounter("excess_returns", excess, "credit returns beyond the " + credits + " credits, dropped");
        status("credits", Status.Kind.LEVEL, count, "credits held: beats that may still be sent");
    }

    public Config config() {
        return config;
    }
}
