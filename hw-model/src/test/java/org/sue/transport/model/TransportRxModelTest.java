package org.sue.transport.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sue.transport.TransportConfig;
import org.sue.transport.model.TransportRxModel.Decision;
import org.sue.transport.model.TransportRxModel.Reply;
import org.sue.transport.model.TransportRxModel.Verdict;

/** The receiver rules of docs/protocol.md section 6.4, worked by hand. */
class TransportRxModelTest {
    static final TransportConfig CONFIG = TransportConfig.builder(512).destinations(8).storeBytes(16384).windowPdus(64)
            .rtoCycles(512).ackDelay(40).ackCount(3).build();

    @Test
    void inOrderGapDuplicateAndReplies() {
        TransportRxModel m = new TransportRxModel(CONFIG);
        assertEquals(new Reply(0, 0), m.reply(2), "nothing received from 2: op none");
        assertEquals(new Decision(Verdict.ACCEPT, false, false), m.onPdu(2, 0, false));
        assertEquals(new Decision(Verdict.ACCEPT, false, false), m.onPdu(2, 1, false));
        assertTrue(m.owed(2));
        assertEquals(new Reply(1, 1), m.reply(2), "cumulative ACK of PSN 1");
        assertFalse(m.owed(2));
        // PSN 3 before 2: one NACK for 2, no second one for 4
        assertEquals(new Decision(Verdict.OUT_OF_ORDER, true, true), m.onPdu(2, 3, false));
        assertEquals(new Decision(Verdict.OUT_OF_ORDER, false, false), m.onPdu(2, 4, false));
        assertEquals(new Reply(2, 2), m.reply(2), "NACK: resend from 2");
        assertEquals(new Decision(Verdict.OUT_OF_ORDER, false, false), m.onPdu(2, 3, false));
        assertFalse(m.owed(2), "no NACK again until 2 arrives");
        assertEquals(new Reply(1, 1), m.reply(2), "the ACK is still of PSN 1");
        assertEquals(new Decision(Verdict.ACCEPT, false, false), m.onPdu(2, 2, false));
        assertEquals(new Decision(Verdict.OUT_OF_ORDER, true, true), m.onPdu(2, 9, false), "NACK again after an accept");
        assertEquals(new Decision(Verdict.ACCEPT, false, false), m.onPdu(2, 3, false), "the NACK owed is dropped");
        assertEquals(new Reply(1, 3), m.reply(2));
        // a duplicate owes a re-ACK
        assertEquals(new Decision(Verdict.DUPLICATE, false, false), m.onPdu(2, 0, false));
        assertTrue(m.owed(2));
        assertEquals(new Reply(1, 3), m.reply(2));
        assertEquals(4, m.accepted());
        assertEquals(4, m.outOfOrderDropped());
        assertEquals(1, m.duplicatesDropped());
        assertEquals(4, m.acksSent());
        assertEquals(1, m.nacksSent());
    }

    @Test
    void ackOnlyUnknownSourcesAndTheHalfWindow() {
        TransportRxModel m = new TransportRxModel(CONFIG);
        assertEquals(Verdict.ACK_ONLY, m.onPdu(1, 0, true).verdict());
        assertEquals(Verdict.UNKNOWN_SOURCE, m.onPdu(8, 0, false).verdict());
        assertEquals(Verdict.UNKNOWN_SOURCE, m.onPdu(1023, 0, true).verdict());
        assertFalse(m.owed(1));
        assertEquals(new Reply(0, 0), m.reply(9), "unknown XPU");
        // expected 0: 0x7FFF is later, 0x8000 earlier
        assertEquals(Verdict.OUT_OF_ORDER, m.onPdu(1, 0x7FFF, false).verdict());
        assertEquals(Verdict.DUPLICATE, m.onPdu(1, 0x8000, false).verdict());
        assertEquals(new Reply(2, 0), m.reply(1), "NACK owed with nothing accepted: rpsn 0");
        assertEquals(1, m.ackOnlyReceived());
        assertEquals(2, m.unknownSourceDropped());
    }

    @Test
    void psnWrapsAndAckCountMakesRequestsUrgent() {
        TransportRxModel m = new TransportRxModel(CONFIG);
        int urgent = 0;
        for (int psn = 0; psn < 65538; psn++) {
            Decision d = m.onPdu(4, psn & 0xFFFF, false);
            assertEquals(Verdict.ACCEPT, d.verdict());
            urgent += d.urgent() ? 1 : 0;
        }
        assertEquals(65538 / 3, urgent, "every third accept while the ACK stays owed");
        assertEquals(2, m.expected(4));
        assertEquals(new Reply(1, 1), m.reply(4));
        assertEquals(Verdict.DUPLICATE, m.onPdu(4, 0xFFFF, false).verdict(), "before the wrap is earlier");
        assertFalse(m.onPdu(4, 2, false).urgent(), "the count starts again when the ACK is owed again");
        assertFalse(m.onPdu(4, 3, false).urgent());
        assertTrue(m.onPdu(4, 4, false).urgent(), "a duplicate made the ACK owed: 3 accepts since then");
    }
}
