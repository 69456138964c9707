package org.sue.sim;

/**
 * Run-time helpers the generated simulation code calls for values wider than 64 bits. Wide values are little-endian
 * arrays of 64-bit words whose unused high bits are always zero. Destinations are preallocated: nothing allocates.
 */
public final class SimOps {
    private SimOps() {
    }

    public static long mask(int width) {
        return width >= 64 ? -1L : (1L << width) - 1;
    }

    public static long topMask(int width) {
        return mask(((width - 1) & 63) + 1);
    }

    // ---- narrow helpers --------------------------------------------------------------------------------------------

    /** Logical left shift of a narrow value by an unsigned amount. */
    public static long shl(long a, long amount, int width) {
        return Long.compareUnsigned(amount, width) >= 0 ? 0 : (a << amount) & mask(width);
    }

    public static long shr(long a, long amount, int width) {
        return Long.compareUnsigned(amount, width) >= 0 ? 0 : a >>> amount;
    }

    /** A shift amount held in a wide value, clamped to {@code Long.MAX_VALUE} when it does not fit. */
    public static long amount(long[] a) {
        for (int i = 1; i < a.length; i++) {
            if (a[i] != 0) {
                return Long.MAX_VALUE;
            }
        }
        return a[0] < 0 ? Long.MAX_VALUE : a[0];
    }

    // ---- wide bitwise and arithmetic --------------------------------------------------------------------------------

    public static void and(long[] d, long[] a, long[] b) {
        for (int i = 0; i < d.length; i++) {
            d[i] = a[i] & b[i];
        }
    }

    public static void or(long[] d, long[] a, long[] b) {
        for (int i = 0; i < d.length; i++) {
            d[i] = a[i] | b[i];
        }
    }

    public static void xor(long[] d, long[] a, long[] b) {
        for (int i = 0; i < d.length; i++) {
            d[i] = a[i] ^ b[i];
        }
    }

    public static void not(long[] d, long[] a, long topMask) {
        for (int i = 0; i < d.length; i++) {
            d[i] = ~a[i];
        }
        d[d.length - 1] &= topMask;
    }

    public static void add(long[] d, long[] a, long[] b, long topMask) {
        long carry = 0;
        for (int i = 0; i < d.length; i++) {
            long s = a[i] + b[i];
            long c1 = Long.compareUnsigned(s, a[i]) < 0 ? 1 : 0;
            long s2 = s + carry;
            long c2 = Long.compareUnsigned(s2, s) < 0 ? 1 : 0;
            d[i] = s2;
            carry = c1 | c2;
        }
        d[d.length - 1] &= topMask;
    }

    public static void sub(long[] d, long[] a, long[] b, long topMask) {
        long borrow = 0;
        for (int i = 0; i < d.length; i++) {
            long ai = a[i];
            long s = ai - b[i];
            long b1 = Long.compareUnsigned(ai, b[i]) < 0 ? 1 : 0;
            long s2 = s - borrow;
            long b2 = Long.compareUnsigned(s, borrow) < 0 ? 1 : 0;
            d[i] = s2;
            borrow = b1 | b2;
        }
        d[d.length - 1] &= topMask;
    }

    /** Copies {@code from} into {@code to}; true if that changed {@code to}. */
    public static boolean copyChanged(long[] from, long[] to) {
        boolean changed = false;
        for (int i = 0; i < to.length; i++) {
            changed |= to[i] != from[i];
            to[i] = from[i];
        }
        return changed;
    }

    public static boolean eq(long[] a, long[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    /** Unsigned comparison: negative, zero or positive. */
    public static int compare(long[] a, long[] b) {
        for (int i = a.length - 1; i >= 0; i--) {
            if (a[i] != b[i]) {
                return Long.compareUnsigned(a[i], b[i]);
            }
        }
        return 0;
    }

    // ---- shifts ----------------------------------------------------------------------------------------------------

    /** d = (a << amount) truncated; amount is unsigned. */
    public static void shl(long[] d, long[] a, long amount, long topMask) {
        int n = d.length;
        if (Long.compareUnsigned(amount, (long) n * 64) >= 0) {
            clear(d);
            return;
        }
        int words = (int) (amount >>> 6);
        int bits = (int) (amount & 63);
        for (int i = n - 1; i >= 0; i--) {
            int src = i - words;
            long hi = src >= 0 ? a[src] << bits : 0;
            long lo = bits != 0 && src - 1 >= 0 ? a[src - 1] >>> (64 - bits) : 0;
            d[i] = hi | lo;
        }
        d[n - 1] &= topMask;
    }

    /** d = a >>> amount; amount is unsigned. */
    public static void shr(long[] d, long[] a, long amount) {
        int n = d.length;
        if (Long.compareUnsigned(amount, (long) n * 64) >= 0) {
            clear(d);
            return;
        }
        int words = (int) (amount >>> 6);
        int bits = (int) (amount & 63);
        for (int i = 0; i < n; i++) {
            int src = i + words;
            long lo = src < n ? a[src] >>> bits : 0;
            long hi = bits != 0 && src + 1 < n ? a[src + 1] << (64 - bits) : 0;
            d[i] = lo | hi;
        }
    }

    // ---- slicing, concatenation, sizing -----------------------------------------------------------------------------

    /** Bits [lo + width - 1 : lo] of a wide value, width <= 64. */
    public static long extract(long[] a, int lo, int width) {
        int w = lo >>> 6;
        int b = lo & 63;
        long v = a[w] >>> b;
        if (b != 0 && b + width > 64 && w + 1 < a.length) {
            v |= a[w + 1] << (64 - b);
        }
        return v & mask(width);
    }

    /** d = bits [lo + 64*d.length - 1 : lo] of a, masked to the destination's width. */
    public static void extractWide(long[] d, long[] a, int lo, long topMask) {
        int limit = a.length * 64;
        for (int i = 0; i < d.length; i++) {
            int from = lo + 64 * i;
            d[i] = from < limit ? extract(a, from, 64) : 0;
        }
        d[d.length - 1] &= topMask;
    }

    public static void clear(long[] d) {
        java.util.Arrays.fill(d, 0L);
    }

    /** ORs a narrow value of {@code width} bits into d at bit offset {@code off} (d is cleared first by the caller). */
    public static void deposit(long[] d, int off, long v, int width) {
        int w = off >>> 6;
        int b = off & 63;
        d[w] |= v << b;
        if (b != 0 && b + width > 64) {
            d[w + 1] |= v >>> (64 - b);
        }
    }

    public static void depositWide(long[] d, int off, long[] v, int width) {
        for (int i = 0; i < v.length; i++) {
            int chunk = Math.min(64, width - 64 * i);
            deposit(d, off + 64 * i, v[i], chunk);
        }
    }

    /** Zero-extends or truncates a into d. */
    public static void resize(long[] d, long[] a, long topMask) {
        int n = Math.min(d.length, a.length);
        System.arraycopy(a, 0, d, 0, n);
        for (int i = n; i < d.length; i++) {
            d[i] = 0;
        }
        d[d.length - 1] &= topMask;
    }

    public static void fromNarrow(long[] d, long v) {
        clear(d);
        d[0] = v;
    }

    // ---- lane logic on whole words (see ConcatWords) ------------------------------------------------------------------

    /** Bit j set iff {@code x > base + j}: 64 lanes of a thermometer keep at once (x and base well inside long). */
    public static long thermo(long x, long base) {
        long n = x - base;
        return n <= 0 ? 0 : n >= 64 ? -1L : (1L << n) - 1;
    }

    private static final long[] BYTE_MASKS = new long[256];

    static {
        for (int b = 0; b < 256; b++) {
            long m = 0;
            for (int i = 0; i < 8; i++) {
                if ((b >>> i & 1) != 0) {
                    m |= 0xffL << (8 * i);
                }
            }
            BYTE_MASKS[b] = m;
        }
    }

    /** The low 8 bits of {@code lanes}, each widened to a byte of ones or zeros. */
    public static long byteMask(long lanes) {
        return BYTE_MASKS[(int) (lanes & 0xff)];
    }

    /** Bytes of x where the mask is set, of y elsewhere. */
    public static long laneMux(long mask, long x, long y) {
        return (x & mask) | (y & ~mask);
    }

    /** Bits [from + 63 : from] of a wide value; bits below 0 or past its end read as zero. */
    public static long word(long[] a, long from) {
        if (from <= -64 || from >= 64L * a.length) {
            return 0;
        }
        if (from < 0) {
            return a[0] << -from;
        }
        return extract(a, (int) from, 64);
    }

    // ---- memory banks (see MemoryBank): byte lane i of row a at byte i % 8 of word a * rowWords + i / 8 -------------

    /**
     * Next read data of every lane: lane i reads row {@code a} where its select bit is set, row {@code b} elsewhere;
     * a lane whose row is out of range keeps its data.
     */
    public static void bankRead(long[] bank, int rowWords, int depth, long a, long b, long[] selects, long[] data,
                                long[] next) {
        boolean aIn = Long.compareUnsigned(a, depth) < 0;
        boolean bIn = Long.compareUnsigned(b, depth) < 0;
        int rowA = (int) a * rowWords;
        int rowB = (int) b * rowWords;
        for (int w = 0; w < rowWords; w++) {
            long fromA = aIn ? bank[rowA + w] : data[w];
            long fromB = bIn ? bank[rowB + w] : data[w];
            next[w] = laneMux(byteMask(selects[w >>> 3] >>> ((w & 7) << 3)), fromA, fromB);
        }
    }

    /** Writes the enabled lanes: lane i to row {@code a} where its select bit is set, to row {@code b} elsewhere. */
    public static void bankWrite(long[] bank, int rowWords, int depth, long a, long b, long[] enables,
                                 long[] selects, long[] data) {
        boolean aIn = Long.compareUnsigned(a, depth) < 0;
        boolean bIn = Long.compareUnsigned(b, depth) < 0;
        int rowA = (int) a * rowWords;
        int rowB = (int) b * rowWords;
        for (int w = 0; w < rowWords; w++) {
            int shift = (w & 7) << 3;
            long en = enables[w >>> 3] >>> shift;
            if ((en & 0xff) == 0) {
                continue;
            }
            long sel = selects[w >>> 3] >>> shift;
            long toA = byteMask(en & sel);
            long toB = byteMask(en & ~sel);
            if (aIn && toA != 0) {
                bank[rowA + w] = laneMux(toA, data[w], bank[rowA + w]);
            }
            if (bIn && toB != 0) {
                bank[rowB + w] = laneMux(toB, data[w], bank[rowB + w]);
            }
        }
    }

    public static long bankLane(long[] bank, int rowWords, int row, int lane) {
        return (bank[row * rowWords + (lane >>> 3)] >>> ((lane & 7) << 3)) & 0xff;
    }

    public static void setBankLane(long[] bank, int rowWords, int row, int lane, long value) {
        int i = row * rowWords + (lane >>> 3);
        int shift = (lane & 7) << 3;
        bank[i] = (bank[i] & ~(0xffL << shift)) | ((value & 0xff) << shift);
    }

    // ---- reductions --------------------------------------------------------------------------------------------------

    public static long andR(long[] a, int width) {
        for (int i = 0; i < a.length - 1; i++) {
            if (a[i] != -1L) {
                return 0;
            }
        }
        return a[a.length - 1] == topMask(width) ? 1 : 0;
    }

    public static long orR(long[] a) {
        for (long x : a) {
            if (x != 0) {
                return 1;
            }
        }
        return 0;
    }

    public static long xorR(long[] a) {
        long acc = 0;
        for (long x : a) {
            acc ^= x;
        }
        return Long.bitCount(acc) & 1;
    }

    /** Parity of (a AND mask): one output bit of a parallel CRC / LFSR. */
    public static long parityAnd(long[] a, long[] mask) {
        long acc = 0;
        for (int i = 0; i < a.length; i++) {
            acc ^= a[i] & mask[i];
        }
        return Long.bitCount(acc) & 1;
    }
}
