package org.sue.lib.stream;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;

/**
 * Testbench for blocks with an s_axis input and an m_axis output: offers packets beat by beat (and their header on
 * s_hdr when the block has one), each beat held until it is taken, collects output packets, and checks the bus rules
 * (no empty beat; full beats except the last). One call to {@link #cycle} is one clock cycle.
 */
public final class StreamDriver {
    public final Simulator sim;
    public final int lanes;
    public final ArrayDeque<StreamPrependTest.Packet> toSend = new ArrayDeque<>();
    public final List<byte[]> received = new ArrayList<>();
    public final List<Long> receivedUser = new ArrayList<>();
    public final List<BigInteger> receivedUserBig = new ArrayList<>();
    /** tuser of packet i; by default the packet's own user field. */
    public java.util.function.IntFunction<BigInteger> userOf;
    private int packetIndex;
    private final boolean hasHeader;
    private ByteArrayOutputStream current = new ByteArrayOutputStream();
    private int offset;
    private boolean stalled;

    public StreamDriver(Simulator sim, int lanes, List<StreamPrependTest.Packet> packets) {
        this(sim, lanes, packets, true);
    }

    /** {@code reset}: false when the test has already reset the design and loaded state (e.g. tables). */
    public StreamDriver(Simulator sim, int lanes, List<StreamPrependTest.Packet> packets, boolean reset) {
        this.sim = sim;
        this.lanes = lanes;
        this.hasHeader = sim.topPorts().stream().anyMatch(s -> s.signal().name().equals("s_hdr"));
        toSend.addAll(packets);
        if (reset) {
            sim.reset();
        }
    }

    /** {@code offer}: offer the next beat (a beat offered and not yet taken is offered again whatever it says). */
    public void cycle(boolean offer, boolean ready) {
        StreamPrependTest.Packet p = toSend.peek();
        boolean valid = (offer || stalled) && p != null;
        if (valid) {
            int n = Math.min(lanes, p.payload().length - offset);
            sim.poke("s_axis_tdata", Beats.data(p.payload(), offset, n, lanes));
            boolean last = offset + n >= p.payload().length;
            sim.poke("s_axis_tkeep", last ? Beats.keep(n, lanes) : Beats.keep(lanes, lanes));
            sim.poke("s_axis_tlast", last ? 1 : 0);
            sim.poke("s_axis_tuser", userOf != null ? userOf.apply(packetIndex) : BigInteger.valueOf(p.user()));
            if (hasHeader) {
                sim.poke("s_hdr", new BigInteger(1, StreamPrependTest.reverse(p.header())));
            }
        }
        sim.poke("s_axis_tvalid", valid ? 1 : 0);
        sim.poke("m_axis_tready", ready ? 1 : 0);
        if (sim.peek("m_axis_tvalid") == 1 && ready) {
            long[] data = sim.peekWide("m_axis_tdata");
            long[] keep = sim.peekWide("m_axis_tkeep");
            boolean last = sim.peek("m_axis_tlast") == 1;
            if ((keep[0] & 1) == 0) {
                throw new AssertionError("a beat without lane 0 (an empty beat) at cycle " + sim.cycle());
            }
            for (int i = 0; i < lanes; i++) {
                boolean kept = ((keep[i / 64] >>> (i % 64)) & 1) != 0;
                if (kept) {
                    current.write((int) (data[i / 8] >>> (8 * (i % 8))));
                } else if (!last) {
                    throw new AssertionError("a lane is empty in a beat that is not the last, cycle " + sim.cycle());
                }
            }
            if (last) {
                received.add(current.toByteArray());
                BigInteger user = sim.peekBig("m_axis_tuser");
                receivedUserBig.add(user);
                receivedUser.add(user.longValue());
                current = new ByteArrayOutputStream();
            }
        }
        stalled = valid && sim.peek("s_axis_tready") == 0;
        if (valid && !stalled) {
            offset += lanes;
            if (offset >= p.payload().length) {
                toSend.poll();
                offset = 0;
                packetIndex++;
            }
        }
        sim.step();
    }
}
