package org.sue.gen;

import java.util.Random;
import org.sue.cmd.CommandLoopback;
import org.sue.cmd.CommandPath;
import org.sue.cmd.CommandTable;
import org.sue.cmd.tb.CommandLoopbackRun;

/**
 * The main job's command path simulation: random commands from the XPU through the default command path (ingress,
 * packing buffers, scheduler) and straight back through the unpacker ({@link CommandLoopback}), with VC and
 * destination gating and XPU-side backpressure, checked end to end, and a short summary.
 */
public final class CommandLoopbackJob {
    private CommandLoopbackJob() {
    }

    public static void run() {
        CommandPath.Config path = CommandPath.Config.defaults(CommandTable.example());
        int commands = 3000;
        System.out.printf("%ncommand loopback, default command path (%d-bit XPU data, %d cells, %d destinations):"
                + " %d random commands XPU -> packing -> unpacking -> XPU%n", path.dataWidth(), path.cells(),
                path.destinations(), commands);
        long t0 = System.nanoTime();
        CommandLoopbackRun.Result r = new CommandLoopbackRun(new CommandLoopback.Config(path, 16, 8))
                .run(commands, new Random(2026), true, 60);
        System.out.printf("  %d delivered in %d cycles (%.1f s with compile); in order per destination and VC and"
                + " unchanged: %s; credits all back: %s%n", r.delivered(), r.cycles(),
                (System.nanoTime() - t0) / 1e9, r.intact() ? "yes" : "NO", r.creditsBack() ? "yes" : "NO");
        if (!r.intact() || !r.creditsBack() || r.overflowError() != 0) {
            throw new IllegalStateException("the command loopback lost, reordered or changed commands");
        }
    }
}
