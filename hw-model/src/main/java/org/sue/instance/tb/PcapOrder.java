package org.sue.instance.tb;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.sue.net.tb.PcapWriter;

/**
 * A two-XPU run's pcap file, its frames in the order lockstep sends them whichever way the sides run
 * ({@link SideClock}): each side's kept until the window ends ({@link #write}), then written by cycle, A's before
 * B's in a cycle (A's clock edge comes first in lockstep).
 */
final class PcapOrder {
    private record Sent(byte[] frame, long cycle) {
    }

    private final PcapWriter pcap;
    private final List<Sent> fromA = new ArrayList<>();
    private final List<Sent> fromB = new ArrayList<>();
    /** Where side A's frames go (its {@link XpuSide}'s tap); {@code b} likewise. */
    final BiConsumer<byte[], Long> a = (frame, cycle) -> fromA.add(new Sent(frame, cycle));
    final BiConsumer<byte[], Long> b = (frame, cycle) -> fromB.add(new Sent(frame, cycle));

    PcapOrder(PcapWriter pcap) {
        this.pcap = pcap;
    }

    /** Writes the frames the sides sent since the last call. */
    void write() {
        int i = 0;
        int j = 0;
        while (i < fromA.size() || j < fromB.size()) {
            boolean takeA = j == fromB.size() || i < fromA.size() && fromA.get(i).cycle() <= fromB.get(j).cycle();
            Sent s = takeA ? fromA.get(i++) : fromB.get(j++);
            pcap.write(s.frame(), s.cycle());
        }
        fromA.clear();
        fromB.clear();
    }
}
