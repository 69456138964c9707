package org.sue.verilator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sue.cmd.CommandTable;
import org.sue.cmd.model.CommandCodec;
import org.sue.gen.DefaultDesigns;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.TwoXpuRun;
import org.sue.net.HeaderEntry;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.model.FrameCodec;
import org.sue.net.model.ReliabilityHeader;
import org.sue.net.tb.PcapWriter;

/**
 * tools/wireshark/sue.lua under tshark: every frame of a two-XPU run (IPv4, and IPv6 with its UDP checksums) decodes
 * with no malformed packet and no expert error, and the fields it decodes from frames of every Ethernet-shaped format
 * equal what the reference codec put in (a damaged one included: its R-CRC is reported bad). Wireshark's own UDP
 * checksum check is on: it is the independent judge of the IPv6 checksums. AFH Gen2 compressed captures (link type
 * USER0) decode with no preference set, and the timestamps are the frames' cycles in nanoseconds.
 */
class WiresharkDissectorTest {
    static final Path LUA = Path.of(System.getProperty("sue.repo.root", ".."), "tools", "wireshark", "sue.lua");
    static final String[] FIELDS = {"sue.xpuid", "sue.op", "sue.psn", "sue.vc", "sue.partition", "sue.rpsn",
        "sue.cmd.type", "sue.cmd.data_len", "sue.rcrc.status", "sue.afh1.src_xpu", "sue.afh2.src_xpu",
        "_ws.malformed", "_ws.expert.message", "udp.checksum.status", "sue.port"};
    /** Wireshark's {@code udp.checksum.status} values (proto.h: PROTO_CHECKSUM_E_GOOD, _E_NOT_PRESENT). */
    static final String CHECKSUM_GOOD = "1";
    static final String CHECKSUM_NOT_PRESENT = "3";

    @ParameterizedTest
    @EnumSource(value = HeaderFormat.class, names = {"ETH_IPV4_UDP", "ETH_IPV6_UDP"})
    void everyFrameOfATwoXpuRunDecodesCleanly(HeaderFormat format, @TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("two_xpu.pcap");
        SueInstance.Config config = SueInstance.Config.defaults().withNet(NetConfig.defaults(format));
        TwoXpuRun run = new TwoXpuRun(config, 200, LinkModel.Faults.loss(1e-3), 7, pcap);
        TwoXpuRun.Result r = run.run(300, 300, 200_000, null);
        assertTrue(r.ok());
        List<String> fields = new ArrayList<>(List.of(FIELDS));
        fields.add("eth.type");
        List<String[]> rows = tshark(pcap, fields, "-o", "udp.check_checksum:TRUE");
        assertEquals(r.aToB().frames() + r.bToA().frames(), rows.size(), "one row per frame");
        assertEquals(ccUpdatesSent(run), rows.stream().filter(row -> macControl(row[fields.size()])).count(),
                "the CC_Updates are the MAC Control frames");
        String checksum = format == HeaderFormat.ETH_IPV6_UDP ? CHECKSUM_GOOD : CHECKSUM_NOT_PRESENT;
        for (String[] row : rows) {
            String line = String.join("|", row);
            if (macControl(row[fields.size()])) {
                assertEquals("", row[12], "no malformed packet: " + line);
                continue;
            }
            assertEquals("Good", row[9], "R-CRC checked: " + line);
            assertEquals("", row[12], "no malformed packet: " + line);
            assertEquals("", row[13], "no expert info: " + line);
            assertEquals(checksum, row[14], "UDP checksum status: " + line);
            assertTrue(!row[7].isEmpty() || !row[1].isEmpty(), "commands decoded: " + line);
        }
    }

    @Test
    void decodedFieldsEqualTheReferenceCodecsInEveryFormat(@TempDir Path dir) throws Exception {
        CommandTable table = CommandTable.example();
        Random rnd = new Random(15);
        List<NetConfig> formats = List.of(NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP),
                NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP).withVlan(true),
                NetConfig.defaults(HeaderFormat.AFH_GEN1).withGen1Options(0x88B7, true),
                NetConfig.defaults(HeaderFormat.AFH_GEN2_NORMAL));
        Path pcap = dir.resolve("formats.pcap");
        List<String> expected = new ArrayList<>();
        List<String> ports = new ArrayList<>(); // the RH's connection port, the last field
        try (PcapWriter w = new PcapWriter(pcap)) {
            for (NetConfig cfg : formats) {
                boolean v6 = cfg.format() == HeaderFormat.ETH_IPV6_UDP;
                byte[] dstIp = v6 ? new byte[16] : new byte[] {10, 0, 0, 1};
                byte[] srcIp = v6 ? new byte[16] : new byte[] {10, 0, 0, 2};
                dstIp[dstIp.length - 1] = 1;
                srcIp[srcIp.length - 1] = 2;
                for (int i = 0; i < 3; i++) {
                    int src = rnd.nextInt(1024);
                    HeaderEntry h = new HeaderEntry(0x0200_0000_0001L, 0x0200_0000_0002L, 100, dstIp, srcIp, 0xC000,
                            rnd.nextInt(1024), src, 3, rnd.nextInt(256));
                    ReliabilityHeader rh = new ReliabilityHeader(1, rnd.nextInt(3), rnd.nextInt(4), src,
                            rnd.nextInt(65536), rnd.nextInt(4), rnd.nextInt(1024), rnd.nextInt(65536));
                    List<CommandCodec.Command> cmds = new ArrayList<>();
                    for (int c = 0; c < 1 + rnd.nextInt(4); c++) {
                        int type = 1 + rnd.nextInt(4);
                        byte[] control = new byte[table.controlBytes(type)];
                        rnd.nextBytes(control);
                        byte[] data = new byte[table.hasData(type) ? rnd.nextInt(257) : 0];
                        rnd.nextBytes(data);
                        cmds.add(new CommandCodec.Command(type, control, data));
                    }
                    byte[] frame = FrameCodec.encode(cfg, h, rh, CommandCodec.pack(table, cmds));
                    boolean damaged = i == 2; // a control byte flipped: the R-CRC must say Bad
                    if (damaged) {
                        frame[cfg.headerBytes() + 8 + 4] ^= 0x10;
                        if (cfg.sendsUdpChecksum()) { // as if damaged before the UDP checksum was made
                            FrameCodec.fillUdpChecksum(cfg, frame);
                        }
                    }
                    w.write(frame, i);
                    String types = cmds.stream().map(c -> String.valueOf(c.type())).collect(Collectors.joining(","));
                    String lens = cmds.stream().map(c -> String.valueOf(c.data().length))
                            .collect(Collectors.joining(","));
                    String gen1Src = cfg.format() == HeaderFormat.AFH_GEN1 ? String.valueOf(src & 0xFFFF) : "";
                    String gen2Src = cfg.format() == HeaderFormat.AFH_GEN2_NORMAL ? String.valueOf(src) : "";
                    ports.add(String.valueOf(rh.port()));
                    expected.add(String.join("|", String.valueOf(rh.xpuid()), String.valueOf(rh.op()),
                            String.valueOf(rh.psn()), String.valueOf(rh.vc()), String.valueOf(rh.partition()),
                            String.valueOf(rh.rpsn()), types, lens, damaged ? "Bad" : "Good", gen1Src, gen2Src, ""));
                }
            }
        }
        List<String[]> rows = tshark(pcap, "-o", "sue.gen1_second:" + 0x88B7, "-o", "sue.gen1_shim:TRUE", "-o",
                "udp.check_checksum:TRUE");
        assertEquals(expected.size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            String[] row = rows.get(i);
            String got = String.join("|", List.of(row).subList(1, 13));
            HeaderFormat format = formats.get(i / 3).format();
            assertEquals(expected.get(i), got, "frame " + (i + 1) + " (" + format + ")");
            assertEquals(ports.get(i), row[FIELDS.length], "RH port of frame " + (i + 1));
            boolean damaged = i % 3 == 2;
            assertTrue(damaged ? row[13].startsWith("R-CRC 0x") : row[13].isEmpty(), "expert info: " + row[13]);
            assertEquals(switch (format) {
                case ETH_IPV4_UDP -> CHECKSUM_NOT_PRESENT;
                case ETH_IPV6_UDP -> CHECKSUM_GOOD;
                default -> ""; // no UDP
            }, row[14], "UDP checksum status of frame " + (i + 1) + " (" + format + ")");
        }
    }

    /**
     * The 512-bit AFH Gen2 compressed instance (configs/afh_gen2.json, with a VLAN tag): every frame of a two-XPU run
     * decodes from the capture alone (link type USER0, no preference), FCS and R-CRC good, the 16-bit source XPU
     * address one of the two, in time order; frames written a cycle apart are a nanosecond apart, and a MAC Control
     * frame in such a capture is decoded as Ethernet.
     */
    @Test
    void gen2CompressedCapturesDecodeWithNanosecondTimes(@TempDir Path dir) throws Exception {
        Path pcap = dir.resolve("two_xpu.pcap");
        SueInstance.Config config = DefaultDesigns.gen2Instance();
        assertEquals(HeaderFormat.AFH_GEN2_COMPRESSED, config.net().format());
        TwoXpuRun run = new TwoXpuRun(config, 200, LinkModel.Faults.loss(1e-3), 7, pcap);
        TwoXpuRun.Result r = run.run(300, 300, 200_000, null);
        assertTrue(r.ok());
        List<String> fields = List.of("frame.time_epoch", "sue.afh2c.src_xpu", "sue.fcs.status", "sue.rcrc.status",
                "sue.cmd.type", "sue.ack_only", "_ws.malformed", "_ws.expert.message", "eth.type");
        List<String[]> rows = tshark(pcap, fields);
        assertEquals(r.aToB().frames() + r.bToA().frames(), rows.size(), "one row per frame");
        assertEquals(ccUpdatesSent(run), rows.stream().filter(row -> macControl(row[9])).count(),
                "the CC_Updates are the MAC Control frames, decoded as Ethernet");
        Set<String> sources = new TreeSet<>();
        long last = -1;
        for (String[] row : rows) {
            String line = String.join("|", row);
            long nanos = nanos(row[1]);
            assertTrue(nanos >= last, "frames in time order: " + line);
            last = nanos;
            if (macControl(row[9])) {
                assertEquals("", row[7], "no malformed packet: " + line);
                continue;
            }
            sources.add(row[2]);
            assertEquals("Good", row[3], "FCS checked: " + line);
            assertEquals("Good", row[4], "R-CRC checked: " + line);
            assertTrue(!row[5].isEmpty() || !row[6].isEmpty(), "commands or an ACK-only PDU decoded: " + line);
            assertEquals("", row[7], "no malformed packet: " + line);
            assertEquals("", row[8], "no expert info: " + line);
        }
        assertEquals(2, sources.size(), "both XPUs' frames, by their source address: " + sources);

        NetConfig net = config.net();
        Path hand = dir.resolve("cycles.pcap");
        long cycle = 3_000_000_007L;
        try (PcapWriter w = PcapWriter.of(hand, net.format())) {
            for (int i = 0; i < 3; i++) {
                HeaderEntry h = new HeaderEntry(0, 0, 5, new byte[4], new byte[4], 0, 2, 1, 0, 0);
                w.write(FrameCodec.encode(net, h, new ReliabilityHeader(1, 0, 1, i, 0, 0, 0), CommandCodec.pack(
                        CommandTable.example(), List.of(new CommandCodec.Command(1, new byte[8], new byte[0])))),
                        cycle + i);
            }
            w.write(pfcFrame(), cycle + 3);
        }
        List<String[]> timed = tshark(hand, List.of("frame.time_epoch", "sue.afh2c.src_xpu", "sue.fcs.status",
                "eth.type"));
        assertEquals(4, timed.size());
        for (int i = 0; i < 4; i++) {
            assertEquals(cycle + i, nanos(timed.get(i)[1]), "1 ns a cycle, frame " + (i + 1));
            assertEquals(i < 3 ? "1|Good|" : "||0x8808", String.join("|", List.of(timed.get(i)).subList(2, 5)),
                    "frame " + (i + 1));
        }
    }

    /** Whether a row's {@code eth.type} is MAC Control's: a CBFC CC_Update, not a SUE frame. */
    private static boolean macControl(String ethType) {
        return ethType.contains("0x8808");
    }

    /**
     * The CC_Updates both sides sent: each port sends one as it comes up (docs/protocol.md 8.1), and a short run sees
     * no timer's.
     */
    private static long ccUpdatesSent(TwoXpuRun run) {
        return run.side("A").counter("cbfc_cc_updates_sent") + run.side("B").counter("cbfc_cc_updates_sent");
    }

    /** A PFC frame (MAC Control, IEEE 802.3 Annex 31D) pausing nothing, with its FCS. */
    private static byte[] pfcFrame() {
        byte[] f = new byte[64];
        byte[] head = {1, (byte) 0x80, (byte) 0xC2, 0, 0, 1, 2, 0, 0, 0, 0, 1, (byte) 0x88, 0x08, 0x01, 0x01};
        System.arraycopy(head, 0, f, 0, head.length);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(f, 0, 60);
        for (int i = 0; i < 4; i++) {
            f[60 + i] = (byte) (crc.getValue() >>> (8 * i));
        }
        return f;
    }

    /** tshark's {@code frame.time_epoch} (seconds with nine decimals) in nanoseconds. */
    private static long nanos(String epoch) {
        return new java.math.BigDecimal(epoch).movePointRight(9).longValueExact();
    }

    /** One row per frame: the frame number, then {@link #FIELDS}. */
    static List<String[]> tshark(Path pcap, String... options) throws IOException, InterruptedException {
        return tshark(pcap, List.of(FIELDS), options);
    }

    /** One row per frame: the frame number, then {@code fields}. */
    static List<String[]> tshark(Path pcap, List<String> fields, String... options) throws IOException,
            InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-X", "lua_script:" + LUA.toAbsolutePath(), "-r",
                pcap.toString(), "-T", "fields", "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=,",
                "-e", "frame.number"));
        cmd.addAll(List.of(options));
        for (String f : fields) {
            cmd.add("-e");
            cmd.add(f);
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "tshark failed: " + err);
        assertTrue(!err.contains("Lua:") && !err.toLowerCase().contains("error"), "tshark said: " + err);
        List<String[]> rows = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                rows.add(line.split("\\|", -1));
            }
        }
        return rows;
    }
}
