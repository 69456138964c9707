package org.sue.verilator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.sue.core.Design;
import org.sue.core.ResetStyle;
import org.sue.gen.DefaultDesigns;
import org.sue.gen.Generate;
import org.sue.gen.InstanceConfigJson;
import org.sue.gen.HdlLanguage;
import org.sue.gen.VerilogEmitter;
import org.sue.axi.AxiConfig;
import org.sue.instance.SueAxiInstance;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.SmallInstance;
import org.sue.net.HeaderFormat;

/**
 * Everything scripts/generate writes passes {@code verilator --lint-only -Wall} with no warning and Yosys synthesis
 * with no latch, and its VHDL analyses and elaborates in GHDL; and the checks do catch a bad module.
 */
class GeneratedRtlQualityTest {
    static final Path OUT = Path.of("target", "quality").toAbsolutePath();

    /**
     * Lint of the whole hierarchy, then Yosys: synthesised whole to gates, or, for the designs made of blocks that are
     * synthesised whole elsewhere ({@link DefaultDesigns#topModuleSynthesisOnly}), elaborated whole (latches, drivers,
     * loops) and their top module synthesised around its blocks.
     */
    @TestFactory
    Stream<DynamicTest> everyDefaultDesignIsLintCleanAndLatchFree() {
        return InParallel.tests(List.copyOf(DefaultDesigns.all().keySet()), name -> name, name -> {
            VerilogEmitter.Result r = DefaultDesignRtl.verilog(name);
            assertEquals(List.of(), VerilatorLint.lint(r.files(), r.topModule()), "lint of " + r.files());
            boolean whole = !DefaultDesigns.topModuleSynthesisOnly().contains(name);
            // shared with the synthesis tests that look inside
            SynthReport s = whole ? DefaultDesignRtl.synth(name) : DefaultDesignRtl.elaboration(name);
            assertEquals(0, s.latches(), r.topModule() + " infers latches: " + s.cellTypes());
            assertTrue(s.cells() > 0 && s.flipFlops() > 0, r.topModule() + " synthesised to " + s.cells() + " cells");
            if (!whole) {
                SynthReport top = Yosys.synthTopModule(r.files(), r.topModule());
                assertEquals(0, top.latches(), r.topModule() + " around its blocks infers latches: " + top.cellTypes());
            }
        });
    }

    /** What {@link DefaultDesigns#topModuleSynthesisOnly} leaves out of gate-level synthesis is synthesised elsewhere. */
    @Test
    void everyKindOfModuleIsSynthesisedWholeInSomeDesign() {
        Set<String> synthesised = new TreeSet<>();
        DefaultDesigns.all().keySet().stream().filter(n -> !DefaultDesigns.topModuleSynthesisOnly().contains(n))
                .forEach(n -> DefaultDesignRtl.verilog(n).files().forEach(f -> synthesised.add(kind(f))));
        // a top synthesised around its blocks has its own logic synthesised: an instance inside another is covered
        DefaultDesigns.topModuleSynthesisOnly().forEach(n -> synthesised.add(kind(Path.of(
                DefaultDesignRtl.verilog(n).topModule() + ".v"))));
        List<String> missing = new ArrayList<>();
        for (String name : DefaultDesigns.topModuleSynthesisOnly()) {
            VerilogEmitter.Result r = DefaultDesignRtl.verilog(name);
            for (Path f : r.files()) {
                if (!f.getFileName().toString().equals(r.topModule() + ".v") && !synthesised.contains(kind(f))) {
                    missing.add(name + ": " + f.getFileName());
                }
            }
        }
        assertEquals(List.of(), missing, "modules whose kind no design synthesised whole has; kinds there: "
                + synthesised);
    }

    /** A module's kind, the component class it comes from: its name up to the first parameter. */
    private static String kind(Path verilogFile) {
        String module = verilogFile.getFileName().toString().replaceFirst("\\.v$", "");
        int parameters = module.indexOf('_');
        return parameters < 0 ? module : module.substring(0, parameters);
    }

    /** scripts/generate's output for the small configuration: its stable-named top wrapper over the instance. */
    @Test
    void theGeneratedTopOfAStableNameIsLintClean() throws Exception {
        Generate.Emission e = Generate.emitInstance(new InstanceConfigJson.Settings(DefaultDesigns.smallInstance(),
                HdlLanguage.VERILOG, ResetStyle.ASYNC_LOW), OUT.resolve("generated-top"), "my_sue", "small");
        assertTrue(Files.readString(OUT.resolve("generated-top").resolve("my_sue.v")).contains("module my_sue ("));
        assertEquals(List.of(), VerilatorLint.lint(e.files(), "my_sue"));
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

    /**
     * The instance with Link Layer Retry (its blocks are default designs of their own, synthesised there): the glue
     * that joins them to the framing and the control channel is lint-clean too.
     */
    @Test
    void theInstanceWithLinkLayerRetryIsLintClean() {
        VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(new SueInstance(
                SmallInstance.withLlr(HeaderFormat.ETH_IPV4_UDP, 80))), OUT.resolve("sue_instance_llr"));
        assertEquals(List.of(), VerilatorLint.lint(r.files(), r.topModule()), "lint of " + r.files());
    }

    /** The AXI4 instance with two ports: the requests' pinned connections judged for SLVERR, lint-clean too. */
    @Test
    void theAxiInstanceWithTwoPortsIsLintClean() {
        SueInstance.Config sue = SmallInstance.multiPort(HeaderFormat.ETH_IPV4_UDP, 2, 20);
        VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(new SueAxiInstance(SueAxiInstance.Config.of(sue,
                AxiConfig.defaults(sue.path().dataWidth(), sue.path().destinations())))), OUT.resolve("sue_axi_p2"));
        assertEquals(List.of(), VerilatorLint.lint(r.files(), r.topModule()), "lint of " + r.files());
    }

    /** GHDL analyses every file and elaborates the top of each default design (flags: {@link Ghdl#FLAGS}). */
    @TestFactory
    Stream<DynamicTest> everyDefaultDesignIsValidVhdl() {
        return InParallel.tests(List.copyOf(DefaultDesigns.all().entrySet()), e -> e.getKey(), e -> {
            VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(e.getValue().get()),
                    OUT.resolve("vhdl").resolve(e.getKey()), HdlLanguage.VHDL);
            Path top = r.fileList().resolveSibling(r.topModule() + ".vhd");
            assertTrue(Files.readString(top).contains("entity " + r.topModule() + " is"), "VHDL entity in " + top);
            assertEquals(List.of(), Ghdl.check(r.files(), r.topModule()), "GHDL " + Ghdl.FLAGS + " on " + r.files());
        });
    }

    @Test
    void theVhdlCheckCatchesATypeErrorAndAnUnboundInstance() throws Exception {
        Path dir = Files.createDirectories(OUT.resolve("bad-vhdl"));
        Path typeError = dir.resolve("type_error.vhd");
        Files.writeString(typeError, """
                library ieee;
                use ieee.std_logic_1164.all;
                use ieee.numeric_std.all;
                entity type_error is
                  port(a : in std_logic; y : out unsigned(1 downto 0));
                end type_error;
                architecture arch of type_error is
                begin
                  y <= a;
                end arch;
                """);
        List<String> analysis = Ghdl.check(List.of(typeError), "type_error");
        assertFalse(analysis.isEmpty(), "a std_logic driving an unsigned is rejected");
        assertTrue(analysis.get(0).startsWith("ghdl -a: ") && analysis.get(0).contains("type_error.vhd:9"),
                analysis.toString());
        Path unbound = dir.resolve("unbound.vhd");
        Files.writeString(unbound, """
                library ieee;
                use ieee.std_logic_1164.all;
                entity unbound is
                  port(a : in std_logic; y : out std_logic);
                end unbound;
                architecture arch of unbound is
                  component missing is
                    port(a : in std_logic; y : out std_logic);
                  end component;
                begin
                  u : missing port map(a => a, y => y);
                end arch;
                """);
        List<String> elaboration = Ghdl.check(List.of(unbound), "unbound");
        assertFalse(elaboration.isEmpty(), "an instance of an entity that does not exist is rejected");
        assertTrue(elaboration.get(0).startsWith("ghdl -e unbound: ") && elaboration.toString().contains("not bound"),
                elaboration.toString());
    }

    @Test
    void theChecksCatchALatchADoubleDriverAndAnUnusedSignal() throws Exception {
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
        assertEquals(4, Yosys.elaborate(List.of(latch), "has_latch").latches(), "four latch bits after proc");
        Path around = dir.resolve("latch_around_block.v");
        Files.writeString(around, """
                module latch_around_block(input wire en, input wire [3:0] d, output reg [3:0] q);
                  wire [3:0] b;
                  block u(.d(d), .q(b));
                  always @(*) begin
                    if (en) q = b;
                  end
                endmodule
                """);
        Path block = dir.resolve("block.v");
        Files.writeString(block, """
                module block(input wire [3:0] d, output wire [3:0] q);
                  assign q = ~d;
                endmodule
                """);
        SynthReport top = Yosys.synthTopModule(List.of(block, around), "latch_around_block");
        assertTrue(top.latches() > 0, "a latch in the top module around a black box: " + top.cellTypes());
        assertEquals(1, top.cellTypes().getOrDefault("block", 0), "the block stays a black box: " + top.cellTypes());
        Path doubleDriven = dir.resolve("double_driver.v");
        Files.writeString(doubleDriven, """
                module double_driver(input wire a, input wire b, output wire y);
                  assign y = a;
                  assign y = b;
                endmodule
                """);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Yosys.elaborate(List.of(doubleDriven), "double_driver"));
        assertTrue(e.getMessage().contains("double_driver") && e.getMessage().contains("problem"), e.getMessage());
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
