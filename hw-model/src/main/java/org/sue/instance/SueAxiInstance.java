package org.sue.instance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sue.axi.AxiBridge;
import org.sue.axi.AxiCommandLoopback;
import org.sue.axi.AxiCreditPair;
import org.sue.axi.AxiCredits;
import org.sue.axi.AxiConfig;
import org.sue.axi.AxiWrappedPair;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Signal;

/**
 * An SUE instance whose XPU speaks AXI4 (docs/protocol.md 13): an {@link AxiBridge} (its pairs) on the FIFO command
 * interface of an {@link SueInstance}, met by the SoC in one of three forms ({@link Form}: the spec's credit loops, the
 * same closed by a standard valid/ready wrapper (default), or valid/ready straight in). The SoC's master drives the slave ({@code s_aw}, {@code s_w}, {@code s_ar}, {@code s_b},
 * {@code s_r}), the SoC's memory answers the master ({@code m_aw}, {@code m_w}, {@code m_b}, {@code m_ar},
 * {@code m_r}); every other port is the FIFO instance's under its own name (the MAC streams, the link control, the
 * header table, identity, counters) and the bridge's counters ({@code s_*}, {@code m_*}, {@code commands_sent}, ...).
 *
 * <p>The bridge holds SUE's transmit credits as the command path starts them and gives the unpacker the receive
 * credits the instance is configured with; the FIFO interface's resets are held low and every VC is ready (the
 * AXI4 form has no xoff: the SoC's master waits on the slave's ready). A new request to a destination the transport
 * has given up on ({@code tp_tx_dst_unreachable}) is answered SLVERR at once.
 */
public final class SueAxiInstance extends Component {
    /**
     * @param sue    the instance underneath; its command table must be the AXI form's ({@link AxiConfig#commandTable} of
     *               the bridge's {@link AxiBridge.Config#wire})
     * @param bridge the AXI4 pair: its data width, destinations and credits follow {@code sue} ({@link #bridgeFor})
     * @param form   how the pairs meet the SoC ({@link Form})
     * @param slave  with a credit form, the credits of each slave's channels ({@link AxiCredits})
     * @param master with a credit form, the credits of each master's channels
     */
    public record Config(SueInstance.Config sue, AxiBridge.Config bridge, Form form, AxiCredits slave,
                         AxiCredits master) {
        private static final String NAME = "SueAxiInstance";

        public Config {
            if (sue == null || bridge == null || form == null || slave == null || master == null) {
                throw new IllegalArgumentException("SueAxiInstance sue, bridge, form and credits must be given");
            }
            if (sue.unordered()) {
                throw new ConfigException(NAME, "{sue.transport.ordering} must be STRICT with AXI4: the far master"
                        + " takes a burst's parts and an ID's transactions in the order they were sent (docs/protocol.md"
                        + " 13.10), got UNORDERED");
            }
            AxiConfig axi = bridge.axi();
            if (axi.dataWidth() != sue.path().dataWidth()) {
                throw new ConfigException(NAME, "{bridge.axi.dataWidth} must be {sue.path.dataWidth} ("
                        + sue.path().dataWidth() + "), got " + axi.dataWidth());
            }
            if (axi.destinations() != sue.path().destinations()) {
                throw new ConfigException(NAME, "{bridge.axi.destinations} must be {sue.path.destinations} ("
                        + sue.path().destinations() + "), got " + axi.destinations());
            }
            if (!bridge.wire().commandTable().equals(sue.path().table())) {
                throw new ConfigException(NAME, "{sue.path.table} must be the AXI4 form's command table "
                        + bridge.wire().commandTable() + " (docs/protocol.md 13.2; its IDs carry the pair), got "
                        + sue.path().table());
            }
            if (bridge.txCmdCredits() != sue.path().cmdCredits() || bridge.txDataCredits() != sue.path().dataCredits()
                    || bridge.rxCmdCredits() != sue.rxCmdCredits() || bridge.rxDataCredits() != sue.rxDataCredits()) {
                throw new ConfigException(NAME, "{bridge} credits must be the instance's: transmit "
                        + sue.path().cmdCredits() + "/" + sue.path().dataCredits() + ", receive " + sue.rxCmdCredits()
                        + "/" + sue.rxDataCredits() + " (command/data)");
            }
        }

        /**
         * The bridge for {@code sue}: pairs of {@code axi}, one per 400 Gb/s of the port ({@link #defaultPairs}), 8
         * remap entries of 4 commands, the instance's credits.
         */
        public static AxiBridge.Config bridgeFor(SueInstance.Config sue, AxiConfig axi) {
            return AxiBridge.Config.of(axi, sue.path().cmdCredits(), sue.path().dataCredits(), sue.rxCmdCredits(),
                    sue.rxDataCredits()).withPairs(defaultPairs(sue));
        }

        /**
         * One AXI4 pair per 400 Gb/s of the port (SUE spec 3.2.2) [ours: the rate from the bus]: a 512-bit port runs
         * 400G at the reference clock of 781.25 MHz, so a pair per 512 bits of the bus, at least one.
         */
        public static int defaultPairs(SueInstance.Config sue) {
            return Math.max(1, sue.busWidth() / 512);
        }

        /**
         * {@code sue} with the AXI4 pairs of {@code axi} ({@link #bridgeFor}) and their command table, in the
         * default form ({@link Form#WRAPPER}) with the default credits.
         */
        public static Config of(SueInstance.Config sue, AxiConfig axi) {
            return with(sue, bridgeFor(sue, axi), Form.WRAPPER, AxiCredits.defaults(), AxiCredits.defaults());
        }

        /** The same with {@code pairs} AXI4 pairs (and the command table their IDs make). */
        public Config withPairs(int pairs) {
            return with(sue, bridge.withPairs(pairs), form, slave, master);
        }

        /** The same without Link Layer Retry and flow control on the port ({@link SueInstance.Config#withoutLinkLayer}). */
        public Config withoutLinkLayer() {
            return new Config(sue.withoutLinkLayer(), bridge, form, slave, master);
        }

        /** The same in form {@code f}. */
        public Config withForm(Form f) {
            return new Config(sue, bridge, f, slave, master);
        }

        /** {@code bridge} on {@code sue}, whose command table becomes the one the bridge's IDs make. */
        public static Config with(SueInstance.Config sue, AxiBridge.Config bridge, Form form, AxiCredits slave,
                                  AxiCredits master) {
            return new Config(sue.withPath(sue.path().toBuilder().table(bridge.wire().commandTable()).build()),
                    bridge, form, slave, master);
        }

        /** The pairs with their credit loops ({@link Form#CREDITS}, {@link Form#WRAPPER}). */
        public AxiCreditPair.Config creditPair() {
            return new AxiCreditPair.Config(bridge, slave, master);
        }

        /** Where the bridge sits in the design, for a testbench that looks inside: {@code axi.}, ... */
        public String bridgePath() {
            return switch (form) {
                case DIRECT -> "axi.";
                case CREDITS -> "axi.bridge.";
                case WRAPPER -> "axi.pair.bridge.";
            };
        }
    }

    /**
     * How the AXI4 pairs meet the SoC (SUE spec 3.2.2, docs/protocol.md 13.12): {@code CREDITS} the spec's credit
     * form, a credit loop per channel ({@link AxiCreditPair}); {@code WRAPPER} (default) the same loops closed inside
     * by the SoC side's buffers and counters ({@link AxiWrappedPair}), so the SoC sees standard valid/ready AXI4;
     * {@code DIRECT} [ours] valid/ready AXI4 straight into the pairs, without the loops (the least area and latency).
     */
    public enum Form { WRAPPER, CREDITS, DIRECT }

    private final Config config;

    public SueAxiInstance(Config config) {
        super(config);
        this.config = config;
        SueInstance sue = child("sue", new SueInstance(config.sue()));
        Component pairs = child("axi", switch (config.form()) {
            case DIRECT -> new AxiBridge(config.bridge());
            case CREDITS -> new AxiCreditPair(config.creditPair());
            case WRAPPER -> new AxiWrappedPair(config.creditPair());
        });
        List<Signal> inside = commandInterface(sue, pairs, unreachable(sue));
        exposeRest(sue, "", inside);
        exposeRest(pairs, "", inside);
    }

    /**
     * The destinations a request cannot reach (docs/protocol.md 13.3), a bit per XPU, from the transport's
     * unreachable connections (a bit per {port, XPU}): the connection the requests' VC is pinned to (10.2).
     */
    private Expr unreachable(SueInstance sue) {
        SueInstance.Config c = config.sue();
        Expr connections = sue.ports().stream().filter(p -> p.name().equals("tp_tx_dst_unreachable")).findFirst()
                .orElseThrow();
        int d = c.path().destinations();
        if (c.ports() == 1) {
            return connections;
        }
        List<Expr> bits = new ArrayList<>(); // the highest XPU first
        for (int x = d - 1; x >= 0; x--) {
            bits.add(connections.bit(SueInstance.pinnedPort(x, AxiConfig.REQUEST_VC, d, c.ports()) * d + x));
        }
        return wire("dst_unreachable", Hw.cat(bits));
    }

    /**
     * Joins every port of the pairs to the instance's port of the same name and the other direction (the FIFO
     * interface); the destinations requests cannot reach ({@code unreachable}) to every pair; holds the instance's
     * resets low and its VCs ready. Returns the ports joined inside.
     */
    private static List<Signal> commandInterface(SueInstance sue, Component bridge, Expr unreachable) {
        Map<String, Port> suePorts = new HashMap<>();
        sue.ports().forEach(p -> suePorts.put(p.name(), p));
        List<Signal> inside = AxiCommandLoopback.joinByName(bridge, sue, "");
        for (Port p : bridge.ports()) {
            if (p.name().matches("s[0-9]*_dst_unreachable")) {
                p.set(unreachable);
                inside.add(p);
            }
        }
        for (String tied : List.of("tx_reset_in", "rx_reset_in", "vc_ready")) {
            Port q = suePorts.get(tied);
            q.set(tied.endsWith("ready") ? Hw.ones(q.width()) : Hw.zeros(q.width()));
            inside.add(q);
        }
        return inside;
    }

    public Config config() {
        return config;
    }
}
