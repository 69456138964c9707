package org.sue.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A bound's values in words and checks; a rule read with the record's names, or rendered with other names. */
class ConfigExceptionTest {
    @Test
    void aBoundSaysWhatItAllows() {
        assertEquals("4..16384", Bound.of(4, 16384).text());
        assertEquals("256, 512 or 1024", Bound.powerOfTwo(256, 1024).text());
        assertEquals("a power of two from 16 to 65536", Bound.powerOfTwo(16, 65536).text());
        assertEquals("0 or 2..65536", Bound.of(2, 65536).orZero().text());
        assertEquals("1..3 (0 means none)", Bound.of(1, 3).because("0 means none").explained());
        assertEquals(List.of(0L, 1L, 2L, 4L), Bound.powerOfTwo(1, 4).orZero().values());
        assertTrue(Bound.of(2, 65536).orZero().contains(0));
        assertFalse(Bound.of(2, 65536).orZero().contains(1));
        assertFalse(Bound.powerOfTwo(256, 1024).contains(384));
        assertThrows(IllegalArgumentException.class, () -> Bound.powerOfTwo(3, 16));
    }

    @Test
    void aRefusalNamesTheRecordAndItsParameter() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> Bound.of(4, 16384).check("TransportConfig", "windowPdus", 1));
        assertEquals("TransportConfig windowPdus must be 4..16384, got 1", e.getMessage());
        assertEquals(List.of("windowPdus"), e.fields());
    }

    @Test
    void aRuleIsRenderedWithOtherNamesAndSeenFromAnEnclosingRecord() {
        ConfigException e = new ConfigException("TransportConfig", "{ackDelay} must be below {rtoCycles} (at most"
                + " 8191), got 9000");
        assertEquals("TransportConfig ackDelay must be below rtoCycles (at most 8191), got 9000", e.getMessage());
        assertEquals(List.of("ackDelay", "rtoCycles"), e.fields());
        assertEquals("ACK_DELAY must be below RTO_CYCLES (at most 8191), got 9000",
                e.rule(f -> f.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase()));
        ConfigException outer = e.within("SueInstance", "transport");
        assertEquals("SueInstance transport.ackDelay must be below transport.rtoCycles (at most 8191), got 9000",
                outer.getMessage());
        assertEquals(List.of("transport.ackDelay", "transport.rtoCycles"), outer.fields());
        assertEquals(e, outer.getCause());
    }
}
