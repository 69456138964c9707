package org.sue.lib.stream.model;

/**
 * Packing bytes into stream beats as the hardware sees them: byte lane i is bits [8i+7:8i] of tdata (little-endian
 * 64-bit words), and tkeep bit i marks lane i valid. Used by testbenches and reference models.
 */
public final class Beats {
    private Beats() {
    }

    /** tdata of a beat holding {@code n} bytes of {@code src} from {@code off}; lanes past n are zero. */
    public static long[] data(byte[] src, int off, int n, int lanes) {
        long[] words = new long[(lanes * 8 + 63) / 64];
        for (int i = 0; i < n; i++) {
            words[i / 8] |= (long) (src[off + i] & 0xff) << (8 * (i % 8));
        }
        return words;
    }

    /** tkeep with lanes 0..n-1 set. */
    public static long[] keep(int n, int lanes) {
        long[] k = new long[(lanes + 63) / 64];
        for (int i = 0; i < n; i++) {
            k[i / 64] |= 1L << (i % 64);
        }
        return k;
    }

    /** Number of beats a packet of {@code bytes} bytes occupies on a bus of {@code lanes} byte lanes. */
    public static int count(int bytes, int lanes) {
        return Math.max(1, (bytes + lanes - 1) / lanes);
    }
}
