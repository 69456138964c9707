package org.sue.cmd.tb;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.sue.cmd.CommandUser;
import org.sue.cmd.PackedCommand;
import org.sue.cmd.PackingBuffer;
import org.sue.cmd.QueueStore;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * The world around a {@link QueueStore} in simulation: commands of random sizes to random queues on the input, and
 * run requests for whole stored commands, oldest first per queue, each run at most {@code maxRunBytes}. It keeps what
 * each run must read back ({@link #expectedRuns}), which is the reference the store's output is checked against.
 * Call {@link #drive} once per cycle, before the clock edge.
 */
public final class QueueStoreTraffic {
    private record Sent(int queue, byte[] bytes) {
    }

    /** A stored command: its bytes and where the store says it starts. */
    private record Stored(byte[] bytes, int cell, int offset) {
    }

    /** A requested run: its queue and the bytes it must read back. */
    public record Run(int queue, byte[] bytes) {
    }

    private final Simulator sim;
    private final StreamSource source;
    private final ArrayDeque<Sent> sentCommands = new ArrayDeque<>(); // sent and not yet stored, in order
    private final Map<Integer, ArrayDeque<Stored>> stored = new HashMap<>(); // stored, not yet requested, per queue
    private final ArrayDeque<Integer> queuesWithStored = new ArrayDeque<>(); // round robin over them
    private final List<Run> expectedRuns = new ArrayList<>();
    private Run offered;
    private Stored offeredFirst;
    private int offeredCommands;
    /** Queues commands go to: 0 .. queues - 1 (a queue is {destination, VC}). */
    public int queues;
    public int sendPercent = 80;
    public int requestPercent = 60;
    public int readyPercent = 80;
    /** Commands are minCommandBytes .. maxCommandBytes long (at most 274). */
    public int minCommandBytes = 1;
    public int maxCommandBytes = PackedCommand.MAX_PACKED_BYTES;
    public int maxRunBytes = 2048;
    public long sent;

    public QueueStoreTraffic(QueueStore.Config config, Simulator sim) {
        this.sim = sim;
        this.source = new StreamSource(sim, "s_axis");
        this.queues = config.destinations() * SueMeta.VCS;
    }

    /** Pokes this cycle's inputs and notes what the store takes and reports at the coming edge. */
    public void drive(Random rnd) {
        if (source.idle() && rnd.nextInt(100) < sendPercent) {
            int q = rnd.nextInt(queues);
            byte[] b = RandomCommands.bytes(rnd, minCommandBytes
                    + rnd.nextInt(maxCommandBytes - minCommandBytes + 1));
            source.add(b, BigInteger.valueOf(new CommandUser(false, b.length, q % 4, q / 4).pack()));
            sentCommands.add(new Sent(q, b));
            sent++;
        }
        source.drive(rnd, 100);
        if (offered == null && !queuesWithStored.isEmpty() && rnd.nextInt(100) < requestPercent) {
            offerRun();
        }
        sim.poke("rd_valid", offered != null ? 1 : 0);
        if (offered != null) {
            sim.poke("rd_queue", offered.queue());
            sim.poke("rd_cell", offeredFirst.cell());
            sim.poke("rd_offset", offeredFirst.offset());
            sim.poke("rd_bytes", offered.bytes().length);
        }
        sim.poke("m_axis_tready", rnd.nextInt(100) < readyPercent ? 1 : 0);
        // what the coming edge does: a run taken, a beat taken, a command stored (requests for it from next cycle)
        if (offered != null && sim.peek("rd_ready") == 1) {
            expectedRuns.add(offered);
            for (int i = 0; i < offeredCommands; i++) {
                stored.get(offered.queue()).poll();
            }
            if (stored.get(offered.queue()).isEmpty()) {
                queuesWithStored.remove(offered.queue());
            }
            offered = null;
        }
        source.advance();
        if (sim.peek("stored_valid") == 1) {
            Sent next = sentCommands.poll();
            int q = next.queue();
            byte[] b = next.bytes();
            if (q != sim.peek("stored_queue") || b.length != sim.peek("stored_bytes")) {
                throw new IllegalStateException("cycle " + sim.cycle() + ": stored queue " + sim.peek("stored_queue")
                        + " bytes " + sim.peek("stored_bytes") + ", expected the command sent next: queue " + q
                        + " bytes " + b.length);
            }
            ArrayDeque<Stored> s = stored.computeIfAbsent(q, k -> new ArrayDeque<>());
            if (s.isEmpty()) {
                queuesWithStored.add(q);
            }
            s.add(new Stored(b, (int) sim.peek("stored_cell"), (int) sim.peek("stored_offset")));
        }
    }

    /** The next queue in turn offers its oldest stored commands that fit {@code maxRunBytes} (at least one). */
    private void offerRun() {
        int q = queuesWithStored.poll();
        queuesWithStored.add(q);
        ByteArrayOutputStream run = new ByteArrayOutputStream();
        offeredCommands = 0;
        for (Stored c : stored.get(q)) {
            if (offeredCommands > 0 && run.size() + c.bytes().length > maxRunBytes) {
                break;
            }
            run.writeBytes(c.bytes());
            offeredCommands++;
        }
        offeredFirst = stored.get(q).peek();
        offered = new Run(q, run.toByteArray());
    }

    /** Runs requested so far, in order: what {@code m_axis} must carry. */
    public List<Run> expectedRuns() {
        return expectedRuns;
    }

    /** Nothing sent waits to be stored, nothing stored waits to be requested. */
    public boolean allRequested() {
        return source.idle() && sentCommands.isEmpty() && queuesWithStored.isEmpty() && offered == null;
    }
}
