package org.sue.lib.crc;

/**
 * Bit-serial CRC straight from the definition: the plain-Java reference model. The register is kept in normal
 * (non-reflected) form; reflection only changes the order in which each byte's bits enter.
 */
public final class CrcReference {
    private final CrcParams p;
    private long register;

    public CrcReference(CrcParams params) {
        this.p = params;
        this.register = params.init();
    }

    public static long compute(CrcParams params, byte[] data) {
        return compute(params, data, 0, data.length);
    }

    public static long compute(CrcParams params, byte[] data, int off, int len) {
        CrcReference r = new CrcReference(params);
        r.update(data, off, len);
        return r.value();
    }

    public void update(byte[] data, int off, int len) {
        for (int i = off; i < off + len; i++) {
            int b = data[i] & 0xff;
            for (int k = 0; k < 8; k++) {
                int bit = p.reflectIn() ? (b >>> k) & 1 : (b >>> (7 - k)) & 1;
                register = step(p, register, bit);
            }
        }
    }

    /** One input bit into the normal-form register. */
    static long step(CrcParams p, long register, int bit) {
        long feedback = ((register >>> (p.width() - 1)) & 1) ^ bit;
        long next = (register << 1) & p.mask();
        return feedback != 0 ? next ^ p.poly() : next;
    }

    public long register() {
        return register;
    }

    /** The CRC of everything so far. */
    public long value() {
        return p.finish(register);
    }
}
