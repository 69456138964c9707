package org.sue.net;

import org.sue.core.Tag;
import org.sue.core.ByteLayout;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.lib.stream.InternetSum;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamPrepend;

/**
 * Transmit side: puts the network header (any {@link HeaderFormat}) in front of each PDU, at one beat per cycle.
 *
 * <p>A header table indexed by the destination XPU holds each destination's header template
 * ({@link FrameCodec#headerTemplate}: per-packet fields zero); it is written at run time through
 * {@code tbl_wr_*}. Per packet the block fills in the VC's PCP (802.1Q tag, IPv4 TOS / IPv6 traffic class), the IP
 * and UDP lengths from the packed-command length in tuser (with the padding and R-CRC the framing adds), and
 * corrects the IPv4 checksum incrementally (RFC 1624). One register stage in front lets the table be read while the
 * packet's first beat is being registered, so the lookup costs no bubble; the length fields are formed in that
 * cycle too and registered beside the beat.
 */
public final class NetHeaderInserter extends Component {
    public record Config(@Tag("w") int dataWidth, NetConfig net, @Tag("t") int tableDepth) {
        public Config {
            new StreamConfig(dataWidth, SueMeta.WIDTH); // validates dataWidth
            if (net == null) {
                throw new IllegalArgumentException("NetHeaderInserter net configuration must be given");
            }
            if (tableDepth < 2 || tableDepth > 1024) {
                throw new IllegalArgumentException("NetHeaderInserter tableDepth must be 2..1024 destinations, got "
                        + tableDepth);
            }
        }
    }

    public final Stream in;
    public final Stream out;
    /** Header table writes: {@code tbl_wr_valid}, {@code tbl_wr_addr}, {@code tbl_wr_data}. */
    public final Flow tableWrite;
    private final Config config;

    public NetHeaderInserter(Config config) {
        super(config);
        this.config = config;
        NetConfig net = config.net();
        int h = net.headerBytes();
        StreamConfig sc = new StreamConfig(config.dataWidth(), SueMeta.WIDTH);
        in = Stream.slave(this, sc);
        out = Stream.master(this, sc);
        Mem table = mem("header_table", config.tableDepth(), 8 * h, ReadUnderWrite.READ_FIRST);
        int aw = table.addressWidth();
        tableWrite = Flow.slave(this, "tbl_wr", tableEntry(aw, h));
        table.write(tableWrite.valid(), tableWrite.field("addr"), tableWrite.field("data"));
        StreamPrepend prepend = child("prepend", new StreamPrepend(new StreamPrepend.Config(sc, h)));

        // register stage: loading a packet's first beat also reads its destination's template
        Stream staged = in.stage("stage");
        Reg inPacket = reg("in_packet", 1, 0);
        Expr load = in.fire();
        when(load, () -> inPacket.set(in.tlast().not()));
        Expr dst = SueMeta.DST_XPU.of(in.tuser());
        Expr address = dst.width() >= aw ? dst.bits(aw - 1, 0) : dst.resize(aw);
        Expr template = table.readSync("template", address, load.and(inPacket.not()));

        staged.into(prepend.in);
        prepend.header.set(wire("header", patch(net, template, staged.tuser(), lengths(net, in.tuser(), load))));
        prepend.out.into(out);
    }

    /** A packet's length fields and the IPv4 checksum's per-packet terms, registered with the beat they come from. */
    private record Lengths(Expr udpLength, Expr totalLength, Expr checksumTerms) {
    }

    /**
     * The fields computed from tuser by adders, formed from the input beat and loaded with it into registers beside
     * the stage's, so they always equal what the staged tuser gives: the header is then the template ORed with
     * registers, and only the IPv4 checksum's one add is left after the table read, which keeps the length adders
     * out of the path through the prepend multiplexer into the FCS CRC. None for the AFH formats.
     */
    private Lengths lengths(NetConfig net, Expr user, Expr load) {
        if (!net.format().ip()) {
            return null;
        }
        Reg udpLength = regNoReset("udp_length", 16);
        Expr nextUdpLength = udpLength(net, user);
        when(load, () -> udpLength.set(nextUdpLength));
        if (net.format() == HeaderFormat.ETH_IPV6_UDP) {
            return new Lengths(udpLength, null, null);
        }
        Reg total = regNoReset("ip_total_length", 16);
        Reg terms = regNoReset("checksum_terms", 16);
        Expr nextTotal = nextUdpLength.add(FrameFormat.IPV4.bytes());
        // the one's-complement sum of the two words the packet changes: total length and {0, TOS}
        Expr pcp = pcpExpr(net.pcpOfVc(), SueMeta.VC.of(user));
        Expr nextTerms = InternetSum.add(nextTotal, trafficClass(pcp).resize(16));
        when(load, () -> {
            total.set(nextTotal);
            terms.set(nextTerms);
        });
        return new Lengths(udpLength, total, terms);
    }

    /** A header table write: the destination's row, the header bytes. */
    static Layout tableEntry(int addressWidth, int headerBytes) {
        return Layout.of("table_entry", Layout.bits("addr", addressWidth), Layout.bits("data", 8 * headerBytes));
    }

    /** The template with this packet's PCP, lengths and IPv4 checksum filled in. */
    private Expr patch(NetConfig net, Expr template, Expr user, Lengths fields) {
        ByteLayout hdr = FrameFormat.networkHeader(net);
        Expr pcp = pcpExpr(net.pcpOfVc(), SueMeta.VC.of(user));
        // per-packet fields are zero in the template, so they are ORed in
        ByteLayout.Lanes b = hdr.patch(template, 0);
        if (net.vlan()) {
            b.set("vlan.pcp", hdr.get(template, "vlan.pcp").or(pcp));
        }
        if (net.format() == HeaderFormat.ETH_IPV4_UDP) {
            b.set("ipv4.dscp", hdr.get(template, "ipv4.dscp").or(classSelector(pcp)));
            b.set("ipv4.total_length", hdr.get(template, "ipv4.total_length").or(fields.totalLength()));
            // RFC 1624: HC' = ~(~HC + ~m + m') for each changed word m -> m'; both changed words were zero in the
            // template's checksum (total length; the TOS byte of {version/IHL, TOS}), so ~m adds nothing. The
            // one's-complement sum is associative, so the m' terms are summed ahead (checksum_terms); adding them
            // to ~HC with the end-around carry gives the same value as the fold of the plain sum (0 only if all
            // terms are 0)
            Expr hc = hdr.get(template, "ipv4.checksum");
            b.set("ipv4.checksum", wire("ipv4_checksum", InternetSum.add(hc.not(), fields.checksumTerms()).not()));
            b.set("udp.length", hdr.get(template, "udp.length").or(fields.udpLength()));
        } else if (net.format() == HeaderFormat.ETH_IPV6_UDP) {
            b.set("ipv6.traffic_class", hdr.get(template, "ipv6.traffic_class").or(trafficClass(pcp)));
            b.set("ipv6.payload_length", hdr.get(template, "ipv6.payload_length").or(fields.udpLength()));
            b.set("udp.length", hdr.get(template, "udp.length").or(fields.udpLength()));
        }
        // AFH formats: only the 802.1Q priority is per packet
        return b.build();
    }

    /** The IP DSCP of a PCP: its class selector, PCP x 8 (RFC 2474). */
    private static Expr classSelector(Expr pcp) {
        return Hw.cat(pcp, Hw.zeros(3));
    }

    /** The IPv4 TOS byte / IPv6 traffic class of a PCP: its DSCP, ECN 0. */
    private static Expr trafficClass(Expr pcp) {
        return Hw.cat(classSelector(pcp), Hw.zeros(2));
    }

    /** UDP header + RH + packed commands (padded to the minimum frame) + R-CRC, from a frame's tuser. */
    static Expr udpLength(NetConfig net, Expr user) {
        int minCommands = FrameFormat.minPdu(net) - FrameFormat.RH_BYTES;
        Expr len = SueMeta.LEN.of(user).resize(16);
        Expr padded = Hw.mux(len.lt(minCommands), Hw.lit(16, minCommands), len);
        return padded.add(FrameFormat.UDP.bytes() + FrameFormat.RH_BYTES + FrameFormat.RCRC_BYTES);
    }

    private static Expr pcpExpr(int[] pcpOfVc, Expr vc) {
        Expr pcp = Hw.lit(3, pcpOfVc[0]);
        for (int v = 1; v < SueMeta.VCS; v++) {
            pcp = Hw.mux(vc.eq(v), Hw.lit(3, pcpOfVc[v]), pcp);
        }
        return pcp;
    }

    public Config config() {
        return config;
    }
}
