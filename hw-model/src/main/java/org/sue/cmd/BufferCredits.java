package org.sue.cmd;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Stream;
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
 * the charges stays within the cells.
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
        public Config {
            if (cellBytes < 32) {
                throw new IllegalArgumentException("BufferCredits cellBytes must be at least 32, got " + cellBytes);
            }
            if (cmdCredits < 1 || cmdCredits > 4095) {
                throw new IllegalArgumentException("BufferCredits cmdCredits must be 1..4095 per VC, got "
                        + cmdCredits);
            }
            if (dataCredits < 0 || dataCredits > cmdCredits) {
                throw new IllegalArgumentException("BufferCredits dataCredits must be 0..cmdCredits per VC, got "
                        + dataCredits);
            }
            long reserves = (long) SueMeta.VCS * reserve(cellBytes, cmdCredits, dataCredits);
            if (cells < 1 || reserves > cells) {
                throw new IllegalArgumentException("BufferCredits cells (" + cells + ") cannot hold what the credits"
                        + " allow: " + cmdCredits + " command and " + dataCredits + " data credits per VC can fill "
                        + reserves + " cells of " + cellBytes + " bytes");
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

    public final Stream cellUsed;
    public final Stream cmdStored;
    public final Stream cellFreed;
    /** Cells a run's notice gave back (0..2, of one VC): not a flow, a count. */
    public final Port returnedCount;
    public final Port returnedVc;
    /** The credits of one command may go back to the XPU. */
    public final Stream release;
    private final Config config;

    public BufferCredits(Config config) {
        super(config);
        this.config = config;
        cellUsed = Stream.slaveFlow(this, "cell_used", CELL_EVENT);
        cmdStored = Stream.slaveFlow(this, "cmd_stored", COMMAND_EVENT);
        cellFreed = Stream.slaveFlow(this, "cell_freed", CELL_EVENT);
        returnedCount = in("cell_returned_count", 2); // up to two more cells freed at once, of one VC
        returnedVc = in("cell_returned_vc", 2);
        payloadOf(returnedCount, returnedVc);
        release = Stream.masterFlow(this, "rel", COMMAND_EVENT);

        // a charge stays within the cells plus the cells of one command being stored; sums of four need two more bits
        int w = Hw.log2Up(2L * config.cells() + 2L * ceil(PackedCommand.MAX_PACKED_BYTES, config.cellBytes())) + 2;
        int ow = Hw.log2Up(config.cmdCredits() + 1L); // commands owed: their credits are neither out nor held
        int reserve = config.reserve();
        Expr reserveLit = Hw.lit(w, reserve);
        List<Reg> charge = new ArrayList<>();
        List<Reg> owedPlain = new ArrayList<>();
        List<Reg> owedData = new ArrayList<>();
        List<Expr> over = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            Reg c = reg("charge_" + v, w, reserve);
            charge.add(c);
            owedPlain.add(reg("owed_plain_" + v, ow, 0));
            owedData.add(reg("owed_data_" + v, ow, 0));
            Expr above = c.resize(w + 1).sub(reserveLit.resize(w + 1));
            over.add(wire("over_reserve_" + v, Hw.mux(above.bit(w), Hw.zeros(w), above.resize(w))));
        }

        // A return of cost k may go to a VC when its charge after it stays within its reserve (c + k <= reserve),
        // or when its part above the reserve fits what the others leave of the shared cells
        // (others' over + c + k <= shared + reserve). The others' over plus c is S + min(c, reserve), S the sum of
        // every VC's over: one sum for all VCs, compared with constants (fitsShared); the late pick then only
        // chooses the charge's next value among two formed beside it.
        Expr overSum = over.get(0);
        for (int u = 1; u < SueMeta.VCS; u++) {
            overSum = overSum.add(over.get(u));
        }
        Expr allOver = wire("over_reserve_sum", overSum);
        List<Expr> eligible = new ArrayList<>();
        List<Expr> withData = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            Expr data = owedData.get(v).ne(0);
            Expr c = charge.get(v);
            Expr withinReserve = fitsWithReturn(c, reserve, data);
            Expr withinShared = Hw.mux(data, fitsShared(c, allOver, config.cmdCost() + config.dataCost()),
                    fitsShared(c, allOver, config.cmdCost()));
            Expr owed = data.or(owedPlain.get(v).ne(0));
            eligible.add(wire("release_ok_" + v, owed.and(withinReserve.or(withinShared))));
            withData.add(data);
        }
        Reg last = reg("release_last", 2, SueMeta.VCS - 1);
        Expr pick = wire("release_vc", Arbiter.rotatingPick(eligible, last));
        Expr giveBack = wire("give_back", Hw.cat(eligible).orR());
        Expr pickData = wire("release_data", Hw.select(withData, pick));
        when(giveBack, () -> last.set(pick));

        Expr cmdCostLit = Hw.lit(w, config.cmdCost());
        Expr dataCmdCostLit = Hw.lit(w, config.cmdCost() + config.dataCost());
        for (int v = 0; v < SueMeta.VCS; v++) {
            Expr used = cellUsed.valid().and(cellUsed.field("vc").eq(v));
            Expr stored = cmdStored.valid().and(cmdStored.field("vc").eq(v));
            Expr freed = cellFreed.valid().and(cellFreed.field("vc").eq(v));
            Expr returned = Hw.mux(returnedVc.eq(v), returnedCount, Hw.zeros(2));
            Expr out = giveBack.and(pick.eq(v));
            Expr storedCost = Hw.mux(stored, Hw.mux(cmdStored.field("data"), dataCmdCostLit, cmdCostLit),
                    Hw.zeros(w));
            Reg c = charge.get(v);
            // the cycle's small terms summed before they meet the charge: one adder after the late cell events
            Expr delta = used.resize(w).sub(freed.resize(w)).sub(returned.resize(w)).sub(storedCost);
            Expr afterReturn = Hw.mux(withData.get(v), c.add(delta.add(dataCmdCostLit)),
                    c.add(delta.add(cmdCostLit)));
            c.set(Hw.mux(out, afterReturn, c.add(delta)));
            Reg plain = owedPlain.get(v);
            Reg data = owedData.get(v);
            plain.set(Hw.upDown(plain, List.of(stored.and(cmdStored.field("data").not())),
                    List.of(out.and(pickData.not()))));
            data.set(Hw.upDown(data, List.of(stored.and(cmdStored.field("data"))), List.of(out.and(pickData))));
        }
        Reg relValidReg = reg("rel_valid_reg", 1, 0);
        Reg relVcReg = reg("rel_vc_reg", 2, 0);
        Reg relDataReg = reg("rel_data_reg", 1, 0);
        relValidReg.set(giveBack);
        relVcReg.set(pick);
        relDataReg.set(giveBack.and(pickData));
        release.valid().set(relValidReg);
        release.field("vc").set(relVcReg);
        release.field("data").set(relDataReg);
    }

    /** {@code x} + the cost of a return (with data or without) {@code <= limit}, as compares with constants. */
    private Expr fitsWithReturn(Expr x, long limit, Expr withData) {
        return Hw.mux(withData, atMost(x, limit - config.cmdCost() - config.dataCost()),
                atMost(x, limit - config.cmdCost()));
    }

    /**
     * S + min(c, reserve) + cost {@code <=} shared + reserve, i.e. S {@code <=} shared - cost + max(0, reserve - c),
     * where it matters (c + cost above the reserve, so reserve - c below cost): the OR over j in 0..cost-1 of
     * "reserve - c reaches j" and S {@code <=} shared - cost + j, each a compare with a constant.
     */
    private Expr fitsShared(Expr c, Expr overSum, int cost) {
        Expr fits = atMost(overSum, (long) config.shared() - cost);
        for (int j = 1; j < cost; j++) {
            fits = fits.or(atMost(c, config.reserve() - j).and(atMost(overSum, (long) config.shared() - cost + j)));
        }
        return fits;
    }

    private static Expr atMost(Expr x, long limit) {
        return limit < 0 ? Hw.bool(false) : x.le(Hw.lit(x.width(), limit));
    }

    public Config config() {
        return config;
    }
}
