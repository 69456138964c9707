package org.sue.net.model;

/** Internet checksum (RFC 1071), as the IPv4 header and UDP use it. */
public final class Checksums {
    private Checksums() {
    }

    /**
     * One's-complement of the one's-complement sum of the 16-bit words of b[off, off+len) (an odd last byte is the
     * high byte of a word whose low byte is zero). Over bytes whose checksum field is zero it gives the value to put
     * there; over bytes with a correct checksum it gives 0.
     */
    public static int internet(byte[] b, int off, int len) {
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
