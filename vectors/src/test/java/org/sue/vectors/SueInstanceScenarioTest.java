package org.sue.vectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sue.instance.tb.XpuSide;
import org.sue.sim.Simulator;

/**
 * The instance's golden scenario covers what it is there for: by its last cycle commands were delivered both ways,
 * intact and in order so far, and the recorded instance retransmitted (after NACKs, again after a NACK during a
 * go-back, and after a timeout), NACKed gaps and dropped frames with a bad FCS.
 */
class SueInstanceScenarioTest {
    @Test
    void theRecordedInstanceRetransmitsNacksAndDelivers() {
        GoldenScenario s = GoldenScenarios.byName("sue_instance_w512_d16");
        SueInstancePeerTraffic stimulus = (SueInstancePeerTraffic) s.stimulus().get();
        try (Simulator sim = Simulator.compile(GoldenFiles.elaborate(s))) {
            GoldenFiles.run(s, sim, stimulus);
        }
        XpuSide local = stimulus.local();
        XpuSide peer = stimulus.peer();
        String state = "\n  " + local.state() + "\n  " + peer.state();
        assertTrue(local.rx().delivered().size() >= 100 && peer.rx().delivered().size() >= 100,
                "commands delivered both ways" + state);
        assertTrue(local.deliveredIntact(false) && peer.deliveredIntact(false),
                "what arrived is, per VC, the start of what was sent" + state);
        assertTrue(local.counter("tp_tx_retransmitted_pdus") > 0, "retransmitted" + state);
        assertTrue(local.counter("tp_tx_nacks_received") > 0, "NACKs received" + state);
        assertTrue(local.counter("tp_tx_timeouts") > 0, "a timeout" + state);
        assertTrue(local.counter("tp_tx_go_back_restarts") > 0, "a go-back restarted by a NACK" + state);
        assertTrue(local.counter("tp_rx_nacks_sent") > 0, "gaps NACKed" + state);
        assertTrue(local.counter("tp_rx_out_of_order_dropped") > 0, "PDUs after a gap dropped" + state);
        assertTrue(local.counter("net_drops_bad_fcs") > 0, "frames with a bad FCS dropped" + state);
        assertTrue(local.counter("tp_tx_ack_only_sent") > 0 && local.counter("tp_rx_ack_only_received") > 0,
                "ACK-only PDUs both ways" + state);
    }
}
