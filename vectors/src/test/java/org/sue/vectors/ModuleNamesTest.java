package org.sue.vectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sue.cmd.CommandTable;
import org.sue.core.Component;
import org.sue.core.ModuleName;

/**
 * Module names identify configurations: for every block the golden scenarios build (and every child inside them),
 * each one-field change of its configuration that is still valid gives another module name, and an equal
 * configuration built anew gives the same name. Nested records and tables count as fields too.
 */
class ModuleNamesTest {
    /** Every component of every scenario, by module name: one configuration each. */
    @Test
    void noModuleNameIsSharedByTwoConfigurations() {
        Map<String, String> configOfName = new HashMap<>();
        for (GoldenScenario s : GoldenScenarios.all()) {
            for (Component c : tree(s.build().get())) {
                String described = c.getClass().getName() + ":" + ModuleName.describe(c.configuration());
                String before = configOfName.putIfAbsent(c.moduleName(), described);
                assertTrue(before == null || before.equals(described), c.moduleName() + " names both " + before
                        + " and " + described);
            }
        }
        assertTrue(configOfName.size() > 40, configOfName.size() + " distinct modules");
    }

    @Test
    void everyValidOneFieldChangeRenamesAndAnEqualCopyDoesNot() {
        int checked = 0;
        Map<String, Component> seen = new LinkedHashMap<>();
        for (GoldenScenario s : GoldenScenarios.all()) {
            for (Component c : tree(s.build().get())) {
                seen.putIfAbsent(c.moduleName(), c);
            }
        }
        for (Component c : seen.values()) {
            Record config = c.configuration();
            if (config == null) {
                continue;
            }
            String base = c.moduleName().substring(0, c.moduleName().indexOf('_'));
            assertEquals(c.moduleName(), ModuleName.of(base, copy(config)), "an equal configuration built anew");
            for (Record variant : oneFieldChanges(config)) {
                assertNotEquals(c.moduleName(), ModuleName.of(base, variant), "changed " + ModuleName.describe(config)
                        + " to " + ModuleName.describe(variant));
                checked++;
            }
        }
        assertTrue(checked > 100, checked + " variants checked");
    }

    /**
     * Verilator does not find a top module whose name has 128 characters or more (the whole SueInstance's tags make
     * about 150): every name is capped, and a capped name ends with the hash, so it still identifies its configuration
     * (the one-field-change test above covers the capped names too).
     */
    @Test
    void namesAreShortEnoughForVerilator() {
        for (GoldenScenario s : GoldenScenarios.all()) {
            for (Component c : tree(s.build().get())) {
                assertTrue(c.moduleName().length() <= ModuleName.MAX_LENGTH, c.moduleName());
            }
        }
        String capped = GoldenScenarios.byName("sue_instance_w512_d16").build().get().moduleName();
        assertTrue(capped.matches("SueInstance_n256_d16_.*_[0-9a-f]{8}"), capped);
    }

    /** The regression that made names derive from configurations: credits were left out of the unpacker's name. */
    @Test
    void unpackersWithOtherCreditsHaveOtherNames() {
        var a = new org.sue.cmd.CommandUnpacker.Config(1024, 512, CommandTable.example(), 6, 3);
        var b = new org.sue.cmd.CommandUnpacker.Config(1024, 512, CommandTable.example(), 64, 32);
        assertNotEquals(ModuleName.of("CommandUnpacker", a), ModuleName.of("CommandUnpacker", b));
    }

    static List<Component> tree(Component top) {
        List<Component> all = new ArrayList<>(List.of(top));
        for (int i = 0; i < all.size(); i++) {
            all.addAll(all.get(i).children());
        }
        return all;
    }

    /** The configuration with one leaf changed, for every leaf where the change gives a valid configuration. */
    static List<Record> oneFieldChanges(Record r) {
        List<Record> out = new ArrayList<>();
        RecordComponent[] rc = r.getClass().getRecordComponents();
        for (int i = 0; i < rc.length; i++) {
            for (Object changed : changes(value(r, rc[i]))) {
                Object[] args = values(r);
                args[i] = changed;
                Record v = build(r.getClass(), args);
                if (v != null && !ModuleName.describe(v).equals(ModuleName.describe(r))) { // a real change
                    out.add(v);
                }
            }
        }
        return out;
    }

    static List<Object> changes(Object v) {
        List<Object> l = new ArrayList<>();
        if (v instanceof Integer n) {
            l.addAll(List.of(n + 1, n * 2, n - 1, n / 2));
        } else if (v instanceof Long n) {
            l.addAll(List.of(n + 1, n ^ 2));
        } else if (v instanceof Boolean b) {
            l.add(!b);
        } else if (v instanceof Enum<?> e) {
            Object[] all = e.getDeclaringClass().getEnumConstants();
            l.add(all[(e.ordinal() + 1) % all.length]);
        } else if (v instanceof int[] a && a.length > 0) {
            int[] c = a.clone();
            c[0] ^= 1;
            l.add(c);
        } else if (v instanceof CommandTable t) {
            CommandTable more = new CommandTable();
            for (int type : t.definedTypes()) {
                more.define(type, t.controlBytes(type) / 2, t.hasData(type));
            }
            l.add(more.define(200, 1, false));
        } else if (v instanceof Record nested) {
            l.addAll(oneFieldChanges(nested));
        }
        return l;
    }

    static Record copy(Record r) {
        Object[] args = values(r);
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof Record nested) {
                args[i] = copy(nested);
            } else if (args[i] instanceof int[] a) {
                args[i] = a.clone();
            } else if (args[i] instanceof CommandTable t) {
                CommandTable c = new CommandTable();
                for (int type : t.definedTypes()) {
                    c.define(type, t.controlBytes(type) / 2, t.hasData(type));
                }
                args[i] = c;
            }
        }
        return build(r.getClass(), args);
    }

    static Object[] values(Record r) {
        RecordComponent[] rc = r.getClass().getRecordComponents();
        Object[] args = new Object[rc.length];
        for (int i = 0; i < rc.length; i++) {
            args[i] = value(r, rc[i]);
        }
        return args;
    }

    static Object value(Record r, RecordComponent c) {
        try {
            return c.getAccessor().invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The record built from these values, or null when its constructor refuses them. */
    static Record build(Class<? extends Record> type, Object[] args) {
        RecordComponent[] rc = type.getRecordComponents();
        Class<?>[] types = new Class<?>[rc.length];
        for (int i = 0; i < rc.length; i++) {
            types[i] = rc[i].getType();
        }
        try {
            Constructor<? extends Record> k = type.getDeclaredConstructor(types);
            k.setAccessible(true);
            return k.newInstance(args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IllegalArgumentException) {
                return null;
            }
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
