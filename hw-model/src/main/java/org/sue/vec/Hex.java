package org.sue.vec;

/** Allocation-free hex formatting and parsing of little-endian word arrays. */
final class Hex {
    private Hex() {
    }

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    /** Writes the value without leading zeros ("0" for zero); returns the number of chars. */
    static int format(long[] v, int words, char[] out) {
        int top = words - 1;
        while (top > 0 && v[top] == 0) {
            top--;
        }
        int n = 0;
        long w = v[top];
        int nibble = 15;
        while (nibble > 0 && ((w >>> (4 * nibble)) & 15) == 0) {
            nibble--;
        }
        for (int i = nibble; i >= 0; i--) {
            out[n++] = DIGITS[(int) ((w >>> (4 * i)) & 15)];
        }
        for (int k = top - 1; k >= 0; k--) {
            w = v[k];
            for (int i = 15; i >= 0; i--) {
                out[n++] = DIGITS[(int) ((w >>> (4 * i)) & 15)];
            }
        }
        return n;
    }

    /** Parses s[from, to) into dst (cleared first); returns false on a non-hex character or overflow. */
    static boolean parse(CharSequence s, int from, int to, long[] dst, int width) {
        java.util.Arrays.fill(dst, 0L);
        int digits = to - from;
        if (digits == 0) {
            return false;
        }
        for (int i = 0; i < digits; i++) {
            char c = s.charAt(to - 1 - i);
            int d;
            if (c >= '0' && c <= '9') {
                d = c - '0';
            } else if (c >= 'a' && c <= 'f') {
                d = c - 'a' + 10;
            } else if (c >= 'A' && c <= 'F') {
                d = c - 'A' + 10;
            } else {
                return false;
            }
            int bit = 4 * i;
            if (d != 0) {
                if (bit >= width || (64 - Long.numberOfLeadingZeros(d)) + bit > width) {
                    return false;
                }
                dst[bit >>> 6] |= (long) d << (bit & 63);
            }
        }
        return true;
    }
}
