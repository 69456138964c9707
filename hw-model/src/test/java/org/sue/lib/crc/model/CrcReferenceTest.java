package org.sue.lib.crc.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.sue.lib.crc.CrcMatrices;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;

/** The reference CRC against published check values and the JDK's own CRC-32 / CRC-32C. */
public class CrcReferenceTest {
    public static final byte[] CHECK = "123456789".getBytes(StandardCharsets.US_ASCII);
    /** CRC-32/BZIP2: CRC-32's polynomial, not reflected; check 0xFC891918. */
    public static final CrcParams BZIP2 = new CrcParams(32, 0x04C11DB7L, 0xFFFFFFFFL, false, false, 0xFFFFFFFFL);
    /** CRC-64/XZ: full 64-bit register; check 0x995DC9BBDF1939FA. */
    public static final CrcParams XZ64 = new CrcParams(64, 0x42F0E1EBA9EA3693L, -1L, true, true, -1L);
    /** CRC-16/IBM-3740 (CCITT-FALSE): check 0x29B1. */
    public static final CrcParams CCITT16 = new CrcParams(16, 0x1021, 0xFFFF, false, false, 0);
    /** CRC-16/ARC: reflected, zero init; check 0xBB3D. */
    public static final CrcParams ARC16 = new CrcParams(16, 0x8005, 0, true, true, 0);
    /** CRC-8/SMBUS: check 0xF4. */
    public static final CrcParams SMBUS8 = new CrcParams(8, 0x07, 0, false, false, 0);

    public static CrcParams byName(String name) {
        return switch (name) {
            case "CRC32" -> CrcParams.CRC32;
            case "CRC32C" -> CrcParams.CRC32C;
            case "BZIP2" -> BZIP2;
            case "XZ64" -> XZ64;
            case "CCITT16" -> CCITT16;
            case "ARC16" -> ARC16;
            case "SMBUS8" -> SMBUS8;
            default -> throw new IllegalArgumentException(name);
        };
    }

    @Test
    void publishedCheckValues() {
        assertEquals(0xCBF43926L, CrcReference.compute(CrcParams.CRC32, CHECK));
        assertEquals(0xE3069283L, CrcReference.compute(CrcParams.CRC32C, CHECK));
        assertEquals(0xFC891918L, CrcReference.compute(BZIP2, CHECK), "CRC-32/BZIP2: non-reflected");
        assertEquals(0x995DC9BBDF1939FAL, CrcReference.compute(XZ64, CHECK), "CRC-64/XZ");
        assertEquals(0x29B1L, CrcReference.compute(CCITT16, CHECK), "CRC-16/IBM-3740");
        assertEquals(0xBB3DL, CrcReference.compute(ARC16, CHECK), "CRC-16/ARC");
        assertEquals(0xF4L, CrcReference.compute(SMBUS8, CHECK), "CRC-8/SMBUS");
    }

    @Test
    void randomMessagesMatchTheJdk() {
        Random rnd = new Random(5);
        for (int n = 0; n < 300; n++) {
            byte[] msg = new byte[n == 0 ? 0 : rnd.nextInt(3001)];
            rnd.nextBytes(msg);
            CRC32 a = new CRC32();
            a.update(msg);
            CRC32C c = new CRC32C();
            c.update(msg);
            assertEquals(a.getValue(), CrcReference.compute(CrcParams.CRC32, msg));
            assertEquals(c.getValue(), CrcReference.compute(CrcParams.CRC32C, msg));
        }
    }

    @Test
    void incrementalUpdatesEqualOneShot() {
        Random rnd = new Random(7);
        for (CrcParams p : new CrcParams[] {CrcParams.CRC32, BZIP2, XZ64, CCITT16}) {
            for (int t = 0; t < 50; t++) {
                byte[] msg = new byte[rnd.nextInt(500)];
                rnd.nextBytes(msg);
                CrcReference r = new CrcReference(p);
                long state = p.init();
                int off = 0;
                while (off < msg.length) {
                    int n = Math.min(msg.length - off, 1 + rnd.nextInt(70));
                    r.update(msg, off, n);
                    state = CrcReference.advance(p, state, msg, off, n);
                    off += n;
                }
                long whole = CrcReference.compute(p, msg);
                assertEquals(whole, r.value());
                assertEquals(whole, p.finish(state));
                r.reset();
                assertEquals(whole, r.update(msg).value(), "after reset");
            }
        }
    }

    @Test
    void invalidParametersNameTheParameter() {
        assertMessage("width", () -> new CrcParams(4, 0x3, 0, true, true, 0));
        assertMessage("width", () -> new CrcParams(65, 0x3, 0, true, true, 0));
        assertMessage("poly", () -> new CrcParams(32, 0x04C11DB6L, 0, true, true, 0));
        assertMessage("poly", () -> new CrcParams(16, 0x18005, 0, true, true, 0));
        assertMessage("init", () -> new CrcParams(16, 0x1021, 0x1FFFF, true, true, 0));
        assertMessage("xorOut", () -> new CrcParams(8, 0x07, 0, true, true, 0x100));
        assertMessage("dataWidth", () -> new CrcMatrices(CrcParams.CRC32, 60));
        assertMessage("dataWidth", () -> new CrcMatrices(CrcParams.CRC32, 0));
        assertMessage("dataWidth", () -> new ParallelCrc.Config(CrcParams.CRC32, 60));
        assertMessage("crc", () -> new ParallelCrc.Config(null, 64));
    }

    public static void assertMessage(String name, org.junit.jupiter.api.function.Executable e) {
        String msg = assertThrows(IllegalArgumentException.class, e).getMessage();
        assertTrue(msg.contains(name), "message names " + name + ": " + msg);
    }
}
