package org.sue.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.sue.core.Port;
import org.sue.instance.SueInstance;

/**
 * The docs name the SUE instance's top-level ports as the generated top has them. The rule: a table right after the
 * line {@value #MARKER} in docs/*.md or README.md lists ports of the {@link SueInstance} top in its first column, as
 * backticked names, where {@code name_*} stands for every port that starts with {@code name_} and {@code <v>} for a
 * number. Every such name is a port of the default instance or of a configuration under configs/, and every port of
 * each of those tops is named in one of the tables.
 */
class SueInstancePortsTest {
    static final Path ROOT = Path.of(System.getProperty("sue.repo.root", ".."));
    static final String MARKER = "<!-- ports of SueInstance -->";
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*(<v>)?[a-z0-9_]*\\*?");

    /** The tops: the default instance and every configuration under configs/, by where they come from. */
    static Map<String, Set<String>> tops() throws Exception {
        Map<String, Set<String>> tops = new LinkedHashMap<>();
        tops.put("SueInstance.Config.defaults()", ports(SueInstance.Config.defaults()));
        try (Stream<Path> files = Files.list(ROOT.resolve("configs"))) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".json") && !name.endsWith(".schema.json")) {
                    tops.put("configs/" + name, ports(InstanceConfigJson.read(f).instance()));
                }
            }
        }
        return tops;
    }

    private static Set<String> ports(SueInstance.Config config) {
        Set<String> names = new TreeSet<>();
        for (Port p : new SueInstance(config).ports()) {
            names.add(p.name());
        }
        return names;
    }

    /** The names in the first column of every marked table, by the file and line they are on. */
    static Map<String, String> documentedNames() throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(ROOT.resolve("README.md"));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        Map<String, String> names = new LinkedHashMap<>();
        Pattern quoted = Pattern.compile("`([^`]*)`");
        for (Path doc : docs) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).trim().equals(MARKER)) {
                    continue;
                }
                String where = ROOT.relativize(doc) + ":" + (i + 2);
                assertTrue(i + 3 < lines.size() && lines.get(i + 1).startsWith("|")
                        && lines.get(i + 2).startsWith("|---"), where + ": a table must follow " + MARKER);
                for (int j = i + 3; j < lines.size() && lines.get(j).startsWith("|"); j++) {
                    String first = lines.get(j).split("\\|")[1];
                    Matcher m = quoted.matcher(first);
                    boolean any = false;
                    while (m.find()) {
                        String name = m.group(1);
                        String at = ROOT.relativize(doc) + ":" + (j + 1);
                        assertTrue(NAME.matcher(name).matches(), at + ": `" + name + "` is not a port name");
                        names.putIfAbsent(name, at);
                        any = true;
                    }
                    assertTrue(any, ROOT.relativize(doc) + ":" + (j + 1) + ": no port in the first column");
                }
            }
        }
        return names;
    }

    /** {@code name}, {@code name_*} or {@code name_<v>} as a pattern over port names. */
    static Pattern pattern(String name) {
        return Pattern.compile(Pattern.quote(name).replace("<v>", "\\E[0-9]+\\Q").replace("*", "\\E[a-z0-9_]+\\Q"));
    }

    @Test
    void everyDocumentedPortIsOneOfTheTopAndEveryPortIsDocumented() throws Exception {
        Map<String, Set<String>> tops = tops();
        Map<String, String> documented = documentedNames();
        assertTrue(documented.size() > 20, "the marked tables were found: " + documented.keySet());
        Set<String> all = new TreeSet<>();
        tops.values().forEach(all::addAll);
        List<String> unknown = new ArrayList<>();
        documented.forEach((name, at) -> {
            Pattern p = pattern(name);
            if (all.stream().noneMatch(port -> p.matcher(port).matches())) {
                unknown.add(at + ": `" + name + "`");
            }
        });
        assertEquals(List.of(), unknown, "documented as ports of SueInstance, but no top has them");
        List<Pattern> patterns = documented.keySet().stream().map(SueInstancePortsTest::pattern).toList();
        for (Map.Entry<String, Set<String>> top : tops.entrySet()) {
            List<String> undocumented = top.getValue().stream()
                    .filter(port -> patterns.stream().noneMatch(p -> p.matcher(port).matches())).toList();
            assertEquals(List.of(), undocumented, "ports of " + top.getKey() + " that no marked table names");
        }
    }

    @Test
    void theRuleReadsNamesGroupsAndVcNumbers() {
        assertTrue(pattern("rx_fifo_level_<v>").matcher("rx_fifo_level_3").matches());
        assertTrue(pattern("tp_tx_*").matcher("tp_tx_pdus_sent").matches());
        assertFalse(pattern("tp_tx_*").matcher("tp_tx_").matches());
        assertFalse(pattern("tbl_wr_en").matcher("tbl_wr_valid").matches());
        assertFalse(NAME.matcher("ctl_out_* (valid)").matches());
    }
}
