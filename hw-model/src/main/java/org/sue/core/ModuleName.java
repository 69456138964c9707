package org.sue.core;

import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Module names and parameter maps derived from a component's configuration record, so that they cannot drift from
 * it: the readable part lists the {@link Tag}ged components in order (nested records flattened); when some part of
 * the configuration is not tagged, or is a {@link Described} value whose tag does not identify it, an 8-digit hash of
 * the whole configuration follows. Two different configurations therefore never share a module name, and equal ones
 * always do.
 */
public final class ModuleName {
    private ModuleName() {
    }

    /**
     * Longest module name: Verilator (5.006) does not find a top module whose name has 128 characters or more, so
     * names stay well below, with room for the prefixes and suffixes tools add.
     */
    public static final int MAX_LENGTH = 100;

    /**
     * {@code base} followed by the configuration's tags and, where they do not identify it, its hash. A name that
     * would be longer than {@link #MAX_LENGTH} keeps the base and the leading tags that fit and always ends with the
     * hash, which then identifies the configuration.
     */
    public static String of(String base, Record config) {
        if (config == null) {
            return base;
        }
        StringBuilder name = new StringBuilder(base);
        boolean complete = appendTags(config, name);
        if (!complete || name.length() > MAX_LENGTH) {
            String h = hash(config);
            int keep = name.length();
            while (keep + 1 + h.length() > MAX_LENGTH && keep > base.length()) {
                keep = name.lastIndexOf("_", keep - 1); // drop the last whole tag
            }
            name.setLength(Math.max(keep, base.length()));
            name.append('_').append(h);
        }
        return name.toString();
    }

    /** Every leaf of the configuration by its path ({@code stream.dataWidth}), for manifests and reports. */
    public static Map<String, Object> parameters(Record config) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (config != null) {
            flatten("", config, m);
        }
        return m;
    }

    /** A complete, stable description of a configuration value: what the hash is taken over. */
    public static String describe(Object v) {
        if (v instanceof Record r) {
            StringBuilder sb = new StringBuilder(r.getClass().getSimpleName()).append('{');
            RecordComponent[] rc = r.getClass().getRecordComponents();
            for (int i = 0; i < rc.length; i++) {
                sb.append(i > 0 ? "," : "").append(rc[i].getName()).append('=').append(describe(value(r, rc[i])));
            }
            return sb.append('}').toString();
        }
        if (v instanceof int[] a) {
            return Arrays.toString(a);
        }
        if (v instanceof long[] a) {
            return Arrays.toString(a);
        }
        if (v instanceof byte[] a) {
            return Arrays.toString(a);
        }
        if (v instanceof Object[] a) {
            return Arrays.deepToString(a);
        }
        if (v == null || v instanceof Number || v instanceof Boolean || v instanceof String || v instanceof Enum<?>) {
            return String.valueOf(v);
        }
        if (v instanceof Described) {
            try {
                if (v.getClass().getMethod("toString").getDeclaringClass() != Object.class) {
                    return v.toString();
                }
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalArgumentException("configuration value of type " + v.getClass().getName()
                + " has no stable description: make it a record, or Described with a complete toString()");
    }

    private static boolean appendTags(Record r, StringBuilder name) {
        boolean complete = true;
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            Object v = value(r, c);
            Tag tag = c.getAnnotation(Tag.class);
            if (v instanceof Described d) {
                String t = d.moduleTag();
                if (!t.isEmpty()) {
                    name.append('_').append(t);
                }
                complete &= d.tagIdentifies();
            } else if (v instanceof Record nested) {
                complete &= appendTags(nested, name);
            } else if (tag == null) {
                complete = false;
            } else if (v instanceof Boolean b) {
                if (b) {
                    name.append('_').append(tag.value());
                }
            } else if (v instanceof Enum<?> e) {
                name.append('_').append(tag.value()).append(e.name().toLowerCase(Locale.ROOT));
            } else if (v instanceof Number n) {
                name.append('_').append(tag.value()).append(n);
            } else {
                complete = false;
            }
        }
        return complete;
    }

    private static void flatten(String prefix, Record r, Map<String, Object> m) {
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            Object v = value(r, c);
            String key = prefix + c.getName();
            if (v instanceof Record nested) {
                flatten(key + ".", nested, m);
            } else if (v instanceof Number || v instanceof Boolean || v instanceof String) {
                m.put(key, v);
            } else {
                m.put(key, describe(v));
            }
        }
    }

    private static String hash(Record config) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(describe(config).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object value(Record r, RecordComponent c) {
        try {
            c.getAccessor().setAccessible(true);
            return c.getAccessor().invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + r.getClass().getSimpleName() + "." + c.getName(), e);
        }
    }
}
