package org.sue.link;

import java.math.BigInteger;
import org.sue.core.Layout;

/**
 * The per-frame sideband of the MAC interface with LLR (docs/protocol.md section 7.2), carried in {@code tuser}: the
 * sequence number UEC puts in the preamble, and the frame's status.
 */
public final class LlrSideband {
    private LlrSideband() {
    }

    /**
     * Frames to the MAC ({@code m_axis_tuser}, the same on every beat of a frame): {@code seq}, {@code llr} (the frame
     * carries a sequence number: it went through the replay buffer), {@code poisoned} (send it with a poisoned FCS).
     */
    public static final Layout TX = Layout.of("llr_tx_user", Layout.bits("seq", LinkControl.SEQ_WIDTH),
            Layout.bits("llr", 1), Layout.bits("poisoned", 1));

    /**
     * Frames from the MAC ({@code s_axis_tuser}): {@code seq} and {@code llr} as sent, read on the first beat;
     * {@code bad} (bad FCS or an uncorrectable FEC block) and {@code poisoned} (the sender poisoned the FCS), read on
     * the last beat.
     */
    public static final Layout RX = Layout.of("llr_rx_user", Layout.bits("seq", LinkControl.SEQ_WIDTH),
            Layout.bits("llr", 1), Layout.bits("bad", 1), Layout.bits("poisoned", 1));

    /** What the receiving MAC reports for a frame sent with {@code txUser} ({@link #TX}): the same, and bad or not. */
    public static BigInteger received(BigInteger txUser, boolean bad) {
        return RX.word().set("seq", TX.field("seq").get(txUser)).set("llr", TX.field("llr").get(txUser))
                .set("bad", bad ? 1 : 0).set("poisoned", TX.field("poisoned").get(txUser)).toBigInteger();
    }
}
