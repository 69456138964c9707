package org.sue.cmd;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Status;
import org.sue.core.Tag;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Channel;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.SyncFifo;
import org.sue.net.SueMeta;

/**
 * The XPU's side of the FIFO interface's receive half (SUE spec Table 2, docs/protocol.md 11.1, 11.5, 11.8), in
 * hardware: a block that takes commands (the AXI4 master's requests, the slave's responses) gets them from SUE
 * through it. {@code rx_*} beats, marked with their command's last beat, go into a FIFO of their VC, whose head
 * leaves as {@link CommandBeat}s on {@code out_<v>} through a register stage, so a VC whose taker waits does not hold
 * up the others. A beat arriving while its FIFO is empty and the stage can take it goes straight into the stage: on
 * {@code out_<v>} the next cycle.
 *
 * <p>Credits: SUE starts holding {@code cmdCredits} command and {@code dataCredits} data credits per VC (its unpacker's
 * configuration must say the same); a VC's FIFO holds what they can bring, a beat per command without data and
 * {@code ceil(256 / (N/8))} per command with data. A command's credits go back on {@code rx_credit} once its last beat
 * has left its FIFO, at most one of each kind a cycle, round robin over the VCs owed. Commands on a VC at or above
 * {@code vcs} are dropped as they arrive and their credits returned ({@code drops_vc}); a beat finding its FIFO full
 * (SUE sent beyond the credits) is dropped and flagged ({@code overflow_error}).
 */
public final class XpuCommandRx extends Component {
    public record Config(@Tag("n") int dataWidth, @Tag("k") int cmdCredits, @Tag("kd") int dataCredits,
                         @Tag("v") int vcs) {
        private static final String NAME = "XpuCommandRx";
        public static final Bound VCS = Bound.of(1, SueMeta.VCS);

        public Config {
            CommandIngress.Config.DATA_WIDTH.check(NAME, "dataWidth", dataWidth);
            XpuCommandTx.CREDITS.check(NAME, "cmdCredits", cmdCredits);
            XpuCommandTx.CREDITS.check(NAME, "dataCredits", dataCredits);
            VCS.check(NAME, "vcs", vcs);
            if (dataCredits > cmdCredits) {
                throw new ConfigException(NAME, "{dataCredits} must be at most {cmdCredits} (" + cmdCredits
                        + "), got " + dataCredits);
            }
        }

        /** Beats a VC's FIFO holds: what the credits can bring. */
        public int fifoBeats() {
            int dataBeats = (CommandTable.MAX_DATA_BYTES + dataWidth / 8 - 1) / (dataWidth / 8);
            return Math.max(2, cmdCredits - dataCredits + dataCredits * dataBeats);
        }
    }

    private final Config config;
    private final Layout beat;
    public final List<Stream> out = new ArrayList<>();

    public XpuCommandRx(Config config) {
        super(config);
        this.config = config;
        this.beat = CommandBeat.layout(config.dataWidth());
        for (int v = 0; v < config.vcs(); v++) {
            out.add(Stream.master(this, "out_" + v, beat));
        }
        Port rxCredit = out("rx_credit", CommandUnpacker.CREDIT.width());
        Flow in = entry();
        List<Expr> cmdFreed = new ArrayList<>();
        List<Expr> dataFreed = new ArrayList<>();
        List<Expr> pushed = new ArrayList<>();
        Expr vc = in.get("vc");
        Expr known = config.vcs() == SueMeta.VCS ? Hw.bool(true) : vc.lt(config.vcs());
        for (int v = 0; v < SueMeta.VCS; v++) {
            Expr here = in.valid().and(vc.eq(v));
            if (v < config.vcs()) {
                Freed f = vcFifo(v, in, here);
                pushed.add(f.overflow());
                cmdFreed.add(f.command());
                dataFreed.add(f.data());
            } else { // a VC nobody takes: its commands go back at once
                Expr end = here.and(in.get("tlast"));
                cmdFreed.add(end);
                dataFreed.add(end.and(hasData(in)));
            }
        }
        statusCounter("drops_vc", in.valid().and(known.not()).and(in.get("tlast")),
                "commands on a VC no output takes, dropped");
        Reg overflow = reg("overflow_flag", 1, 0);
        when(Hw.cat(pushed).orR(), () -> overflow.set(1));
        status("overflow_error", Status.Kind.FLAG, overflow,
                "a beat found its VC's FIFO full: SUE sent beyond the credits");
        rxCredit.set(returns(cmdFreed, dataFreed));
    }

    /**
     * rx_* as command beats with their last marked (the length is on beat 0). Not registered here: SUE's unpacker
     * drives them from registers, and each goes into its VC's output stage or FIFO.
     */
    private Flow entry() {
        int n = config.dataWidth();
        Port valid = in("rx_valid", 2);
        Port cycle = in("rx_cycle", 4);
        Port vc = in("rx_vc", SueMeta.VC_WIDTH);
        Port xpu = in("rx_xpuid", SueMeta.XPU_WIDTH);
        Port control = in("rx_control", CommandUnpacker.CONTROL_BITS);
        Port data = in("rx_data", n);
        // the command's last beat: its length's beats, at least one; later beats keep beat 0's count
        Reg heldBeats = reg("command_beats", 4, 0);
        Expr length = CommandControl.length(control);
        Expr beats0 = length.add(n / 8 - 1).shr(Hw.log2Up(n / 8)).resize(4);
        Expr first = cycle.eq(0);
        Expr beats = Hw.mux(first, Hw.mux(beats0.eq(0), Hw.lit(4, 1), beats0), heldBeats);
        when(valid.ne(0).and(first), () -> heldBeats.set(beats));
        Expr w = beat.expr().set("data", data).set("control", control).set("xpuid", xpu).set("vc", vc)
                .set("tlast", cycle.add(1).eq(beats)).build();
        return Flow.of(this, "rx_beat", valid.ne(0), beat, w);
    }

    private Expr hasData(Channel s) {
        return CommandControl.length(s.get("control")).ne(0);
    }

    /** What a VC's FIFO frees this cycle: a command (its last beat left), with data or not; and a beat it lost. */
    private record Freed(Expr command, Expr data, Expr overflow) {
    }

    private Freed vcFifo(int v, Flow in, Expr here) {
        // out_<v> from a register stage: a beat arriving while the FIFO holds nothing loads into it directly (on
        // out_<v> the next cycle); one the stage cannot take then goes into the FIFO, whose head has priority
        SyncFifo fifo = child("vc" + v + "_fifo", new SyncFifo(new SyncFifo.Config(beat.width(),
                config.fifoBeats())));
        unused("vc" + v + "_fifo", fifo.creditReturn, fifo.overflow);
        Stream direct = Stream.of(this, "vc" + v + "_direct", here.and(fifo.level.eq(0)), beat, in.payload());
        Stream queued = fifo.pop.as("vc" + v + "_queued", beat);
        Stream.mux("vc" + v + "_next", List.of(direct, queued), queued.valid()).stage("vc" + v + "_head")
                .into(out.get(v));
        Stream push = Stream.of(this, "vc" + v + "_push", here.and(direct.fire().not()), beat, in.payload());
        push.translateInto(fifo.push, push.payload());
        Reg first = reg("vc" + v + "_at_first", 1, 1);
        Reg withData = reg("vc" + v + "_with_data", 1, 0);
        Stream o = out.get(v);
        Expr data = Hw.mux(first, hasData(o), withData);
        when(o.fire(), () -> {
            first.set(o.get("tlast"));
            withData.set(data);
        });
        Expr end = o.fire().and(o.get("tlast"));
        return new Freed(end, end.and(data), here.and(push.ready().not()));
    }

    /** Owed credits per VC, one of each kind back a cycle, round robin. */
    private Expr returns(List<Expr> cmdFreed, List<Expr> dataFreed) {
        Kind cmd = owed("cmd", cmdFreed, config.cmdCredits());
        Kind data = owed("data", dataFreed, config.dataCredits());
        return CommandUnpacker.CREDIT.expr().set("cmd_credit", cmd.any()).set("cmd_vc", cmd.vc())
                .set("data_credit", data.any()).set("data_vc", data.vc()).build();
    }

    private record Kind(Expr any, Expr vc) {
    }

    private Kind owed(String kind, List<Expr> freed, int credits) {
        int w = Hw.log2Up(credits + 1);
        List<Reg> owed = new ArrayList<>();
        List<Expr> eligible = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            Reg o = reg(kind + "_owed_" + v, w, 0);
            owed.add(o);
            eligible.add(o.ne(0));
        }
        Reg last = reg(kind + "_last_vc", SueMeta.VC_WIDTH, SueMeta.VCS - 1);
        Expr any = Hw.cat(eligible).orR();
        Expr pick = wire(kind + "_return_vc", Arbiter.rotatingPick(eligible, last));
        when(any, () -> last.set(pick));
        for (int v = 0; v < SueMeta.VCS; v++) {
            Reg o = owed.get(v);
            o.set(Hw.upDown(o, List.of(freed.get(v)), List.of(any.and(pick.eq(v)))));
        }
        return new Kind(any, pick);
    }
}
