package org.sue.cmd.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.sue.cmd.CommandBeat;
import org.sue.cmd.CommandControl;
import org.sue.cmd.model.XpuCredits;
import org.sue.core.Layout;
import org.sue.lib.stream.tb.LayoutSink;
import org.sue.sim.Simulator;

/**
 * Plays SUE's receive side (Table 2) into an {@code XpuCommandRx}: random commands on every VC, each started only
 * while SUE holds the XPU's credits for it ({@link XpuCredits}, taken on beat 0, given back from {@code rx_credit}),
 * its data beats back to back; random gaps between commands; random ready on every output. Checks every beat of every
 * output against what was delivered on its VC, in order; commands on a VC without an output are only counted.
 */
public final class XpuCommandRxRun {
    private final Simulator sim;
    private final int beatBytes;
    private final int vcs;
    private final Layout beat;
    private final XpuCredits credits;
    private final Random gen;
    private final List<LayoutSink> outs = new ArrayList<>();
    private final List<ArrayDeque<BigInteger>> expected = new ArrayList<>();
    private final ArrayDeque<long[]> pending = new ArrayDeque<>(); // beats of the command being delivered
    private final List<BigInteger> pendingBeats = new ArrayList<>();
    private int toSend;
    private long dropped;
    private long cycle;
    private final int validPercent;
    private final int readyPercent;

    public XpuCommandRxRun(Simulator sim, int dataWidth, int cmdCredits, int dataCredits, int vcs, int commands,
                           long seed, int validPercent, int readyPercent) {
        this.sim = sim;
        this.beatBytes = dataWidth / 8;
        this.vcs = vcs;
        this.beat = CommandBeat.layout(dataWidth);
        this.credits = new XpuCredits(cmdCredits, dataCredits);
        this.gen = new Random(seed);
        this.toSend = commands;
        this.validPercent = validPercent;
        this.readyPercent = readyPercent;
        for (int v = 0; v < vcs; v++) {
            outs.add(new LayoutSink(sim, "out_" + v, beat));
            expected.add(new ArrayDeque<>());
        }
    }

    public boolean finished() {
        return toSend == 0 && pendingBeats.isEmpty() && expected.stream().allMatch(ArrayDeque::isEmpty)
                && credits.allBack();
    }

    /** Commands delivered on a VC without an output. */
    public long dropped() {
        return dropped;
    }

    public void cycle(Random rnd) {
        credits.give(XpuCredits.cmdVc(sim.peek("rx_credit")), XpuCredits.dataVc(sim.peek("rx_credit")));
        if (pendingBeats.isEmpty() && toSend > 0 && rnd.nextInt(100) < validPercent) {
            next();
        }
        if (pendingBeats.isEmpty()) {
            sim.poke("rx_valid", 0);
        } else {
            BigInteger b = pendingBeats.remove(0);
            long[] info = pending.peek();
            sim.poke("rx_valid", info[1] > 0 ? 2 : 1);
            sim.poke("rx_cycle", info[2]++);
            sim.poke("rx_vc", beat.field("vc").get(b));
            sim.poke("rx_xpuid", beat.field("xpuid").get(b));
            sim.poke("rx_control", beat.field("control").getBig(b));
            sim.poke("rx_data", beat.field("data").getBig(b));
            if (pendingBeats.isEmpty()) {
                pending.poll();
            }
        }
        for (int v = 0; v < vcs; v++) {
            outs.get(v).drive(rnd, readyPercent);
        }
        for (int v = 0; v < vcs; v++) {
            BigInteger got = outs.get(v).taken();
            if (got != null) {
                BigInteger want = expected.get(v).poll();
                if (!got.equals(want)) {
                    throw new AssertionError("cycle " + cycle + ": out_" + v + " beat " + got.toString(16)
                            + ", expected " + (want == null ? "none" : want.toString(16)));
                }
            }
        }
        cycle++;
    }

    /** The next command, if SUE holds the credits for it. */
    private void next() {
        int vc = gen.nextInt(4);
        int length = gen.nextInt(3) == 0 ? 0 : 1 + gen.nextInt(256);
        if (!credits.take(vc, length > 0)) {
            return; // drawn again next time: the generator moves on, so the stimulus stays deterministic
        }
        toSend--;
        int beats = Math.max(1, (length + beatBytes - 1) / beatBytes);
        BigInteger control = CommandControl.word(1 + gen.nextInt(255), length, new BigInteger(96, gen));
        int xpu = gen.nextInt(1024);
        pending.add(new long[] {vc, length, 0});
        for (int k = 0; k < beats; k++) {
            BigInteger b = beat.word().set("data", new BigInteger(8 * beatBytes, gen)).set("control", control)
                    .set("xpuid", xpu).set("vc", vc).set("tlast", k == beats - 1 ? 1 : 0).toBigInteger();
            pendingBeats.add(b);
            if (vc < vcs) {
                expected.get(vc).add(b);
            }
        }
        if (vc >= vcs) {
            dropped++;
        }
    }
}
