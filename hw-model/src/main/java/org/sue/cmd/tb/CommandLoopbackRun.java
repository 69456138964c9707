package org.sue.cmd.tb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.sue.cmd.CommandLoopback;
import org.sue.cmd.CommandPath;
import org.sue.cmd.model.CommandCodec;
import org.sue.core.Design;
import org.sue.sim.Simulator;

/**
 * Runs random commands through a {@link CommandLoopback} in the JVM simulator: a {@link CommandSender} sends them to
 * random destinations and VCs with random gaps, a {@link CommandReceiver} takes them back returning rx credits
 * {@code rxReturnPercent} of the cycles (XPU-side backpressure), and, with {@code gating}, VCs and destinations are
 * closed now and then while commands are still coming. It runs until everything is delivered and every credit is
 * back, or fails on a hang.
 */
public final class CommandLoopbackRun {
    /** What went in (per queue {dst, vc}, in order), what came back (per queue, in order), and the cost. */
    public record Result(Map<Integer, List<CommandCodec.Command>> sent, Map<Integer, List<CommandCodec.Command>> got,
                         int commands, int delivered, long cycles, boolean creditsBack, long overflowError,
                         long accepted) {
        /** Every command came back exactly once, unchanged, in order per {destination, VC}. */
        public boolean intact() {
            return sent.equals(got) && delivered == commands;
        }
    }

    public final Simulator sim;
    private final CommandLoopback.Config config;

    public CommandLoopbackRun(CommandLoopback.Config config) {
        this.config = config;
        sim = Simulator.compile(Design.elaborate(new CommandLoopback(config)));
    }

    public Result run(int commands, Random rnd, boolean gating, int rxReturnPercent) {
        CommandPath.Config path = config.path();
        sim.reset();
        CommandSender tx = new CommandSender(sim, path.dataWidth(), path.cmdCredits(), path.dataCredits());
        CommandReceiver rx = new CommandReceiver(sim, path.dataWidth(), path.table(), config.rxCmdCredits(),
                config.rxDataCredits(), "rx_xpuid");
        Map<Integer, List<CommandCodec.Command>> sent = new HashMap<>();
        int[] types = path.table().definedTypes();
        for (int i = 0; i < commands; i++) {
            int t = types[rnd.nextInt(types.length)];
            CommandCodec.Command c = new CommandCodec.Command(t,
                    RandomCommands.bytes(rnd, path.table().controlBytes(t)),
                    RandomCommands.bytes(rnd, path.table().hasData(t) ? rnd.nextInt(257) : 0));
            int dst = rnd.nextInt(path.destinations());
            int vc = rnd.nextInt(4);
            tx.add(dst, vc, c);
            sent.computeIfAbsent(dst * 4 + vc, k -> new ArrayList<>()).add(c);
        }
        long quiet = 0;
        long start = sim.cycle();
        while (quiet < 300) {
            boolean closing = gating && !tx.idle();
            if (sim.cycle() % 64 == 0) {
                Eligibility.set(sim, rnd, path.destinations(), closing);
            }
            int before = rx.delivered().size();
            tx.drive(rnd, 85);
            sim.poke("rx_credit", rx.creditReturn(rnd, rxReturnPercent));
            rx.sample();
            sim.step();
            boolean busy = !tx.idle() || rx.held() > 0 || rx.delivered().size() != before || !tx.creditsBack();
            quiet = busy ? 0 : quiet + 1;
            if (sim.cycle() - start > 200L * commands + 10_000) {
                throw new IllegalStateException("command loopback: no progress, " + rx.delivered().size() + " of "
                        + commands + " delivered after " + (sim.cycle() - start) + " cycles");
            }
        }
        Map<Integer, List<CommandCodec.Command>> got = new HashMap<>();
        for (CommandReceiver.Delivered d : rx.delivered()) {
            got.computeIfAbsent(d.src() * 4 + d.vc(), k -> new ArrayList<>()).add(d.command());
        }
        return new Result(sent, got, commands, rx.delivered().size(), sim.cycle() - start,
                tx.creditsBack() && rx.creditsBack(), sim.peek("overflow_error"), sim.peek("commands_accepted"));
    }
}
