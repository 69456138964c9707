package org.sue.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The values one integer parameter of a configuration record may take, defined once: the record checks its parameter
 * against it ({@link #check}), and the JSON configuration's reader, schema and documentation show the same values.
 * A range {@code min..max}, or only the powers of two in it, optionally with 0 (meaning "none") besides. A rule
 * between parameters (a window below the timeout, a level below a buffer) is the record's own and throws a
 * {@link ConfigException} naming every parameter it concerns.
 *
 * @param why a short reason shown after the range, or null
 */
public record Bound(long min, long max, boolean powerOfTwo, boolean zero, String why) {
    public Bound {
        if (min > max || powerOfTwo && (Long.bitCount(min) != 1 || Long.bitCount(max) != 1)) {
            throw new IllegalArgumentException("Bound min must be at most max (powers of two for a power-of-two"
                    + " bound), got " + min + ".." + max);
        }
    }

    /** {@code min..max}. */
    public static Bound of(long min, long max) {
        return new Bound(min, max, false, false, null);
    }

    /** The powers of two from {@code min} to {@code max}. */
    public static Bound powerOfTwo(long min, long max) {
        return new Bound(min, max, true, false, null);
    }

    /** The same, and 0 besides. */
    public Bound orZero() {
        return new Bound(min, max, powerOfTwo, true, why);
    }

    /** The same, with the reason for it. */
    public Bound because(String reason) {
        return new Bound(min, max, powerOfTwo, zero, reason);
    }

    public boolean contains(long v) {
        return v == 0 && zero || v >= min && v <= max && (!powerOfTwo || Long.bitCount(v) == 1);
    }

    /** The powers of two a power-of-two bound allows (0 first if allowed). */
    public List<Long> values() {
        List<Long> list = new ArrayList<>();
        if (zero) {
            list.add(0L);
        }
        for (long v = min; powerOfTwo && v <= max; v *= 2) {
            list.add(v);
        }
        return list;
    }

    /** The allowed values in words: {@code 4..16384}, {@code 256, 512 or 1024}, {@code 0 or 2..65536}. */
    public String text() {
        String range;
        if (powerOfTwo && Long.numberOfTrailingZeros(max) - Long.numberOfTrailingZeros(min) < 4) {
            List<Long> v = values().subList(zero ? 1 : 0, values().size());
            range = v.size() == 1 ? String.valueOf(v.get(0)) : v.subList(0, v.size() - 1).toString()
                    .replaceAll("[\\[\\]]", "") + " or " + v.get(v.size() - 1);
        } else {
            range = (powerOfTwo ? "a power of two from " + min + " to " + max : min + ".." + max);
        }
        return zero ? "0 or " + range : range;
    }

    /** {@link #text} with the reason, if there is one. */
    public String explained() {
        return text() + (why == null ? "" : " (" + why + ")");
    }

    /** Refuses a value outside, naming the record and its parameter: {@code TransportConfig windowPdus must be ...}. */
    public void check(String record, String name, long value) {
        if (!contains(value)) {
            throw new ConfigException(record, "{" + name + "} must be " + explained() + ", got " + value);
        }
    }
}
