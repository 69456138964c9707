package org.sue.cmd;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Flow;
import org.sue.net.SueMeta;

/**
 * Returns the XPU's credits by free buffer space, not by the commands leaving: a shared buffer with a reserve per
 * VC. The XPU's credits then only need to cover the credit loop, and one VC's traffic can fill the whole buffer (so a
 * queue holds a full PDU's worth of commands when its turn comes, even with many destinations).
 *
 * <p><b>Accounting</b>, per VC, in cells: {@code charge} = cells in use + the most cells the credits not yet back in
 * the buffer could fill (those the XPU holds and those of commands on their way in), with a command credit counted
 * as {@link Config#cmdCost()} cells and a data credit as {@link Config#dataCost()}. It starts at the VC's reserve (all
 * credits out); a cell handed out adds one, a freed cell takes one off; a command entering its queue takes its
 * credits' cost off (its cells are now counted as they are) and the command is owed its credits; returning them adds
 * their cost.
 * So {@code charge} never falls below what the VC can really need, and the buffer cannot overflow while the sum of
 * the charges stays within the cells. The events ({@code cell_used_*}, {@code cmd_stored_*}, {@code cell_freed_*},
 * {@code cell_returned_*}) are registered as they come and counted a cycle later: a late count of a cell handed out
 * is safe, as the cell goes to a command whose credits' cost is still in the charge (its {@code cmd_stored} comes
 * later and waits as long), and late frees only hold credits back a cycle.
 *
 * <p><b>Returns</b>: one owed command per cycle ({@code rel_valid}, {@code rel_vc}, {@code rel_data}: its command
 * credit and, with data, its data credit), round robin over the VCs that are owed and have room: the charge after
 * the return stays within the VC's reserve, or its part above the reserve fits what the other VCs leave of the
 * shared cells (all cells minus the four reserves). A VC whose own cells drained is always within its reserve, so a
 * VC that cannot drain (no link credit) never holds up the others' returns beyond the shared part. A command with
 * data is returned before a command without, per VC (credits of one kind are interchangeable).
 */
public final class BufferCredits extends Component {

    /** {@code cellBytes}: bytes of one cell; credits per VC as the XPU starts with them. */
    public record Config(@Tag("c") int cells, @Tag("b") int cellBytes, @Tag("k") int cmdCredits, @Tag("kd") int dataCredits) {
        private static final String NAME = "BufferCredits";

        public Config {
            if (cellBytes < 32) {
                throw new ConfigException(NAME, "{cellBytes} must be at least 32, got " + cellBytes);
            }
            checkCredits(NAME, cells, cellBytes, cmdCredits, dataCredits);
        }

        /**
         * The credits the XPU may hold per VC, and the cells all VCs' credits can fill at once within the buffer: for
         * this record and for one that holds them under the same names ({@link CommandPath.Config}).
         */
        public static void checkCredits(String record, int cells, int cellBytes, int cmdCredits, int dataCredits) {
            CommandIngress.Config.CMD_CREDITS.check(record, "cmdCredits", cmdCredits);
            if (dataCredits < 0 || dataCredits > cmdCredits) {
                throw new ConfigException(record, "{dataCredits} must be 0..{cmdCredits} (" + cmdCredits
                        + ") per VC, got " + dataCredits);
            }
            long reserves = (long) SueMeta.VCS * reserve(cellBytes, cmdCredits, dataCredits);
            if (cells < 1 || reserves > cells) {
                throw new ConfigException(record, "{cells} (" + cells + ") cannot hold what the credits allow: "
                        + cmdCredits + " {cmdCredits} and " + dataCredits + " {dataCredits} per VC can fill "
                        + reserves + " cells of " + cellBytes + " bytes; {cells} at least "
                        + (Long.highestOneBit(reserves - 1) << 1) + ", or fewer credits");
            }
        }

        /** Cells a command without data can fill (header and control, at most 18 bytes). */
        public int cmdCost() {
            return cmdCost(cellBytes);
        }

        /** Cells a data credit adds: a command with data fills at most ceil(274 / cell bytes). */
        public int dataCost() {
            return dataCost(cellBytes);
        }

        /** Cells each VC keeps for itself: the most its credits can fill. */
        public int reserve() {
            return reserve(cellBytes, cmdCredits, dataCredits);
        }

        private static int cmdCost(int cellBytes) {
            return ceil(PackedCommand.MAX_CONTROL_ONLY_BYTES, cellBytes);
        }

        private static int dataCost(int cellBytes) {
            return ceil(PackedCommand.MAX_PACKED_BYTES, cellBytes) - cmdCost(cellBytes);
        }

        private static int reserve(int cellBytes, int cmdCredits, int dataCredits) {
            return cmdCredits * cmdCost(cellBytes) + dataCredits * dataCost(cellBytes);
        }

        /** Cells any VC may use beyond its reserve. */
        public int shared() {
            return cells - SueMeta.VCS * reserve();
        }
    }

    public static int ceil(int a, int b) {
        return (a + b - 1) / b;
    }

    /** A cell was handed out to a queue of this VC: {@code cell_used_*}. */
    public static final Layout CELL_EVENT = Layout.plain("vc", SueMeta.VC_WIDTH);
    /** A command of this VC, with or without data: {@code cmd_stored_*} (in its queue) and {@code rel_*} (released). */
    public static final Layout COMMAND_EVENT = Layout.of("command_event", Layout.bits("vc", SueMeta.VC_WIDTH),
            Layout.bits("data", 1));
    /** Cells a run's notice gives back at once ({@code cell_returned_count}): 0..2. */
    public static final int RETURNED_WIDTH = 2;

    public final Flow cellUsed;
    public final Flow cmdStored;
    public final Flow cellFreed;
    /** Cells a run's notice gave back (0..2, of one VC): not a flow, a count. */
    public final Port returnedCount;
    public final Port returnedVc;
    /** The credits of one command may go back to the XPU. */
    public final Flow release;
    private final Config config;

    // sizes, from the configuration
    /** A charge: within the cells plus the cells of one command being stored; sums of four need two more bits. */
    private final int chargeWidth;
    /** Commands owed: their credits are neither out nor held. */
    private final int owedWidth;
    private final int cmdCost;
    private final int dataCmdCost;
    /**
     * A cycle changes a charge by d in -m .. m (a cell used, one freed, two returned, a command stored, a return), and
     * the sum S of the parts above the reserve by as much at most (each VC's part moves with its charge, less).
     */
    private final int m;
    /** Small signed values: -m .. m. */
    private final int ew;

    /** A VC's events of a cycle, registered: its change of the charge, a command stored without / with data. */
    private record Events(Reg delta, Reg storedPlain, Reg storedData) {
    }

    /**
     * A VC's accounts: the charge, its distance from the reserve clamped to -m .. m (exact where a change of -m .. m
     * can cross the reserve), the commands owed without and with data, and whether each count is not 0.
     */
    private record Account(Reg charge, Reg near, Reg owedPlain, Reg owedData, Reg owesPlain, Reg owesData) {
    }

    /**
     * S, followed a cycle late with its last change: {@code lag} = S of the cycle before, {@code step} = S - lag + m
     * (0 .. 2m); {@code window[i]} = lag <= shared - cost - 2m + i; {@code fits[j]} = S <= shared - j.
     */
    private record SharedSum(Reg lag, Reg step, List<Reg> window, List<Expr> fits) {
    }

    /** This cycle's return: whether there is one, its VC, whether it has data; per VC, whether data is owed. */
    private record Return(Expr giveBack, Expr vc, Expr data, List<Expr> withData) {
    }

    /** A VC's change of S this cycle, without a return to it and with one. */
    private record Step(Expr without, Expr with) {
    }

    public BufferCredits(Config config) {
        super(config);
        this.config = config;
        cellUsed = Flow.slave(this, "cell_used", CELL_EVENT);
        cmdStored = Flow.slave(this, "cmd_stored", COMMAND_EVENT);
        cellFreed = Flow.slave(this, "cell_freed", CELL_EVENT);
        returnedCount = in("cell_returned_count", RETURNED_WIDTH); // up to two more cells freed at once, of one VC
        returnedVc = in("cell_returned_vc", SueMeta.VC_WIDTH);
        payloadOf(returnedCount, returnedVc);
        release = Flow.master(this, "rel", COMMAND_EVENT);

        chargeWidth = Hw.log2Up(2L * config.cells() + 2L * ceil(PackedCommand.MAX_PACKED_BYTES, config.cellBytes()))
                + 2;
        owedWidth = Hw.log2Up(config.cmdCredits() + 1L);
        cmdCost = config.cmdCost();
        dataCmdCost = config.cmdCost() + config.dataCost();
        m = 3 + dataCmdCost;
        ew = Hw.log2Up(m + 1L) + 1;

        List<Events> events = registerEvents();
        List<Account> accounts = accounts();
        SharedSum shared = sharedSum();
        Return ret = chooseReturn(accounts, shared);
        List<Step> steps = settle(events, accounts, ret);
        followSharedSum(shared, steps, ret);
        release(ret);
    }

    /**
     * The buffer's events are registered on entry (counted a cycle later: safe, as a cell is handed out only to a
     * command whose credits' cost is still in the charge), each VC's as its change of the charge.
     */
    private List<Events> registerEvents() {
        List<Events> events = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            Expr used = cellUsed.valid().and(cellUsed.field("vc").eq(v));
            Expr stored = cmdStored.valid().and(cmdStored.field("vc").eq(v));
            Expr freed = cellFreed.valid().and(cellFreed.field("vc").eq(v));
            Expr returned = Hw.mux(returnedVc.eq(v), returnedCount, Hw.zeros(RETURNED_WIDTH));
            Expr storedCost = Hw.mux(stored, Hw.mux(cmdStored.field("data"), Hw.lit(ew, dataCmdCost),
                    Hw.lit(ew, cmdCost)), Hw.zeros(ew));
            Reg d = reg("delta_" + v, ew, 0);
            d.set(used.resize(ew).sub(freed.resize(ew)).sub(returned.resize(ew)).sub(storedCost));
            Reg sp = reg("stored_plain_" + v, 1, 0);
            Reg sd = reg("stored_data_" + v, 1, 0);
            sp.set(stored.and(cmdStored.field("data").not()));
            sd.set(stored.and(cmdStored.field("data")));
            events.add(new Events(d, sp, sd));
        }
        return events;
    }

    /** Each VC's accounts, the charge starting at the reserve (all credits out). */
    private List<Account> accounts() {
        List<Account> accounts = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            accounts.add(new Account(reg("charge_" + v, chargeWidth, config.reserve()), reg("charge_near_" + v, ew, 0),
                    reg("owed_plain_" + v, owedWidth, 0), reg("owed_data_" + v, owedWidth, 0),
                    reg("owes_plain_" + v, 1, 0), reg("owes_data_" + v, 1, 0)));
        }
        return accounts;
    }

    /**
     * S, followed a cycle late: "S + j <= shared" for j in 0..cost is one multiplexer by the register {@code step},
     * not an adder and a compare after the sum.
     */
    private SharedSum sharedSum() {
        Reg sumLag = reg("over_sum_lag", chargeWidth, 0);
        Reg sumStep = reg("over_sum_step", ew, m);
        List<Reg> window = new ArrayList<>();
        for (int i = 0; i < windowSize(); i++) {
            window.add(reg("over_sum_at_most_" + i, 1, windowBase() + i >= 0 ? 1 : 0));
        }
        List<Expr> atMostNow = new ArrayList<>(); // S <= shared - j, j = 0 .. dataCmdCost
        for (int j = 0; j <= dataCmdCost; j++) {
            List<Expr> options = new ArrayList<>();
            for (int step = 0; step <= 2 * m; step++) { // S = sumLag + step - m
                options.add(window.get(dataCmdCost + 2 * m - j - step));
            }
            atMostNow.add(wire("over_sum_fits_" + j, Hw.selectTree(options, sumStep)));
        }
        return new SharedSum(sumLag, sumStep, window, atMostNow);
    }

    private int windowSize() {
        return dataCmdCost + 2 * m + 1;
    }

    private long windowBase() {
        return (long) config.shared() - dataCmdCost - m;
    }

    /**
     * A VC may take a return when it is owed one and the charge after it stays within its reserve, or S grown by the
     * part of the return above the reserve stays within the shared cells; round robin over those VCs.
     */
    private Return chooseReturn(List<Account> accounts, SharedSum shared) {
        List<Expr> eligible = new ArrayList<>();
        List<Expr> withData = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            Account a = accounts.get(v);
            Expr data = a.owesData();
            Expr e = a.near();
            Expr cost = Hw.mux(data, Hw.lit(ew + 1, dataCmdCost), Hw.lit(ew + 1, cmdCost));
            Expr after = signExtend(e, ew + 1).add(cost);
            Expr withinReserve = after.msb().or(after.eq(0));
            Expr growth = positivePart(after).sub(positivePart(signExtend(e, ew + 1)));
            Expr withinShared = Hw.selectTree(shared.fits(), growth);
            Expr owed = data.or(a.owesPlain());
            eligible.add(wire("release_ok_" + v, owed.and(withinReserve.or(withinShared))));
            withData.add(data);
        }
        Reg last = reg("release_last", SueMeta.VC_WIDTH, SueMeta.VCS - 1);
        Expr pick = wire("release_vc", Arbiter.rotatingPick(eligible, last));
        Expr giveBack = wire("give_back", Hw.cat(eligible).orR());
        Expr pickData = wire("release_data", Hw.select(withData, pick));
        when(giveBack, () -> last.set(pick));
        return new Return(giveBack, pick, pickData, withData);
    }

    /**
     * Each VC's charge, distance and owed counts after this cycle's events and return; returns each VC's change of S.
     * Every value the pick chooses among is formed beside it from registers.
     */
    private List<Step> settle(List<Events> events, List<Account> accounts, Return ret) {
        List<Step> steps = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            Expr out = ret.giveBack().and(ret.vc().eq(v));
            Account a = accounts.get(v);
            Reg c = a.charge();
            Reg e = a.near();
            Expr d = events.get(v).delta();
            Expr data = ret.withData().get(v);
            int[] adds = {0, cmdCost, dataCmdCost}; // nothing returned, a command returned, one with data
            List<Expr> nextCharge = new ArrayList<>();
            List<Expr> nextNear = new ArrayList<>();
            List<Expr> step = new ArrayList<>();
            for (int add : adds) {
                Expr da = signExtend(d, ew + 1).add(add); // -m .. m
                nextCharge.add(addSmall(c, da));
                nextNear.add(clampedDistance(c, d, add));
                Expr ee = signExtend(e, ew + 1);
                step.add(positivePart(ee.add(da)).sub(positivePart(ee)).resize(ew));
            }
            c.set(Hw.mux(out, Hw.mux(data, nextCharge.get(2), nextCharge.get(1)), nextCharge.get(0)));
            e.set(Hw.mux(out, Hw.mux(data, nextNear.get(2), nextNear.get(1)), nextNear.get(0)));
            steps.add(new Step(step.get(0), Hw.mux(data, step.get(2), step.get(1))));
            owed(events.get(v), a, out.and(ret.data().not()), out.and(ret.data()));
        }
        return steps;
    }

    /** A VC's owed commands: stored ones join, returned ones leave. */
    private static void owed(Events events, Account a, Expr plainOut, Expr dataOut) {
        Reg plain = a.owedPlain();
        Reg dataCount = a.owedData();
        plain.set(Hw.upDown(plain, List.of(events.storedPlain()), List.of(plainOut)));
        a.owesPlain().set(nonZeroAfter(plain, events.storedPlain(), plainOut));
        dataCount.set(Hw.upDown(dataCount, List.of(events.storedData()), List.of(dataOut)));
        a.owesData().set(nonZeroAfter(dataCount, events.storedData(), dataOut));
    }

    /**
     * S's change this cycle (+ m), for no return and for a return to each VC (sums of four small terms); the next
     * cycle's lag is this cycle's S, and its window compares it with constants.
     */
    private void followSharedSum(SharedSum shared, List<Step> steps, Return ret) {
        Expr noReturn = Hw.lit(ew, m);
        for (Step st : steps) {
            noReturn = noReturn.add(st.without());
        }
        List<Expr> withReturn = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            Expr sum = Hw.lit(ew, m);
            for (int u = 0; u < SueMeta.VCS; u++) {
                sum = sum.add(u == v ? steps.get(u).with() : steps.get(u).without());
            }
            withReturn.add(sum);
        }
        Reg sumLag = shared.lag();
        Reg sumStep = shared.step();
        sumStep.set(Hw.mux(ret.giveBack(), Hw.select(withReturn, ret.vc()), noReturn));
        sumLag.set(addSmall(sumLag, sumStep.resize(ew + 1).sub(m)));
        for (int i = 0; i < windowSize(); i++) {
            List<Expr> options = new ArrayList<>();
            for (int step = 0; step <= 2 * m; step++) {
                options.add(atMost(sumLag, windowBase() + i - (step - m)));
            }
            shared.window().get(i).set(Hw.selectTree(options, sumStep));
        }
    }

    /** The return leaves through registers: {@code rel_*}. */
    private void release(Return ret) {
        Reg relValidReg = reg("rel_valid_reg", 1, 0);
        Reg relVcReg = reg("rel_vc_reg", SueMeta.VC_WIDTH, 0);
        Reg relDataReg = reg("rel_data_reg", 1, 0);
        relValidReg.set(ret.giveBack());
        relVcReg.set(ret.vc());
        relDataReg.set(ret.giveBack().and(ret.data()));
        release.drive(relValidReg, release.layout().expr().set("vc", relVcReg).set("data", relDataReg).build());
    }

    /**
     * {@code c + d - reserve} clamped to -m .. m (ew bits, signed), d the register {@code delta} (signed) plus
     * {@code add}: compares of c with constants chosen by delta, and the low bits of the sum for the values between.
     */
    private Expr clampedDistance(Expr c, Expr delta, int add) {
        int reserve = config.reserve();
        int lo = -m; // delta's range: lo .. 1
        List<Expr> above = new ArrayList<>();
        List<Expr> below = new ArrayList<>();
        for (int x = lo; x <= 1; x++) {
            above.add(atLeast(c, (long) reserve + m - x - add));
            below.add(atMost(c, (long) reserve - m - x - add));
        }
        Expr index = signExtend(delta, ew + 1).sub(lo).resize(Hw.log2Up(2L - lo));
        Expr mid = c.resize(ew).add(delta).add(Hw.lit(ew, Math.floorMod(add - reserve, 1 << ew))); // exact in -m .. m
        return Hw.mux(Hw.selectTree(above, index), Hw.lit(ew, m), Hw.mux(Hw.selectTree(below, index), Hw.lit(ew, -m), mid));
    }

    /** {@code x + d}, d small and signed: the low bits added, the rest x's high part, plus one or minus one. */
    private static Expr addSmall(Expr x, Expr d) {
        int lw = d.width();
        if (x.width() <= lw + 1) {
            return x.add(signExtend(d, x.width()).resize(x.width()));
        }
        Expr low = x.resize(lw).resize(lw + 2).add(signExtend(d, lw + 2)); // -2^(lw-1) .. 2^lw + 2^(lw-1) - 1
        Expr high = x.bits(x.width() - 1, lw);
        Expr carry = low.bits(lw + 1, lw);
        Expr newHigh = Hw.mux(carry.eq(1), high.add(1), Hw.mux(carry.eq(3), high.sub(1), high));
        return Hw.cat(newHigh, low.resize(lw));
    }

    /** {@code count + up - down != 0}, from compares of the register and the one-bit terms. */
    private static Expr nonZeroAfter(Expr count, Expr up, Expr down) {
        Expr zero = count.eq(0).and(up.eq(down)).or(count.eq(1).and(down).and(up.not()));
        return zero.not();
    }

    private static Expr signExtend(Expr x, int width) {
        if (width <= x.width()) {
            return x.resize(width);
        }
        return Hw.cat(Hw.mux(x.msb(), Hw.ones(width - x.width()), Hw.zeros(width - x.width())), x);
    }

    /** max(0, x), x signed. */
    private static Expr positivePart(Expr x) {
        return Hw.mux(x.msb(), Hw.zeros(x.width()), x);
    }

    private static Expr atLeast(Expr x, long limit) {
        return limit <= 0 ? Hw.bool(true) : atMost(x, limit - 1).not();
    }

    private static Expr atMost(Expr x, long limit) {
        if (limit >= (1L << x.width()) - 1) {
            return Hw.bool(true);
        }
        return limit < 0 ? Hw.bool(false) : x.le(Hw.lit(x.width(), limit));
    }

    public Config config() {
        return config;
    }
}
