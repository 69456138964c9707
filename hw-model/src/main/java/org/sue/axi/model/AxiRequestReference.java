package org.sue.axi.model;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.sue.axi.AxiConfig;
import org.sue.core.Layout;

/**
 * What the AXI4 slave's request side makes of one request (docs/protocol.md 13), written from the AXI4 rules and the
 * mapping, not from the RTL: a burst AXI4 forbids is answered SLVERR and a destination at or above
 * {@code destinations} DECERR, with nothing sent; otherwise the burst's beats, addressed by AXI4's own formulas
 * (AMBA AXI4 A3.4.1), are cut into parts of consecutive addresses (a WRAP burst is cut where it wraps) of at most one
 * command's data, each part a READ command; for writes a WRITE command with the part's beats or, when any strobe
 * of the part is low, WRITE_STROBED commands that carry their beats' strobes in their first data beat.
 */
public final class AxiRequestReference {
    /** An AW or AR, fields as the {@link AxiConfig#ax} layout names them ({@code user} ignored without one). */
    public record Ax(long addr, int id, int len, int size, int burst, int lock, int cache, int prot, int qos,
                     int region, int user) {
        public BigInteger pack(AxiConfig axi) {
            return axi.ax().pack(this);
        }

        public static Ax unpack(AxiConfig axi, BigInteger packed) {
            return unpack(axi, axi.ax(), packed);
        }

        /** The part a request control describes, its ID the command ID (epoch and AxID). */
        public static Ax ofControl(AxiConfig axi, BigInteger control) {
            return unpack(axi, axi.requestControl(), control);
        }

        private static Ax unpack(AxiConfig axi, Layout l, BigInteger packed) {
            return new Ax(l.field("addr").get(packed), (int) l.field("id").get(packed),
                    (int) l.field("len").get(packed), (int) l.field("size").get(packed),
                    (int) l.field("burst").get(packed), (int) l.field("lock").get(packed),
                    (int) l.field("cache").get(packed), (int) l.field("prot").get(packed),
                    (int) l.field("qos").get(packed), (int) l.field("region").get(packed),
                    axi.userWidth() == 0 ? 0 : (int) l.field("user").get(packed));
        }

        public int beats() {
            return len + 1;
        }
    }

    /** A W beat. */
    public record WBeat(BigInteger data, BigInteger strb, boolean last) {
    }

    /** A request SUE answers itself: a B (write), or {@code beats} R beats, with {@code resp}. */
    public record LocalResponse(boolean write, int id, int resp, int beats) {
    }

    /** The commands of one request, or its answer. */
    public record Outcome(List<AxiCommand> commands, LocalResponse answer, int dst) {
    }

    private final AxiConfig axi;

    public AxiRequestReference(AxiConfig axi) {
        this.axi = axi;
    }

    /**
     * A write: its AW and its len + 1 W beats. A part whose strobes are all high is a WRITE; one with a strobe low
     * travels as WRITE_STROBED commands of at most {@link AxiConfig#strobedBeats} beats each, their first data beat
     * carrying their beats' strobes.
     */
    public Outcome write(Ax aw, List<WBeat> beats) {
        LocalResponse answer = answer(aw, true);
        int dst = destination(aw);
        if (answer != null) {
            return new Outcome(List.of(), answer, dst);
        }
        List<AxiCommand> out = new ArrayList<>();
        List<int[]> parts = parts(aw);
        for (int p = 0; p < parts.size(); p++) {
            int[] part = parts.get(p);
            List<WBeat> own = beats.subList(part[0], part[0] + part[1]);
            boolean full = own.stream().allMatch(b -> b.strb().bitCount() == axi.beatBytes());
            int size = full ? part[1] : axi.strobedBeats();
            for (int first = 0; first < part[1]; first += size) {
                int n = Math.min(size, part[1] - first);
                boolean last = p == parts.size() - 1 && first + n == part[1];
                ByteArrayOutputStream data = new ByteArrayOutputStream();
                if (!full) {
                    byte[] strobes = new byte[axi.beatBytes()];
                    for (int k = 0; k < n; k++) {
                        System.arraycopy(bytes(own.get(first + k).strb(), axi.beatBytes() / 8), 0, strobes,
                                k * axi.beatBytes() / 8, axi.beatBytes() / 8);
                    }
                    data.writeBytes(strobes);
                }
                own.subList(first, first + n).forEach(b -> data.writeBytes(bytes(b.data(), axi.beatBytes())));
                out.add(AxiCommand.of(full ? AxiConfig.WRITE : AxiConfig.WRITE_STROBED,
                        control(aw, new int[] {part[0] + first, n}, last), dst, AxiConfig.REQUEST_VC,
                        data.toByteArray()));
            }
        }
        return new Outcome(out, null, dst);
    }

    /** A read: its AR. */
    public Outcome read(Ax ar) {
        LocalResponse answer = answer(ar, false);
        int dst = destination(ar);
        if (answer != null) {
            return new Outcome(List.of(), answer, dst);
        }
        List<AxiCommand> out = new ArrayList<>();
        int done = 0;
        for (int[] part : parts(ar)) {
            done += part[1];
            out.add(AxiCommand.of(AxiConfig.READ, control(ar, part, done == ar.beats()), dst, AxiConfig.REQUEST_VC,
                    new byte[0]));
        }
        return new Outcome(out, null, dst);
    }

    /** The destinations the transport has given up on: requests to them are answered SLVERR. */
    public final Set<Integer> unreachable = new HashSet<>();

    /** The destination XPU the request names. */
    public int destination(Ax a) {
        return (int) (axi.dstFromUser() ? a.user() & 0x3FF : a.addr() >>> axi.dstLsb() & 0x3FF);
    }

    /**
     * SLVERR for a burst AXI4 forbids, DECERR for a destination not configured, SLVERR for one the transport has
     * given up on ({@link #unreachable}), else null (the request is sent).
     */
    public LocalResponse answer(Ax a, boolean write) {
        int dst = destination(a);
        int resp = !legal(a) ? AxiConfig.SLVERR : dst >= axi.destinations() ? AxiConfig.DECERR
                : unreachable.contains(dst) ? AxiConfig.SLVERR : -1;
        return resp < 0 ? null : new LocalResponse(write, a.id(), resp, write ? 0 : a.beats());
    }

    /** AMBA AXI4 A3.4.1: burst types, WRAP lengths and alignment, FIXED lengths, size, the 4 KiB boundary. */
    public boolean legal(Ax a) {
        long nb = 1L << a.size();
        if (a.burst() == 3 || a.size() > axi.fullSize()) {
            return false;
        }
        if (a.burst() == AxiConfig.WRAP) {
            return (a.beats() == 2 || a.beats() == 4 || a.beats() == 8 || a.beats() == 16) && a.addr() % nb == 0;
        }
        if (a.burst() == AxiConfig.FIXED) {
            return a.beats() <= 16;
        }
        long aligned = a.addr() / nb * nb;
        return aligned / 4096 == (aligned + a.beats() * nb - 1) / 4096;
    }

    /** Address of beat {@code n} (0 first), AMBA AXI4 A3.4.1. */
    public static long beatAddress(Ax a, int n) {
        long nb = 1L << a.size();
        long aligned = a.addr() / nb * nb;
        if (n == 0 || a.burst() == AxiConfig.FIXED) {
            return a.addr();
        }
        if (a.burst() == AxiConfig.INCR) {
            return aligned + n * nb;
        }
        long window = nb * a.beats();
        long boundary = a.addr() / window * window;
        return boundary + (aligned - boundary + n * nb) % window;
    }

    /** Parts as {first beat, beats}: consecutive addresses, at most one command's data. */
    private List<int[]> parts(Ax a) {
        List<int[]> list = new ArrayList<>();
        long nb = 1L << a.size();
        int start = 0;
        for (int n = 1; n <= a.beats(); n++) {
            boolean cut = n == a.beats() || n - start == axi.partBeats()
                    || a.burst() != AxiConfig.FIXED && beatAddress(a, n) != beatAddress(a, n - 1) / nb * nb + nb;
            if (cut) {
                list.add(new int[] {start, n - start});
                start = n;
            }
        }
        return list;
    }

    /** The control of a part: its first beat's address, its length, INCR for WRAP, and whether it is the last. */
    private BigInteger control(Ax a, int[] part, boolean last) {
        Ax issued = new Ax(beatAddress(a, part[0]), a.id(), part[1] - 1, a.size(),
                a.burst() == AxiConfig.FIXED ? AxiConfig.FIXED : AxiConfig.INCR, a.lock(), a.cache(), a.prot(), a.qos(),
                a.region(), a.user());
        return control(axi, issued.pack(axi), 0, last);
    }

    /**
     * A request control: the fields of {@code ax} (packed in {@link AxiConfig#ax}), the command ID the ID with
     * {@code epoch} above it, and the last-part flag.
     */
    public static BigInteger control(AxiConfig axi, BigInteger ax, int epoch, boolean last) {
        Layout.Word w = axi.requestControl().word();
        for (Layout.Field f : axi.ax().fields()) {
            w.set(f.name(), f.getBig(ax));
        }
        return w.set("id", BigInteger.valueOf((long) epoch << axi.idWidth() | axi.ax().field("id").get(ax)))
                .set("last", last ? 1 : 0).toBigInteger();
    }

    /** The low {@code n} bytes of a value, least significant first. */
    public static byte[] bytes(BigInteger v, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = v.shiftRight(8 * i).byteValue();
        }
        return b;
    }
}
