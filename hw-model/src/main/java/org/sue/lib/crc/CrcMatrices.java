package org.sue.lib.crc;

import java.math.BigInteger;

/**
 * The XOR masks of a parallel CRC that takes a W-bit beat (W/8 byte lanes, lane 0 first) per cycle, computed at
 * elaboration by linearity: {@code next_i = parity(state & stateMask_i) ^ parity(data & dataMask_i)}. Also the
 * "unshift" matrices that undo trailing zero bytes (see {@link ParallelCrc}).
 */
public final class CrcMatrices {
    private final CrcParams p;
    private final int dataWidth;
    private final long[] stateMasks;
    private final BigInteger[] dataMasks;
    private final Gf2Matrix[] unshift;

    public CrcMatrices(CrcParams params, int dataWidth) {
        if (dataWidth < 8 || dataWidth % 8 != 0) {
            throw new IllegalArgumentException("CRC dataWidth must be a positive multiple of 8, got " + dataWidth);
        }
        this.p = params;
        this.dataWidth = dataWidth;
        int w = params.width();
        // state part: process a beat of zeros from each unit state
        Gf2Matrix zeroBit = zeroBitMatrix(params);
        Gf2Matrix beat = zeroBit.power(dataWidth);
        stateMasks = new long[w];
        for (int i = 0; i < w; i++) {
            stateMasks[i] = beat.row(i);
        }
        // data part: from a zero state, each single data bit enters at its position in the bit stream and then
        // travels through the rest of the beat as zeros
        BigInteger[] masks = new BigInteger[w];
        java.util.Arrays.fill(masks, BigInteger.ZERO);
        Gf2Matrix[] tail = new Gf2Matrix[dataWidth];
        // tail[t] = zeroBit^t, built incrementally
        tail[0] = Gf2Matrix.identity(w);
        for (int t = 1; t < dataWidth; t++) {
            tail[t] = zeroBit.multiply(tail[t - 1]);
        }
        long entry = CrcReference.step(params, 0, 1); // register after one '1' bit from zero
        for (int k = 0; k < dataWidth; k++) {
            int lane = k / 8;
            int bit = k % 8;
            int order = lane * 8 + (params.reflectIn() ? bit : 7 - bit);
            long column = tail[dataWidth - 1 - order].apply(entry);
            for (int i = 0; i < w; i++) {
                if (((column >>> i) & 1) != 0) {
                    masks[i] = masks[i].setBit(k);
                }
            }
        }
        dataMasks = masks;
        // unshift stage s undoes 2^s trailing zero bytes
        Gf2Matrix undoByte = zeroBit.power(8).inverse();
        int stages = Math.max(1, 32 - Integer.numberOfLeadingZeros(dataWidth / 8 - 1));
        unshift = new Gf2Matrix[stages];
        Gf2Matrix m = undoByte;
        for (int s = 0; s < stages; s++) {
            unshift[s] = m;
            m = m.multiply(m);
        }
    }

    /** The register transition of one zero input bit. */
    static Gf2Matrix zeroBitMatrix(CrcParams p) {
        int w = p.width();
        long[] rows = new long[w];
        for (int j = 0; j < w; j++) { // column j: image of unit vector e_j
            long image = CrcReference.step(p, 1L << j, 0);
            for (int i = 0; i < w; i++) {
                if (((image >>> i) & 1) != 0) {
                    rows[i] |= 1L << j;
                }
            }
        }
        return new Gf2Matrix(rows);
    }

    public CrcParams params() { return p; }
    public int dataWidth() { return dataWidth; }
    /** Bits of the state that feed next-state bit i. */
    public long stateMask(int i) { return stateMasks[i]; }
    /** Bits of the data beat that feed next-state bit i. */
    public BigInteger dataMask(int i) { return dataMasks[i]; }
    /** Number of unshift stages: log2 of the lane count, rounded up. */
    public int unshiftStages() { return unshift.length; }
    /** Matrix that removes 2^s trailing zero bytes from a register value. */
    public Gf2Matrix unshift(int s) { return unshift[s]; }

    /** Software model of one full beat (for tests of the masks themselves). */
    public long nextState(long state, BigInteger data) {
        long next = 0;
        for (int i = 0; i < p.width(); i++) {
            int bit = (Long.bitCount(state & stateMasks[i]) + data.and(dataMasks[i]).bitCount()) & 1;
            next |= (long) bit << i;
        }
        return next;
    }
}
