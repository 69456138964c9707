package org.sue.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.sim.Simulator;

/**
 * Byte layouts: field positions in network order against bytes worked out by hand, and the hardware (simulated, bytes
 * in lane order) reading and building the same bytes as plain Java, on random headers.
 */
public class ByteLayoutTest {
    static final ByteLayout INNER = ByteLayout.of("inner", Layout.bits("a", 4), Layout.bits("b", 12));
    /** Fields across byte boundaries, in the middle of bytes, a nested header, a wide one. */
    static final ByteLayout HEADER = ByteLayout.of("header", Layout.bits("x", 3), Layout.bits("y", 10),
            Layout.bits("z", 3), ByteLayout.nested("n", INNER), Layout.bits("w", 8), Layout.bits("wide", 72));

    @Test
    void fieldsSitInWireOrderMostSignificantFirst() {
        assertEquals(14, HEADER.bytes());
        assertEquals(new ByteLayout.Slot("y", 3, 10), HEADER.slot("y"));
        assertEquals(2, HEADER.at("n"));
        assertEquals(new ByteLayout.Slot("n.b", 20, 12), HEADER.slot("n.b"));
        assertEquals("header {x@0.0[3], y@0.3[10], z@1.5[3], n.a@2.0[4], n.b@2.4[12], w@4, wide@5}",
                HEADER.toString());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HEADER.at("n.b")).getMessage()
                .contains("not on a byte boundary"));

        // x = 101, y = 1010101011, z = 011 -> 1011 0101 0101 1011; a = 1100, b = 0x123; w = 0x7F
        byte[] b = new byte[HEADER.bytes() + 1];
        HEADER.set(b, 1, "x", 5);
        HEADER.set(b, 1, "y", 0x2AB);
        HEADER.set(b, 1, "z", 3);
        HEADER.set(b, 1, "n.a", 0xC);
        HEADER.set(b, 1, "n.b", 0x123);
        HEADER.set(b, 1, "w", 0x7F);
        HEADER.setBytes(b, 1, "wide", HexFormat.of().parseHex("0102030405060708f9"));
        assertEquals("00b55bc1237f0102030405060708f9", HexFormat.of().formatHex(b));
        assertEquals(0x2AB, HEADER.get(b, 1, "y"));
        assertEquals(0x123, HEADER.get(b, 1, "n.b"));
        HEADER.set(b, 1, "y", 0);
        assertEquals("00a003c1237f", HexFormat.of().formatHex(b).substring(0, 12), "the neighbours stay");
        assertArrayEquals(HexFormat.of().parseHex("0102030405060708f9"), HEADER.getBytes(b, 1, "wide"));
    }

    @Test
    void misuseNamesTheFieldAndTheLine() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ByteLayout.of("odd", Layout.bits("x", 7)))
                .getMessage().contains("not whole bytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HEADER.set(new byte[14], 0, "y", 1024))
                .getMessage().contains("'y' of byte layout 'header' is 10 bits"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HEADER.get(new byte[14], 0, "wide"))
                .getMessage().contains("use getBytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HEADER.getBytes(new byte[14], 0, "y"))
                .getMessage().contains("not whole bytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HEADER.slot("n.c")).getMessage()
                .contains("no field 'c'"));
        HdlException outside = assertThrows(HdlException.class, () -> Design.elaborate(new Component() {
            {
                out("o", 8).set(HEADER.get(in("beat", 32), -1, "w"));
                out("p", 3).set(HEADER.get(in("beat2", 32), 0, "x"));
                out("q", 12).set(HEADER.get(in("beat3", 32), -2, "n.b"));
                out("r", 10).set(HEADER.get(in("beat4", 32), 3, "y"));
            }
        }));
        assertTrue(outside.getMessage().contains("field 'y' of byte layout 'header' (bytes 0..1 of a header at byte 3)")
                && outside.getMessage().contains("ByteLayoutTest.java"), outside.getMessage());
        HdlException width = assertThrows(HdlException.class, () -> Design.elaborate(new Component() {
            {
                out("o", 8 * HEADER.bytes()).set(HEADER.lanes().set("y", in("y", 9)).build());
            }
        }));
        assertTrue(width.getMessage().contains("field 'y' of byte layout 'header' is 10 bits"), width.getMessage());
    }

    /**
     * {@code in_lanes}: a header in lane order; {@code f_<field>}: its fields read in hardware; {@code v_<field>}: field
     * values, {@code built}: the header built from them; {@code patched}: {@code in_lanes} with its last field
     * replaced by {@code v_last}, through a beat that starts one byte into the header (when the field is there).
     */
    static final class Hardware extends Component {
        Hardware(ByteLayout l) {
            Port lanes = in("in_lanes", 8 * l.bytes());
            ByteLayout.Lanes built = l.lanes();
            List<ByteLayout.Slot> fields = l.fields();
            for (ByteLayout.Slot s : fields) {
                out("f_" + portName(s), s.width()).set(l.get(lanes, s.path()));
                built.set(s.path(), in("v_" + portName(s), s.width()));
            }
            out("built", 8 * l.bytes()).set(built.build());
            ByteLayout.Slot last = fields.get(fields.size() - 1);
            if (last.firstByte() > 0) {
                Expr tail = lanes.bits(lanes.width() - 1, 8); // from header byte 1 on
                out("patched", tail.width()).set(l.patch(tail, -1).set(last.path(), in("v_last", last.width()))
                        .build());
            }
        }
    }

    static String portName(ByteLayout.Slot s) {
        return s.path().replace('.', '_');
    }

    /** Bytes as a lane-ordered number: byte i in bits [8i+7:8i]. */
    static BigInteger lanes(byte[] b) {
        byte[] msbFirst = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            msbFirst[b.length - 1 - i] = b[i];
        }
        return new BigInteger(1, msbFirst);
    }

    static BigInteger field(ByteLayout l, byte[] b, ByteLayout.Slot s) {
        return s.width() <= 63 ? BigInteger.valueOf(l.get(b, 0, s.path()))
                : new BigInteger(1, l.getBytes(b, 0, s.path()));
    }

    static void setField(ByteLayout l, byte[] b, ByteLayout.Slot s, BigInteger v) {
        if (s.width() <= 63) {
            l.set(b, 0, s.path(), v.longValueExact());
        } else {
            byte[] raw = v.toByteArray();
            byte[] exact = new byte[s.width() / 8];
            int n = Math.min(raw.length, exact.length);
            System.arraycopy(raw, raw.length - n, exact, exact.length - n, n);
            l.setBytes(b, 0, s.path(), exact);
        }
    }

    /**
     * On {@code rounds} random headers: every field the hardware reads is the one plain Java reads, the header the
     * hardware builds from random field values is the one plain Java writes, and a patch of the last field through a
     * beat that starts inside the header changes that field only.
     */
    public static void assertHardwareAgreesWithBytes(ByteLayout l, long seed, int rounds) {
        Simulator sim = Simulator.compile(Design.elaborate(new Hardware(l)));
        List<ByteLayout.Slot> fields = l.fields();
        ByteLayout.Slot last = fields.get(fields.size() - 1);
        Random rnd = new Random(seed);
        for (int r = 0; r < rounds; r++) {
            byte[] header = new byte[l.bytes()];
            rnd.nextBytes(header);
            sim.poke("in_lanes", lanes(header));
            byte[] expected = new byte[l.bytes()];
            for (ByteLayout.Slot s : fields) {
                assertEquals(field(l, header, s), sim.peekBig("f_" + portName(s)), l.name() + " " + s.path());
                BigInteger v = new BigInteger(s.width(), rnd);
                sim.poke("v_" + portName(s), v);
                setField(l, expected, s, v);
                if (s == last && last.firstByte() > 0) {
                    sim.poke("v_last", v);
                }
            }
            assertEquals(lanes(expected), sim.peekBig("built"), l.name() + ": the header built");
            if (last.firstByte() > 0) {
                setField(l, header, last, field(l, expected, last));
                assertEquals(lanes(header).shiftRight(8), sim.peekBig("patched"), l.name() + ": patched");
            }
        }
    }

    @Test
    void hardwareReadsAndBuildsTheBytesPlainJavaDoes() {
        assertHardwareAgreesWithBytes(HEADER, 1, 300);
        assertHardwareAgreesWithBytes(INNER, 2, 100);
    }
}
