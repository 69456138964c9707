package org.sue.lib.crc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sue.lib.crc.model.CrcReference;
import org.sue.lib.crc.model.CrcReferenceTest;

/** The beat masks and unshift matrices against the bit-serial reference. */
class CrcMatricesTest {
    @Test
    void beatMasksMatchTheSerialRegister() {
        Random rnd = new Random(6);
        for (CrcParams p : new CrcParams[] {CrcParams.CRC32, CrcParams.CRC32C, CrcReferenceTest.BZIP2,
                CrcReferenceTest.XZ64, CrcReferenceTest.SMBUS8}) {
            for (int width : new int[] {8, 24, 64, 512, 1024}) {
                CrcMatrices m = new CrcMatrices(p, width);
                assertEquals((width + 63) / 64, m.dataWords());
                for (int t = 0; t < 20; t++) {
                    byte[] beat = new byte[width / 8];
                    rnd.nextBytes(beat);
                    long state = rnd.nextLong() & p.mask();
                    long expected = CrcReference.advance(p, state, beat, 0, beat.length);
                    BigInteger bus = BigInteger.ZERO;
                    long[] words = new long[m.dataWords()];
                    for (int i = beat.length - 1; i >= 0; i--) {
                        bus = bus.shiftLeft(8).or(BigInteger.valueOf(beat[i] & 0xff)); // lane 0 = low byte
                        words[i / 8] |= (long) (beat[i] & 0xff) << (8 * (i % 8));
                    }
                    assertEquals(expected, m.nextState(state, words), p + " width " + width);
                    assertEquals(expected, m.nextState(state, bus), p + " width " + width);
                }
                for (int i = 0; i < p.width(); i++) {
                    long[] w = m.dataMaskWords(i);
                    for (int k = 0; k < width; k++) {
                        assertEquals(((w[k >>> 6] >>> (k & 63)) & 1) != 0, m.dataMask(i).testBit(k));
                    }
                    assertEquals(0, m.dataMask(i).shiftRight(width).signum(), "no mask bits past the bus");
                }
            }
        }
    }

    @Test
    void unshiftUndoesZeroBytes() {
        Random rnd = new Random(8);
        for (CrcParams p : new CrcParams[] {CrcParams.CRC32, CrcReferenceTest.BZIP2, CrcReferenceTest.XZ64}) {
            for (int width : new int[] {8, 24, 64, 512, 1024}) {
                CrcMatrices m = new CrcMatrices(p, width);
                int lanes = width / 8;
                assertEquals(Math.max(1, (int) Math.ceil(Math.log(lanes) / Math.log(2) - 1e-9)),
                        m.unshiftStages(), "stages for " + lanes + " lanes");
                for (int s = 0; s < m.unshiftStages(); s++) {
                    long x = rnd.nextLong() & p.mask();
                    long shifted = CrcReference.advance(p, x, new byte[1 << s], 0, 1 << s);
                    assertEquals(x, m.unshift(s).apply(shifted), p + " stage " + s);
                    for (int i = 0; i < p.width(); i++) {
                        assertEquals(m.unshift(s).row(i), m.unshiftMask(s, i));
                    }
                }
            }
        }
    }
}
