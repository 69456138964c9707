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
import org.sue.axi.AxiBridge;
import org.sue.axi.AxiConfig;
import org.sue.axi.AxiCredits;
import org.sue.instance.SueAxiInstance;
import org.sue.instance.SueInstance;
import org.sue.instance.SueManagedInstance;

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
                "afh_gen2.json", DefaultDesigns.gen2Instance(), "small_fpga.json", DefaultDesigns.smallInstance(),
                "two_port.json", DefaultDesigns.portsInstance(2), "four_port.json", DefaultDesigns.portsInstance(4));
        for (Map.Entry<String, SueInstance.Config> e : expected.entrySet()) {
            Settings s = InstanceConfigJson.read(CONFIGS.resolve(e.getKey()));
            assertEquals(describe(e.getValue()), describe(s.instance()), e.getKey());
        }
    }

    /** configs/axi4.json is the AXI4 instance the suite lints and synthesises; its effective form reads back the same. */
    @Test
    void theAxi4ConfigurationIsTheAxiInstance() throws Exception {
        Settings s = InstanceConfigJson.read(CONFIGS.resolve("axi4.json"));
        SueAxiInstance.Config expected = DefaultDesigns.axiInstance();
        assertEquals(InstanceConfigJson.CommandInterface.AXI4, s.commandInterface());
        assertEquals(expected, s.axi());
        assertEquals(describe(expected.sue()), describe(s.instance()));
        assertEquals(expected.bridge().axi().commandTable(), s.instance().path().table(), "the AXI4 form's types");
        assertEquals(SueAxiInstance.Form.WRAPPER, s.axi().form(), "the wrapper by default");
        Settings back = InstanceConfigJson.fromJson(new ObjectMapper().readTree(InstanceConfigJson.toJson(s)));
        assertEquals(s, back);
        Settings narrow = InstanceConfigJson.fromJson(new ObjectMapper().readTree("{\"commandInterface\": \"AXI4\","
                + " \"commandPath\": {\"xpuDataWidth\": 256}, \"axi4\": {\"idWidth\": 6, \"remapEntries\": 16,"
                + " \"form\": \"CREDITS\", \"slaveCredits\": [2, 16, 2, 3, 16]}}"));
        AxiBridge.Config bridge = narrow.axi().bridge();
        assertEquals(new AxiConfig(256, 48, 6, 0, 1024, false, 36, 8), bridge.axi());
        assertEquals(16, bridge.remapEntries());
        assertEquals(bridge.axi().commandTable(), narrow.instance().path().table(), "types for 256-bit data");
        assertEquals(1, bridge.pairs(), "a 256-bit port: one pair");
        assertEquals(SueAxiInstance.Form.CREDITS, narrow.axi().form());
        assertEquals(new AxiCredits(2, 16, 2, 3, 16), narrow.axi().slave());
        assertEquals(AxiCredits.defaults(), narrow.axi().master());
        Settings wide = InstanceConfigJson.fromJson(new ObjectMapper().readTree("{\"commandInterface\": \"AXI4\"}"));
        assertEquals(2, wide.axi().bridge().pairs(), "the default 1024-bit port (800G): a pair per 400G");
        assertEquals(wide.axi().bridge().wire().commandTable(), wide.instance().path().table(), "the pair bits in IDs");
    }

    @Test
    void theCommittedSchemaAndKeyTableAreGeneratedFromTheFieldTable() throws IOException {
        String regenerate = " is stale: run org.sue.gen.InstanceConfigJson in the repository's root";
        assertEquals(InstanceConfigJson.schema(), Files.readString(CONFIGS.resolve("sue_instance.schema.json")),
                "configs/sue_instance.schema.json" + regenerate);
        String doc = Files.readString(CONFIGS.resolveSibling("docs").resolve("configuration.md"));
        assertEquals(InstanceConfigJson.withFieldTable(doc), doc,
                "the key table of docs/configuration.md" + regenerate);
        assertTrue(doc.contains("| `transport.windowPdus` | 4..16384 (PSN comparisons need the window below 2^15) |"
                + " `1024` |"), "one row of the table");
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
                .withFlush(FrameAction.BLOCK, FrameAction.BEST_EFFORT, true, 1000, 100_000);
        assertEquals(expected, on.instance().llr());
        Settings back = InstanceConfigJson.fromJson(new ObjectMapper().readTree(InstanceConfigJson.toJson(on)));
        assertEquals(expected, back.instance().llr());
        Settings waiting = InstanceConfigJson.fromJson(new ObjectMapper().readTree(
                "{\"linkLayer\": {\"reInitOnFlush\": false}}"));
        assertEquals(LlrConfig.builder().reInitOnFlush(false).build(1024), waiting.instance().llr(),
                "FLUSH waits for management (llr_enable low) when asked to");
    }

    /** PFC switched on in JSON: the defaults for the bus unless a field says otherwise; and back the same. */
    @Test
    void pfcIsOneKeyAway() throws Exception {
        Settings on = InstanceConfigJson.fromJson(new ObjectMapper().readTree(
                "{\"flowControl\": {\"mode\": \"PFC\", \"pfcXoffBytes\": 2048, \"pfcXonBytes\": 1024}}"));
        SueInstance.Config c = on.instance();
        long fifoBytes = (long) c.rxFifoDepth() * c.busWidth() / 8; // the shared threshold leaves one headroom
        long headroom = SueInstance.pfcHeadroomBytes(1024, c.largestFrame(), PfcConfig.DEFAULT_LINK_DELAY_CYCLES);
        assertEquals(PfcConfig.defaults(1024).withThresholds(2048, 1024).withSharedXoff((int) (fifoBytes - headroom)),
                c.pfc());
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
        "{\"commandPath\": {\"xoffThreshold\": 8, \"xonThreshold\": 8}}|commandPath.xonThreshold must be below commandPath.xoffThreshold (at most 7), got 8",
        "{\"transport\": {\"storeBytes\": 20000}}|transport.storeBytes: 20000 is not a power of two from 16384 to",
        "{\"transport\": {\"storeBytes\": 268435456}}|transport.storeBytes must be at most 134217728 (2^20 bus beats of 128 bytes for all transport.ports port(s)), got 268435456",
        "{\"commandPath\": {\"xpuDataWidth\": 256}, \"transport\": {\"ports\": 2}, \"output\": {\"management\": false}}|transport.ports must leave each port a bus of 256, 512, 1024 or 2048 bits",
        "{\"transport\": {\"ports\": 3}}|transport.ports: 3 is not 1, 2 or 4",
        "{\"commandPath\": {\"xpuDataWidth\": 384}}|commandPath.xpuDataWidth: 384 is not 256, 512 or 1024",
        "{\"output\": {\"reset\": \"SOMETIMES\"}}|output.reset: \"SOMETIMES\" is not one of",
        "[1, 2]|the configuration must be a JSON object",
        "{\"linkLayer\": {\"llr\": true, \"maxFrameBytes\": 2000}}|linkLayer.maxFrameBytes must hold the largest frame: at least 2106 bytes (commandPath.pduLimit with its headers), got 2000",
        "{\"linkLayer\": {\"llr\": true, \"replayCountMax\": 0}}|linkLayer.replayCountMax: 0 is outside 1..255",
        "{\"linkLayer\": {\"llr\": true, \"controlCodes\": [1, 2, 3, 4, 4]}}|linkLayer.controlCodes: LinkControl codes must differ, initEcho and cfUpdate are both 4",
        "{\"flowControl\": {\"mode\": \"RATE\"}}|flowControl.mode: \"RATE\" is not one of",
        "{\"receive\": {\"fifoDepth\": 128}, \"flowControl\": {\"mode\": \"CBFC\", \"cbfcPortCreditLimit\": 1024}}|flowControl.cbfcPortCreditLimit x flowControl.cbfcCreditSize must fit in the receive FIFO, receive.fifoDepth x 128 bytes = 16384: flowControl.cbfcPortCreditLimit at most 128, or receive.fifoDepth at least 1024, got 1024 x 128",
        "{\"flowControl\": {\"mode\": \"CBFC\", \"cbfcMaxFrameBytes\": 1000}}|flowControl.cbfcMaxFrameBytes must hold the largest frame: at least 2106 bytes",
        "{\"flowControl\": {\"mode\": \"CBFC\", \"cbfcCreditSize\": 100}}|flowControl.cbfcCreditSize: 100 is not a power of two from 32 to 4096",
        "{\"transport\": {\"busWidth\": 512}}|transport.busWidth must be commandPath.xpuDataWidth (1024 bits: the port at the XPU interface's rate) or twice it (2048), got 512",
        "{\"commandPath\": {\"xpuDataWidth\": 1024}, \"transport\": {\"busWidth\": 2048}, \"flowControl\": {\"cbfcCreditSize\": 128}}|flowControl.cbfcCreditSize must be at least a bus beat (256 bytes: the FIFO stores whole beats), got 128",
        "{\"receive\": {\"fifoDepth\": 128}, \"flowControl\": {\"mode\": \"PFC\", \"pfcXoffBytes\": 16384}}|flowControl.pfcXoffBytes must be at most 4095: 4 x it below the receive FIFO the VCs share, receive.fifoDepth x 128 bytes = 16384, with headroom for the frames in flight (docs/protocol.md 9.3); or receive.fifoDepth at least 1024, got 16384",
        "{\"flowControl\": {\"mode\": \"PFC\", \"pfcXoffBytes\": 1024, \"pfcXonBytes\": 2048}}|flowControl.pfcXonBytes must be below flowControl.pfcXoffBytes (at most 1023), got 2048",
        "{\"receive\": {\"fifoDepth\": 8}}|receive.fifoDepth must hold a PDU's commands (commandPath.pduLimit: 2048 bytes in 128-byte beats): at least 16, got 8",
        "{\"receive\": {\"fifoDepth\": 16}}|receive.fifoDepth must be at least 32: the receive FIFO, receive.fifoDepth x 128 bytes = 2048, must hold the credits of the largest frame, flowControl.cbfcMaxFrameBytes in flowControl.cbfcCreditSize-byte credits (17 x 128), got 16",
        "{\"receive\": {\"vcFifoDepth\": 1}}|receive.vcFifoDepth: 1 is not 0 or 2..65536",
        "{\"commandInterface\": \"PCIE\"}|commandInterface: \"PCIE\" is not one of [FIFO, AXI4]",
        "{\"axi4\": {\"idWidth\": 2}}|axi4: only with commandInterface AXI4 (the XPU's interface is FIFO)",
        "{\"commandInterface\": \"AXI4\", \"commandTypes\": [{\"type\": 1, \"controlBytes\": 2, \"data\": true}]}|commandTypes: with commandInterface AXI4 the command types are the AXI4 form's",
        "{\"commandInterface\": \"AXI4\", \"axi4\": {\"idWidth\": 9}}|axi4.idWidth: 9 is outside 1..8",
        "{\"commandInterface\": \"AXI4\", \"axi4\": {\"destinationFromUser\": true, \"userWidth\": 4}}|axi4.userWidth must be at least 10 when axi4.destinationFromUser is set (the destination is AxUSER[9:0]), got 4",
        "{\"commandInterface\": \"AXI4\", \"axi4\": {\"addressWidth\": 40, \"destinationLsb\": 36}}|axi4.destinationLsb must be 0..30",
        "{\"commandInterface\": \"AXI4\", \"axi4\": {\"remapEntries\": 6}}|axi4.remapEntries: 6 is not a power of two",
        "{\"commandInterface\": \"AXI4\", \"axi4\": {\"idWidth\": 8, \"pairs\": 2}}|axi4.idWidth must be at most 7 with axi4.pairs = 2",
        "{\"commandInterface\": \"AXI4\", \"axi4\": {\"pairs\": 3}}|axi4.pairs: 3 is not 1, 2 or 4",
        "{\"commandInterface\": \"AXI4\", \"axi4\": {\"form\": \"PCIE\"}}|axi4.form: \"PCIE\" is not one of [WRAPPER, CREDITS, DIRECT]",
        "{\"commandInterface\": \"AXI4\", \"axi4\": {\"masterCredits\": [4, 0, 4, 4, 8]}}|axi4.masterCredits[1]: 0 is outside",
        "{\"management\": {\"rawFrameBytes\": 3000, \"rawRxBufferBytes\": 2048}}|management.rawRxBufferBytes must be a power of two that holds the largest frame with its FCS (3004 bytes)",
        "{\"management\": {\"rawFrameBytes\": 40}}|management.rawFrameBytes: 40 is outside 60..16380",
        "{\"receive\": {\"vcFifoDepth\": 100}}|receive.vcFifoDepth must be at least 256 (or 0: none), so that a VC's receive FIFO holds what the flow control lets a VC have in flight, flowControl.cbfcVcCreditLimit x flowControl.cbfcCreditSize = 32768 bytes, got 100 (12800 bytes)",
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
        assertEquals("--cfg: unknown option; known: --config, --out, --vhdl, --reset, --top, --no-sim, --help",
                assertThrows(GenerateOptions.UsageError.class, () -> GenerateOptions.parse("--cfg", "x.json"))
                        .getMessage());
        assertEquals("--reset ASYNC: not one of SYNC_HIGH, SYNC_LOW, ASYNC_HIGH, ASYNC_LOW",
                assertThrows(GenerateOptions.UsageError.class, () -> GenerateOptions.parse("--reset", "ASYNC"))
                        .getMessage());
    }

    /** The generator names the file once, before the reason ({@code error: FILE: no such file}). */
    @Test
    void aMissingFileIsNamedOnce(@TempDir Path dir) {
        assertEquals("no such file", assertThrows(ConfigError.class,
                () -> InstanceConfigJson.read(dir.resolve("missing.json"))).getMessage());
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
        // the core's top is the wrapper of the stable name around the configuration-named module
        assertTrue(core.startsWith("CAPI=2:") && core.contains("toplevel: " + GenerateOptions.DEFAULT_TOP), core);
        assertTrue(Files.readString(dir.resolve(GenerateOptions.DEFAULT_TOP + ".v")).contains(top + " inst ("));
        assertTrue(echoed.management(), "behind its management port unless the file says otherwise");
        List<String> listed = Files.readAllLines(e.fileList());
        assertEquals(e.files().size(), listed.size());
        for (String f : listed) {
            assertTrue(core.contains("      - " + f + "\n"), f + " in the core");
            assertTrue(Files.exists(dir.resolve(f)), f + " exists relative to the core and the list");
        }
    }

    private static String describe(SueInstance.Config c) {
        return InstanceConfigJson.toJson(new Settings(c, null, HdlLanguage.VERILOG, ResetStyle.SYNC_HIGH, true,
                SueManagedInstance.RawPackets.DEFAULT));
    }
}
