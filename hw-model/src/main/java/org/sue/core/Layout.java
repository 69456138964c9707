package org.sue.core;

import java.lang.reflect.RecordComponent;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A named bit-field layout: fields in order, the first one least significant, each starting where the previous one
 * ended; a field is plain bits or a nested layout. One description serves the hardware (read a field of an
 * {@link Expr}, build an {@link Expr} from field values) and plain Java (pack and unpack a {@code long},
 * {@link BigInteger} or record) for reference models and testbenches, so no block writes offsets by hand.
 *
 * <pre>{@code
 * static final Layout CELL_REF = Layout.of("cell_ref", Layout.bits("offset", 7), Layout.bits("cell", 12));
 * Expr cell = CELL_REF.field("cell").of(ref);                         // ref[18:7]
 * Expr ref = CELL_REF.expr().set("offset", off).set("cell", c).build(); // {c, off}
 * long raw = CELL_REF.word().set("cell", 5).set("offset", 3).toLong();
 * }</pre>
 */
public final class Layout {
    /** One field: name, width, bit offset in its layout, and its nested layout (null for plain bits). */
    public static final class Field {
        private final Layout owner;
        private final String name;
        private final int width;
        private final int offset;
        private final Layout nested;

        private Field(Layout owner, String name, int width, int offset, Layout nested) {
            this.owner = owner;
            this.name = name;
            this.width = width;
            this.offset = offset;
            this.nested = nested;
        }

        public String name() { return name; }
        public int width() { return width; }
        public int offset() { return offset; }
        /** Bit index of the field's most significant bit in its layout. */
        public int hi() { return offset + width - 1; }
        /** The nested layout, or null for plain bits. */
        public Layout nested() { return nested; }
        public Layout layout() { return owner; }

        /** This field of a value of the field's layout (a slice: no logic). */
        public Expr of(Expr packed) {
            owner.check(packed);
            return packed.bits(hi(), offset);
        }

        /** This field of a packed value, as a plain number (fields up to 63 bits). */
        public long get(long packed) {
            checkNarrow();
            return packed >>> offset & mask(width);
        }

        public long get(BigInteger packed) {
            checkNarrow();
            return packed.shiftRight(offset).longValue() & mask(width);
        }

        public BigInteger getBig(BigInteger packed) {
            return packed.shiftRight(offset).and(BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE));
        }

        private void checkNarrow() {
            if (width > 63) {
                throw new IllegalArgumentException("field " + this + " is " + width + " bits; use getBig");
            }
        }

        @Override
        public String toString() {
            return owner.name + "." + name;
        }
    }

    /** A field to be placed: see {@link #bits} and {@link #nested}. */
    public record Spec(String name, int width, Layout nested) {
        public Spec {
            if (name == null || !name.matches("[a-z][a-z0-9_]*")) {
                throw new IllegalArgumentException("layout field name must be lower_snake_case, got '" + name + "'");
            }
            if (width < 1) {
                throw new IllegalArgumentException("layout field '" + name + "' must be at least 1 bit, got " + width);
            }
        }
    }

    private final String name;
    private final List<Field> fields;
    private final Map<String, Field> byName = new LinkedHashMap<>();
    private final int width;

    private Layout(String name, List<Spec> specs) {
        if (specs.isEmpty()) {
            throw new IllegalArgumentException("layout '" + name + "' has no fields");
        }
        this.name = name;
        List<Field> list = new ArrayList<>();
        int at = 0;
        for (Spec s : specs) {
            Field f = new Field(this, s.name(), s.width(), at, s.nested());
            if (byName.put(s.name(), f) != null) {
                throw new IllegalArgumentException("layout '" + name + "' has two fields named '" + s.name() + "'");
            }
            list.add(f);
            at += s.width();
        }
        this.fields = Collections.unmodifiableList(list);
        this.width = at;
    }

    /** A layout of the given fields, the first one least significant. */
    public static Layout of(String name, Spec... fields) {
        return new Layout(name, List.of(fields));
    }

    public static Layout of(String name, List<Spec> fields) {
        return new Layout(name, fields);
    }

    /** A layout of one plain field: the payload of a stream that carries bare bits. */
    public static Layout plain(String fieldName, int width) {
        return of(fieldName, bits(fieldName, width));
    }

    /** A field of plain bits. */
    public static Spec bits(String name, int width) {
        return new Spec(name, width, null);
    }

    /** A field holding a value of another layout. */
    public static Spec nested(String name, Layout layout) {
        return new Spec(name, layout.width(), layout);
    }

    public String name() { return name; }
    public int width() { return width; }
    public List<Field> fields() { return fields; }

    /** The field of that name; a dotted path ({@code head.cell}) names a field of a nested layout. */
    public Field field(String path) {
        int dot = path.indexOf('.');
        Field f = byName.get(dot < 0 ? path : path.substring(0, dot));
        if (f == null) {
            throw new IllegalArgumentException("layout '" + name + "' has no field '" + path + "' (fields: "
                    + byName.keySet() + ")");
        }
        if (dot < 0) {
            return f;
        }
        if (f.nested == null) {
            throw new IllegalArgumentException("field " + f + " is plain bits, not a layout: no '" + path + "'");
        }
        return f.nested.field(path.substring(dot + 1));
    }

    /** Field {@code path} (dotted for nested fields) of a value of this layout. */
    public Expr get(Expr packed, String path) {
        check(packed);
        int dot = path.indexOf('.');
        if (dot < 0) {
            return field(path).of(packed);
        }
        Field outer = field(path.substring(0, dot));
        return outer.nested.get(outer.of(packed), path.substring(dot + 1));
    }

    /** {@code packed} with field {@code path} replaced by {@code value}. */
    public Expr with(Expr packed, String path, Expr value) {
        check(packed);
        int dot = path.indexOf('.');
        Field f = field(dot < 0 ? path : path.substring(0, dot));
        Expr v = dot < 0 ? value : f.nested.with(f.of(packed), path.substring(dot + 1), value);
        ExprBuilder b = expr();
        for (Field g : fields) {
            b.set(g, g == f ? v : g.of(packed));
        }
        return b.build();
    }

    // ---- hardware: build a value from field expressions -------------------------------------------------------

    /** A builder of a value of this layout in hardware; fields not set are zero (as reserved bits are sent). */
    public ExprBuilder expr() {
        return new ExprBuilder();
    }

    /** Builds a value of the layout from field expressions; each field's width is checked. */
    @ConstructionHelper
    public final class ExprBuilder {
        private final Map<Field, Expr> values = new IdentityHashMap<>();

        private ExprBuilder() {
        }

        public ExprBuilder set(String path, Expr value) {
            return set(field(path), value);
        }

        public ExprBuilder set(String path, long value) {
            Field f = field(path);
            return set(f, Hw.lit(f.width(), value));
        }

        public ExprBuilder set(Field f, Expr value) {
            if (f.owner != Layout.this) {
                throw new HdlException("field " + f + " is not a field of layout '" + name + "'", SourceLoc.here());
            }
            if (value.width() != f.width()) {
                throw new HdlException("layout field " + f + " is " + f.width() + " bits, the value " + value
                        + " is " + value.width(), SourceLoc.here());
            }
            values.put(f, value);
            return this;
        }

        /** The concatenation of the fields, most significant first. */
        public Expr build() {
            List<Expr> msbFirst = new ArrayList<>();
            for (int i = fields.size() - 1; i >= 0; i--) {
                Field f = fields.get(i);
                Expr v = values.get(f);
                msbFirst.add(v != null ? v : Hw.zeros(f.width()));
            }
            return Hw.cat(msbFirst);
        }
    }

    // ---- plain Java: pack and unpack ---------------------------------------------------------------------------

    /** A builder of a packed value in plain Java; fields not set are zero. */
    public Word word() {
        return new Word();
    }

    /** A packed value of this layout in plain Java, built field by field. */
    public final class Word {
        private BigInteger value = BigInteger.ZERO;

        private Word() {
        }

        public Word set(String path, long v) {
            return set(path, BigInteger.valueOf(v));
        }

        public Word set(String path, BigInteger v) {
            // a dotted path: offsets add up through the nesting
            Layout l = Layout.this;
            int base = 0;
            Field f = null;
            for (String part : path.split("\\.")) {
                if (f != null) {
                    if (f.nested == null) {
                        throw new IllegalArgumentException("field " + f + " is plain bits: no '" + path + "'");
                    }
                    l = f.nested;
                }
                f = l.field(part);
                base += f.offset;
            }
            if (v.signum() < 0 || v.bitLength() > f.width) {
                throw new IllegalArgumentException("field " + f + " is " + f.width + " bits, value " + v
                        + " does not fit");
            }
            BigInteger m = BigInteger.ONE.shiftLeft(f.width).subtract(BigInteger.ONE).shiftLeft(base);
            value = value.andNot(m).or(v.shiftLeft(base));
            return this;
        }

        public BigInteger toBigInteger() {
            return value;
        }

        public long toLong() {
            if (width > 64) {
                throw new IllegalArgumentException("layout '" + name + "' is " + width + " bits; use toBigInteger");
            }
            return value.longValue();
        }
    }

    /**
     * Packs a record whose components are named like the fields (camelCase for snake_case: {@code dstXpu} is
     * {@code dst_xpu}); a boolean is one bit, a record component of a nested layout is packed by that layout.
     * Components that are not fields are ignored; every field must have a component.
     */
    public BigInteger pack(Record r) {
        Word w = word();
        Map<String, Object> values = components(r);
        for (Field f : fields) {
            Object v = values.get(f.name);
            if (v == null) {
                throw new IllegalArgumentException(r.getClass().getSimpleName() + " has no component for field " + f);
            }
            BigInteger bits;
            if (f.nested != null) {
                bits = f.nested.pack((Record) v);
            } else if (v instanceof Boolean b) {
                bits = b ? BigInteger.ONE : BigInteger.ZERO;
            } else {
                bits = BigInteger.valueOf(((Number) v).longValue());
            }
            w.set(f.name, bits);
        }
        return w.toBigInteger();
    }

    /** Unpacks into a record of the given type (components named like the fields, see {@link #pack(Record)}). */
    public <R extends Record> R unpack(BigInteger packed, Class<R> type) {
        RecordComponent[] rc = type.getRecordComponents();
        Object[] args = new Object[rc.length];
        Class<?>[] types = new Class<?>[rc.length];
        for (int i = 0; i < rc.length; i++) {
            types[i] = rc[i].getType();
            Field f = field(snake(rc[i].getName()));
            BigInteger bits = f.getBig(packed);
            if (f.nested != null) {
                @SuppressWarnings("unchecked")
                Class<? extends Record> nestedType = (Class<? extends Record>) types[i];
                args[i] = f.nested.unpack(bits, nestedType);
            } else if (types[i] == boolean.class) {
                args[i] = bits.signum() != 0;
            } else if (types[i] == int.class) {
                args[i] = bits.intValue();
            } else if (types[i] == long.class) {
                args[i] = bits.longValue();
            } else {
                throw new IllegalArgumentException(type.getSimpleName() + "." + rc[i].getName() + " is "
                        + types[i].getSimpleName() + "; a layout unpacks boolean, int, long and records");
            }
        }
        try {
            return type.getDeclaredConstructor(types).newInstance(args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build " + type.getSimpleName() + " from layout '" + name + "'", e);
        }
    }

    public <R extends Record> R unpack(long packed, Class<R> type) {
        return unpack(BigInteger.valueOf(packed).and(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)), type);
    }

    private static Map<String, Object> components(Record r) {
        Map<String, Object> m = new LinkedHashMap<>();
        try {
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                m.put(snake(c.getName()), c.getAccessor().invoke(r));
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read record " + r.getClass().getSimpleName(), e);
        }
        return m;
    }

    /** {@code dstXpu} -> {@code dst_xpu}. */
    static String snake(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    private void check(Expr packed) {
        if (packed.width() != width) {
            throw new HdlException(packed + " is " + packed.width() + " bits, layout '" + name + "' is " + width,
                    SourceLoc.here());
        }
    }

    private static long mask(int w) {
        return w >= 64 ? -1L : (1L << w) - 1;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(name).append(" {");
        for (int i = fields.size() - 1; i >= 0; i--) {
            Field f = fields.get(i);
            sb.append(f.name).append('[').append(f.hi()).append(':').append(f.offset).append(']');
            sb.append(i > 0 ? ", " : "}");
        }
        return sb.toString();
    }
}
