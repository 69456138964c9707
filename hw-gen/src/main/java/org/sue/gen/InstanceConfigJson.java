package org.sue.gen;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.sue.cmd.CommandPath;
import org.sue.cmd.CommandTable;
import org.sue.core.ResetStyle;
import org.sue.instance.SueInstance;
import org.sue.net.HeaderFormat;
import org.sue.link.CbfcConfig;
import org.sue.link.FrameAction;
import org.sue.link.LinkControl;
import org.sue.link.LlrConfig;
import org.sue.link.PfcConfig;
import org.sue.net.NetConfig;
import org.sue.net.SueMeta;
import org.sue.transport.TransportConfig;

/**
 * An {@link SueInstance}'s configuration as JSON (docs/configuration.md): read with every error naming the JSON path,
 * the value and what is allowed; written back with every default filled in; described as a JSON Schema. All three come
 * from one table of fields ({@link #FIELDS}), so they cannot drift apart. Cross-field rules are the configuration
 * records' own; their message is prefixed with the section that holds the fields.
 */
public final class InstanceConfigJson {
    private InstanceConfigJson() {
    }

    /** What a configuration file holds: the instance, and how to write its HDL. */
    public record Settings(SueInstance.Config instance, HdlLanguage language, ResetStyle reset) {
        public static Settings defaults() {
            return new Settings(SueInstance.Config.defaults(), HdlLanguage.VERILOG, ResetStyle.SYNC_HIGH);
        }
    }

    /** A configuration that cannot be built; the message names the JSON path and the value. */
    public static final class ConfigError extends Exception {
        public ConfigError(String message) {
            super(message);
        }
    }

    /**
     * One setting: section, key, JSON type, allowed values or range (of each item, for an array of {@code items}
     * integers), and where it lives in the records.
     */
    private record Field(String section, String key, String type, long min, long max, int items, List<String> choices,
                         String description, Function<Settings, Object> current) {
        String path() {
            return section + "." + key;
        }
    }

    private static Field integer(String section, String key, long min, long max, String description,
                                 Function<Settings, Object> current) {
        return new Field(section, key, "integer", min, max, 0, null, description, current);
    }

    private static Field integers(String section, String key, int items, long min, long max, String description,
                                  Function<Settings, Object> current) {
        return new Field(section, key, "array", min, max, items, null, description, current);
    }

    private static Field bool(String section, String key, String description,
                              Function<Settings, Object> current) {
        return new Field(section, key, "boolean", 0, 0, 0, null, description, current);
    }

    private static Field choice(String section, String key, List<String> choices, String description,
                                Function<Settings, Object> current) {
        return new Field(section, key, "string", 0, 0, 0, choices, description, current);
    }

    private static final List<Field> FIELDS = List.of(
            integer("commandPath", "xpuDataWidth", 256, 1024, "tx_data/rx_data width N in bits (256, 512 or 1024);"
                    + " the PDU bus is 2N", c -> c.instance().path().dataWidth()),
            integer("commandPath", "destinations", 2, 1024, "remote XPUs, a power of two",
                    c -> c.instance().path().destinations()),
            integer("commandPath", "cells", 16, 65536, "packing buffer cells of 2N bits, a power of two",
                    c -> c.instance().path().cells()),
            integer("commandPath", "pduLimit", 1, 4088, "largest packed command list per PDU, bytes",
                    c -> c.instance().path().pduLimit()),
            integer("commandPath", "xoffThreshold", 1, 65536, "queued commands of a destination that raise xoff",
                    c -> c.instance().path().xoffThreshold()),
            integer("commandPath", "xonThreshold", 0, 65535, "queued commands at which xoff falls again",
                    c -> c.instance().path().xonThreshold()),
            integer("commandPath", "commandCredits", 1, 4095, "command credits per VC the XPU holds",
                    c -> c.instance().path().cmdCredits()),
            integer("commandPath", "dataCredits", 0, 4095, "data credits per VC (256 bytes each)",
                    c -> c.instance().path().dataCredits()),
            choice("network", "format", names(HeaderFormat.values()), "network headers",
                    c -> c.instance().net().format().name()),
            bool("network", "vlan", "insert an 802.1Q tag", c -> c.instance().net().vlan()),
            integers("network", "pcpOfVc", SueMeta.VCS, 0, 7, "802.1Q priority of VC 0..3",
                    c -> c.instance().net().pcpOfVc()),
            integer("network", "udpDstPort", 1, 65535, "UDP destination port (not 4791 or 4793)",
                    c -> c.instance().net().udpDstPort()),
            integer("network", "afhGen1EtherType", 0x600, 0xFFFF, "AFH Gen1 EtherType",
                    c -> c.instance().net().afhGen1EtherType()),
            integer("network", "afhGen1SecondEtherType", 0, 0xFFFF, "0 or a second EtherType after the first",
                    c -> c.instance().net().afhGen1SecondEtherType()),
            bool("network", "afhGen1Shim", "add the 8-byte AFH Gen1 shim", c -> c.instance().net().afhGen1Shim()),
            integer("network", "afhGen2EtherType", 0x600, 0xFFFF, "AFH Gen2 EtherType",
                    c -> c.instance().net().afhGen2EtherType()),
            integer("network", "ipTtl", 1, 255, "IPv4 TTL / IPv6 hop limit", c -> c.instance().net().ipTtl()),
            integer("network", "maxPdu", 8, 4096, "largest PDU accepted, bytes", c -> c.instance().net().maxPdu()),
            integer("network", "rhVersion", 0, 3, "RH version sent and accepted", c -> c.instance().net().rhVersion()),
            bool("network", "udpZeroChecksum", "IPv6: send and accept UDP checksum 0 (RFC 6935/6936 zero-checksum"
                    + " mode, both ends); otherwise it is computed", c -> c.instance().net().udpZeroChecksum()),
            integer("transport", "ports", 1, 1, "SUE ports (only 1 is built)", c -> c.instance().transport().ports()),
            integer("transport", "storeBytes", 4 * TransportConfig.MAX_PDU_BYTES, 1L << 27,
                    "retransmit store per port, bytes (a power of two of bus beats)",
                    c -> c.instance().transport().storeBytes()),
            integer("transport", "windowPdus", 4, 16384, "unacknowledged PDUs per connection",
                    c -> c.instance().transport().windowPdus()),
            integer("transport", "rtoCycles", 4, 1 << 30, "retransmit timeout, cycles",
                    c -> c.instance().transport().rtoCycles()),
            integer("transport", "ackDelay", 1, 1 << 30, "cycles an owed ACK waits before an ACK-only PDU",
                    c -> c.instance().transport().ackDelay()),
            integer("transport", "ackCount", 1, 8192, "accepted PDUs that send the owed ACK at once",
                    c -> c.instance().transport().ackCount()),
            integer("transport", "opAck", 1, 3, "RH op code of an ACK", c -> c.instance().transport().opAck()),
            integer("transport", "opNack", 1, 3, "RH op code of a NACK", c -> c.instance().transport().opNack()),
            integer("receive", "commandCredits", 1, 4095, "command credits per VC the receiving XPU grants",
                    c -> c.instance().rxCmdCredits()),
            integer("receive", "dataCredits", 0, 4095, "data credits per VC the receiving XPU grants",
                    c -> c.instance().rxDataCredits()),
            integer("receive", "fifoDepth", 16, 65536, "beats of the framing receiver's packet FIFO",
                    c -> c.instance().rxFifoDepth()),
            integer("receive", "vcFifoDepth", 0, 65536, "beats of each VC's receive FIFO behind the transport, so"
                    + " that a VC whose XPU holds back credit does not stop the others (0: none, PDUs unpacked in"
                    + " arrival order; not given: with CBFC what a VC's credits cover, with PFC 0, see"
                    + " docs/protocol.md 9.4)",
                    c -> c.instance().rxVcFifoDepth()),
            bool("linkLayer", "llr", "Link Layer Retry between the framing and the MAC (LLR sideband and control"
                    + " channel on the MAC interface)", c -> c.instance().llr() != null),
            integer("linkLayer", "outstandingFramesMax", 1, 1 << 18, "LLR: unacknowledged frames at which new"
                    + " frames wait", c -> llr(c).outstandingFramesMax()),
            integer("linkLayer", "outstandingBytesMax", 64, 1 << 24, "LLR: unacknowledged bytes at which new frames"
                    + " wait (whole bus beats)", c -> llr(c).outstandingBytesMax()),
            integer("linkLayer", "maxFrameBytes", 64, 16384, "LLR: largest frame, sizes the replay buffer",
                    c -> llr(c).maxFrameBytes()),
            integer("linkLayer", "replayTimerCycles", 16, 1 << 30, "LLR: cycles without an advancing ACK before a"
                    + " replay of the whole buffer", c -> llr(c).replayTimerCycles()),
            integer("linkLayer", "replayCountMax", 1, LlrConfig.NO_REPLAY_LIMIT, "LLR: timer replays in a row"
                    + " before FLUSH (255: no limit)", c -> llr(c).replayCountMax()),
            integer("linkLayer", "pcsLostTimeoutCycles", 0, 1 << 30, "LLR: cycles link_up may be low before FLUSH",
                    c -> llr(c).pcsLostTimeoutCycles()),
            integer("linkLayer", "dataAgeTimeoutCycles", 0, 1 << 30, "LLR: cycles a frame may wait for its ACK"
                    + " before FLUSH (0: no limit)", c -> llr(c).dataAgeTimeoutCycles()),
            choice("linkLayer", "initFrameAction", names(FrameAction.values()), "LLR: frames during INIT",
                    c -> llr(c).initFrameAction().name()),
            choice("linkLayer", "flushFrameAction", names(FrameAction.values()), "LLR: frames during FLUSH",
                    c -> llr(c).flushFrameAction().name()),
            bool("linkLayer", "reInitOnFlush", "LLR: from FLUSH straight to INIT (else wait for llr_enable low)",
                    c -> llr(c).reInitOnFlush()),
            integer("linkLayer", "ctlosSpacingBytes", 400, 16384, "LLR receive: an ACK at least every this many"
                    + " bytes", c -> llr(c).ctlosSpacingBytes()),
            integer("linkLayer", "ackIdleCycles", 1, 1 << 30, "LLR receive: an owed ACK also leaves after this many"
                    + " cycles without a frame", c -> llr(c).ackIdleCycles()),
            integer("linkLayer", "initRetryCycles", 16, 1 << 30, "LLR transmit: INIT again after this many cycles"
                    + " without INIT_ECHO", c -> llr(c).initRetryCycles()),
            integers("linkLayer", "controlCodes", 5, 1, 255, "control message types ACK, NACK, INIT, INIT_ECHO,"
                    + " CF_Update", c -> codes(llr(c).codes())),
            choice("flowControl", "mode", List.of("NONE", "PFC", "CBFC"), "link-level flow control of the port: none,"
                    + " PFC (IEEE 802.1Qbb) or CBFC (UEC credits; every VC lossless; CF_Update on the control channel,"
                    + " code from linkLayer.controlCodes)", c -> c.instance().pfc() != null ? "PFC"
                    : c.instance().cbfc() != null ? "CBFC" : "NONE"),
            integers("flowControl", "pfcPriorityOfVc", SueMeta.VCS, 0, 7, "PFC: the priority (class) of VC 0..3 in"
                    + " the frames sent and obeyed", c -> priorities(pfc(c))),
            integer("flowControl", "pfcBitsPerCycle", 64, 4096, "PFC: line bits per cycle (a power of two; a pause"
                    + " quantum is 512 bit times); default the bus width", c -> pfc(c).bitsPerCycle()),
            integer("flowControl", "pfcPauseQuanta", 1, 0xFFFF, "PFC: pause time sent for a class that is off",
                    c -> pfc(c).pauseQuanta()),
            integer("flowControl", "pfcRefreshCycles", 16, 1 << 30, "PFC: a pause is sent again after this many"
                    + " cycles (below the pause time); default half the pause time", c -> pfc(c).refreshCycles()),
            integer("flowControl", "pfcXoffBytes", 1, (1 << 24) - 1, "PFC: a VC's receive FIFO level that pauses its"
                    + " class (4 x this below the FIFO, leaving headroom)", c -> pfc(c).xoffBytes()),
            integer("flowControl", "pfcXonBytes", 0, (1 << 24) - 2, "PFC: a class resumes when all its VCs' levels are"
                    + " at or below this", c -> pfc(c).xonBytes()),
            integer("flowControl", "cbfcCreditSize", 32, 4096, "CBFC: bytes per credit (a power of two, at least a"
                    + " bus beat)", c -> cbfc(c).creditSize()),
            integer("flowControl", "cbfcPacketOverhead", -16, 127, "CBFC: bytes added to a frame's size before it is"
                    + " counted in credits", c -> cbfc(c).packetOverhead()),
            integer("flowControl", "cbfcVcCreditLimit", 1, (1 << 19) - 1, "CBFC: credits a VC may have in use"
                    + " (default: the port's limit, at most 256)",
                    c -> cbfc(c).vcCreditLimit()),
            integer("flowControl", "cbfcPortCreditLimit", 1, (1 << 19) - 1, "CBFC: credits the port may have in use"
                    + " (x creditSize at most the receive FIFO; default: what the FIFO holds, at most 1024)", c -> cbfc(c).portCreditLimit()),
            integer("flowControl", "cbfcMaxFrameBytes", 64, 16384, "CBFC: largest frame, reserved per PDU decided"
                    + " (default: the instance's largest frame in whole credits)",
                    c -> cbfc(c).maxFrameBytes()),
            integer("flowControl", "cbfcCcTimerCycles", 16, 1 << 30, "CBFC: cycles between CC_Update frames",
                    c -> cbfc(c).ccTimerCycles()),
            integer("flowControl", "cbfcCfMinSpacingBytes", 800, 1 << 20, "CBFC: link time (bytes) a VC's CF_Updates"
                    + " are at least apart", c -> cbfc(c).cfMinSpacingBytes()),
            integer("flowControl", "cbfcCfMaxSpacingBytes", 16384, 1 << 20, "CBFC: link time (bytes) after which a VC's"
                    + " CF_Update is sent again", c -> cbfc(c).cfMaxSpacingBytes()),
            choice("output", "language", names(HdlLanguage.values()), "HDL written (--vhdl overrides)",
                    c -> c.language().name()),
            choice("output", "reset", names(ResetStyle.values()), "reset style of every register (--reset overrides)",
                    c -> c.reset().name()));

    private static final List<String> SECTIONS = List.of("commandPath", "commandTypes", "network", "transport",
            "receive", "linkLayer", "flowControl", "output");

    /** The instance's LLR parameters, or the defaults for its bus when it has none (what turning it on gives). */
    private static LlrConfig llr(Settings c) {
        return c.instance().llr() != null ? c.instance().llr() : LlrConfig.defaults(c.instance().busWidth());
    }

    /** The instance's PFC parameters, or the defaults for its bus when it has none (what turning it on gives). */
    private static PfcConfig pfc(Settings c) {
        return c.instance().pfc() != null ? c.instance().pfc() : PfcConfig.defaults(c.instance().busWidth());
    }

    /** The instance's CBFC parameters, or the defaults for its bus when it has none. */
    private static CbfcConfig cbfc(Settings c) {
        return c.instance().cbfc() != null ? c.instance().cbfc() : CbfcConfig.defaults(c.instance().busWidth());
    }

    private static boolean given(JsonNode section, String key) {
        return section != null && section.has(key);
    }

    private static int[] priorities(PfcConfig p) {
        int[] classes = new int[SueMeta.VCS];
        for (int v = 0; v < classes.length; v++) {
            classes[v] = p.classOf(v);
        }
        return classes;
    }

    private static int[] codes(LinkControl.Codes k) {
        return new int[] {k.ack(), k.nack(), k.init(), k.initEcho(), k.cfUpdate()};
    }
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** Reads a configuration file; defaults fill what it leaves out. */
    public static Settings read(Path file) throws ConfigError {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (JsonProcessingException e) {
            throw new ConfigError(file + ": not JSON: " + e.getOriginalMessage() + " (line "
                    + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")");
        } catch (IOException e) {
            throw new ConfigError(file + ": cannot read: " + e.getMessage());
        }
        return fromJson(root);
    }

    /** Builds the configuration from a parsed document. */
    public static Settings fromJson(JsonNode root) throws ConfigError {
        if (root == null || !root.isObject()) {
            throw new ConfigError("the configuration must be a JSON object");
        }
        onlyKnownKeys(root, "", SECTIONS);
        Map<String, JsonNode> sections = new LinkedHashMap<>();
        for (String s : SECTIONS) {
            JsonNode n = root.get(s);
            if (n != null && !n.isObject() && !s.equals("commandTypes")) {
                throw new ConfigError(s + ": must be an object, got " + n);
            }
            if (n != null && n.isObject()) {
                onlyKnownKeys(n, s + ".", FIELDS.stream().filter(f -> f.section().equals(s)).map(Field::key).toList());
            }
            sections.put(s, n);
        }
        Settings d = Settings.defaults();
        Map<String, Object> v = new LinkedHashMap<>();
        for (Field f : FIELDS) {
            JsonNode section = sections.get(f.section());
            JsonNode n = section == null ? null : section.get(f.key());
            v.put(f.path(), n == null ? f.current().apply(d) : value(f, n));
        }
        CommandTable table = commandTypes(sections.get("commandTypes"));

        CommandPath.Config path = build("commandPath", () -> new CommandPath.Config(i(v, "commandPath.xpuDataWidth"),
                table, i(v, "commandPath.destinations"), i(v, "commandPath.cells"), i(v, "commandPath.pduLimit"),
                i(v, "commandPath.xoffThreshold"), i(v, "commandPath.xonThreshold"),
                i(v, "commandPath.commandCredits"), i(v, "commandPath.dataCredits")));
        NetConfig net = build("network", () -> new NetConfig(HeaderFormat.valueOf((String) v.get("network.format")),
                (Boolean) v.get("network.vlan"), (int[]) v.get("network.pcpOfVc"), i(v, "network.udpDstPort"), i(v, "network.afhGen1EtherType"),
                i(v, "network.afhGen1SecondEtherType"), (Boolean) v.get("network.afhGen1Shim"),
                i(v, "network.afhGen2EtherType"), i(v, "network.ipTtl"), i(v, "network.maxPdu"),
                i(v, "network.rhVersion"), (Boolean) v.get("network.udpZeroChecksum")));
        TransportConfig transport = build("transport", () -> new TransportConfig(2 * path.dataWidth(),
                path.destinations(), i(v, "transport.ports"), i(v, "transport.storeBytes"),
                i(v, "transport.windowPdus"), i(v, "transport.rtoCycles"), i(v, "transport.ackDelay"),
                i(v, "transport.ackCount"), i(v, "transport.opAck"), i(v, "transport.opNack")));
        LlrConfig llr = !(Boolean) v.get("linkLayer.llr") ? null : build("linkLayer", () -> {
            int[] k = (int[]) v.get("linkLayer.controlCodes");
            LlrConfig l = new LlrConfig(2 * path.dataWidth(), i(v, "linkLayer.outstandingFramesMax"),
                    i(v, "linkLayer.outstandingBytesMax"), i(v, "linkLayer.maxFrameBytes"),
                    i(v, "linkLayer.replayTimerCycles"), i(v, "linkLayer.replayCountMax"),
                    i(v, "linkLayer.pcsLostTimeoutCycles"), i(v, "linkLayer.dataAgeTimeoutCycles"),
                    FrameAction.valueOf((String) v.get("linkLayer.initFrameAction")),
                    FrameAction.valueOf((String) v.get("linkLayer.flushFrameAction")),
                    (Boolean) v.get("linkLayer.reInitOnFlush"), i(v, "linkLayer.ctlosSpacingBytes"),
                    i(v, "linkLayer.ackIdleCycles"), i(v, "linkLayer.initRetryCycles"),
                    new LinkControl.Codes(k[0], k[1], k[2], k[3], k[4]));
            SueInstance.Config.checkLlr(path, net, l);
            return l;
        });
        SueInstance.Config instance = build("receive", () -> new SueInstance.Config(path, net, transport,
                i(v, "receive.commandCredits"), i(v, "receive.dataCredits"), i(v, "receive.fifoDepth"), llr));
        JsonNode fc = sections.get("flowControl");
        PfcConfig pfcBase = PfcConfig.defaults(instance.busWidth()); // line rate and refresh follow the bus
        PfcConfig pfc = !v.get("flowControl.mode").equals("PFC") ? null : build("flowControl", () -> {
            PfcConfig p = new PfcConfig(instance.busWidth(), PfcConfig.classes((int[]) v.get(
                    "flowControl.pfcPriorityOfVc")), given(fc, "pfcBitsPerCycle") ? i(v, "flowControl.pfcBitsPerCycle")
                    : pfcBase.bitsPerCycle(), i(v, "flowControl.pfcPauseQuanta"), given(fc, "pfcRefreshCycles")
                    ? i(v, "flowControl.pfcRefreshCycles") : pfcBase.refreshCycles(),
                    i(v, "flowControl.pfcXoffBytes"), i(v, "flowControl.pfcXonBytes"));
            SueInstance.Config.checkPfc(p, instance.busWidth(), instance.rxFifoDepth());
            return p;
        });
        CbfcConfig cbfc = !v.get("flowControl.mode").equals("CBFC") ? null : build("flowControl", () -> {
            int[] k = (int[]) v.get("linkLayer.controlCodes");
            CbfcConfig base = CbfcConfig.defaults(instance.busWidth());
            // not given: the port's limit what the receive FIFO holds (at most the default), the VC's at most that,
            // the reservation the largest frame this instance makes
            int size = i(v, "flowControl.cbfcCreditSize");
            long fifoCredits = (long) instance.rxFifoDepth() * instance.busWidth() / 8 / size;
            int port = given(fc, "cbfcPortCreditLimit") ? i(v, "flowControl.cbfcPortCreditLimit")
                    : (int) Math.min(base.portCreditLimit(), fifoCredits);
            int vc = given(fc, "cbfcVcCreditLimit") ? i(v, "flowControl.cbfcVcCreditLimit")
                    : Math.min(base.vcCreditLimit(), port);
            int maxFrame = given(fc, "cbfcMaxFrameBytes") ? i(v, "flowControl.cbfcMaxFrameBytes")
                    : SueInstance.Config.largestFrameInCredits(path, net, size);
            CbfcConfig c = new CbfcConfig(instance.busWidth(), base.losslessVcs(), size,
                    i(v, "flowControl.cbfcPacketOverhead"), vc, port, maxFrame,
                    i(v, "flowControl.cbfcCfMinSpacingBytes"), i(v, "flowControl.cbfcCfMaxSpacingBytes"),
                    i(v, "flowControl.cbfcCcTimerCycles"), base.ccEtherType(), base.ccOpcode(), base.ccOui(),
                    base.ccMsgType(),
                    new LinkControl.Codes(k[0], k[1], k[2], k[3], k[4]));
            SueInstance.Config.checkCbfc(path, net, instance.rxFifoDepth(), instance.llr(), null, c);
            return c;
        });
        boolean depthGiven = given(sections.get("receive"), "vcFifoDepth");
        int vcFifoDepth = depthGiven ? i(v, "receive.vcFifoDepth") : cbfc != null
                ? (int) ((long) cbfc.vcCreditLimit() * cbfc.creditSize() / (instance.busWidth() / 8))
                : pfc != null ? 0 : i(v, "receive.vcFifoDepth");
        SueInstance.Config withVcFifos = build("receive", () -> instance.withPfc(pfc).withCbfc(cbfc)
                .withRxVcFifoDepth(vcFifoDepth));
        return new Settings(withVcFifos, HdlLanguage.valueOf((String) v.get("output.language")),
                ResetStyle.valueOf((String) v.get("output.reset")));
    }

    /** The configuration as JSON, every field present: what the generator writes next to the HDL. */
    public static String toJson(Settings c) {
        ObjectNode root = JSON.createObjectNode();
        for (String s : SECTIONS) {
            if (s.equals("commandTypes")) {
                ArrayNode types = root.putArray(s);
                CommandTable t = c.instance().path().table();
                for (int type : t.definedTypes()) {
                    types.addObject().put("type", type).put("controlBytes", t.controlBytes(type))
                            .put("data", t.hasData(type));
                }
                continue;
            }
            ObjectNode section = root.putObject(s);
            for (Field f : FIELDS) {
                if (!f.section().equals(s)) {
                    continue;
                }
                section.set(f.key(), JSON.valueToTree(f.current().apply(c)));
            }
        }
        return pretty(root);
    }

    /** A JSON Schema (draft 2020-12) of the configuration file, from the same field table. */
    public static String schema() {
        ObjectNode root = JSON.createObjectNode();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.put("title", "SUE instance configuration");
        root.put("type", "object");
        root.put("additionalProperties", false);
        ObjectNode props = root.putObject("properties");
        Settings d = Settings.defaults();
        for (String s : SECTIONS) {
            if (s.equals("commandTypes")) {
                ObjectNode types = props.putObject(s);
                types.put("type", "array");
                types.put("description", "the command types the XPU uses (default: types 1..4 of the example table)");
                types.put("minItems", 1);
                ObjectNode item = types.putObject("items");
                item.put("type", "object");
                item.put("additionalProperties", false);
                item.putArray("required").add("type").add("controlBytes").add("data");
                ObjectNode ip = item.putObject("properties");
                ip.putObject("type").put("type", "integer").put("minimum", 1).put("maximum", 255);
                ip.putObject("controlBytes").put("type", "integer").put("minimum", 0).put("maximum", 14)
                        .put("multipleOf", 2);
                ip.putObject("data").put("type", "boolean");
                continue;
            }
            ObjectNode section = props.putObject(s);
            section.put("type", "object");
            section.put("additionalProperties", false);
            ObjectNode sp = section.putObject("properties");
            for (Field f : FIELDS) {
                if (!f.section().equals(s)) {
                    continue;
                }
                ObjectNode p = sp.putObject(f.key());
                p.put("type", f.type());
                p.put("description", f.description());
                switch (f.type()) {
                    case "integer" -> p.put("minimum", f.min()).put("maximum", f.max());
                    case "array" -> p.put("minItems", f.items()).put("maxItems", f.items()).putObject("items")
                            .put("type", "integer").put("minimum", f.min()).put("maximum", f.max());
                    case "string" -> f.choices().forEach(p.putArray("enum")::add);
                    default -> { } // boolean: no range
                }
                p.set("default", JSON.valueToTree(f.current().apply(d)));
            }
        }
        return pretty(root);
    }

    private static String pretty(ObjectNode root) {
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- reading ------------------------------------------------------------------------------------------------

    private static void onlyKnownKeys(JsonNode node, String prefix, List<String> known) throws ConfigError {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!known.contains(k)) {
                throw new ConfigError(prefix + k + ": unknown key; known here: " + String.join(", ", known));
            }
        }
    }

    private static Object value(Field f, JsonNode n) throws ConfigError {
        switch (f.type()) {
            case "integer" -> {
                if (!n.isIntegralNumber()) {
                    throw new ConfigError(f.path() + ": " + n + " is not an integer");
                }
                long x = n.asLong();
                if (x < f.min() || x > f.max() || !n.canConvertToInt()) {
                    throw new ConfigError(f.path() + ": " + n + " is outside " + f.min() + ".." + f.max());
                }
                return (int) x;
            }
            case "array" -> {
                if (!n.isArray() || n.size() != f.items()) {
                    throw new ConfigError(f.path() + ": " + n + " is not an array of " + f.items() + " integers in "
                            + f.min() + ".." + f.max());
                }
                int[] items = new int[f.items()];
                for (int i = 0; i < items.length; i++) {
                    JsonNode x = n.get(i);
                    if (!x.isIntegralNumber() || x.asLong() < f.min() || x.asLong() > f.max()) {
                        throw new ConfigError(f.path() + "[" + i + "]: " + x + " is outside " + f.min() + ".."
                                + f.max());
                    }
                    items[i] = x.asInt();
                }
                return items;
            }
            case "boolean" -> {
                if (!n.isBoolean()) {
                    throw new ConfigError(f.path() + ": " + n + " is not true or false");
                }
                return n.asBoolean();
            }
            default -> {
                if (!n.isTextual() || !f.choices().contains(n.asText())) {
                    throw new ConfigError(f.path() + ": " + n + " is not one of " + f.choices());
                }
                return n.asText();
            }
        }
    }

    private static CommandTable commandTypes(JsonNode n) throws ConfigError {
        if (n == null) {
            return CommandTable.example();
        }
        if (!n.isArray() || n.isEmpty()) {
            throw new ConfigError("commandTypes: must be a non-empty array of {type, controlBytes, data}, got " + n);
        }
        CommandTable t = new CommandTable();
        for (int i = 0; i < n.size(); i++) {
            String at = "commandTypes[" + i + "]";
            JsonNode e = n.get(i);
            if (!e.isObject()) {
                throw new ConfigError(at + ": must be an object {type, controlBytes, data}, got " + e);
            }
            onlyKnownKeys(e, at + ".", List.of("type", "controlBytes", "data"));
            int type = intIn(e, at, "type", 1, 255);
            int control = intIn(e, at, "controlBytes", 0, 14);
            if (control % 2 != 0) {
                throw new ConfigError(at + ".controlBytes: " + control + " is odd (control travels in 2-byte units)");
            }
            JsonNode data = e.get("data");
            if (data == null || !data.isBoolean()) {
                throw new ConfigError(at + ".data: " + data + " is not true or false");
            }
            try {
                t.define(type, control / 2, data.asBoolean());
            } catch (IllegalArgumentException ex) {
                throw new ConfigError(at + ": " + ex.getMessage());
            }
        }
        return t;
    }

    private static int intIn(JsonNode e, String at, String key, int min, int max) throws ConfigError {
        JsonNode v = e.get(key);
        if (v == null || !v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw new ConfigError(at + "." + key + ": " + v + " is not an integer in " + min + ".." + max);
        }
        return v.asInt();
    }

    private interface Build<T> {
        T get();
    }

    /** Runs a record's own validation; its message (naming the field and the range) gets the section's path. */
    private static <T> T build(String section, Build<T> b) throws ConfigError {
        try {
            return b.get();
        } catch (IllegalArgumentException e) {
            throw new ConfigError(section + ": " + e.getMessage());
        }
    }

    private static int i(Map<String, Object> v, String path) {
        return (Integer) v.get(path);
    }

    private static List<String> names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).toList();
    }
}
