package org.sue.instance.tb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sue.instance.SueManagedInstance;
import org.sue.mgmt.RawTxBuffer;
import org.sue.net.FrameFormat;
import org.sue.net.model.FrameCodec;

/**
 * Software's side of the raw-packet registers (docs/management.md "Raw packets"): a frame as the words written to
 * {@code raw_tx.data}, and a frame from the words read from {@code raw_rx.data}; byte 4k of a frame is bits 7:0 of
 * word k.
 */
public final class RawFrames {
    private RawFrames() {
    }

    /** The words software writes to {@code raw_tx.data} for {@code frame}. */
    public static List<Long> words(byte[] frame) {
        List<Long> words = new ArrayList<>();
        for (int k = 0; 4 * k < frame.length; k++) {
            long word = 0;
            for (int b = 0; b < 4 && 4 * k + b < frame.length; b++) {
                word |= (frame[4 * k + b] & 0xFFL) << (8 * b);
            }
            words.add(word);
        }
        return words;
    }

    /** Word {@code k} read from {@code raw_rx.data} put into {@code frame}. */
    public static void put(byte[] frame, int k, long word) {
        for (int b = 0; b < 4 && 4 * k + b < frame.length; b++) {
            frame[4 * k + b] = (byte) (word >>> (8 * b));
        }
    }

    /** The length {@code raw_rx.head} says the oldest frame has, or -1 when there is none. */
    public static int length(long head) {
        int valid = SueManagedInstance.RAW_HEAD_VALID_BIT;
        return (head >>> valid & 1) == 0 ? -1 : (int) (head & ((1L << valid) - 1));
    }

    /**
     * The frame on the wire for {@code frame} as software wrote it: padded with zeros to 60 bytes, its FCS appended
     * (computed with java.util.zip.CRC32 by {@link FrameCodec#crc32}, not with the model's CRC code).
     */
    public static byte[] onTheWire(byte[] frame) {
        int fcsAt = Math.max(frame.length, RawTxBuffer.PADDED_BYTES);
        byte[] wire = Arrays.copyOf(frame, fcsAt + FrameFormat.FCS_BYTES);
        FrameCodec.putLe32(wire, fcsAt, FrameCodec.crc32(wire, 0, fcsAt));
        return wire;
    }

    /** An ARP request from {@code srcMac}/{@code srcIp} for {@code dstIp}: 42 bytes, broadcast (RFC 826). */
    public static byte[] arpRequest(long srcMac, long srcIp, long dstIp) {
        byte[] f = new byte[42];
        for (int i = 0; i < 6; i++) {
            f[i] = (byte) 0xFF;
            f[6 + i] = (byte) (srcMac >>> (8 * (5 - i)));
            f[22 + i] = (byte) (srcMac >>> (8 * (5 - i)));
        }
        byte[] fixed = {0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 0x06, 0x04, 0x00, 0x01};
        System.arraycopy(fixed, 0, f, 12, fixed.length);
        for (int i = 0; i < 4; i++) {
            f[28 + i] = (byte) (srcIp >>> (8 * (3 - i)));
            f[38 + i] = (byte) (dstIp >>> (8 * (3 - i)));
        }
        return f;
    }
}
