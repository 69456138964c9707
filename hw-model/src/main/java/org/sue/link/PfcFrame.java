package org.sue.link;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Expr;
import org.sue.core.Hw;

/**
 * The PFC frame (IEEE 802.1Qbb, IEEE 802.3 Annex 31D; docs/protocol.md section 9): DA 01-80-C2-00-00-01, SA,
 * EtherType 0x8808, opcode 0x0101, the class-enable vector (16 bits, priority i in bit i), 8 pause times of 16 bits
 * (priority 0 first), zero padding to 60 bytes, FCS: 64 bytes. In hardware a lane-ordered word (byte i in bits
 * [8i+7:8i]); in Java a byte array.
 */
public final class PfcFrame {
    private PfcFrame() {
    }

    public static final int VECTOR_AT = 16;
    /** Bits of the class-enable vector and of a pause time (in quanta of 512 bit times). */
    public static final int VECTOR_WIDTH = 16;
    public static final int TIME_WIDTH = 16;
    public static final int TIMES_AT = 18;
    /** Bytes up to the last pause time; padding follows. */
    public static final int USED_BYTES = TIMES_AT + 2 * PfcConfig.CLASSES;

    /** The frame before its FCS ({@link ControlFrameInserter#BODY_BYTES} bytes, lane order). */
    public static Expr body(Expr localMac, Expr vector, List<? extends Expr> times) {
        List<Expr> fields = new ArrayList<>(List.of(Hw.lit(ControlFrameInserter.MAC_WIDTH, PfcConfig.DESTINATION),
                localMac, Hw.lit(16, PfcConfig.ETHER_TYPE), Hw.lit(16, PfcConfig.OPCODE), vector.resize(VECTOR_WIDTH)));
        fields.addAll(times);
        fields.add(Hw.zeros(8 * (ControlFrameInserter.BODY_BYTES - USED_BYTES)));
        return ControlFrameInserter.laneOrder(Hw.cat(fields));
    }

    /** Bytes {@code at .. at+n-1} of a lane-ordered frame word as a big-endian value. */
    public static Expr field(Expr frame, int at, int n) {
        return ControlFrameInserter.laneOrder(frame.bits(8 * (at + n) - 1, 8 * at));
    }

    // ---- plain Java ---------------------------------------------------------------------------------------------

    /** The 64 bytes of a PFC frame, FCS included. */
    public static byte[] encode(long localMac, int vector, int[] times) {
        byte[] f = new byte[ControlFrameInserter.FRAME_BYTES];
        ControlFrameInserter.put(f, 0, 6, PfcConfig.DESTINATION);
        ControlFrameInserter.put(f, 6, 6, localMac);
        ControlFrameInserter.put(f, 12, 2, PfcConfig.ETHER_TYPE);
        ControlFrameInserter.put(f, 14, 2, PfcConfig.OPCODE);
        ControlFrameInserter.put(f, VECTOR_AT, 2, vector);
        for (int i = 0; i < PfcConfig.CLASSES; i++) {
            ControlFrameInserter.put(f, TIMES_AT + 2 * i, 2, times[i]);
        }
        return ControlFrameInserter.withFcs(f);
    }

    /** A big-endian field of a frame. */
    public static int get(byte[] f, int at, int n) {
        int v = 0;
        for (int i = 0; i < n; i++) {
            v = v << 8 | f[at + i] & 0xFF;
        }
        return v;
    }

}
