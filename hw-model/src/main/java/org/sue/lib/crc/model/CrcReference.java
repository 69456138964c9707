package org.sue.lib.crc.model;

import org.sue.lib.crc.CrcParams;

/**
 * Bit-serial CRC straight from the Rocksoft/Williams definition ({@link CrcParams#step}, {@link CrcParams#advance}):
 * the plain-Java reference model. The register is kept in normal (non-reflected) form and shifts left; each byte
 * enters in order, least significant bit first when {@link CrcParams#reflectIn()} is set, most significant bit first
 * otherwise. The result is the register, reflected if {@link CrcParams#reflectOut()}, XORed with
 * {@link CrcParams#xorOut()}.
 *
 * <p>Incremental use, as hardware sees a frame beat by beat: either an instance ({@link #update}, then
 * {@link #value()}), or the stateless form {@code r = params.init(); r = advance(params, r, beat...); ...;
 * params.finish(r)}.
 */
public final class CrcReference {
    private final CrcParams p;
    private long register;

    public CrcReference(CrcParams params) {
        if (params == null) {
            throw new IllegalArgumentException("CrcReference params must be given");
        }
        this.p = params;
        this.register = params.init();
    }

    /** The CRC of a whole message. */
    public static long compute(CrcParams params, byte[] data) {
        return compute(params, data, 0, data.length);
    }

    public static long compute(CrcParams params, byte[] data, int off, int len) {
        return params.finish(advance(params, params.init(), data, off, len));
    }

    /** The register after {@code len} more bytes from {@code register} (no finishing): {@link CrcParams#advance}. */
    public static long advance(CrcParams p, long register, byte[] data, int off, int len) {
        return p.advance(register, data, off, len);
    }

    public CrcReference update(byte[] data) {
        update(data, 0, data.length);
        return this;
    }

    public void update(byte[] data, int off, int len) {
        register = advance(p, register, data, off, len);
    }

    /** One input bit into the normal-form register: {@link CrcParams#step}. */
    public static long step(CrcParams p, long register, int bit) {
        return p.step(register, bit);
    }

    /** Starts a new message. */
    public void reset() {
        register = p.init();
    }

    /** The raw register (normal form, not reflected, no final XOR). */
    public long register() {
        return register;
    }

    /** The CRC of everything so far (reflect-out and final XOR applied; the register is left as it is). */
    public long value() {
        return p.finish(register);
    }
}
