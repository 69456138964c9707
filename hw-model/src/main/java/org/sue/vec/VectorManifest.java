package org.sue.vec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The JSON manifest of a golden-vector file: which module, its configuration, reset style and ports, and where the
 * per-cycle body is. Format described in docs/vectors.md.
 */
public record VectorManifest(String module, JsonNode config, String clock, String reset, String resetStyle,
                             long cycles, String body, List<PortSpec> ports) {
    /** Version 2 adds the don't-care token {@code x} for outputs; version 1 files (without it) are still read. */
    public static final String FORMAT = "sue-vectors-2";
    static final String FORMAT_1 = "sue-vectors-1";
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public VectorManifest {
        ports = List.copyOf(ports);
    }

    public VectorManifest withCycles(long n) {
        return new VectorManifest(module, config, clock, reset, resetStyle, n, body, ports);
    }

    public int portIndex(String name) {
        for (int i = 0; i < ports.size(); i++) {
            if (ports.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("vector file of " + module + " has no port '" + name + "'");
    }

    public static VectorManifest read(Path json) {
        try {
            JsonNode n = JSON.readTree(json.toFile());
            if (!FORMAT.equals(n.path("format").asText()) && !FORMAT_1.equals(n.path("format").asText())) {
                throw new IllegalArgumentException(json + ": not a " + FORMAT + " manifest (format = '"
                        + n.path("format").asText() + "')");
            }
            List<PortSpec> ports = new ArrayList<>();
            for (JsonNode p : n.path("ports")) {
                ports.add(new PortSpec(p.path("name").asText(),
                        PortDir.valueOf(p.path("dir").asText().toUpperCase(Locale.ROOT)), p.path("width").asInt()));
            }
            return new VectorManifest(text(n, "module", json), n.path("config"), text(n, "clock", json),
                    text(n, "reset", json), text(n, "resetStyle", json), n.path("cycles").asLong(),
                    text(n, "body", json), ports);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read vector manifest " + json, e);
        }
    }

    private static String text(JsonNode n, String field, Path file) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException(file + ": manifest field '" + field + "' is missing");
        }
        return v.asText();
    }

    public void write(Path json) {
        ObjectNode n = JSON.createObjectNode();
        n.put("format", FORMAT);
        n.put("module", module);
        n.set("config", config == null ? JSON.createObjectNode() : config);
        n.put("clock", clock);
        n.put("reset", reset);
        n.put("resetStyle", resetStyle);
        n.put("cycles", cycles);
        n.put("body", body);
        ArrayNode ps = n.putArray("ports");
        for (PortSpec p : ports) {
            ps.addObject().put("name", p.name()).put("dir", p.dir().name().toLowerCase(Locale.ROOT))
                    .put("width", p.width());
        }
        try {
            Files.writeString(json, JSON.writeValueAsString(n) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write vector manifest " + json, e);
        }
    }
}
