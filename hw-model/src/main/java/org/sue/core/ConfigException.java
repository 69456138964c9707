package org.sue.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A configuration record refuses its parameters. The rule is written once with its parameters marked, {@code
 * "{ackDelay} must be below {rtoCycles} (8192), got 9000"}: a Java caller reads it with the record's parameter names
 * ({@code TransportConfig ackDelay must be below rtoCycles (8192), got 9000}), a reader of another notation renders
 * the same rule with its own names for them ({@link #rule(Function)}: the JSON keys the user wrote). A record that
 * builds another names the inner record's parameters by their path from itself ({@link #within}).
 */
public final class ConfigException extends IllegalArgumentException {
    private static final Pattern FIELD = Pattern.compile("\\{([A-Za-z0-9_.]+)}");

    private final String record;
    private final String rule;

    /**
     * @param record the record that refuses, as its messages name it ({@code TransportConfig}, {@code SueInstance})
     * @param rule   what must hold and what was given; every parameter it concerns in braces, the refused one first
     */
    public ConfigException(String record, String rule) {
        super(record + " " + FIELD.matcher(rule).replaceAll("$1"));
        this.record = record;
        this.rule = rule;
    }

    /** The parameters the rule concerns (paths from the refusing record), the refused one first. */
    public List<String> fields() {
        List<String> list = new ArrayList<>();
        Matcher m = FIELD.matcher(rule);
        while (m.find()) {
            if (!list.contains(m.group(1))) {
                list.add(m.group(1));
            }
        }
        return list;
    }

    /** The rule with each parameter named by {@code names} (a parameter path in, a name out); no record prefix. */
    public String rule(Function<String, String> names) {
        return FIELD.matcher(rule).replaceAll(m -> Matcher.quoteReplacement(names.apply(m.group(1))));
    }

    /**
     * The same rule as {@code outer} sees it, which holds the refusing record as its parameter {@code component}:
     * {@code windowPdus} becomes {@code transport.windowPdus}.
     */
    public ConfigException within(String outer, String component) {
        ConfigException e = new ConfigException(outer, FIELD.matcher(rule).replaceAll("{" + component + ".$1}"));
        e.initCause(this);
        return e;
    }

    /** The record that refused, as its message names it. */
    public String record() {
        return record;
    }
}
