package org.sue.lib.crc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The reference CRC against published check values and the JDK's own CRC-32 / CRC-32C. */
class CrcReferenceTest {
    static final byte[] CHECK = "123456789".getBytes(StandardCharsets.US_ASCII);
    static final CrcParams BZIP2 = new CrcParams(32, 0x04C11DB7L, 0xFFFFFFFFL, false, false, 0xFFFFFFFFL);

    @Test
    void publishedCheckValues() {
        assertEquals(0xCBF43926L, CrcReference.compute(CrcParams.CRC32, CHECK));
        assertEquals(0xE3069283L, CrcReference.compute(CrcParams.CRC32C, CHECK));
        assertEquals(0xFC891918L, CrcReference.compute(BZIP2, CHECK), "CRC-32/BZIP2: non-reflected");
    }

    @Test
    void randomMessagesMatchTheJdk() {
        Random rnd = new Random(5);
        for (int n = 0; n < 300; n++) {
            byte[] msg = new byte[rnd.nextInt(3000)];
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
    void beatMasksMatchTheSerialRegister() {
        Random rnd = new Random(6);
        for (CrcParams p : new CrcParams[] {CrcParams.CRC32, CrcParams.CRC32C, BZIP2}) {
            for (int width : new int[] {8, 64, 512, 1024}) {
                CrcMatrices m = new CrcMatrices(p, width);
                for (int t = 0; t < 20; t++) {
                    byte[] beat = new byte[width / 8];
                    rnd.nextBytes(beat);
                    long state = rnd.nextLong() & p.mask();
                    CrcReference r = new CrcReference(new CrcParams(p.width(), p.poly(), state, p.reflectIn(),
                            p.reflectOut(), p.xorOut()));
                    r.update(beat, 0, beat.length);
                    BigInteger bus = BigInteger.ZERO;
                    for (int i = beat.length - 1; i >= 0; i--) {
                        bus = bus.shiftLeft(8).or(BigInteger.valueOf(beat[i] & 0xff)); // lane 0 = low byte
                    }
                    assertEquals(r.register(), m.nextState(state, bus), p + " width " + width);
                }
            }
        }
    }

    @Test
    void unshiftUndoesZeroBytes() {
        CrcMatrices m = new CrcMatrices(CrcParams.CRC32, 1024);
        Gf2Matrix zeroByte = CrcMatrices.zeroBitMatrix(CrcParams.CRC32).power(8);
        long x = 0x12345678L;
        for (int s = 0; s < m.unshiftStages(); s++) {
            assertEquals(x, m.unshift(s).apply(zeroByte.power(1L << s).apply(x)));
        }
        Gf2Matrix a = CrcMatrices.zeroBitMatrix(CrcParams.CRC32C);
        assertEquals(Gf2Matrix.identity(32), a.inverse().multiply(a));
    }

    @Test
    void invalidParametersNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new CrcParams(32, 0x04C11DB6L, 0, true, true, 0)).getMessage().contains("poly"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new CrcParams(4, 0x3, 0, true, true, 0)).getMessage().contains("width"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new CrcParams(16, 0x1021, 0x1FFFF, true, true, 0)).getMessage().contains("init"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new ParallelCrc.Config(CrcParams.CRC32, 60)).getMessage().contains("dataWidth"));
    }
}
