package org.sue.axi;

import java.util.List;
import org.sue.core.Component;
import org.sue.core.Signal;
import org.sue.core.Status;

/**
 * An {@link AxiCreditPair} with its {@link AxiCreditWrapper} (docs/protocol.md 13.10): the ten credit loops closed
 * inside, so the pair shows standard valid/ready AXI4 again ({@code s_*} toward the SoC's master, {@code m_*} toward
 * its slave) with the FIFO interface and counters of {@link AxiBridge} under the same names: a drop-in for the bridge
 * that carries every beat through the spec's credit form. The pair's loop counters take the prefix {@code sue_}
 * ({@code sue_s_aw_overflow_beats}, {@code sue_s_b_credits}, ...), the wrapper's are its {@code soc_} ones (a name
 * that starts with a channel's would read as part of its payload).
 */
public final class AxiWrappedPair extends Component {
    public AxiWrappedPair(AxiCreditPair.Config config) {
        super(config);
        AxiCreditPair pair = child("pair", new AxiCreditPair(config));
        AxiCreditWrapper wrapper = child("wrapper", new AxiCreditWrapper(config.wrapper()));
        // the pair's credit form meets the wrapper's ports of the same names after sue_
        List<Signal> inside = AxiCommandLoopback.joinByName(pair, wrapper, AxiCreditWrapper.SUE);
        // the loops' counters of the pair as the SUE end's, beside the wrapper's soc_ ones; the bridge's as they are
        for (Status st : pair.statusList()) {
            if (config.loops().stream().anyMatch(l -> st.port().name().startsWith(l.name() + "_"))) {
                exposeStatus(st.port(), AxiCreditWrapper.SUE + st.port().name(), st.kind(), st.description());
                inside.add(st.port());
            }
        }
        exposeRest(pair, "", inside);
        exposeRest(wrapper, "", inside);
    }
}
