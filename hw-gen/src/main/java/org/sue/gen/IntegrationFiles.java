package org.sue.gen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.sue.core.Component;
import org.sue.core.Port;
import org.sue.core.PortDirection;
import org.sue.core.ResetStyle;

/**
 * What an integrator takes beside the generated HDL: a top module of a stable name ({@code sue_instance} unless
 * configured) around the configuration-named one, so that a wrapper of theirs survives a configuration edit, and
 * {@code integration.md}, the one page that says how to connect the top: its ports grouped by interface, the clock
 * and reset, what each neighbour must do, what to tie off.
 */
public final class IntegrationFiles {
    private IntegrationFiles() {
    }

    /** A group of the top's ports: which ones, who is on the other side, and what the neighbour must do. */
    private record Group(String title, Pattern ports, String neighbour, String rules) { }

    private static final List<Group> GROUPS = List.of(
            new Group("Command interface, transmit (the XPU's FIFO interface)",
                    Pattern.compile("tx_.*|xpuid|xoff_.*"), "the XPU",
                    "A command is `tx_valid` with its control and, for command types with data, `tx_cycle` numbered data"
                    + " beats; the XPU sends only while it holds credits, which `tx_credit` returns (command and"
                    + " data credits; docs/protocol.md 11.1-11.5). `xoff_*` asks it to stop sending to one {destination,"
                    + " VC} (11.6). `tx_reset_in` high resets the interface; wait for `tx_reset_out` low before"
                    + " sending: it stays high while the packing buffer clears its tables after reset (11.7). Tie"
                    + " `tx_reset_in` and `tx_err` low when unused."),
            new Group("Command interface, receive", Pattern.compile("rx_.*"), "the XPU",
                    "Commands from remote XPUs leave on `rx_*` (the transmit side's fields); the XPU returns a credit"
                    + " on `rx_credit` as it frees room, and `rx_freed_*` says which PDU left its receive FIFO"
                    + " (docs/protocol.md 11.8). `rx_reset_in` as `tx_reset_in`."),
            new Group("AXI4 pairs (commandInterface AXI4)", Pattern.compile("[sm][0-9]*_(aw|w|b|ar|r)_.*"),
                    "the SoC: its master on the slave `s_*`, its memory's slave on the master `m_*`",
                    "Standard AXI4 with valid/ready in the default form (`axi4.form` WRAPPER); each field"
                    + " `<interface>_<channel>_<field>`, the AMBA name without its channel prefix; with the credit form"
                    + " a `<channel>_credit` pulse per channel instead of ready. The README's AXI4 section and"
                    + " docs/protocol.md 13 give the mapping, the destination from the address, and the errors."),
            new Group("MAC transmit", Pattern.compile("(p[0-3]_)?m_axis_.*"), "the MAC (its transmit client interface)",
                    "Whole Ethernet frames with their FCS: the MAC must not add one. `tkeep` is contiguous from lane 0,"
                    + " all ones on every beat but the last. `m_axis_tready` is the MAC's: it may stall any beat (tie"
                    + " it high for a MAC that never does). `m_axis_tuser` carries the frame's sideband (the LLR"
                    + " sequence number with LLR; without LLR one bit, high on the PFC or CC_Update frames the flow"
                    + " control inserts; docs/protocol.md 7.2). Behind the management port, raw frames that software sends"
                    + " leave here between SUE frames, with `tuser` 0 (docs/management.md, Raw packets). With 2 or 4 ports each"
                    + " port has its own MAC streams, link control and `link_up`, named `p<i>_` and the name above;"
                    + " raw frames take port 0."),
            new Group("MAC receive", Pattern.compile("(p[0-3]_)?s_axis_.*"), "the MAC (its receive client interface)",
                    "Whole frames with their FCS, which the framing checks: the MAC must not strip it. There is no"
                    + " `tready`: the instance takes every beat. `s_axis_tuser` on a frame's last beat: the MAC found"
                    + " it bad (FCS or an uncorrectable FEC block), and with LLR its sideband (docs/protocol.md 7.2)."
                    + " Behind the management port, frames of the EtherTypes the raw filter lists (ARP and LLDP after"
                    + " reset) go to software's receive buffer instead (docs/management.md, Raw packets)."),
            new Group("Link control", Pattern.compile("(p[0-3]_)?ctl_(in|out)_.*"), "the MAC/PCS, as control ordered sets",
                    "LLR's ACK, NACK, INIT and INIT_ECHO and CBFC's CF_Update travel beside the frames, not in them:"
                    + " the PCS sends each `ctl_out_*` message (it waits on `ctl_out_ready`) as an ordered set and"
                    + " hands those it receives to `ctl_in_*` (docs/protocol.md 7.2, 8.3). With neither LLR nor CBFC"
                    + " there is no such channel."),
            new Group("Link status", Pattern.compile("(p[0-3]_)?link_up"), "the PCS",
                    "High while the PCS has the link up: LLR's PCS status (docs/protocol.md 7.2) and, without LLR, the"
                    + " port's status (7.8); its falling edge is the `irq.status.link_down` event. Tie high only if the"
                    + " PCS gives no status."),
            new Group("Management", Pattern.compile("s_axil_.*|irq"), "the SoC's control processor",
                    "AXI4-Lite, 32-bit data, a byte address; registers in registers.md, rules in docs/management.md"
                    + " (DECERR for an address no register holds, one write and one read under way at a time, AR to R in"
                    + " 3 cycles). `irq` is a level, high while an enabled event's status bit is set."),
            new Group("Debug ports (output.management false)", Pattern.compile(".*"), "your testbench",
                    "Every status and setting of the instance as a port: docs/protocol.md 11.10 and 12."));

    /**
     * A Verilog module {@code name} with the ports of {@code top}'s module {@code inner} (clock and reset as
     * generated), instantiating it.
     */
    public static String verilogWrapper(String name, String inner, Component top, boolean clock, ResetStyle reset,
                                         boolean hasReset) {
        List<String> decls = new ArrayList<>();
        List<String> conns = new ArrayList<>();
        if (clock) {
            decls.add("    input  wire clk");
            conns.add("        .clk(clk)");
        }
        if (hasReset) {
            decls.add("    input  wire " + reset.portName());
            conns.add("        ." + reset.portName() + "(" + reset.portName() + ")");
        }
        for (Port p : top.ports()) {
            String range = p.width() > 1 ? "[" + (p.width() - 1) + ":0] " : "";
            decls.add("    " + (p.direction() == PortDirection.IN ? "input  wire " : "output wire ") + range + p.name());
            conns.add("        ." + p.name() + "(" + p.name() + ")");
        }
        return "// " + name + ": the generated SUE instance under a name that does not change with its configuration\n"
                + "// (generated by scripts/generate; the configuration is sue_instance.json beside this file).\n"
                + "module " + name + " (\n" + String.join(",\n", decls) + "\n);\n\n    " + inner + " inst (\n"
                + String.join(",\n", conns) + "\n    );\n\nendmodule\n";
    }

    /** The committed copy of the default configuration's page. */
    public static final Path COMMITTED = Path.of("docs", "integration.md");

    /** The default configuration's page, as scripts/generate writes it without options. */
    public static String defaultGuide() {
        InstanceConfigJson.Settings d = InstanceConfigJson.Settings.defaults();
        return guide(GenerateOptions.DEFAULT_TOP, d.top(), d.reset(), "the default configuration");
    }

    /** Rewrites the committed copy under the repository root {@code args[0]} (default "."). */
    public static void main(String[] args) throws IOException {
        Path target = Path.of(args.length > 0 ? args[0] : ".").resolve(COMMITTED);
        Files.writeString(target, defaultGuide());
        System.out.println("wrote " + target);
    }

    /** Whether {@code port} of a top behind its management port belongs to an interface the page explains. */
    static boolean explained(String port) {
        return GROUPS.stream().filter(g -> g.ports().matcher(port).matches()).findFirst().orElseThrow()
                != GROUPS.get(GROUPS.size() - 1);
    }

    /** The integration page for the top {@code top} generated as module {@code name}. */
    public static String guide(String name, Component top, ResetStyle reset, String configuration) {
        StringBuilder s = new StringBuilder();
        s.append("# Integrating `").append(name).append("`\n\n");
        s.append("Generated by scripts/generate for ").append(configuration).append(" (`sue_instance.json` beside"
                + " the HDL is the whole configuration); do not edit. The top module is `").append(name)
                .append("` (`output.topName`), a wrapper around `").append(top.moduleName()).append("`, whose name"
                + " changes with the configuration: instantiate `").append(name).append("`.\n\n");
        s.append("## Clock and reset\n\n");
        s.append("One clock domain: every port is synchronous to `clk` (rising edge). The reset `")
                .append(reset.portName()).append("` is ").append(reset.async() ? "asynchronous" : "synchronous")
                .append(", active ").append(reset.activeHigh() ? "high" : "low").append(" (`output.reset`); hold it"
                + " for at least one clock edge. After reset the command interface keeps `tx_reset_out` high while"
                + " the packing buffer clears its tables (one row per cycle); nothing is sent before it falls.\n\n");
        Map<Group, List<Port>> grouped = new LinkedHashMap<>();
        for (Port p : top.ports()) {
            Group g = GROUPS.stream().filter(x -> x.ports().matcher(p.name()).matches()).findFirst().orElseThrow();
            grouped.computeIfAbsent(g, k -> new ArrayList<>()).add(p);
        }
        s.append("## Ports by interface\n");
        for (Group g : GROUPS) {
            List<Port> ports = grouped.get(g);
            if (ports == null) {
                continue;
            }
            s.append("\n### ").append(g.title()).append("\n\nOther side: ").append(g.neighbour()).append(". ")
                    .append(g.rules()).append("\n\n| port | dir | width |\n|---|---|---|\n");
            for (Port p : ports) {
                s.append("| `").append(p.name()).append("` | ").append(p.direction() == PortDirection.IN ? "in" : "out")
                        .append(" | ").append(p.width()).append(" |\n");
            }
        }
        s.append("\n## Before traffic\n\n");
        s.append("1. Release reset; wait for `tx_reset_out` and `rx_reset_out` low.\n");
        s.append("2. Over the management port: check `id.magic` (0x53554500) and read `build` for the configuration;"
                + " write `ctrl.local_xpu`, `ctrl.local_partition` and, as the format has them, `ctrl.local_ip` and"
                + " `ctrl.local_mac`.\n");
        s.append("3. Fill the header table, a row per remote XPU: `hdr_table.index`, the entry's words `entry_0`"
                + " upwards (the whole network header of frames to that XPU, docs/protocol.md 5.2), then 1 to"
                + " `hdr_table.write`. From hardware instead of software: generate with `output.management` false"
                + " and drive `tbl_wr_*`.\n");
        s.append("4. `ctrl.llr_enable` (reset 1) and `ctrl.vc_ready` (reset: every VC) need no write; enable the"
                + " interrupts you want in `irq.enable`.\n");
        s.append("5. Connect the MAC with FCS insertion and stripping off, the link control channel to the PCS, and"
                + " `link_up`; then the XPU may send.\n");
        return s.toString();
    }
}
