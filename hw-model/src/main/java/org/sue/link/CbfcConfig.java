package org.sue.link;

import org.sue.core.Bound;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Tag;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.NetConfig;
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

    private static final String NAME = "CbfcConfig";
    /** Bit v: VC v lossless; at least one (a port without a lossless VC needs no CBFC). */
    public static final Bound LOSSLESS_VCS = Bound.of(1, (1 << SueMeta.VCS) - 1);
    public static final Bound CREDIT_SIZE = Bound.powerOfTwo(32, 4096).because("the division is a shift");
    public static final Bound PACKET_OVERHEAD = Bound.of(-16, 127);
    /** At least the largest frame's credits (a rule); below 2^19 a sum of two in-use counts never wraps. */
    public static final Bound CREDIT_LIMIT = Bound.of(1, (1 << (COUNTER_WIDTH - 1)) - 1);
    public static final Bound MAX_FRAME_BYTES = Bound.of(64, 16384);
    public static final Bound CF_MIN_SPACING_BYTES = Bound.of(800, 1 << 20);
    /** At least {@code cfMinSpacingBytes} (a rule). */
    public static final Bound CF_MAX_SPACING_BYTES = Bound.of(16384, 1 << 20);
    public static final Bound CC_TIMER_CYCLES = Bound.of(16, 1 << 30);

    public CbfcConfig {
        StreamConfig.DATA_WIDTH.check(NAME, "dataWidth", dataWidth);
        LOSSLESS_VCS.check(NAME, "losslessVcs", losslessVcs);
        CREDIT_SIZE.check(NAME, "creditSize", creditSize);
        PACKET_OVERHEAD.check(NAME, "packetOverhead", packetOverhead);
        MAX_FRAME_BYTES.check(NAME, "maxFrameBytes", maxFrameBytes);
        int largest = credits(maxFrameBytes, creditSize, packetOverhead);
        checkLimit("vcCreditLimit", vcCreditLimit, largest);
        checkLimit("portCreditLimit", portCreditLimit, largest);
        CF_MIN_SPACING_BYTES.check(NAME, "cfMinSpacingBytes", cfMinSpacingBytes);
        CF_MAX_SPACING_BYTES.check(NAME, "cfMaxSpacingBytes", cfMaxSpacingBytes);
        if (cfMaxSpacingBytes < cfMinSpacingBytes) {
            throw new ConfigException(NAME, "{cfMaxSpacingBytes} must be at least {cfMinSpacingBytes} ("
                    + cfMinSpacingBytes + "), got " + cfMaxSpacingBytes);
        }
        CC_TIMER_CYCLES.check(NAME, "ccTimerCycles", ccTimerCycles);
        NetConfig.ETHER_TYPE.check(NAME, "ccEtherType", ccEtherType);
        Bound.of(0, 0xFFFF).check(NAME, "ccOpcode", ccOpcode);
        Bound.of(0, 0xFFFFFF).check(NAME, "ccOui", ccOui);
        Bound.of(0, 0xFF).check(NAME, "ccMsgType", ccMsgType);
        if (codes == null) {
            throw new IllegalArgumentException("CbfcConfig codes must be given");
        }
    }

    private static void checkLimit(String name, int limit, int largest) {
        CREDIT_LIMIT.check(NAME, name, limit);
        if (limit < largest) {
            throw new ConfigException(NAME, "{" + name + "} must be at least the credits of the largest frame"
                    + " ({maxFrameBytes} in {creditSize}-byte credits: " + largest + "), got " + limit);
        }
    }

    /**
     * SAI defaults: credit size 128 bytes, overhead 0, CF_MIN_SPACING 6400 bytes, CF_MAX_SPACING 262144 bytes,
     * CC_MESSAGE_TIMER 256 us (200,000 cycles of the 781.25 MHz clock that carries 800 Gb/s on 1024 bits); every VC
     * lossless; [ours] 256 credits (32 KiB) per VC, 1024 per port, frames up to 9216 bytes.
     */
    public static CbfcConfig defaults(int dataWidth) {
        return builder().build(dataWidth);
    }

    /** The defaults ({@link #defaults}), to change by name. */
    public static Builder builder() {
        return new Builder();
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

    /**
     * Parameters by name, the bus width given at {@link #build}; what is not set keeps its default
     * ({@link #defaults}), or, for a receiver whose FIFO is known ({@link #build(int, long, int)}), follows from it.
     */
    public static final class Builder {
        private static final int CREDIT_SIZE_DEFAULT = 128;
        private static final int PORT_LIMIT_DEFAULT = 1024;
        private static final int VC_LIMIT_DEFAULT = 256;

        private int losslessVcs = (1 << SueMeta.VCS) - 1;
        private Integer creditSize;
        private int packetOverhead;
        private Integer vcCreditLimit;
        private Integer portCreditLimit;
        private Integer maxFrameBytes;
        private int cfMinSpacingBytes = 6400;
        private int cfMaxSpacingBytes = 262_144;
        private int ccTimerCycles = 200_000;
        private int ccEtherType = 0x8808;
        private int ccOpcode = 0xFFFE;
        private int ccOui;
        private int ccMsgType = 1;
        private LinkControl.Codes codes = LinkControl.Codes.defaults();

        private Builder() {
        }

        public Builder losslessVcs(int v) {
            losslessVcs = v;
            return this;
        }

        public Builder creditSize(int v) {
            creditSize = v;
            return this;
        }

        public Builder packetOverhead(int v) {
            packetOverhead = v;
            return this;
        }

        public Builder vcCreditLimit(int v) {
            vcCreditLimit = v;
            return this;
        }

        public Builder portCreditLimit(int v) {
            portCreditLimit = v;
            return this;
        }

        public Builder maxFrameBytes(int v) {
            maxFrameBytes = v;
            return this;
        }

        public Builder cfMinSpacingBytes(int v) {
            cfMinSpacingBytes = v;
            return this;
        }

        public Builder cfMaxSpacingBytes(int v) {
            cfMaxSpacingBytes = v;
            return this;
        }

        public Builder ccTimerCycles(int v) {
            ccTimerCycles = v;
            return this;
        }

        public Builder codes(LinkControl.Codes v) {
            codes = v;
            return this;
        }

        /** [ours] 128-byte credits, 256 per VC, 1024 per port, frames up to 9216 bytes. */
        public CbfcConfig build(int dataWidth) {
            return build(dataWidth, creditSize != null ? creditSize : CREDIT_SIZE_DEFAULT,
                    portCreditLimit != null ? portCreditLimit : PORT_LIMIT_DEFAULT,
                    vcCreditLimit != null ? vcCreditLimit : VC_LIMIT_DEFAULT,
                    maxFrameBytes != null ? maxFrameBytes : 9216);
        }

        /**
         * For a receiver whose VCs share a FIFO of {@code fifoBytes} in whole bus beats, and frames up to
         * {@code largestFrame} bytes: credits of 128 bytes or one bus beat if that is larger; the port's limit what
         * the FIFO holds, at most 1024; a VC's the port's, at most 256; the largest frame reserved in whole credits;
         * both limits at least that frame's credits.
         */
        public CbfcConfig build(int dataWidth, long fifoBytes, int largestFrame) {
            int size = creditSize != null ? creditSize : Math.max(CREDIT_SIZE_DEFAULT, dataWidth / 8);
            int frame = maxFrameBytes != null ? maxFrameBytes : (largestFrame + size - 1) / size * size;
            int least = credits(frame, size, packetOverhead);
            int port = portCreditLimit != null ? portCreditLimit : (int) Math.max(least, Math.min(PORT_LIMIT_DEFAULT,
                    fifoBytes / size));
            int vc = vcCreditLimit != null ? vcCreditLimit : Math.max(least, Math.min(VC_LIMIT_DEFAULT, port));
            return build(dataWidth, size, port, vc, frame);
        }

        private CbfcConfig build(int dataWidth, int size, int port, int vc, int frame) {
            return new CbfcConfig(dataWidth, losslessVcs, size, packetOverhead, vc, port, frame, cfMinSpacingBytes,
                    cfMaxSpacingBytes, ccTimerCycles, ccEtherType, ccOpcode, ccOui, ccMsgType, codes);
        }
    }
}
