package org.sue.mgmt.tb;

import org.sue.mgmt.Access;
import org.sue.mgmt.RegisterMap;
import org.sue.mgmt.RegisterMap.Field;

/** Register maps for testing the register block: every access type, shared words, wide values. */
public final class ExampleMaps {
    private ExampleMaps() { }

    /** One of each kind: RO, RW, RC, W1C, WO, POP, CNT fields, several fields in one word, a 64-bit RO and a 48-bit RW value. */
    public static RegisterMap everyAccess() {
        return RegisterMap.builder("example")
                .block("id", "Identity")
                .value("version", 32, Access.RO, 0, "Version the hardware reports")
                .value("uptime", 64, Access.RO, 0, "A 64-bit count: its lowest word's read copies its high word")
                .block("ctrl", "Control")
                .register("mode", "Fields of several kinds in one word",
                        new Field("enable", 0, 1, Access.RW, 1, "Enable"),
                        new Field("level", 4, 12, Access.RW, 0x5a5, "A 12-bit setting across a byte boundary"),
                        new Field("status", 16, 4, Access.RO, 0, "A status the hardware drives"),
                        new Field("kick", 24, 8, Access.WO, 0, "A pulse to the hardware"))
                .value("mac", 48, Access.RW, 0x0200_0000_0001L, "A 48-bit address written as one value")
                .value("limit", 32, Access.RW, 0xffff, "A full-word setting")
                .block("events", "Events")
                .register("sticky", "Event bits",
                        new Field("w1c", 0, 8, Access.W1C, 0, "Cleared by writing 1"),
                        new Field("rc", 8, 8, Access.RC, 0, "Cleared by a read"))
                .value("start", 1, Access.WO, 0, "Starts something")
                .value("head", 32, Access.POP, 0, "The head of a queue: a read takes it")
                .value("hits", 32, Access.CNT, 0, "A count the hardware keeps; a write clears it")
                .build();
    }
}
