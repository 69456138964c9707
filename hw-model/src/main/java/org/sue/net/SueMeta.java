package org.sue.net;

import java.math.BigInteger;
import org.sue.core.Bound;
import org.sue.core.Expr;
import org.sue.core.Layout;

/**
 * Per-packet metadata carried on the stream bus's {@code tuser} (one layout for the whole project, {@link #LAYOUT}),
 * least significant field first: dst_xpu[9:0], src_xpu[19:10], vc[21:20], psn[37:22], op[39:38], rpsn[55:40],
 * partition[65:56], port[67:66], err[68], len[81:69], link[83:82]. {@code len} is the number of packed-command bytes of
 * the PDU (without RH, padding or R-CRC), set where the PDU is assembled; the framing path derives every length from
 * it. {@code port} names the PDU's connection {port, XPU} (the RH carries it, docs/protocol.md 2); {@code link} is the
 * port a received PDU arrived on, whose receive buffer holds it (they differ when a connection's PDUs take another
 * port, docs/protocol.md 10.6; 0 on transmit and with one port).
 * The field widths here are the project's one home for them (XPU ids, VC, PSN, PDU length).
 */
public record SueMeta(int dstXpu, int srcXpu, int vc, int psn, int op, int rpsn, int partition, int port, boolean err,
                      int len, int link) {
    /** Width of an XPU id (spec Table 1 {@code xpuid}). */
    public static final int XPU_WIDTH = 10;
    /** Remote XPUs an instance reaches: a power of two that an XPU id can number. */
    public static final Bound DESTINATIONS = Bound.powerOfTwo(2, 1 << XPU_WIDTH);
    /** Width of a VC number; there are {@link #VCS} of them. */
    public static final int VC_WIDTH = 2;
    /** Virtual channels: the 2-bit {@code vc} of the RH and of every command. */
    public static final int VCS = 1 << VC_WIDTH;
    /** Width of a PSN (RH {@code psn} and {@code rpsn}). */
    public static final int PSN_WIDTH = 16;
    /** Width of a PDU length in bytes: up to 4096. */
    public static final int LEN_WIDTH = 13;
    /** Width of a partition (RH {@code partition}). */
    public static final int PARTITION_WIDTH = 10;
    /** Width of the RH {@code op}: what {@code rpsn} means. */
    public static final int OP_WIDTH = 2;

    public static final Layout LAYOUT = Layout.of("sue_meta", Layout.bits("dst_xpu", XPU_WIDTH),
            Layout.bits("src_xpu", XPU_WIDTH), Layout.bits("vc", VC_WIDTH), Layout.bits("psn", PSN_WIDTH),
            Layout.bits("op", OP_WIDTH), Layout.bits("rpsn", PSN_WIDTH), Layout.bits("partition", PARTITION_WIDTH),
            Layout.bits("port", 2), Layout.bits("err", 1), Layout.bits("len", LEN_WIDTH), Layout.bits("link", 2));
    public static final int WIDTH = LAYOUT.width();
    public static final Layout.Field DST_XPU = LAYOUT.field("dst_xpu");
    public static final Layout.Field SRC_XPU = LAYOUT.field("src_xpu");
    public static final Layout.Field VC = LAYOUT.field("vc");
    public static final Layout.Field PSN = LAYOUT.field("psn");
    public static final Layout.Field OP = LAYOUT.field("op");
    public static final Layout.Field RPSN = LAYOUT.field("rpsn");
    public static final Layout.Field PARTITION = LAYOUT.field("partition");
    public static final Layout.Field PORT = LAYOUT.field("port");
    public static final Layout.Field ERR = LAYOUT.field("err");
    public static final Layout.Field LEN = LAYOUT.field("len");
    public static final Layout.Field LINK = LAYOUT.field("link");
    /** A PDU's VC, length and link: what a port's receive buffer accounting needs of a PDU that left it. */
    public static final Layout PDU_SIZE = Layout.of("pdu_size", Layout.bits("vc", VC_WIDTH),
            Layout.bits("len", LEN_WIDTH), Layout.bits("port", PORT.width()));

    /** {@link #PDU_SIZE} of the PDU whose metadata is {@code meta}. */
    public static Expr sizeOf(Expr meta) {
        return PDU_SIZE.expr().set("vc", VC.of(meta)).set("len", LEN.of(meta)).set("port", LINK.of(meta)).build();
    }

    public SueMeta {
        check(DST_XPU, dstXpu);
        check(SRC_XPU, srcXpu);
        check(VC, vc);
        check(PSN, psn);
        check(OP, op);
        check(RPSN, rpsn);
        check(PARTITION, partition);
        check(PORT, port);
        check(LEN, len);
        check(LINK, link);
    }

    /** Metadata of a PDU not (yet) received on a port: {@code link} 0. */
    public SueMeta(int dstXpu, int srcXpu, int vc, int psn, int op, int rpsn, int partition, int port, boolean err,
                   int len) {
        this(dstXpu, srcXpu, vc, psn, op, rpsn, partition, port, err, len, 0);
    }

    private static void check(Layout.Field f, int v) {
        if (v < 0 || v >= 1 << f.width()) {
            throw new IllegalArgumentException("SueMeta " + f.name() + " must be 0.." + ((1 << f.width()) - 1)
                    + ", got " + v);
        }
    }

    public BigInteger pack() {
        return LAYOUT.pack(this);
    }

    public static SueMeta unpack(BigInteger v) {
        return LAYOUT.unpack(v, SueMeta.class);
    }
}
