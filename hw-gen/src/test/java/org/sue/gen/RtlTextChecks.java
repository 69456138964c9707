package org.sue.gen;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Text checks of emitted Verilog and file lists, each returning findings ("file:line: what") rather than failing, so
 * that a test can show they catch a bad file as well as pass the good ones.
 */
final class RtlTextChecks {
    private RtlTextChecks() {
    }

    /** A 1-bit range: a 1-bit signal is a plain wire or reg. */
    private static final Pattern ONE_BIT_RANGE = Pattern.compile("\\[\\s*0\\s*:\\s*0\\s*\\]");

    /**
     * A name made from a Java source position: SpinalHDL's {@code when_<File>java_l<line>} (and {@code switch_},
     * {@code _zz_when_...}, with {@code _1}-style suffixes), or any name carrying the Java file name.
     */
    private static final Pattern LINE_NAME = Pattern.compile("(?i)\\b(\\w*java\\w*|\\w*_l\\d+(_\\d+)*)\\b");

    private static final Pattern NAME = Pattern.compile("\\b[A-Za-z_][A-Za-z0-9_$]*\\b");

    static List<String> oneBitRanges(Path file) throws IOException {
        return find(file, ONE_BIT_RANGE, "1-bit range");
    }

    static List<String> lineNumberNames(Path file) throws IOException {
        return find(file, LINE_NAME, "name made from a Java line");
    }

    /** Names of Verilog text, comments left out (SpinalHDL's header comment names its own version and files). */
    static List<String> names(String verilog) {
        List<String> names = new ArrayList<>();
        Matcher m = NAME.matcher(verilog.replaceAll("//[^\n]*", ""));
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    private static List<String> find(Path file, Pattern p, String what) throws IOException {
        List<String> findings = new ArrayList<>();
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceAll("//.*", "");
            Matcher m = p.matcher(line);
            while (m.find()) {
                findings.add(file.getFileName() + ":" + (i + 1) + ": " + what + " '" + m.group() + "' in: "
                        + abbreviate(lines.get(i).trim()));
            }
        }
        return findings;
    }

    /**
     * A file list's problems: an entry that is absolute (the folder could not be moved or archived), or that does
     * not name an existing file relative to the list's folder; an empty list.
     */
    static List<String> fileListProblems(Path list) throws IOException {
        List<String> findings = new ArrayList<>();
        List<String> lines = Files.readAllLines(list);
        int entries = 0;
        for (int i = 0; i < lines.size(); i++) {
            String entry = lines.get(i).trim();
            if (entry.isEmpty()) {
                continue;
            }
            entries++;
            String where = list.getFileName() + ":" + (i + 1) + ": ";
            if (Path.of(entry).isAbsolute()) {
                findings.add(where + "absolute path " + entry + " (entries are relative to the list)");
            } else if (!Files.isRegularFile(list.toAbsolutePath().getParent().resolve(entry))) {
                findings.add(where + entry + " is no file next to the list (" + list.toAbsolutePath().getParent()
                        + ")");
            }
        }
        if (entries == 0) {
            findings.add(list.getFileName() + ": names no file");
        }
        return findings;
    }

    /** Files of the folder with the ending, sorted. */
    static List<Path> filesEnding(Path dir, String ending) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().endsWith(ending)).sorted().toList();
        }
    }

    private static String abbreviate(String line) {
        return line.length() <= 120 ? line : line.substring(0, 117) + "...";
    }
}
