package org.sue.vectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sue.instance.tb.AxiTwoXpuRun;
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
        Recorded run = runDelivering("sue_instance_w512_d16", 100);
        XpuSide local = run.local();
        XpuSide peer = run.peer();
        String state = run.state();
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

    /**
     * The AXI4 instance with 2 ports whose peer stops twice: the recorded side gave up on the connection its requests
     * are pinned to, answered SLVERR to writes and to reads while they were outstanding, and dropped the late
     * responses.
     */
    @Test
    void theRecordedTwoPortAxiInstanceGivesUpOnItsDeadPeer() {
        GoldenScenario s = GoldenScenarios.byName("sue_axi_instance_p2_dead_peer_w512_d16");
        @SuppressWarnings("unchecked")
        RunStimulus<AxiTwoXpuRun> stimulus = (RunStimulus<AxiTwoXpuRun>) s.stimulus().get();
        try (Simulator sim = Simulator.compile(GoldenFiles.elaborate(s))) {
            GoldenFiles.run(s, sim, stimulus);
        }
        XpuSide a = stimulus.run().side("A");
        assertTrue(a.counter("tp_tx_destinations_lost") >= 2, "given up on the peer in both stops");
        assertTrue(a.counter("s_wr_abandoned") > 0 && a.counter("s_rd_abandoned") > 0, "writes and reads abandoned");
        assertTrue(a.counter("s_stale_responses") > 0, "late responses dropped");
        assertTrue(a.counter("p0_net_frames_good") > 0 && a.counter("p1_net_frames_good") > 0, "both ports carried"
                + " frames");
    }

    /** The PFC scenario: both sides asked for pauses, and the recorded side's FIFO never overflowed. */
    @Test
    void theRecordedPfcInstancePausesAndIsPaused() {
        Recorded run = runDelivering("sue_instance_pfc_w512_d16", 50);
        XpuSide local = run.local();
        XpuSide peer = run.peer();
        String state = run.state();
        assertTrue(local.counter("pfc_xoff_frames_sent") > 0 && peer.counter("pfc_xoff_frames_sent") > 0,
                "pauses asked for both ways" + state);
        assertTrue(local.counter("pfc_frames_sent") > 1, "the priorities' states changed" + state);
        assertTrue(local.counter("pfc_frames_received") > 0, "the peer's PFC frames obeyed" + state);
        assertTrue(local.counter("net_drops_overflow") == 0, "no receive FIFO overflow" + state);
    }

    /** The CBFC scenario: credits ran short, lost frames' credits came back, nothing overflowed. */
    @Test
    void theRecordedCbfcInstanceRunsOnCredits() {
        Recorded run = runDelivering("sue_instance_cbfc_w512_d16", 50);
        XpuSide local = run.local();
        XpuSide peer = run.peer();
        String state = run.state();
        long reserved = 0;
        for (int v = 0; v < 4; v++) {
            reserved += local.counter("cbfc_reserved_" + v);
        }
        assertTrue(local.counter("cbfc_s_p_cu") + reserved > 256 - 2 * 12, "the port's 256 credits ran short (less"
                + " than two largest frames left) at the end" + state);
        assertTrue(local.counter("cbfc_cc_updates_received") > 0 && local.counter("cbfc_cf_updates_received") > 0,
                "CC_Updates and CF_Updates received" + state);
        assertTrue(local.counter("cbfc_cc_credits_recovered") > 0 || peer.counter("cbfc_cc_credits_recovered") > 0,
                "credits of lost frames recovered" + state);
        assertTrue(local.counter("tp_tx_retransmitted_pdus") > 0, "go-backs started under credits" + state);
        assertTrue(local.counter("net_drops_overflow") == 0 && local.counter("cbfc_credit_overdraws") == 0,
                "no overflow, no overdraw" + state);
    }

    /**
     * LLR with PFC: LLR repaired frames on the link, the PFC frames went beside the replay buffer and were obeyed,
     * pauses both ways, no overflow.
     */
    @Test
    void theRecordedLlrPfcInstanceRepairsAndPauses() {
        Recorded run = runDelivering("sue_instance_llr_pfc_w512_d16", 50);
        XpuSide local = run.local();
        XpuSide peer = run.peer();
        String state = run.state();
        assertTrue(local.counter("llr_rx_replay") + peer.counter("llr_rx_replay") > 0, "LLR repaired frames" + state);
        assertTrue(local.counter("pfc_xoff_frames_sent") > 0 && peer.counter("pfc_xoff_frames_sent") > 0,
                "pauses asked for both ways" + state);
        assertTrue(local.counter("pfc_frames_received") > 0, "the peer's PFC frames obeyed" + state);
        assertTrue(local.counter("net_drops_overflow") == 0, "no receive FIFO overflow" + state);
    }

    /**
     * LLR with CBFC: LLR repaired frames, CC_Updates (numbered, replayed with the frames) and CF_Updates arrived, no
     * credit needed recovering, nothing overflowed.
     */
    @Test
    void theRecordedLlrCbfcInstanceRepairsAndRunsOnCredits() {
        Recorded run = runDelivering("sue_instance_llr_cbfc_w512_d16", 50);
        XpuSide local = run.local();
        XpuSide peer = run.peer();
        String state = run.state();
        assertTrue(local.counter("llr_rx_replay") + peer.counter("llr_rx_replay") > 0, "LLR repaired frames" + state);
        assertTrue(local.counter("cbfc_cc_updates_received") > 0 && local.counter("cbfc_cf_updates_received") > 0,
                "CC_Updates and CF_Updates received" + state);
        assertTrue(local.counter("cbfc_cc_credits_recovered") == 0 && peer.counter("cbfc_cc_credits_recovered") == 0,
                "no credit recovered: LLR lost no frame and no CC_Update overtook a replay" + state);
        assertTrue(local.counter("net_drops_overflow") == 0 && local.counter("cbfc_credit_overdraws") == 0,
                "no overflow, no overdraw" + state);
    }

    /**
     * Runs the scenario's stimulus against the instance for all its cycles and checks that at least {@code commands}
     * arrived each way, each side's the start of what the other sent, per VC.
     */
    private static Recorded runDelivering(String scenario, int commands) {
        GoldenScenario s = GoldenScenarios.byName(scenario);
        SueInstancePeerTraffic stimulus = (SueInstancePeerTraffic) s.stimulus().get();
        try (Simulator sim = Simulator.compile(GoldenFiles.elaborate(s))) {
            GoldenFiles.run(s, sim, stimulus);
        }
        XpuSide local = stimulus.local();
        XpuSide peer = stimulus.peer();
        String state = "\n  " + local.state() + "\n  " + peer.state();
        assertTrue(local.rx().delivered().size() >= commands && peer.rx().delivered().size() >= commands,
                "commands delivered both ways" + state);
        assertTrue(local.deliveredIntact(false) && peer.deliveredIntact(false),
                "what arrived is, per VC, the start of what was sent" + state);
        return new Recorded(local, peer, state);
    }

    /** Both XPU sides of a recorded scenario after its last cycle, and their state for failure messages. */
    private record Recorded(XpuSide local, XpuSide peer, String state) {
    }
}
