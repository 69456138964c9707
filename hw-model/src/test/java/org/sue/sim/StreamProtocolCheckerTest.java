package org.sue.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Layout;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;

class StreamProtocolCheckerTest {
    /** Wires through: {@code in} to {@code out}, {@code s_axis} to {@code m_axis}; a flow {@code note} beside. */
    static final class Through extends Component {
        Through() {
            Stream.slave(this, "in", Layout.plain("data", 8)).into(Stream.master(this, "out", Layout.plain("data", 8)));
            StreamConfig axis = new StreamConfig(64, 4);
            Stream.slave(this, axis).into(Stream.master(this, axis));
            Flow.slave(this, "note", Layout.plain("data", 8)).into(Flow.master(this, "heard",
                    Layout.plain("data", 8)));
        }
    }

    private static Simulator sim() {
        Simulator sim = Simulator.compile(Design.elaborate(new Through()));
        StreamProtocolChecker.on(sim);
        sim.reset();
        return sim;
    }

    private static void offer(Simulator sim, int valid, int data, int ready) {
        sim.poke("in_valid", valid);
        sim.poke("in_data", data);
        sim.poke("out_ready", ready);
        sim.step();
    }

    @Test
    void everyStreamWithReadyIsWatchedBothWaysFlowsAreNot() {
        try (Simulator sim = sim()) {
            List<StreamProtocolChecker.Watched> streams = StreamProtocolChecker.on(sim).streams();
            assertEquals(List.of("in", "out", "s_axis", "m_axis"), streams.stream().map(
                    StreamProtocolChecker.Watched::name).toList());
            assertEquals(List.of(true, false, true, false), streams.stream().map(StreamProtocolChecker.Watched::input)
                    .toList());
            assertEquals(4, streams.get(2).payload().length, "tdata, tkeep, tlast, tuser");
        }
    }

    @Test
    void everySimulatorOfATestRunChecksItsStreams() {
        assertTrue(Boolean.getBoolean(StreamProtocolChecker.PROPERTY), "surefire sets "
                + StreamProtocolChecker.PROPERTY);
        try (Simulator sim = Simulator.compile(Design.elaborate(new Through()))) {
            StreamProtocolChecker attached = sim.listener(StreamProtocolChecker.class);
            assertNotNull(attached);
            assertSame(attached, StreamProtocolChecker.on(sim), "one checker per simulator");
        }
    }

    @Test
    void aLegalStreamPasses() {
        try (Simulator sim = sim()) {
            offer(sim, 1, 0x11, 0);
            for (int i = 0; i < 20; i++) {
                offer(sim, 1, 0x11, 0); // stalled for many cycles, held
            }
            offer(sim, 1, 0x11, 1); // moves
            offer(sim, 0, 0x99, 0); // valid low between beats: the payload means nothing
            offer(sim, 0, 0x42, 1);
            offer(sim, 1, 0x22, 1); // moves at once
            offer(sim, 1, 0x33, 1); // back to back
            offer(sim, 1, 0x44, 0);
            offer(sim, 1, 0x44, 1);
            offer(sim, 0, 0x00, 1);
        }
    }

    @Test
    void anInputWhoseValidDropsBeforeReadyIsCaught() {
        try (Simulator sim = sim()) {
            offer(sim, 1, 0x11, 1);
            offer(sim, 1, 0x22, 0); // cycle 2 (after the reset's cycle 0): stalled
            offer(sim, 1, 0x22, 0);
            StreamProtocolChecker.Violation v = assertThrows(StreamProtocolChecker.Violation.class,
                    () -> offer(sim, 0, 0x22, 0));
            assertEquals("stream protocol broken at cycle 4 on input stream 'in' (the testbench drives it): in_valid "
                    + "dropped before the beat moved: 0x1 -> 0x0 (in_ready was low at the edge of cycle 3)",
                    v.getMessage());
        }
    }

    @Test
    void anInputWhosePayloadChangesWhileStalledIsCaught() {
        try (Simulator sim = sim()) {
            offer(sim, 1, 0x22, 0);
            StreamProtocolChecker.Violation v = assertThrows(StreamProtocolChecker.Violation.class,
                    () -> offer(sim, 1, 0x23, 0));
            assertTrue(v.getMessage().contains("input stream 'in'"), v.getMessage());
            assertTrue(v.getMessage().contains("in_data changed while stalled: 0x22 -> 0x23"), v.getMessage());
        }
    }

    /** With the input exempt, what it does passes straight to the output: the block's side is caught. */
    @Test
    void anOutputThatDropsValidOrChangesItsPayloadIsCaught() {
        for (String broken : List.of("out_valid dropped before the beat moved: 0x1 -> 0x0",
                "out_data changed while stalled: 0x22 -> 0x5a")) {
            try (Simulator sim = sim()) {
                StreamProtocolChecker.on(sim).exempt("in");
                offer(sim, 1, 0x22, 0);
                boolean drop = broken.startsWith("out_valid");
                StreamProtocolChecker.Violation v = assertThrows(StreamProtocolChecker.Violation.class,
                        () -> offer(sim, drop ? 0 : 1, drop ? 0x22 : 0x5a, 0));
                assertTrue(v.getMessage().contains("output stream 'out' (the block drives it): " + broken),
                        v.getMessage());
            }
        }
    }

    @Test
    void packetStreamsAreCheckedByTheirAxiNames() {
        try (Simulator sim = sim()) {
            sim.poke("s_axis_tvalid", 1);
            sim.poke("s_axis_tlast", 1);
            sim.poke("m_axis_tready", 0);
            sim.step();
            sim.poke("s_axis_tlast", 0);
            StreamProtocolChecker.Violation v = assertThrows(StreamProtocolChecker.Violation.class, sim::step);
            assertTrue(v.getMessage().contains("s_axis_tlast changed while stalled"), v.getMessage());
        }
    }

    @Test
    void aResetReleasesAStalledBeatAndFlowsAreFree() {
        try (Simulator sim = sim()) {
            offer(sim, 1, 0x22, 0);
            sim.reset();
            offer(sim, 0, 0x00, 0);
            for (int i = 0; i < 4; i++) {
                sim.poke("note_valid", i & 1);
                sim.poke("note_data", i);
                sim.step();
            }
        }
    }

    @Test
    void exemptingAStreamThatDoesNotExistFails() {
        try (Simulator sim = sim()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> StreamProtocolChecker.on(sim).exempt("note"));
            assertTrue(e.getMessage().contains("no stream 'note'"), e.getMessage());
        }
    }
}
