package org.sue.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Expr;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.ResetStyle;
import org.sue.core.Stmt;

/**
 * Everything {@code scripts/generate} writes (the default designs, emitted as {@link Generate} does) reads like
 * hand-written RTL: 1-bit signals without {@code [0:0]}, no name made from a Java line number (names do not change
 * when Java lines move), file lists relative to themselves, and no {@code _zz_} temporary on a port, register or
 * memory. The checks are shown to catch a bad file too.
 */
class GeneratedFilesTest {
    static Path out;
    static Generate.Emission emission;

    @BeforeAll
    static void emitDefaultDesigns(@TempDir Path dir) throws Exception {
        out = dir.resolve("rtl");
        emission = Generate.emitDefaultDesigns(out, HdlLanguage.VERILOG, ResetStyle.SYNC_HIGH, false);
    }

    static List<Path> verilogFiles() throws Exception {
        List<Path> files = RtlTextChecks.filesEnding(out, ".v");
        assertTrue(files.size() >= emission.designs().size(), "a module file per design at least: " + files);
        return files;
    }

    @Test
    void oneBitSignalsHaveNoRange() throws Exception {
        List<String> findings = new ArrayList<>();
        for (Path f : verilogFiles()) {
            findings.addAll(RtlTextChecks.oneBitRanges(f));
        }
        assertEquals(List.of(), findings, "1-bit signals are plain wire/reg/input wire/output wire");
        String fifo = Files.readString(out.resolve(emission.designs().get("command_fifo").topModule() + ".v"));
        assertTrue(fifo.contains("  input  wire          push_valid,"), "a 1-bit port:\n" + fifo);
        assertTrue(fifo.contains("  reg                 valid;"), "a 1-bit register:\n" + fifo);
    }

    @Test
    void noNameIsMadeFromAJavaLine() throws Exception {
        List<String> findings = new ArrayList<>();
        for (Path f : verilogFiles()) {
            findings.addAll(RtlTextChecks.lineNumberNames(f));
        }
        assertEquals(List.of(), findings, "names from Java source positions");
    }

    @Test
    void fileListsAreRelativeToThemselvesAndComplete() throws Exception {
        List<Path> lists = RtlTextChecks.filesEnding(out, ".f");
        assertEquals(emission.designs().size() + 1, lists.size(), "files.f and one <top>.f per design: " + lists);
        List<String> findings = new ArrayList<>();
        for (Path list : lists) {
            findings.addAll(RtlTextChecks.fileListProblems(list));
        }
        assertEquals(List.of(), findings);
        Set<String> listed = new TreeSet<>(Files.readAllLines(emission.fileList()));
        Set<String> written = new TreeSet<>();
        verilogFiles().forEach(f -> written.add(f.getFileName().toString()));
        assertEquals(written, listed, "files.f names every module file");
        for (VerilogEmitter.Result r : emission.designs().values()) {
            Set<String> own = new TreeSet<>();
            r.files().forEach(f -> own.add(f.getFileName().toString()));
            assertEquals(own, new TreeSet<>(Files.readAllLines(r.fileList())), r.fileList() + " names its design");
        }
    }

    /** Ports, registers (assigned with <=) and memories of every module keep names; _zz_ is for temporaries. */
    @Test
    void noTemporaryNameOnAPortRegisterOrMemory() throws Exception {
        Pattern port = Pattern.compile("(?m)^\\s*(input|output)\\s+wire\\s+(\\[[^]]*\\]\\s+)?(\\w+)");
        Pattern register = Pattern.compile("(?m)^\\s*(\\w+)(\\[[^]]*\\])? <= ");
        Pattern memory = Pattern.compile("(?m)^\\s*reg\\s+\\[[^]]*\\]\\s+(\\w+)\\s+\\[");
        List<String> findings = new ArrayList<>();
        for (Path f : verilogFiles()) {
            String v = Files.readString(f);
            for (Pattern p : List.of(port, register, memory)) {
                Matcher m = p.matcher(v);
                while (m.find()) {
                    String name = m.group(p == port ? 3 : 1);
                    if (name.startsWith("_zz_")) {
                        findings.add(f.getFileName() + ": " + m.group().trim());
                    }
                }
            }
        }
        assertEquals(List.of(), findings);
    }

    @Test
    void theChecksCatchBadFiles(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("Bad.v");
        Files.writeString(bad, """
                module Bad (
                  input  wire [0:0]    valid,
                  output wire          y
                );
                  wire                when_SyncFifojava_l84;
                  wire                _zz_when_SyncFifojava_l97_1;
                  assign when_SyncFifojava_l84 = valid;
                  assign _zz_when_SyncFifojava_l97_1 = valid;
                  assign y = when_SyncFifojava_l84 & _zz_when_SyncFifojava_l97_1;
                endmodule
                """);
        List<String> ranges = RtlTextChecks.oneBitRanges(bad);
        assertEquals(1, ranges.size(), ranges.toString());
        assertTrue(ranges.get(0).startsWith("Bad.v:2: 1-bit range '[0:0]'"), ranges.get(0));
        List<String> lines = RtlTextChecks.lineNumberNames(bad);
        assertEquals(6, lines.size(), lines.toString()); // two declarations, two assignments, two uses; not valid, y
        assertTrue(lines.get(0).contains("'when_SyncFifojava_l84'"), lines.get(0));
        assertEquals(List.of(), RtlTextChecks.lineNumberNames(out.resolve(
                emission.designs().get("command_fifo").topModule() + ".v")), "the good file passes");

        Path list = dir.resolve("Bad.f");
        Files.writeString(list, bad.toAbsolutePath() + "\nMissing.v\nBad.v\n");
        List<String> problems = RtlTextChecks.fileListProblems(list);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("Bad.f:1: absolute path"), problems.get(0));
        assertTrue(problems.get(1).startsWith("Bad.f:2: Missing.v is no file next to the list"), problems.get(1));
        Files.writeString(list, "\n");
        assertEquals(List.of("Bad.f: names no file"), RtlTextChecks.fileListProblems(list));
    }

    // ---- names do not depend on Java line numbers --------------------------------------------------------------------

    /** Conditions of every kind: a signal, an expression read once, one read twice, one in two always blocks. */
    static final class Gate extends Component {
        Gate() {
            Port valid = in("valid", 1);
            Port ready = in("ready", 1);
            Port level = in("level", 4);
            Reg count = reg("count", 4, 0);
            Reg seen = regNoReset("seen", 1);
            Expr fire = valid.and(ready);
            when(fire, () -> count.set(count.add(1))).elseWhen(level.eq(15), () -> count.set(0));
            when(fire, () -> seen.set(1));
            when(valid.and(level.gt(3)), () -> {
                count.set(count.sub(level));
                seen.set(0);
            });
            out("full", 1).set(count.eq(15));
            out("seen_q", 1).set(seen);
        }

        @Override
        protected String moduleBase() {
            return "Gate";
        }
    }

    /** Gate with its lines moved down: the same statements, written lower in this file. */
    static final class MovedGate extends Component {
        MovedGate() {
            Port valid = in("valid", 1);
            Port ready = in("ready", 1);
            Port level = in("level", 4);
            Reg count = reg("count", 4, 0);
            Reg seen = regNoReset("seen", 1);

            // (blank lines and this comment move every statement below to another line than in Gate)

            Expr fire = valid.and(ready);
            when(fire, () -> count.set(count.add(1))).elseWhen(level.eq(15), () -> count.set(0));

            when(fire, () -> seen.set(1));

            when(valid.and(level.gt(3)), () -> {
                count.set(count.sub(level));
                seen.set(0);
            });
            out("full", 1).set(count.eq(15));
            out("seen_q", 1).set(seen);
        }

        @Override
        protected String moduleBase() {
            return "Gate";
        }
    }

    @Test
    void namesDoNotChangeWhenJavaLinesMove(@TempDir Path dir) throws Exception {
        Design gate = Design.elaborate(new Gate());
        Design moved = Design.elaborate(new MovedGate());
        assertNotEquals(firstWhenLine(gate), firstWhenLine(moved), "the two copies sit on different lines");
        String a = Files.readString(VerilogEmitter.emit(gate, dir.resolve("a")).files().get(0));
        String b = Files.readString(VerilogEmitter.emit(moved, dir.resolve("b")).files().get(0));
        assertEquals(a, b, "same statements on other lines, same Verilog");
        assertTrue(a.contains("if(valid_and_ready) begin"), "a condition read twice is named after what it tests:\n" + a);
        assertTrue(a.contains("if((valid && (4'b0011 < level))) begin"), "one read once stays inline:\n" + a);
        assertFalse(a.contains("_zz_"), "no SpinalHDL temporary:\n" + a);
    }

    private static int firstWhenLine(Design d) {
        return d.top().body().stream().filter(s -> s instanceof Stmt.When).findFirst().orElseThrow().loc().line();
    }
}
