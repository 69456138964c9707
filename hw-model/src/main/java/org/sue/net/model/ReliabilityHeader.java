package org.sue.net.model;

import org.sue.net.FrameFormat;
import org.sue.net.SueMeta;

/**
 * The 8-byte SUE reliability header (spec 3.3, docs/protocol.md section 2), laid out as {@link FrameFormat#RH}: four
 * big-endian 16-bit words {ver[15:14] op[13:12] port[11:10] xpuid[9:0]}, {psn}, {vc[15:14] rsvd partition[9:0]},
 * {rpsn}. {@code xpuid} is the source XPU. {@code op}: 0 none, 1 ACK, 2 NACK, 3 reserved ([ours]). {@code port}
 * ([ours], the spec's reserved bits): the port of the PDU's connection, 0 with one port.
 */
public record ReliabilityHeader(int ver, int op, int port, int xpuid, int psn, int vc, int partition, int rpsn) {
    public ReliabilityHeader {
        check("ver", ver);
        check("op", op);
        check("port", port);
        check("xpuid", xpuid);
        check("psn", psn);
        check("vc", vc);
        check("partition", partition);
        check("rpsn", rpsn);
    }

    /** A header of connection port 0 (an instance with one port). */
    public ReliabilityHeader(int ver, int op, int xpuid, int psn, int vc, int partition, int rpsn) {
        this(ver, op, 0, xpuid, psn, vc, partition, rpsn);
    }

    /** The reliability header a transmitter builds from a packet's metadata (xpuid = source). */
    public static ReliabilityHeader of(SueMeta meta, int version) {
        return new ReliabilityHeader(version, meta.op(), meta.port(), meta.srcXpu(), meta.psn(), meta.vc(), meta.partition(),
                meta.rpsn());
    }

    private static void check(String field, int v) {
        int max = (1 << FrameFormat.RH.slot(field).width()) - 1;
        if (v < 0 || v > max) {
            throw new IllegalArgumentException("reliability header " + field + " must be 0.." + max + ", got " + v);
        }
    }

    public void encode(byte[] dst, int off) {
        FrameFormat.RH.set(dst, off, "ver", ver);
        FrameFormat.RH.set(dst, off, "op", op);
        FrameFormat.RH.set(dst, off, "port", port);
        FrameFormat.RH.set(dst, off, "xpuid", xpuid);
        FrameFormat.RH.set(dst, off, "psn", psn);
        FrameFormat.RH.set(dst, off, "vc", vc);
        FrameFormat.RH.set(dst, off, "rsvd2", 0);
        FrameFormat.RH.set(dst, off, "partition", partition);
        FrameFormat.RH.set(dst, off, "rpsn", rpsn);
    }

    public byte[] encode() {
        byte[] b = new byte[FrameFormat.RH_BYTES];
        encode(b, 0);
        return b;
    }

    /** Decodes 8 bytes; the reserved bits of the third word are ignored, as the spec asks of a receiver. */
    public static ReliabilityHeader decode(byte[] src, int off) {
        return new ReliabilityHeader(field(src, off, "ver"), field(src, off, "op"), field(src, off, "port"),
                field(src, off, "xpuid"),
                field(src, off, "psn"), field(src, off, "vc"), field(src, off, "partition"), field(src, off, "rpsn"));
    }

    private static int field(byte[] src, int off, String name) {
        return (int) FrameFormat.RH.get(src, off, name);
    }
}
