package org.sue.link.model;

import org.sue.link.PfcConfig;
import org.sue.link.PfcFrame;
import org.sue.net.SueMeta;

/**
 * Plain-Java model of {@link org.sue.link.PfcPause}, cycle by cycle, from IEEE 802.1Qbb as docs/protocol.md section 9
 * states it: a good PFC frame restarts the timer of each priority it enables with its pause time in cycles; a VC is
 * ready while its priority's timer is zero.
 */
public final class PfcPauseModel {
    private final PfcConfig c;
    private final long[] timers = new long[PfcConfig.CLASSES];
    private long received;
    private long dropped;

    public PfcPauseModel(PfcConfig config) {
        this.c = config;
    }

    public int classPaused() {
        int p = 0;
        for (int i = 0; i < timers.length; i++) {
            p |= timers[i] != 0 ? 1 << i : 0;
        }
        return p;
    }

    public int vcReady() {
        int r = 0;
        for (int v = 0; v < SueMeta.VCS; v++) {
            r |= (classPaused() >> c.classOf(v) & 1) == 0 ? 1 << v : 0;
        }
        return r;
    }

    /** One cycle; {@code frame}: the bytes of a frame whose last beat is on s_axis_pfc now, or null. */
    public void step(byte[] frame, boolean bad) {
        boolean applies = false;
        if (frame != null) {
            applies = !bad && frame.length == 64 && PfcFrame.get(frame, 0, 3) == 0x0180C2
                    && PfcFrame.get(frame, 3, 3) == 0x000001 && PfcFrame.get(frame, 12, 2) == PfcConfig.ETHER_TYPE
                    && PfcFrame.get(frame, 14, 2) == PfcConfig.OPCODE;
            received += applies ? 1 : 0;
            dropped += applies ? 0 : 1;
        }
        int vector = applies ? PfcFrame.get(frame, PfcFrame.VECTOR_AT + 1, 1) : 0;
        for (int i = 0; i < timers.length; i++) {
            if ((vector >> i & 1) == 1) {
                timers[i] = c.pauseCycles(PfcFrame.get(frame, PfcFrame.TIMES_AT + 2 * i, 2));
            } else if (timers[i] != 0) {
                timers[i]--;
            }
        }
    }

    public long status(String name) {
        return switch (name) {
            case "class_paused" -> classPaused();
            case "vc_ready" -> vcReady();
            case "pfc_frames_received" -> received;
            case "pfc_frames_dropped" -> dropped;
            default -> throw new IllegalArgumentException("PfcPauseModel has no status " + name);
        };
    }
}
