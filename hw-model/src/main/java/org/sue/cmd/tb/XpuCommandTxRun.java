package org.sue.cmd.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Random;
import org.sue.cmd.CommandBeat;
import org.sue.cmd.CommandControl;
import org.sue.cmd.model.XpuCredits;
import org.sue.core.Layout;
import org.sue.lib.stream.tb.LayoutSource;
import org.sue.sim.Simulator;

/**
 * Drives an {@code XpuCommandTx} with random commands on every VC (no data, or up to 256 bytes; random gaps) and plays
 * SUE on {@code tx_*}: {@code tx_reset_out} high for the first cycles, every command start checked against the
 * credits the XPU holds ({@link XpuCredits}: a start without them is an error), each command's credits returned a
 * random time later (at most one of each kind a cycle, as SUE does). Every beat on {@code tx_*} is checked against the
 * beat that went in: same order, same fields, {@code tx_cycle} counting, {@code tx_valid} 2 on every beat of a command
 * with data.
 */
public final class XpuCommandTxRun {
    private record Owed(long due, int vc, boolean data) {
    }

    private final Simulator sim;
    private final int beatBytes;
    private final LayoutSource in;
    private final Layout beat;
    private final XpuCredits credits;
    private final ArrayDeque<BigInteger> sent = new ArrayDeque<>();
    private final ArrayDeque<Owed> owedCmd = new ArrayDeque<>();
    private final ArrayDeque<Owed> owedData = new ArrayDeque<>();
    private final int validPercent;
    private final int maxDelay;
    private int expectCycle;
    private long cycle;
    private long commands;

    public XpuCommandTxRun(Simulator sim, int dataWidth, int cmdCredits, int dataCredits, int count, long seed,
                           int validPercent, int maxDelay) {
        this.sim = sim;
        this.beatBytes = dataWidth / 8;
        this.beat = CommandBeat.layout(dataWidth);
        this.in = new LayoutSource(sim, "cmd", beat);
        this.credits = new XpuCredits(cmdCredits, dataCredits);
        this.validPercent = validPercent;
        this.maxDelay = maxDelay;
        Random rnd = new Random(seed);
        for (int i = 0; i < count; i++) {
            int length = rnd.nextInt(3) == 0 ? 0 : 1 + rnd.nextInt(256);
            int beats = Math.max(1, (length + beatBytes - 1) / beatBytes);
            BigInteger control = CommandControl.word(1 + rnd.nextInt(255), length, new BigInteger(96, rnd));
            int vc = rnd.nextInt(4);
            int xpu = rnd.nextInt(1024);
            for (int k = 0; k < beats; k++) {
                BigInteger b = beat.word().set("data", new BigInteger(dataWidth, rnd)).set("control", control)
                        .set("xpuid", xpu).set("vc", vc).set("tlast", k == beats - 1 ? 1 : 0).toBigInteger();
                in.add(b);
                sent.add(b);
            }
        }
    }

    /** Every command out, every credit back. */
    public boolean finished() {
        return sent.isEmpty() && owedCmd.isEmpty() && owedData.isEmpty();
    }

    public long commands() {
        return commands;
    }

    /** One cycle's inputs and checks of what the block shows; call before each step. */
    public void cycle(Random rnd) {
        boolean reset = cycle < 6;
        sim.poke("tx_reset_out", reset ? 1 : 0);
        Owed c = !owedCmd.isEmpty() && owedCmd.peek().due() <= cycle ? owedCmd.poll() : null;
        Owed d = !owedData.isEmpty() && owedData.peek().due() <= cycle ? owedData.poll() : null;
        sim.poke("tx_credit", XpuCredits.word(c == null ? -1 : c.vc(), d == null ? -1 : d.vc()));
        credits.give(c == null ? -1 : c.vc(), d == null ? -1 : d.vc());
        in.drive(rnd, validPercent);
        in.taken();
        long valid = sim.peek("tx_valid");
        if (valid != 0) {
            BigInteger want = sent.poll();
            check(want != null, "a beat nobody sent");
            BigInteger control = sim.peekBig("tx_control");
            int length = CommandControl.length(control);
            int beats = Math.max(1, (length + beatBytes - 1) / beatBytes);
            BigInteger got = beat.word().set("data", sim.peekBig("tx_data")).set("control", control)
                    .set("xpuid", sim.peek("xpuid")).set("vc", sim.peek("tx_vc"))
                    .set("tlast", sim.peek("tx_cycle") == beats - 1 ? 1 : 0).toBigInteger();
            check(got.equals(want), "beat differs from the one sent");
            check(sim.peek("tx_cycle") == expectCycle, "tx_cycle " + sim.peek("tx_cycle") + ", expected " + expectCycle);
            check(valid == (length > 0 ? 2 : 1), "tx_valid " + valid + " for length " + length);
            int vc = (int) sim.peek("tx_vc");
            if (expectCycle == 0) {
                check(credits.take(vc, length > 0), "a command started on VC " + vc + " without its credits");
                commands++;
                owedCmd.add(new Owed(cycle + 1 + rnd.nextInt(maxDelay), vc, false));
                if (length > 0) {
                    owedData.add(new Owed(cycle + 1 + rnd.nextInt(maxDelay), vc, true));
                }
            }
            expectCycle = beat.field("tlast").get(got) == 1 ? 0 : expectCycle + 1;
        }
        cycle++;
    }

    private void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("cycle " + cycle + ": " + what);
        }
    }
}
