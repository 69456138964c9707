package org.sue.axi;

import java.util.ArrayList;
import java.util.List;
import org.sue.cmd.XpuCommandRx;
import org.sue.cmd.XpuCommandTx;
import org.sue.core.Component;
import org.sue.core.Signal;
import org.sue.core.Tag;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Channel;

/**
 * One AXI4 slave/master pair on the FIFO interface (docs/protocol.md 13): the SoC's requests into SUE and their
 * responses back ({@code s_aw}, {@code s_w}, {@code s_ar}, {@code s_b}, {@code s_r}), remote XPUs' requests to the
 * SoC's slave and its responses ({@code m_aw}, {@code m_w}, {@code m_b}, {@code m_ar}, {@code m_r}), and the FIFO
 * interface toward SUE ({@code tx_*}, {@code xpuid}, {@code tx_credit}, {@code tx_reset_out}; {@code rx_*},
 * {@code rx_credit}).
 *
 * <p>Stages: the request side's commands and the far master's responses share the transmit side, whole commands in
 * turn; the receive side hands VC0 (requests) to the far master and VC1 (responses) to the response side, each with
 * a FIFO and credits of its own; SUE's own answers go from the request side to the response side, and the response
 * side reports completions back.
 *
 * @param txCmdCredits  SUE's command credits per VC, as its command path starts them ({@code cmdCredits})
 * @param txDataCredits SUE's data credits per VC ({@code dataCredits})
 * @param rxCmdCredits  command credits per VC this pair gives SUE's receive side (its unpacker's {@code cmdCredits})
 * @param rxDataCredits data credits per VC given ({@code dataCredits} of the unpacker)
 */
public final class AxiBridge extends Component {
    public record Config(AxiConfig axi, @Tag("re") int remapEntries, @Tag("mp") int maxPartsPerEntry,
                         @Tag("k") int txCmdCredits, @Tag("kd") int txDataCredits, @Tag("rk") int rxCmdCredits,
                         @Tag("rkd") int rxDataCredits) {
        public Config {
            if (axi == null) {
                throw new IllegalArgumentException("AxiBridge axi must be given");
            }
            master(axi, remapEntries, maxPartsPerEntry);
            new XpuCommandTx.Config(axi.dataWidth(), txCmdCredits, txDataCredits);
            new XpuCommandRx.Config(axi.dataWidth(), rxCmdCredits, rxDataCredits, 2);
        }

        private static AxiRemoteMaster.Config master(AxiConfig axi, int entries, int parts) {
            return new AxiRemoteMaster.Config(axi, entries, parts);
        }

        /** The far master's 8 remap entries of 4 commands; the FIFO interface's credits as given. */
        public static Config of(AxiConfig axi, int txCmd, int txData, int rxCmd, int rxData) {
            return new Config(axi, 8, 4, txCmd, txData, rxCmd, rxData);
        }
    }

    public AxiBridge(Config config) {
        super(config);
        AxiConfig axi = config.axi();
        AxiRequestPacker requests = child("requests", new AxiRequestPacker(new AxiRequestPacker.Config(axi)));
        AxiResponseUnpacker responses = child("responses", new AxiResponseUnpacker(
                new AxiResponseUnpacker.Config(axi)));
        AxiRemoteMaster master = child("master", new AxiRemoteMaster(Config.master(axi, config.remapEntries(),
                config.maxPartsPerEntry())));
        XpuCommandTx tx = child("tx", new XpuCommandTx(new XpuCommandTx.Config(axi.dataWidth(),
                config.txCmdCredits(), config.txDataCredits())));
        XpuCommandRx rx = child("rx", new XpuCommandRx(new XpuCommandRx.Config(axi.dataWidth(),
                config.rxCmdCredits(), config.rxDataCredits(), 2)));
        // transmit: requests (VC0) and the far master's responses (VC1), whole commands in turn
        Arbiter.roundRobinPackets("tx_arb", List.of(requests.cmd, master.rsp)).out().into(tx.cmd);
        // receive: requests of remote XPUs to the far master, responses to the response side
        rx.out.get(AxiConfig.REQUEST_VC).into(master.req);
        rx.out.get(AxiConfig.RESPONSE_VC).into(responses.rsp);
        requests.local.into(responses.local);
        responses.wdone.into(requests.wdone);
        responses.rdone.into(requests.rdone);
        List<Signal> inside = new ArrayList<>();
        for (Channel c : List.of(requests.cmd, requests.local, requests.wdone, requests.rdone, responses.rsp,
                responses.local, responses.wdone, responses.rdone, master.req, master.rsp, tx.cmd,
                rx.out.get(0), rx.out.get(1))) {
            inside.addAll(c.signals());
        }
        exposeRest(requests, "s_", inside);
        exposeRest(responses, "s_", inside);
        exposeRest(master, "m_", inside);
        exposeRest(tx, "", inside);
        exposeRest(rx, "rx_", inside);
    }
}
