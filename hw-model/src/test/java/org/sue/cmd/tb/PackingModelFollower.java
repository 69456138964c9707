package org.sue.cmd.tb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.sue.cmd.CommandTable;
import org.sue.cmd.PackingBuffer;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.model.PackingModel;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * Runs a {@link PackingModel} alongside a simulated {@link PackingBuffer} (at {@code prefix} in the hierarchy): the
 * model is told, cycle by cycle, when the RTL's scheduler picked (with the gating inputs of that cycle; the model must
 * pick the same queue), and when the queue manager appended a command (the next of the arrival order) or took a
 * picked queue's turn; at the end the RTL's PDUs and xoff/xon notifications must be the model's, PDU for PDU and
 * byte for byte.
 */
public final class PackingModelFollower implements Simulator.CycleListener {
    private record Arrival(int dst, int vc, CommandCodec.Command command) {
    }

    private final String prefix;
    private final PackingModel model;
    private final int destinations;
    private final ArrayDeque<Arrival> arrivals = new ArrayDeque<>();
    final List<PackingModel.Pdu> predicted = new ArrayList<>();
    final List<PackingModel.Xoff> notified = new ArrayList<>();
    int skips;
    int fromClosed; // PDUs cut when a later command did not fit, before their turn

    public PackingModelFollower(Simulator sim, String prefix, PackingBuffer.Config config) {
        this.prefix = prefix;
        this.model = new PackingModel(config.pduLimit(), 2, config.xoffThreshold(), config.xonThreshold());
        this.destinations = config.destinations();
        sim.addListener(this);
    }

    /** The next command to reach the buffer, in arrival order. */
    public void arrives(int dst, int vc, CommandCodec.Command c) {
        arrivals.add(new Arrival(dst, vc, c));
    }

    @Override
    public void sample(Simulator sim, long cycle) {
        if (sim.peek(prefix + "pick") == 1) {
            int q = model.pick((int) sim.peek(prefix + "vc_ready"), queueReady(sim.peekBig(prefix + "dst_ready")));
            assertEquals(q, sim.peek(prefix + "take_queue"), "queue picked at cycle " + cycle);
        }
        if (sim.peek(prefix + "xoff_valid") == 1) {
            notified.add(new PackingModel.Xoff((int) sim.peek(prefix + "xoff_xpuid"),
                    (int) sim.peek(prefix + "xoff_vc"), sim.peek(prefix + "xoff_on") == 1));
        }
        if (sim.peek(prefix + "is_append") == 1) {
            Arrival a = arrivals.poll();
            model.append(a.dst(), a.vc(), a.command());
        }
        if (sim.peek(prefix + "is_take") == 1 || sim.peek(prefix + "is_skip") == 1) {
            long q = sim.peek(prefix + "c_queue");
            PackingModel.Pdu pdu = model.finish((int) (q >> 2), (int) (q & 3));
            if (pdu.commands().isEmpty()) {
                skips++;
            } else {
                predicted.add(pdu);
            }
            if (sim.peek(prefix + "is_take") == 1 && sim.peek(prefix + "from_closed") == 1) {
                fromClosed++;
            }
        }
        model.tick();
    }

    @Override
    public void close() {
    }

    /**
     * The PDUs that came out equal the model's; the notifications too, every queue back in xon; and the run packed,
     * sent single commands, cut PDUs before their turn and skipped closed windows often enough to have tested
     * something.
     */
    public void assertMatches(List<StreamMonitor.Packet> pdus, CommandTable table) {
        assertEquals(predicted.size(), pdus.size(), "PDU count");
        for (int i = 0; i < pdus.size(); i++) {
            SueMeta m = SueMeta.unpack(pdus.get(i).user());
            PackingModel.Pdu p = predicted.get(i);
            assertEquals(p.dst() + "/" + p.vc(), m.dstXpu() + "/" + m.vc(), "queue of PDU " + i);
            assertEquals(m.len(), pdus.get(i).bytes().length, "len of PDU " + i);
            assertEquals(p.commands(), CommandCodec.unpack(table, pdus.get(i).bytes()).commands(),
                    "commands of PDU " + i);
        }
        assertEquals(0, model.queued());
        assertEquals(model.notifications(), notified, "xoff/xon notifications");
        assertEquals(0, model.queuesInXoff(), "queues left in xoff");
        long packed = predicted.stream().filter(p -> p.commands().size() > 1).count();
        System.out.printf("model match: %d PDUs, %d packed, %d cut before their turn, %d skips, %d xoff/xon%n",
                pdus.size(), packed, fromClosed, skips, notified.size());
        assertTrue(packed > 20 && pdus.size() - packed > 20 && fromClosed > 10 && skips > 5
                && notified.size() > 20, pdus.size() + " PDUs, " + packed + " packed, " + fromClosed
                + " cut before their turn, " + skips + " skips, " + notified.size() + " notifications");
    }

    /** {@code dst_ready} (VC v's destinations in bits v x destinations + dst) as the model's bit per queue 4 dst + vc. */
    private BitSet queueReady(BigInteger dstReady) {
        BitSet ready = new BitSet();
        for (int v = 0; v < 4; v++) {
            for (int d = 0; d < destinations; d++) {
                ready.set(d * 4 + v, dstReady.testBit(v * destinations + d));
            }
        }
        return ready;
    }
}
