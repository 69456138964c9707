package org.sue.core;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** Name rules shared by Verilog, SystemVerilog and VHDL output (VHDL is case-insensitive, so keywords are too). */
public final class Names {
    private Names() {
    }

    private static final Pattern IDENT = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

    /** Verilog-2005, SystemVerilog-2017 and VHDL-2008 keywords, plus names the generated code uses itself. */
    private static final Set<String> RESERVED = new java.util.HashSet<>(java.util.Arrays.asList(
            // Verilog / SystemVerilog
            "always", "always_comb", "always_ff", "always_latch", "and", "assert", "assign", "assume", "automatic",
            "begin", "bind", "bit", "break", "buf", "bufif0", "bufif1", "byte", "case", "casex", "casez", "cell",
            "chandle", "class", "clocking", "cmos", "config", "const", "constraint", "context", "continue", "cover",
            "deassign", "default", "defparam", "design", "disable", "do", "edge", "else", "end", "endcase",
            "endclass", "endconfig", "endfunction", "endgenerate", "endinterface", "endmodule", "endpackage",
            "endprimitive", "endprogram", "endspecify", "endtable", "endtask", "enum", "event", "export", "extends",
            "extern", "final", "for", "force", "foreach", "forever", "fork", "function", "generate", "genvar",
            "highz0", "highz1", "if", "iff", "ifnone", "import", "incdir", "include", "initial", "inout", "input",
            "inside", "instance", "int", "integer", "interface", "join", "large", "liblist", "library", "localparam",
            "logic", "longint", "macromodule", "medium", "modport", "module", "nand", "negedge", "new", "nmos",
            "nor", "not", "notif0", "notif1", "null", "or", "output", "package", "packed", "parameter", "pmos",
            "posedge", "primitive", "priority", "program", "property", "protected", "pull0", "pull1", "pulldown",
            "pullup", "rand", "randc", "rcmos", "real", "realtime", "ref", "reg", "release", "repeat", "return",
            "rnmos", "rpmos", "rtran", "rtranif0", "rtranif1", "scalared", "shortint", "signed", "small", "specify",
            "specparam", "static", "string", "strong0", "strong1", "struct", "super", "supply0", "supply1", "table",
            "task", "this", "time", "tran", "tranif0", "tranif1", "tri", "tri0", "tri1", "triand", "trior",
            "trireg", "type", "typedef", "union", "unique", "unsigned", "use", "uwire", "var", "vectored", "virtual",
            "void", "wait", "wand", "weak0", "weak1", "while", "wire", "with", "wor", "xnor", "xor",
            // VHDL
            "abs", "access", "after", "alias", "all", "architecture", "array", "attribute", "block", "body",
            "buffer", "bus", "component", "configuration", "constant", "disconnect", "downto", "elsif", "entity",
            "exit", "file", "group", "guarded", "impure", "in", "inertial", "is", "label", "linkage", "literal",
            "loop", "map", "mod", "next", "of", "on", "open", "others", "out", "port", "postponed", "procedure",
            "process", "pure", "range", "record", "register", "reject", "rem", "report", "rol", "ror", "select",
            "severity", "shared", "signal", "sla", "sll", "sra", "srl", "subtype", "then", "to", "transport",
            "units", "until", "variable", "when", "fairness", "force", "parameter", "protected", "sequence",
            "strong", "vmode", "vprop", "vunit",
            // the implicit clock and reset of every component
            "clk", "rst", "rst_n"));

    /** Throws unless {@code name} can be used as-is in every output language. */
    public static void check(String name, String where, SourceLoc loc) {
        if (name == null || !IDENT.matcher(name).matches()) {
            throw new HdlException("name '" + name + "' " + where
                    + " is not an identifier (letter first, then letters, digits, '_')", loc);
        }
        if (name.contains("__") || name.endsWith("_")) {
            throw new HdlException("name '" + name + "' " + where + " has '__' or a trailing '_' (illegal in VHDL)", loc);
        }
        if (name.toLowerCase(Locale.ROOT).startsWith("zz_")) {
            throw new HdlException("name '" + name + "' " + where + " uses the prefix reserved for generated temporaries",
                    loc);
        }
        if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
            throw new HdlException("name '" + name + "' " + where + " is reserved in Verilog/VHDL or for the clock/reset",
                    loc);
        }
    }
}
