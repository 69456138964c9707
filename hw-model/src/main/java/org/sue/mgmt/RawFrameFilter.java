package org.sue.mgmt;

import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Tag;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.link.LlrSideband;
import org.sue.link.MacControlDemux;

/**
 * Takes the raw frames out of the frames from the MAC (docs/management.md "Raw packets"): a frame whose EtherType
 * (right after the addresses) is one of the {@value #ENTRIES} enabled filter entries goes to {@code m_axis_raw},
 * every other frame on to the instance ({@code m_axis}), where a frame that is not SUE traffic is dropped and counted
 * as before. Never taken, whatever the filter says: the instance's own EtherType ({@code sueEtherType}), MAC Control
 * frames (0x8808) and, with LLR, frames with a sequence number (raw frames are sent without one). Cut through, no
 * register: the choice is made on a frame's first beat and held to its last; all three are flows.
 *
 * <p>{@code m_axis_raw_tuser} on the last beat: the MAC found the frame bad (with LLR: bad or poisoned).
 */
public final class RawFrameFilter extends Component {
    /** Filter entries: {EtherType, enable} each. */
    public static final int ENTRIES = 4;

    /**
     * @param busWidth     bits of the MAC stream
     * @param llr          the MAC stream carries LLR's sideband ({@link LlrSideband#RX}) in tuser; else one bad bit
     * @param sueEtherType the EtherType of the instance's own frames
     */
    public record Config(@Tag("w") int busWidth, @Tag("l") boolean llr, @Tag("e") int sueEtherType) {
        public Config {
            new MacControlDemux.Config(busWidth); // the EtherType in the first beat
            if (sueEtherType < 0 || sueEtherType > 0xFFFF) {
                throw new ConfigException("RawFrameFilter", "{sueEtherType} must be 16 bits, got " + sueEtherType);
            }
        }

        /** The MAC stream's beat. */
        public Layout beat() {
            return Stream.packet(busWidth, llr ? LlrSideband.RX.width() : 1);
        }
    }

    public final Flow in;
    public final Flow out;
    public final Flow raw;
    /** Entry k's EtherType in bits 16k+15..16k. */
    public final Port types;
    /** Bit k: entry k takes frames. */
    public final Port enables;

    public RawFrameFilter(Config config) {
        super(config);
        in = Flow.slave(this, "s_axis", config.beat());
        out = Flow.master(this, "m_axis", config.beat());
        raw = Flow.master(this, "m_axis_raw", Stream.packet(config.busWidth(), 1));
        types = in("filter_types", 16 * ENTRIES);
        enables = in("filter_enables", ENTRIES);

        Expr type = MacControlDemux.etherType(in);
        Expr listed = Hw.bool(false);
        for (int k = 0; k < ENTRIES; k++) {
            listed = listed.or(enables.bit(k).and(types.bits(16 * k + 15, 16 * k).eq(type)));
        }
        Expr never = type.eq(config.sueEtherType()).or(type.eq(MacControlDemux.ETHER_TYPE))
                .or(in.tkeep().bit(13).not());
        Expr bad = in.tuser();
        if (config.llr()) {
            never = never.or(LlrSideband.RX.field("llr").of(in.tuser()));
            bad = LlrSideband.RX.field("bad").of(in.tuser()).or(LlrSideband.RX.field("poisoned").of(in.tuser()));
            unused("raw_seq", LlrSideband.RX.field("seq").of(in.tuser()));
        }
        Expr isRaw = in.perPacket("is_raw", wire("listed", listed.and(never.not())));
        in.throwWhen("frames", isRaw).into(out);
        in.throwWhen("raw_frames", isRaw.not()).retagged("raw_tagged", raw.layout(), bad).into(raw);
    }
}
