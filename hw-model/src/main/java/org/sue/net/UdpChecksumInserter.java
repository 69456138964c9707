package org.sue.net;

import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Reg;
import org.sue.core.Tag;
import org.sue.lib.stream.InternetSum;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;

/**
 * Transmit side, IP formats: fills in the UDP checksum (RFC 768; RFC 8200 makes it mandatory over IPv6) of frames
 * that leave {@link NetHeaderInserter} with it zero, at one beat per cycle.
 *
 * <p>The checksum sits in the UDP header but covers every byte after it, up to the R-CRC, so a frame is held until its
 * last byte has been summed: a FIFO of frame beats (two of the largest frames, so the next frame streams in while one
 * leaves), an {@link InternetSum} beside it from the pseudo header's addresses on, and a queue of per-frame checksums
 * as deep as the beat FIFO (every frame has at least one beat there, so it never fills first): a frame's checksum is
 * finished as its sum arrives (the pseudo header's protocol and UDP length added, complemented). A frame leaves once
 * its checksum is known, patched into its beat. The input never waits; added latency: the frame's own beats plus three
 * to four cycles (docs/performance.md). No frame may be longer than {@code net.maxPdu()} allows: a longer one would
 * wait for room that never comes.
 */
public final class UdpChecksumInserter extends Component {
    public record Config(@Tag("w") int dataWidth, NetConfig net) {
        public Config {
            new StreamConfig(dataWidth, SueMeta.WIDTH); // validates dataWidth
            if (net == null || (net.format() != HeaderFormat.ETH_IPV4_UDP
                    && net.format() != HeaderFormat.ETH_IPV6_UDP)) {
                throw new IllegalArgumentException("UdpChecksumInserter net format must be ETH_IPV4_UDP or"
                        + " ETH_IPV6_UDP, got " + (net == null ? null : net.format()));
            }
        }

        /** Beats of the longest frame it sees: header, the largest padded PDU, R-CRC. */
        public int maxFrameBeats() {
            int bytes = net.headerBytes() + Math.max(net.maxPdu(), FrameFormat.minPdu(net)) + FrameFormat.RCRC_BYTES;
            return (bytes + dataWidth / 8 - 1) / (dataWidth / 8);
        }
    }

    public final Stream in;
    public final Stream out;
    private final Config config;

    public UdpChecksumInserter(Config config) {
        super(config);
        this.config = config;
        NetConfig net = config.net();
        int w = config.dataWidth();
        int lanes = w / 8;
        StreamConfig sc = new StreamConfig(w, SueMeta.WIDTH);
        in = Stream.slave(this, sc);
        out = Stream.master(this, sc);

        // ---- hold each frame while it is summed -------------------------------------------------------------------
        int depth = 2 * config.maxFrameBeats() + 4;
        Expr accepted = in.fire();
        Stream frames = in.queue("frames", depth);
        InternetSum sum = child("udp_sum", new InternetSum(new InternetSum.Config(w, FrameFormat.udpSummedFrom(net))));
        Layout bytesOnly = Stream.packet(w, 0);
        Flow.of(this, "summed", accepted, bytesOnly, bytesOnly.expr().set(Stream.TDATA, in.tdata())
                .set(Stream.TKEEP, in.tkeep()).set(Stream.TLAST, in.tlast()).build()).into(sum.in);
        // the rest of the pseudo header, protocol 17 and the UDP length (from the tuser of the frame's last beat
        // summed: it is held on every beat), summed beside the frame and ready with its sum
        Expr pseudo = wire("udp_length", NetHeaderInserter.udpLength(net, in.tuser()));
        for (int i = 1; i <= InternetSum.LATENCY; i++) {
            Reg r = regNoReset("pseudo_d" + i, 16);
            r.set(i == InternetSum.LATENCY ? InternetSum.add(pseudo, Hw.lit(16, FrameFormat.IP_PROTOCOL_UDP)) : pseudo);
            pseudo = r;
        }
        // the checksum is finished as the sum arrives and queued, so the patch reads it from the queue as it is
        Expr complement = wire("checksum_complement", InternetSum.add(sum.sum.field("value"), pseudo).not());
        Expr checksum = wire("checksum_field", Hw.mux(complement.eq(0), Hw.ones(16), complement)); // RFC 768: 0 -> FFFF
        Stream checksumResult = Stream.of(this, "checksum_result", sum.sum.valid(), sum.sum.layout(), checksum);
        Stream checksums = checksumResult.queue("checksums", depth);
        unused("checksums_never_full", checksumResult.ready()); // one per frame, and every frame holds a beat

        // ---- release a frame with its checksum --------------------------------------------------------------------
        Stream leaving = frames.continueWhen("leaving", checksums.valid());
        int at = FrameFormat.udpChecksumAt(net);
        int patchBeat = at / lanes;
        Reg beat = reg("out_beat", Hw.log2Up(patchBeat + 2), 0);
        // the header started patchBeat beats before the one that holds the checksum
        Expr withChecksum = FrameFormat.networkHeader(net).patch(leaving.tdata(), -patchBeat * lanes)
                .set("udp.checksum", checksums.field("value")).build();
        Stream patched = leaving.with("patched", Stream.TDATA, Hw.mux(beat.eq(patchBeat), withChecksum,
                leaving.tdata()));
        patched.into(out);
        Expr frameLeaves = out.fire().and(out.tlast());
        checksums.ready().set(frameLeaves);
        when(out.fire(), () -> when(out.tlast(), () -> beat.set(0))
                .elseWhen(beat.le(patchBeat), () -> beat.set(beat.add(1))));
    }

    public Config config() {
        return config;
    }
}
