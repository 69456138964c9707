package org.sue.net;

/** What a receiver checks a frame's destination and partition against. */
public record LocalIdentity(long mac, byte[] ip, long xpu, int partition) {
    public LocalIdentity {
        if ((mac >>> 48) != 0) {
            throw new IllegalArgumentException("LocalIdentity mac is 48 bits");
        }
        if (ip == null || (ip.length != 4 && ip.length != 16)) {
            throw new IllegalArgumentException("LocalIdentity ip must be 4 or 16 bytes");
        }
        ip = ip.clone();
        if ((xpu >>> 32) != 0) {
            throw new IllegalArgumentException("LocalIdentity xpu is at most 32 bits");
        }
        if (partition < 0 || partition > 0x3ff) {
            throw new IllegalArgumentException("LocalIdentity partition must be 0..1023, got " + partition);
        }
    }

    @Override
    public byte[] ip() {
        return ip.clone();
    }
}
