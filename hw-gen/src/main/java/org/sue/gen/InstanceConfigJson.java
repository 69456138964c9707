package org.sue.gen;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.sue.axi.AxiBridge;
import org.sue.axi.AxiConfig;
import org.sue.axi.AxiCredits;
import org.sue.axi.AxiRemoteMaster;
import org.sue.axi.AxiRequestPacker;
import org.sue.cmd.CommandIngress;
import org.sue.cmd.CommandPath;
import org.sue.cmd.CommandTable;
import org.sue.cmd.CommandUnpacker;
import org.sue.cmd.PackingBuffer;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.ResetStyle;
import org.sue.instance.SueAxiInstance;
import org.sue.instance.SueInstance;
import org.sue.instance.SueManagedInstance;
import org.sue.instance.SueInstance.Config.FlowControl;
import org.sue.link.CbfcConfig;
import org.sue.link.FrameAction;
import org.sue.link.LinkControl;
import org.sue.link.LlrConfig;
import org.sue.link.PfcConfig;
import org.sue.lib.stream.CreditReceiver;
import org.sue.net.FrameReceiver;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.SueMeta;
import org.sue.transport.TransportConfig;

/**
 * An {@link SueInstance}'s configuration as JSON (docs/configuration.md), from one table of fields ({@link #FIELDS}):
 * each field is its JSON key, the values it takes (the {@link Bound} its record checks), the record parameter it
 * sets (through the instance's builder, which also holds the defaults and derives what depends on other fields), and
 * its description. From the table: the reader (every error names the JSON key, the value and what is allowed; a rule
 * between fields, the records' own, is rendered with the JSON keys of the fields it concerns), the writer (the
 * effective configuration, every default filled in), the JSON Schema and the field table of docs/configuration.md.
 */
public final class InstanceConfigJson {
    private InstanceConfigJson() {
    }

    /** The XPU's command interface: SUE's FIFO interface, or AXI4 (docs/protocol.md 13). */
    public enum CommandInterface { FIFO, AXI4 }

    /**
     * What a configuration file holds: the instance, its command interface (with AXI4, the pairs on it), and how to
     * write its HDL.
     *
     * @param axi the AXI4 instance ({@code commandInterface} AXI4; its {@code sue} is {@code instance}), or null for
     *            the FIFO interface
     */
    public record Settings(SueInstance.Config instance, SueAxiInstance.Config axi, HdlLanguage language,
                           ResetStyle reset, boolean management, SueManagedInstance.RawPackets raw) {
        public Settings {
            if (axi != null && !axi.sue().equals(instance)) {
                throw new IllegalArgumentException("Settings: the AXI4 instance must be on the instance given");
            }
            if (management) {
                managed(instance, axi, raw); // the management port's own rules (raw buffer sizes), checked now
            }
        }

        private static SueManagedInstance.Config managed(SueInstance.Config instance, SueAxiInstance.Config axi,
                                                         SueManagedInstance.RawPackets raw) {
            return (axi != null ? new SueManagedInstance.Config(axi) : new SueManagedInstance.Config(instance))
                    .withRaw(raw);
        }

        /** The FIFO instance's settings, behind its management port (docs/management.md). */
        public Settings(SueInstance.Config instance, HdlLanguage language, ResetStyle reset) {
            this(instance, null, language, reset, true, SueManagedInstance.RawPackets.DEFAULT);
        }

        /** The AXI4 instance's settings, behind its management port. */
        public Settings(SueAxiInstance.Config axi, HdlLanguage language, ResetStyle reset) {
            this(axi.sue(), axi, language, reset, true, SueManagedInstance.RawPackets.DEFAULT);
        }

        public static Settings defaults() {
            return new Settings(SueInstance.Config.defaults(), HdlLanguage.VERILOG, ResetStyle.SYNC_HIGH);
        }

        public CommandInterface commandInterface() {
            return axi == null ? CommandInterface.FIFO : CommandInterface.AXI4;
        }

        /**
         * The top level these settings describe: the instance (under its AXI4 pairs with the AXI4 interface) behind
         * its management port, or with every status and setting as a port (management off).
         */
        public Component top() {
            if (!management) {
                return axi != null ? new SueAxiInstance(axi) : new SueInstance(instance);
            }
            return new SueManagedInstance(managed(instance, axi, raw));
        }

        public Settings withOutput(HdlLanguage l, ResetStyle r) {
            return new Settings(instance, axi, l, r, management, raw);
        }

        /** The same with the management port ({@code true}) or every status and setting as a port. */
        public Settings withManagement(boolean on) {
            return new Settings(instance, axi, language, reset, on, raw);
        }

        /** The same with the raw-packet buffers of {@code r}. */
        public Settings withRaw(SueManagedInstance.RawPackets r) {
            return new Settings(instance, axi, language, reset, management, r);
        }
    }

    /** A configuration that cannot be built; the message names the JSON keys and the values. */
    public static final class ConfigError extends Exception {
        public ConfigError(String message) {
            super(message);
        }
    }

    /** What a file has set so far: the instance's builder, the command interface and its AXI4 keys, the output. */
    private static final class Draft {
        final SueInstance.Config.Builder instance = SueInstance.Config.builder();
        boolean commandTypes;
        CommandInterface commandInterface = CommandInterface.FIFO;
        final Axi4 axi4 = new Axi4(null);
        HdlLanguage language = Settings.defaults().language();
        ResetStyle reset = Settings.defaults().reset();
        boolean management = true;
        int rawFrameBytes = SueManagedInstance.RawPackets.DEFAULT.frameBytes();
        int rawRxBufferBytes = SueManagedInstance.RawPackets.DEFAULT.rxBufferBytes();
    }

    /** The keys of section {@code axi4}, as a file sets them; with the instance they make the AXI4 instance. */
    private static final class Axi4 {
        int addrWidth;
        int idWidth;
        int userWidth;
        boolean dstFromUser;
        int dstLsb;
        int maxOutstanding;
        int remapEntries;
        int maxPartsPerEntry;
        int pairs; // 0: one per 400 Gb/s of the port
        int responseTimeoutCycles;
        SueAxiInstance.Form form;
        int[] slaveCredits;
        int[] masterCredits;

        /** The keys of {@code c}; without, the defaults of a pair ({@link AxiConfig#defaults}, 8 remap entries of 4). */
        Axi4(SueAxiInstance.Config c) {
            AxiBridge.Config d = c != null ? c.bridge() : AxiBridge.Config.of(AxiConfig.defaults(256, 2), 1, 1, 1, 1);
            AxiConfig a = d.axi();
            addrWidth = a.addrWidth();
            idWidth = a.idWidth();
            userWidth = a.userWidth();
            dstFromUser = a.dstFromUser();
            dstLsb = a.dstLsb();
            maxOutstanding = a.maxOutstanding();
            remapEntries = d.remapEntries();
            maxPartsPerEntry = d.maxPartsPerEntry();
            pairs = c != null ? d.pairs() : 0;
            responseTimeoutCycles = d.responseTimeoutCycles();
            form = c != null ? c.form() : SueAxiInstance.Form.WRAPPER;
            slaveCredits = credits(c != null ? c.slave() : AxiCredits.defaults());
            masterCredits = credits(c != null ? c.master() : AxiCredits.defaults());
        }

        private static int[] credits(AxiCredits k) {
            return new int[] {k.aw(), k.w(), k.ar(), k.b(), k.r()};
        }

        private static AxiCredits credits(int[] k) {
            return new AxiCredits(k[0], k[1], k[2], k[3], k[4]);
        }

        /** The AXI4 instance on {@code i}: its data width and destinations, its credits as the FIFO interface's. */
        SueAxiInstance.Config instance(SueInstance.Config i) {
            AxiConfig a = new AxiConfig(i.path().dataWidth(), addrWidth, idWidth, userWidth, i.path().destinations(),
                    dstFromUser, dstLsb, maxOutstanding);
            AxiBridge.Config of = SueAxiInstance.Config.bridgeFor(i, a);
            AxiBridge.Config bridge = new AxiBridge.Config(a, remapEntries, maxPartsPerEntry, of.txCmdCredits(),
                    of.txDataCredits(), of.rxCmdCredits(), of.rxDataCredits(), pairs > 0 ? pairs : of.pairs(),
                    responseTimeoutCycles);
            return SueAxiInstance.Config.with(i, bridge, form, credits(slaveCredits), credits(masterCredits));
        }
    }

    /** A JSON value type: how it is read and checked, written, and described in the schema and the docs. */
    private interface Kind<V> {
        V read(String path, JsonNode n) throws ConfigError;

        JsonNode write(V v);

        void schema(ObjectNode property);

        String values();
    }

    /** An integer within a record's bound. */
    private record Int(Bound bound) implements Kind<Integer> {
        public Integer read(String path, JsonNode n) throws ConfigError {
            if (!n.isIntegralNumber()) {
                throw new ConfigError(path + ": " + n + " is not an integer");
            }
            return checked(path, n, bound);
        }

        public JsonNode write(Integer v) {
            return IntNode.valueOf(v);
        }

        public void schema(ObjectNode p) {
            p.put("type", "integer");
            boundSchema(p, bound);
        }

        public String values() {
            return bound.explained();
        }
    }

    /** A fixed number of integers, each within a bound. */
    private record Ints(int count, Bound bound) implements Kind<int[]> {
        public int[] read(String path, JsonNode n) throws ConfigError {
            if (!n.isArray() || n.size() != count) {
                throw new ConfigError(path + ": " + n + " is not an array of " + count + " integers, each "
                        + bound.text());
            }
            int[] items = new int[count];
            for (int i = 0; i < count; i++) {
                if (!n.get(i).isIntegralNumber()) {
                    throw new ConfigError(path + "[" + i + "]: " + n.get(i) + " is not an integer");
                }
                items[i] = checked(path + "[" + i + "]", n.get(i), bound);
            }
            return items;
        }

        public JsonNode write(int[] v) {
            ArrayNode a = JSON.createArrayNode();
            Arrays.stream(v).forEach(a::add);
            return a;
        }

        public void schema(ObjectNode p) {
            p.put("type", "array").put("minItems", count).put("maxItems", count);
            boundSchema(p.putObject("items").put("type", "integer"), bound);
        }

        public String values() {
            return count + " x " + bound.text();
        }
    }

    private record Bool() implements Kind<Boolean> {
        public Boolean read(String path, JsonNode n) throws ConfigError {
            if (!n.isBoolean()) {
                throw new ConfigError(path + ": " + n + " is not true or false");
            }
            return n.asBoolean();
        }

        public JsonNode write(Boolean v) {
            return JSON.getNodeFactory().booleanNode(v);
        }

        public void schema(ObjectNode p) {
            p.put("type", "boolean");
        }

        public String values() {
            return "true, false";
        }
    }

    /** One of an enum's constants, by name. */
    private record Choice<E extends Enum<E>>(Class<E> type) implements Kind<E> {
        public E read(String path, JsonNode n) throws ConfigError {
            if (!n.isTextual() || !names().contains(n.asText())) {
                throw new ConfigError(path + ": " + n + " is not one of " + names());
            }
            return Enum.valueOf(type, n.asText());
        }

        public JsonNode write(E v) {
            return JSON.getNodeFactory().textNode(v.name());
        }

        public void schema(ObjectNode p) {
            p.put("type", "string");
            names().forEach(p.putArray("enum")::add);
        }

        public String values() {
            return names().stream().map(v -> "`" + v + "`").collect(Collectors.joining(", "));
        }

        private List<String> names() {
            return Arrays.stream(type.getEnumConstants()).map(Enum::name).toList();
        }
    }

    /**
     * One key of the file: section and key, its values, the record parameter it sets (its path from the instance,
     * {@code transport.windowPdus}; null for the output section), what it means, where its value is in a
     * configuration and how a file sets it.
     */
    private record Field<V>(String section, String key, Kind<V> kind, String record, String description,
                            Function<Settings, V> get, BiConsumer<Draft, V> set) {
        String path() {
            return section.isEmpty() ? key : section + "." + key;
        }

        /** This key's node in a file, or null. */
        JsonNode in(JsonNode root) {
            return section.isEmpty() ? root.get(key) : root.path(section).get(key);
        }
    }

    private static Field<Integer> integer(String section, String key, Bound bound, String record, String description,
                                          Function<Settings, Integer> get, BiConsumer<Draft, Integer> set) {
        return new Field<>(section, key, new Int(bound), record, description, get, set);
    }

    private static Field<int[]> integers(String section, String key, int count, Bound bound, String record,
                                         String description, Function<Settings, int[]> get,
                                         BiConsumer<Draft, int[]> set) {
        return new Field<>(section, key, new Ints(count, bound), record, description, get, set);
    }

    private static Field<Boolean> bool(String section, String key, String record, String description,
                                       Function<Settings, Boolean> get, BiConsumer<Draft, Boolean> set) {
        return new Field<>(section, key, new Bool(), record, description, get, set);
    }

    private static <E extends Enum<E>> Field<E> choice(String section, String key, Class<E> type, String record,
                                                       String description, Function<Settings, E> get,
                                                       BiConsumer<Draft, E> set) {
        return new Field<>(section, key, new Choice<>(type), record, description, get, set);
    }

    private static final List<Field<?>> FIELDS = List.of(
            integer("commandPath", "xpuDataWidth", CommandIngress.Config.DATA_WIDTH, "path.dataWidth",
                    "tx_data/rx_data width N in bits; the command path's bus is 2N", c -> path(c).dataWidth(),
                    (d, v) -> d.instance.path(p -> p.dataWidth(v))),
            integer("commandPath", "destinations", SueMeta.DESTINATIONS, "path.destinations", "remote XPUs",
                    c -> path(c).destinations(), (d, v) -> d.instance.path(p -> p.destinations(v))),
            integer("commandPath", "cells", PackingBuffer.Config.CELLS, "path.cells", "packing buffer cells of 2N bits;"
                    + " at least what the credits of all VCs can fill", c -> path(c).cells(),
                    (d, v) -> d.instance.path(p -> p.cells(v))),
            integer("commandPath", "pduLimit", PackingBuffer.Config.PDU_LIMIT, "path.pduLimit", "largest packed"
                    + " command list per PDU, bytes; at least the largest command (274 bytes) and a cell",
                    c -> path(c).pduLimit(), (d, v) -> d.instance.path(p -> p.pduLimit(v))),
            integer("commandPath", "xoffThreshold", PackingBuffer.Config.XOFF_THRESHOLD, "path.xoffThreshold",
                    "queued commands of a destination that raise xoff; at most cells", c -> path(c).xoffThreshold(),
                    (d, v) -> d.instance.path(p -> p.xoffThreshold(v))),
            integer("commandPath", "xonThreshold", PackingBuffer.Config.XON_THRESHOLD, "path.xonThreshold",
                    "queued commands at which xoff falls again; below xoffThreshold", c -> path(c).xonThreshold(),
                    (d, v) -> d.instance.path(p -> p.xonThreshold(v))),
            integer("commandPath", "commandCredits", CommandIngress.Config.CMD_CREDITS, "path.cmdCredits",
                    "command credits per VC the XPU holds", c -> path(c).cmdCredits(),
                    (d, v) -> d.instance.path(p -> p.cmdCredits(v))),
            integer("commandPath", "dataCredits", CommandIngress.Config.DATA_CREDITS, "path.dataCredits",
                    "data credits per VC (256 bytes each); at most commandCredits", c -> path(c).dataCredits(),
                    (d, v) -> d.instance.path(p -> p.dataCredits(v))),
            choice("network", "format", HeaderFormat.class, "net.format", "network headers",
                    c -> net(c).format(), (d, v) -> d.instance.net(n -> n.format(v))),
            bool("network", "vlan", "net.vlan", "insert an 802.1Q tag", c -> net(c).vlan(),
                    (d, v) -> d.instance.net(n -> n.vlan(v))),
            integers("network", "pcpOfVc", SueMeta.VCS, NetConfig.PCP, "net.pcpOfVc", "802.1Q priority of VC 0..3",
                    c -> net(c).pcpOfVc(), (d, v) -> d.instance.net(n -> n.pcpOfVc(v))),
            integer("network", "udpDstPort", NetConfig.UDP_PORT, "net.udpDstPort", "UDP destination port (not 4791"
                    + " or 4793)", c -> net(c).udpDstPort(), (d, v) -> d.instance.net(n -> n.udpDstPort(v))),
            integer("network", "afhGen1EtherType", NetConfig.ETHER_TYPE, "net.afhGen1EtherType", "AFH Gen1 EtherType",
                    c -> net(c).afhGen1EtherType(), (d, v) -> d.instance.net(n -> n.afhGen1EtherType(v))),
            integer("network", "afhGen1SecondEtherType", NetConfig.ETHER_TYPE.orZero(), "net.afhGen1SecondEtherType",
                    "0 or a second EtherType after the first", c -> net(c).afhGen1SecondEtherType(),
                    (d, v) -> d.instance.net(n -> n.afhGen1SecondEtherType(v))),
            bool("network", "afhGen1Shim", "net.afhGen1Shim", "add the 8-byte AFH Gen1 shim",
                    c -> net(c).afhGen1Shim(), (d, v) -> d.instance.net(n -> n.afhGen1Shim(v))),
            integer("network", "afhGen2EtherType", NetConfig.ETHER_TYPE, "net.afhGen2EtherType", "AFH Gen2 EtherType",
                    c -> net(c).afhGen2EtherType(), (d, v) -> d.instance.net(n -> n.afhGen2EtherType(v))),
            integer("network", "ipTtl", NetConfig.IP_TTL, "net.ipTtl", "IPv4 TTL / IPv6 hop limit",
                    c -> net(c).ipTtl(), (d, v) -> d.instance.net(n -> n.ipTtl(v))),
            integer("network", "maxPdu", NetConfig.MAX_PDU, "net.maxPdu", "largest PDU accepted, bytes",
                    c -> net(c).maxPdu(), (d, v) -> d.instance.net(n -> n.maxPdu(v))),
            integer("network", "rhVersion", NetConfig.RH_VERSION, "net.rhVersion", "RH version sent and accepted",
                    c -> net(c).rhVersion(), (d, v) -> d.instance.net(n -> n.rhVersion(v))),
            bool("network", "udpZeroChecksum", "net.udpZeroChecksum", "IPv6: send and accept UDP checksum 0 (RFC"
                    + " 6935/6936 zero-checksum mode, both ends); otherwise it is computed",
                    c -> net(c).udpZeroChecksum(), (d, v) -> d.instance.net(n -> n.udpZeroChecksum(v))),
            integer("transport", "busWidth", SueInstance.Config.BUS_WIDTH, "transport.busWidth", "bits of the"
                    + " transport's bus, with one port the port's too (framing, link layer, MAC): xpuDataWidth, the"
                    + " port at the XPU interface's rate (default), or twice it", c -> transport(c).busWidth(), (d, v) -> d.instance.busWidth(v)),
            integer("transport", "ports", TransportConfig.PORTS, "transport.ports", "SUE ports, each on a bus of"
                    + " busWidth / ports bits with its own framing, LLR and flow control (2 or 4;"
                    + " port i's registers in block port<i>)", c -> transport(c).ports(), (d, v) -> d.instance.transport(t -> t.ports(v))),
            choice("transport", "ordering", SueInstance.Config.Ordering.class, "ordering", "with more than one port:"
                    + " STRICT, each {destination, VC} on its pinned port, in order; UNORDERED, each PDU on the port"
                    + " chosen when it is picked, delivered as it arrives (FIFO commandInterface only)",
                    c -> c.instance().ordering(), (d, v) -> d.instance.ordering(v)),
            integer("transport", "storeBytes", TransportConfig.STORE_BYTES, "transport.storeBytes", "retransmit store"
                    + " per port, bytes; at most 2^20 bus beats", c -> transport(c).storeBytes(),
                    (d, v) -> d.instance.transport(t -> t.storeBytes(v))),
            integer("transport", "windowPdus", TransportConfig.WINDOW_PDUS, "transport.windowPdus", "unacknowledged"
                    + " PDUs per connection", c -> transport(c).windowPdus(),
                    (d, v) -> d.instance.transport(t -> t.windowPdus(v))),
            integer("transport", "rtoCycles", TransportConfig.RTO_CYCLES, "transport.rtoCycles", "retransmit timeout,"
                    + " cycles; at least 2 x ports x destinations", c -> transport(c).rtoCycles(),
                    (d, v) -> d.instance.transport(t -> t.rtoCycles(v))),
            integer("transport", "ackDelay", TransportConfig.ACK_DELAY, "transport.ackDelay", "cycles an owed ACK"
                    + " waits before an ACK-only PDU; below rtoCycles", c -> transport(c).ackDelay(),
                    (d, v) -> d.instance.transport(t -> t.ackDelay(v))),
            integer("transport", "ackCount", TransportConfig.ACK_COUNT, "transport.ackCount", "accepted PDUs that send"
                    + " the owed ACK at once; at most windowPdus / 2", c -> transport(c).ackCount(),
                    (d, v) -> d.instance.transport(t -> t.ackCount(v))),
            integer("transport", "opAck", TransportConfig.OP_CODE, "transport.opAck", "RH op code of an ACK",
                    c -> transport(c).opAck(), (d, v) -> d.instance.transport(t -> t.opAck(v))),
            integer("transport", "opNack", TransportConfig.OP_CODE, "transport.opNack", "RH op code of a NACK; not"
                    + " opAck", c -> transport(c).opNack(), (d, v) -> d.instance.transport(t -> t.opNack(v))),
            integer("transport", "unreachableTimeouts", TransportConfig.UNREACHABLE_TIMEOUTS,
                    "transport.unreachableTimeouts", "timeouts in a row without an advancing ACK that declare a"
                    + " destination unreachable (default " + TransportConfig.DEFAULT_UNREACHABLE_TIMEOUTS + ")",
                    c -> transport(c).unreachableTimeouts(),
                    (d, v) -> d.instance.transport(t -> t.unreachableTimeouts(v))),
            integer("transport", "probeCycles", TransportConfig.PROBE_CYCLES, "transport.probeCycles", "cycles"
                    + " without progress before an unreachable destination is probed again with one PDU, and with"
                    + " more ports the interval at which detoured connections try their own port again; at least"
                    + " rtoCycles (default " + TransportConfig.DEFAULT_PROBE_RTOS + " x rtoCycles)",
                    c -> transport(c).probeCycles(), (d, v) -> d.instance.transport(t -> t.probeCycles(v))),
            integer("receive", "commandCredits", CommandIngress.Config.CMD_CREDITS, "rxCmdCredits", "command credits"
                    + " per VC the receiving XPU grants", c -> c.instance().rxCmdCredits(),
                    (d, v) -> d.instance.rxCmdCredits(v)),
            integer("receive", "dataCredits", CommandIngress.Config.DATA_CREDITS, "rxDataCredits", "data credits per"
                    + " VC the receiving XPU grants", c -> c.instance().rxDataCredits(),
                    (d, v) -> d.instance.rxDataCredits(v)),
            integer("receive", "fifoDepth", FrameReceiver.Config.FIFO_DEPTH, "rxFifoDepth", "beats of the framing"
                    + " receiver's packet FIFO, which the VCs share; at least a PDU (pduLimit bytes)",
                    c -> c.instance().rxFifoDepth(), (d, v) -> d.instance.rxFifoDepth(v)),
            integer("receive", "vcFifoDepth", CommandUnpacker.Config.VC_BUFFER_DEPTH, "rxVcFifoDepth", "beats of each"
                    + " VC's receive FIFO behind the transport, so that a VC whose XPU holds back credit does not stop"
                    + " the others (0: none, PDUs unpacked in arrival order); default: with CBFC what a VC's credits"
                    + " cover, with PFC 0 (docs/protocol.md 9.4), without flow control 256",
                    c -> c.instance().rxVcFifoDepth(), (d, v) -> d.instance.rxVcFifoDepth(v)),
            bool("linkLayer", "llr", "llr", "Link Layer Retry between the framing and the MAC (LLR sideband and"
                    + " control channel on the MAC interface)", c -> c.instance().llr() != null,
                    (d, v) -> d.instance.llr(v)),
            integer("linkLayer", "outstandingFramesMax", LlrConfig.OUTSTANDING_FRAMES_MAX, "llr.outstandingFramesMax",
                    "LLR: unacknowledged frames at which new frames wait", c -> llr(c).outstandingFramesMax(),
                    (d, v) -> d.instance.llr(l -> l.outstandingFramesMax(v))),
            integer("linkLayer", "outstandingBytesMax", LlrConfig.OUTSTANDING_BYTES_MAX, "llr.outstandingBytesMax",
                    "LLR: unacknowledged bytes at which new frames wait (whole bus beats); at least maxFrameBytes",
                    c -> llr(c).outstandingBytesMax(), (d, v) -> d.instance.llr(l -> l.outstandingBytesMax(v))),
            integer("linkLayer", "maxFrameBytes", LlrConfig.MAX_FRAME_BYTES, "llr.maxFrameBytes", "LLR: largest"
                    + " frame, sizes the replay buffer; at least the instance's largest frame",
                    c -> llr(c).maxFrameBytes(), (d, v) -> d.instance.llr(l -> l.maxFrameBytes(v))),
            integer("linkLayer", "replayTimerCycles", LlrConfig.REPLAY_TIMER_CYCLES, "llr.replayTimerCycles", "LLR:"
                    + " cycles without an advancing ACK before a replay of the whole buffer",
                    c -> llr(c).replayTimerCycles(), (d, v) -> d.instance.llr(l -> l.replayTimerCycles(v))),
            integer("linkLayer", "replayCountMax", LlrConfig.REPLAY_COUNT_MAX, "llr.replayCountMax", "LLR: timer"
                    + " replays in a row before FLUSH", c -> llr(c).replayCountMax(),
                    (d, v) -> d.instance.llr(l -> l.replayCountMax(v))),
            integer("linkLayer", "pcsLostTimeoutCycles", LlrConfig.PCS_LOST_TIMEOUT_CYCLES, "llr.pcsLostTimeoutCycles",
                    "LLR: cycles link_up may be low before FLUSH", c -> llr(c).pcsLostTimeoutCycles(),
                    (d, v) -> d.instance.llr(l -> l.pcsLostTimeoutCycles(v))),
            integer("linkLayer", "dataAgeTimeoutCycles", LlrConfig.DATA_AGE_TIMEOUT_CYCLES,
                    "llr.dataAgeTimeoutCycles", "LLR: cycles a frame may wait for its ACK before FLUSH; at least"
                    + " replayTimerCycles (default 100,000, or the replay timer if longer)",
                    c -> llr(c).dataAgeTimeoutCycles(), (d, v) -> d.instance.llr(l -> l.dataAgeTimeoutCycles(v))),
            choice("linkLayer", "initFrameAction", FrameAction.class, "llr.initFrameAction", "LLR: frames during INIT",
                    c -> llr(c).initFrameAction(), (d, v) -> d.instance.llr(l -> l.initFrameAction(v))),
            choice("linkLayer", "flushFrameAction", FrameAction.class, "llr.flushFrameAction", "LLR: frames during"
                    + " FLUSH", c -> llr(c).flushFrameAction(), (d, v) -> d.instance.llr(l -> l.flushFrameAction(v))),
            bool("linkLayer", "reInitOnFlush", "llr.reInitOnFlush", "LLR: from FLUSH straight to INIT, its INIT sent"
                    + " once link_up is high (else wait for llr_enable low)", c -> llr(c).reInitOnFlush(),
                    (d, v) -> d.instance.llr(l -> l.reInitOnFlush(v))),
            integer("linkLayer", "ctlosSpacingBytes", LlrConfig.CTLOS_SPACING_BYTES, "llr.ctlosSpacingBytes", "LLR"
                    + " receive: an ACK at least every this many bytes", c -> llr(c).ctlosSpacingBytes(),
                    (d, v) -> d.instance.llr(l -> l.ctlosSpacingBytes(v))),
            integer("linkLayer", "ackIdleCycles", LlrConfig.ACK_IDLE_CYCLES, "llr.ackIdleCycles", "LLR receive: an"
                    + " owed ACK also leaves after this many cycles without a frame; below replayTimerCycles (default"
                    + " 256, or just below the replay timer if that is shorter)", c -> llr(c).ackIdleCycles(),
                    (d, v) -> d.instance.llr(l -> l.ackIdleCycles(v))),
            integer("linkLayer", "initRetryCycles", LlrConfig.INIT_RETRY_CYCLES, "llr.initRetryCycles", "LLR transmit:"
                    + " INIT again after this many cycles without INIT_ECHO", c -> llr(c).initRetryCycles(),
                    (d, v) -> d.instance.llr(l -> l.initRetryCycles(v))),
            integers("linkLayer", "controlCodes", 5, LinkControl.Codes.CODE, "llr.codes", "control message types ACK,"
                    + " NACK, INIT, INIT_ECHO, CF_Update (LLR and CBFC share the control channel); all different",
                    c -> codes(llr(c).codes()),
                    (d, v) -> d.instance.controlCodes(new LinkControl.Codes(v[0], v[1], v[2], v[3], v[4]))),
            choice("flowControl", "mode", FlowControl.class, null, "link-level flow control of the port: none, PFC"
                    + " (IEEE 802.1Qbb) or CBFC (UEC credits; every VC lossless; CF_Update on the control channel,"
                    + " code from linkLayer.controlCodes)", c -> c.instance().pfc() != null ? FlowControl.PFC
                    : c.instance().cbfc() != null ? FlowControl.CBFC : FlowControl.NONE,
                    (d, v) -> d.instance.flowControl(v)),
            integers("flowControl", "pfcPriorityOfVc", SueMeta.VCS, PfcConfig.PRIORITY, "pfc.vcClasses", "PFC: the"
                    + " priority (class) of VC 0..3 in the frames sent and obeyed", c -> priorities(pfc(c)),
                    (d, v) -> d.instance.pfc(p -> p.vcClasses(PfcConfig.classes(v)))),
            integer("flowControl", "pfcBitsPerCycle", PfcConfig.BITS_PER_CYCLE, "pfc.bitsPerCycle", "PFC: line bits"
                    + " per cycle (a pause quantum is 512 bit times); default the bus width",
                    c -> pfc(c).bitsPerCycle(), (d, v) -> d.instance.pfc(p -> p.bitsPerCycle(v))),
            integer("flowControl", "pfcPauseQuanta", PfcConfig.PAUSE_QUANTA, "pfc.pauseQuanta", "PFC: pause time sent"
                    + " for a class that is off", c -> pfc(c).pauseQuanta(),
                    (d, v) -> d.instance.pfc(p -> p.pauseQuanta(v))),
            integer("flowControl", "pfcRefreshCycles", PfcConfig.REFRESH_CYCLES, "pfc.refreshCycles", "PFC: a pause"
                    + " is sent again after this many cycles, below the pause time (default: half of a pause of 65535"
                    + " quanta at the bus width, or half the pause time when the pause is not longer than that)",
                    c -> pfc(c).refreshCycles(), (d, v) -> d.instance.pfc(p -> p.refreshCycles(v))),
            integer("flowControl", "pfcXoffBytes", PfcConfig.XOFF_BYTES, "pfc.xoffBytes", "PFC: a VC's receive FIFO"
                    + " level that pauses its class; 4 x this below the receive FIFO, leaving headroom (default"
                    + " 16384, at most an eighth of the receive FIFO)", c -> pfc(c).xoffBytes(),
                    (d, v) -> d.instance.pfc(p -> p.xoffBytes(v))),
            integer("flowControl", "pfcXonBytes", PfcConfig.XON_BYTES, "pfc.xonBytes", "PFC: a class resumes when all"
                    + " its VCs' levels are at or below this; below pfcXoffBytes (default 8192, or half of"
                    + " pfcXoffBytes when that is at most 8192)", c -> pfc(c).xonBytes(),
                    (d, v) -> d.instance.pfc(p -> p.xonBytes(v))),
            integer("flowControl", "pfcSharedXoffBytes", PfcConfig.SHARED_XOFF_BYTES, "pfc.sharedXoffBytes", "PFC:"
                    + " every class pauses while the VCs' receive levels together are at or above this, until they are"
                    + " at or below half of it; 0: none (default: the receive FIFO less the headroom of a link of "
                    + PfcConfig.DEFAULT_LINK_DELAY_CYCLES + " cycles each way, docs/protocol.md 9.4)",
                    c -> pfc(c).sharedXoffBytes(), (d, v) -> d.instance.pfc(p -> p.sharedXoffBytes(v))),
            integer("flowControl", "cbfcCreditSize", CbfcConfig.CREDIT_SIZE, "cbfc.creditSize", "CBFC: bytes per"
                    + " credit, at least a bus beat (default 128, or a bus beat if larger)",
                    c -> cbfc(c).creditSize(), (d, v) -> d.instance.cbfc(f -> f.creditSize(v))),
            integer("flowControl", "cbfcPacketOverhead", CbfcConfig.PACKET_OVERHEAD, "cbfc.packetOverhead", "CBFC:"
                    + " bytes added to a frame's size before it is counted in credits", c -> cbfc(c).packetOverhead(),
                    (d, v) -> d.instance.cbfc(f -> f.packetOverhead(v))),
            integer("flowControl", "cbfcVcCreditLimit", CbfcConfig.CREDIT_LIMIT, "cbfc.vcCreditLimit", "CBFC: credits"
                    + " a VC may have in use (default: the port's limit, at most 256)", c -> cbfc(c).vcCreditLimit(),
                    (d, v) -> d.instance.cbfc(f -> f.vcCreditLimit(v))),
            integer("flowControl", "cbfcPortCreditLimit", CbfcConfig.CREDIT_LIMIT, "cbfc.portCreditLimit", "CBFC:"
                    + " credits the port may have in use; x cbfcCreditSize at most the receive FIFO (default: what"
                    + " the FIFO holds, at most 1024)", c -> cbfc(c).portCreditLimit(),
                    (d, v) -> d.instance.cbfc(f -> f.portCreditLimit(v))),
            integer("flowControl", "cbfcMaxFrameBytes", CbfcConfig.MAX_FRAME_BYTES, "cbfc.maxFrameBytes", "CBFC:"
                    + " largest frame, reserved per PDU decided; at least the instance's largest frame (default: that"
                    + " frame in whole credits)", c -> cbfc(c).maxFrameBytes(),
                    (d, v) -> d.instance.cbfc(f -> f.maxFrameBytes(v))),
            integer("flowControl", "cbfcCcTimerCycles", CbfcConfig.CC_TIMER_CYCLES, "cbfc.ccTimerCycles", "CBFC:"
                    + " cycles between CC_Update frames", c -> cbfc(c).ccTimerCycles(),
                    (d, v) -> d.instance.cbfc(f -> f.ccTimerCycles(v))),
            integer("flowControl", "cbfcCfMinSpacingBytes", CbfcConfig.CF_MIN_SPACING_BYTES, "cbfc.cfMinSpacingBytes",
                    "CBFC: link time (bytes) a VC's CF_Updates are at least apart", c -> cbfc(c).cfMinSpacingBytes(),
                    (d, v) -> d.instance.cbfc(f -> f.cfMinSpacingBytes(v))),
            integer("flowControl", "cbfcCfMaxSpacingBytes", CbfcConfig.CF_MAX_SPACING_BYTES, "cbfc.cfMaxSpacingBytes",
                    "CBFC: link time (bytes) after which a VC's CF_Update is sent again; at least"
                    + " cbfcCfMinSpacingBytes", c -> cbfc(c).cfMaxSpacingBytes(),
                    (d, v) -> d.instance.cbfc(f -> f.cfMaxSpacingBytes(v))),
            choice("", "commandInterface", CommandInterface.class, null, "the XPU's command interface: SUE's FIFO"
                    + " interface, or an AXI4 slave and master (section axi4; the command types are the AXI4 form's,"
                    + " so commandTypes is left out)", Settings::commandInterface, (d, v) -> d.commandInterface = v),
            integer("axi4", "addressWidth", AxiConfig.ADDR_WIDTH, "addrWidth", "AXI4: AxADDR bits",
                    c -> axi4(c).addrWidth, (d, v) -> d.axi4.addrWidth = v),
            integer("axi4", "idWidth", AxiConfig.ID_WIDTH, "idWidth", "AXI4: AxID bits of the slave (an outstanding"
                    + " count per ID and direction)", c -> axi4(c).idWidth, (d, v) -> d.axi4.idWidth = v),
            integer("axi4", "userWidth", AxiConfig.USER_WIDTH, "userWidth", "AXI4: AxUSER bits, carried to the far"
                    + " side (0: none)", c -> axi4(c).userWidth, (d, v) -> d.axi4.userWidth = v),
            bool("axi4", "destinationFromUser", "dstFromUser", "AXI4: the destination XPU is AxUSER[9:0] (else"
                    + " AxADDR bits from destinationLsb)", c -> axi4(c).dstFromUser,
                    (d, v) -> d.axi4.dstFromUser = v),
            integer("axi4", "destinationLsb", Bound.of(0, AxiConfig.ADDR_WIDTH.max() - SueMeta.XPU_WIDTH), "dstLsb",
                    "AXI4: the address bit where the destination XPU's 10 bits start",
                    c -> axi4(c).dstLsb, (d, v) -> d.axi4.dstLsb = v),
            integer("axi4", "maxOutstanding", AxiConfig.MAX_OUTSTANDING, "maxOutstanding", "AXI4: transactions one"
                    + " ID may have outstanding in one direction", c -> axi4(c).maxOutstanding,
                    (d, v) -> d.axi4.maxOutstanding = v),
            integer("axi4", "remapEntries", AxiRemoteMaster.Config.REMAP_ENTRIES, "remapEntries", "AXI4: the master's"
                    + " ID remap entries per direction (its AxID is log2 of it)", c -> axi4(c).remapEntries,
                    (d, v) -> d.axi4.remapEntries = v),
            integer("axi4", "maxPartsPerEntry", AxiRemoteMaster.Config.MAX_PARTS, "maxPartsPerEntry", "AXI4: parts"
                    + " (bursts of up to 256 bytes) one remap entry may have outstanding at the SoC's slave",
                    c -> axi4(c).maxPartsPerEntry, (d, v) -> d.axi4.maxPartsPerEntry = v),
            integer("axi4", "pairs", AxiBridge.Config.PAIRS, "pairs", "AXI4: slave/master pairs on the instance,"
                    + " sharing its command path (ports s<p>_*, m<p>_* when more than one; idWidth + log2(pairs) at"
                    + " most 8); default one per 400 Gb/s of the port: transport.busWidth / 512, at least 1",
                    c -> c.axi() != null ? c.axi().bridge().pairs() : SueAxiInstance.Config.defaultPairs(
                    c.instance()), (d, v) -> d.axi4.pairs = v),
            integer("axi4", "responseTimeoutCycles", AxiRequestPacker.Config.RESPONSE_TIMEOUT,
                    "responseTimeoutCycles", "AXI4: an ID with transactions outstanding none of which completed for"
                    + " this many cycles (to half as many again) is answered SLVERR as if the transport had given up"
                    + " on their destination; 0: never", c -> axi4(c).responseTimeoutCycles,
                    (d, v) -> d.axi4.responseTimeoutCycles = v),
            choice("axi4", "form", SueAxiInstance.Form.class, "form", "AXI4: how the pairs meet the SoC: WRAPPER"
                    + " (standard valid/ready AXI4 through the credit loops, closed inside), CREDITS (the spec's"
                    + " credit form: valid and payload, a credit port per channel), DIRECT (valid/ready straight in,"
                    + " no loops)", c -> axi4(c).form, (d, v) -> d.axi4.form = v),
            integers("axi4", "slaveCredits", 5, CreditReceiver.CREDITS, "slave", "AXI4 credit forms: credits of the"
                    + " slave's AW, W, AR, B, R", c -> axi4(c).slaveCredits, (d, v) -> d.axi4.slaveCredits = v),
            integers("axi4", "masterCredits", 5, CreditReceiver.CREDITS, "master", "AXI4 credit forms: credits of"
                    + " the master's AW, W, AR, B, R", c -> axi4(c).masterCredits,
                    (d, v) -> d.axi4.masterCredits = v),
            choice("output", "language", HdlLanguage.class, null, "HDL written (--vhdl overrides)",
                    Settings::language, (d, v) -> d.language = v),
            choice("output", "reset", ResetStyle.class, null, "reset style of every register (--reset overrides)",
                    Settings::reset, (d, v) -> d.reset = v),
            bool("output", "management", null, "the top behind an AXI4-Lite management port, every status and setting"
                    + " a register (docs/management.md); false: each a port of the top (for debugging)",
                    Settings::management, (d, v) -> d.management = v),
            integer("management", "rawFrameBytes", Bound.of(60, 16380), "frameBytes", "raw packets: the largest frame"
                    + " software sends or receives, bytes without the FCS (docs/management.md)",
                    c -> c.raw().frameBytes(), (d, v) -> d.rawFrameBytes = v),
            integer("management", "rawRxBufferBytes", Bound.powerOfTwo(2048, 1 << 20), "bufferBytes", "raw packets:"
                    + " bytes of the receive buffer, whole frames with their FCS", c -> c.raw().rxBufferBytes(),
                    (d, v) -> d.rawRxBufferBytes = v));

    /** The file's sections in order; "" stands for the keys at the top ({@code commandInterface}). */
    private static final List<String> SECTIONS = List.of("commandPath", "commandTypes", "network", "transport",
            "receive", "linkLayer", "flowControl", "", "axi4", "output", "management");

    /** Record parameters that no key sets, because they follow one: the key a rule about them names. */
    private static final Map<String, String> FOLLOWING = Map.of(
            "llr.dataWidth", "transport.busWidth", "pfc.dataWidth", "transport.busWidth",
            "cbfc.dataWidth", "transport.busWidth", "transport.destinations", "commandPath.destinations",
            "cbfc.codes", "linkLayer.controlCodes", "path.table", "commandTypes", "pfc", "flowControl.mode",
            "cbfc", "flowControl.mode", "axi.idWidth", "axi4.idWidth");

    /** The AXI4 pair's keys: the instance's, or the defaults under a FIFO interface. */
    private static Axi4 axi4(Settings c) {
        return new Axi4(c.axi());
    }

    private static CommandPath.Config path(Settings c) {
        return c.instance().path();
    }

    private static NetConfig net(Settings c) {
        return c.instance().net();
    }

    private static TransportConfig transport(Settings c) {
        return c.instance().transport();
    }

    /** The instance's LLR parameters, or what turning it on gives (the defaults for its bus). */
    private static LlrConfig llr(Settings c) {
        return c.instance().llr() != null ? c.instance().llr() : LlrConfig.defaults(c.instance().busWidth());
    }

    /** The instance's PFC parameters, or what PFC mode gives it (for its bus and receive FIFO). */
    private static PfcConfig pfc(Settings c) {
        SueInstance.Config i = c.instance();
        return i.pfc() != null ? i.pfc() : PfcConfig.builder().build(i.busWidth(), i.rxFifoBytes(),
                SueInstance.pfcHeadroomBytes(i.busWidth(), i.largestFrame(), PfcConfig.DEFAULT_LINK_DELAY_CYCLES));
    }

    /** The instance's CBFC parameters, or what CBFC mode gives it (for its bus, receive FIFO and largest frame). */
    private static CbfcConfig cbfc(Settings c) {
        SueInstance.Config i = c.instance();
        return i.cbfc() != null ? i.cbfc() : CbfcConfig.builder().build(i.busWidth(), i.rxFifoBytes(),
                i.largestFrame());
    }

    private static int[] priorities(PfcConfig p) {
        return IntStream.range(0, SueMeta.VCS).map(p::classOf).toArray();
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
            throw new ConfigError("not JSON: " + e.getOriginalMessage() + " (line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ")");
        } catch (NoSuchFileException e) {
            throw new ConfigError("no such file");
        } catch (FileSystemException e) { // its message starts with the file's name, which the caller gives
            throw new ConfigError("cannot read: " + (e.getReason() != null ? e.getReason()
                    : e.getClass().getSimpleName()));
        } catch (IOException e) {
            throw new ConfigError("cannot read: " + e.getMessage());
        }
        return fromJson(root);
    }

    /** Builds the configuration from a parsed document. */
    public static Settings fromJson(JsonNode root) throws ConfigError {
        if (root == null || !root.isObject()) {
            throw new ConfigError("the configuration must be a JSON object");
        }
        onlyKnownKeys(root, "", topKeys());
        Draft d = new Draft();
        for (String s : SECTIONS) {
            JsonNode n = s.isEmpty() ? null : root.get(s);
            if (n != null && s.equals("commandTypes")) {
                CommandTable table = commandTypes(n);
                d.instance.path(p -> p.table(table));
                d.commandTypes = true;
            } else if (n != null && !n.isObject()) {
                throw new ConfigError(s + ": must be an object, got " + n);
            } else if (n != null) {
                onlyKnownKeys(n, s + ".", FIELDS.stream().filter(f -> f.section().equals(s)).map(Field::key).toList());
            }
        }
        for (Field<?> f : FIELDS) {
            JsonNode n = f.in(root);
            if (n != null) {
                set(f, d, n);
            }
        }
        boolean axi = d.commandInterface == CommandInterface.AXI4;
        if (axi && d.commandTypes) {
            throw new ConfigError("commandTypes: with commandInterface AXI4 the command types are the AXI4 form's"
                    + " (docs/protocol.md 13.2); leave commandTypes out");
        }
        if (!axi && root.has("axi4")) {
            throw new ConfigError("axi4: only with commandInterface AXI4 (the XPU's interface is "
                    + d.commandInterface + ")");
        }
        try {
            SueInstance.Config instance = d.instance.build();
            SueAxiInstance.Config axiInstance = axi ? d.axi4.instance(instance) : null; // its own command table
            // the management port's rules apply only with it
            return new Settings(axi ? axiInstance.sue() : instance, axiInstance, d.language, d.reset, d.management,
                    new SueManagedInstance.RawPackets(d.rawFrameBytes, d.rawRxBufferBytes));
        } catch (ConfigException e) {
            throw new ConfigError(e.rule(InstanceConfigJson::key));
        } catch (IllegalArgumentException e) { // a check that does not name its parameters: the record's words
            throw new ConfigError(e.getMessage());
        }
    }

    /** The keys a file may have at its top: the sections and the keys of section "". */
    private static List<String> topKeys() {
        List<String> keys = new java.util.ArrayList<>(SECTIONS.stream().filter(s -> !s.isEmpty()).toList());
        FIELDS.stream().filter(f -> f.section().isEmpty()).forEach(f -> keys.add(f.key()));
        return keys;
    }

    private static <V> void set(Field<V> f, Draft d, JsonNode n) throws ConfigError {
        V v = f.kind().read(f.path(), n);
        try {
            f.set().accept(d, v);
        } catch (IllegalArgumentException e) { // a value that is only checked as it is set (control codes)
            throw new ConfigError(f.path() + ": " + e.getMessage());
        }
    }

    /** The JSON key of a record parameter (its path from the instance), as a user wrote it. */
    private static String key(String record) {
        return FIELDS.stream().filter(f -> record.equals(f.record())).map(Field::path).findFirst()
                .orElse(FOLLOWING.getOrDefault(record, record));
    }

    /** The configuration as JSON, every field present: what the generator writes next to the HDL. */
    public static String toJson(Settings c) {
        ObjectNode root = JSON.createObjectNode();
        boolean axi = c.axi() != null;
        for (String s : SECTIONS) {
            if (s.equals(axi ? "commandTypes" : "axi4")) { // what follows from the interface, or does not apply
                continue;
            }
            if (s.isEmpty()) {
                FIELDS.stream().filter(f -> f.section().isEmpty()).forEach(f -> root.set(f.key(), value(f, c)));
                continue;
            }
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
            FIELDS.stream().filter(f -> f.section().equals(s)).forEach(f -> section.set(f.key(), value(f, c)));
        }
        return pretty(root);
    }

    private static <V> JsonNode value(Field<V> f, Settings c) {
        return f.kind().write(f.get().apply(c));
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
                types.put("description", COMMAND_TYPES);
                types.put("minItems", 1);
                ObjectNode item = types.putObject("items");
                item.put("type", "object");
                item.put("additionalProperties", false);
                item.putArray("required").add("type").add("controlBytes").add("data");
                ObjectNode ip = item.putObject("properties");
                boundSchema(ip.putObject("type").put("type", "integer"), TYPE);
                boundSchema(ip.putObject("controlBytes").put("type", "integer"), CONTROL_BYTES).put("multipleOf", 2);
                ip.putObject("data").put("type", "boolean");
                continue;
            }
            ObjectNode sp = props;
            if (!s.isEmpty()) {
                ObjectNode section = props.putObject(s);
                section.put("type", "object");
                section.put("additionalProperties", false);
                sp = section.putObject("properties");
            }
            for (Field<?> f : FIELDS) {
                if (f.section().equals(s)) {
                    ObjectNode p = sp.putObject(f.key());
                    f.kind().schema(p);
                    p.put("description", f.description());
                    p.set("default", value(f, d));
                }
            }
        }
        return pretty(root);
    }

    /** Minimum and maximum, or the allowed powers of two, or 0 besides a range. */
    private static ObjectNode boundSchema(ObjectNode p, Bound b) {
        if (b.powerOfTwo()) {
            b.values().forEach(p.putArray("enum")::add);
        } else if (b.zero()) {
            ArrayNode any = p.putArray("anyOf");
            any.addObject().put("const", 0);
            any.addObject().put("minimum", b.min()).put("maximum", b.max());
        } else {
            p.put("minimum", b.min()).put("maximum", b.max());
        }
        return p;
    }

    /**
     * The table of every key for docs/configuration.md (between its {@link #TABLE_START} and {@link #TABLE_END}
     * lines): key, values, default (the default instance's), description.
     */
    public static String fieldTable() {
        StringBuilder b = new StringBuilder("| key | values | default | description |\n|---|---|---|---|\n");
        Settings d = Settings.defaults();
        for (String s : SECTIONS) {
            if (s.equals("commandTypes")) {
                b.append("| `commandTypes` | array of `{type, controlBytes, data}`: type ").append(TYPE.text())
                        .append(", controlBytes ").append(CONTROL_BYTES.text()).append(" and even | types 1..4 of the"
                                + " example table | ").append(COMMAND_TYPES).append(" |\n");
                continue;
            }
            for (Field<?> f : FIELDS) {
                if (f.section().equals(s)) {
                    b.append("| `").append(f.path()).append("` | ").append(f.kind().values()).append(" | `")
                            .append(value(f, d).toString().replace(",", ", ")).append("` | ")
                            .append(f.description()).append(" |\n");
                }
            }
        }
        return b.toString();
    }

    /** The lines around the generated field table in docs/configuration.md. */
    public static final String TABLE_START = "<!-- the keys: generated from InstanceConfigJson.fieldTable() -->";
    public static final String TABLE_END = "<!-- end of the keys -->";

    /**
     * Writes the generated reference files under the repository root (first argument, default the working
     * folder): configs/sue_instance.schema.json and the key table of docs/configuration.md.
     */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        Files.writeString(root.resolve("configs/sue_instance.schema.json"), schema());
        Path doc = root.resolve("docs/configuration.md");
        Files.writeString(doc, withFieldTable(Files.readString(doc)));
        System.out.println("wrote " + root.resolve("configs/sue_instance.schema.json") + " and the key table of "
                + doc);
    }

    /** The document with the text between its table markers replaced by the current {@link #fieldTable}. */
    public static String withFieldTable(String doc) {
        int a = doc.indexOf(TABLE_START);
        int b = doc.indexOf(TABLE_END);
        if (a < 0 || b < a) {
            throw new IllegalArgumentException("the document has no " + TABLE_START + " ... " + TABLE_END + " lines");
        }
        return doc.substring(0, a + TABLE_START.length()) + "\n" + fieldTable() + doc.substring(b);
    }

    private static String pretty(ObjectNode root) {
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- reading ------------------------------------------------------------------------------------------------

    private static final String COMMAND_TYPES = "the command types the XPU uses";
    private static final Bound TYPE = Bound.of(1, 255);
    private static final Bound CONTROL_BYTES = Bound.of(0, 2 * CommandTable.MAX_CONTROL_UNITS);

    private static void onlyKnownKeys(JsonNode node, String prefix, List<String> known) throws ConfigError {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!known.contains(k)) {
                throw new ConfigError(prefix + k + ": unknown key; known here: " + String.join(", ", known));
            }
        }
    }

    /** An integer node within a bound, or the error naming the path, the value and the bound. */
    private static int checked(String path, JsonNode n, Bound b) throws ConfigError {
        if (!n.canConvertToInt() || !b.contains(n.asInt())) {
            throw new ConfigError(path + ": " + n + (b.powerOfTwo() || b.zero() ? " is not " : " is outside ")
                    + b.explained());
        }
        return n.asInt();
    }

    private static CommandTable commandTypes(JsonNode n) throws ConfigError {
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
            int type = intIn(e, at, "type", TYPE);
            int control = intIn(e, at, "controlBytes", CONTROL_BYTES);
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

    private static int intIn(JsonNode e, String at, String key, Bound b) throws ConfigError {
        JsonNode v = e.get(key);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToInt() || !b.contains(v.asInt())) {
            throw new ConfigError(at + "." + key + ": " + v + " is not an integer in " + b.text());
        }
        return v.asInt();
    }
}
