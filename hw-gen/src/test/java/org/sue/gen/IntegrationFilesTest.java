package org.sue.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.sue.core.Component;
import org.sue.core.Port;

/** The integrator's page: the committed copy is current, and it explains every port of every managed top. */
class IntegrationFilesTest {
    static final Path ROOT = Path.of(System.getProperty("sue.repo.root", ".."));

    @Test
    void theCommittedPageIsCurrent() throws IOException {
        assertEquals(IntegrationFiles.defaultGuide(), Files.readString(ROOT.resolve(IntegrationFiles.COMMITTED)),
                "docs/integration.md is out of date: regenerate it with java -cp \"$(source scripts/lib.sh;"
                        + " module_classpath hw-gen)\" org.sue.gen.IntegrationFiles");
    }

    @Test
    void everyPortOfEveryConfigurationsManagedTopIsExplained() throws Exception {
        int tops = 0;
        try (Stream<Path> files = Files.list(ROOT.resolve("configs"))) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (!name.endsWith(".json") || name.endsWith(".schema.json")) {
                    continue;
                }
                InstanceConfigJson.Settings s = InstanceConfigJson.read(f);
                if (!s.management()) {
                    continue;
                }
                Component top = s.top();
                for (Port p : top.ports()) {
                    assertTrue(IntegrationFiles.explained(p.name()), name + ": port " + p.name()
                            + " is in no interface of integration.md");
                }
                String page = IntegrationFiles.guide("sue_instance", top, s.reset(), name);
                top.ports().forEach(p -> assertTrue(page.contains("| `" + p.name() + "` |"), p.name()));
                tops++;
            }
        }
        assertTrue(tops >= 3, "the FIFO configurations were checked: " + tops);
    }
}
