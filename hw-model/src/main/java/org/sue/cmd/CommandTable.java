package org.sue.cmd;

import java.util.Arrays;
import org.sue.core.ConfigException;
import org.sue.core.Described;
import org.sue.core.Expr;
import org.sue.core.Hw;

/**
 * Which command types an XPU uses (docs/protocol.md section 4): for each 8-bit type, the control length carried to the
 * destination in 2-byte units (0..7: at most 15 control bytes follow type and length in tx_control) and whether data
 * follows. Type 0 is never a command: a zero type byte ends a PDU's command list (minimum-size padding is zeros).
 */
public final class CommandTable implements Described {
    public static final int MAX_CONTROL_UNITS = 7;
    public static final int MAX_DATA_BYTES = 256;

    private final int[] controlUnits = new int[256]; // -1: type not defined
    private final boolean[] hasData = new boolean[256];

    /** Refuses a missing table or one without a command type, naming the record and its parameter. */
    public static void checkDefined(String record, String name, CommandTable table) {
        if (table == null || table.definedTypes().length == 0) {
            throw new ConfigException(record, "{" + name + "} must define at least one command type");
        }
    }

    public CommandTable() {
        Arrays.fill(controlUnits, -1);
    }

    /** Defines a type; returns this table for chaining. */
    public CommandTable define(int type, int controlUnits16, boolean withData) {
        if (type < 1 || type > 255) {
            throw new IllegalArgumentException("CommandTable type must be 1..255 (0 ends a command list), got " + type);
        }
        if (controlUnits16 < 0 || controlUnits16 > MAX_CONTROL_UNITS) {
            throw new IllegalArgumentException("CommandTable controlUnits16 of type " + type + " must be 0.."
                    + MAX_CONTROL_UNITS + " (2-byte units), got " + controlUnits16);
        }
        if (this.controlUnits[type] >= 0) {
            throw new IllegalArgumentException("CommandTable type " + type + " is defined twice");
        }
        this.controlUnits[type] = controlUnits16;
        this.hasData[type] = withData;
        return this;
    }

    /** The defined types, ascending. */
    public int[] definedTypes() {
        return java.util.stream.IntStream.range(1, 256).filter(this::defined).toArray();
    }

    /** The control lengths (2-byte units) the defined types use, ascending, each once. */
    public int[] unitsUsed() {
        return java.util.stream.IntStream.of(definedTypes()).map(t -> controlUnits[t]).distinct().sorted().toArray();
    }

    public boolean defined(int type) {
        return type >= 0 && type < 256 && controlUnits[type] >= 0;
    }

    /** Control bytes carried for a defined type. */
    public int controlBytes(int type) {
        check(type);
        return 2 * controlUnits[type];
    }

    public boolean hasData(int type) {
        check(type);
        return hasData[type];
    }

    /** The table as logic on a type byte: whether the type is defined, its control units, whether data follows. */
    public record Lookup(Expr defined, Expr units, Expr hasData) {
    }

    public Lookup lookup(Expr type) {
        Expr defined = Hw.lit(1, 0);
        Expr units = Hw.lit(3, 0);
        Expr withData = Hw.lit(1, 0);
        for (int t : definedTypes()) {
            Expr hit = type.eq(t);
            defined = defined.or(hit);
            units = Hw.mux(hit, Hw.lit(3, controlUnits[t]), units);
            withData = Hw.mux(hit, Hw.lit(1, hasData[t] ? 1 : 0), withData);
        }
        return new Lookup(defined, units, withData);
    }

    private void check(int type) {
        if (!defined(type)) {
            throw new IllegalArgumentException("command type " + type + " is not in the command table");
        }
    }

    /** Every defined type: {@code type:units[d]} ({@code d} when data follows), ascending; stable, for module hashes. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("CommandTable{");
        for (int t : definedTypes()) {
            sb.append(sb.length() > 13 ? "," : "").append(t).append(':').append(controlUnits[t]).append(hasData[t] ? "d" : "");
        }
        return sb.append('}').toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CommandTable t && java.util.Arrays.equals(t.controlUnits, controlUnits)
                && java.util.Arrays.equals(t.hasData, hasData);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(controlUnits) * 31 + java.util.Arrays.hashCode(hasData);
    }

    /** No tag: the table goes into the module's hash. */
    @Override
    public String moduleTag() {
        return "";
    }

    /** A table for tests and the default configuration: a read request, a write with data, a read response. */
    public static CommandTable example() {
        return new CommandTable().define(1, 4, false).define(2, 4, true).define(3, 2, true).define(4, 7, false);
    }
}
