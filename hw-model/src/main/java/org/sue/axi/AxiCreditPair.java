package org.sue.axi;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Signal;
import org.sue.lib.stream.CreditReceiver;
import org.sue.lib.stream.CreditSender;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;

/**
 * One AXI4 slave/master pair in the spec's credit form (SUE spec 3.2.2, docs/protocol.md 13.10): an {@link AxiBridge}
 * whose ten channels each run their own credit loop with the SoC. The channels into SUE (the slave's AW, W, AR, the
 * master's B, R) carry valid and payload, no ready: a {@link CreditReceiver} buffers each, and {@code <channel>_credit}
 * (an output) pulses once per beat that went on into the bridge. The channels out of SUE (the slave's B, R, the
 * master's AW, W, AR) leave through a {@link CreditSender} each, only while it holds credits; {@code <channel>_credit}
 * (an input) gives one back per pulse. A beat into SUE beyond its credits is dropped and counted
 * ({@code <channel>_overflow_beats}); a credit returned beyond a sender's start, too ({@code <channel>_excess_returns}).
 * The FIFO interface and the bridge's counters keep their names.
 */
public final class AxiCreditPair extends Component {
    /**
     * @param bridge the pair on the FIFO interface
     * @param slave  the credits of the slave's channels (the SoC's master sends AW, W, AR into SUE)
     * @param master the credits of the master's channels (SUE sends AW, W, AR to the SoC's slave)
     */
    public record Config(AxiBridge.Config bridge, AxiCredits slave, AxiCredits master) {
        public Config {
            if (bridge == null || slave == null || master == null) {
                throw new IllegalArgumentException("AxiCreditPair bridge, slave and master must be given");
            }
        }

        /** The default credits on both sides. */
        public static Config of(AxiBridge.Config bridge) {
            return new Config(bridge, AxiCredits.defaults(), AxiCredits.defaults());
        }

        /** The far master's AxID width: the master's channels carry the remapped IDs. */
        public int masterIdWidth() {
            return new AxiRemoteMaster.Config(bridge.axi(), bridge.remapEntries(), bridge.maxPartsPerEntry())
                    .masterIdWidth();
        }

        /** The ten channels with their payloads and credits. */
        public List<AxiCredits.Loop> loops() {
            return AxiCredits.loops(bridge.axi(), masterIdWidth(), bridge.pairs(), slave, master);
        }

        /** The SoC's side of these loops ({@link AxiCreditWrapper}): the same channels, the same credits. */
        public AxiCreditWrapper.Config wrapper() {
            return new AxiCreditWrapper.Config(bridge.axi(), masterIdWidth(), slave, master, bridge.pairs());
        }
    }

    public AxiCreditPair(Config config) {
        super(config);
        AxiBridge bridge = child("bridge", new AxiBridge(config.bridge()));
        List<Signal> inside = new ArrayList<>();
        for (AxiCredits.Loop loop : config.loops()) {
            Stream channel = Stream.ofPorts(bridge, loop.name(), loop.layout());
            inside.addAll(channel.signals());
            if (loop.intoSue()) {
                receive(loop, channel);
            } else {
                send(loop, channel);
            }
        }
        exposeRest(bridge, "", inside);
    }

    /** A channel into SUE: its beats from the SoC into a receiver, on into the bridge; a credit back per beat. */
    private void receive(AxiCredits.Loop loop, Stream toBridge) {
        Flow in = Flow.slave(this, loop.name(), loop.layout());
        CreditReceiver rx = child(loop.name() + "_rx", new CreditReceiver(new CreditReceiver.Config(
                loop.layout().width(), loop.credits())));
        rx.in.drive(in.valid(), in.payload());
        rx.out.translateInto(toBridge, rx.out.data());
        out(loop.name() + "_credit", 1).set(rx.creditReturn);
        exposeStatus(rx, loop.name() + "_");
    }

    /** A channel out of SUE: the bridge's beats through a sender to the SoC, while the SoC's credits last. */
    private void send(AxiCredits.Loop loop, Stream fromBridge) {
        CreditSender tx = child(loop.name() + "_tx", new CreditSender(new CreditSender.Config(loop.layout().width(),
                loop.credits())));
        fromBridge.translateInto(tx.in, fromBridge.payload());
        Flow.master(this, loop.name(), loop.layout()).drive(tx.out.valid(), tx.out.data());
        tx.creditReturn.set(in(loop.name() + "_credit", 1));
        exposeStatus(tx, loop.name() + "_");
    }
}
