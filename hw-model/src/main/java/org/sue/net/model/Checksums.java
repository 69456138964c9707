package org.sue.net.model;

/** Internet checksum (RFC 1071) as used by the IPv4 header. */
public final class Checksums {
    private Checksums() {
    }

    /**
     * One's-complement of the one's-complement sum of the 16-bit words of b[off, off+len). Over a header whose
     * checksum field is zero it gives the value to put there; over a header with a correct checksum it gives 0.
     */
    public static int ipv4(byte[] b, int off, int len) {
        long sum = 0;
        for (int i = 0; i < len; i += 2) {
            int hi = b[off + i] & 0xff;
            int lo = i + 1 < len ? b[off + i + 1] & 0xff : 0;
            sum += hi << 8 | lo;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xffff) + (sum >>> 16);
        }
        return (int) (~sum & 0xffff);
    }
}
