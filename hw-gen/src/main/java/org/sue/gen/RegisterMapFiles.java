package org.sue.gen;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.sue.instance.SueManagedInstance;
import org.sue.mgmt.RegisterMap;
import org.sue.mgmt.RegisterMap.Block;
import org.sue.mgmt.RegisterMap.Field;
import org.sue.mgmt.RegisterMap.Register;

/**
 * The files software and register tools take from a {@link RegisterMap}: the documentation ({@code registers.md}), a
 * C header ({@code <map>_regs.h}), SystemRDL ({@code <map>_regs.rdl}), a JSON description ({@code <map>_regs.json})
 * and Java constants for testbenches. All are written from the one description the register block's RTL is made of.
 */
public final class RegisterMapFiles {
    private RegisterMapFiles() {
    }

    /** The Java constants' class, for the default instance's map. */
    public static final String CONSTANTS_PACKAGE = "org.sue.instance.tb";
    public static final String CONSTANTS_CLASS = "SueRegs";

    /**
     * The default instance's committed files, by their path in the repository: the map's files under docs/ and the
     * testbench constants.
     */
    public static Map<Path, String> committed(RegisterMap map) {
        Map<Path, String> files = new LinkedHashMap<>();
        files(map).forEach((name, text) -> files.put(Path.of("docs", name), text));
        files.put(Path.of("hw-model", "src", "main", "java", CONSTANTS_PACKAGE.replace('.', '/'), CONSTANTS_CLASS
                + ".java"), javaConstants(map, CONSTANTS_PACKAGE, CONSTANTS_CLASS));
        return files;
    }

    /** The default instance's register map. */
    public static RegisterMap defaultMap() {
        return new SueManagedInstance(SueManagedInstance.Config.defaults()).registerMap();
    }

    /** Rewrites the default instance's committed files under the repository root {@code args[0]} (default "."). */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        for (Map.Entry<Path, String> f : committed(defaultMap()).entrySet()) {
            Path target = root.resolve(f.getKey());
            Files.writeString(target, f.getValue());
            System.out.println("wrote " + target);
        }
    }

    private static Map<String, String> files(RegisterMap map) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("registers.md", markdown(map));
        files.put(map.name() + "_regs.h", cHeader(map));
        files.put(map.name() + "_regs.rdl", systemRdl(map));
        files.put(map.name() + "_regs.json", json(map));
        return files;
    }

    /** Every file into {@code dir}: registers.md, and the header, SystemRDL and JSON named after the map. */
    public static Map<String, Path> write(RegisterMap map, Path dir) {
        Map<String, String> files = files(map);
        Map<String, Path> written = new LinkedHashMap<>();
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, String> f : files.entrySet()) {
                written.put(f.getKey(), Files.writeString(dir.resolve(f.getKey()), f.getValue()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return written;
    }

    // ---- documentation ---------------------------------------------------------------------------------------------

    public static String markdown(RegisterMap map) {
        StringBuilder s = new StringBuilder();
        s.append("# Registers of `").append(map.name()).append("`\n\n");
        s.append("Generated from the register map's description (`org.sue.mgmt.RegisterMap`); do not edit. The rules of\n"
                + "the bus, the access types and the atomicity of values wider than 32 bits are in docs/management.md.\n"
                + "Offsets are bytes from the management port's base; the map spans ").append(hex(map.span()))
                .append(" bytes, a block every ").append(hex(map.blockStride())).append(".\n\n");
        s.append("| block | base | registers | what it holds |\n|---|---|---|---|\n");
        for (Block b : map.blocks()) {
            s.append("| [`").append(b.name()).append("`](#").append(b.name()).append(") | ")
                    .append(hex(b.base())).append(" | ").append(b.registers().size()).append(" | ")
                    .append(b.description()).append(" |\n");
        }
        for (Block b : map.blocks()) {
            s.append("\n## ").append(b.name()).append("\n\n").append(b.description()).append(". Base ")
                    .append(hex(b.base())).append(".\n\n");
            s.append("| offset | register | access | reset | fields | description |\n|---|---|---|---|---|---|\n");
            for (Register r : b.registers()) {
                s.append("| ").append(hex(r.offset()));
                if (r.words() > 1) {
                    s.append("..").append(hex(r.offset() + 4 * r.words() - 1));
                }
                s.append(" | `").append(r.name()).append("` | ").append(access(r)).append(" | ")
                        .append(hex(resetOf(r))).append(" | ").append(fieldList(r)).append(" | ")
                        .append(r.description()).append(" |\n");
            }
        }
        return s.toString();
    }

    private static String access(Register r) {
        return r.fields().stream().map(f -> f.access().name()).distinct().reduce((a, b) -> a + "/" + b).orElse("");
    }

    private static String fieldList(Register r) {
        if (single(r)) {
            Field f = r.fields().get(0);
            return "[" + (f.width() - 1) + ":0]";
        }
        StringBuilder s = new StringBuilder();
        for (Field f : r.fields()) {
            s.append(s.length() == 0 ? "" : "<br>").append('`').append(f.name()).append("` [")
                    .append(f.lsb() + f.width() - 1).append(':').append(f.lsb()).append("] ").append(f.access())
                    .append(": ").append(f.description());
        }
        return s.toString();
    }

    // ---- C header ----------------------------------------------------------------------------------------------------

    public static String cHeader(RegisterMap map) {
        String p = map.name().toUpperCase(Locale.ROOT);
        String guard = p + "_REGS_H";
        StringBuilder s = new StringBuilder();
        s.append("/* Registers of '").append(map.name()).append("': generated from the register map's description; do"
                + " not edit.\n * <BLOCK>_<REGISTER> is a byte offset from the management port's base; <...>_WORDS the"
                + " 32-bit words\n * of a register wider than 32 bits (lowest word first); <...>_<FIELD>_SHIFT and"
                + " _MASK place a field in its\n * word; _RESET is the value after reset. */\n");
        s.append("#ifndef ").append(guard).append("\n#define ").append(guard).append("\n\n");
        define(s, p + "_MAP_SPAN", map.span());
        for (Block b : map.blocks()) {
            s.append("\n/* ").append(b.name()).append(": ").append(b.description()).append(" */\n");
            define(s, p + "_" + upper(b.name()) + "_BASE", b.base());
            for (Register r : b.registers()) {
                String reg = p + "_" + upper(b.name()) + "_" + upper(r.name());
                define(s, reg, r.offset());
                if (r.words() > 1) {
                    define(s, reg + "_WORDS", r.words());
                    continue;
                }
                for (Field f : r.fields()) {
                    String field = single(r) ? reg : reg + "_" + upper(f.name());
                    define(s, field + "_SHIFT", f.lsb());
                    define(s, field + "_MASK", f.mask());
                }
                define(s, reg + "_RESET", resetOf(r));
            }
        }
        s.append("\n#endif /* ").append(guard).append(" */\n");
        return s.toString();
    }

    private static void define(StringBuilder s, String name, long value) {
        s.append("#define ").append(name).append(' ').append(hex(value)).append("u\n");
    }

    // ---- SystemRDL ---------------------------------------------------------------------------------------------------

    public static String systemRdl(RegisterMap map) {
        StringBuilder s = new StringBuilder();
        s.append("// Registers of '").append(map.name()).append("': generated from the register map's description; do"
                + " not edit.\naddrmap ").append(map.name()).append(" {\n    default regwidth = 32;\n"
                + "    default accesswidth = 32;\n");
        for (Block b : map.blocks()) {
            s.append("    regfile {\n        desc = ").append(quote(b.description())).append(";\n");
            for (Register r : b.registers()) {
                s.append("        reg {\n            desc = ").append(quote(r.description())).append(";\n");
                if (r.words() > 1) {
                    s.append("            regwidth = ").append(32 * Integer.highestOneBit(2 * r.words() - 1))
                            .append(";\n");
                }
                for (Field f : r.fields()) {
                    s.append("            field { desc = ").append(quote(f.description())).append("; ")
                            .append(f.access().rdlProperties()).append(" } ").append(f.name()).append('[')
                            .append(f.lsb() + f.width() - 1).append(':').append(f.lsb()).append("] = ")
                            .append(hex(f.reset())).append(";\n");
                }
                s.append("        } ").append(r.name()).append(" @ ").append(hex(r.offset() - b.base()))
                        .append(";\n");
            }
            s.append("    } ").append(b.name()).append(" @ ").append(hex(b.base())).append(";\n");
        }
        s.append("};\n");
        return s.toString();
    }

    private static String quote(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    // ---- JSON ----------------------------------------------------------------------------------------------------

    public static String json(RegisterMap map) {
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = m.createObjectNode();
        root.put("name", map.name());
        root.put("span", map.span());
        root.put("blockStride", map.blockStride());
        ArrayNode blocks = root.putArray("blocks");
        for (Block b : map.blocks()) {
            ObjectNode bn = blocks.addObject();
            bn.put("name", b.name());
            bn.put("base", b.base());
            bn.put("description", b.description());
            ArrayNode regs = bn.putArray("registers");
            for (Register r : b.registers()) {
                ObjectNode rn = regs.addObject();
                rn.put("name", r.name());
                rn.put("offset", r.offset());
                rn.put("words", r.words());
                rn.put("description", r.description());
                ArrayNode fields = rn.putArray("fields");
                for (Field f : r.fields()) {
                    ObjectNode fn = fields.addObject();
                    fn.put("name", f.name());
                    fn.put("lsb", f.lsb());
                    fn.put("width", f.width());
                    fn.put("access", f.access().name());
                    fn.put("reset", f.reset());
                    fn.put("description", f.description());
                }
            }
        }
        try {
            return m.writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- Java constants ----------------------------------------------------------------------------------------------

    /** A Java class of the map's offsets, for testbenches that address registers by name. */
    public static String javaConstants(RegisterMap map, String pkg, String className) {
        StringBuilder s = new StringBuilder();
        s.append("package ").append(pkg).append(";\n\n/** Byte offsets of the registers of '").append(map.name())
                .append("' (generated from its description by RegisterMapFiles; do not edit). */\npublic final class ")
                .append(className).append(" {\n    private ").append(className).append("() {\n    }\n");
        for (Block b : map.blocks()) {
            s.append("\n    // ").append(b.name()).append('\n');
            for (Register r : b.registers()) {
                s.append("    public static final int ").append(upper(b.name())).append('_').append(upper(r.name()))
                        .append(" = ").append(hex(r.offset())).append(";\n");
            }
        }
        s.append("}\n");
        return s.toString();
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    /** A register of one field named as itself. */
    private static boolean single(Register r) {
        return r.fields().size() == 1 && r.fields().get(0).name().equals(r.name()) && r.fields().get(0).lsb() == 0;
    }

    private static long resetOf(Register r) {
        long v = 0;
        for (Field f : r.fields()) {
            v |= f.width() >= 64 ? f.reset() : f.reset() << f.lsb();
        }
        return v;
    }

    private static String upper(String name) {
        return name.toUpperCase(Locale.ROOT);
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }
}
