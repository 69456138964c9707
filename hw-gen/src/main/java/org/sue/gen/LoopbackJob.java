package org.sue.gen;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.model.FrameCodec;
import org.sue.net.tb.LoopbackRun;
import org.sue.net.tb.PcapWriter;

/**
 * The main job's simulation: random PDUs through transmit -> receive ({@link org.sue.net.FramingLoopback}) in the JVM
 * simulator, for the default configuration (Ethernet/IPv4/UDP, 1024-bit bus) and each other header format, every
 * frame on the link written to {@code loopback.pcap} (open it in Wireshark), every frame and delivery checked against
 * the reference codec, and a one-screen summary.
 */
public final class LoopbackJob {
    private LoopbackJob() {
    }

    static final int WIDTH = 1024;
    static final List<NetConfig> FORMATS = List.of(
            NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP),
            NetConfig.defaults(HeaderFormat.ETH_IPV6_UDP).withVlan(true),
            NetConfig.defaults(HeaderFormat.AFH_GEN1).withGen1Options(0, true),
            NetConfig.defaults(HeaderFormat.AFH_GEN2_NORMAL),
            NetConfig.defaults(HeaderFormat.AFH_GEN2_COMPRESSED).withVlan(true));

    public static void run(Path dir) {
        Path pcapFile = dir.resolve("loopback.pcap");
        Random rnd = new Random(2026);
        long frames = 0;
        long bytes = 0;
        long delivered = 0;
        long wrong = 0;
        Map<String, Long> drops = new TreeMap<>();
        System.out.printf("%nloopback simulation, %d-bit bus: random PDUs (1..4088 command bytes) TX -> RX%n", WIDTH);
        System.out.printf("  %-42s %6s %8s %10s %9s %8s %12s%n", "format", "PDUs", "frames", "link bytes", "delivered",
                "cycles", "cycles/s");
        // a short run: the generated model is still being JIT-compiled, so cycles/s is far below its steady speed
        try (PcapWriter pcap = new PcapWriter(pcapFile)) {
            for (NetConfig net : FORMATS) {
                long t0 = System.nanoTime();
                LoopbackRun run = new LoopbackRun(net, WIDTH);
                List<LoopbackRun.Pdu> pdus = run.randomPdus(rnd, 80, 4088);
                long tSim = System.nanoTime();
                LoopbackRun.Result r = run.run(pdus, rnd, 90, 95, pcap::write);
                double simSeconds = (System.nanoTime() - tSim) / 1e9;
                long linkBytes = r.frames().stream().mapToLong(f -> f.bytes().length).sum();
                for (int i = 0; i < pdus.size(); i++) {
                    byte[] expected = run.expectedFrame(pdus.get(i));
                    boolean frameOk = i < r.frames().size() && Arrays.equals(expected, r.frames().get(i).bytes());
                    StreamMonitor.Packet got = i < r.delivered().size() ? r.delivered().get(i) : null;
                    byte[] commands = FrameCodec.decode(net, run.me, expected).frame().commands();
                    if (!frameOk || got == null || !Arrays.equals(commands, got.bytes())) {
                        wrong++;
                    }
                }
                r.counters().forEach((k, v) -> drops.merge(k, v, Long::sum));
                frames += r.frames().size();
                bytes += linkBytes;
                delivered += r.delivered().size();
                String name = net.format().name().toLowerCase() + (net.vlan() ? " +802.1Q" : "")
                        + " (" + net.headerBytes() + " B header)";
                System.out.printf("  %-42s %6d %8d %10d %9d %8d %12.0f   (%.1f s with compile)%n", name, pdus.size(),
                        r.frames().size(), linkBytes, r.delivered().size(), r.cycles(), r.cycles() / simSeconds,
                        (System.nanoTime() - t0) / 1e9);
            }
        }
        System.out.printf("  total: %d frames, %d bytes on the link, %d PDUs delivered; %d differ from the reference"
                + " codec%n", frames, bytes, delivered, wrong);
        StringBuilder d = new StringBuilder();
        drops.forEach((k, v) -> {
            if (k.startsWith("drops_") || k.equals("internal_error")) {
                d.append(String.format("%s=%d ", k.startsWith("drops_") ? k.substring(6) : k, v));
            }
        });
        System.out.println("  receiver drops by reason: " + d.toString().trim());
        System.out.println("  (cycles/s of a short cold run: the JIT is still compiling the model; see scripts/bench)");
        System.out.println("  frames written to " + pcapFile + " (Ethernet with FCS; open in Wireshark)");
        if (wrong != 0 || delivered != frames) {
            throw new IllegalStateException("the loopback lost or changed PDUs: see the summary above");
        }
    }
}
