package org.sue.net;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.lib.stream.SyncFifo;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;
import org.sue.lib.stream.InternetSum;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.PacketFifo;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamSlice;
import org.sue.net.model.FrameCodec;

/**
 * Receive side of SUE framing: takes Ethernet frames (FCS included) from a MAC that cannot be stalled and delivers
 * each good frame's packed commands (with any minimum-size padding) on {@code m_axis}, the reliability header
 * unpacked into tuser ({@link SueMeta}; dst_xpu = this XPU, len = bytes delivered). Every check of
 * {@link FrameCodec#decode} is made, in the same order, so a dropped frame is counted under the same reason; a bad
 * frame never emerges, not even partly.
 *
 * <p>The frame streams once through three things side by side: a CRC unit over the whole frame (the FCS is good
 * when the residue is the CRC-32 magic value), a slice that cuts the network header and the FCS off (RH, commands,
 * padding and R-CRC: a second CRC unit checks the R-CRC residue, and the RH is taken from its first bytes), and a
 * slice that cuts the network header and RH at the front and the R-CRC and FCS at the back: what is delivered,
 * written into a {@link PacketFifo}. Header fields are captured from the first beats and checked when the last beat
 * arrives. In the IP formats the UDP checksum is summed in two parts, the pseudo header and UDP header from the
 * captured header, the payload by an {@link InternetSum} beside the R-CRC unit, and judged with the verdict. The
 * per-frame results meet in two small queues (frame checks + FCS; R-CRC + RH) and become the verdict
 * the packet FIFO waits for. Counters saturate: {@code drops_<reason>} per {@link DropReason}, {@code frames_good}
 * (judged good; delivered unless the packet FIFO was full, which {@code drops_overflow} counts).
 */
public final class FrameReceiver extends Component {
    /**
     * Cycles from a frame's last beat in to its verdict ({@code buffered} for a good frame), at most: the CRC units'
     * latency (3 above 64 bits, {@link ParallelCrc.Config#latency}), the result queues and the verdict.
     */
    public static final int VERDICT_CYCLES = 7;

    /** CRC-32 of any message followed by its own CRC (least significant byte first). */
    static final long CRC32_RESIDUE = 0x2144DF1CL;

    /**
     * @param macError the MAC marks bad frames: {@code s_axis_tuser} (1 bit) on a frame's last beat drops it as
     *                 {@code MAC_ERROR}; without it the input has no tuser
     */
    public record Config(@Tag("w") int dataWidth, NetConfig net, @Tag("d") int fifoDepth, @Tag("macerr") boolean macError) {
        /** No MAC error flag. */
        public Config(int dataWidth, NetConfig net, int fifoDepth) {
            this(dataWidth, net, fifoDepth, false);
        }

        /** Beats of the packet FIFO. */
        public static final Bound FIFO_DEPTH = Bound.powerOfTwo(4, 65536);

        public Config {
            StreamConfig.DATA_WIDTH.check("FrameReceiver", "dataWidth", dataWidth);
            if (net == null) {
                throw new IllegalArgumentException("FrameReceiver net configuration must be given");
            }
            FIFO_DEPTH.check("FrameReceiver", "fifoDepth", fifoDepth);
        }
    }

    /** Frames from the MAC: {@code s_axis_*} without tready or tuser (a flow: the receive path never waits). */
    public final Flow in;
    public final Port localXpu;
    public final Port localIp;
    public final Port localPartition;
    public final Stream out;
    /**
     * A good frame was kept in the packet FIFO ({@code buffered_vc}, {@code buffered_len}: its VC and the bytes it
     * will deliver), at its verdict: with the frames leaving {@code m_axis}, what the FIFO holds per VC.
     */
    public final Flow buffered;
    private final Config config;
    private final int ipOffset;
    /** The CRC units' latency: how long a frame's facts wait for its CRC results. */
    private final int crcLatency;
    private Expr header;
    /** The header bytes the IP formats' sums read, from byte {@link #summedFrom} on, registered. */
    private Reg summed;
    private int summedFrom;

    public FrameReceiver(Config config) {
        super(config);
        this.config = config;
        NetConfig net = config.net();
        int w = config.dataWidth();
        int lanes = w / 8;
        int h = net.headerBytes();
        boolean ipFormat = net.format() == HeaderFormat.ETH_IPV4_UDP || net.format() == HeaderFormat.ETH_IPV6_UDP;
        ipOffset = 12 + (net.vlan() ? 4 : 0) + 2;
        in = Flow.slave(this, "s_axis", Stream.packet(w, config.macError() ? 1 : 0));
        // the frame's bytes, without the MAC's flag, for the units that read them
        Flow frame = config.macError() ? in.map("frame", Stream.packet(w, 0), Hw.cat(in.tlast(), in.tkeep(),
                in.tdata())) : in;
        Expr inData = in.tdata();
        Expr inKeep = in.tkeep();
        Expr inValid = in.valid();
        Expr inLast = in.tlast();
        localXpu = in("local_xpu", 32);
        localIp = ipFormat ? in("local_ip", net.format() == HeaderFormat.ETH_IPV4_UDP ? 32 : 128) : null;
        localPartition = in("local_partition", 10);
        out = Stream.master(this, new StreamConfig(w, SueMeta.WIDTH));
        buffered = Flow.master(this, "buffered", Layout.of("buffered", Layout.bits("vc", SueMeta.VC_WIDTH),
                Layout.bits("len", SueMeta.LEN_WIDTH)));

        // ---- frame length and header capture -------------------------------------------------------------------
        int lw = 16; // frame lengths; a longer frame saturates and is oversize anyway
        int beatLimit = (1 << lw) / lanes - 2;
        Reg beats = reg("frame_beats", Hw.log2Up(beatLimit + 1L), 0);
        Expr frameBytes = wire("frame_bytes", Hw.cat(beats, Hw.zeros(Hw.log2Up(lanes))).resize(lw)
                .add(Keep.count(inKeep, lw)));
        when(inValid, () -> when(inLast, () -> beats.set(0))
                .elseWhen(beats.ne(beatLimit), () -> beats.set(beats.add(1))));
        List<Expr> chunks = new ArrayList<>(); // header bytes, beat by beat; byte j in bits [8j+7:8j]
        for (int i = 0; i * lanes < h; i++) {
            int bytes = Math.min(lanes, h - i * lanes);
            Reg chunk = regNoReset("header_" + i, 8 * bytes);
            int beatIndex = i;
            Expr arriving = inValid.and(beats.eq(beatIndex));
            when(arriving, () -> chunk.set(inData.bits(8 * bytes - 1, 0)));
            // a frame can end in its last header beat: the checks then see that beat as it arrives
            chunks.add(0, Hw.mux(arriving, inData.bits(8 * bytes - 1, 0), chunk));
        }
        header = wire("header", Hw.cat(chunks));
        Expr runt = wire("runt", frameBytes.lt(FrameFormat.MIN_FRAME)
                .or(frameBytes.le(h + FrameFormat.RH_BYTES + FrameFormat.RCRC_BYTES + FrameFormat.FCS_BYTES)));
        Expr headerReason = wire("header_reason", headerChecks(net, frameBytes));
        if (ipFormat) { // the bytes the header sums read, a cycle later: the sums' adders get a cycle of their own
            summedFrom = net.format() == HeaderFormat.ETH_IPV4_UDP ? ipOffset : FrameCodec.udpSummedFrom(net);
            int summedTo = FrameCodec.udpAt(net) + 8;
            summed = regNoReset("summed_header", 8 * (summedTo - summedFrom));
            summed.set(header.bits(8 * summedTo - 1, 8 * summedFrom));
        }

        // ---- FCS: residue over the whole frame, ready the CRC unit's latency after the last beat ------------------
        ParallelCrc.Config crcConfig = new ParallelCrc.Config(CrcParams.CRC32, w);
        ParallelCrc fcs = child("fcs_check", new ParallelCrc(crcConfig));
        frame.into(fcs.in);
        int rw = 4; // reason codes: DropReason ordinal + 1, 0 = good
        // the frame's checks, held until its FCS result
        crcLatency = crcConfig.latency();
        Expr runt2 = delayed("runt", runt);
        Expr reason2 = delayed("header_reason", headerReason);
        if (net.format() == HeaderFormat.ETH_IPV4_UDP) { // the IPv4 checksum, judged after the EtherType
            Expr sumBad = delay("ipv4_sum_bad", ipv4SumBad(), crcLatency - 1);
            reason2 = Hw.mux(sumBad.and(reason2.ne(code(DropReason.UNKNOWN_ETHERTYPE))),
                    code(DropReason.BAD_IP_HEADER), reason2);
        }
        // commands + padding (meaningless for a runt)
        Expr len2 = delayed("len", frameBytes.sub(h + 16).resize(SueMeta.LEN_WIDTH));
        Expr fcsReason = Hw.mux(fcs.crc.field("value").ne(CRC32_RESIDUE), code(DropReason.BAD_FCS), reason2);
        if (config.macError()) { // the MAC's word on the frame comes before our own checks of its bytes
            fcsReason = Hw.mux(delayed("mac_error", in.tuser().and(inLast)), code(DropReason.MAC_ERROR), fcsReason);
        }
        Expr frameReason = Hw.mux(runt2, code(DropReason.RUNT), fcsReason);
        List<Layout.Spec> frameFields = new ArrayList<>(List.of(Layout.bits("reason", rw),
                Layout.bits("len", SueMeta.LEN_WIDTH)));
        if (ipFormat) { // the UDP checksum's pseudo header and UDP header part, and whether the checksum is 0
            frameFields.addAll(List.of(Layout.bits("udp_header_sum", 16), Layout.bits("udp_zero", 1)));
        }
        Layout frameResult = Layout.of("frame_result", frameFields);
        Layout.ExprBuilder frameFacts = frameResult.expr().set("len", len2).set("reason", frameReason);
        if (ipFormat) {
            int udp = FrameCodec.udpAt(net);
            frameFacts.set("udp_header_sum", delay("udp_header_sum", wire("udp_header_sum", udpHeaderSum(net)),
                    crcLatency - 1))
                    .set("udp_zero", delayed("udp_zero", get16(udp + 6).eq(0)));
        }
        // the result queues are sized never to fill: the CRC units' results do not wait (if one did fill, say so)
        Stream frameResult2 = Stream.of(this, "frame_result", fcs.crc.valid(), frameResult, frameFacts.build());
        Stream frameResults = frameResult2.queue("frame_results", 8);

        // ---- RH + commands + padding + R-CRC: R-CRC residue and the RH ---------------------------------------------
        StreamSlice pdu = child("pdu_slice", new StreamSlice(new StreamSlice.Config(w, h, FrameFormat.FCS_BYTES)));
        frame.into(pdu.in);
        ParallelCrc rcrc = child("rcrc_check", new ParallelCrc(crcConfig));
        pdu.out.into(rcrc.in);
        Reg pduFirst = reg("pdu_first", 1, 1);
        Reg rhHeld = regNoReset("rh_held", 64);
        Expr rhNow = pdu.out.tdata().bits(63, 0);
        when(pdu.out.valid(), () -> pduFirst.set(pdu.out.tlast()));
        when(pdu.out.valid().and(pduFirst), () -> rhHeld.set(rhNow));
        Expr rh2 = delayed("rh", Hw.mux(pduFirst, rhNow, rhHeld)); // until the R-CRC result
        List<Layout.Spec> pduFields = new ArrayList<>(List.of(Layout.bits("rh", 64), Layout.bits("rcrc_ok", 1)));
        if (ipFormat) {
            pduFields.add(Layout.bits("udp_sum", 16));
        }
        Layout pduResult = Layout.of("pdu_result", pduFields);
        Layout.ExprBuilder pduFacts = pduResult.expr().set("rcrc_ok", rcrc.crc.field("value").eq(CRC32_RESIDUE))
                .set("rh", rh2);
        if (ipFormat) { // the UDP payload's sum, ready with the R-CRC result (the same latency)
            InternetSum udpSum = child("udp_payload_sum", new InternetSum(new InternetSum.Config(w, 0)));
            pdu.out.into(udpSum.in);
            unused("udp_sum_valid", udpSum.sum.valid());
            // the sum comes InternetSum.LATENCY cycles after the last beat; held until the R-CRC result
            pduFacts.set("udp_sum", delay("udp_sum", udpSum.sum.field("value"), crcLatency - InternetSum.LATENCY));
        }
        Stream pduResult2 = Stream.of(this, "pdu_result", rcrc.crc.valid(), pduResult, pduFacts.build());
        Stream pduResults = pduResult2.queue("pdu_results", 8);

        // ---- verdict ---------------------------------------------------------------------------------------------
        Expr verdict = wire("verdict", frameResults.valid().and(pduResults.valid()));
        frameResults.ready().set(verdict);
        pduResults.ready().set(verdict);
        Expr rh = pduResults.field("rh");
        Expr rcrcOk = pduResults.field("rcrc_ok");
        // RH bytes as received: byte j in bits [8j+7:8j]; the words are big-endian
        Expr word0 = Hw.cat(rh.bits(7, 0), rh.bits(15, 8));
        Expr psn = Hw.cat(rh.bits(23, 16), rh.bits(31, 24));
        Expr word2 = Hw.cat(rh.bits(39, 32), rh.bits(47, 40));
        Expr rpsn = Hw.cat(rh.bits(55, 48), rh.bits(63, 56));
        Expr partition = word2.bits(9, 0);
        unused("rh_reserved", word0.bits(11, 10), word2.bits(13, 10)); // ignored by a receiver (spec 3.3)
        // header fields this format does not check (addresses, TTL, ...) and the XPU bits it does not compare
        unused("unchecked", header, localXpu);
        Expr earlier = frameResults.field("reason");
        Expr udpBad = Hw.bool(false);
        if (ipFormat) { // a zero checksum: not sent (IPv4, or the IPv6 zero-checksum mode) or refused (RFC 6936)
            // both parts are folded (at most 0xFFFF), so their one's-complement sum is 0xFFFF exactly when their
            // plain sum is 0xFFFF (one the complement of the other) or 0x1FFFE (both 0xFFFF): compares, no adder
            Expr headerPart = frameResults.field("udp_header_sum");
            Expr payloadPart = pduResults.field("udp_sum");
            Expr sumsToOnes = headerPart.eq(payloadPart.not()).or(headerPart.and(payloadPart).eq(0xffff));
            boolean zeroAccepted = net.format() == HeaderFormat.ETH_IPV4_UDP || net.udpZeroChecksum();
            udpBad = wire("udp_checksum_bad", Hw.mux(frameResults.field("udp_zero"), Hw.bool(!zeroAccepted),
                    sumsToOnes.not()));
        }
        Expr reason = wire("reason", Hw.mux(earlier.ne(0), earlier,
                Hw.mux(udpBad, code(DropReason.BAD_UDP_CHECKSUM), Hw.mux(rcrcOk.not(), code(DropReason.BAD_RCRC),
                        Hw.mux(word0.bits(15, 14).ne(net.rhVersion()), code(DropReason.UNSUPPORTED_RH_VERSION),
                                Hw.mux(partition.ne(localPartition), code(DropReason.PARTITION_MISMATCH),
                                        Hw.zeros(rw)))))));
        Expr user = SueMeta.LAYOUT.expr().set(SueMeta.LEN, frameResults.field("len")).set(SueMeta.PARTITION, partition)
                .set(SueMeta.RPSN, rpsn).set(SueMeta.OP, word0.bits(13, 12)).set(SueMeta.PSN, psn)
                .set(SueMeta.VC, word2.bits(15, 14)).set(SueMeta.SRC_XPU, word0.bits(9, 0))
                .set(SueMeta.DST_XPU, localXpu.bits(SueMeta.XPU_WIDTH - 1, 0)).build();

        // ---- delivery: commands + padding, held until the verdict -----------------------------------------------
        StreamSlice commands = child("command_slice", new StreamSlice(new StreamSlice.Config(w,
                h + FrameFormat.RH_BYTES, FrameFormat.RCRC_BYTES + FrameFormat.FCS_BYTES)));
        frame.into(commands.in);
        PacketFifo fifo = child("fifo", new PacketFifo(new PacketFifo.Config(new StreamConfig(w, SueMeta.WIDTH),
                config.fifoDepth())));
        commands.out.into(fifo.in);
        fifo.verdict.valid().set(verdict);
        fifo.verdict.field("drop").set(reason.ne(0));
        fifo.verdict.field("user").set(user);
        fifo.out.into(out);
        buffered.valid().set(fifo.kept.valid());
        buffered.field("vc").set(SueMeta.VC.of(fifo.kept.field("user")));
        buffered.field("len").set(SueMeta.LEN.of(fifo.kept.field("user")));
        unused("kept_user", fifo.kept.field("user")); // the rest of the frame's fields go with its beats

        // ---- counters --------------------------------------------------------------------------------------------
        for (DropReason r : DropReason.values()) {
            if (r.fromMac() && !config.macError()) {
                continue;
            }
            statusCounter("drops_" + r.name().toLowerCase(), verdict.and(reason.eq(r.ordinal() + 1)));
        }
        statusCounter("frames_good", verdict.and(reason.eq(0)));
        statusOut("drops_overflow", fifo.dropsOverflow);
        // the result queues are sized never to fill; if one did, verdicts would go astray: say so
        Reg resultOverflow = reg("result_overflow", 1, 0);
        when(frameResult2.valid().and(frameResult2.ready().not()).or(pduResult2.valid().and(pduResult2.ready().not())),
                () -> resultOverflow.set(1));
        statusOut("internal_error", fifo.protocolError.or(resultOverflow));
        // the FIFO's own count of "drop" verdicts: equal to the sum of drops_<reason>, a check on the wiring
        statusOut("fifo_drops_judged", fifo.dropsBad);
    }

    /**
     * The UDP checksum's part in the network header (RFC 768, RFC 8200 8.1): the pseudo header (addresses, protocol
     * 17, the UDP length) and the UDP header, checksum included, folded; the payload's part comes from the PDU.
     */
    private Expr udpHeaderSum(NetConfig net) {
        int udp = FrameCodec.udpAt(net);
        List<Expr> terms = new ArrayList<>(List.of(Hw.lit(16, 17), summed16(udp + 4)));
        for (int at = FrameCodec.udpSummedFrom(net); at < udp + 8; at += 2) {
            terms.add(summed16(at));
        }
        return InternetSum.add(terms.toArray(new Expr[0]));
    }

    /** The IPv4 header's one's-complement sum (from the registered bytes) is not 0xFFFF. */
    private Expr ipv4SumBad() {
        Expr[] words = new Expr[10];
        for (int i = 0; i < 10; i++) {
            words[i] = summed16(ipOffset + 2 * i);
        }
        return wire("ipv4_sum", InternetSum.add(words)).ne(0xffff);
    }

    /** The big-endian 16-bit word at header byte {@code at}, from the registered summed bytes. */
    private Expr summed16(int at) {
        int j = at - summedFrom;
        return Hw.cat(summed.bits(8 * j + 7, 8 * j), summed.bits(8 * j + 15, 8 * j + 8));
    }

    /** e the CRC units' latency later, so a frame's facts meet its CRC result. */
    private Expr delayed(String name, Expr e) {
        return delay(name, e, crcLatency);
    }

    /** e {@code cycles} later, through registers {@code <name>_d1 .. _d<cycles>}. */
    private Expr delay(String name, Expr e, int cycles) {
        Expr d = e;
        for (int i = 1; i <= cycles; i++) {
            Reg r = regNoReset(name + "_d" + i, e.width());
            r.set(d);
            d = r;
        }
        return d;
    }

    private static Expr code(DropReason r) {
        return Hw.lit(4, r.ordinal() + 1);
    }

    private Expr hb(int j) {
        return header.bits(8 * j + 7, 8 * j);
    }

    private Expr get16(int at) {
        return Hw.cat(hb(at), hb(at + 1));
    }

    private Expr get32(int at) {
        return Hw.cat(get16(at), get16(at + 2));
    }

    /** Bytes [at, at+n) of the header as one big-endian value. */
    private Expr bytes(int at, int n) {
        List<Expr> b = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            b.add(hb(at + j));
        }
        return Hw.cat(b);
    }

    /** After the optional 802.1Q tag, the expected EtherType; false if either is missing. */
    private Expr tagAndType(NetConfig net, int at, int etherType) {
        Expr ok = Hw.bool(true);
        if (net.vlan()) {
            ok = get16(at).eq(NetConfig.ETHERTYPE_VLAN);
            at += 4;
        }
        return ok.and(get16(at).eq(etherType));
    }

    /**
     * The first failing check of the network header, in {@link FrameCodec#decode}'s order, then oversize; 0 if all
     * pass. Runt and FCS come before these; R-CRC, RH version and partition after.
     */
    private Expr headerChecks(NetConfig net, Expr frameBytes) {
        List<Expr[]> checks = new ArrayList<>(); // {fails, reason}
        int h = net.headerBytes();
        int ip = ipOffset;
        switch (net.format()) {
            case ETH_IPV4_UDP -> {
                int udp = ip + 20;
                checks.add(fail(tagAndType(net, 12, NetConfig.ETHERTYPE_IPV4).not(), DropReason.UNKNOWN_ETHERTYPE));
                // the header checksum: from the registered bytes, a cycle later (ipv4SumBad)
                checks.add(fail(hb(ip).ne(0x45).or(hb(ip + 9).ne(17)), DropReason.BAD_IP_HEADER));
                checks.add(fail(get16(ip + 2).ne(frameBytes.sub(FrameFormat.FCS_BYTES + ip)), DropReason.TRUNCATED));
                checks.add(fail(bytes(ip + 16, 4).ne(localIp), DropReason.WRONG_DESTINATION));
                checks.add(fail(get16(udp + 4).ne(frameBytes.sub(FrameFormat.FCS_BYTES + udp)), DropReason.TRUNCATED));
                checks.add(fail(get16(udp + 2).ne(net.udpDstPort()), DropReason.UNKNOWN_UDP_PORT));
            }
            case ETH_IPV6_UDP -> {
                int udp = ip + 40;
                Expr udpBytes = frameBytes.sub(FrameFormat.FCS_BYTES + udp);
                checks.add(fail(tagAndType(net, 12, NetConfig.ETHERTYPE_IPV6).not(), DropReason.UNKNOWN_ETHERTYPE));
                checks.add(fail(hb(ip).bits(7, 4).ne(6).or(hb(ip + 6).ne(17)), DropReason.BAD_IP_HEADER));
                checks.add(fail(bytes(ip + 24, 16).ne(localIp), DropReason.WRONG_DESTINATION));
                checks.add(fail(get16(ip + 4).ne(udpBytes).or(get16(udp + 4).ne(udpBytes)), DropReason.TRUNCATED));
                checks.add(fail(get16(udp + 2).ne(net.udpDstPort()), DropReason.UNKNOWN_UDP_PORT));
            }
            case AFH_GEN1 -> {
                Expr type = tagAndType(net, 12, net.afhGen1EtherType());
                if (net.afhGen1SecondEtherType() != 0) {
                    type = type.and(get16(ipOffset).eq(net.afhGen1SecondEtherType()));
                }
                checks.add(fail(type.not(), DropReason.UNKNOWN_ETHERTYPE));
                checks.add(fail(get16(4).ne(localXpu.bits(15, 0)), DropReason.WRONG_DESTINATION));
            }
            case AFH_GEN2_NORMAL -> {
                checks.add(fail(hb(0).ne(FrameFormat.GEN2_NORMAL_FLAGS).or(hb(6).ne(FrameFormat.GEN2_NORMAL_FLAGS))
                        .or(tagAndType(net, 12, net.afhGen2EtherType()).not()), DropReason.UNKNOWN_ETHERTYPE));
                checks.add(fail(get32(2).ne(localXpu), DropReason.WRONG_DESTINATION));
            }
            case AFH_GEN2_COMPRESSED -> {
                checks.add(fail(hb(0).ne(FrameFormat.GEN2_COMPRESSED_FLAGS)
                        .or(hb(3).ne(FrameFormat.GEN2_COMPRESSED_FLAGS))
                        .or(tagAndType(net, 6, net.afhGen2EtherType()).not()), DropReason.UNKNOWN_ETHERTYPE));
                checks.add(fail(get16(1).ne(localXpu.bits(15, 0)), DropReason.WRONG_DESTINATION));
            }
            default -> throw new IllegalStateException();
        }
        // RH + commands + padding beyond maxPdu
        checks.add(fail(frameBytes.gt(net.maxPdu() + h + FrameFormat.RCRC_BYTES + FrameFormat.FCS_BYTES),
                DropReason.OVERSIZE_PDU));
        Expr reason = Hw.zeros(4);
        for (int i = checks.size() - 1; i >= 0; i--) {
            reason = Hw.mux(checks.get(i)[0], checks.get(i)[1], reason);
        }
        return reason;
    }

    private static Expr[] fail(Expr condition, DropReason r) {
        return new Expr[] {condition, code(r)};
    }

    public Config config() {
        return config;
    }
}
