package org.sue.axi;

import java.util.List;
import org.sue.core.Component;
import org.sue.core.Tag;
import org.sue.lib.stream.CreditReceiver;
import org.sue.lib.stream.CreditSender;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;

/**
 * The SoC's side of an {@link AxiCreditPair}'s credit loops (docs/protocol.md 13.10), so that an ordinary AXI4 master
 * and slave attach to SUE: valid/ready AXI4 toward the SoC ({@code s_aw}, {@code s_w}, {@code s_ar}, {@code s_b},
 * {@code s_r} for the slave the SoC's master drives; {@code m_aw}, ... {@code m_r} toward the SoC's slave), the credit
 * form toward SUE ({@code sue_<channel>} and {@code sue_<channel>_credit}).
 *
 * <p>Toward SUE (the slave's AW, W, AR, the master's B, R) a {@link CreditSender} per channel holds SUE's credits:
 * ready toward the SoC while one is held, one spent per beat, one back per {@code sue_<channel>_credit} pulse. From
 * SUE (the slave's B, R, the master's AW, W, AR) a {@link CreditReceiver} per channel is the SoC's buffer: it takes
 * SUE's beats, offers them with valid/ready, and pulses {@code sue_<channel>_credit} per beat the SoC took. Each loop's
 * credits are the pair's ({@link AxiCredits}). The loops' counters are named {@code soc_<channel>_...}.
 *
 * @param axi           the pair's AXI4 widths
 * @param masterIdWidth the AxID width of the master's channels (the far master's remapped IDs)
 * @param slave         the slave's channels' credits
 * @param master        the master's channels' credits
 */
public final class AxiCreditWrapper extends Component {
    public record Config(AxiConfig axi, @Tag("mi") int masterIdWidth, AxiCredits slave, AxiCredits master,
                         @Tag("p") int pairs) {
        public Config {
            if (axi == null || slave == null || master == null) {
                throw new IllegalArgumentException("AxiCreditWrapper axi, slave and master must be given");
            }
            AxiConfig.ID_WIDTH.check("AxiCreditWrapper", "masterIdWidth", masterIdWidth);
            AxiBridge.Config.PAIRS.check("AxiCreditWrapper", "pairs", pairs);
        }

        /** One pair. */
        public Config(AxiConfig axi, int masterIdWidth, AxiCredits slave, AxiCredits master) {
            this(axi, masterIdWidth, slave, master, 1);
        }

        public List<AxiCredits.Loop> loops() {
            return AxiCredits.loops(axi, masterIdWidth, pairs, slave, master);
        }
    }

    /** The prefix of the credit form's ports, toward SUE. */
    public static final String SUE = "sue_";
    /**
     * The prefix of the loops' counters ({@code soc_s_aw_excess_returns}, {@code soc_m_w_overflow_beats}): a name
     * that starts with a channel's would read as part of its payload where the channel has a ready.
     */
    public static final String STATUS = "soc_";

    public AxiCreditWrapper(Config config) {
        super(config);
        for (AxiCredits.Loop loop : config.loops()) {
            if (loop.intoSue()) {
                send(loop);
            } else {
                receive(loop);
            }
        }
    }

    /** The SoC's beats toward SUE: ready while SUE's credits last. */
    private void send(AxiCredits.Loop loop) {
        CreditSender tx = child(loop.name() + "_tx", new CreditSender(new CreditSender.Config(loop.layout().width(),
                loop.credits())));
        Stream in = Stream.slave(this, loop.name(), loop.layout());
        in.translateInto(tx.in, in.payload());
        Flow.master(this, SUE + loop.name(), loop.layout()).drive(tx.out.valid(), tx.out.data());
        tx.creditReturn.set(in(SUE + loop.name() + "_credit", 1));
        exposeStatus(tx, STATUS + loop.name() + "_");
    }

    /** SUE's beats toward the SoC: buffered, offered with valid/ready, a credit back to SUE per beat taken. */
    private void receive(AxiCredits.Loop loop) {
        CreditReceiver rx = child(loop.name() + "_rx", new CreditReceiver(new CreditReceiver.Config(
                loop.layout().width(), loop.credits())));
        Flow in = Flow.slave(this, SUE + loop.name(), loop.layout());
        rx.in.drive(in.valid(), in.payload());
        rx.out.translateInto(Stream.master(this, loop.name(), loop.layout()), rx.out.data());
        out(SUE + loop.name() + "_credit", 1).set(rx.creditReturn);
        exposeStatus(rx, STATUS + loop.name() + "_");
    }
}
