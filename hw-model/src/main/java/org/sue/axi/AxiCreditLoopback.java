package org.sue.axi;

import java.util.List;
import org.sue.cmd.CommandLoopback;
import org.sue.core.Component;
import org.sue.core.Signal;

/**
 * {@link AxiCommandLoopback} with the pair in the spec's credit form: an {@link AxiWrappedPair} (the bridge, a credit
 * loop on each of its ten channels, and the SoC's side of every loop) on SUE's command path closed on itself. Every
 * beat of every AXI4 channel crosses its credit loop on the way in and out, so one design carries the credit form
 * end to end without a network, for tests and golden vectors. Ports as {@link AxiCommandLoopback}'s, plus the loops'
 * counters ({@code sue_s_aw_overflow_beats}, ..., {@code soc_s_aw_excess_returns}, ...).
 */
public final class AxiCreditLoopback extends Component {
    public record Config(AxiCreditPair.Config pair, CommandLoopback.Config sue) {
        public Config {
            if (pair == null || sue == null) {
                throw new IllegalArgumentException("AxiCreditLoopback pair and sue must be given");
            }
        }
    }

    public AxiCreditLoopback(Config config) {
        super(config);
        AxiWrappedPair pair = child("pair", new AxiWrappedPair(config.pair()));
        CommandLoopback sue = child("sue", new CommandLoopback(config.sue()));
        List<Signal> inside = AxiCommandLoopback.onCommandPath(pair, sue);
        exposeRest(pair, "", inside);
        exposeRest(sue, "sue_", inside);
    }
}
