package org.sue.axi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sue.cmd.CommandTable;
import org.sue.core.ConfigException;

class AxiConfigTest {
    @Test
    void theCommandTableFitsTheControlLayouts() {
        AxiConfig axi = AxiConfig.defaults(512, 1024);
        CommandTable t = axi.commandTable();
        // docs/protocol.md 13.2: 84 request bits in 6 units, either response in 1
        assertEquals(84, axi.requestControl().width());
        assertEquals(12, t.controlBytes(AxiConfig.WRITE));
        assertEquals(12, t.controlBytes(AxiConfig.READ));
        assertEquals(12, t.controlBytes(AxiConfig.WRITE_STROBED));
        assertEquals(2, t.controlBytes(AxiConfig.WRITE_RESPONSE));
        assertEquals(2, t.controlBytes(AxiConfig.READ_RESPONSE));
        assertTrue(t.hasData(AxiConfig.WRITE) && t.hasData(AxiConfig.READ_RESPONSE) && !t.hasData(AxiConfig.READ));
        assertEquals(4, axi.partBeats());
        // the widest request the rule allows fills the 14 control bytes
        AxiConfig wide = new AxiConfig(1024, 64, 6, 10, 1024, true, 0, 15);
        assertEquals(CommandTable.MAX_CONTROL_UNITS * 2, wide.commandTable().controlBytes(AxiConfig.WRITE));
    }

    @Test
    void invalidParametersNameTheirParameters() {
        assertTrue(assertThrows(ConfigException.class, () -> new AxiConfig(384, 48, 4, 0, 8, false, 36, 8))
                .getMessage().contains("dataWidth"));
        assertTrue(assertThrows(ConfigException.class, () -> new AxiConfig(512, 64, 8, 12, 8, false, 36, 8))
                .fields().containsAll(java.util.List.of("addrWidth", "idWidth", "userWidth")));
        assertTrue(assertThrows(ConfigException.class, () -> new AxiConfig(512, 48, 4, 8, 8, true, 0, 8))
                .fields().contains("userWidth"));
        assertTrue(assertThrows(ConfigException.class, () -> new AxiConfig(512, 40, 4, 0, 8, false, 31, 8))
                .getMessage().contains("dstLsb"));
        assertTrue(assertThrows(ConfigException.class, () -> new AxiConfig(512, 48, 4, 0, 8, false, 36, 16))
                .getMessage().contains("maxOutstanding"));
        assertTrue(assertThrows(ConfigException.class, () -> new AxiConfig(512, 48, 9, 0, 8, false, 36, 8))
                .getMessage().contains("idWidth"));
    }
}
