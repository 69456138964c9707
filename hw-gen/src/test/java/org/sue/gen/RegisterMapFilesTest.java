package org.sue.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sue.mgmt.RegisterMap;
import org.sue.mgmt.RegisterMap.Register;

/** The committed register files of the default instance are what its register map writes today. */
class RegisterMapFilesTest {
    static final Path ROOT = Path.of(System.getProperty("sue.repo.root", ".."));

    @Test
    void theCommittedFilesAreCurrent() throws IOException {
        for (Map.Entry<Path, String> f : RegisterMapFiles.committed(RegisterMapFiles.defaultMap()).entrySet()) {
            assertEquals(f.getValue(), Files.readString(ROOT.resolve(f.getKey())), f.getKey()
                    + " is out of date: regenerate the register files with java -cp \"$(source scripts/lib.sh;"
                    + " module_classpath hw-gen)\" org.sue.gen.RegisterMapFiles");
        }
    }

    @Test
    void everyRegisterIsDocumentedDeclaredAndDescribed() {
        RegisterMap map = RegisterMapFiles.defaultMap();
        String md = RegisterMapFiles.markdown(map);
        String h = RegisterMapFiles.cHeader(map);
        String rdl = RegisterMapFiles.systemRdl(map);
        String json = RegisterMapFiles.json(map);
        for (Register r : map.registers()) {
            String hex = "0x" + Integer.toHexString(r.offset());
            assertTrue(md.contains("| " + hex) && md.contains("`" + r.name() + "`"), r.name() + " in registers.md");
            assertTrue(h.contains("#define SUE_" + (r.block() + "_" + r.name()).toUpperCase() + " " + hex + "u"),
                    r.name() + " in the header");
            assertTrue(rdl.contains("} " + r.name() + " @ 0x" + Integer.toHexString(r.offset() - blockBase(map, r))
                    + ";"), r.name() + " in the SystemRDL");
            assertTrue(json.contains("\"offset\" : " + r.offset()), r.name() + " in the JSON");
        }
    }

    private static int blockBase(RegisterMap map, Register r) {
        return map.blocks().stream().filter(b -> b.name().equals(r.block())).findFirst().orElseThrow().base();
    }
}
