package org.sue.lib.crc.model;

import java.util.OptionalLong;
import org.sue.lib.crc.CrcMatrices;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.stream.model.Beats;

/**
 * Bit-accurate plain-Java model of the algorithm {@link ParallelCrc} implements, so the algorithm is tested on its own
 * before it is hardware: one full-width mask network per beat; on the last beat the lanes past the frame are zeroed
 * and the network runs anyway, then the {@code k = W/8 - n} extra zero bytes the register absorbed are undone by
 * log2(W/8) conditional stages, stage s multiplying by the constant {@code A^(-2^s)} (A = one-zero-byte transition)
 * when bit s of k is set. No per-byte-count units.
 */
public final class ParallelCrcModel {
    private final CrcMatrices m;
    private final CrcParams p;
    private final int lanes;
    private long state;

    public ParallelCrcModel(CrcMatrices matrices) {
        this.m = matrices;
        this.p = matrices.params();
        this.lanes = matrices.dataWidth() / 8;
        this.state = p.init();
    }

    public ParallelCrcModel(CrcParams params, int dataWidth) {
        this(new CrcMatrices(params, dataWidth));
    }

    /**
     * One beat. {@code data} holds ceil(W/64) little-endian words (lane i = bits [8i+7:8i]); {@code nBytesValid} is
     * W/8 except on the last beat of a frame, where it is 1..W/8 (lanes 0..n-1 valid; the rest may hold anything).
     *
     * @return the frame's CRC (reflected and XORed as the parameters say) after the last beat, empty otherwise
     */
    public OptionalLong beat(long[] data, int nBytesValid, boolean last) {
        if (data.length != m.dataWords()) {
            throw new IllegalArgumentException("beat data must be " + m.dataWords() + " words, got " + data.length);
        }
        if (!last && nBytesValid != lanes) {
            throw new IllegalArgumentException("nBytesValid must be " + lanes + " on a beat that is not last, got "
                    + nBytesValid);
        }
        if (nBytesValid < 1 || nBytesValid > lanes) {
            throw new IllegalArgumentException("nBytesValid must be 1.." + lanes + ", got " + nBytesValid);
        }
        long[] masked = data.clone();
        if (last) { // zero the lanes past the end of the frame
            for (int lane = nBytesValid; lane < lanes; lane++) {
                masked[lane >>> 3] &= ~(0xFFL << (8 * (lane & 7)));
            }
        }
        long next = m.nextState(state, masked);
        if (!last) {
            state = next;
            return OptionalLong.empty();
        }
        int k = lanes - nBytesValid; // trailing zero bytes the register absorbed
        long v = next;
        for (int s = 0; s < m.unshiftStages(); s++) {
            if (((k >>> s) & 1) != 0) {
                v = m.unshift(s).apply(v);
            }
        }
        state = p.init();
        return OptionalLong.of(p.finish(v));
    }

    /** Feeds a whole frame (at least one byte) as beats and returns its CRC. */
    public long frame(byte[] frame) {
        if (frame.length == 0) {
            throw new IllegalArgumentException("frame must hold at least one byte (a beat carries lane 0)");
        }
        OptionalLong result = OptionalLong.empty();
        for (int off = 0; off < frame.length; off += lanes) {
            int n = Math.min(lanes, frame.length - off);
            result = beat(Beats.data(frame, off, n, lanes), n, off + lanes >= frame.length);
        }
        return result.getAsLong();
    }

    /** The running register (normal form), init after a last beat. */
    public long state() {
        return state;
    }
}
