package org.sue.link;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Expr;
import org.sue.core.Hw;

/**
 * The CC_Update frame (docs/protocol.md section 8.3), 64 bytes: MAC DA, MAC SA, EtherType, opcode, OUI, message type,
 * 16 S_VC_CC counters of 20 bits packed big-endian (VC 0 first), FCS. In hardware the whole frame is one 512-bit
 * word, byte i of the frame in bits [8i+7:8i] (the bus's lane order); in Java a byte array.
 */
public final class CcUpdateFrame {
    private CcUpdateFrame() {
    }

    /** Bytes before the FCS. */
    public static final int BODY_BYTES = CbfcConfig.CC_FRAME_BYTES - 4;
    /** Byte offset of the first counter. */
    public static final int COUNTERS_AT = 20;

    /**
     * The frame before its FCS as a lane-ordered word ({@link ControlFrameInserter} adds the FCS): {@code counters}
     * are the S_VC_CC of VC 0, 1, ... (the rest are zero).
     */
    public static Expr body(CbfcConfig c, Expr localMac, List<? extends Expr> counters) {
        List<Expr> fields = new ArrayList<>(List.of(Hw.lit(ControlFrameInserter.MAC_WIDTH, CbfcConfig.CC_DESTINATION),
                localMac, Hw.lit(16, c.ccEtherType()), Hw.lit(16, c.ccOpcode()), Hw.lit(24, c.ccOui()),
                Hw.lit(8, c.ccMsgType())));
        for (int v = 0; v < CbfcConfig.CC_COUNTERS; v++) {
            fields.add(v < counters.size() ? counters.get(v) : Hw.zeros(CbfcConfig.COUNTER_WIDTH));
        }
        return ControlFrameInserter.laneOrder(Hw.cat(fields));
    }

    /** The counters of a received frame word (lane order), VC 0 first. */
    public static List<Expr> counters(Expr frame, int n) {
        Expr fields = ControlFrameInserter.laneOrder(frame.bits(8 * BODY_BYTES - 1, 8 * COUNTERS_AT)); // big-endian again
        int w = CbfcConfig.COUNTER_WIDTH;
        List<Expr> out = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            int hi = fields.width() - 1 - w * v;
            out.add(fields.bits(hi, hi - w + 1));
        }
        return out;
    }

    /** The header fields a receiver checks (EtherType, opcode, OUI, message type) as in the frame word. */
    public static Expr header(Expr frame) {
        return frame.bits(8 * COUNTERS_AT - 1, 8 * 12);
    }

    /** {@link #header} of a well-formed frame. */
    public static Expr expectedHeader(CbfcConfig c) {
        return ControlFrameInserter.laneOrder(Hw.cat(Hw.lit(16, c.ccEtherType()), Hw.lit(16, c.ccOpcode()), Hw.lit(24, c.ccOui()),
                Hw.lit(8, c.ccMsgType())));
    }

    // ---- plain Java ---------------------------------------------------------------------------------------------

    /** The 64 bytes of a CC_Update frame, FCS included. */
    public static byte[] encode(CbfcConfig c, long localMac, long[] counters) {
        byte[] f = new byte[CbfcConfig.CC_FRAME_BYTES];
        ControlFrameInserter.put(f, 0, 6, CbfcConfig.CC_DESTINATION);
        ControlFrameInserter.put(f, 6, 6, localMac);
        ControlFrameInserter.put(f, 12, 2, c.ccEtherType());
        ControlFrameInserter.put(f, 14, 2, c.ccOpcode());
        ControlFrameInserter.put(f, 16, 3, c.ccOui());
        ControlFrameInserter.put(f, 19, 1, c.ccMsgType());
        int w = CbfcConfig.COUNTER_WIDTH;
        for (int v = 0; v < counters.length; v++) {
            for (int k = 0; k < w; k++) { // bit k of counter v, most significant first
                if ((counters[v] >> (w - 1 - k) & 1) != 0) {
                    int bit = w * v + k;
                    f[COUNTERS_AT + bit / 8] |= (byte) (0x80 >> (bit % 8));
                }
            }
        }
        return ControlFrameInserter.withFcs(f);
    }

    /** Counter v of an encoded frame. */
    public static long counter(byte[] frame, int v) {
        int w = CbfcConfig.COUNTER_WIDTH;
        long value = 0;
        for (int k = 0; k < w; k++) {
            int bit = w * v + k;
            value = value << 1 | (frame[COUNTERS_AT + bit / 8] >> (7 - bit % 8) & 1);
        }
        return value;
    }

}
