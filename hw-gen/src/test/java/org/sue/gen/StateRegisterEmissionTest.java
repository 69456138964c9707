package org.sue.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.State;

/** A state register reaches the Verilog by name: a localparam per state, assignments and comparisons by name. */
class StateRegisterEmissionTest {
    enum Phase { IDLE, LOAD, SEND, DRAIN }

    static final class Walker extends Component {
        Walker() {
            Port go = in("go", 1);
            Port skip = in("skip", 1);
            State<Phase> phase = state("step", Phase.IDLE);
            when(phase.is(Phase.IDLE).and(go), () -> phase.set(Phase.LOAD))
                    .elseWhen(phase.is(Phase.LOAD), () -> phase.set(Hw.mux(skip, phase.code(Phase.DRAIN),
                            phase.code(Phase.SEND))))
                    .elseWhen(phase.isAny(Phase.SEND, Phase.DRAIN), () -> phase.set(Phase.IDLE));
            out("busy", 1).set(phase.is(Phase.IDLE).not());
            out("step_code", 2).set(phase.reg());
        }
    }

    @BeforeAll
    static void findVerilator() {
        EmissionLintTest.findVerilator();
    }

    @Test
    void statesAreLocalparamsAndTheVerilogIsLintClean(@TempDir Path dir) throws Exception {
        VerilogEmitter.Result r = VerilogEmitter.emit(Design.elaborate(new Walker()), dir);
        String v = Files.readString(r.files().get(0));
        for (Phase p : Phase.values()) {
            assertTrue(v.contains("localparam Phase_" + p + " = 2'd" + p.ordinal() + ";"), v);
        }
        assertTrue(v.contains("step <= Phase_LOAD;"), v);
        assertTrue(v.contains("(step == Phase_IDLE)"), v);
        EmissionLintTest.assertEveryFileLintClean(r);
        assertTrue(Files.notExists(dir.resolve("enumdefine.v")), "no empty enum-define file beside the modules");
    }
}
