package org.sue.lib.crc.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.lib.crc.CrcParams;

/** The hardware algorithm (full-width unit + trailing-zero unshift), in plain Java, against the serial reference. */
class ParallelCrcModelTest {
    @ParameterizedTest
    @CsvSource({"CRC32,8", "CRC32,64", "CRC32,512", "CRC32,1024", "CRC32C,8", "CRC32C,64", "CRC32C,512",
            "CRC32C,1024", "BZIP2,8", "BZIP2,64", "BZIP2,512", "BZIP2,1024", "XZ64,64", "XZ64,1024", "CCITT16,512",
            "ARC16,24", "SMBUS8,1024", "CRC32,24", "CRC32,40", "CRC32,136"})
    void everyLengthMatchesTheReference(String name, int width) {
        CrcParams p = CrcReferenceTest.byName(name);
        ParallelCrcModel model = new ParallelCrcModel(p, width);
        int lanes = width / 8;
        Random rnd = new Random(name.hashCode() * 31L + width);
        List<Integer> lengths = new ArrayList<>(List.of(1, 2, 3, 4, lanes, 2 * lanes, 3 * lanes, lanes + 1,
                2 * lanes + 1, 9, 3000));
        if (lanes > 1) {
            lengths.add(lanes - 1);
            lengths.add(2 * lanes - 1);
        }
        for (int t = 0; t < 150; t++) {
            lengths.add(1 + rnd.nextInt(3000));
        }
        // every byte count of the last beat at least once
        for (int n = 1; n <= lanes; n++) {
            lengths.add(lanes + n);
        }
        for (int len : lengths) { // one model instance: frames back to back
            byte[] frame = new byte[len];
            rnd.nextBytes(frame);
            long expected = CrcReference.compute(p, frame);
            assertEquals(Long.toHexString(expected), Long.toHexString(model.frame(frame)), name + " len " + len);
            assertEquals(p.init(), model.state(), "register back to init after the last beat");
            if (p.equals(CrcParams.CRC32)) {
                CRC32 jdk = new CRC32();
                jdk.update(frame);
                assertEquals(jdk.getValue(), expected);
            } else if (p.equals(CrcParams.CRC32C)) {
                CRC32C jdk = new CRC32C();
                jdk.update(frame);
                assertEquals(jdk.getValue(), expected);
            }
        }
    }

    @Test
    void checkValueOnEveryWidth() {
        for (int width : new int[] {8, 64, 512, 1024}) {
            assertEquals(0xCBF43926L, new ParallelCrcModel(CrcParams.CRC32, width).frame(CrcReferenceTest.CHECK));
            assertEquals(0xE3069283L, new ParallelCrcModel(CrcParams.CRC32C, width).frame(CrcReferenceTest.CHECK));
            assertEquals(0xFC891918L, new ParallelCrcModel(CrcReferenceTest.BZIP2, width)
                    .frame(CrcReferenceTest.CHECK));
        }
    }

    @Test
    void garbageInInvalidLanesIsIgnored() {
        ParallelCrcModel model = new ParallelCrcModel(CrcParams.CRC32, 64);
        // "123456789": one full beat, then '9' and seven junk bytes
        long first = 0;
        for (int i = 0; i < 8; i++) {
            first |= (long) CrcReferenceTest.CHECK[i] << (8 * i);
        }
        assertFalse(model.beat(new long[] {first}, 8, false).isPresent());
        OptionalLong crc = model.beat(new long[] {0xDEADBEEFCAFEBA00L | '9'}, 1, true);
        assertEquals(0xCBF43926L, crc.getAsLong());
    }

    @Test
    void misuseIsRejected() {
        ParallelCrcModel model = new ParallelCrcModel(CrcParams.CRC32, 512);
        CrcReferenceTest.assertMessage("nBytesValid", () -> model.beat(new long[8], 63, false));
        CrcReferenceTest.assertMessage("nBytesValid", () -> model.beat(new long[8], 0, true));
        CrcReferenceTest.assertMessage("nBytesValid", () -> model.beat(new long[8], 65, true));
        CrcReferenceTest.assertMessage("words", () -> model.beat(new long[7], 64, false));
        assertThrows(IllegalArgumentException.class, () -> model.frame(new byte[0]));
    }
}
