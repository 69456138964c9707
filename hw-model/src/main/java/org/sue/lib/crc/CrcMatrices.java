package org.sue.lib.crc;

import java.math.BigInteger;

/**
 * The XOR masks of a parallel CRC that takes a W-bit beat (W/8 byte lanes, lane i = bits [8i+7:8i], lane 0 first in
 * the byte stream, as AXI-Stream tkeep) per cycle: {@code next[i] = parity(state & stateMask(i)) ^ parity(data &
 * dataMask(i))}. Computed at elaboration by linearity, from the bit-serial definition the reference model runs
 * ({@link CrcParams#advance}): one simulation of a zero beat per state unit vector and one simulation from the zero
 * state per data unit vector (W + width simulations).
 *
 * <p>Also the "unshift" matrices that undo trailing zero bytes (see {@link ParallelCrc}): with A the register's
 * one-zero-byte transition, stage s multiplies by the constant {@code A^(-2^s)}. A is invertible because the
 * polynomial has its x^0 term.
 */
public final class CrcMatrices {
    private final CrcParams p;
    private final int dataWidth;
    private final long[] stateMasks;
    private final long[][] dataMasks;
    private final Gf2Matrix[] unshift;

    public CrcMatrices(CrcParams params, int dataWidth) {
        if (params == null) {
            throw new IllegalArgumentException("CrcMatrices params must be given");
        }
        if (dataWidth < 8 || dataWidth % 8 != 0) {
            throw new IllegalArgumentException("CRC dataWidth must be a positive multiple of 8, got " + dataWidth);
        }
        this.p = params;
        this.dataWidth = dataWidth;
        int w = params.width();
        int lanes = dataWidth / 8;
        int words = (dataWidth + 63) / 64;

        // state part: column j = the register after a beat of zeros, starting from unit state e_j
        byte[] beat = new byte[lanes];
        stateMasks = new long[w];
        for (int j = 0; j < w; j++) {
            long column = params.advance(1L << j, beat, 0, lanes);
            for (int i = 0; i < w; i++) {
                if (((column >>> i) & 1) != 0) {
                    stateMasks[i] |= 1L << j;
                }
            }
        }
        // data part: column k = the register after a beat holding only bus bit k, starting from the zero state
        dataMasks = new long[w][words];
        for (int k = 0; k < dataWidth; k++) {
            beat[k / 8] = (byte) (1 << (k % 8));
            long column = params.advance(0, beat, 0, lanes);
            beat[k / 8] = 0;
            for (int i = 0; i < w; i++) {
                if (((column >>> i) & 1) != 0) {
                    dataMasks[i][k >>> 6] |= 1L << (k & 63);
                }
            }
        }
        // unshift stage s undoes 2^s trailing zero bytes
        Gf2Matrix undoByte = zeroByteMatrix(params).inverse();
        int stages = stagesFor(lanes);
        unshift = new Gf2Matrix[stages];
        Gf2Matrix m = undoByte;
        for (int s = 0; s < stages; s++) {
            unshift[s] = m;
            m = m.multiply(m);
        }
    }

    /** ceil(log2(lanes)), at least 1: enough bits to count 0..lanes-1 trailing zero bytes. */
    static int stagesFor(int lanes) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(lanes - 1));
    }

    /** The register transition of one zero input bit. */
    static Gf2Matrix zeroBitMatrix(CrcParams p) {
        int w = p.width();
        long[] rows = new long[w];
        for (int j = 0; j < w; j++) { // column j: image of unit vector e_j
            long image = p.step(1L << j, 0);
            for (int i = 0; i < w; i++) {
                if (((image >>> i) & 1) != 0) {
                    rows[i] |= 1L << j;
                }
            }
        }
        return new Gf2Matrix(rows);
    }

    /** The register transition of one zero input byte (A in the class comment). */
    public static Gf2Matrix zeroByteMatrix(CrcParams p) {
        return zeroBitMatrix(p).power(8);
    }

    public CrcParams params() { return p; }
    public int dataWidth() { return dataWidth; }
    /** Number of 64-bit words of a data beat: ceil(W / 64). */
    public int dataWords() { return dataMasks[0].length; }
    /** Bits of the state that feed next-state bit i. */
    public long stateMask(int i) { return stateMasks[i]; }

    /** Bits of the data beat that feed next-state bit i, as ceil(W/64) little-endian 64-bit words. */
    public long[] dataMaskWords(int i) { return dataMasks[i].clone(); }

    /** Bits of the data beat that feed next-state bit i, as one number (bit k = bus bit k). */
    public BigInteger dataMask(int i) {
        BigInteger m = BigInteger.ZERO;
        long[] words = dataMasks[i];
        for (int k = words.length - 1; k >= 0; k--) {
            m = m.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(words[k])));
        }
        return m;
    }

    /** Number of unshift stages: log2 of the lane count, rounded up (at least 1). */
    public int unshiftStages() { return unshift.length; }
    /** Matrix that removes 2^s trailing zero bytes from a register value. */
    public Gf2Matrix unshift(int s) { return unshift[s]; }
    /** Bits of the register that feed output bit i of unshift stage s. */
    public long unshiftMask(int s, int i) { return unshift[s].row(i); }

    /** Software model of one full beat (for tests of the masks themselves). */
    public long nextState(long state, BigInteger data) {
        long[] words = new long[dataWords()];
        for (int k = 0; k < words.length; k++) {
            words[k] = data.shiftRight(64 * k).longValue();
        }
        return nextState(state, words);
    }

    /** Software model of one full beat, data as little-endian 64-bit words. */
    public long nextState(long state, long[] data) {
        if (data.length != dataWords()) {
            throw new IllegalArgumentException("beat data must be " + dataWords() + " words, got " + data.length);
        }
        long next = 0;
        for (int i = 0; i < p.width(); i++) {
            int parity = Long.bitCount(state & stateMasks[i]);
            long[] mask = dataMasks[i];
            for (int k = 0; k < mask.length; k++) {
                parity += Long.bitCount(data[k] & mask[k]);
            }
            next |= (long) (parity & 1) << i;
        }
        return next;
    }
}
