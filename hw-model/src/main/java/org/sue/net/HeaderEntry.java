package org.sue.net;

/**
 * One row of the per-destination header table (spec 4.2 step 5): what goes into the network header for a destination
 * XPU. Unused fields for a format are ignored. MAC addresses are 48-bit values; IP addresses 4 or 16 bytes.
 *
 * @param dstXpu   destination XPU address as carried by AFH formats (16 bits in Gen1 and Gen2 compressed, 32 in
 *                 Gen2 normal)
 * @param srcXpu   this XPU's address, likewise
 * @param udpSrcPort UDP source port (a flow entropy value for ECMP)
 * @param entropy  AFH entropy byte; {@code hopCount} AFH hop count (4 bits in the Gen1 shim, 8 in Gen2)
 */
public record HeaderEntry(long dstMac, long srcMac, int vlanId, byte[] dstIp, byte[] srcIp, int udpSrcPort,
                          long dstXpu, long srcXpu, int hopCount, int entropy) {
    public HeaderEntry {
        if ((dstMac >>> 48) != 0 || (srcMac >>> 48) != 0) {
            throw new IllegalArgumentException("HeaderEntry MAC addresses are 48 bits");
        }
        if (vlanId < 0 || vlanId > 0xfff) {
            throw new IllegalArgumentException("HeaderEntry vlanId must be 0..4095, got " + vlanId);
        }
        if (dstIp == null || srcIp == null || dstIp.length != srcIp.length || (dstIp.length != 4 && dstIp.length != 16)) {
            throw new IllegalArgumentException("HeaderEntry dstIp/srcIp must both be 4 (IPv4) or 16 (IPv6) bytes");
        }
        dstIp = dstIp.clone();
        srcIp = srcIp.clone();
        if (udpSrcPort < 0 || udpSrcPort > 0xffff) {
            throw new IllegalArgumentException("HeaderEntry udpSrcPort must be 0..65535, got " + udpSrcPort);
        }
        if ((dstXpu >>> 32) != 0 || (srcXpu >>> 32) != 0) {
            throw new IllegalArgumentException("HeaderEntry XPU addresses are at most 32 bits");
        }
        if (hopCount < 0 || hopCount > 0xff || entropy < 0 || entropy > 0xff) {
            throw new IllegalArgumentException("HeaderEntry hopCount and entropy must be 0..255");
        }
    }

    @Override
    public byte[] dstIp() {
        return dstIp.clone();
    }

    @Override
    public byte[] srcIp() {
        return srcIp.clone();
    }
}
