package org.sue.link.model;

import org.sue.link.PfcConfig;
import org.sue.link.PfcFrame;
import org.sue.net.SueMeta;

/**
 * Plain-Java model of {@link org.sue.link.PfcGenerator}, cycle by cycle, from docs/protocol.md section 9: XOFF/XON
 * hysteresis per priority over its VCs' buffers, a frame on every change and a refresh while a priority is off, each
 * frame's bytes from {@link PfcFrame#encode} (FCS by java.util.zip).
 */
public final class PfcGeneratorModel {
    private final PfcConfig c;
    private final ControlFrameInserterModel inserter;
    private int off;
    private int sentOff;
    private long refresh;
    private long xoffSent;
    private boolean sharedOff;

    public PfcGeneratorModel(PfcConfig config) {
        this.c = config;
        this.inserter = new ControlFrameInserterModel(config.dataWidth() / 8);
    }

    public ControlFrameInserterModel inserter() {
        return inserter;
    }

    /** A PFC frame is waiting to be taken. */
    public boolean due() {
        return off != sentOff || off != 0 && refresh == c.refreshCycles();
    }

    public boolean holding() {
        return inserter.holding(due());
    }

    /**
     * One cycle: the buffer levels, their total ({@code level_total}, read only with a shared threshold), a beat
     * offered on s_axis, m_axis ready.
     */
    public void step(long[] levels, long total, boolean beatValid, boolean beatLast, boolean outReady,
                     long localMac) {
        int frameOff = off;
        boolean start = inserter.step(due(), () -> frame(frameOff, localMac), beatValid, beatLast, outReady);
        if (start) {
            xoffSent += off != 0 ? 1 : 0;
            sentOff = off;
            refresh = 0;
        } else if (refresh != c.refreshCycles()) {
            refresh++;
        }
        sharedOff = c.shared() && (total >= c.sharedXoffBytes() || total > c.sharedXoffBytes() / 2 && sharedOff);
        int next = 0;
        for (int k = 0; k < PfcConfig.CLASSES; k++) {
            boolean above = false;
            boolean below = true;
            for (int v = 0; v < SueMeta.VCS; v++) {
                if (c.classOf(v) == k) {
                    above |= levels[v] >= c.xoffBytes();
                    below &= levels[v] <= c.xonBytes();
                }
            }
            boolean now = above || sharedOff || !below && (off >> k & 1) == 1;
            next |= now ? 1 << k : 0;
        }
        off = next;
    }

    private byte[] frame(int classesOff, long localMac) {
        int[] times = new int[PfcConfig.CLASSES];
        for (int k = 0; k < times.length; k++) {
            times[k] = (classesOff >> k & 1) == 1 ? c.pauseQuanta() : 0;
        }
        return PfcFrame.encode(localMac, c.usedClasses(), times);
    }

    public long status(String name) {
        return switch (name) {
            case "class_off" -> off;
            case "shared_off" -> sharedOff ? 1 : 0;
            case "xoff_frames_sent" -> xoffSent;
            case "pfc_frames_sent" -> inserter.inserted();
            default -> throw new IllegalArgumentException("PfcGeneratorModel has no status " + name);
        };
    }
}
