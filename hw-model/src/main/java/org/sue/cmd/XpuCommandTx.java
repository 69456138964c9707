package org.sue.cmd;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Tag;
import org.sue.lib.stream.Stream;
import org.sue.net.SueMeta;

/**
 * The XPU's side of the FIFO interface's transmit half (SUE spec Table 1, docs/protocol.md 11.1 to 11.5), in
 * hardware: a block that makes commands (the AXI4 slave's requests, the master's responses) sends them to SUE through
 * it. Commands come in as {@link CommandBeat}s and leave on {@code tx_*} the next cycle, one beat a cycle, every
 * output registered.
 *
 * <p>Credits: per VC it starts with {@code cmdCredits} command and {@code dataCredits} data credits, SUE's initial
 * counts (11.5); a command starts only while its VC has a command credit and, with data, a data credit, and takes
 * them on its first beat; {@code tx_credit} gives them back. A credit returned in a cycle counts from the next, so a
 * beat never leans on a credit SUE returned in the cycle it was sent (11.3). While {@code tx_reset_out} is high no
 * command starts and the credits are the initial ones (11.7). {@code tx_err} is never raised.
 */
public final class XpuCommandTx extends Component {
    public static final Bound CREDITS = Bound.of(1, 255);

    public record Config(@Tag("n") int dataWidth, @Tag("k") int cmdCredits, @Tag("kd") int dataCredits) {
        private static final String NAME = "XpuCommandTx";

        public Config {
            CommandIngress.Config.DATA_WIDTH.check(NAME, "dataWidth", dataWidth);
            CREDITS.check(NAME, "cmdCredits", cmdCredits);
            CREDITS.check(NAME, "dataCredits", dataCredits);
            if (dataCredits > cmdCredits) {
                throw new ConfigException(NAME, "{dataCredits} must be at most {cmdCredits} (" + cmdCredits
                        + "), got " + dataCredits);
            }
        }
    }

    public final Stream cmd;
    /**
     * The beat offered, through a skid buffer: {@code cmd}'s own beat goes out the cycle after it came, one waiting
     * for credits waits in the buffer, and {@code cmd}'s ready comes from a register (the credit check reads the
     * beat's VC and length, which must not reach back into the blocks feeding {@code cmd}).
     */
    private final Stream head;

    public XpuCommandTx(Config config) {
        super(config);
        int n = config.dataWidth();
        cmd = Stream.slave(this, "cmd", CommandBeat.layout(n));
        head = cmd.skid("cmd_head");
        Port txCredit = in("tx_credit", CommandUnpacker.CREDIT.width());
        Port resetOut = in("tx_reset_out", 1);

        Reg first = reg("at_first_beat", 1, 1);
        Reg heldData = reg("command_has_data", 1, 0);
        Reg cycle = reg("beat_index", 4, 0);
        Expr vc = head.get("vc");
        Expr hasData = Hw.mux(first, CommandControl.length(head.get("control")).ne(0), heldData);
        Expr start = first.and(head.valid());
        Expr ok = credits(config, txCredit, resetOut, start, vc, hasData);
        head.ready().set(first.not().or(ok));
        when(head.fire(), () -> {
            first.set(head.get("tlast"));
            heldData.set(hasData);
            cycle.set(Hw.mux(head.get("tlast"), Hw.lit(4, 0), cycle.add(1)));
        });
        // every output from a register, loaded with the beat that moves
        Reg txValid = reg("tx_valid_out", 2, 0);
        txValid.set(Hw.mux(head.fire(), Hw.mux(hasData, Hw.lit(2, 2), Hw.lit(2, 1)), Hw.lit(2, 0)));
        out("tx_valid", 2).set(txValid);
        registered("tx_cycle", cycle);
        registered("tx_vc", vc);
        registered("xpuid", head.get("xpuid"));
        registered("tx_control", head.get("control"));
        registered("tx_data", head.get("data"));
        out("tx_err", 1).set(0);
        statusCounter("commands_sent", head.fire().and(first), "commands sent to SUE");
        statusCounter("credit_waits", start.and(ok.not()), "cycles a command waited for its VC's credits");
    }

    /** An output port from a register that loads {@code value} with each beat that moves. */
    private void registered(String name, Expr value) {
        Reg r = reg(name + "_out", value.width(), 0);
        when(head.fire(), () -> r.set(value));
        out(name, value.width()).set(r);
    }

    /** Per VC the credits held; whether the command at the head may start. */
    private Expr credits(Config config, Port txCredit, Port resetOut, Expr start, Expr vc, Expr hasData) {
        Expr word = txCredit;
        List<Expr> cmdOk = new ArrayList<>();
        List<Expr> dataOk = new ArrayList<>();
        int cw = Hw.log2Up(config.cmdCredits() + 1);
        int dw = Hw.log2Up(config.dataCredits() + 1);
        Expr go = start.and(head.ready());
        for (int v = 0; v < SueMeta.VCS; v++) {
            Reg cmdHave = reg("cmd_credits_" + v, cw, config.cmdCredits());
            Reg dataHave = reg("data_credits_" + v, dw, config.dataCredits());
            Expr mine = vc.eq(v);
            Expr cmdBack = CommandUnpacker.CREDIT.get(word, "cmd_credit")
                    .and(CommandUnpacker.CREDIT.get(word, "cmd_vc").eq(v));
            Expr dataBack = CommandUnpacker.CREDIT.get(word, "data_credit")
                    .and(CommandUnpacker.CREDIT.get(word, "data_vc").eq(v));
            Expr cmdTaken = go.and(mine);
            Expr dataTaken = go.and(mine).and(hasData);
            when(resetOut, () -> {
                cmdHave.set(config.cmdCredits());
                dataHave.set(config.dataCredits());
            }).otherwise(() -> {
                cmdHave.set(Hw.upDown(cmdHave, List.of(cmdBack), List.of(cmdTaken)));
                dataHave.set(Hw.upDown(dataHave, List.of(dataBack), List.of(dataTaken)));
            });
            cmdOk.add(cmdHave.ne(0));
            dataOk.add(dataHave.ne(0));
        }
        Expr haveCmd = Hw.selectTree(cmdOk, vc);
        Expr haveData = Hw.selectTree(dataOk, vc);
        return wire("credit_ok", haveCmd.and(hasData.not().or(haveData)).and(resetOut.not()));
    }
}
