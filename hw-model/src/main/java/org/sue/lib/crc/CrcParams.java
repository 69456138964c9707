package org.sue.lib.crc;

import org.sue.core.Described;

/**
 * A CRC in the Rocksoft/Williams parameter model: width, polynomial (normal form, without the top bit), initial
 * register value, input/output reflection, final XOR.
 */
public record CrcParams(int width, long poly, long init, boolean reflectIn, boolean reflectOut, long xorOut)
        implements Described {
    /** IEEE 802.3 / Ethernet FCS; check value 0xCBF43926. */
    public static final CrcParams CRC32 = new CrcParams(32, 0x04C11DB7L, 0xFFFFFFFFL, true, true, 0xFFFFFFFFL);
    /** Castagnoli (iSCSI, RoCE ICRC alternative); check value 0xE3069283. */
    public static final CrcParams CRC32C = new CrcParams(32, 0x1EDC6F41L, 0xFFFFFFFFL, true, true, 0xFFFFFFFFL);

    public CrcParams {
        if (width < 8 || width > 64) {
            throw new IllegalArgumentException("CrcParams width must be 8..64 bits, got " + width);
        }
        long mask = mask(width);
        if ((poly & ~mask) != 0 || (poly & 1) == 0) {
            throw new IllegalArgumentException("CrcParams poly 0x" + Long.toHexString(poly) + " must fit in " + width
                    + " bits and have its x^0 term set (odd)");
        }
        if ((init & ~mask) != 0) {
            throw new IllegalArgumentException("CrcParams init 0x" + Long.toHexString(init) + " does not fit in "
                    + width + " bits");
        }
        if ((xorOut & ~mask) != 0) {
            throw new IllegalArgumentException("CrcParams xorOut 0x" + Long.toHexString(xorOut) + " does not fit in "
                    + width + " bits");
        }
    }

    /** {@code crc32}, {@code crc32c}, or {@code crc<width>} for another CRC (then with a hash). */
    @Override
    public String moduleTag() {
        return equals(CRC32) ? "crc32" : equals(CRC32C) ? "crc32c" : "crc" + width;
    }

    @Override
    public boolean tagIdentifies() {
        return equals(CRC32) || equals(CRC32C);
    }

    public long mask() {
        return mask(width);
    }

    static long mask(int w) {
        return w == 64 ? -1L : (1L << w) - 1;
    }

    /**
     * One input bit into the register, kept in normal (non-reflected) form, shifting left: the bit-serial definition
     * that the reference model runs and the parallel CRC's masks are derived from.
     */
    public long step(long register, int bit) {
        long feedback = ((register >>> (width - 1)) & 1) ^ bit;
        long next = (register << 1) & mask();
        return feedback != 0 ? next ^ poly : next;
    }

    /**
     * The register after {@code len} more bytes from {@code register} (no finishing); each byte enters least
     * significant bit first when {@link #reflectIn()} is set, most significant bit first otherwise.
     */
    public long advance(long register, byte[] data, int off, int len) {
        long r = register;
        for (int i = off; i < off + len; i++) {
            int b = data[i] & 0xff;
            for (int k = 0; k < 8; k++) {
                r = step(r, reflectIn ? (b >>> k) & 1 : (b >>> (7 - k)) & 1);
            }
        }
        return r;
    }

    /** Finishes a register value: optional reflection, then the final XOR. */
    public long finish(long register) {
        long r = reflectOut ? Long.reverse(register) >>> (64 - width) : register;
        return (r ^ xorOut) & mask();
    }
}
