package org.sue.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.ResetStyle;
import org.sue.gen.InstanceConfigJson.ConfigError;
import org.sue.link.CbfcConfig;
import org.sue.link.FrameAction;
import org.sue.link.LlrConfig;
import org.sue.link.PfcConfig;
import org.sue.net.FrameFormat;
import org.sue.gen.InstanceConfigJson.Settings;
import org.sue.instance.SueInstance;

/**
 * The committed configurations under configs/ describe the instances the suite lints and synthesises
 * ({@link DefaultDesigns}), the committed schema is the one the field table gives, and bad files are refused with the
 * JSON path, the value and the allowed range.
 */
class ConfigsTest {
    static final Path CONFIGS = Path.of(System.getProperty("sue.repo.root", ".."), "configs");

    @Test
    void eachCommittedConfigurationIsTheInstanceTheSuiteSynthesises() throws Exception {
        Map<String, SueInstance.Config> expected = Map.of("default.json", SueInstance.Config.defaults(),
                "afh_gen2.json", DefaultDesigns.gen2Instance(), "small_fpga.json", DefaultDesigns.smallInstance());
        for (Map.Entry<String, SueInstance.Config> e : expected.entrySet()) {
            Settings s = InstanceConfigJson.read(CONFIGS.resolve(e.getKey()));
            assertEquals(describe(e.getValue()), describe(s.instance()), e.getKey());
        }
    }

    @Test
    void theCommittedSchemaIsGeneratedFromTheFieldTable() throws IOException {
        assertEquals(InstanceConfigJson.schema(), Files.readString(CONFIGS.resolve("sue_instance.schema.json")),
                "configs/sue_instance.schema.json is stale: regenerate it from InstanceConfigJson.schema()");
    }

    @Test
    void anEmptyObjectIsTheDefaultAndTheEffectiveConfigurationReadsBackTheSame() throws Exception {
        Settings empty = InstanceConfigJson.fromJson(new ObjectMapper().readTree("{}"));
        assertEquals(describe(SueInstance.Config.defaults()), describe(empty.instance()));
        assertEquals(ResetStyle.SYNC_HIGH, empty.reset());
        Settings small = new Settings(DefaultDesigns.smallInstance(), HdlLanguage.VHDL, ResetStyle.ASYNC_LOW);
        Settings back = InstanceConfigJson.fromJson(new ObjectMapper().readTree(InstanceConfigJson.toJson(small)));
        assertEquals(describe(small.instance()), describe(back.instance()));
        assertEquals(HdlLanguage.VHDL, back.language());
        assertEquals(ResetStyle.ASYNC_LOW, back.reset());
        assertEquals(LlrConfig.defaults(1024), empty.instance().llr(), "LLR unless switched off");
        assertEquals(null, InstanceConfigJson.fromJson(new ObjectMapper().readTree(
                "{\"linkLayer\": {\"llr\": false}}")).instance().llr(), "switched off");
    }

    /** LLR switched on in JSON: the instance gets it, with the defaults for its bus unless a field says otherwise. */
    @Test
    void linkLayerRetryIsOneKeyAway() throws Exception {
        Settings on = InstanceConfigJson.fromJson(new ObjectMapper().readTree(
                "{\"linkLayer\": {\"llr\": true, \"replayTimerCycles\": 7000, \"initFrameAction\": \"BLOCK\"}}"));
        LlrConfig expected = LlrConfig.defaults(1024).withLimits(264, 135_000, 7000, 3)
                .withFlush(FrameAction.BLOCK, FrameAction.BEST_EFFORT, false, 1000, 100_000);
        assertEquals(expected, on.instance().llr());
        Settings back = InstanceConfigJson.fromJson(new ObjectMapper().readTree(InstanceConfigJson.toJson(on)));
        assertEquals(expected, back.instance().llr());
    }

    /** PFC switched on in JSON: the defaults for the bus unless a field says otherwise; and back the same. */
    @Test
    void pfcIsOneKeyAway() throws Exception {
        Settings on = InstanceConfigJson.fromJson(new ObjectMapper().readTree(
                "{\"flowControl\": {\"mode\": \"PFC\", \"pfcXoffBytes\": 2048, \"pfcXonBytes\": 1024}}"));
        assertEquals(PfcConfig.defaults(1024).withThresholds(2048, 1024), on.instance().pfc());
        Settings back = InstanceConfigJson.fromJson(new ObjectMapper().readTree(InstanceConfigJson.toJson(on)));
        assertEquals(on.instance().pfc(), back.instance().pfc());
        SueInstance.Config none = InstanceConfigJson.fromJson(new ObjectMapper().readTree(
                "{\"flowControl\": {\"mode\": \"NONE\"}}")).instance();
        assertEquals(null, none.pfc(), "no flow control when switched off");
        assertEquals(null, none.cbfc(), "no flow control when switched off");
    }

    /** CBFC switched on in JSON: the defaults for the bus unless a field says otherwise; and back the same. */
    @Test
    void cbfcIsOneKeyAway() throws Exception {
        Settings on = InstanceConfigJson.fromJson(new ObjectMapper().readTree("{\"receive\": {\"fifoDepth\": 512},"
                + " \"flowControl\": {\"mode\": \"CBFC\", \"cbfcCcTimerCycles\": 5000}}"));
        int largest = FrameFormat.frameBytes(on.instance().net(), on.instance().path().pduLimit());
        largest = (largest + 127) / 128 * 128; // in whole credits
        assertEquals(CbfcConfig.defaults(1024).withLimits(256, 512, largest, 5000), on.instance().cbfc(),
                "port limit: the 512-beat FIFO's credits; the largest frame reserved, in whole credits");
        Settings back = InstanceConfigJson.fromJson(new ObjectMapper().readTree(InstanceConfigJson.toJson(on)));
        assertEquals(on.instance().cbfc(), back.instance().cbfc());
        assertEquals(null, on.instance().pfc());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"transport\": {\"windowPdus\": 1}}|transport.windowPdus: 1 is outside 4..16384",
        "{\"transport\": {\"windowPdus\": \"many\"}}|transport.windowPdus: \"many\" is not an integer",
        "{\"transport\": {\"window\": 64}}|transport.window: unknown key",
        "{\"transprt\": {}}|transprt: unknown key",
        "{\"network\": {\"format\": \"ETH_IPV5\"}}|network.format: \"ETH_IPV5\" is not one of",
        "{\"network\": {\"vlan\": 1}}|network.vlan: 1 is not true or false",
        "{\"network\": {\"pcpOfVc\": [0, 1, 2, 9]}}|network.pcpOfVc[3]: 9 is outside 0..7",
        "{\"commandTypes\": [{\"type\": 1, \"controlBytes\": 3, \"data\": true}]}|commandTypes[0].controlBytes: 3 is odd",
        "{\"commandTypes\": [{\"type\": 0, \"controlBytes\": 2, \"data\": true}]}|commandTypes[0].type: 0 is not an integer in 1..255",
        "{\"commandPath\": {\"xoffThreshold\": 8, \"xonThreshold\": 8}}|commandPath: PackingBuffer xonThreshold must be",
        "{\"transport\": {\"storeBytes\": 20000}}|transport: TransportConfig storeBytes must be",
        "{\"transport\": {\"ports\": 2}}|transport.ports: 2 is outside 1..1",
        "{\"commandPath\": {\"xpuDataWidth\": 384}}|commandPath: CommandIngress dataWidth must be 256, 512 or 1024",
        "{\"output\": {\"reset\": \"SOMETIMES\"}}|output.reset: \"SOMETIMES\" is not one of",
        "[1, 2]|the configuration must be a JSON object",
        "{\"linkLayer\": {\"llr\": true, \"maxFrameBytes\": 2000}}|linkLayer: SueInstance llr.maxFrameBytes must hold the largest frame (2106 bytes",
        "{\"linkLayer\": {\"llr\": true, \"replayCountMax\": 0}}|linkLayer.replayCountMax: 0 is outside 1..255",
        "{\"linkLayer\": {\"llr\": true, \"controlCodes\": [1, 2, 3, 4, 4]}}|linkLayer: LinkControl codes must differ",
        "{\"flowControl\": {\"mode\": \"RATE\"}}|flowControl.mode: \"RATE\" is not one of",
        "{\"receive\": {\"fifoDepth\": 128}, \"flowControl\": {\"mode\": \"CBFC\", \"cbfcPortCreditLimit\": 1024}}|flowControl: SueInstance cbfc.portCreditLimit x creditSize must fit",
        "{\"flowControl\": {\"mode\": \"CBFC\", \"cbfcMaxFrameBytes\": 1000}}|flowControl: SueInstance cbfc.maxFrameBytes must hold the largest frame",
        "{\"flowControl\": {\"mode\": \"CBFC\", \"cbfcCreditSize\": 100}}|flowControl: CbfcConfig creditSize must be a power of two",
        "{\"receive\": {\"fifoDepth\": 128}, \"flowControl\": {\"mode\": \"PFC\"}}|flowControl: SueInstance pfc.xoffBytes must leave room",
        "{\"flowControl\": {\"mode\": \"PFC\", \"pfcXoffBytes\": 1024, \"pfcXonBytes\": 2048}}|flowControl: PfcConfig xonBytes must be",
    })
    void badConfigurationsNameThePathTheValueAndTheRange(String json, String message) throws Exception {
        ConfigError e = assertThrows(ConfigError.class,
                () -> InstanceConfigJson.fromJson(new ObjectMapper().readTree(json)));
        assertTrue(e.getMessage().startsWith(message), "got: " + e.getMessage());
    }

    @Test
    void aFileThatIsNotJsonSaysWhere(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("broken.json");
        Files.writeString(f, "{\n  \"transport\": { \"windowPdus\": 64,, }\n}\n");
        ConfigError e = assertThrows(ConfigError.class, () -> InstanceConfigJson.read(f));
        assertTrue(e.getMessage().contains("not JSON") && e.getMessage().contains("line 2"), e.getMessage());
    }

    @Test
    void theCommandLineIsParsedAndRefusedWithUsage() throws Exception {
        GenerateOptions o = GenerateOptions.parse("--config", "c.json", "--out=x", "--vhdl", "--reset", "async_low",
                "--no-sim");
        assertEquals(Path.of("c.json"), o.config());
        assertEquals(Path.of("x"), o.out());
        assertEquals(HdlLanguage.VHDL, o.language());
        assertEquals(ResetStyle.ASYNC_LOW, o.reset());
        assertFalse(o.simulate());
        assertTrue(GenerateOptions.parse("--help").help());
        for (List<String> bad : List.of(List.of("--frobnicate"), List.of("build/rtl"), List.of("--out"),
                List.of("--reset", "SOMETIMES"), List.of("--vhdl=yes"), List.of("--config", "--vhdl"),
                List.of("--frob=1"))) {
            GenerateOptions.UsageError e = assertThrows(GenerateOptions.UsageError.class,
                    () -> GenerateOptions.parse(bad.toArray(String[]::new)), bad.toString());
            assertTrue(e.getMessage().contains(bad.get(0).replaceAll("=.*", "")), e.getMessage());
        }
    }

    @Test
    void theGeneratorWritesTheInstanceItsConfigurationAndAFuseSocCore(@TempDir Path dir) throws Exception {
        Settings small = new Settings(DefaultDesigns.smallInstance(), HdlLanguage.VERILOG, ResetStyle.SYNC_HIGH);
        PrintStream old = System.out;
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        Generate.Emission e;
        try {
            System.setOut(new PrintStream(said));
            e = Generate.emitInstance(small, dir);
        } finally {
            System.setOut(old);
        }
        String top = e.designs().get("sue_instance").topModule();
        assertTrue(said.toString().contains(top), said.toString());
        Settings echoed = InstanceConfigJson.read(dir.resolve("sue_instance.json"));
        assertEquals(describe(small.instance()), describe(echoed.instance()));
        String core = Files.readString(dir.resolve("sue_instance.core"));
        assertTrue(core.startsWith("CAPI=2:") && core.contains("toplevel: " + top), core);
        List<String> listed = Files.readAllLines(e.fileList());
        assertEquals(e.files().size(), listed.size());
        for (String f : listed) {
            assertTrue(core.contains("      - " + f + "\n"), f + " in the core");
            assertTrue(Files.exists(dir.resolve(f)), f + " exists relative to the core and the list");
        }
    }

    private static String describe(SueInstance.Config c) {
        return InstanceConfigJson.toJson(new Settings(c, HdlLanguage.VERILOG, ResetStyle.SYNC_HIGH));
    }
}
