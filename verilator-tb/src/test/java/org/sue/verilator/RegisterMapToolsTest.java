package org.sue.verilator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The committed register files of the default instance in the hands of real tools: the C header compiled by gcc in
 * a program that checks every define against the JSON description, and the SystemRDL parsed by the tree-sitter
 * SystemRDL grammar, its register placement compared with the JSON.
 */
class RegisterMapToolsTest {
    static final Path ROOT = Path.of(System.getProperty("sue.repo.root", ".."));
    static final Path DOCS = ROOT.resolve("docs");
    static final Path OUT = Path.of("target", "register-tools").toAbsolutePath();

    private static JsonNode map() throws IOException {
        return new ObjectMapper().readTree(DOCS.resolve("sue_regs.json").toFile());
    }

    @Test
    void theCHeaderCompilesAndEveryDefineIsTheJsons() throws IOException {
        JsonNode map = map();
        String p = map.get("name").asText().toUpperCase(Locale.ROOT);
        StringBuilder c = new StringBuilder("#include <stdio.h>\n#include \"sue_regs.h\"\n"
                + "static int failed, checks;\n"
                + "static void check(const char *name, unsigned long long got, unsigned long long want) {\n"
                + "    checks++;\n"
                + "    if (got != want) { failed++; printf(\"%s is 0x%llx, the JSON says 0x%llx\\n\", name, got, want); }\n"
                + "}\n#define CHECK(m, v) check(#m, (unsigned long long) (m), (v))\nint main(void) {\n");
        check(c, p + "_MAP_SPAN", map.get("span").asLong());
        int registers = 0;
        for (JsonNode b : map.get("blocks")) {
            String blk = p + "_" + b.get("name").asText().toUpperCase(Locale.ROOT);
            check(c, blk + "_BASE", b.get("base").asLong());
            for (JsonNode r : b.get("registers")) {
                registers++;
                String reg = blk + "_" + r.get("name").asText().toUpperCase(Locale.ROOT);
                check(c, reg, r.get("offset").asLong());
                if (r.get("words").asInt() > 1) {
                    check(c, reg + "_WORDS", r.get("words").asLong());
                    continue;
                }
                long reset = 0;
                JsonNode fields = r.get("fields");
                for (JsonNode f : fields) {
                    boolean single = fields.size() == 1 && f.get("name").asText().equals(r.get("name").asText());
                    String field = single ? reg : reg + "_" + f.get("name").asText().toUpperCase(Locale.ROOT);
                    int lsb = f.get("lsb").asInt();
                    long mask = ((1L << f.get("width").asInt()) - 1) << lsb;
                    check(c, field + "_SHIFT", lsb);
                    check(c, field + "_MASK", mask);
                    reset |= f.get("reset").asLong() << lsb;
                }
                check(c, reg + "_RESET", reset);
            }
        }
        c.append("    printf(\"%d checks, %d failed\\n\", checks, failed);\n    return failed != 0;\n}\n");
        Files.createDirectories(OUT);
        Path program = Files.writeString(OUT.resolve("check_regs.c"), c.toString());
        Tool.Output cc = Tool.run(List.of("gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I",
                DOCS.toAbsolutePath().toString(), "-o", OUT.resolve("check_regs").toString(), program.toString()), OUT,
                120);
        assertEquals(0, cc.exitCode(), "gcc compiles the header and the check:\n" + cc.tail(20));
        Tool.Output run = Tool.run(List.of(OUT.resolve("check_regs").toString()), OUT, 60);
        assertEquals(0, run.exitCode(), run.tail(20));
        assertTrue(registers > 150 && run.text().contains(" 0 failed"), run.text());
    }

    private static void check(StringBuilder c, String define, long value) {
        c.append("    CHECK(").append(define).append(", 0x").append(Long.toHexString(value)).append("ULL);\n");
    }

    @Test
    void theSystemRdlParsesAndPlacesEveryRegisterAsTheJson() throws IOException {
        Files.createDirectories(OUT);
        Path checker = ROOT.resolve("tools").resolve("systemrdl").resolve("rdlcheck.c").toAbsolutePath();
        Path rdl = DOCS.resolve("sue_regs.rdl").toAbsolutePath();
        SystemRdl.Check good = SystemRdl.check(checker, OUT, List.of(rdl));
        assertTrue(good.passed(), good.report());
        // the parser is not lenient: a field without its terminating ';' is a syntax error
        String text = Files.readString(rdl);
        Path broken = Files.writeString(OUT.resolve("broken.rdl"), text.replaceFirst("\\] = 0x([0-9a-f]+);",
                "] = 0x$1"));
        SystemRdl.Check bad = SystemRdl.check(checker, OUT, List.of(broken));
        assertFalse(bad.passed(), "a broken file is refused: " + bad.report());
        for (JsonNode b : map().get("blocks")) {
            assertTrue(text.contains("} " + b.get("name").asText() + " @ 0x" + Long.toHexString(b.get("base").asLong())
                    + ";"), "block " + b.get("name").asText() + " at its base");
            for (JsonNode r : b.get("registers")) {
                long offset = r.get("offset").asLong() - b.get("base").asLong();
                assertTrue(text.contains("} " + r.get("name").asText() + " @ 0x" + Long.toHexString(offset) + ";"),
                        "register " + b.get("name").asText() + "." + r.get("name").asText() + " at its offset");
            }
        }
    }
}
