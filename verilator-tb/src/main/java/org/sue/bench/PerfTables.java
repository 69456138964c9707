package org.sue.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code scripts/perf-tables}: the tables of docs/performance.md, made from build/bench.json ({@link Bench}), so
 * that the figures in the text are one run's. Each table sits between {@code <!-- perf-table ID -->} and
 * {@code <!-- /perf-table -->}; the tool rewrites what is between, and nothing else. Every figure of the file lands
 * in exactly one table: a figure no table claims goes to the table {@value #OTHER} (and is named on standard error),
 * so a figure the bench learns to write is never lost; a figure two columns claim is an error.
 *
 * <p>Arguments: {@code [--check] [--json FILE] [--doc FILE]} (defaults build/bench.json, docs/performance.md).
 * {@code --check} writes nothing and exits with 1 when the doc's tables are not what the file makes.
 */
public final class PerfTables {
    private PerfTables() {
    }

    /** A column: its header and the figures it shows, a pattern whose groups name the figure's row. */
    record Column(String header, Pattern key) {
        Column(String header, String key) {
            this(header, Pattern.compile(key));
        }
    }

    /**
     * A table: where in the doc ({@code id}), which run of {@code scripts/bench} writes its figures, the headers of
     * the columns that name a row (one per pattern group), whether those are names (shown as code) and its figures.
     */
    record Table(String id, String sections, List<String> rowHeaders, boolean names, List<Column> columns) {
    }

    /** The table of the figures no other table claims. */
    static final String OTHER = "other";

    private static Table list(String id, String sections, String... figures) {
        return new Table(id, sections, List.of("figure"), true,
                List.of(new Column("value", "(" + String.join("|", figures) + ")")));
    }

    static final List<Table> TABLES = List.of(
            new Table("simulator-speed", "crc framing cmdpath queue_store sue axi", List.of("design"), true, List.of(
                    new Column("JVM, cycles/s", "(.+)_jvm_cycles_per_s"),
                    new Column("Verilator, cycles/s", "(.+)_verilator_cycles_per_s"),
                    new Column("JVM / Verilator, median of the pairs", "(.+)_sim_speed_ratio"),
                    new Column("JVM, first replay, cycles/s", "(.+)_jvm_cold_cycles_per_s"),
                    new Column("first cycle, JVM, s", "(.+)_jvm_first_cycle_s"),
                    new Column("first cycle, Verilator, s", "(.+)_verilator_first_cycle_s"))),
            list("replay", "crc", "bench_cycles", "jvm_replay_with_parsing_cycles_per_s",
                    "verilator_replay_with_parsing_cycles_per_s", "jvm_sim_only_cycles_per_s"),
            list("crc", "crc", "crc1024_bus_bytes", "crc1024_bytes_per_cycle", "crc1024_latency_cycles",
                    "crc1024_depth"),
            new Table("framing", "framing", List.of("PDU bytes"), false, List.of(
                    new Column("`tx_eff_*`", "tx_eff_([0-9]+)"),
                    new Column("`rx_eff_*`", "rx_eff_([0-9]+)"),
                    new Column("`tx_ipv6_eff_*`", "tx_ipv6_eff_([0-9]+)"),
                    new Column("`tx_ipv6_latency_cycles_*`", "tx_ipv6_latency_cycles_([0-9]+)"),
                    new Column("`udp_checksum_added_latency_cycles_*`", "udp_checksum_added_latency_cycles_([0-9]+)"))),
            list("framing-latency", "framing", "tx_latency_cycles", "rx_latency_cycles"),
            new Table("packing", "cmdpath", List.of("command bytes", "destinations"), false, List.of(
                    new Column("`pack_eff_*`", "pack_eff_([0-9]+)_([0-9]+)"),
                    new Column("`pack_opt_*`", "pack_opt_([0-9]+)_([0-9]+)"),
                    new Column("`pack_eff_small_*`", "pack_eff_small_([0-9]+)_([0-9]+)"),
                    new Column("`pack_eff_large_*`", "pack_eff_large_([0-9]+)_([0-9]+)"))),
            new Table("drain", "cmdpath", List.of("command bytes", "destinations"), false, List.of(
                    new Column("`cmdpath_drain_bytes_per_cycle_*`", "cmdpath_drain_bytes_per_cycle_([0-9]+)_([0-9]+)"))),
            list("command-path", "cmdpath", "cmd_latency_cycles", "cmd_credit_loop_cycles"),
            new Table("queue-store-drain", "queue_store", List.of("command bytes"), false, List.of(
                    new Column("`queue_store_drain_bytes_per_cycle_*`", "queue_store_drain_bytes_per_cycle_([0-9]+)"))),
            list("instance", "sue", "e2e_latency_cycles", "e2e_latency_cycles_llr_cbfc",
                    "goodput_bytes_per_cycle_lossless", "goodput_frames_per_rtt", "retx_recovery_cycles",
                    "llr_recovery_cycles", "llr_replay_cycles"),
            new Table("goodput", "sue", List.of("frame loss"), false, List.of(
                    new Column("`goodput_loss_*`", "goodput_loss_(.+)"),
                    new Column("`goodput_gbn_bound_*`", "goodput_gbn_bound_(.+)"),
                    new Column("`goodput_llr_loss_*`", "goodput_llr_loss_(.+)"),
                    new Column("`llr_transport_retransmitted_*`", "llr_transport_retransmitted_(.+)"))),
            new Table("short-links", "sue", List.of("frame loss per link"), false, List.of(
                    new Column("`llr_goodput_fer_*`", "llr_goodput_fer_(.+)"),
                    new Column("`nollr_goodput_fer_*`", "nollr_goodput_fer_(.+)"))),
            new Table("flow-control", "sue", List.of("link flow control"), false, List.of(
                    new Column("`rx_overflow_drops_*`", "rx_overflow_drops_(.+)"))),
            new Table("cbfc-utilisation", "sue", List.of("credits, x BDP"), false, List.of(
                    new Column("`cbfc_utilisation_*bdp`", "cbfc_utilisation_(.+)bdp"),
                    new Column("`cbfc_utilisation_*bdp_analytic`", "cbfc_utilisation_(.+)bdp_analytic"))),
            new Table("line-rate", "line_rate", List.of("XPU bits", "command bytes"), false, List.of(
                    new Column("capacity, command bytes/cycle", "line_rate_capacity_([0-9]+)_([0-9]+)"),
                    new Column("`line_rate_*_1`, 1 VC", "line_rate_([0-9]+)_([0-9]+)_1"),
                    new Column("`line_rate_*_1_4vc`, 4 VCs", "line_rate_([0-9]+)_([0-9]+)_1_4vc"),
                    new Column("`line_rate_xpu_bound_*`", "line_rate_xpu_bound_([0-9]+)_([0-9]+)"),
                    new Column("`line_rate_loss_1e-3_*`", "line_rate_loss_1e-3_([0-9]+)_([0-9]+)"),
                    new Column("`line_rate_*_64`, 64 destinations", "line_rate_([0-9]+)_([0-9]+)_64"))),
            list("line-rate-destinations", "line_rate", "line_rate_256_256_4"),
            list("faults", "faults", "pfc_stall_overflow_drops", "cbfc_stall_overflow_drops",
                    "dead_destination_detect_cycles", "dead_destination_live_goodput",
                    "dead_destination_recovery_cycles", "llr_reinit_cycles"),
            new Table("axi", "axi", List.of("burst bytes"), false, List.of(
                    new Column("`axi_write_bytes_per_cycle_*`", "axi_write_bytes_per_cycle_([0-9]+)"),
                    new Column("`axi_read_bytes_per_cycle_*`", "axi_read_bytes_per_cycle_([0-9]+)"),
                    new Column("`fifo_bytes_per_cycle_*`, FIFO interface", "fifo_bytes_per_cycle_([0-9]+)"))),
            list("axi-latency", "axi", "axi_read_latency_cycles", "axi_read_latency_cycles_direct",
                    "axi_fifo_e2e_latency_cycles"),
            list("management", "mgmt", "mgmt_read_latency_cycles", "mgmt_write_latency_cycles",
                    "mgmt_reads_per_kcycle", "mgmt_regs_lut6_depth",
                    "mgmt_regs_lut6_luts", "mgmt_instance_small_cells_ports", "mgmt_instance_small_cells_managed",
                    "mgmt_instance_small_ffs_ports", "mgmt_instance_small_ffs_managed"),
            list("parallel", "parallel", "two_xpu_cycles_per_s_1_cores", "two_xpu_cycles_per_s_2_cores",
                    "two_xpu_parallel_speedup", "four_xpu_cycles_per_s_1_cores", "four_xpu_cycles_per_s_2_cores",
                    "four_xpu_parallel_speedup", "side_clock_window_us"),
            list("ports", "ports ports_switch", "ports_bytes_per_cycle_1", "ports_goodput_1", "ports_bytes_per_cycle_2",
                    "ports_goodput_2", "ports_bytes_per_cycle_4", "ports_goodput_4", "strict_vs_unordered_goodput_2_4",
                    "strict_vs_unordered_goodput_2_64", "strict_vs_unordered_goodput_4_4",
                    "strict_vs_unordered_goodput_4_64"),
            list("ports-pair", "ports", "ports_pair_bytes_per_cycle_1", "ports_pair_goodput_1",
                    "ports_pair_bytes_per_cycle_2", "ports_pair_goodput_2", "ports_pair_bytes_per_cycle_4",
                    "ports_pair_goodput_4", "strict_vs_unordered_goodput_2", "strict_vs_unordered_goodput_4"),
            list("failover", "ports failover", "failover_detect_cycles", "failover_goodput_2", "failover_cycles_2",
                    "failover_settle_cycles_2", "failover_goodput_4", "failover_cycles_4", "failover_settle_cycles_4",
                    "failover_goodput_unordered_2", "failover_cycles_unordered_2", "failover_settle_cycles_unordered_2",
                    "failover_goodput_unordered_4", "failover_cycles_unordered_4",
                    "failover_settle_cycles_unordered_4", "pair_detour_detect_cycles", "pair_detour_cycles_2",
                    "pair_detour_goodput_2", "pair_detour_cycles_4", "pair_detour_goodput_4"),
            new Table("synthesis", "crc framing cmdpath queue_store sue axi mgmt ports", List.of("design"), true, List.of(
                    new Column("cells", "(.+)_cells"),
                    new Column("flip-flops", "(.+)_ffs"),
                    new Column("memory bits", "(.+)_mem_bits"))),
            new Table("lut6", "lut6", List.of("design"), true, List.of(
                    new Column("LUT6 levels", "lut6_depth_(.+)"),
                    new Column("LUTs", "lut6_luts_(.+)"),
                    new Column("flip-flops", "lut6_ffs_(.+)"))));

    private static final Pattern MARKED = Pattern.compile("<!-- perf-table (\\S+) -->\n(.*?)<!-- /perf-table -->",
            Pattern.DOTALL);

    public static void main(String[] args) throws IOException {
        boolean check = false;
        Path json = Path.of("build", "bench.json");
        Path doc = Path.of("docs", "performance.md");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--check" -> check = true;
                case "--json" -> json = Path.of(args[++i]);
                case "--doc" -> doc = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: scripts/perf-tables [--check] [--json FILE] [--doc FILE]");
            }
        }
        if (!Files.exists(json)) {
            System.err.println(json + " does not exist: run scripts/bench first");
            System.exit(1);
        }
        Map<String, String> figures = figures(new ObjectMapper().readTree(json.toFile()));
        List<String> unplaced = new ArrayList<>();
        String before = Files.readString(doc);
        String after = rewrite(before, render(figures, unplaced));
        if (!unplaced.isEmpty()) {
            System.err.println("figures no table claims, put in the table '" + OTHER + "' (give them a table in "
                    + PerfTables.class.getName() + "): " + unplaced);
        }
        if (check) {
            if (!after.equals(before)) {
                System.err.println(doc + ": its tables are not those of " + json + "; run scripts/perf-tables");
                System.exit(1);
            }
            System.out.println(doc + ": tables as in " + json);
        } else {
            Files.writeString(doc, after);
            System.out.println("wrote the tables of " + doc + " from " + json);
        }
    }

    /** The figures in the file's order, formatted as the tables show them. */
    static Map<String, String> figures(JsonNode json) {
        Map<String, String> m = new LinkedHashMap<>();
        json.fields().forEachRemaining(e -> m.put(e.getKey(), format(e.getValue())));
        return m;
    }

    /** Whole numbers with thousands separators, the others as written. */
    static String format(JsonNode v) {
        if (!v.isNumber()) {
            throw new IllegalArgumentException("bench figures are numbers, got " + v);
        }
        return v.isIntegralNumber() ? String.format(Locale.ROOT, "%,d", v.longValue())
                : v.decimalValue().stripTrailingZeros().toPlainString();
    }

    /**
     * Markdown of every table by id, {@value #OTHER} last; the figures no table claims are added to {@code unplaced}.
     * Rows come in the order of the figures that fill them.
     */
    static Map<String, String> render(Map<String, String> figures, List<String> unplaced) {
        Map<String, String> claimedBy = new LinkedHashMap<>();
        Map<String, String> out = new LinkedHashMap<>();
        for (Table t : TABLES) {
            Map<List<String>, Map<Column, String>> rows = new LinkedHashMap<>();
            for (Map.Entry<String, String> f : figures.entrySet()) {
                for (Column c : t.columns()) {
                    Matcher m = c.key().matcher(f.getKey());
                    if (!m.matches()) {
                        continue;
                    }
                    String where = t.id() + " / " + c.header();
                    String earlier = claimedBy.put(f.getKey(), where);
                    if (earlier != null) {
                        throw new IllegalStateException(f.getKey() + " is claimed by " + earlier + " and " + where);
                    }
                    List<String> row = new ArrayList<>();
                    for (int g = 1; g <= m.groupCount(); g++) {
                        row.add(m.group(g));
                    }
                    rows.computeIfAbsent(row, k -> new LinkedHashMap<>()).put(c, f.getValue());
                }
            }
            out.put(t.id(), markdown(t, rows));
        }
        Set<String> rest = new LinkedHashSet<>(figures.keySet());
        rest.removeAll(claimedBy.keySet());
        unplaced.addAll(rest);
        StringBuilder other = new StringBuilder();
        if (rest.isEmpty()) {
            other.append("None: every figure of build/bench.json is in a table above.\n");
        } else {
            other.append("| figure | value |\n|---|---|\n");
            rest.forEach(k -> other.append("| `").append(k).append("` | ").append(figures.get(k)).append(" |\n"));
        }
        out.put(OTHER, other.toString());
        return out;
    }

    private static String markdown(Table t, Map<List<String>, Map<Column, String>> rows) {
        if (rows.isEmpty()) {
            return "Not in build/bench.json: `scripts/bench " + t.sections() + "` measures it.\n";
        }
        StringBuilder b = new StringBuilder("|");
        t.rowHeaders().forEach(h -> b.append(' ').append(h).append(" |"));
        t.columns().forEach(c -> b.append(' ').append(c.header()).append(" |"));
        b.append("\n|").append("---|".repeat(t.rowHeaders().size() + t.columns().size())).append('\n');
        rows.forEach((row, cells) -> {
            b.append('|');
            row.forEach(name -> b.append(' ').append(t.names() ? "`" + name + "`" : name).append(" |"));
            t.columns().forEach(c -> b.append(' ').append(cells.getOrDefault(c, "–")).append(" |"));
            b.append('\n');
        });
        return b.toString();
    }

    /** {@code doc} with every marked table replaced; every table has its marker and every marker its table. */
    static String rewrite(String doc, Map<String, String> tables) {
        Set<String> missing = new LinkedHashSet<>(tables.keySet());
        Set<String> seen = new LinkedHashSet<>();
        Matcher m = MARKED.matcher(doc);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String id = m.group(1);
            if (!tables.containsKey(id) || !seen.add(id)) {
                throw new IllegalStateException("docs: " + (seen.contains(id) && tables.containsKey(id)
                        ? "a second marker of the table " : "no table ") + id + "; tables: " + tables.keySet());
            }
            missing.remove(id);
            m.appendReplacement(b, Matcher.quoteReplacement("<!-- perf-table " + id + " -->\n" + tables.get(id)
                    + "<!-- /perf-table -->"));
        }
        m.appendTail(b);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("docs: no place (<!-- perf-table ID --> ... <!-- /perf-table -->) for the"
                    + " tables " + missing);
        }
        return b.toString();
    }
}
