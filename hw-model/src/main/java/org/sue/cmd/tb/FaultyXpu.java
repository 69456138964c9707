package org.sue.cmd.tb;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.sue.cmd.CommandIngress;
import org.sue.cmd.CommandTable;
import org.sue.cmd.CommandUser;
import org.sue.cmd.PackingBuffer;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.model.CommandIngressReference;
import org.sue.cmd.model.XpuCredits;
import org.sue.lib.stream.model.Beats;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.sim.Simulator;

/**
 * Plays the XPU around a {@link CommandIngress} in a running simulation, with deliberate mistakes (every drop reason
 * of the ingress: reserved tx_valid, tx_err, bad destination, undefined type, bad length, misnumbered or missing
 * beats, stray beats, commands sent without credit, garbage in unused lanes), and the packing buffer's side: takes
 * m_axis (ready {@code readyPercent} of the cycles) and releases each command {@code releaseDelay} cycles after it
 * came out. Every beat sent and every credit seen on tx_credit is also given to an optional
 * {@link CommandIngressReference}. Call {@link #drive} once per cycle before the clock edge.
 */
public final class FaultyXpu {
    private final Simulator sim;
    private final CommandIngress.Config config;
    private final CommandIngressReference ref;
    private final int beatBytes;
    private final ArrayDeque<CommandIngressReference.Beat> pending = new ArrayDeque<>();
    private final ArrayDeque<long[]> releases = new ArrayDeque<>(); // {cycle due, vc, has data}
    private final Set<CommandIngressReference.Beat> sendAnyway = Collections.newSetFromMap(new IdentityHashMap<>());
    private final XpuCredits credits;
    /** The packing buffer's side: m_axis as it came out. */
    public final StreamMonitor out;
    public int readyPercent = 100;
    public int releaseDelay = 3;
    public long firstInput = -1;
    public long lastInput;
    private int handled;

    /** {@code ref}: told every beat sent and every credit returned; null for none. */
    public FaultyXpu(Simulator sim, CommandIngress.Config config, CommandIngressReference ref) {
        this.sim = sim;
        this.config = config;
        this.ref = ref;
        this.beatBytes = config.dataWidth() / 8;
        this.credits = new XpuCredits(config.cmdCredits(), config.dataCredits());
        out = new StreamMonitor(sim, "m_axis", null);
        reset();
    }

    /** The XPU's side of an interface reset: nothing more to send, initial credits. */
    public void reset() {
        pending.clear();
        credits.reset();
        if (ref != null) {
            ref.reset();
        }
    }

    /** Beats still to send, commands still to release. */
    public boolean busy() {
        return !pending.isEmpty() || !releases.isEmpty();
    }

    public int pendingBeats() {
        return pending.size();
    }

    /** The beats of a well-formed command. */
    public List<CommandIngressReference.Beat> beats(CommandCodec.Command c, int dst, int vc) {
        byte[] control = CommandSender.control(c, c.data().length);
        int len = c.data().length;
        int n = Math.max(1, (len + beatBytes - 1) / beatBytes);
        List<CommandIngressReference.Beat> list = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            byte[] data = Arrays.copyOfRange(c.data(), Math.min(len, k * beatBytes), Math.min(len,
                    (k + 1) * beatBytes));
            list.add(new CommandIngressReference.Beat(len > 0 ? 2 : 1, k, vc, dst, control,
                    Arrays.copyOf(data, beatBytes), false));
        }
        return list;
    }

    public void queue(List<CommandIngressReference.Beat> beats) {
        pending.addAll(beats);
    }

    /**
     * Queues a random command to a random valid destination, well-formed or (when {@code faulty}) with one random
     * mistake; unused control and data lanes carry garbage; 5% of commands are sent even without credit.
     */
    public void queueCommand(Random rnd, boolean faulty) {
        CommandTable table = config.table();
        int[] types = table.definedTypes();
        int t = types[rnd.nextInt(types.length)];
        CommandCodec.Command c = new CommandCodec.Command(t, RandomCommands.bytes(rnd, table.controlBytes(t)),
                RandomCommands.bytes(rnd, table.hasData(t) ? rnd.nextInt(257) : 0));
        int dests = config.destinations();
        List<CommandIngressReference.Beat> beats = new ArrayList<>(beats(c, rnd.nextInt(dests), rnd.nextInt(4)));
        for (int k = 0; k < beats.size(); k++) { // garbage beyond the data and the control
            CommandIngressReference.Beat b = beats.get(k);
            byte[] data = b.data().clone();
            int used = Math.max(0, Math.min(beatBytes, c.data().length - k * beatBytes));
            for (int j = used; j < beatBytes; j++) {
                data[j] = (byte) rnd.nextInt(256);
            }
            byte[] control = b.control().clone();
            for (int j = 3 + c.control().length; j < control.length; j++) {
                control[j] = (byte) rnd.nextInt(256);
            }
            beats.set(k, new CommandIngressReference.Beat(b.valid(), b.cycle(), b.vc(), b.xpuid(), control, data,
                    false));
        }
        if (faulty) {
            int k = rnd.nextInt(beats.size());
            CommandIngressReference.Beat b = beats.get(k);
            byte[] control = b.control().clone();
            CommandIngressReference.Beat bad = switch (rnd.nextInt(9)) {
                case 0 -> with(b, 3, b.cycle(), b.xpuid(), control, false);           // reserved tx_valid
                case 1 -> with(b, b.valid(), b.cycle(), b.xpuid(), control, true);     // tx_err
                case 2 -> dests < 1024 // a destination out of range, if there is one
                        ? with(beats.get(0), beats.get(0).valid(), 0, dests + rnd.nextInt(1024 - dests), control, false)
                        : with(b, 3, b.cycle(), b.xpuid(), control, false);
                case 3 -> { // an undefined type
                    byte[] c0 = beats.get(0).control().clone();
                    c0[0] = (byte) (5 + rnd.nextInt(250));
                    yield with(beats.get(0), beats.get(0).valid(), 0, beats.get(0).xpuid(), c0, false);
                }
                case 4 -> { // a length the type or tx_valid does not allow
                    byte[] c0 = beats.get(0).control().clone();
                    c0[1] = (byte) (rnd.nextBoolean() ? 1 : 0);
                    c0[2] = (byte) (c0[1] == 1 ? rnd.nextInt(256) : 0);
                    if (c0[1] == 0 && c.data().length == 0) {
                        c0[2] = (byte) (1 + rnd.nextInt(200));
                    }
                    yield with(beats.get(0), beats.get(0).valid(), 0, beats.get(0).xpuid(), c0, false);
                }
                case 5 -> with(b, b.valid(), (b.cycle() + 1 + rnd.nextInt(3)) & 15, b.xpuid(), control, false);
                case 6 -> with(b, 1, b.cycle(), b.xpuid(), control, false); // tx_valid 1 on a data beat
                default -> null; // stop half-way (the next command interrupts) or a stray beat
            };
            if (bad == null) {
                if (beats.size() > 1) {
                    beats = beats.subList(0, 1 + rnd.nextInt(beats.size() - 1));
                } else {
                    beats.add(with(b, 2, 1 + rnd.nextInt(15), b.xpuid(), control, false));
                }
            } else if (bad.cycle() == 0 && k > 0) {
                beats.set(0, bad);
            } else {
                beats.set(k, bad);
            }
        }
        if (rnd.nextInt(100) < 5) { // sent whether or not the XPU holds the credits
            sendAnyway.add(beats.get(0));
        }
        pending.addAll(beats);
    }

    private static CommandIngressReference.Beat with(CommandIngressReference.Beat b, int valid, int cycle, int xpuid,
                                             byte[] control, boolean err) {
        return new CommandIngressReference.Beat(valid, cycle, b.vc(), xpuid, control, b.data(), err);
    }

    /** This cycle's inputs: the next beat (or an idle cycle), m_axis_tready, a release. */
    public void drive(Random rnd, int validPercent) {
        long credit = sim.peek("tx_credit");
        int cmdVc = XpuCredits.cmdVc(credit);
        int dataVc = XpuCredits.dataVc(credit);
        credits.give(cmdVc, dataVc);
        if (ref != null) {
            ref.returned(cmdVc, dataVc);
        }
        CommandIngressReference.Beat b = pending.peek();
        boolean go = b != null && rnd.nextInt(100) < validPercent && sim.peek("tx_reset_out") == 0;
        if (go && b.cycle() == 0 && b.valid() != 3 && !sendAnyway.contains(b)) {
            go = credits.has(b.vc(), b.valid() == 2);
        }
        if (go && sendAnyway.contains(b)) { // a violation: aim it at a VC whose credit the XPU lacks
            for (int v = 0; v < 4; v++) {
                if (!credits.has(v, b.valid() == 2)) {
                    b = new CommandIngressReference.Beat(b.valid(), 0, v, b.xpuid(), b.control(), b.data(),
                            b.err());
                }
            }
        }
        if (go) {
            pending.poll();
            if (b.cycle() == 0 && b.valid() != 3) {
                credits.take(b.vc(), b.valid() == 2); // the XPU spends what it holds, if it holds it
            }
            poke(b);
            if (ref != null) {
                ref.cycle(b);
            }
            if (firstInput < 0) {
                firstInput = sim.cycle();
            }
            lastInput = sim.cycle();
        } else {
            sim.poke("tx_valid", 0);
        }
        sim.poke("m_axis_tready", rnd.nextInt(100) < readyPercent ? 1 : 0);
        // the packing buffer releases each command some cycles after it came out, one per cycle
        while (handled < out.packets().size()) {
            CommandUser user = CommandUser.unpack(
                    out.packets().get(handled++).user().longValue());
            releases.add(new long[] {sim.cycle() + releaseDelay, user.vc(), user.hasData() ? 1 : 0});
        }
        long[] r = releases.peek();
        if (r != null && r[0] <= sim.cycle()) {
            releases.poll();
            sim.poke("rel_valid", 1);
            sim.poke("rel_vc", r[1]);
            sim.poke("rel_data", r[2]);
        } else {
            sim.poke("rel_valid", 0);
        }
    }

    private void poke(CommandIngressReference.Beat b) {
        sim.poke("tx_valid", b.valid());
        sim.poke("tx_cycle", b.cycle());
        sim.poke("tx_vc", b.vc());
        sim.poke("xpuid", b.xpuid());
        sim.poke("tx_err", b.err() ? 1 : 0);
        sim.poke("tx_control", Beats.data(b.control(), 0, b.control().length, b.control().length));
        sim.poke("tx_data", Beats.data(b.data(), 0, beatBytes, beatBytes));
    }

    /** True when the XPU holds exactly its initial credits on every VC. */
    public boolean creditsBack() {
        return credits.allBack();
    }
}
