package org.sue.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sue.gen.DefaultDesigns;

/** docs/performance.md's tables from build/bench.json: every figure of a full run in exactly one table. */
class PerfTablesTest {
    static final Path DOC = Path.of(System.getProperty("sue.repo.root", ".."), "docs", "performance.md");

    /**
     * The figure names a full {@code scripts/bench} run writes, section by section as the bench classes put them
     * (the speed cases and the LUT6 designs from the bench's own lists).
     */
    static List<String> fullRun() {
        List<String> keys = new ArrayList<>();
        String[] speed = {"jvm_first_cycle_s", "jvm_cold_cycles_per_s", "jvm_cycles_per_s", "verilator_first_cycle_s",
            "verilator_cycles_per_s", "sim_speed_ratio"};
        for (String s : speed) {
            keys.add("crc1024_" + s);
        }
        keys.addAll(List.of("crc1024_bytes_per_cycle", "crc1024_bus_bytes", "crc1024_latency_cycles",
                "jvm_replay_with_parsing_cycles_per_s", "verilator_replay_with_parsing_cycles_per_s", "bench_cycles",
                "jvm_sim_only_cycles_per_s", "crc1024_cells", "crc1024_ffs", "crc1024_depth"));
        for (int size : FramingBench.PDU_SIZES) {
            keys.addAll(List.of("tx_eff_" + size, "rx_eff_" + size));
        }
        keys.addAll(List.of("tx_latency_cycles", "rx_latency_cycles"));
        for (int size : new int[] {64, 4096}) {
            keys.addAll(List.of("tx_ipv6_eff_" + size, "tx_ipv6_latency_cycles_" + size,
                    "udp_checksum_added_latency_cycles_" + size));
        }
        for (String design : SimSpeedBench.cases().keySet()) {
            for (String s : speed) {
                keys.add(design + "_" + s);
            }
        }
        for (String block : List.of("tx", "rx", "rh_inserter", "pdu_pad", "crc_append", "header_inserter",
                "udp_checksum_ipv6", "rx_slice", "rx_packet_fifo", "cmdpath", "queue_store", "sue")) {
            keys.addAll(List.of(block + "_cells", block + "_ffs", block + "_mem_bits"));
        }
        for (String tag : List.of("", "small_", "large_")) {
            for (int size : CommandPathBench.SIZES) {
                for (int dests : CommandPathBench.DESTS) {
                    keys.add("pack_eff_" + tag + size + "_" + dests);
                    if (tag.isEmpty()) {
                        keys.add("pack_opt_" + size + "_" + dests);
                    }
                }
            }
        }
        for (int size : CommandPathBench.SIZES) {
            keys.addAll(List.of("cmdpath_drain_bytes_per_cycle_" + size + "_1",
                    "cmdpath_drain_bytes_per_cycle_" + size + "_64", "queue_store_drain_bytes_per_cycle_" + size));
        }
        keys.addAll(List.of("cmd_latency_cycles", "cmd_credit_loop_cycles", "e2e_latency_cycles",
                "e2e_latency_cycles_llr_cbfc", "goodput_bytes_per_cycle_lossless", "goodput_frames_per_rtt",
                "retx_recovery_cycles", "llr_recovery_cycles", "llr_replay_cycles"));
        for (String p : List.of("1e-4", "1e-3", "1e-2")) {
            keys.addAll(List.of("goodput_loss_" + p, "goodput_gbn_bound_" + p));
        }
        for (String p : List.of("1e-3", "1e-2")) {
            keys.addAll(List.of("goodput_llr_loss_" + p, "llr_transport_retransmitted_" + p, "llr_goodput_fer_" + p,
                    "nollr_goodput_fer_" + p));
        }
        for (String f : List.of("none", "pfc", "cbfc")) {
            keys.add("rx_overflow_drops_" + f);
        }
        for (String k : List.of("0.5", "1", "2")) {
            keys.addAll(List.of("cbfc_utilisation_" + k + "bdp", "cbfc_utilisation_" + k + "bdp_analytic"));
        }
        for (int width : LineRateBench.WIDTHS) {
            for (int bytes : LineRateBench.SIZES) {
                String wb = width + "_" + bytes;
                keys.addAll(List.of("line_rate_capacity_" + wb, "line_rate_xpu_bound_" + wb, "line_rate_" + wb + "_1",
                        "line_rate_" + wb + "_1_4vc"));
            }
            keys.add("line_rate_loss_1e-3_" + width + "_256");
        }
        keys.add("llr_reinit_cycles");
        for (int p : new int[] {1, 2, 4}) {
            keys.addAll(List.of("ports_bytes_per_cycle_" + p, "ports_goodput_" + p, "ports_pair_bytes_per_cycle_" + p,
                    "ports_pair_goodput_" + p, "ports_" + p + "_cells", "ports_" + p + "_ffs", "ports_" + p
                    + "_mem_bits"));
        }
        keys.add("failover_detect_cycles");
        keys.add("pair_detour_detect_cycles");
        for (int p : new int[] {2, 4}) {
            for (String tag : List.of("", "unordered_")) {
                keys.addAll(List.of("failover_goodput_" + tag + p, "failover_cycles_" + tag + p,
                        "failover_settle_cycles_" + tag + p));
            }
            keys.addAll(List.of("strict_vs_unordered_goodput_" + p, "strict_vs_unordered_goodput_" + p + "_4",
                    "strict_vs_unordered_goodput_" + p + "_" + PortsBench.DESTINATIONS));
            keys.addAll(List.of("pair_detour_cycles_" + p, "pair_detour_goodput_" + p));
        }
        for (String design : DefaultDesigns.all().keySet()) {
            keys.addAll(List.of("lut6_depth_" + design, "lut6_luts_" + design, "lut6_ffs_" + design));
        }
        return keys;
    }

    @Test
    void everyFigureOfAFullRunHasItsTableAndNoneIsLeftOut() {
        Map<String, String> figures = new LinkedHashMap<>();
        List<String> keys = fullRun();
        for (int i = 0; i < keys.size(); i++) {
            figures.put(keys.get(i), "f" + i);
        }
        List<String> unplaced = new ArrayList<>();
        Map<String, String> tables = PerfTables.render(figures, unplaced);
        assertEquals(List.of(), unplaced);
        String all = String.join("\n", tables.values());
        for (String value : figures.values()) {
            assertEquals(1, all.split("\\| " + value + " \\|", -1).length - 1, "each figure once: " + value);
        }
        assertTrue(tables.get(PerfTables.OTHER).startsWith("None"), tables.get(PerfTables.OTHER));
        assertTrue(tables.get("lut6").contains("| `sue_instance` |"), tables.get("lut6"));
        assertTrue(tables.get("packing").contains("| 16 | 64 |"), tables.get("packing"));
    }

    @Test
    void aFigureNoTableKnowsGoesToTheOtherTable() {
        Map<String, String> figures = new LinkedHashMap<>(Map.of("crc1024_depth", "6", "new_figure", "42"));
        List<String> unplaced = new ArrayList<>();
        Map<String, String> tables = PerfTables.render(figures, unplaced);
        assertEquals(List.of("new_figure"), unplaced);
        assertTrue(tables.get(PerfTables.OTHER).contains("| `new_figure` | 42 |"), tables.get(PerfTables.OTHER));
        assertTrue(tables.get("lut6").startsWith("Not in build/bench.json: `scripts/bench lut6`"), tables.get("lut6"));
        assertTrue(tables.get("crc").contains("| `crc1024_depth` | 6 |"), tables.get("crc"));
    }

    /** The doc has a place for every table and no other; rewriting changes only what is between the markers. */
    @Test
    void theDocHasAPlaceForEveryTable() throws Exception {
        String doc = Files.readString(DOC);
        Map<String, String> tables = PerfTables.render(Map.of(), new ArrayList<>());
        String rewritten = PerfTables.rewrite(doc, tables);
        assertEquals(rewritten, PerfTables.rewrite(rewritten, tables));
        assertEquals(strip(doc), strip(rewritten), "text outside the tables unchanged");
        Map<String, String> extra = new LinkedHashMap<>(tables);
        extra.put("missing", "x\n");
        assertThrows(IllegalStateException.class, () -> PerfTables.rewrite(doc, extra));
        assertThrows(IllegalStateException.class, () -> PerfTables.rewrite(doc + "\n<!-- perf-table stray -->\n"
                + "<!-- /perf-table -->\n", tables));
    }

    private static String strip(String doc) {
        return doc.replaceAll("(?s)<!-- perf-table \\S+ -->\n.*?<!-- /perf-table -->", "TABLE");
    }

    @Test
    void figuresAreFormattedAsTheTablesShowThem() throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                "{\"a\": 1461317, \"b\": 0.9633, \"c\": 124.2, \"d\": 7, \"e\": 1.0}");
        assertEquals(Map.of("a", "1,461,317", "b", "0.9633", "c", "124.2", "d", "7", "e", "1"),
                PerfTables.figures(json));
    }
}
