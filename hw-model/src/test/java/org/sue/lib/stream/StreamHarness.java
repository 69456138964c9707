package org.sue.lib.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sue.lib.stream.StreamNarrowTest.keepValue;
import static org.sue.lib.stream.StreamNarrowTest.reversed;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.lib.stream.model.StreamNarrowReference.Beat;
import org.sue.sim.Simulator;

/**
 * Drives a block with an s_axis input and an m_axis output beat by beat, whatever their widths: offers input beats in
 * order, each held until taken; records the beats taken, the output beats and the flow control seen. Shared by
 * StreamNarrowTest and StreamWidenTest, which differ only in the block and in the reference they check against (their
 * own subclasses). Unlike {@link StreamDriver} it keeps beats as they are (any tkeep, a tuser per beat) and checks no
 * bus rule, so that the reference decides what each output beat must be.
 */
class StreamHarness {
    final Simulator sim;
    final ArrayDeque<Beat> toSend = new ArrayDeque<>();
    final List<Beat> taken = new ArrayList<>();
    final List<Beat> received = new ArrayList<>();
    int stalls;
    int storedUnderStall; // input beats taken while the output was not ready
    int cyclesWithoutTake; // cycles that offered an input beat and did not take it
    private boolean stalled;

    StreamHarness(Component design, List<Beat> beats) {
        sim = Simulator.compile(Design.elaborate(design));
        toSend.addAll(beats);
        sim.reset();
    }

    /** One clock cycle: {@code offer} the next beat (one offered and not taken is offered again regardless). */
    void cycle(boolean offer, boolean ready) {
        Beat b = toSend.peek();
        boolean valid = (offer || stalled) && b != null;
        sim.poke("s_axis_tvalid", valid ? 1 : 0);
        if (valid) {
            sim.poke("s_axis_tdata", new BigInteger(1, reversed(b.data())));
            sim.poke("s_axis_tkeep", keepValue(b.keep()));
            sim.poke("s_axis_tlast", b.last() ? 1 : 0);
            sim.poke("s_axis_tuser", b.user());
        }
        sim.poke("m_axis_tready", ready ? 1 : 0);
        if (sim.peek("m_axis_tvalid") == 1) {
            if (ready) {
                received.add(outputBeat());
            } else {
                stalls++;
            }
        }
        stalled = valid && sim.peek("s_axis_tready") == 0;
        if (valid && !stalled) {
            taken.add(toSend.poll());
            if (!ready) {
                storedUnderStall++;
            }
        }
        if (valid && stalled) {
            cyclesWithoutTake++;
        }
        sim.step();
    }

    /** The output beat on m_axis, as wide as the block's output (read from tkeep's width). */
    private Beat outputBeat() {
        int outLanes = sim.signal("m_axis_tkeep").width();
        byte[] data = new byte[outLanes];
        byte[] big = sim.peekBig("m_axis_tdata").toByteArray();
        for (int i = 0; i < outLanes && i < big.length; i++) {
            data[i] = big[big.length - 1 - i];
        }
        BigInteger k = sim.peekBig("m_axis_tkeep");
        boolean[] keep = new boolean[outLanes];
        for (int i = 0; i < outLanes; i++) {
            keep[i] = k.testBit(i);
        }
        return new Beat(data, keep, sim.peek("m_axis_tlast") == 1, sim.peekBig("m_axis_tuser"));
    }

    /** The output beats are {@code expected}, in order (the first that differs named by its index). */
    void assertReceived(List<Beat> expected) {
        assertEquals(expected.size(), received.size(), "output beats");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), received.get(i), "output beat " + i);
        }
    }

    /** A tkeep of any shape: zero, a single lane, contiguous not from lane 0, or random holes. */
    static boolean[] anyKeep(int lanes, Random rnd) {
        boolean[] keep = new boolean[lanes];
        switch (rnd.nextInt(4)) {
            case 0 -> { } // no kept byte
            case 1 -> keep[rnd.nextInt(lanes)] = true;
            case 2 -> Arrays.fill(keep, rnd.nextInt(lanes), lanes, true); // contiguous, not from lane 0
            default -> {
                for (int l = 0; l < lanes; l++) {
                    keep[l] = rnd.nextInt(8) == 0;
                }
            }
        }
        return keep;
    }
}
