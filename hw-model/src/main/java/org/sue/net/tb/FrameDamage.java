package org.sue.net.tb;

import java.util.Arrays;
import java.util.Random;
import org.sue.net.HeaderEntry;
import org.sue.net.FrameFormat;
import org.sue.net.NetConfig;
import org.sue.net.model.FrameCodec;
import org.sue.net.model.ReliabilityHeader;

/**
 * Frames for receive tests and vectors: good frames to this receiver and frames damaged in each way a receiver must
 * survive (bit flips anywhere, header damage with a fresh FCS, truncation with and without a fresh FCS, frames cut
 * inside the header, garbage, bytes after the PDU, wrong destination, wrong partition, wrong RH version, oversize
 * PDUs for a receiver whose maxPdu is below 4096, UDP checksums zero, right or wrong in the IP formats). The
 * reference codec says what each should come to.
 */
public final class FrameDamage {
    private FrameDamage() {
    }

    public static byte[] frame(NetConfig net, LoopbackRun.Peers t, Random rnd, int maxCommands) {
        int kind = rnd.nextInt(14);
        int cmds = kind == 0 ? 1 + rnd.nextInt(16) : 1 + rnd.nextInt(kind == 1 ? maxCommands : maxCommands / 3);
        byte[] c = new byte[cmds];
        rnd.nextBytes(c);
        int partition = kind == 2 ? t.me().partition() ^ (1 + rnd.nextInt(0x3ff)) : t.me().partition();
        int version = kind == 3 ? net.rhVersion() ^ (1 + rnd.nextInt(3)) : net.rhVersion();
        ReliabilityHeader rh = new ReliabilityHeader(version, rnd.nextInt(4), rnd.nextInt(1024), rnd.nextInt(1 << 16),
                rnd.nextInt(4), partition, rnd.nextInt(1 << 16));
        HeaderEntry e = t.table()[rnd.nextInt(t.table().length)];
        if (kind == 4) { // to another XPU / IP
            byte[] ip = e.dstIp();
            ip[ip.length - 1] ^= 1;
            e = new HeaderEntry(e.dstMac(), e.srcMac(), e.vlanId(), ip, e.srcIp(), e.udpSrcPort(), e.dstXpu() ^ 1,
                    e.srcXpu(), e.hopCount(), e.entropy());
        }
        byte[] f = FrameCodec.encode(net, e, rh, c);
        return switch (kind) {
            case 5 -> flip(f, rnd.nextInt(f.length), rnd); // anywhere: the FCS fails
            case 6 -> refcs(flip(f, rnd.nextInt(Math.min(f.length - 4, net.headerBytes() + 12)), rnd));
            case 7 -> Arrays.copyOf(f, 1 + rnd.nextInt(f.length - 1)); // truncated, FCS not redone
            case 8 -> refcs(Arrays.copyOf(f, 5 + rnd.nextInt(Math.min(f.length - 5, 90)))); // cut short, even mid-header
            case 9 -> { // garbage
                byte[] g = new byte[5 + rnd.nextInt(300)];
                rnd.nextBytes(g);
                yield rnd.nextBoolean() ? g : refcs(g);
            }
            case 10 -> refcs(Arrays.copyOf(f, f.length + 1 + rnd.nextInt(8))); // bytes after the PDU
            case 12, 13 -> { // IP formats: the UDP checksum zero (12), right or one bit off (13)
                if (!net.format().ip()) {
                    yield f;
                }
                byte[] g = f.clone();
                int at = FrameFormat.udpChecksumAt(net);
                g[at] = 0;
                g[at + 1] = 0;
                if (kind == 13) {
                    FrameCodec.fillUdpChecksum(net, g);
                    if (!rnd.nextBoolean()) {
                        int bit = rnd.nextInt(16);
                        g[at + 1 - bit / 8] ^= (byte) (1 << (bit % 8));
                    }
                }
                yield refcs(g);
            }
            default -> f;
        };
    }

    static byte[] flip(byte[] f, int at, Random rnd) {
        byte[] g = f.clone();
        g[at] ^= (byte) (1 << rnd.nextInt(8));
        return g;
    }

    /** The frame with its last four bytes replaced by a correct FCS. */
    public static byte[] refcs(byte[] f) {
        byte[] c = f.clone();
        FrameCodec.putLe32(c, c.length - 4, FrameCodec.crc32(c, 0, c.length - 4));
        return c;
    }
}
