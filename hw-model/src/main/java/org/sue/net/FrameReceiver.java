package org.sue.net;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Bound;
import org.sue.core.ByteLayout;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Status;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;
import org.sue.lib.stream.InternetSum;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.PacketFifo;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamSlice;

/**
 * Receive side of SUE framing: takes Ethernet frames (FCS included) from a MAC that cannot be stalled and delivers
 * each good frame's packed commands (with any minimum-size padding) on {@code m_axis}, the reliability header
 * unpacked into tuser ({@link SueMeta}; dst_xpu = this XPU, len = bytes delivered). Every check of the reference
 * codec's {@code FrameCodec.decode} is made, in the same order, so a dropped frame is counted under the same reason;
 * a bad frame never emerges, not even partly. Header fields are read through the layouts of {@link FrameFormat}.
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
    /** Frame lengths in bytes; a longer frame saturates and is oversize anyway. */
    private static final int LENGTH_WIDTH = 16;
    /** A verdict: {@link DropReason} ordinal + 1, 0 = good. */
    private static final int REASON_WIDTH = Hw.log2Up(DropReason.values().length + 1L);
    /** Frames' results wait in queues this deep; they never fill (the CRC units' results do not wait). */
    private static final int RESULT_QUEUE_DEPTH = 8;

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
    /** This configuration's network header. */
    private final ByteLayout header;
    private final ParallelCrc.Config crcConfig;

    /** The network header as it arrived (byte j in bits [8j+7:8j]) and the frame's length, as its last beat is in. */
    private record Captured(Expr header, Expr frameBytes) {
    }

    /** The IP formats' header bytes the sums read, registered: bytes {@code from} to the end of the UDP header. */
    private record Summed(Expr bytes, int from) {
    }

    /** A queue of per-frame results, and whether one was offered while it was full (it is sized never to be). */
    private record Results(Stream queued, Expr lost) {
    }

    /** The judgement of a frame: when it is made, the reason (0: good) and the tuser it is delivered with. */
    private record Verdict(Expr valid, Expr reason, Expr user) {
    }

    public FrameReceiver(Config config) {
        super(config);
        this.config = config;
        NetConfig net = config.net();
        int w = config.dataWidth();
        header = FrameFormat.networkHeader(net);
        crcConfig = new ParallelCrc.Config(CrcParams.CRC32, w);
        in = Flow.slave(this, "s_axis", Stream.packet(w, config.macError() ? 1 : 0));
        localXpu = in("local_xpu", FrameFormat.XPU_ADDRESS_WIDTH);
        localIp = net.format().ip() ? in("local_ip", header.slot(ip() + ".dst").width()) : null;
        localPartition = in("local_partition", SueMeta.PARTITION_WIDTH);
        out = Stream.master(this, new StreamConfig(w, SueMeta.WIDTH));
        buffered = Flow.master(this, "buffered", SueMeta.PDU_SIZE);

        Flow frame = bytesOf(in);
        Captured captured = capture(frame);
        Summed summed = net.format().ip() ? summed(captured) : null;
        Results frameResults = frameChecks(frame, captured, summed);
        Results pduResults = pduChecks(frame);
        Verdict verdict = judge(frameResults.queued(), pduResults.queued());
        PacketFifo fifo = deliver(frame, verdict);
        counters(verdict, fifo, frameResults.lost().or(pduResults.lost()));
    }

    /** The frame's bytes, without the MAC's flag, for the units that read them. */
    private Flow bytesOf(Flow mac) {
        if (!config.macError()) {
            return mac;
        }
        Layout bytes = Stream.packet(config.dataWidth(), 0);
        return mac.map("frame", bytes, bytes.expr().set(Stream.TDATA, mac.tdata()).set(Stream.TKEEP, mac.tkeep())
                .set(Stream.TLAST, mac.tlast()).build());
    }

    /** Counts the frame's bytes and keeps its network header from its first beats. */
    private Captured capture(Flow frame) {
        int lanes = config.dataWidth() / 8;
        int h = header.bytes();
        int beatLimit = (1 << LENGTH_WIDTH) / lanes - 2;
        Reg beats = reg("frame_beats", Hw.log2Up(beatLimit + 1L), 0);
        Expr frameBytes = wire("frame_bytes", Hw.cat(beats, Hw.zeros(Hw.log2Up(lanes))).resize(LENGTH_WIDTH)
                .add(Keep.count(frame.tkeep(), LENGTH_WIDTH)));
        when(frame.valid(), () -> when(frame.tlast(), () -> beats.set(0))
                .elseWhen(beats.ne(beatLimit), () -> beats.set(beats.add(1))));
        List<Expr> chunks = new ArrayList<>(); // header bytes, beat by beat; byte j in bits [8j+7:8j]
        for (int i = 0; i * lanes < h; i++) {
            int bytes = Math.min(lanes, h - i * lanes);
            Reg chunk = regNoReset("header_" + i, 8 * bytes);
            Expr arriving = frame.valid().and(beats.eq(i));
            Expr data = frame.tdata().bits(8 * bytes - 1, 0);
            when(arriving, () -> chunk.set(data));
            // a frame can end in its last header beat: the checks then see that beat as it arrives
            chunks.add(0, Hw.mux(arriving, data, chunk));
        }
        Expr bytes = wire("header", Hw.cat(chunks));
        // header fields this format does not check (addresses, TTL, ...) and the XPU bits it does not compare
        unused("unchecked", bytes, localXpu);
        return new Captured(bytes, frameBytes);
    }

    /** The bytes the header sums read, a cycle later: the sums' adders get a cycle of their own. */
    private Summed summed(Captured captured) {
        int from = config.net().format() == HeaderFormat.ETH_IPV4_UDP ? header.at("ipv4")
                : FrameFormat.udpSummedFrom(config.net());
        int to = header.at("udp") + FrameFormat.UDP.bytes();
        Reg bytes = regNoReset("summed_header", 8 * (to - from));
        bytes.set(captured.header().bits(8 * to - 1, 8 * from));
        return new Summed(bytes, from);
    }

    /**
     * The checks made of the whole frame, held until its FCS result: runt, the network header (the IPv4 checksum from
     * the summed bytes), FCS, the MAC's flag; the length delivered and, in the IP formats, the UDP checksum's header
     * part.
     */
    private Results frameChecks(Flow frame, Captured captured, Summed summed) {
        NetConfig net = config.net();
        int h = header.bytes();
        Expr frameBytes = captured.frameBytes();
        Expr runt = wire("runt", frameBytes.lt(FrameFormat.MIN_FRAME)
                .or(frameBytes.le(h + FrameFormat.RH_BYTES + FrameFormat.RCRC_BYTES + FrameFormat.FCS_BYTES)));
        Expr headerReason = wire("header_reason", headerChecks(captured));
        ParallelCrc fcs = child("fcs_check", new ParallelCrc(crcConfig));
        frame.into(fcs.in);
        Expr runt2 = delayed("runt", runt);
        Expr reason2 = delayed("header_reason", headerReason);
        if (net.format() == HeaderFormat.ETH_IPV4_UDP) { // the IPv4 checksum, judged after the EtherType
            Expr sumBad = delay("ipv4_sum_bad", ipv4SumBad(summed), crcConfig.latency() - 1);
            reason2 = Hw.mux(sumBad.and(reason2.ne(code(DropReason.UNKNOWN_ETHERTYPE))),
                    code(DropReason.BAD_IP_HEADER), reason2);
        }
        // commands + padding (meaningless for a runt)
        Expr len2 = delayed("len", frameBytes.sub(h + FrameFormat.RH_BYTES + FrameFormat.RCRC_BYTES
                + FrameFormat.FCS_BYTES).resize(SueMeta.LEN_WIDTH));
        Expr fcsReason = Hw.mux(fcs.crc.field("value").ne(CRC32_RESIDUE), code(DropReason.BAD_FCS), reason2);
        if (config.macError()) { // the MAC's word on the frame comes before our own checks of its bytes
            fcsReason = Hw.mux(delayed("mac_error", in.tuser().and(in.tlast())), code(DropReason.MAC_ERROR),
                    fcsReason);
        }
        Expr frameReason = Hw.mux(runt2, code(DropReason.RUNT), fcsReason);
        List<Layout.Spec> frameFields = new ArrayList<>(List.of(Layout.bits("reason", REASON_WIDTH),
                Layout.bits("len", SueMeta.LEN_WIDTH)));
        if (net.format().ip()) { // the UDP checksum's pseudo header and UDP header part, and whether the checksum is 0
            frameFields.addAll(List.of(Layout.bits("udp_header_sum", 16), Layout.bits("udp_zero", 1)));
        }
        Layout frameResult = Layout.of("frame_result", frameFields);
        Layout.ExprBuilder frameFacts = frameResult.expr().set("len", len2).set("reason", frameReason);
        if (net.format().ip()) {
            frameFacts.set("udp_header_sum", delay("udp_header_sum", wire("udp_header_sum", udpHeaderSum(summed)),
                    crcConfig.latency() - 1))
                    .set("udp_zero", delayed("udp_zero", field(captured, "udp.checksum").eq(0)));
        }
        return queued(Stream.of(this, "frame_result", fcs.crc.valid(), frameResult, frameFacts.build()),
                "frame_results");
    }

    /** The checks made of the PDU (RH + commands + padding + R-CRC): the R-CRC residue, the RH, the UDP payload sum. */
    private Results pduChecks(Flow frame) {
        int w = config.dataWidth();
        StreamSlice pdu = child("pdu_slice", new StreamSlice(new StreamSlice.Config(w, header.bytes(),
                FrameFormat.FCS_BYTES)));
        frame.into(pdu.in);
        ParallelCrc rcrc = child("rcrc_check", new ParallelCrc(crcConfig));
        pdu.out.into(rcrc.in);
        Reg pduFirst = reg("pdu_first", 1, 1);
        int rhBits = 8 * FrameFormat.RH_BYTES;
        Reg rhHeld = regNoReset("rh_held", rhBits);
        Expr rhNow = pdu.out.tdata().bits(rhBits - 1, 0);
        when(pdu.out.valid(), () -> pduFirst.set(pdu.out.tlast()));
        when(pdu.out.valid().and(pduFirst), () -> rhHeld.set(rhNow));
        Expr rh2 = delayed("rh", Hw.mux(pduFirst, rhNow, rhHeld)); // until the R-CRC result
        List<Layout.Spec> pduFields = new ArrayList<>(List.of(Layout.bits("rh", rhBits), Layout.bits("rcrc_ok", 1)));
        if (config.net().format().ip()) {
            pduFields.add(Layout.bits("udp_sum", 16));
        }
        Layout pduResult = Layout.of("pdu_result", pduFields);
        Layout.ExprBuilder pduFacts = pduResult.expr().set("rcrc_ok", rcrc.crc.field("value").eq(CRC32_RESIDUE))
                .set("rh", rh2);
        if (config.net().format().ip()) { // the UDP payload's sum, ready with the R-CRC result (the same latency)
            InternetSum udpSum = child("udp_payload_sum", new InternetSum(new InternetSum.Config(w, 0)));
            pdu.out.into(udpSum.in);
            unused("udp_sum_valid", udpSum.sum.valid());
            // the sum comes InternetSum.LATENCY cycles after the last beat; held until the R-CRC result
            pduFacts.set("udp_sum", delay("udp_sum", udpSum.sum.field("value"),
                    crcConfig.latency() - InternetSum.LATENCY));
        }
        return queued(Stream.of(this, "pdu_result", rcrc.crc.valid(), pduResult, pduFacts.build()), "pdu_results");
    }

    private Results queued(Stream results, String queueName) {
        return new Results(results.queue(queueName, RESULT_QUEUE_DEPTH), results.valid().and(results.ready().not()));
    }

    /** A frame's two results together: the first failing check, and its RH unpacked into tuser. */
    private Verdict judge(Stream frameResults, Stream pduResults) {
        NetConfig net = config.net();
        Expr verdict = wire("verdict", frameResults.valid().and(pduResults.valid()));
        frameResults.ready().set(verdict);
        pduResults.ready().set(verdict);
        Expr rh = pduResults.field("rh");
        ByteLayout rhLayout = FrameFormat.RH;
        unused("rh_reserved", rhLayout.get(rh, "rsvd2")); // ignored by a receiver (spec 3.3)
        Expr partition = rhLayout.get(rh, "partition");
        Expr earlier = frameResults.field("reason");
        Expr udpBad = Hw.bool(false);
        if (net.format().ip()) {
            // a zero checksum: not sent (IPv4, or the IPv6 zero-checksum mode) or refused (RFC 6936)
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
                Hw.mux(udpBad, code(DropReason.BAD_UDP_CHECKSUM),
                        Hw.mux(pduResults.field("rcrc_ok").not(), code(DropReason.BAD_RCRC),
                                Hw.mux(rhLayout.get(rh, "ver").ne(net.rhVersion()),
                                        code(DropReason.UNSUPPORTED_RH_VERSION),
                                        Hw.mux(partition.ne(localPartition), code(DropReason.PARTITION_MISMATCH),
                                                Hw.zeros(REASON_WIDTH)))))));
        Expr user = SueMeta.LAYOUT.expr().set(SueMeta.LEN, frameResults.field("len")).set(SueMeta.PARTITION, partition)
                .set(SueMeta.RPSN, rhLayout.get(rh, "rpsn")).set(SueMeta.OP, rhLayout.get(rh, "op"))
                .set(SueMeta.PSN, rhLayout.get(rh, "psn")).set(SueMeta.VC, rhLayout.get(rh, "vc"))
                .set(SueMeta.PORT, rhLayout.get(rh, "port"))
                .set(SueMeta.SRC_XPU, rhLayout.get(rh, "xpuid")).set(SueMeta.DST_XPU, ownXpu(SueMeta.XPU_WIDTH))
                .build();
        return new Verdict(verdict, reason, user);
    }

    /** The commands and padding, held in the packet FIFO until their frame's verdict; good ones leave on out. */
    private PacketFifo deliver(Flow frame, Verdict verdict) {
        int w = config.dataWidth();
        StreamSlice commands = child("command_slice", new StreamSlice(new StreamSlice.Config(w,
                header.bytes() + FrameFormat.RH_BYTES, FrameFormat.RCRC_BYTES + FrameFormat.FCS_BYTES)));
        frame.into(commands.in);
        PacketFifo fifo = child("fifo", new PacketFifo(new PacketFifo.Config(new StreamConfig(w, SueMeta.WIDTH),
                config.fifoDepth())));
        commands.out.into(fifo.in);
        fifo.verdict.drive(verdict.valid(), fifo.verdict.layout().expr().set("drop", verdict.reason().ne(0))
                .set("user", verdict.user()).build());
        fifo.out.into(out);
        Expr keptUser = fifo.kept.field("user");
        fifo.kept.map("kept_size", SueMeta.PDU_SIZE, SueMeta.sizeOf(keptUser)).into(buffered);
        unused("kept_user", keptUser); // the rest of the frame's fields go with its beats
        return fifo;
    }

    /** The status outputs, in port order: a counter per drop reason, good frames, the FIFO's counts, errors. */
    private void counters(Verdict verdict, PacketFifo fifo, Expr resultLost) {
        for (DropReason r : DropReason.values()) {
            if (r.fromMac() && !config.macError()) {
                continue;
            }
            statusCounter("drops_" + r.name().toLowerCase(), verdict.valid().and(verdict.reason().eq(r.ordinal() + 1)),
                    r.description());
        }
        statusCounter("frames_good", verdict.valid().and(verdict.reason().eq(0)),
                "Frames that passed every check (delivered unless the packet FIFO had no room).");
        exposeStatus(fifo.dropsOverflow, "drops_overflow", Status.Kind.COUNTER,
                "Frames dropped, whatever their verdict, because the packet FIFO had no room (the output stalled).");
        // the result queues are sized never to fill; if one did, verdicts would go astray: say so
        Reg resultOverflow = reg("result_overflow", 1, 0);
        when(resultLost, () -> resultOverflow.set(1));
        status("internal_error", Status.Kind.FLAG, fifo.protocolError.or(resultOverflow),
                "A sizing invariant broke: a result queue or the packet FIFO's bookkeeping overflowed (sticky).");
        // the FIFO's own count of "drop" verdicts: equal to the sum of drops_<reason>, a check on the wiring
        exposeStatus(fifo.dropsBad, "fifo_drops_judged", Status.Kind.COUNTER,
                "Frames the packet FIFO dropped by their verdict: the sum of drops_<reason> unless frames overflowed.");
    }

    /** The IP header's name in the network header: {@code ipv4} or {@code ipv6}. */
    private String ip() {
        return config.net().format() == HeaderFormat.ETH_IPV4_UDP ? "ipv4" : "ipv6";
    }

    /** A field of the network header as it arrived. */
    private Expr field(Captured captured, String path) {
        return header.get(captured.header(), path);
    }

    /** The low bits of this XPU's address, as many as a field carries. */
    private Expr ownXpu(int width) {
        return localXpu.bits(width - 1, 0);
    }

    /**
     * The UDP checksum's part in the network header (RFC 768, RFC 8200 8.1): the pseudo header (addresses, protocol
     * 17, the UDP length) and the UDP header, checksum included, folded; the payload's part comes from the PDU.
     */
    private Expr udpHeaderSum(Summed summed) {
        List<Expr> terms = new ArrayList<>(List.of(Hw.lit(16, FrameFormat.IP_PROTOCOL_UDP),
                header.get(summed.bytes(), -summed.from(), "udp.length")));
        for (int at = FrameFormat.udpSummedFrom(config.net()); at < summed.from() + summed.bytes().width() / 8;
             at += 2) {
            terms.add(word(summed, at));
        }
        return InternetSum.add(terms.toArray(new Expr[0]));
    }

    /** The IPv4 header's one's-complement sum (from the registered bytes) is not 0xFFFF. */
    private Expr ipv4SumBad(Summed summed) {
        Expr[] words = new Expr[FrameFormat.IPV4.bytes() / 2];
        for (int i = 0; i < words.length; i++) {
            words[i] = word(summed, header.at("ipv4") + 2 * i);
        }
        return wire("ipv4_sum", InternetSum.add(words)).ne(0xffff);
    }

    /** The big-endian 16-bit word at header byte {@code at}, from the registered summed bytes. */
    private static Expr word(Summed summed, int at) {
        return ByteLayout.bigEndian(summed.bytes(), at - summed.from(), 2);
    }

    /** e the CRC units' latency later, so a frame's facts meet its CRC result. */
    private Expr delayed(String name, Expr e) {
        return delay(name, e, crcConfig.latency());
    }

    private static Expr code(DropReason r) {
        return Hw.lit(REASON_WIDTH, r.ordinal() + 1);
    }

    /** After the optional 802.1Q tag, the expected EtherType; false if either is missing. */
    private Expr tagAndType(Captured captured, int etherType) {
        Expr ok = Hw.bool(true);
        if (config.net().vlan()) {
            ok = field(captured, "vlan.tpid").eq(NetConfig.ETHERTYPE_VLAN);
        }
        return ok.and(field(captured, "ether_type").eq(etherType));
    }

    /**
     * The first failing check of the network header, in {@code FrameCodec.decode}'s order, then oversize; 0 if all
     * pass. Runt and FCS come before these; R-CRC, RH version and partition after.
     */
    private Expr headerChecks(Captured c) {
        NetConfig net = config.net();
        List<Expr[]> checks = new ArrayList<>(); // {fails, reason}
        Expr frameBytes = c.frameBytes();
        switch (net.format()) {
            case ETH_IPV4_UDP -> {
                checks.add(fail(tagAndType(c, NetConfig.ETHERTYPE_IPV4).not(), DropReason.UNKNOWN_ETHERTYPE));
                // the header checksum: from the registered bytes, a cycle later (ipv4SumBad)
                checks.add(fail(field(c, "ipv4.version").ne(4).or(field(c, "ipv4.ihl").ne(FrameFormat.IPV4.bytes() / 4))
                        .or(field(c, "ipv4.protocol").ne(FrameFormat.IP_PROTOCOL_UDP)), DropReason.BAD_IP_HEADER));
                checks.add(fail(field(c, "ipv4.total_length").ne(bytesFrom(frameBytes, "ipv4")), DropReason.TRUNCATED));
                checks.add(fail(field(c, "ipv4.dst").ne(localIp), DropReason.WRONG_DESTINATION));
                checks.add(fail(field(c, "udp.length").ne(bytesFrom(frameBytes, "udp")), DropReason.TRUNCATED));
                checks.add(fail(field(c, "udp.dst_port").ne(net.udpDstPort()), DropReason.UNKNOWN_UDP_PORT));
            }
            case ETH_IPV6_UDP -> {
                Expr udpBytes = bytesFrom(frameBytes, "udp");
                checks.add(fail(tagAndType(c, NetConfig.ETHERTYPE_IPV6).not(), DropReason.UNKNOWN_ETHERTYPE));
                checks.add(fail(field(c, "ipv6.version").ne(6).or(field(c, "ipv6.next_header")
                        .ne(FrameFormat.IP_PROTOCOL_UDP)), DropReason.BAD_IP_HEADER));
                checks.add(fail(field(c, "ipv6.dst").ne(localIp), DropReason.WRONG_DESTINATION));
                checks.add(fail(field(c, "ipv6.payload_length").ne(udpBytes).or(field(c, "udp.length").ne(udpBytes)),
                        DropReason.TRUNCATED));
                checks.add(fail(field(c, "udp.dst_port").ne(net.udpDstPort()), DropReason.UNKNOWN_UDP_PORT));
            }
            case AFH_GEN1 -> {
                Expr type = tagAndType(c, net.afhGen1EtherType());
                if (net.afhGen1SecondEtherType() != 0) {
                    type = type.and(field(c, "second_ether_type").eq(net.afhGen1SecondEtherType()));
                }
                checks.add(fail(type.not(), DropReason.UNKNOWN_ETHERTYPE));
                checks.add(fail(toOtherXpu(c), DropReason.WRONG_DESTINATION));
            }
            case AFH_GEN2_NORMAL, AFH_GEN2_COMPRESSED -> {
                int flags = net.format() == HeaderFormat.AFH_GEN2_NORMAL ? FrameFormat.GEN2_NORMAL_FLAGS
                        : FrameFormat.GEN2_COMPRESSED_FLAGS;
                checks.add(fail(field(c, "addr.da_flags").ne(flags).or(field(c, "addr.sa_flags").ne(flags))
                        .or(tagAndType(c, net.afhGen2EtherType()).not()), DropReason.UNKNOWN_ETHERTYPE));
                checks.add(fail(toOtherXpu(c), DropReason.WRONG_DESTINATION));
            }
            default -> throw new IllegalStateException();
        }
        // RH + commands + padding beyond maxPdu
        checks.add(fail(frameBytes.gt(net.maxPdu() + header.bytes() + FrameFormat.RCRC_BYTES + FrameFormat.FCS_BYTES),
                DropReason.OVERSIZE_PDU));
        Expr reason = Hw.zeros(REASON_WIDTH);
        for (int i = checks.size() - 1; i >= 0; i--) {
            reason = Hw.mux(checks.get(i)[0], checks.get(i)[1], reason);
        }
        return reason;
    }

    /** The frame's bytes from the start of header {@code part} to the FCS: what its length field must say. */
    private Expr bytesFrom(Expr frameBytes, String part) {
        return frameBytes.sub(FrameFormat.FCS_BYTES + header.at(part));
    }

    /** The AFH destination address is not this XPU's (in as many bits as the format carries). */
    private Expr toOtherXpu(Captured c) {
        Expr dst = field(c, "addr.dst_xpu");
        return dst.ne(ownXpu(dst.width()));
    }

    private static Expr[] fail(Expr condition, DropReason r) {
        return new Expr[] {condition, code(r)};
    }

    public Config config() {
        return config;
    }
}
