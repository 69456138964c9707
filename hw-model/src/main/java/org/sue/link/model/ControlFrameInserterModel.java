package org.sue.link.model;

import java.util.function.Supplier;

/**
 * Plain-Java model of {@link org.sue.link.ControlFrameInserter}, cycle by cycle: frames pass unless a control frame is
 * offered at a frame boundary or on its way; a taken frame spends a cycle on its FCS, then leaves beat by beat. A
 * frame's first beat offered and not yet taken is never withdrawn: the control frame waits for the next boundary.
 */
public final class ControlFrameInserterModel {
    public static final int PASS = 0;
    public static final int FCS = 1;
    public static final int SEND = 2;
    private final int lanes;
    private int phase = PASS;
    private boolean midFrame;
    /** A frame's first beat was offered on m_axis and not taken. */
    private boolean firstOffered;
    private int beat;
    private byte[] taken;
    private byte[] frame;
    private long inserted;

    public ControlFrameInserterModel(int lanes) {
        this.lanes = lanes;
    }

    /** s_axis is held this cycle when a control frame is offered ({@code offered}). */
    public boolean holding(boolean offered) {
        return phase != PASS || offered && !midFrame && !firstOffered;
    }

    /** m_axis carries a control frame's beat this cycle. */
    public boolean sending() {
        return phase == SEND;
    }

    /** The 64 bytes of the control frame being sent. */
    public byte[] frame() {
        return frame;
    }

    public int beat() {
        return beat;
    }

    public int phase() {
        return phase;
    }

    public long inserted() {
        return inserted;
    }

    /**
     * One cycle. {@code offered}: a control frame is offered, {@code frame} gives its 64 bytes if it is taken now;
     * {@code beatValid}/{@code beatLast}: a beat offered on s_axis; returns whether the control frame was taken.
     */
    public boolean step(boolean offered, Supplier<byte[]> frameNow, boolean beatValid, boolean beatLast,
                        boolean outReady) {
        int beats = (64 + lanes - 1) / lanes;
        boolean start = phase == PASS && offered && !midFrame && !firstOffered;
        boolean shown = beatValid && !holding(offered);
        if (shown && outReady) {
            midFrame = !beatLast;
        }
        firstOffered = shown && !outReady;
        if (phase == SEND && outReady) {
            if (beat == beats - 1) {
                phase = PASS;
                inserted++;
            }
            beat++;
        }
        if (phase == FCS) {
            frame = taken;
            beat = 0;
            phase = SEND;
        }
        if (start) {
            taken = frameNow.get();
            phase = FCS;
        }
        return start;
    }
}
