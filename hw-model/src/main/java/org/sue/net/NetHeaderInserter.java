package org.sue.net;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
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
        if (net.format() != HeaderFormat.ETH_IPV4_UDP && net.format() != HeaderFormat.ETH_IPV6_UDP) {
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
        Expr nextTotal = nextUdpLength.add(20);
        // the one's-complement sum of the two words the packet changes: total length and {0, TOS}
        Expr pcp = pcpExpr(net.pcpOfVc(), SueMeta.VC.of(user));
        Expr nextTerms = InternetSum.add(nextTotal, Hw.cat(pcp, Hw.zeros(5)).resize(16));
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
        int h = net.headerBytes();
        Expr[] b = new Expr[h];
        for (int j = 0; j < h; j++) {
            b[j] = template.bits(8 * j + 7, 8 * j);
        }
        int[] pcpOfVc = net.pcpOfVc();
        Expr vc = SueMeta.VC.of(user);
        Expr pcp = pcpExpr(pcpOfVc, vc);
        int addresses = net.format() == HeaderFormat.AFH_GEN2_COMPRESSED ? 6 : 12;
        if (net.vlan()) {
            int tci = addresses + 2;
            b[tci] = b[tci].or(Hw.cat(pcp, Hw.zeros(5)));
        }
        int ip = addresses + (net.vlan() ? 4 : 0) + 2;
        // per-packet fields are zero in the template, so they are ORed in
        if (net.format() == HeaderFormat.ETH_IPV4_UDP) {
            Expr udpLength = fields.udpLength();
            b[ip + 1] = b[ip + 1].or(Hw.cat(pcp, Hw.zeros(5))); // DSCP class selector
            Expr total = fields.totalLength();
            b[ip + 2] = b[ip + 2].or(total.bits(15, 8));
            b[ip + 3] = b[ip + 3].or(total.bits(7, 0));
            // RFC 1624: HC' = ~(~HC + ~m + m') for each changed word m -> m'; both changed words were zero in the
            // template's checksum (total length; the TOS byte of {version/IHL, TOS}), so ~m adds nothing. The
            // one's-complement sum is associative, so the m' terms are summed ahead (checksum_terms); adding them
            // to ~HC with the end-around carry gives the same value as the fold of the plain sum (0 only if all
            // terms are 0)
            Expr hc = Hw.cat(b[ip + 10], b[ip + 11]);
            Expr checksum = wire("ipv4_checksum", InternetSum.add(hc.not(), fields.checksumTerms()).not());
            b[ip + 10] = checksum.bits(15, 8);
            b[ip + 11] = checksum.bits(7, 0);
            patchUdp(b, ip + 20, udpLength);
        } else if (net.format() == HeaderFormat.ETH_IPV6_UDP) {
            Expr udpLength = fields.udpLength();
            b[ip] = b[ip].or(Hw.cat(Hw.zeros(4), pcp, Hw.zeros(1))); // traffic class = pcp << 5
            b[ip + 4] = b[ip + 4].or(udpLength.bits(15, 8));
            b[ip + 5] = b[ip + 5].or(udpLength.bits(7, 0));
            patchUdp(b, ip + 40, udpLength);
        }
        // AFH formats: only the 802.1Q priority is per packet
        List<Expr> msbFirst = new ArrayList<>();
        for (int j = h - 1; j >= 0; j--) {
            msbFirst.add(b[j]);
        }
        return Hw.cat(msbFirst);
    }

    /** UDP header + RH + packed commands (padded to the minimum frame) + R-CRC, from a frame's tuser. */
    static Expr udpLength(NetConfig net, Expr user) {
        int minCommands = FrameFormat.minPdu(net) - FrameFormat.RH_BYTES;
        Expr len = SueMeta.LEN.of(user).resize(16);
        Expr padded = Hw.mux(len.lt(minCommands), Hw.lit(16, minCommands), len);
        return padded.add(8 + FrameFormat.RH_BYTES + FrameFormat.RCRC_BYTES);
    }

    private static Expr pcpExpr(int[] pcpOfVc, Expr vc) {
        Expr pcp = Hw.lit(3, pcpOfVc[0]);
        for (int v = 1; v < 4; v++) {
            pcp = Hw.mux(vc.eq(v), Hw.lit(3, pcpOfVc[v]), pcp);
        }
        return pcp;
    }

    private static void patchUdp(Expr[] b, int udp, Expr udpLength) {
        b[udp + 4] = b[udp + 4].or(udpLength.bits(15, 8));
        b[udp + 5] = b[udp + 5].or(udpLength.bits(7, 0));
    }

    public Config config() {
        return config;
    }
}
