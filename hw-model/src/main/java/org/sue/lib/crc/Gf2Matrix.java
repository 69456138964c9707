package org.sue.lib.crc;

/**
 * Square matrix over GF(2) of size n <= 64; row i is the set of input bits that XOR into output bit i, so
 * {@code y = M x} is {@code y_i = parity(row_i & x)}.
 */
public final class Gf2Matrix {
    private final long[] rows;

    public Gf2Matrix(long[] rows) {
        if (rows.length < 1 || rows.length > 64) {
            throw new IllegalArgumentException("Gf2Matrix size must be 1..64, got " + rows.length);
        }
        this.rows = rows.clone();
    }

    public static Gf2Matrix identity(int n) {
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            r[i] = 1L << i;
        }
        return new Gf2Matrix(r);
    }

    public int size() {
        return rows.length;
    }

    public long row(int i) {
        return rows[i];
    }

    public long apply(long x) {
        long y = 0;
        for (int i = 0; i < rows.length; i++) {
            y |= (long) (Long.bitCount(rows[i] & x) & 1) << i;
        }
        return y;
    }

    /** this * other (apply other first). */
    public Gf2Matrix multiply(Gf2Matrix other) {
        long[] r = new long[rows.length];
        for (int i = 0; i < rows.length; i++) {
            long acc = 0;
            long sel = rows[i];
            while (sel != 0) {
                int j = Long.numberOfTrailingZeros(sel);
                acc ^= other.rows[j];
                sel &= sel - 1;
            }
            r[i] = acc;
        }
        return new Gf2Matrix(r);
    }

    public Gf2Matrix power(long e) {
        Gf2Matrix result = identity(rows.length);
        Gf2Matrix base = this;
        while (e > 0) {
            if ((e & 1) != 0) {
                result = result.multiply(base);
            }
            base = base.multiply(base);
            e >>>= 1;
        }
        return result;
    }

    /** Gauss-Jordan inverse; throws if singular. */
    public Gf2Matrix inverse() {
        int n = rows.length;
        long[] a = rows.clone();
        long[] inv = identity(n).rows.clone();
        for (int col = 0; col < n; col++) {
            int pivot = -1;
            for (int r = col; r < n; r++) {
                if (((a[r] >>> col) & 1) != 0) {
                    pivot = r;
                    break;
                }
            }
            if (pivot < 0) {
                throw new ArithmeticException("matrix is singular");
            }
            long t = a[pivot]; a[pivot] = a[col]; a[col] = t;
            t = inv[pivot]; inv[pivot] = inv[col]; inv[col] = t;
            for (int r = 0; r < n; r++) {
                if (r != col && ((a[r] >>> col) & 1) != 0) {
                    a[r] ^= a[col];
                    inv[r] ^= inv[col];
                }
            }
        }
        return new Gf2Matrix(inv);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Gf2Matrix m && java.util.Arrays.equals(rows, m.rows);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(rows);
    }
}
