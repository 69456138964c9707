package org.sue.link;

import org.sue.core.Expr;
import org.sue.core.Tag;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.SueMeta;

/**
 * Parameters of Credit-Based Flow Control on one port (docs/protocol.md section 8), shared by {@link CbfcSender} and
 * {@link CbfcReceiver}; names and defaults follow the SAI CBFC proposal. Credits are counted per VC (the SUE VC is
 * the CBFC class) in 20-bit cyclic counters.
 *
 * @param dataWidth          bits of the frame bus; one cycle is taken as {@code dataWidth / 8} bytes of link time
 *                           for the CF_Update spacing
 * @param losslessVcs        bit v set: VC v is lossless (checked and counted); clear: best effort (neither); at
 *                           least one
 * @param creditSize         bytes per credit, a power of two 32..4096 ([ours]: so the division is a shift)
 * @param packetOverhead     bytes added to each frame's size before rounding up to credits (-16..127)
 * @param vcCreditLimit      S_VC_CL of every lossless VC ([ours]: one value for all), in credits
 * @param portCreditLimit    S_P_CL, in credits
 * @param maxFrameBytes      the largest frame the port sends (64..16384): a pick whose size is not known yet
 *                           reserves this frame's credits
 * @param cfMinSpacingBytes  receiver: a VC's CF_Updates no closer than this many bytes of link time (>= 800)
 * @param cfMaxSpacingBytes  receiver: a lossless VC's CF_Update at least this often, owed or not (16 KiB .. 1 MiB)
 * @param ccTimerCycles      sender: a CC_Update frame every this many cycles
 * @param ccEtherType        CC_Update frame EtherType (default 0x8808, MAC Control)
 * @param ccOpcode           CC_Update frame opcode (default 0xFFFE)
 * @param ccOui              CC_Update frame OUI, 24 bits ([ours] default 0)
 * @param ccMsgType          CC_Update frame message type, 8 bits ([ours] default 1)
 * @param codes              link-control type codes (CF_Update's among them)
 */
public record CbfcConfig(@Tag("w") int dataWidth, @Tag("ll") int losslessVcs, int creditSize, int packetOverhead,
                         @Tag("vl") int vcCreditLimit, @Tag("pl") int portCreditLimit, int maxFrameBytes,
                         int cfMinSpacingBytes, int cfMaxSpacingBytes, int ccTimerCycles, int ccEtherType,
                         int ccOpcode, int ccOui, int ccMsgType, LinkControl.Codes codes) {
    /** Bits of every CBFC counter (ETH-X, UEC). */
    public static final int COUNTER_WIDTH = 20;
    /** Bits of a frame's byte count (frames up to 16384 bytes). */
    public static final int FRAME_BYTES_WIDTH = 15;
    /** Bytes of a CC_Update frame, FCS included. */
    public static final int CC_FRAME_BYTES = 64;
    /** S_VC_CC values one CC_Update frame carries (VC 0..15). */
    public static final int CC_COUNTERS = 16;
    /** [ours] the destination of CC_Update frames: the IEEE 802.3 MAC Control address. */
    public static final long CC_DESTINATION = 0x0180C2000001L;

    public CbfcConfig {
        new StreamConfig(dataWidth, 1); // validates the bus width
        check("losslessVcs", losslessVcs, 1, (1 << SueMeta.VCS) - 1); // a port without lossless VC needs no CBFC
        if (creditSize < 32 || creditSize > 4096 || Integer.bitCount(creditSize) != 1) {
            throw new IllegalArgumentException("CbfcConfig creditSize must be a power of two 32..4096, got "
                    + creditSize);
        }
        check("packetOverhead", packetOverhead, -16, 127);
        check("maxFrameBytes", maxFrameBytes, 64, 16384);
        int largest = credits(maxFrameBytes, creditSize, packetOverhead);
        // below 2^19 a sum of two in-use counts never wraps the 20-bit counters
        check("vcCreditLimit", vcCreditLimit, largest, (1 << (COUNTER_WIDTH - 1)) - 1);
        check("portCreditLimit", portCreditLimit, largest, (1 << (COUNTER_WIDTH - 1)) - 1);
        check("cfMinSpacingBytes", cfMinSpacingBytes, 800, 1 << 20);
        check("cfMaxSpacingBytes", cfMaxSpacingBytes, Math.max(16384, cfMinSpacingBytes), 1 << 20);
        check("ccTimerCycles", ccTimerCycles, 16, 1 << 30);
        check("ccEtherType", ccEtherType, 0x0600, 0xFFFF);
        check("ccOpcode", ccOpcode, 0, 0xFFFF);
        check("ccOui", ccOui, 0, 0xFFFFFF);
        check("ccMsgType", ccMsgType, 0, 0xFF);
        if (codes == null) {
            throw new IllegalArgumentException("CbfcConfig codes must be given");
        }
    }

    private static void check(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("CbfcConfig " + name + " must be " + min + ".." + max + ", got " + value);
        }
    }

    /**
     * SAI defaults: credit size 128 bytes, overhead 0, CF_MIN_SPACING 6400 bytes, CF_MAX_SPACING 262144 bytes,
     * CC_MESSAGE_TIMER 256 us (200,000 cycles of the 781.25 MHz clock that carries 800 Gb/s on 1024 bits); every VC
     * lossless; [ours] 256 credits (32 KiB) per VC, 1024 per port, frames up to 9216 bytes.
     */
    public static CbfcConfig defaults(int dataWidth) {
        return new CbfcConfig(dataWidth, (1 << SueMeta.VCS) - 1, 128, 0, 256, 1024, 9216, 6400, 262_144, 200_000,
                0x8808, 0xFFFE, 0, 1, LinkControl.Codes.defaults());
    }

    /** The same with other limits, largest frame and CC timer (tests and small instances). */
    public CbfcConfig withLimits(int vcLimit, int portLimit, int maxFrame, int ccTimer) {
        return new CbfcConfig(dataWidth, losslessVcs, creditSize, packetOverhead, vcLimit, portLimit, maxFrame,
                cfMinSpacingBytes, cfMaxSpacingBytes, ccTimer, ccEtherType, ccOpcode, ccOui, ccMsgType, codes);
    }

    /** The same with other VC classes, credit size and overhead. */
    public CbfcConfig withCredits(int lossless, int size, int overhead) {
        return new CbfcConfig(dataWidth, lossless, size, overhead, vcCreditLimit, portCreditLimit, maxFrameBytes,
                cfMinSpacingBytes, cfMaxSpacingBytes, ccTimerCycles, ccEtherType, ccOpcode, ccOui, ccMsgType, codes);
    }

    /** The same with other CF_Update spacings. */
    public CbfcConfig withSpacing(int minBytes, int maxBytes) {
        return new CbfcConfig(dataWidth, losslessVcs, creditSize, packetOverhead, vcCreditLimit, portCreditLimit,
                maxFrameBytes, minBytes, maxBytes, ccTimerCycles, ccEtherType, ccOpcode, ccOui, ccMsgType, codes);
    }

    public int beatBytes() {
        return dataWidth / 8;
    }

    public boolean lossless(int vc) {
        return (losslessVcs >> vc & 1) != 0;
    }

    /** {@code pktCredits = ceil((pktSize + PktOvhd) / CreditSize)} of a frame of {@code frameBytes} (FCS included). */
    public int credits(int frameBytes) {
        return credits(frameBytes, creditSize, packetOverhead);
    }

    private static int credits(int bytes, int size, int overhead) {
        return (bytes + overhead + size - 1) / size;
    }

    /** {@link #credits(int)} in hardware, as a {@link #COUNTER_WIDTH}-bit value. */
    public Expr creditsOf(Expr frameBytes) {
        int shift = Integer.numberOfTrailingZeros(creditSize);
        return frameBytes.resize(COUNTER_WIDTH).add(packetOverhead + creditSize - 1).shr(shift);
    }

    /** What a pick reserves before its size is known: the largest frame's credits. */
    public int maxFrameCredits() {
        return credits(maxFrameBytes);
    }

    /** Cycles of link time in {@code bytes}, rounded up. */
    public int cycles(int bytes) {
        return (bytes + beatBytes() - 1) / beatBytes();
    }
}
