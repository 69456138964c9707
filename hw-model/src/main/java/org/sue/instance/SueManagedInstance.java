package org.sue.instance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Signal;
import org.sue.core.Status;
import org.sue.core.Tag;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.mgmt.Access;
import org.sue.mgmt.MgmtRegisters;
import org.sue.mgmt.RawFrameFilter;
import org.sue.mgmt.RawRxBuffer;
import org.sue.mgmt.RawTxBuffer;
import org.sue.mgmt.RegisterMap;
import org.sue.mgmt.RegisterMap.Field;

/**
 * An {@link SueInstance} managed over AXI4-Lite (SUE spec 3.1, docs/management.md): its counters, levels, states and
 * flags are registers, so are its run-time settings (identity, LLR enable, VC enables) and its header table (written
 * indirectly), and one interrupt output {@code irq} reports its events. The top keeps the command interface, the MAC
 * streams and their link control channel, the MAC's {@code link_up}, the management port {@code s_axil_*} and
 * {@code irq}. {@link SueInstance} itself is the same instance with every status and setting as a port (for
 * debugging).
 *
 * <p>Blocks of the map: {@code id} (what this is), {@code build} (the generation parameters software may need),
 * {@code ctrl} (run-time settings), {@code hdr_table} (the header table's write port), {@code irq} (events and
 * their enables), then the status of each part of the instance ({@code cmd}, {@code rx}, {@code net},
 * {@code tp_tx}, {@code tp_rx}, {@code llr}, {@code cbfc} or {@code pfc}, {@code mac}, {@code axi}), the raw-packet
 * blocks {@code raw_tx} and {@code raw_rx}, then {@code mgmt}. Raw frames pass between the instance and the MAC
 * ({@link RawTxBuffer}, {@link RawFrameFilter}, {@link RawRxBuffer}).
 *
 * <p>With 2 or 4 ports: port 0's status, settings and raw frames where a one-port instance has them, port i's status
 * in block {@code port<i>}, its settings in {@code ctrl} as {@code p<i>_local_mac} and {@code p<i>_llr_enable}; the
 * header table's writes go to the ports {@code hdr_table.ports} selects; the link and port events are any port's.
 */
public final class SueManagedInstance extends Component {
    /** 'SUE' and the map's version: software checks it before anything else. */
    public static final long MAGIC = 0x5355_4500L;
    /** Version of the register map (major in the high half): a register moved or removed raises the major. */
    public static final long MAP_VERSION = 0x0001_0002L;
    /** Bit of {@code raw_rx.head} that says a frame is there; the bits below it hold its length. */
    public static final int RAW_HEAD_VALID_BIT = 31;

    /**
     * @param sue       the instance
     * @param axi       with the XPU on AXI4, the instance under its AXI4 pairs ({@code axi.sue()} is {@code sue}), or
     *                  null for the FIFO interface
     * @param addrWidth bits of the management port's byte address
     */
    public record Config(SueInstance.Config sue, SueAxiInstance.Config axi, @Tag("ma") int addrWidth,
                         RawPackets raw) {
        public Config {
            if (sue == null || raw == null) {
                throw new IllegalArgumentException("SueManagedInstance sue and raw must be given");
            }
            if (axi != null && !axi.sue().equals(sue)) {
                throw new IllegalArgumentException("SueManagedInstance axi must be on the instance sue");
            }
            new RawTxBuffer.Config(sue.portWidth(), raw.frameBytes()); // the rules of the buffers, named
            new RawRxBuffer.Config(sue.portWidth(), raw.frameBytes(), raw.rxBufferBytes());
        }

        /** Bits of the management port's byte address unless set (64 KiB: the 32 KiB map and room). */
        public static final int ADDR_WIDTH = 16;

        /** {@code sue} on the FIFO interface behind its management port. */
        public Config(SueInstance.Config sue, int addrWidth) {
            this(sue, null, addrWidth, RawPackets.DEFAULT);
        }

        /** {@code sue} on the FIFO interface behind its management port of {@link #ADDR_WIDTH} bits. */
        public Config(SueInstance.Config sue) {
            this(sue, ADDR_WIDTH);
        }

        /** The AXI4 instance {@code axi} behind its management port of {@link #ADDR_WIDTH} bits. */
        public Config(SueAxiInstance.Config axi) {
            this(axi.sue(), axi, ADDR_WIDTH, RawPackets.DEFAULT);
        }

        /** The default instance, managed. */
        public static Config defaults() {
            return new Config(SueInstance.Config.defaults());
        }

        public Config withRaw(RawPackets r) {
            return new Config(sue, axi, addrWidth, r);
        }
    }

    /**
     * Raw packets (docs/management.md "Raw packets"): the largest frame software sends or receives, without its FCS,
     * and the bytes of the receive buffer (a power of two).
     */
    public record RawPackets(@Tag("rf") int frameBytes, @Tag("rb") int rxBufferBytes) {
        /** 1518 bytes (an 802.1Q-tagged frame of 1500 bytes of payload), a receive buffer of 4 KiB. */
        public static final RawPackets DEFAULT = new RawPackets(1518, 4096);
    }

    /** Events that raise {@code irq} when enabled: the fields of {@code irq.status} and {@code irq.enable}. */
    public enum Event {
        DST_DOWN("the transport gave up on a destination"),
        DST_UP("a destination given up on answered again"),
        LINK_DOWN("link_up from the MAC fell"),
        LLR_REINIT("Link Layer Retry flushed its replay buffer and started again (llr_tx_reinit counted)"),
        COUNTER_SATURATED("a counter reached 2^32 - 1 (it stays there)"),
        RAW_RX("a raw frame arrived in the receive buffer"),
        PORT_DOWN("the port went down (port.up fell; docs/protocol.md 7.8)"),
        PORT_UP("the port came up (port.up rose)");

        public final String description;

        Event(String description) {
            this.description = description;
        }

        public String field() {
            return name().toLowerCase();
        }
    }

    /** A port's status with more ports: {@code p<i>_} and the name a one-port instance gives it. */
    private static final Pattern PORT_STATUS = Pattern.compile("p([0-3])_(.*)");

    /** Prefixes of the instance's status names and the block each goes to (no prefix: the command path's). */
    private static final Map<String, String> STATUS_BLOCKS = new LinkedHashMap<>();

    /**
     * Every block's slot, fixed for every configuration (a block a configuration lacks leaves its slot empty), so
     * that a block's base never moves: slot times {@link #BLOCK_STRIDE}.
     */
    private static final List<String> SLOTS = List.of("id", "build", "ctrl", "hdr_table", "irq", "cmd", "rx", "net",
            "tp_tx", "tp_rx", "llr", "cbfc", "pfc", "mac", "axi", "raw_tx", "raw_rx", "port", "port1", "port2",
            "port3");
    /** Bytes of each block: room for 256 registers. */
    public static final int BLOCK_STRIDE = 0x400;
    /** Slot of block {@code mgmt}: the last of the 32 KiB map (slots 21 to 30 are free for blocks to come). */
    private static final int OWN_SLOT = 31;

    static {
        for (String p : List.of("rx_", "net_", "tp_tx_", "tp_rx_", "llr_", "cbfc_", "pfc_", "mac_", "port_")) {
            STATUS_BLOCKS.put(p, p.substring(0, p.length() - 1));
        }
        // the AXI4 pairs': the slave's, the master's, the SoC side's credit loops, the bridge's own
        for (String p : List.of("s_", "m_", "soc_", "commands_sent", "credit_waits")) {
            STATUS_BLOCKS.put(p, "axi");
        }
    }

    private final Config config;
    private final RegisterMap map;

    /** How each field of the map meets the instance, applied once the register block exists. */
    private final List<Consumer<Map<String, Port>>> hooks = new ArrayList<>();
    /** The instance's ports the registers drive or read. */
    private final List<Signal> inside = new ArrayList<>();
    /** The instance's status each status register reads, by {@code block.register}. */
    private final Map<String, String> statusOfRegister = new HashMap<>();

    public SueManagedInstance(Config config) {
        super(config);
        this.config = config;
        Component sue = child("sue", config.axi() != null ? new SueAxiInstance(config.axi())
                : new SueInstance(config.sue()));
        Map<String, Port> ports = new HashMap<>();
        sue.ports().forEach(p -> ports.put(p.name(), p));
        Raw raw = rawPackets(sue, ports);
        RegisterMap.Builder b = RegisterMap.builder("sue").stride(BLOCK_STRIDE).ownBlockAt(OWN_SLOT);
        identity(b);
        build(b);
        settings(b, ports);
        headerTable(b, ports);
        Expr[] events = events(sue, ports, raw);
        interrupts(b, events);
        status(b, sue, false);
        rawRegisters(b, raw);
        status(b, sue, true);
        map = b.build();
        MgmtRegisters regs = child("mgmt", new MgmtRegisters(new MgmtRegisters.Config(map, config.addrWidth())));
        Map<String, Port> regPorts = new HashMap<>();
        regs.ports().forEach(p -> regPorts.put(p.name(), p));
        hooks.forEach(h -> h.accept(regPorts));
        List<Signal> regsInside = new ArrayList<>();
        regs.ports().stream().filter(p -> !p.name().startsWith("s_axil_")).forEach(regsInside::add);
        exposeRest(regs, "", regsInside);
        irq(regPorts);
        exposeRest(sue, "", inside);
    }

    public Config config() {
        return config;
    }

    /** The register map of this instance (docs/registers.md is written from it). */
    public RegisterMap registerMap() {
        return map;
    }

    // ---- the map's blocks, each with its connections -----------------------------------------------------------

    private void identity(RegisterMap.Builder b) {
        block(b, "id", "What this is");
        constant(b, "id", "magic", 32, MAGIC, "'SUE' and 0: the first thing software checks");
        constant(b, "id", "version", 32, MAP_VERSION, "Register map version: major in bits 31:16, minor in 15:0");
    }

    private void build(RegisterMap.Builder b) {
        SueInstance.Config c = config.sue();
        block(b, "build", "The generation parameters software may need (read only)");
        constant(b, "build", "xpu_data_width", 16, c.path().dataWidth(), "Bits of the XPU command interface's data");
        constant(b, "build", "bus_width", 16, c.portWidth(), "Bits of the port's bus (the MAC streams)");
        constant(b, "build", "destinations", 16, c.path().destinations(), "Destination XPUs the instance addresses");
        constant(b, "build", "ports", 4, c.transport().ports(), "Ethernet ports of the instance");
        constant(b, "build", "header_format", 4, c.net().format().ordinal(), "Network header format: 0 Ethernet/IPv4/"
                + "UDP, 1 Ethernet/IPv6/UDP, 2 AFH Gen1, 3 AFH Gen2 (docs/protocol.md 5)");
        constant(b, "build", "vlan", 1, c.net().vlan() ? 1 : 0, "1: frames carry an 802.1Q tag");
        constant(b, "build", "llr", 1, c.llr() != null ? 1 : 0, "1: Link Layer Retry is built in");
        constant(b, "build", "flow_control", 2, c.cbfc() != null ? 2 : c.pfc() != null ? 1 : 0,
                "Link-level flow control: 0 none, 1 PFC, 2 CBFC");
        constant(b, "build", "command_interface", 2, config.axi() != null ? 1 : 0,
                "XPU command interface: 0 FIFO, 1 AXI4");
        constant(b, "build", "pdu_limit", 16, c.path().pduLimit(), "Largest PDU the packing buffer builds, bytes");
        constant(b, "build", "rto_cycles", 32, c.transport().rtoCycles(), "Transport retransmit timeout, cycles");
        constant(b, "build", "window_pdus", 16, c.transport().windowPdus(), "Transport window per connection, PDUs");
        constant(b, "build", "store_bytes", 32, c.transport().storeBytes(), "Transport retransmit store, bytes");
        constant(b, "build", "raw_frame_bytes", 16, config.raw().frameBytes(), "Largest raw frame sent or received,"
                + " bytes without the FCS");
        constant(b, "build", "raw_rx_buffer_bytes", 32, config.raw().rxBufferBytes(), "Raw receive buffer, bytes");
    }

    /** Run-time settings: each an RW register driving an input of the instance of the same name. */
    private void settings(RegisterMap.Builder b, Map<String, Port> ports) {
        block(b, "ctrl", "Run-time settings (take effect at once; change identity only while no traffic runs)");
        setting(b, ports.get("local_xpu"), 0, "This XPU's address: the receive check's, its low 10 bits the source"
                + " XPU id the transport sends");
        setting(b, ports.get("local_partition"), 0, "This XPU's partition: sent in the RH, checked on receive");
        setting(b, ports.get("local_ip"), 0, "This XPU's IP address (IP header formats)");
        for (int p = 0; p < config.sue().ports(); p++) { // more ports: each its own, p<i>_ before the name
            String px = config.sue().portPrefix(p);
            setting(b, ports.get(px + "local_mac"), 0, "Source MAC address of PFC and CBFC frames");
            setting(b, ports.get(px + "llr_enable"), 1, "1: Link Layer Retry runs (0: frames pass without it)");
        }
        Port vcReady = ports.get("vc_ready"); // the FIFO interface's: an AXI4 instance's pairs drive it
        setting(b, vcReady, vcReady == null ? 0 : (1L << vcReady.width()) - 1, "A bit per VC: 0 stops new"
                + " PDUs, retransmissions and ACK-only PDUs on it");
    }

    private void setting(RegisterMap.Builder b, Port input, long reset, String description) {
        if (input == null) {
            return;
        }
        b.value(input.name(), input.width(), Access.RW, reset, description);
        inside.add(input);
        hooks.add(r -> input.set(r.get("ctrl_" + input.name())));
    }

    /**
     * The header table, written indirectly: an index, the entry's words, and a write that moves them into the table.
     * The table is a RAM the transmit path reads every frame, with one write port and none for software to read.
     */
    private void headerTable(RegisterMap.Builder b, Map<String, Port> ports) {
        int n = config.sue().ports();
        String px0 = config.sue().portPrefix(0);
        Port addr0 = ports.get(px0 + "tbl_wr_addr");
        Port data0 = ports.get(px0 + "tbl_wr_data");
        block(b, "hdr_table", "The network header table, written an entry at a time (docs/management.md)");
        b.value("index", addr0.width(), Access.RW, 0, "Entry the next write goes to (the destination XPU)");
        int words = (data0.width() + 31) / 32;
        for (int k = 0; k < words; k++) {
            b.value("entry_" + k, Math.min(32, data0.width() - 32 * k), Access.RW, 0, "Bits " + Math.min(data0.width()
                    - 1, 32 * k + 31) + ":" + 32 * k + " of the entry (docs/protocol.md 5: the entry's layout)");
        }
        if (n > 1) { // each port has its own table (its own addresses)
            b.value("ports", n, Access.RW, (1L << n) - 1, "The ports whose tables a write goes to, a bit each");
        }
        b.value("write", 1, Access.WO, 0, "Writing 1 writes index and entry into the table");
        for (int p = 0; p < n; p++) {
            String px = config.sue().portPrefix(p);
            inside.addAll(List.of(ports.get(px + "tbl_wr_valid"), ports.get(px + "tbl_wr_addr"),
                    ports.get(px + "tbl_wr_data")));
        }
        hooks.add(r -> {
            Expr write = r.get("hdr_table_write_valid").and(r.get("hdr_table_write_value"));
            List<Expr> parts = new ArrayList<>();
            for (int k = words - 1; k >= 0; k--) {
                parts.add(r.get("hdr_table_entry_" + k));
            }
            for (int p = 0; p < n; p++) {
                String px = config.sue().portPrefix(p);
                ports.get(px + "tbl_wr_valid").set(n > 1 ? write.and(r.get("hdr_table_ports").bit(p)) : write);
                ports.get(px + "tbl_wr_addr").set(r.get("hdr_table_index"));
                ports.get(px + "tbl_wr_data").set(Hw.cat(parts));
            }
        });
    }

    /** The events of {@link Event}, in its order, each high for the cycle it happens. */
    private Expr[] events(Component sue, Map<String, Port> ports, Raw raw) {
        Map<String, Port> status = sue.statusPorts();
        inside.addAll(List.of(ports.get("dst_down_valid"), ports.get("dst_down_port"), ports.get("dst_down_xpu"),
                ports.get("dst_up_valid"), ports.get("dst_up_port"), ports.get("dst_up_xpu")));
        // which destination went or came back: the transport's dst_unreachable bits say
        unused("dst_event_detail", ports.get("dst_down_port"), ports.get("dst_down_xpu"), ports.get("dst_up_port"),
                ports.get("dst_up_xpu"));
        // each port's PCS status: the top keeps it, and watches it fall; the events are any port's
        Expr linkDown = Hw.bool(false);
        Expr portDown = Hw.bool(false);
        Expr portCameUp = Hw.bool(false);
        Expr reinitNow = Hw.bool(false);
        for (int p = 0; p < config.sue().ports(); p++) {
            String px = config.sue().portPrefix(p);
            Port linkUp = in(px + "link_up", 1);
            ports.get(px + "link_up").set(linkUp);
            inside.add(ports.get(px + "link_up"));
            Reg linkWas = reg(px + "link_up_was", 1, 0);
            linkWas.set(linkUp);
            linkDown = linkDown.or(linkWas.and(linkUp.not()));
            Port portUp = status.get(px + "port_up");
            Reg portWas = reg(px + "port_up_was", 1, 0);
            portWas.set(portUp);
            portDown = portDown.or(portWas.and(portUp.not()));
            portCameUp = portCameUp.or(portUp.and(portWas.not()));
            Port reinit = status.get(px + "llr_tx_reinit");
            if (reinit != null) {
                Reg reinitWas = reg(px + "llr_reinit_was", 32, 0);
                reinitWas.set(reinit);
                reinitNow = reinitNow.or(reinit.ne(reinitWas));
            }
        }
        Expr saturated = Hw.bool(false);
        for (Component c : List.of(sue, raw.tx(), raw.rx())) {
            for (Status st : c.statusList()) {
                if (st.kind() == Status.Kind.COUNTER) {
                    saturated = saturated.or(st.port().andR());
                }
            }
        }
        Reg saturatedWas = reg("counter_saturated_was", 1, 0);
        Expr anySaturated = wire("counter_saturated", saturated);
        saturatedWas.set(anySaturated);
        return new Expr[] {ports.get("dst_down_valid"), ports.get("dst_up_valid"),
            wire("link_down", linkDown), wire("llr_reinit", reinitNow),
            anySaturated.and(saturatedWas.not()), raw.rx().received, wire("port_down", portDown),
            wire("port_up_event", portCameUp)};
    }

    private void interrupts(RegisterMap.Builder b, Expr[] events) {
        Event[] all = Event.values();
        Field[] status = new Field[all.length];
        Field[] enable = new Field[all.length];
        for (int i = 0; i < all.length; i++) {
            status[i] = new Field(all[i].field(), i, 1, Access.W1C, 0, all[i].description);
            enable[i] = new Field(all[i].field(), i, 1, Access.RW, 0, "1: " + all[i].field() + " raises irq");
        }
        block(b, "irq", "Events: irq is high while an event's status bit and its enable bit are both set");
        b.register("status", "Events since they were last cleared (write 1 to clear)", status);
        b.register("enable", "Which events raise irq", enable);
        hooks.add(r -> {
            for (int i = 0; i < all.length; i++) {
                r.get("irq_status_" + all[i].field() + "_set").set(events[i]);
            }
        });
    }

    private void irq(Map<String, Port> r) {
        Expr pending = Hw.bool(false);
        for (Event e : Event.values()) {
            pending = pending.or(r.get("irq_status_" + e.field()).and(r.get("irq_enable_" + e.field())));
        }
        Reg level = reg("irq_level", 1, 0);
        level.set(pending);
        out("irq", 1).set(level);
    }

    /**
     * Every status of the instance, read only, in a block per part of the instance: the blocks in slots after the
     * raw packets' ({@code afterRaw}) or before them (the builder takes blocks in slot order).
     */
    private void status(RegisterMap.Builder b, Component sue, boolean afterRaw) {
        Map<String, Map<String, Status>> byBlock = new LinkedHashMap<>(); // block: register name, status
        byBlock.put("cmd", new LinkedHashMap<>());
        STATUS_BLOCKS.values().forEach(blk -> byBlock.putIfAbsent(blk, new LinkedHashMap<>()));
        for (Status st : sue.statusList()) {
            Placed at = place(st.name());
            byBlock.computeIfAbsent(at.block(), k -> new LinkedHashMap<>()).put(at.register(), st);
        }
        for (Map.Entry<String, Map<String, Status>> e : byBlock.entrySet()) {
            if (e.getValue().isEmpty() || SLOTS.indexOf(e.getKey()) > SLOTS.indexOf("raw_rx") != afterRaw) {
                continue;
            }
            String blk = e.getKey();
            block(b, blk, blockDescription(blk));
            e.getValue().forEach((name, st) -> statusRegister(b, blk, name, st));
        }
    }

    /** A status's block and register name. */
    private record Placed(String block, String register) {
    }

    /**
     * Where status {@code status} of the instance goes: with more ports, port 0's in the blocks a one-port instance
     * has, under the same names ({@code p0_llr_tx_frames} as {@code llr.tx_frames}), so software written for one port
     * finds them; port i's (i > 0) in block {@code port<i>} under their names without {@code p<i>_}.
     */
    private Placed place(String status) {
        Matcher port = PORT_STATUS.matcher(status);
        String name = status;
        if (config.sue().ports() > 1 && port.matches()) {
            name = port.group(2);
            if (!port.group(1).equals("0")) {
                return new Placed("port" + port.group(1), name);
            }
        }
        String blk = blockOf(name);
        return new Placed(blk, unprefixed(blk) ? name : name.substring(blk.length() + 1));
    }

    private void statusRegister(RegisterMap.Builder b, String blk, String name, Status st) {
        String kind = switch (st.kind()) {
            case COUNTER -> "Counter (saturating; a write clears it): ";
            case LEVEL -> "Level: ";
            case STATE -> "State: ";
            case FLAG -> "Sticky flag: ";
        };
        inside.add(st.port());
        statusOfRegister.put(blk + "." + name, st.name());
        if (st.width() <= RegisterMap.MAX_FIELD_BITS) {
            b.value(name, st.width(), st.kind() == Status.Kind.COUNTER ? Access.CNT : Access.RO, 0,
                    kind + st.description());
            hooks.add(r -> r.get(blk + "_" + name).set(st.port()));
            return;
        }
        int words = (st.width() + 31) / 32;
        for (int k = 0; k < words; k++) {
            int lo = 32 * k;
            int hi = Math.min(st.width(), lo + 32) - 1;
            b.value(name + "_" + k, hi - lo + 1, Access.RO, 0, kind + st.description() + " (bits " + hi + ":" + lo
                    + "; the words are read one at a time)");
            statusOfRegister.put(blk + "." + name + "_" + k, st.name() + "_" + k);
            hooks.add(r -> r.get(blk + "_" + name + "_" + (lo / 32)).set(st.port().bits(hi, lo)));
        }
    }

    /** Blocks whose registers keep the status's whole name: no prefix is common to all of them. */
    private static boolean unprefixed(String block) {
        return block.equals("cmd") || block.equals("axi");
    }

    /**
     * The instance's status a status block's register reads ({@code tp_tx.timeouts}: {@code tp_tx_timeouts}; a word
     * of a wide status: its name and {@code _<word>}); null for another register.
     */
    public String statusName(RegisterMap.Register register) {
        return statusOfRegister.get(register.block() + "." + register.name());
    }

    /** Whether {@code block} holds the instance's status (not identity, settings or events). */
    public static boolean isStatusBlock(String block) {
        return block.equals("cmd") || STATUS_BLOCKS.containsValue(block) || block.matches("port[1-3]");
    }

    private static String blockOf(String status) {
        for (Map.Entry<String, String> e : STATUS_BLOCKS.entrySet()) {
            if (status.startsWith(e.getKey())) {
                return e.getValue();
            }
        }
        return "cmd";
    }

    private static String blockDescription(String blk) {
        return switch (blk) {
            case "cmd" -> "Command path, transmit side: ingress drops and errors, packing buffer (docs/protocol.md 12.2)";
            case "rx" -> "Command unpacker, receive side (docs/protocol.md 12.2)";
            case "net" -> "Framing receiver: frames good and dropped by reason (docs/protocol.md 12.1)";
            case "tp_tx" -> "Transport, transmit side (docs/protocol.md 12.3)";
            case "tp_rx" -> "Transport, receive side (docs/protocol.md 12.3)";
            case "llr" -> "Link Layer Retry, with the SAI counter names (docs/protocol.md 7)";
            case "cbfc" -> "Credit-Based Flow Control (docs/protocol.md 8)";
            case "pfc" -> "Priority Flow Control (docs/protocol.md 9)";
            case "port" -> "The port's status and its changes (docs/protocol.md 7.8)";
            case "port1", "port2", "port3" -> "Port " + blk.substring(4) + "'s link layer, framing receiver and"
                    + " status, under the names of port 0's registers in the other blocks (docs/management.md)";
            case "axi" -> "AXI4 pairs: the slave's, the far master's and the SoC side's credit loops (docs/protocol.md 13)";
            default -> "MAC Control frames taken out of the receive stream";
        };
    }

    // ---- raw packets ----------------------------------------------------------------------------------------------

    /** The raw-packet blocks: the transmit buffer, the filter on the frames from the MAC, the receive buffer. */
    private record Raw(RawTxBuffer tx, RawFrameFilter filter, RawRxBuffer rx) { }

    /**
     * Raw frames between the instance and the MAC: the transmit buffer's frames take turns with the instance's, a
     * frame at a time ({@code tuser} 0: no sequence number, not a flow-control frame); the filter takes the listed
     * EtherTypes out of the frames from the MAC into the receive buffer.
     */
    private Raw rawPackets(Component sue, Map<String, Port> ports) {
        SueInstance.Config c = config.sue();
        int w = c.portWidth();
        String px = c.portPrefix(0); // more ports: raw frames take port 0
        RawTxBuffer tx = child("raw_tx", new RawTxBuffer(new RawTxBuffer.Config(w, config.raw().frameBytes())));
        RawFrameFilter filter = child("raw_filter", new RawFrameFilter(new RawFrameFilter.Config(w, c.llr() != null,
                c.net().leadingEtherType())));
        RawRxBuffer rx = child("raw_rx", new RawRxBuffer(new RawRxBuffer.Config(w, config.raw().frameBytes(),
                config.raw().rxBufferBytes())));
        Layout macTx = Stream.packet(w, ports.get(px + "m_axis_tuser").width());
        Stream instanceFrames = Stream.ofPorts(sue, px + "m_axis", macTx);
        Arbiter.Arbitration toMac = Arbiter.roundRobinPackets("mac_tx_arb", List.of(instanceFrames,
                tx.out.retagged("raw_to_mac", macTx, Hw.zeros(macTx.field(Stream.TUSER).width()))));
        toMac.out().into(Stream.master(this, px + "m_axis", macTx));
        unused("mac_tx_chosen", toMac.chosen());
        Flow.slave(this, px + "s_axis", filter.in.layout()).into(filter.in);
        Flow instanceIn = Flow.ofPorts(sue, px + "s_axis", filter.out.layout());
        filter.out.into(instanceIn);
        filter.raw.into(rx.in);
        inside.addAll(instanceFrames.signals());
        inside.addAll(instanceIn.signals());
        return new Raw(tx, filter, rx);
    }

    /** The raw-packet registers: the transmit buffer's, the filter's entries, the receive buffer's. */
    private void rawRegisters(RegisterMap.Builder b, Raw raw) {
        block(b, "raw_tx", "Raw frames to send (docs/management.md \"Raw packets\")");
        b.value("data", 32, Access.WO, 0, "The frame's next four bytes (its byte 4k in bits 7:0, 4k+3 in 31:24)");
        b.value("send", raw.tx().send.field("length").width(), Access.WO, 0, "Sends the frame of this many bytes"
                + " (no FCS: it is added) from the words written since the last send");
        rawStatus(b, "raw_tx", raw.tx());
        hooks.add(r -> {
            raw.tx().words.drive(r.get("raw_tx_data_valid"), r.get("raw_tx_data_value"));
            raw.tx().send.drive(r.get("raw_tx_send_valid"), r.get("raw_tx_send_value"));
        });

        block(b, "raw_rx", "Raw frames received (docs/management.md \"Raw packets\")");
        long[] resetTypes = {0x0806, 0x88CC, 0, 0};
        for (int k = 0; k < RawFrameFilter.ENTRIES; k++) {
            b.register("filter_" + k, "Filter entry " + k + ": frames of this EtherType go to the buffer",
                    new Field("ether_type", 0, 16, Access.RW, resetTypes[k], "The EtherType right after the addresses"
                            + (resetTypes[k] != 0 ? " (reset: " + (k == 0 ? "ARP" : "LLDP") + ")" : "")),
                    new Field("enable", 16, 1, Access.RW, resetTypes[k] != 0 ? 1 : 0, "1: the entry takes frames"));
        }
        int lw = raw.rx().headLength.width();
        b.register("head", "The oldest frame in the buffer", new Field("length", 0, lw, Access.RO, 0,
                "Its bytes without the FCS (0: none)"), new Field("valid", RAW_HEAD_VALID_BIT, 1,
                Access.RO, 0, "1: there is one"));
        b.value("data", 32, Access.POP, 0, "The oldest frame's next four bytes (byte 4k in bits 7:0); reading its"
                + " last word lets the frame go");
        b.value("skip", 1, Access.WO, 0, "Writing it drops the rest of the oldest frame");
        rawStatus(b, "raw_rx", raw.rx());
        hooks.add(r -> {
            List<Expr> types = new ArrayList<>();
            List<Expr> enables = new ArrayList<>();
            for (int k = RawFrameFilter.ENTRIES - 1; k >= 0; k--) {
                types.add(r.get("raw_rx_filter_" + k + "_ether_type"));
                enables.add(r.get("raw_rx_filter_" + k + "_enable"));
            }
            raw.filter().types.set(Hw.cat(types));
            raw.filter().enables.set(Hw.cat(enables));
            r.get("raw_rx_head_length").set(raw.rx().headLength);
            r.get("raw_rx_head_valid").set(raw.rx().headValid);
            r.get("raw_rx_data").set(raw.rx().data);
            raw.rx().dataRead.set(r.get("raw_rx_data_read"));
            raw.rx().skip.drive(r.get("raw_rx_skip_valid"), r.get("raw_rx_skip_value"));
        });
    }

    /** A raw buffer's status, read only, under its own names. */
    private void rawStatus(RegisterMap.Builder b, String blk, Component buffer) {
        for (Status st : buffer.statusList()) {
            statusRegister(b, blk, st.name(), st);
        }
    }

    private static void block(RegisterMap.Builder b, String name, String description) {
        b.blockAt(SLOTS.indexOf(name), name, description);
    }

    /** An RO register of a value fixed at generation (its reset value, as the map documents it). */
    private void constant(RegisterMap.Builder b, String blk, String name, int width, long value, String description) {
        b.value(name, width, Access.RO, value, description);
        hooks.add(r -> r.get(blk + "_" + name).set(Hw.lit(width, value)));
    }
}
