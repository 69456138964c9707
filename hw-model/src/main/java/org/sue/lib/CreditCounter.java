package org.sue.lib;

import org.sue.core.Tag;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;

/**
 * Credit counter: starts full at {@code maxCredits}; {@code consume} spends up to the credits held, {@code return}
 * gives credits back. Both may happen in the same cycle.
 *
 * <ul>
 * <li>A consume of more than the credits held (before this cycle's return) is refused: {@code consume_ok} is low,
 * the count is unchanged by it, and the sticky {@code underflow} flag is set.</li>
 * <li>A return that would push the count above {@code maxCredits} saturates at the maximum and sets the sticky
 * {@code overflow} flag: credits are never created from nothing.</li>
 * </ul>
 */
public final class CreditCounter extends Component {
    public record Config(@Tag("m") int maxCredits, @Tag("a") int amountWidth) {
        public Config {
            if (maxCredits < 1) {
                throw new IllegalArgumentException("CreditCounter maxCredits must be at least 1, got " + maxCredits);
            }
            if (amountWidth < 1 || amountWidth > 31) {
                throw new IllegalArgumentException("CreditCounter amountWidth must be 1..31 bits, got " + amountWidth);
            }
        }

        /** Bits of the credit count. */
        public int countWidth() {
            return Hw.log2Up((long) maxCredits + 1);
        }
    }

    /** A request to spend {@code consume_amount} credits ({@code consume_valid}): a flow. */
    public final Flow consume;
    /** The request of this cycle was granted. */
    public final Port consumeOk;
    /** Credits given back: {@code return_valid}, {@code return_amount}. */
    public final Flow giveBack;
    public final Port credits;
    public final Port underflow;
    public final Port overflow;
    private final Config config;

    public CreditCounter(Config config) {
        super(config);
        this.config = config;
        int cw = config.countWidth();
        int aw = config.amountWidth();
        int sumWidth = Math.max(cw, aw) + 1; // room for count + return before saturation
        Layout amount = Layout.plain("amount", aw);
        consume = Flow.slave(this, "consume", amount);
        consumeOk = out("consume_ok", 1);
        giveBack = Flow.slave(this, "return", amount);
        credits = out("credits", cw);
        underflow = out("underflow", 1);
        overflow = out("overflow", 1);

        Reg count = reg("count", cw, config.maxCredits());
        Reg underflowFlag = reg("underflow_flag", 1, 0);
        Reg overflowFlag = reg("overflow_flag", 1, 0);

        Expr asked = consume.field("amount").resize(sumWidth);
        Expr enough = wire("enough", asked.le(count.resize(sumWidth)));
        Expr spend = wire("spend", consume.valid().and(enough));
        Expr spent = Hw.mux(spend, asked, Hw.zeros(sumWidth));
        Expr returned = Hw.mux(giveBack.valid(), giveBack.field("amount").resize(sumWidth), Hw.zeros(sumWidth));
        Expr sum = wire("sum", count.resize(sumWidth).sub(spent).add(returned));
        Expr limit = Hw.lit(sumWidth, config.maxCredits());
        Expr saturate = wire("saturate", sum.gt(limit));

        count.set(Hw.mux(saturate, limit, sum).resize(cw));
        when(consume.valid().and(enough.not()), () -> underflowFlag.set(1));
        when(saturate, () -> overflowFlag.set(1));

        consumeOk.set(spend);
        credits.set(count);
        underflow.set(underflowFlag);
        overflow.set(overflowFlag);
    }

    public Config config() {
        return config;
    }
}
