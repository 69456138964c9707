package org.sue.vectors;

import java.math.BigInteger;
import java.util.Random;
import org.sue.cmd.CommandLoopback;
import org.sue.cmd.CommandPath;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.tb.CommandReceiver;
import org.sue.cmd.tb.CommandSender;
import org.sue.cmd.tb.RandomCommands;
import org.sue.sim.Simulator;

/**
 * Drives a {@link CommandLoopback} from both XPU sides: a {@link CommandSender} with random commands to random
 * destinations and VCs (random gaps), a {@link CommandReceiver} returning rx credits slowly (backpressure), and
 * random VC and destination gating now and then.
 */
public final class CommandLoopbackTraffic implements GoldenScenario.Stimulus {
    private final CommandLoopback.Config config;
    private CommandSender tx;
    private CommandReceiver rx;

    public CommandLoopbackTraffic(CommandLoopback.Config config) {
        this.config = config;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        CommandPath.Config path = config.path();
        if (tx == null) {
            tx = new CommandSender(sim, path.dataWidth(), path.cmdCredits(), path.dataCredits());
            rx = new CommandReceiver(sim, path.dataWidth(), path.table(), config.rxCmdCredits(),
                    config.rxDataCredits(), "rx_xpuid");
        }
        if (cycle % 64 == 0) {
            int queues = 4 * path.destinations(); // a bit per queue {destination, VC}
            BigInteger open = BigInteger.ONE.shiftLeft(queues).subtract(BigInteger.ONE);
            sim.poke("vc_ready", rnd.nextInt(3) == 0 ? rnd.nextInt(16) : 0xf);
            sim.poke("dst_ready", rnd.nextInt(3) == 0 ? open.clearBit(rnd.nextInt(queues)) : open);
        }
        while (tx.queued() < 3) {
            int[] types = path.table().definedTypes();
            int t = types[rnd.nextInt(types.length)];
            tx.add(rnd.nextInt(path.destinations()), rnd.nextInt(4), new CommandCodec.Command(t,
                    RandomCommands.bytes(rnd, path.table().controlBytes(t)),
                    RandomCommands.bytes(rnd, path.table().hasData(t) ? rnd.nextInt(257) : 0)));
        }
        tx.drive(rnd, 80);
        sim.poke("rx_credit", rx.creditReturn(rnd, 40));
        rx.sample();
    }
}
