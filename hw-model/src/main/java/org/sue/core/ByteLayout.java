package org.sue.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A header of whole bytes as it travels on the wire: fields in wire order, each multi-byte field most significant
 * byte first (network order), and inside a byte the first field in the high bits. One description serves the
 * hardware, where a packet stream carries byte i of a beat in bits [8i+7:8i] (lane order), and plain Java on byte
 * arrays (reference codecs, testbenches), so nothing takes a header apart with offsets and byte swaps by hand.
 * A field is named by its path ({@code udp.checksum} for a field of a nested header).
 *
 * <pre>{@code
 * static final ByteLayout UDP = ByteLayout.of("udp", Layout.bits("src_port", 16), Layout.bits("dst_port", 16),
 *         Layout.bits("length", 16), Layout.bits("checksum", 16));
 * Expr port = UDP.get(beat, 34, "dst_port");                   // the header starts at byte 34 of the beat
 * Expr header = UDP.lanes().set("length", len).build();        // its bytes in lane order, unset fields zero
 * Expr patched = UDP.patch(beat, -30).set("checksum", sum).build(); // it started 30 bytes before this beat
 * UDP.set(frame, 34, "checksum", 0xffff);                      // plain Java, on the frame's bytes
 * }</pre>
 */
@ConstructionHelper
public final class ByteLayout {
    /**
     * Where a field sits: its first bit on the wire, counted from the header's first bit (bit 7 of byte 0 is bit 0),
     * and its width.
     */
    public record Slot(String path, int bit, int width) {
        public int firstByte() {
            return bit / 8;
        }

        public int lastByte() {
            return (bit + width - 1) / 8;
        }
    }

    private final String name;
    /** The header read as one number, its first byte most significant: field offsets come from here. */
    private final Layout value;

    private ByteLayout(String name, Layout value) {
        if (value.width() % 8 != 0) {
            throw new IllegalArgumentException("byte layout '" + name + "' is " + value.width()
                    + " bits, not whole bytes");
        }
        this.name = name;
        this.value = value;
    }

    /** A header of the given fields, the first one first on the wire. */
    public static ByteLayout of(String name, Layout.Spec... wireOrder) {
        return of(name, List.of(wireOrder));
    }

    public static ByteLayout of(String name, List<Layout.Spec> wireOrder) {
        List<Layout.Spec> lsbFirst = new ArrayList<>(wireOrder);
        Collections.reverse(lsbFirst);
        return new ByteLayout(name, Layout.of(name, lsbFirst));
    }

    /** A field holding a whole header of another layout. */
    public static Layout.Spec nested(String name, ByteLayout part) {
        return Layout.nested(name, part.value);
    }

    public String name() {
        return name;
    }

    public int bytes() {
        return value.width() / 8;
    }

    /** The field at {@code path} (dotted for a field of a nested header). */
    public Slot slot(String path) {
        Layout l = value;
        Layout.Field f = null;
        int lsb = 0;
        for (String part : path.split("\\.", -1)) {
            if (f != null) {
                if (f.nested() == null) {
                    throw new IllegalArgumentException("field " + f + " of byte layout '" + name
                            + "' is plain bits: no '" + path + "'");
                }
                l = f.nested();
            }
            f = l.field(part);
            lsb += f.offset();
        }
        return new Slot(path, value.width() - lsb - f.width(), f.width());
    }

    /** Every field of plain bits, a nested header's by its path, in wire order. */
    public List<Slot> fields() {
        List<Slot> all = new ArrayList<>();
        addFields(value, "", all);
        return all;
    }

    private void addFields(Layout l, String prefix, List<Slot> all) {
        List<Layout.Field> fs = l.fields();
        for (int i = fs.size() - 1; i >= 0; i--) { // the last field of the number is the first on the wire
            Layout.Field f = fs.get(i);
            if (f.nested() != null) {
                addFields(f.nested(), prefix + f.name() + ".", all);
            } else {
                all.add(slot(prefix + f.name()));
            }
        }
    }

    /** The byte offset of a field that starts on a byte boundary (a nested header, an address, a port). */
    public int at(String path) {
        Slot s = slot(path);
        if (s.bit() % 8 != 0) {
            throw new IllegalArgumentException("field '" + path + "' of byte layout '" + name + "' starts at bit "
                    + s.bit() % 8 + " of byte " + s.firstByte() + ", not on a byte boundary");
        }
        return s.firstByte();
    }

    // ---- hardware: bytes in lane order --------------------------------------------------------------------------

    /** Field {@code path} of the header that is all of {@code lanes} (byte i in bits [8i+7:8i]). */
    public Expr get(Expr lanes, String path) {
        return get(lanes, 0, path);
    }

    /**
     * Field {@code path} of the header that starts at byte {@code at} of {@code lanes} (negative when it started in
     * an earlier beat: only the field must lie inside {@code lanes}). No logic: slices of the field's bytes.
     */
    public Expr get(Expr lanes, int at, String path) {
        Slot s = slot(path);
        inside(lanes, at, s);
        List<Expr> msbFirst = new ArrayList<>();
        for (int b = s.firstByte(); b <= s.lastByte(); b++) {
            int first = Math.max(s.bit(), 8 * b) - 8 * b; // the field's bits of this byte, 0 = its top bit
            int last = Math.min(s.bit() + s.width() - 1, 8 * b + 7) - 8 * b;
            int lane = 8 * (at + b);
            msbFirst.add(lanes.bits(lane + 7 - first, lane + 7 - last));
        }
        return Hw.cat(msbFirst);
    }

    /** Bytes [at, at + n) of {@code lanes} as one number, the first byte most significant (a 16-bit word of a sum). */
    public static Expr bigEndian(Expr lanes, int at, int n) {
        if (at < 0 || n < 1 || 8 * (at + n) > lanes.width()) {
            throw new HdlException("bytes [" + at + ", " + (at + n) + ") are outside " + lanes + " ("
                    + lanes.width() / 8 + " bytes)", SourceLoc.here());
        }
        List<Expr> msbFirst = new ArrayList<>();
        for (int j = at; j < at + n; j++) {
            msbFirst.add(lanes.bits(8 * j + 7, 8 * j));
        }
        return Hw.cat(msbFirst);
    }

    /** A builder of this header's bytes in lane order ({@link #bytes()} x 8 bits); fields not set are zero. */
    public Lanes lanes() {
        return new Lanes(null, 0, 8 * bytes());
    }

    /** A builder of {@code lanes} with fields of the header that starts at its byte {@code at} replaced. */
    public Lanes patch(Expr lanes, int at) {
        return new Lanes(lanes, at, lanes.width());
    }

    /** Bytes in lane order, built field by field: one concatenation of the fields' bits and the bytes around. */
    @ConstructionHelper
    public final class Lanes {
        private final Expr base;
        private final int at;
        /** What drives each bit of the result: a field's value (null: the base, or zero) and which of its bits. */
        private final Expr[] source;
        private final int[] sourceBit;

        private Lanes(Expr base, int at, int width) {
            this.base = base;
            this.at = at;
            this.source = new Expr[width];
            this.sourceBit = new int[width];
        }

        public Lanes set(String path, Expr v) {
            Slot s = slot(path);
            if (v.width() != s.width()) {
                throw new HdlException("field '" + path + "' of byte layout '" + name + "' is " + s.width()
                        + " bits, the value " + v + " is " + v.width(), SourceLoc.here());
            }
            if (base != null) {
                inside(base, at, s);
            }
            for (int k = 0; k < s.width(); k++) {
                int wireBit = s.bit() + k;
                int laneBit = 8 * (at + wireBit / 8) + 7 - wireBit % 8;
                source[laneBit] = v;
                sourceBit[laneBit] = s.width() - 1 - k;
            }
            return this;
        }

        public Lanes set(String path, long v) {
            return set(path, Hw.lit(slot(path).width(), v));
        }

        public Expr build() {
            List<Expr> msbFirst = new ArrayList<>();
            int bit = source.length - 1;
            while (bit >= 0) {
                int top = bit;
                Expr v = source[top];
                if (v == null) {
                    while (bit >= 0 && source[bit] == null) {
                        bit--;
                    }
                    msbFirst.add(base == null ? Hw.zeros(top - bit) : base.bits(top, bit + 1));
                } else {
                    int hi = sourceBit[top];
                    while (bit >= 0 && source[bit] == v && sourceBit[bit] == hi - (top - bit)) {
                        bit--;
                    }
                    msbFirst.add(v.bits(hi, hi - (top - bit) + 1));
                }
            }
            return Hw.cat(msbFirst);
        }
    }

    private void inside(Expr lanes, int at, Slot s) {
        if (lanes.width() % 8 != 0 || at + s.firstByte() < 0 || 8 * (at + s.lastByte() + 1) > lanes.width()) {
            throw new HdlException("field '" + s.path() + "' of byte layout '" + name + "' (bytes " + s.firstByte()
                    + ".." + s.lastByte() + " of a header at byte " + at + ") is outside " + lanes + " ("
                    + lanes.width() + " bits)", SourceLoc.here());
        }
    }

    // ---- plain Java: byte arrays --------------------------------------------------------------------------------

    /** Field {@code path} (up to 63 bits) of the header that starts at {@code b[at]}. */
    public long get(byte[] b, int at, String path) {
        Slot s = narrow(path);
        long v = 0;
        for (int k = 0; k < s.width(); k++) {
            int wireBit = s.bit() + k;
            v = v << 1 | (b[at + wireBit / 8] >>> (7 - wireBit % 8) & 1);
        }
        return v;
    }

    /** Writes field {@code path} (up to 63 bits) of the header that starts at {@code b[at]}; other bits stay. */
    public void set(byte[] b, int at, String path, long v) {
        Slot s = narrow(path);
        if (v < 0 || v >>> s.width() != 0) {
            throw new IllegalArgumentException("field '" + path + "' of byte layout '" + name + "' is " + s.width()
                    + " bits, value " + v + " does not fit");
        }
        for (int k = 0; k < s.width(); k++) {
            int wireBit = s.bit() + k;
            int mask = 1 << (7 - wireBit % 8);
            int i = at + wireBit / 8;
            boolean one = (v >>> (s.width() - 1 - k) & 1) != 0;
            b[i] = (byte) (one ? b[i] | mask : b[i] & ~mask);
        }
    }

    /** The bytes of field {@code path}, a whole-byte field (an address), of the header at {@code b[at]}. */
    public byte[] getBytes(byte[] b, int at, String path) {
        Slot s = wholeBytes(path);
        return Arrays.copyOfRange(b, at + s.firstByte(), at + s.lastByte() + 1);
    }

    /** Writes the bytes of the whole-byte field {@code path} of the header at {@code b[at]}. */
    public void setBytes(byte[] b, int at, String path, byte[] v) {
        Slot s = wholeBytes(path);
        if (v.length != s.width() / 8) {
            throw new IllegalArgumentException("field '" + path + "' of byte layout '" + name + "' is "
                    + s.width() / 8 + " bytes, got " + v.length);
        }
        System.arraycopy(v, 0, b, at + s.firstByte(), v.length);
    }

    private Slot narrow(String path) {
        Slot s = slot(path);
        if (s.width() > 63) {
            throw new IllegalArgumentException("field '" + path + "' of byte layout '" + name + "' is " + s.width()
                    + " bits; use getBytes/setBytes");
        }
        return s;
    }

    private Slot wholeBytes(String path) {
        Slot s = slot(path);
        if (s.bit() % 8 != 0 || s.width() % 8 != 0) {
            throw new IllegalArgumentException("field '" + path + "' of byte layout '" + name
                    + "' is not whole bytes");
        }
        return s;
    }

    /** The fields in wire order with their first byte: {@code udp {src_port@0, dst_port@2, ...}}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(name).append(" {");
        List<Slot> all = fields();
        for (int i = 0; i < all.size(); i++) {
            Slot s = all.get(i);
            sb.append(s.path()).append('@').append(s.firstByte());
            if (s.bit() % 8 != 0 || s.width() % 8 != 0) {
                sb.append('.').append(s.bit() % 8).append('[').append(s.width()).append(']');
            }
            sb.append(i < all.size() - 1 ? ", " : "}");
        }
        return sb.toString();
    }
}
