package org.sue.verilator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.sue.core.Design;
import org.sue.core.ResetStyle;
import org.sue.gen.DefaultDesigns;
import org.sue.gen.HdlLanguage;
import org.sue.gen.VerilogEmitter;

/**
 * Everything scripts/generate writes passes {@code verilator --lint-only -Wall} with no warning and Yosys synthesis
 * with no latch; and both checks do catch a bad module.
 */
class GeneratedRtlQualityTest {
    static final Path OUT = Path.of("target", "quality").toAbsolutePath();

    @TestFactory
    Stream<DynamicTest> everyDefaultDesignIsLintCleanAndLatchFree() {
        return DefaultDesigns.all().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(e.getValue().get()), OUT.resolve(e.getKey()));
            // the whole hierarchy at once, so that instances and their modules are checked together
            assertEquals(List.of(), VerilatorLint.lint(r.files(), r.topModule()), "lint of " + r.files());
            SynthReport s = Yosys.synth(r.files(), r.topModule());
            assertEquals(0, s.latches(), r.topModule() + " infers latches: " + s.cellTypes());
            assertTrue(s.cells() > 0 && s.flipFlops() > 0, r.topModule() + " synthesised to " + s.cells() + " cells");
        }));
    }

    @TestFactory
    Stream<DynamicTest> everyResetStyleIsLintClean() {
        return Stream.of(ResetStyle.values()).map(style -> DynamicTest.dynamicTest(style.name(), () -> {
            VerilogEmitter.Result r = VerilogEmitter.emit(
                    Design.elaborate(DefaultDesigns.all().get("credit_counter").get(), style),
                    OUT.resolve("reset-" + style.name()));
            String text = Files.readString(r.files().get(0));
            assertTrue(text.contains("input  wire          " + style.portName() + ","), "reset port " + style.portName());
            assertEquals(style.async(), text.contains("or " + (style.activeHigh() ? "posedge " : "negedge ")
                    + style.portName()), "async reset in the sensitivity list");
            assertEquals(List.of(), VerilatorLint.lint(r.files(), r.topModule()));
        }));
    }

    @Test
    void vhdlIsEmittedToo() throws Exception {
        VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(DefaultDesigns.all().get("crc32_w64").get()),
                OUT.resolve("vhdl"), HdlLanguage.VHDL);
        Path vhd = r.files().stream().filter(f -> f.getFileName().toString().equals("ParallelCrc_crc32_w64.vhd")).findFirst()
                .orElseThrow(() -> new AssertionError("no ParallelCrc_crc32_w64.vhd among " + r.files()));
        assertTrue(Files.readString(vhd).contains("entity ParallelCrc_crc32_w64 is"), "VHDL entity");
    }

    @Test
    void theChecksCatchALatchAndAnUnusedSignal() throws Exception {
        Path dir = Files.createDirectories(OUT.resolve("bad"));
        Path latch = dir.resolve("has_latch.v");
        Files.writeString(latch, """
                module has_latch(input wire en, input wire [3:0] d, output reg [3:0] q);
                  always @(*) begin
                    if (en) q = d;
                  end
                endmodule
                """);
        assertTrue(Yosys.synth(List.of(latch), "has_latch").latches() > 0, "incomplete always @* is a latch");
        Path unused = dir.resolve("has_unused.v");
        Files.writeString(unused, """
                module has_unused(input wire [3:0] a, output wire [1:0] y);
                  assign y = a[1:0];
                endmodule
                """);
        List<String> warnings = VerilatorLint.lint(List.of(unused), "has_unused");
        assertFalse(warnings.isEmpty());
        assertTrue(warnings.get(0).contains("UNUSED"), warnings.toString());
    }
}
