package org.sue.axi;

import java.util.List;
import org.sue.core.Component;
import org.sue.core.Signal;

/**
 * An {@link AxiCreditPair} with its {@link AxiCreditWrapper} (docs/protocol.md 13.10): the ten credit loops closed
 * inside, so the pair shows standard valid/ready AXI4 again ({@code s_*} toward the SoC's master, {@code m_*} toward
 * its slave) with the FIFO interface and counters of {@link AxiBridge} under the same names: a drop-in for the bridge
 * that carries every beat through the spec's credit form. The pair's loop counters keep their names
 * ({@code s_aw_overflow_beats}, {@code s_b_credits}, ...), the wrapper's take the prefix {@code soc_}.
 */
public final class AxiWrappedPair extends Component {
    public AxiWrappedPair(AxiCreditPair.Config config) {
        super(config);
        AxiCreditPair pair = child("pair", new AxiCreditPair(config));
        AxiCreditWrapper wrapper = child("wrapper", new AxiCreditWrapper(config.wrapper()));
        // the pair's credit form meets the wrapper's ports of the same names after sue_
        List<Signal> inside = AxiCommandLoopback.joinByName(pair, wrapper, AxiCreditWrapper.SUE);
        wrapper.statusList().forEach(s -> inside.add(s.port()));
        exposeRest(pair, "", inside);
        exposeRest(wrapper, "", inside);
        exposeStatus(wrapper, "soc_");
    }
}
