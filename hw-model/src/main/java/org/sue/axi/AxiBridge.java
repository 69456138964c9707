package org.sue.axi;

import java.util.ArrayList;
import java.util.List;
import org.sue.cmd.CommandControl;
import org.sue.cmd.XpuCommandRx;
import org.sue.cmd.XpuCommandTx;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Reg;
import org.sue.core.Signal;
import org.sue.core.Tag;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Channel;
import org.sue.lib.stream.Stream;

/**
 * The AXI4 slave/master pairs of one XPU on the FIFO interface (docs/protocol.md 13): per pair the SoC's requests into
 * SUE and their responses back ({@code s_aw}, {@code s_w}, {@code s_ar}, {@code s_b}, {@code s_r}), remote XPUs'
 * requests to the SoC's slave and its responses ({@code m_aw}, {@code m_w}, {@code m_b}, {@code m_ar}, {@code m_r});
 * with more than one pair, pair p's ports are {@code s<p>_*} and {@code m<p>_*}. Toward SUE one FIFO interface
 * ({@code tx_*}, {@code xpuid}, {@code tx_credit}, {@code tx_reset_out}; {@code rx_*}, {@code rx_credit}).
 *
 * <p>Stages: every pair's request side and far master share the transmit side, whole commands in turn; the receive
 * side hands VC0 (requests) to the far masters and VC1 (responses) to the response sides, each with a FIFO and
 * credits of its own; SUE's own answers go from a pair's request side to its response side, which reports completions
 * back. With several pairs, the commands carry the pair in the top bits of their ID ({@code log2(pairs)} bits above
 * the SoC's ID): requests go to the far master of the same pair number, responses back to the pair that asked.
 *
 * @param txCmdCredits  SUE's command credits per VC, as its command path starts them ({@code cmdCredits})
 * @param txDataCredits SUE's data credits per VC ({@code dataCredits})
 * @param rxCmdCredits  command credits per VC this bridge gives SUE's receive side (its unpacker's {@code cmdCredits})
 * @param rxDataCredits data credits per VC given ({@code dataCredits} of the unpacker)
 * @param pairs         slave/master pairs (1, 2 or 4), sharing the FIFO interface
 * @param responseTimeoutCycles the request side's response timeout ({@link AxiRequestPacker.Config}; 0: none)
 */
public final class AxiBridge extends Component {
    public record Config(AxiConfig axi, @Tag("re") int remapEntries, @Tag("mp") int maxPartsPerEntry,
                         @Tag("k") int txCmdCredits, @Tag("kd") int txDataCredits, @Tag("rk") int rxCmdCredits,
                         @Tag("rkd") int rxDataCredits, @Tag("p") int pairs, @Tag("rt") int responseTimeoutCycles) {
        public static final Bound PAIRS = Bound.powerOfTwo(1, 4);

        public Config {
            if (axi == null) {
                throw new IllegalArgumentException("AxiBridge axi must be given");
            }
            PAIRS.check("AxiBridge", "pairs", pairs);
            int pb = Integer.numberOfTrailingZeros(pairs);
            if (axi.idWidth() + pb > AxiConfig.ID_WIDTH.max()) {
                throw new ConfigException("AxiBridge", "{axi.idWidth} must be at most " + (AxiConfig.ID_WIDTH.max()
                        - pb) + " with {pairs} = " + pairs + " (the commands carry the pair in " + pb
                        + " more ID bits), got " + axi.idWidth());
            }
            master(axi, remapEntries, maxPartsPerEntry);
            AxiRequestPacker.Config.RESPONSE_TIMEOUT.check("AxiBridge", "responseTimeoutCycles",
                    responseTimeoutCycles);
            new XpuCommandTx.Config(axi.dataWidth(), txCmdCredits, txDataCredits);
            new XpuCommandRx.Config(axi.dataWidth(), rxCmdCredits, rxDataCredits, 2);
        }

        /** One pair. */
        public Config(AxiConfig axi, int remapEntries, int maxPartsPerEntry, int txCmdCredits, int txDataCredits,
                      int rxCmdCredits, int rxDataCredits) {
            this(axi, remapEntries, maxPartsPerEntry, txCmdCredits, txDataCredits, rxCmdCredits, rxDataCredits, 1);
        }

        /** With the default response timeout. */
        public Config(AxiConfig axi, int remapEntries, int maxPartsPerEntry, int txCmdCredits, int txDataCredits,
                      int rxCmdCredits, int rxDataCredits, int pairs) {
            this(axi, remapEntries, maxPartsPerEntry, txCmdCredits, txDataCredits, rxCmdCredits, rxDataCredits, pairs,
                    AxiRequestPacker.Config.DEFAULT_RESPONSE_TIMEOUT);
        }

        private static AxiRemoteMaster.Config master(AxiConfig axi, int entries, int parts) {
            return new AxiRemoteMaster.Config(axi, entries, parts);
        }

        /** One pair with the far master's 8 remap entries of 4 commands; the FIFO interface's credits as given. */
        public static Config of(AxiConfig axi, int txCmd, int txData, int rxCmd, int rxData) {
            return new Config(axi, 8, 4, txCmd, txData, rxCmd, rxData);
        }

        public Config withPairs(int p) {
            return new Config(axi, remapEntries, maxPartsPerEntry, txCmdCredits, txDataCredits, rxCmdCredits,
                    rxDataCredits, p, responseTimeoutCycles);
        }

        public Config withResponseTimeout(int cycles) {
            return new Config(axi, remapEntries, maxPartsPerEntry, txCmdCredits, txDataCredits, rxCmdCredits,
                    rxDataCredits, pairs, cycles);
        }

        /** Bits of a pair's number: 0, 1 or 2. */
        public int pairBits() {
            return Integer.numberOfTrailingZeros(pairs);
        }

        /** The pair's blocks' configuration: {@link #axi} with the pair bits above the SoC's ID. */
        public AxiConfig wire() {
            int pb = pairBits();
            return pb == 0 ? axi : new AxiConfig(axi.dataWidth(), axi.addrWidth(), axi.idWidth() + pb,
                    axi.userWidth(), axi.destinations(), axi.dstFromUser(), axi.dstLsb(), axi.maxOutstanding());
        }

        /** Prefix of pair {@code p}'s slave ({@code s}) or master ({@code m}) ports. */
        public String prefix(String side, int p) {
            return AxiBridge.prefix(side, pairs, p);
        }
    }

    /** Prefix of pair {@code p}'s slave ({@code s}) or master ({@code m}) ports among {@code pairs}: s_, or s0_, s1_. */
    public static String prefix(String side, int pairs, int p) {
        return side + (pairs == 1 ? "" : Integer.toString(p)) + "_";
    }

    private final Config config;

    public AxiBridge(Config config) {
        super(config);
        this.config = config;
        AxiConfig axi = config.axi();
        XpuCommandTx tx = child("tx", new XpuCommandTx(new XpuCommandTx.Config(axi.dataWidth(),
                config.txCmdCredits(), config.txDataCredits())));
        XpuCommandRx rx = child("rx", new XpuCommandRx(new XpuCommandRx.Config(axi.dataWidth(),
                config.rxCmdCredits(), config.rxDataCredits(), 2)));
        AxiConfig wire = config.wire();
        // the pair a command belongs to: the top bits of the ID in its control (requests and responses alike)
        List<Stream> requests = byPair("req", rx.out.get(AxiConfig.REQUEST_VC), wire.requestControl());
        List<Stream> responses = byPair("rsp", rx.out.get(AxiConfig.RESPONSE_VC), wire.writeResponseControl());
        List<Stream> toSue = new ArrayList<>();
        List<Signal> inside = new ArrayList<>();
        for (int p = 0; p < config.pairs(); p++) {
            pair(p, requests.get(p), responses.get(p), toSue, inside);
        }
        // transmit: every pair's requests (VC0) and its far master's responses (VC1), whole commands in turn
        Arbiter.roundRobinPackets("tx_arb", toSue).out().into(tx.cmd);
        for (Channel c : List.of(tx.cmd, rx.out.get(0), rx.out.get(1))) {
            inside.addAll(c.signals());
        }
        exposeRest(tx, "", inside);
        exposeRest(rx, "rx_", inside);
    }

    /**
     * Pair {@code p}: its request side, response side and far master, joined; their commands to SUE added to
     * {@code toSue}; their AXI4 ports and counters exposed under the pair's prefixes, the SoC's IDs widened by the
     * pair's number on the way in and narrowed on the way out.
     */
    private void pair(int p, Stream requestsIn, Stream responsesIn, List<Stream> toSue, List<Signal> inside) {
        AxiConfig wire = config.wire();
        String n = config.pairs() == 1 ? "" : "_" + p;
        AxiRequestPacker requests = child("requests" + n, new AxiRequestPacker(new AxiRequestPacker.Config(wire,
                config.responseTimeoutCycles())));
        AxiResponseUnpacker responses = child("responses" + n, new AxiResponseUnpacker(
                new AxiResponseUnpacker.Config(wire)));
        AxiRemoteMaster master = child("master" + n, new AxiRemoteMaster(Config.master(wire,
                config.remapEntries(), config.maxPartsPerEntry())));
        toSue.add(requests.cmd);
        toSue.add(master.rsp);
        requestsIn.into(master.req);
        responsesIn.into(responses.rsp);
        inside.addAll(requests.join(responses));
        for (Channel c : List.of(requests.cmd, responses.rsp, master.req, master.rsp)) {
            inside.addAll(c.signals());
        }
        String s = config.prefix("s", p);
        if (config.pairs() > 1) {
            socIds(p, s, requests, responses, inside);
        }
        exposeRest(requests, s, inside);
        exposeRest(responses, s, inside);
        String m = config.prefix("m", p); // the master's channels are m_aw, ...: m<p>_aw with several pairs
        exposeRest(master, name -> m + (name.startsWith("m_") ? name.substring(2) : name), inside);
    }

    /** The SoC's side of pair {@code p}: AxID gets the pair's number above it, BID and RID lose it. */
    private void socIds(int p, String s, AxiRequestPacker requests, AxiResponseUnpacker responses,
                        List<Signal> inside) {
        AxiConfig axi = config.axi();
        Expr pair = Hw.lit(config.pairBits(), p);
        for (Stream wide : List.of(requests.aw, requests.ar)) {
            Stream in = Stream.slave(this, s + wide.name(), axi.ax());
            in.translateInto(wide, withId(wide.layout(), in, Hw.cat(pair, in.get("id"))));
            inside.addAll(wide.signals());
        }
        for (Stream wide : List.of(responses.b, responses.r)) {
            Layout narrow = wide.name().equals("b") ? axi.b() : axi.r();
            Expr id = wide.get("id");
            wide.translateInto(Stream.master(this, s + wide.name(), narrow), withId(narrow, wide,
                    id.bits(axi.idWidth() - 1, 0)));
            unused(s + wide.name() + "_pair", id.bits(id.width() - 1, axi.idWidth())); // this pair's number
            inside.addAll(wide.signals());
        }
    }

    /** {@code from}'s fields in layout {@code to}, its ID {@code id}. */
    private static Expr withId(Layout to, Stream from, Expr id) {
        Layout.ExprBuilder b = to.expr();
        for (Layout.Field f : to.fields()) {
            b.set(f.name(), f.name().equals("id") ? id : from.get(f.name()));
        }
        return b.build();
    }

    /**
     * The commands of {@code in} to the pair their control names (the top bits of the ID below its epoch, in the
     * {@code id} field of {@code control}: a response's ID is where the write and read responses both have it), a
     * command's beats all with its first's: the control is read on the first beat only.
     */
    private List<Stream> byPair(String name, Stream in, Layout control) {
        if (config.pairs() == 1) {
            return List.of(in);
        }
        int pb = config.pairBits();
        Expr bits = CommandControl.LAYOUT.get(in.get("control"), "control");
        Expr id = control.get(bits.bits(control.width() - 1, 0), "id");
        int top = config.wire().idWidth();
        Expr live = id.bits(top - 1, top - pb);
        Reg first = reg(name + "_at_first", 1, 1);
        Reg held = reg(name + "_pair", pb, 0);
        when(in.fire(), () -> {
            first.set(in.get("tlast"));
            when(first, () -> held.set(live));
        });
        return in.demux(name + "_pair", Hw.mux(first, live, held), config.pairs());
    }

    public Config config() {
        return config;
    }
}
