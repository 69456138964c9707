package org.sue.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sue.sim.Simulator;

/** A state register holds its enum's ordinals, resets to its reset state, and shows the state names in the VCD. */
class StateRegisterTest {
    enum Phase { IDLE, LOAD, SEND }

    enum Lonely { ONLY }

    enum Keyword { WAIT, GO }

    static final class Walker extends Component {
        Walker() {
            Port go = in("go", 1);
            State<Phase> step = state("step", Phase.SEND);
            when(step.is(Phase.IDLE).and(go), () -> step.set(Phase.LOAD))
                    .elseWhen(step.is(Phase.LOAD), () -> step.set(Phase.SEND))
                    .elseWhen(step.isAny(Phase.SEND), () -> step.set(Phase.IDLE));
            out("code", 2).set(step.reg());
        }
    }

    @Test
    void walksThroughItsStatesAndNamesThemInTheWaveform(@TempDir Path dir) throws Exception {
        Simulator sim = Simulator.compile(Design.elaborate(new Walker()));
        Path vcd = dir.resolve("walker.vcd");
        sim.vcd(vcd);
        sim.reset();
        assertEquals(Phase.SEND.ordinal(), sim.peek("code"), "reset state");
        sim.poke("go", 0);
        sim.step(1);
        assertEquals(Phase.IDLE.ordinal(), sim.peek("code"));
        sim.step(3);
        assertEquals(Phase.IDLE.ordinal(), sim.peek("code"), "waits for go");
        sim.poke("go", 1);
        sim.step(1);
        assertEquals(Phase.LOAD.ordinal(), sim.peek("code"));
        sim.step(1);
        assertEquals(Phase.SEND.ordinal(), sim.peek("code"));
        sim.close();
        String text = Files.readString(vcd);
        assertTrue(text.matches("(?s).*\\$var string 1 \\S+ step_state \\$end.*"), text);
        for (Phase p : Phase.values()) {
            assertTrue(text.contains("s" + p.name() + " "), p + " named in the waveform");
        }
    }

    @Test
    void encodingIsTheOrdinalInTheFewestBits() {
        Design d = Design.elaborate(new Walker());
        Reg step = d.top().regs().stream().filter(r -> r.name().equals("step")).findFirst().orElseThrow();
        assertEquals(2, step.width());
        assertEquals(List.of("IDLE", "LOAD", "SEND"), step.stateNames());
        assertEquals(Phase.class, step.states());
    }

    @Test
    void anEnumOfOneConstantIsRefusedAtItsLine() {
        HdlException e = assertThrows(HdlException.class, () -> Design.elaborate(new Component() {
            {
                state("lonely", Lonely.ONLY);
            }
        }));
        assertTrue(e.getMessage().contains("needs at least 2 constants") && e.getMessage().contains(
                "StateRegisterTest.java"), e.getMessage());
        HdlException reserved = assertThrows(HdlException.class, () -> Design.elaborate(new Component() {
            {
                state("waiting", Keyword.GO);
            }
        }));
        assertTrue(reserved.getMessage().contains("WAIT") && reserved.getMessage().contains("StateRegisterTest.java"),
                reserved.getMessage());
    }
}
