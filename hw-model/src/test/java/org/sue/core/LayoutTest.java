package org.sue.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.sim.Simulator;

/** Layouts pack and unpack alike in hardware (simulated) and in plain Java, against hand-computed offsets. */
class LayoutTest {
    static final Layout CELL = Layout.of("cell_ref", Layout.bits("offset", 7), Layout.bits("cell", 12));
    static final Layout ROW = Layout.of("row", Layout.nested("head", CELL), Layout.bits("count", 9),
            Layout.bits("xoff", 1));

    record CellRef(int offset, int cell) {
    }

    record Row(CellRef head, int count, boolean xoff) {
    }

    @Test
    void offsetsFollowTheOrderFirstFieldLeastSignificant() {
        assertEquals(19, CELL.width());
        assertEquals(29, ROW.width());
        assertEquals(0, ROW.field("head").offset());
        assertEquals(19, ROW.field("count").offset());
        assertEquals(28, ROW.field("xoff").offset());
        assertEquals(7, ROW.field("head.cell").offset(), "a nested field's offset is within its own layout");
        assertEquals("row {xoff[28:28], count[27:19], head[18:0]}", ROW.toString());
    }

    @Test
    void plainJavaPackUnpackAgreesWithShiftsAndRecords() {
        Random rnd = new Random(1);
        for (int i = 0; i < 1000; i++) {
            int off = rnd.nextInt(128);
            int cell = rnd.nextInt(4096);
            int count = rnd.nextInt(512);
            boolean xoff = rnd.nextBoolean();
            long expected = off | (long) cell << 7 | (long) count << 19 | (xoff ? 1L << 28 : 0);
            long packed = ROW.word().set("head.offset", off).set("head.cell", cell).set("count", count)
                    .set("xoff", xoff ? 1 : 0).toLong();
            assertEquals(expected, packed);
            Row r = new Row(new CellRef(off, cell), count, xoff);
            assertEquals(BigInteger.valueOf(expected), ROW.pack(r));
            assertEquals(r, ROW.unpack(expected, Row.class));
            assertEquals(count, ROW.field("count").get(expected));
            assertEquals(cell, ROW.field("head.cell").get(ROW.field("head").get(expected)));
        }
    }

    /** Packs fields into a value and reads them back out, in hardware. */
    static final class RoundTrip extends Component {
        RoundTrip() {
            Port off = in("off", 7);
            Port cell = in("cell_in", 12);
            Port count = in("count", 9);
            Port row = out("row", ROW.width());
            Port cellBack = out("cell_back", 12);
            Port countBack = out("count_back", 9);
            Expr head = CELL.expr().set("offset", off).set("cell", cell).build();
            Expr packed = wire("row_value", ROW.expr().set("head", head).set("count", count).set("xoff", 1).build());
            row.set(packed);
            cellBack.set(ROW.get(packed, "head.cell"));
            countBack.set(ROW.field("count").of(packed));
        }
    }

    @Test
    void hardwareBuildsAndReadsTheSameBitsAsPlainJava() {
        Simulator sim = Simulator.compile(Design.elaborate(new RoundTrip()));
        Random rnd = new Random(2);
        for (int i = 0; i < 200; i++) {
            int off = rnd.nextInt(128);
            int cell = rnd.nextInt(4096);
            int count = rnd.nextInt(512);
            sim.poke("off", off);
            sim.poke("cell_in", cell);
            sim.poke("count", count);
            assertEquals(ROW.pack(new Row(new CellRef(off, cell), count, true)).longValue(), sim.peek("row"));
            assertEquals(cell, sim.peek("cell_back"));
            assertEquals(count, sim.peek("count_back"));
            sim.step();
        }
    }

    @Test
    void misuseIsRefusedNamingTheFieldAndTheLine() {
        assertThrows(IllegalArgumentException.class, () -> Layout.of("x", Layout.bits("a", 1), Layout.bits("a", 2)));
        assertThrows(IllegalArgumentException.class, () -> Layout.of("x", Layout.bits("BadName", 1)));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> ROW.field("nope"));
        assertTrue(missing.getMessage().contains("no field 'nope'"), missing.getMessage());
        IllegalArgumentException tooWide = assertThrows(IllegalArgumentException.class,
                () -> CELL.word().set("offset", 128));
        assertTrue(tooWide.getMessage().contains("cell_ref.offset is 7 bits"), tooWide.getMessage());
        HdlException width = assertThrows(HdlException.class, () -> new Component() {
            {
                CELL.expr().set("cell", in("c", 11));
            }
        });
        assertTrue(width.getMessage().contains("cell_ref.cell is 12 bits") && width.getMessage().contains("LayoutTest.java"),
                width.getMessage());
        HdlException notThisLayout = assertThrows(HdlException.class, () -> new Component() {
            {
                ROW.field("count").of(in("v", 20));
            }
        });
        assertTrue(notThisLayout.getMessage().contains("layout 'row' is 29"), notThisLayout.getMessage());
    }
}
