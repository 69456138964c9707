package org.sue.lib.crc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.lib.crc.model.CrcReferenceTest;

class Gf2MatrixTest {
    private static Gf2Matrix random(Random rnd, int n) {
        long[] rows = new long[n];
        long mask = n == 64 ? -1L : (1L << n) - 1;
        for (int i = 0; i < n; i++) {
            rows[i] = rnd.nextLong() & mask;
        }
        return new Gf2Matrix(rows);
    }

    @Test
    void inverseTimesMatrixIsIdentity() {
        Random rnd = new Random(11);
        int invertible = 0;
        for (int t = 0; t < 400; t++) {
            int n = new int[] {1, 2, 8, 16, 32, 63, 64}[t % 7];
            Gf2Matrix m = random(rnd, n);
            Gf2Matrix inv;
            try {
                inv = m.inverse();
            } catch (ArithmeticException singular) {
                continue;
            }
            invertible++;
            assertEquals(Gf2Matrix.identity(n), inv.multiply(m));
            assertEquals(Gf2Matrix.identity(n), m.multiply(inv));
        }
        assertTrue(invertible > 50, "enough random matrices were invertible: " + invertible);
        for (CrcParams p : new CrcParams[] {CrcParams.CRC32, CrcParams.CRC32C, CrcReferenceTest.XZ64,
                CrcReferenceTest.SMBUS8}) {
            Gf2Matrix a = CrcMatrices.zeroBitMatrix(p);
            assertEquals(Gf2Matrix.identity(p.width()), a.inverse().multiply(a), p.toString());
        }
    }

    @Test
    void singularMatrixThrows() {
        assertThrows(ArithmeticException.class, () -> new Gf2Matrix(new long[] {0b011, 0b110, 0b101}).inverse());
        assertThrows(ArithmeticException.class, () -> new Gf2Matrix(new long[] {1, 0}).inverse());
    }

    @Test
    void multiplyApplyAndPowerAgree() {
        Random rnd = new Random(12);
        for (int t = 0; t < 100; t++) {
            int n = 1 + rnd.nextInt(64);
            Gf2Matrix a = random(rnd, n);
            Gf2Matrix b = random(rnd, n);
            long x = rnd.nextLong() & (n == 64 ? -1L : (1L << n) - 1);
            assertEquals(a.apply(b.apply(x)), a.multiply(b).apply(x));
            Gf2Matrix p = Gf2Matrix.identity(n);
            for (int e = 0; e < 7; e++) {
                assertEquals(p, a.power(e), "power " + e);
                p = p.multiply(a);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> new Gf2Matrix(new long[65]));
    }
}
