package org.sue.net.model;

import org.sue.net.FrameFormat;

/**
 * The 8-byte SUE reliability header (spec 3.3, docs/protocol.md section 2): four big-endian 16-bit words
 * {ver[15:14] op[13:12] rsvd xpuid[9:0]}, {psn}, {vc[15:14] rsvd partition[9:0]}, {rpsn}. {@code xpuid} is the
 * source XPU. {@code op}: 0 none, 1 ACK, 2 NACK, 3 reserved ([ours]).
 */
public record ReliabilityHeader(int ver, int op, int xpuid, int psn, int vc, int partition, int rpsn) {
    public ReliabilityHeader {
        check("ver", ver, 3);
        check("op", op, 3);
        check("xpuid", xpuid, 0x3ff);
        check("psn", psn, 0xffff);
        check("vc", vc, 3);
        check("partition", partition, 0x3ff);
        check("rpsn", rpsn, 0xffff);
    }

    private static void check(String field, int v, int max) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException("reliability header " + field + " must be 0.." + max + ", got " + v);
        }
    }

    public void encode(byte[] dst, int off) {
        int w0 = ver << 14 | op << 12 | xpuid;
        int w2 = vc << 14 | partition;
        put16(dst, off, w0);
        put16(dst, off + 2, psn);
        put16(dst, off + 4, w2);
        put16(dst, off + 6, rpsn);
    }

    public byte[] encode() {
        byte[] b = new byte[FrameFormat.RH_BYTES];
        encode(b, 0);
        return b;
    }

    /** Decodes 8 bytes; the reserved bits are ignored, as the spec asks of a receiver. */
    public static ReliabilityHeader decode(byte[] src, int off) {
        int w0 = get16(src, off);
        int w2 = get16(src, off + 4);
        return new ReliabilityHeader(w0 >>> 14, (w0 >>> 12) & 3, w0 & 0x3ff, get16(src, off + 2), w2 >>> 14,
                w2 & 0x3ff, get16(src, off + 6));
    }

    static void put16(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }

    static int get16(byte[] b, int off) {
        return (b[off] & 0xff) << 8 | (b[off + 1] & 0xff);
    }
}
