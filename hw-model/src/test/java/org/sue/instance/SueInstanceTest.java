package org.sue.instance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.SmallInstance;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.net.HeaderFormat;

class SueInstanceTest {
    /** The XPU interface's outputs (spec Tables 1 and 2): neither a stream nor status. */
    static final java.util.Set<String> XPU_OUTPUTS = java.util.Set.of("tx_credit", "tx_reset_out", "rx_cycle",
            "rx_valid", "rx_vc", "rx_xpuid", "rx_control", "rx_data", "rx_reset_out");

    /**
     * Every output of the instance is a member of a stream or flow, an output of the XPU interface, or a status its
     * block declared (a counter, level, state or flag with a description), gathered from the blocks' status lists;
     * this is what a register map is made from.
     */
    @Test
    void everyOtherOutputIsADescribedStatusOfTheStatusList() {
        for (SueInstance.Config c : java.util.List.of(SueInstance.Config.defaults(), SmallInstance.withLlr(
                HeaderFormat.ETH_IPV4_UDP, 80), SmallInstance.withPfc(HeaderFormat.ETH_IPV4_UDP))) {
            SueInstance top = new SueInstance(c);
            org.sue.core.Design.elaborate(top);
            java.util.Set<org.sue.core.Port> streams = new java.util.HashSet<>();
            top.payloads().forEach((valid, payload) -> {
                streams.add(valid);
                streams.addAll(payload);
            });
            java.util.Set<String> status = new java.util.HashSet<>();
            for (org.sue.core.Status st : top.statusList()) {
                assertTrue(status.add(st.name()), "listed once: " + st.name());
                assertTrue(st.description().length() > 10, st.name() + ": " + st.description());
                assertEquals(top, st.port().owner(), st.name() + " is a port of the instance");
            }
            for (org.sue.core.Port p : top.ports()) {
                if (!p.isInput() && !streams.contains(p) && !p.name().endsWith("ready")) {
                    assertTrue(status.contains(p.name()) != XPU_OUTPUTS.contains(p.name()), p.name()
                            + " is either a status or an XPU output");
                }
            }
            assertTrue(status.containsAll(java.util.List.of("net_frames_good", "tp_tx_timeouts", "tp_rx_accepted",
                    "rx_commands_delivered", "commands_accepted")), status.toString());
        }
    }

    @Test
    void commandsCrossALosslessLinkBothWays() {
        TwoXpuRun.Result r = new TwoXpuRun(SmallInstance.config(HeaderFormat.ETH_IPV4_UDP), 40,
                LinkModel.Faults.NONE, 1, null).run(400, 400, 20_000, null);
        check(r);
        assertEquals(0, r.aToB().retransmitted() + r.bToA().retransmitted(), "nothing to retransmit");
    }

    @Test
    void nothingIsLostOverAFaultyLink() {
        LinkModel.Faults faults = LinkModel.Faults.loss(0.02).withBitErrors(0.02).withMacErrors(0.01)
                .withBursts(0.005, 4).withOutage(30_000, 5_000);
        TwoXpuRun.Result r = new TwoXpuRun(SmallInstance.config(HeaderFormat.ETH_IPV4_UDP), 80, faults, 7, null)
                .run(1500, 1500, 60_000, null);
        check(r);
        assertTrue(r.aToB().framesLost() > 0 && r.aToB().framesDamaged() > 0, "the link lost and damaged frames");
        assertTrue(r.aToB().retransmitted() + r.bToA().retransmitted() > 0, "PDUs were retransmitted");
        assertTrue(r.aToB().timeouts() + r.bToA().timeouts() > 0, "the outage forced timeouts");
        assertTrue(r.aToB().nacksSent() + r.bToA().nacksSent() > 0, "gaps were NACKed");
    }

    /**
     * With Link Layer Retry beneath it, the same faulty link (losses, bit errors, MAC errors, bursts) costs the
     * transport nothing: LLR replays on the link, every frame reaches the framing once and in order, so no PDU is
     * retransmitted end to end and no timeout fires.
     */
    @Test
    void linkLayerRetryRepairsTheLinkBeneathTheTransport() {
        LinkModel.Faults faults = LinkModel.Faults.loss(0.02).withBitErrors(0.02).withMacErrors(0.01)
                .withBursts(0.005, 4);
        TwoXpuRun.Result r = new TwoXpuRun(SmallInstance.withLlr(HeaderFormat.ETH_IPV4_UDP, 80), 80, faults, 7, null)
                .run(1500, 1500, 60_000, null);
        check(r);
        assertTrue(r.aToB().framesLost() > 0 && r.aToB().framesDamaged() > 0, "the link lost and damaged frames");
        assertEquals(0, r.aToB().retransmitted() + r.bToA().retransmitted(), "no end-to-end retransmission");
        assertEquals(0, r.aToB().timeouts() + r.bToA().timeouts(), "no transport timeout");
        assertEquals(0, r.aToB().nacksSent() + r.bToA().nacksSent(), "no gap reached the transport");
    }

    /**
     * Through a switch (a {@link org.sue.instance.tb.Relay}: two hops of 40 cycles each way, 300 cycles across), LLR
     * works hop by hop: both faulty hops repair their own losses, so the transport, whose round trip is four hops and
     * the fabric twice, retransmits nothing. Without LLR the same run delivers everything through the transport's
     * go-back-N, and the relay drops exactly the frames that reached it damaged or flagged.
     */
    @Test
    void throughARelayEachHopRepairsItsOwnLosses() {
        LinkModel.Faults faults = LinkModel.Faults.loss(0.01).withBitErrors(0.01).withMacErrors(0.005);
        TwoXpuRun llr = TwoXpuRun.throughRelay(SmallInstance.withLlr(HeaderFormat.ETH_IPV4_UDP, 40), 40, 300, faults,
                3);
        TwoXpuRun.Result r = llr.run(1000, 1000, 60_000, null);
        check(r);
        assertTrue(r.aToB().latency(0) >= 2 * 40 + 300, "commands cross both hops and the fabric");
        assertTrue(r.aToB().framesLost() > r.aToB().frames() / 100 / 2, "frames lost on the way");
        assertEquals(0, r.aToB().retransmitted() + r.bToA().retransmitted(), "no end-to-end retransmission");
        assertEquals(0, r.aToB().nacksSent() + r.bToA().nacksSent(), "no gap reached the transport");

        TwoXpuRun plain = TwoXpuRun.throughRelay(SmallInstance.config(HeaderFormat.ETH_IPV4_UDP), 40, 300, faults, 3);
        r = plain.run(1000, 1000, 60_000, null);
        check(r);
        assertTrue(r.aToB().retransmitted() > 0 && r.bToA().retransmitted() > 0, "the transport repaired the losses");
        assertEquals(plain.relayInboundBad(), plain.relayDropped(), "the relay dropped the bad frames it received");
    }

    /** Seed 15 used to strand a new PDU offered to the arbiter when its connection started a go-back (a hang). */
    @Test
    void aGoBackNeverStrandsAPduOfferedToTheOutput() {
        LinkModel.Faults faults = LinkModel.Faults.loss(0.01).withBitErrors(0.01).withBursts(0.002, 8);
        check(new TwoXpuRun(SmallInstance.config(HeaderFormat.ETH_IPV4_UDP), 100, faults, 15, null)
                .run(4000, 4000, 30_000, null));
    }

    @Test
    void afhGen2InstanceWorksToo() {
        TwoXpuRun.Result r = new TwoXpuRun(SmallInstance.config(HeaderFormat.AFH_GEN2_COMPRESSED), 20,
                LinkModel.Faults.loss(0.02), 3, null).run(300, 300, 30_000, null);
        check(r);
    }

    @Test
    void configurationErrorsNameTheParameter() {
        SueInstance.Config c = SmallInstance.config(HeaderFormat.ETH_IPV4_UDP);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withTransport(
                c.transport().toBuilder().busWidth(1024).storeBytes(16384 * 2).build())).getMessage()
                .contains("transport.busWidth"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withTransport(
                c.transport().toBuilder().destinations(32).build())).getMessage()
                .contains("transport.destinations"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withTransport(
                c.transport().toBuilder().ports(4).build())).getMessage() // 4 ports of 128 bits
                .contains("transport.ports must leave each port a bus of"));
    }

    /** Every command delivered once, intact, in order per VC; credits back; stores empty; counters agree. */
    static void check(TwoXpuRun.Result r) {
        assertTrue(r.intact(), "every command delivered once, unchanged, in order per VC");
        assertTrue(r.creditsBack(), "every XPU credit back");
        assertTrue(r.storesEmpty(), "both retransmit stores empty");
        assertNull(r.countersMismatch());
        assertEquals(r.aToB().commands(), r.aToB().delivered());
        assertEquals(r.bToA().commands(), r.bToA().delivered());
    }
}
