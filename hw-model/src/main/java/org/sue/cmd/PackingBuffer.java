package org.sue.cmd;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.Wire;
import org.sue.lib.SyncFifo;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.PacketFifo;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamPorts;
import org.sue.net.SueMeta;

/**
 * Per-{destination, VC} packing buffers in one shared memory, the scheduler that picks them, and PDU assembly (spec
 * 4.4, PROTOCOL.md section 4).
 *
 * <p><b>Storage.</b> Commands arrive from {@link CommandIngress} already packed (one packet per command, tuser
 * {has_data, bytes, vc, dst}) and are written one beat per cell into {@code cells} (cell = one bus beat). A free
 * list hands out cells (first a counter over all cells, then a FIFO of freed ones). {@code cell_link} chains the
 * cells of one command, {@code cmd_info} (by a command's first cell) holds its size, {@code next_cmd} chains the
 * commands of one queue, and {@code queue_state} (by queue = {dst, vc}) holds head, tail, command count and xoff
 * state. So area grows with the buffer size; a queue costs one table row.
 *
 * <p><b>Queue manager.</b> One operation per cycle changes the queue tables, so no row has two writers: APPEND (a
 * command's last beat is stored: link it behind the tail; a queue that was empty joins its VC's active list),
 * TAKE (the walker took k commands: new head, count - k, back to the end of the active list if commands remain) and
 * SKIP (the queue's destination has no transmit window: back to the end of the list). A two-stage pipeline (read,
 * then write) with the previous operation's row and link forwarded keeps back-to-back operations on one queue
 * exact.
 *
 * <p><b>Scheduler and walker.</b> Round robin over the VCs that have link credit ({@code vc_ready}) and active
 * queues; within a VC the active list is a FIFO of queues, so queues take turns. A pick reads the queue's row into a
 * slot while the walker is still busy with the previous PDU. The walker follows the picked queue's command chain
 * one command per cycle and takes commands while the PDU stays within {@code pduLimit} bytes: one command goes at
 * once, several are packed, nothing waits to be packed. A queue whose PDU ended on the limit goes on at once with its
 * next PDU when no other queue is waiting (its TAKE keeps it off its list). At most
 * {@value #PDUS_AHEAD} PDUs are picked and not yet sent (one leaving, one whole in the output FIFO, one being
 * read: so the link gets a beat every cycle across PDUs of whole cells); later commands join later PDUs, and while
 * the link is busy they pack (spec Figure 18: A, B, C+E, D).
 *
 * <p><b>Reader.</b> Reads the taken commands' cells one per cycle, frees each cell (and tells, on
 * {@code cell_freed_*}, for {@link BufferCredits}), and concatenates the commands' bytes into full beats, which a
 * {@link PacketFifo} turns into whole PDUs on {@code m_axis} (SueMeta tuser with dst, vc and len).
 *
 * <p>Throughput: the queue manager does one operation per cycle, one per command plus one per PDU; commands stored
 * but not yet appended wait in a FIFO as deep as the buffer has cells, so the input never waits for the manager (a
 * burst of a command per cycle is absorbed; sustained, the XPU's credits slow it to the manager's rate). The walker
 * takes one command per cycle plus one cycle per PDU; the reader reads one cell per cycle and waits one cycle
 * between PDUs only when a PDU's last cell leaves a remainder beat (so PDUs of whole cells leave back to back).
 *
 * <p>Reset: the queue table is a RAM without a reset value, so after reset it is cleared one row per cycle while
 * {@code init_busy} is high and nothing enters.
 */
public final class PackingBuffer extends Component {
    /** Width of the input tuser: {has_data[21], bytes[20:12], vc[11:10], dst[9:0]}. */
    public static final int COMMAND_USER_WIDTH = 22;

    /** The input tuser of one command: whether it has data, its packed bytes, its VC and destination. */
    public record CommandUser(boolean hasData, int bytes, int vc, int dst) {
        public long pack() {
            return (hasData ? 1L << 21 : 0) | (long) bytes << 12 | (long) vc << 10 | dst;
        }

        /** The destination field of a tuser signal. */
        public static Expr dst(Expr user) {
            return user.bits(9, 0);
        }

        /** The packed-bytes field of a tuser signal. */
        public static Expr bytes(Expr user) {
            return user.bits(20, 12);
        }

        /** The VC field of a tuser signal. */
        public static Expr vc(Expr user) {
            return user.bits(11, 10);
        }

        /** The has_data bit of a tuser signal. */
        public static Expr hasData(Expr user) {
            return user.bit(21);
        }

        public static CommandUser unpack(long user) {
            return new CommandUser((user >> 21 & 1) == 1, (int) (user >> 12 & 0x1ff), (int) (user >> 10 & 3),
                    (int) (user & 0x3ff));
        }
    }
    static final int VCS = 4;
    /** PDUs picked and not yet sent, at most. */
    static final int PDUS_AHEAD = 3;

    public record Config(int cellWidth, int cells, int destinations, int pduLimit, int xoffThreshold,
                         int xonThreshold) {
        public Config {
            new StreamConfig(cellWidth, SueMeta.WIDTH); // validates cellWidth
            if (cellWidth < 256) {
                throw new IllegalArgumentException("PackingBuffer cellWidth must be at least 256 bits (a command"
                        + " header fits one cell), got " + cellWidth);
            }
            if (cells < 16 || cells > 65536 || Integer.bitCount(cells) != 1) {
                throw new IllegalArgumentException("PackingBuffer cells must be a power of two from 16 to 65536, got "
                        + cells);
            }
            if (destinations < 2 || destinations > 1024 || Integer.bitCount(destinations) != 1) {
                throw new IllegalArgumentException("PackingBuffer destinations must be a power of two from 2 to 1024,"
                        + " got " + destinations);
            }
            int maxCommand = CommandCodec.MAX_PACKED_BYTES;
            if (pduLimit < maxCommand || pduLimit > 4096 - org.sue.net.ReliabilityHeader.BYTES) {
                throw new IllegalArgumentException("PackingBuffer pduLimit must be " + maxCommand + ".."
                        + (4096 - org.sue.net.ReliabilityHeader.BYTES) + " bytes (the largest command must fit; the"
                        + " PDU with its reliability header at most 4096), got " + pduLimit);
            }
            if (xoffThreshold < 1 || xoffThreshold > cells) {
                throw new IllegalArgumentException("PackingBuffer xoffThreshold must be 1.." + cells
                        + " commands, got " + xoffThreshold);
            }
            if (xonThreshold < 0 || xonThreshold >= xoffThreshold) {
                throw new IllegalArgumentException("PackingBuffer xonThreshold must be 0..xoffThreshold-1, got "
                        + xonThreshold);
            }
        }

        /** 2 KiB PDUs, xoff at 16 queued commands, xon at 8. */
        public static Config defaults(int cellWidth, int cells, int destinations) {
            return new Config(cellWidth, cells, destinations, 2048, 16, 8);
        }

        public int cellBytes() {
            return cellWidth / 8;
        }

        /** Largest number of beats one PDU can take. */
        public int maxPduBeats() {
            return (pduLimit + cellBytes() - 1) / cellBytes();
        }
    }

    public final StreamPorts in;
    public final StreamPorts out;
    public final Port vcReady;
    public final Port dstReady;
    public final Port cellFreedValid;
    public final Port cellFreedVc;
    public final Port xoffValid;
    public final Port xoffOn;
    public final Port xoffXpuid;
    public final Port xoffVc;
    public final Port overflowError;
    public final Port dstError;
    public final Port initBusy;
    private final Config config;

    public PackingBuffer(Config config) {
        this.config = config;
        int w = config.cellWidth();
        int cb = config.cellBytes();
        int aw = Hw.log2Up(config.cells());
        int dw = Hw.log2Up(config.destinations());
        int qw = dw + 2;
        int queues = config.destinations() * VCS;
        int cw = aw + 1; // commands of one queue
        int bw = 9;      // bytes of one command (at most 274)
        int lw = SueMeta.Field.LEN.width;
        in = StreamPorts.slave(this::port, new StreamConfig(w, COMMAND_USER_WIDTH));
        out = StreamPorts.master(this::port, new StreamConfig(w, SueMeta.WIDTH));
        vcReady = in("vc_ready", VCS);
        dstReady = in("dst_ready", config.destinations());
        cellFreedValid = out("cell_freed_valid", 1);
        cellFreedVc = out("cell_freed_vc", 2);
        xoffValid = out("xoff_valid", 1);
        xoffOn = out("xoff_on", 1);
        xoffXpuid = out("xoff_xpuid", 10);
        xoffVc = out("xoff_vc", 2);
        overflowError = out("overflow_error", 1);
        dstError = out("dst_error", 1);
        initBusy = out("init_busy", 1);

        Mem cells = mem("cells", config.cells(), w, ReadUnderWrite.READ_FIRST);
        Mem cellLink = mem("cell_link", config.cells(), aw, ReadUnderWrite.READ_FIRST);
        Mem cmdInfo = mem("cmd_info", config.cells(), bw, ReadUnderWrite.READ_FIRST);
        Mem nextCmd = mem("next_cmd", config.cells(), aw, ReadUnderWrite.READ_FIRST);
        // queue_state row: {xoff, count, tail, head}
        int rowWidth = 1 + cw + 2 * aw;
        Mem queueState = mem("queue_state", queues, rowWidth, ReadUnderWrite.READ_FIRST);

        // ---- free list: every cell once from a counter, then the cells the reader frees --------------------------
        SyncFifo freeCells = child("free_cells", new SyncFifo(new SyncFifo.Config(aw, config.cells(), false)));
        Reg fresh = reg("fresh_cells", aw + 1, 0); // cells handed out from the counter so far
        Expr fromCounter = wire("alloc_from_counter", fresh.bit(aw).not());
        Expr allocOk = wire("alloc_ok", fromCounter.or(freeCells.popValid));
        Expr allocCell = wire("alloc_cell", Hw.mux(fromCounter, fresh.bits(aw - 1, 0), freeCells.popData));

        // ---- writer: one input beat per cell ----------------------------------------------------------------------
        // commands stored and waiting for the queue manager: as many as there are cells, so the input never waits
        // for the manager (the ingress cannot hold the XPU back; only credits can, and they bound the cells)
        SyncFifo appends = child("appends", new SyncFifo(new SyncFifo.Config(qw + aw, config.cells(), false)));
        Reg firstBeat = reg("first_beat", 1, 1);
        Reg prevCell = reg("prev_cell", aw, 0);
        Reg firstCell = reg("first_cell", aw, 0);
        Reg overflow = reg("overflow_flag", 1, 0);
        // after reset the queue table is cleared, a row per cycle (a RAM has no reset value); nothing enters meanwhile
        Reg initRow = reg("init_row", qw + 1, 0);
        Expr initializing = wire("initializing", initRow.bit(qw).not());
        when(initializing, () -> initRow.set(initRow.add(1)));
        initBusy.set(initializing);
        in.tready().set(allocOk.and(appends.pushReady).and(initializing.not()));
        when(in.tvalid().and(allocOk.not()), () -> overflow.set(1)); // credits should have prevented this
        Expr write = wire("write", in.tvalid().and(in.tready()));
        Expr inDst = CommandUser.dst(in.tuser());
        Expr inVc = CommandUser.vc(in.tuser());
        Expr inBytes = CommandUser.bytes(in.tuser());
        if (dw < 10) { // with 1024 destinations every xpuid is one
            Reg badDst = reg("dst_error_flag", 1, 0);
            when(write.and(inDst.bits(9, dw).orR()), () -> badDst.set(1)); // the ingress should have refused it
            dstError.set(badDst);
        } else {
            dstError.set(0);
        }
        cells.write(write, allocCell, in.tdata());
        cellLink.write(write.and(firstBeat.not()), prevCell, allocCell);
        cmdInfo.write(write.and(firstBeat), allocCell, inBytes);
        when(write, () -> {
            prevCell.set(allocCell);
            firstBeat.set(in.tlast());
            when(firstBeat, () -> firstCell.set(allocCell));
            when(fromCounter, () -> fresh.set(fresh.add(1)));
        });
        freeCells.popReady.set(write.and(fromCounter.not()));
        Expr commandFirst = Hw.mux(firstBeat, allocCell, firstCell);
        appends.pushValid.set(write.and(in.tlast()));
        appends.pushData.set(Hw.cat(inDst.bits(dw - 1, 0), inVc, commandFirst));
        unused("keep", in.tkeep()); // a command's length is in its tuser
        unused("has_data", CommandUser.hasData(in.tuser())); // for the credits (BufferCredits), not the buffer

        // ---- active lists: per VC, the queues that hold commands, in turn ------------------------------------------
        List<SyncFifo> active = new ArrayList<>();
        int listDepth = Math.min(config.destinations(), config.cells());
        for (int v = 0; v < VCS; v++) {
            active.add(child("active_" + v, new SyncFifo(new SyncFifo.Config(dw, Math.max(2, listDepth), false))));
        }
        // never full: a queue is on its list at most once, a cell on the free list at most once
        unused("never_full", freeCells.pushReady, active.get(0).pushReady, active.get(1).pushReady,
                active.get(2).pushReady, active.get(3).pushReady);

        // ---- queue manager: one operation per cycle; stage A reads, stage B writes ---------------------------------
        // requests from the walker: TAKE (k > 0) or SKIP (k = 0)
        Wire takeRequest = wire("take_request", 1);
        Wire takeQueue = wire("take_queue", qw);
        Wire takeCount = wire("take_count", cw);
        Wire takeLast = wire("take_last", aw);
        Wire takeKeep = wire("take_keep", 1); // the walker goes on with the queue: it stays off its list
        Expr grantTake = wire("grant_take", takeRequest);
        Expr grantAppend = wire("grant_append", appends.popValid.and(takeRequest.not()));
        appends.popReady.set(grantAppend);
        Expr opQueue = wire("op_queue", Hw.mux(grantTake, takeQueue, appends.popData.bits(qw + aw - 1, aw)));
        Expr rowRead = queueState.readSync("row_read", opQueue, Hw.lit(1, 1));
        Expr linkRead = nextCmd.readSync("link_read", takeLast, Hw.lit(1, 1));
        Reg bValid = reg("b_valid", 1, 0);
        Reg bTake = reg("b_take", 1, 0);
        Reg bKeep = reg("b_keep", 1, 0);
        Reg bQueue = reg("b_queue", qw, 0);
        Reg bCell = reg("b_cell", aw, 0);   // APPEND: the command's first cell; TAKE: the last command taken
        Reg bCount = reg("b_count", cw, 0);
        bValid.set(grantTake.or(grantAppend));
        bTake.set(grantTake);
        bKeep.set(grantTake.and(takeKeep));
        bQueue.set(opQueue);
        bCell.set(Hw.mux(grantTake, takeLast, appends.popData.bits(aw - 1, 0)));
        bCount.set(takeCount);
        // the previous operation's writes, for an operation that read before they landed
        Reg fwdRowValid = reg("fwd_row_valid", 1, 0);
        Reg fwdRowQueue = reg("fwd_row_queue", qw, 0);
        Reg fwdRow = reg("fwd_row", rowWidth, 0);
        Reg fwdLinkValid = reg("fwd_link_valid", 1, 0);
        Reg fwdLinkAddr = reg("fwd_link_addr", aw, 0);
        Reg fwdLinkData = reg("fwd_link_data", aw, 0);
        Expr row = wire("row", Hw.mux(fwdRowValid.and(fwdRowQueue.eq(bQueue)), fwdRow, rowRead));
        Expr link = wire("link", Hw.mux(fwdLinkValid.and(fwdLinkAddr.eq(bCell)), fwdLinkData, linkRead));
        Expr head = row.bits(aw - 1, 0);
        Expr tail = row.bits(2 * aw - 1, aw);
        Expr count = row.bits(2 * aw + cw - 1, 2 * aw);
        Expr xoff = row.bit(rowWidth - 1);
        Expr isTake = wire("is_take", bValid.and(bTake));
        Expr isAppend = wire("is_append", bValid.and(bTake.not()));
        Expr wasEmpty = wire("was_empty", count.eq(0));
        Expr newCount = wire("new_count", Hw.mux(isTake, count.sub(bCount), count.add(1)));
        Expr newHead = wire("new_head", Hw.mux(isTake, Hw.mux(bCount.eq(0), head, link),
                Hw.mux(wasEmpty, bCell, head)));
        Expr newTail = wire("new_tail", Hw.mux(isAppend, bCell, tail));
        Expr xoffNow = wire("xoff_now", isAppend.and(xoff.not()).and(newCount.ge(config.xoffThreshold())));
        Expr xonNow = wire("xon_now", isTake.and(xoff).and(newCount.le(config.xonThreshold())));
        Expr newXoff = wire("new_xoff", xoff.or(xoffNow).and(xonNow.not()));
        Expr newRow = wire("new_row", Hw.cat(newXoff, newCount, newTail, newHead));
        queueState.write(bValid.or(initializing), Hw.mux(initializing, initRow.bits(qw - 1, 0), bQueue),
                Hw.mux(initializing, Hw.zeros(rowWidth), newRow));
        Expr linkWrite = wire("link_write", isAppend.and(wasEmpty.not()));
        nextCmd.write(linkWrite, tail, bCell);
        fwdRowValid.set(bValid);
        fwdRowQueue.set(bQueue);
        fwdRow.set(newRow);
        fwdLinkValid.set(linkWrite);
        fwdLinkAddr.set(tail);
        fwdLinkData.set(bCell);
        // a queue joins its list when its first command arrives and rejoins after a turn if it still holds commands
        Expr listPush = wire("list_push", isAppend.and(wasEmpty).or(isTake.and(newCount.ne(0)).and(bKeep.not())));
        Expr bVc = bQueue.bits(1, 0);
        for (int v = 0; v < VCS; v++) {
            active.get(v).pushValid.set(listPush.and(bVc.eq(v)));
            active.get(v).pushData.set(bQueue.bits(qw - 1, 2));
        }
        Reg xoffValidReg = reg("xoff_valid_reg", 1, 0);
        Reg xoffOnReg = reg("xoff_on_reg", 1, 0);
        Reg xoffQueue = reg("xoff_queue", qw, 0);
        xoffValidReg.set(xoffNow.or(xonNow));
        xoffOnReg.set(xoffNow);
        xoffQueue.set(bQueue);
        xoffValid.set(xoffValidReg);
        xoffOn.set(xoffOnReg);
        xoffXpuid.set(xoffQueue.bits(qw - 1, 2).resize(10));
        xoffVc.set(xoffQueue.bits(1, 0));

        // ---- scheduler and walker ---------------------------------------------------------------------------------
        // a pick reads its queue's row into a slot while the walker is still busy; the next walk starts from the slot
        // in the cycle the previous one ends, so the walker takes a command in every cycle but one per PDU
        Reg rrVc = reg("rr_vc", 2, VCS - 1);
        Reg slotValid = reg("slot_valid", 1, 0);   // a picked queue waits for the walker; its row comes a cycle later
        Reg slotQueue = reg("slot_queue", qw, 0);
        Reg slotSkip = reg("slot_skip", 1, 0);
        Reg slotHead = reg("slot_head", aw, 0);
        Reg slotAvail = reg("slot_avail", cw, 0);
        Reg rowArriving = reg("slot_row_arriving", 1, 0);
        Reg walking = reg("walking", 1, 0);
        Reg walkQueue = reg("walk_queue", qw, 0);
        Reg walkAvail = reg("walk_avail", cw, 0);  // commands the queue held when picked
        Reg walkTaken = reg("walk_taken", cw, 0);
        Reg walkBytes = reg("walk_bytes", lw, 0);
        Reg walkLast = reg("walk_last", aw, 0);   // the command taken last
        Reg walkCmd = reg("walk_cmd", aw, 0);    // command whose info is being read
        Reg walkSkip = reg("walk_skip", 1, 0);
        // the command taken last goes to the reader once it is known whether it ends the PDU
        Reg walkLastBytes = reg("walk_last_bytes", bw, 0);
        Reg inFlight = reg("pdus_in_flight", 2, 0); // picked and not yet out of m_axis: at most PDUS_AHEAD
        SyncFifo taken = child("taken", new SyncFifo(new SyncFifo.Config(aw + bw + 1 + qw, 16, false)));

        // pick: round robin over the VCs with credit and an active queue, starting after the last one served
        List<Expr> eligible = new ArrayList<>();
        for (int v = 0; v < VCS; v++) {
            eligible.add(active.get(v).popValid.and(vcReady.bit(v)));
        }
        Expr pickVc = rotatingPick(eligible, rrVc);
        Expr anyEligible = wire("any_eligible", Hw.cat(eligible).orR());
        Wire startWalk = wire("start_walk", 1);
        Expr pick = wire("pick", anyEligible.and(slotValid.not().or(startWalk)).and(inFlight.lt(PDUS_AHEAD)));
        Expr pickedDst = wire("picked_dst", Hw.select(active.stream().map(f -> f.popData).toList(), pickVc));
        for (int v = 0; v < VCS; v++) {
            active.get(v).popReady.set(pick.and(pickVc.eq(v)));
        }
        Expr pickedQueue = Hw.cat(pickedDst, pickVc);
        Expr walkRow = queueState.readSync("walk_row", pickedQueue, pick);
        Expr windowOpen = wire("window_open", dstReady.shr(pickedDst).bit(0));
        rowArriving.set(pick);
        Expr headNow = wire("slot_head_now", Hw.mux(rowArriving, walkRow.bits(aw - 1, 0), slotHead));
        Expr availNow = wire("slot_avail_now", Hw.mux(rowArriving, walkRow.bits(2 * aw + cw - 1, 2 * aw), slotAvail));

        // walk: cmd_info and next_cmd of the command at hand, read one cycle ahead
        Wire walkAddr = wire("walk_addr", aw);
        Expr info = cmdInfo.readSync("walk_info", walkAddr, Hw.lit(1, 1));
        Expr infoNext = nextCmd.readSync("walk_next", walkAddr, Hw.lit(1, 1));
        walkAddr.set(walkCmd);
        Expr infoBytes = info.bits(bw - 1, 0);
        Expr fits = wire("fits", walkBytes.add(infoBytes.resize(lw)).le(config.pduLimit()));
        Expr walkNow = walking.and(walkSkip.not());
        Expr takeOne = wire("take_one", walkNow.and(walkTaken.lt(walkAvail)).and(fits).and(taken.pushReady));
        // the walk ends when the queue's commands are taken or the next does not fit: tell the queue manager (always
        // granted) and mark the PDU's last command for the reader; a skip (no transmit window) ends at once
        Expr walkEnd = wire("walk_end", walkNow.and(walkTaken.eq(walkAvail).or(fits.not())).and(taken.pushReady));
        Expr finish = wire("finish", walkEnd.or(walking.and(walkSkip)));
        // a walk that ended on the PDU limit goes on with the same queue for the next PDU when no other queue waits
        // (nothing in the slot, none eligible) and the queue still may send: one busy destination alone does not
        // wait for its turn on the list again
        Expr walkVc = walkQueue.bits(1, 0);
        Expr continueWalk = wire("continue_walk", walkEnd.and(walkTaken.lt(walkAvail)).and(slotValid.not())
                .and(anyEligible.not()).and(vcReady.shr(walkVc).bit(0))
                .and(dstReady.shr(walkQueue.bits(qw - 1, 2)).bit(0)).and(inFlight.lt(PDUS_AHEAD)));
        startWalk.set(slotValid.and(walking.not().or(finish)));
        when(takeOne, () -> {
            walkLastBytes.set(infoBytes);
            walkTaken.set(walkTaken.add(1));
            walkBytes.set(walkBytes.add(infoBytes.resize(lw)));
            walkLast.set(walkCmd);
            walkCmd.set(infoNext);
            walkAddr.set(infoNext);
        });
        when(finish, () -> walking.set(0));
        when(continueWalk, () -> { // the command that did not fit is at hand: its info is being read
            walking.set(1);
            walkAvail.set(walkAvail.sub(walkTaken));
            walkTaken.set(0);
            walkBytes.set(0);
        });
        when(rowArriving, () -> {
            slotHead.set(headNow);
            slotAvail.set(availNow);
        });
        when(startWalk, () -> {
            walking.set(1);
            walkQueue.set(slotQueue);
            walkSkip.set(slotSkip);
            walkAvail.set(availNow);
            walkTaken.set(0);
            walkBytes.set(0);
            walkCmd.set(headNow);
            walkAddr.set(headNow);
            slotValid.set(0);
        });
        when(pick, () -> {
            slotValid.set(1);
            slotQueue.set(pickedQueue);
            slotSkip.set(windowOpen.not());
            rrVc.set(pickVc);
        });
        takeRequest.set(finish);
        takeQueue.set(walkQueue);
        takeCount.set(Hw.mux(walkSkip, Hw.lit(cw, 0), walkTaken));
        takeLast.set(walkLast);
        takeKeep.set(continueWalk);
        // taken entries: {last of its PDU, queue, bytes, first cell}; a walk takes at least one command
        taken.pushValid.set(takeOne.and(walkTaken.ne(0)).or(walkEnd));
        taken.pushData.set(Hw.cat(walkEnd, walkQueue, walkLastBytes, walkLast));
        unused("walk_row_rest", walkRow.bits(rowWidth - 1, 2 * aw + cw), walkRow.bits(2 * aw - 1, aw));

        // ---- reader: one cell per cycle; the PDU's last command carries its end ------------------------------------
        Expr entryEnd = taken.popData.bit(aw + bw + qw);
        Expr entryQueue = taken.popData.bits(aw + bw + qw - 1, aw + bw);
        Expr entryBytes = taken.popData.bits(aw + bw - 1, aw);
        Expr entryCell = taken.popData.bits(aw - 1, 0);
        Reg reading = reg("reading", 1, 0);       // inside a command
        Reg readLeft = reg("read_left", bw, 0);   // bytes of the command not yet read
        Reg readQueue = reg("read_queue", qw, 0);
        Reg readEnd = reg("read_end", 1, 0);      // the command is its PDU's last
        Wire flushNext = wire("flush_next", 1);   // the concatenation needs the next cycle for a PDU's last beat
        Reg pduBytes = reg("pdu_bytes", lw, 0);
        Wire readAddrW = wire("read_addr", aw);
        Expr nextLink = cellLink.readSync("read_link", readAddrW, Hw.lit(1, 1)); // the next cell, one cycle later
        Expr startCommand = wire("start_command", reading.not().and(taken.popValid).and(flushNext.not()));
        Expr readNow = wire("read_now", reading.or(startCommand));
        readAddrW.set(Hw.mux(reading, nextLink, entryCell));
        Expr readAddr = readAddrW;
        Expr left = wire("left", Hw.mux(reading, readLeft, entryBytes));
        Expr lastCell = wire("last_cell", left.le(cb));
        Expr pieceBytes = wire("piece_bytes", Hw.mux(lastCell, left, Hw.lit(bw, cb)));
        Expr data = cells.readSync("read_data", readAddr, readNow);
        taken.popReady.set(startCommand);
        when(readNow, () -> {
            reading.set(lastCell.not());
            readLeft.set(left.sub(cb));
        });
        when(startCommand, () -> {
            readQueue.set(entryQueue);
            readEnd.set(entryEnd);
        });
        Expr queueNow = Hw.mux(reading, readQueue, entryQueue);
        // the cell just read goes back to the free list; its data is already on its way out
        freeCells.pushValid.set(readNow);
        freeCells.pushData.set(readAddr);
        // told when the free list can hand the cell out again: two cycles after its push
        Reg freedValid1 = reg("cell_freed_valid_1", 1, 0);
        Reg freedVc1 = reg("cell_freed_vc_1", 2, 0);
        Reg freedValid2 = reg("cell_freed_valid_2", 1, 0);
        Reg freedVc2 = reg("cell_freed_vc_2", 2, 0);
        freedValid1.set(readNow);
        freedVc1.set(queueNow.bits(1, 0));
        freedValid2.set(freedValid1);
        freedVc2.set(freedVc1);
        cellFreedValid.set(freedValid2);
        cellFreedVc.set(freedVc2);

        // ---- concatenation of the pieces into full beats, into the output packet FIFO -----------------------------
        Reg pieceValid = reg("piece_valid", 1, 0);
        Reg pieceN = reg("piece_n", bw, 0);
        Reg pieceEnd = reg("piece_end", 1, 0);   // the PDU's last piece
        Reg pieceQueue = reg("piece_queue", qw, 0);
        Reg flushing = reg("flushing", 1, 0);     // the PDU's last beat: what the last piece left over
        pieceValid.set(readNow);
        pieceN.set(pieceBytes);
        pieceEnd.set(readNow.and(lastCell).and(Hw.mux(reading, readEnd, entryEnd)));
        when(readNow, () -> pieceQueue.set(queueNow));
        Reg acc = reg("acc", w, 0);
        int nw = Hw.log2Up(cb + 1);
        Reg accN = reg("acc_n", nw, 0);
        Expr shifted = wire("shifted", data.resize(2 * w).shl(Hw.cat(accN, Hw.lit(3, 0))));
        Expr combined = wire("combined", acc.resize(2 * w).or(shifted));
        Expr total = wire("total", accN.resize(bw + 1).add(pieceN.resize(bw + 1)));
        // a beat leaves as soon as it is full, the PDU's last one with tlast; a last piece that overflows a beat
        // leaves a remainder for the next cycle, when the reader waits
        Expr endNow = wire("end_now", pieceValid.and(pieceEnd).and(total.le(cb)));
        Expr full = wire("full", pieceValid.and(total.ge(cb)).and(endNow.not()));
        flushNext.set(full.and(pieceEnd));
        Expr lastBeat = wire("last_beat", endNow.or(flushing));
        // room for every PDU picked and not yet sent
        PacketFifo staging = child("staging", new PacketFifo(new PacketFifo.Config(new StreamConfig(w, SueMeta.WIDTH),
                Integer.highestOneBit(PDUS_AHEAD * config.maxPduBeats() + 4) * 2)));
        staging.inValid.set(full.or(lastBeat));
        staging.inData.set(Hw.mux(flushing, acc, combined.bits(w - 1, 0)));
        staging.inKeep.set(Hw.mux(full, Hw.ones(cb), Keep.below(Hw.mux(flushing, accN.resize(bw + 1), total), cb)));
        staging.inLast.set(lastBeat);
        flushing.set(flushNext);
        when(full, () -> {
            acc.set(combined.bits(2 * w - 1, w));
            accN.set(total.sub(cb).resize(nw));
        }).elseWhen(lastBeat, () -> {
            acc.set(0);
            accN.set(0);
        }).elseWhen(pieceValid, () -> {
            acc.set(combined.bits(w - 1, 0));
            accN.set(total.resize(nw));
        });
        Expr pduLen = wire("pdu_len", pduBytes.add(Hw.mux(pieceValid, pieceN.resize(lw), Hw.zeros(lw))));
        pduBytes.set(Hw.mux(lastBeat, Hw.zeros(lw), pduLen));
        // verdict two cycles after the last beat: keep, with the PDU's metadata
        Reg v1 = reg("verdict_1", 1, 0);
        Reg v2 = reg("verdict_2", 1, 0);
        Reg u1 = reg("verdict_user_1", SueMeta.WIDTH, 0);
        Reg u2 = reg("verdict_user_2", SueMeta.WIDTH, 0);
        v1.set(lastBeat);
        v2.set(v1);
        u1.set(meta(pieceQueue, pduLen, dw));
        u2.set(u1);
        staging.verdictValid.set(v2);
        staging.verdictDrop.set(0);
        staging.verdictUser.set(u2);
        unused("staging_status", staging.dropsBad, staging.dropsOverflow, staging.protocolError);
        out.tdata().set(staging.out.tdata());
        out.tkeep().set(staging.out.tkeep());
        out.tvalid().set(staging.out.tvalid());
        out.tlast().set(staging.out.tlast());
        out.tuser().set(staging.out.tuser());
        staging.out.tready().set(out.tready());
        Expr pduOut = wire("pdu_out", out.tvalid().and(out.tready()).and(out.tlast()));
        inFlight.set(inFlight.add(pick.and(windowOpen).or(continueWalk).resize(2)).sub(pduOut.resize(2)));
        overflowError.set(overflow);
    }

    /** SueMeta for an assembled PDU: destination, VC and length; the rest is filled in further down the path. */
    private static Expr meta(Expr queue, Expr len, int dw) {
        BigInteger zero = BigInteger.ZERO;
        Expr dst = queue.bits(queue.width() - 1, 2).resize(10);
        Expr vc = queue.bits(1, 0);
        return Hw.cat(len, Hw.lit(SueMeta.Field.LEN.lo - SueMeta.Field.VC.lo - 2, zero), vc,
                Hw.lit(10, 0), dst);
    }

    /** The first eligible index after {@code last}, circularly (the last one served goes to the back). */
    static Expr rotatingPick(List<Expr> eligible, Expr last) {
        int n = eligible.size();
        Expr choice = Hw.lit(2, 0);
        for (int start = 0; start < n; start++) {
            // candidates in order start+1, start+2, ..., start (when last == start)
            Expr pickHere = Hw.lit(2, start);
            for (int k = n; k >= 1; k--) {
                int v = (start + k) % n;
                pickHere = Hw.mux(eligible.get(v), Hw.lit(2, v), pickHere);
            }
            choice = Hw.mux(last.eq(start), pickHere, choice);
        }
        return choice;
    }

    public Config config() {
        return config;
    }

    @Override
    public String moduleName() {
        return "PackingBuffer_w" + config.cellWidth() + "_c" + config.cells() + "_d" + config.destinations();
    }

    @Override
    public Map<String, Object> parameters() {
        return Map.of("cellWidth", config.cellWidth(), "cells", config.cells(), "destinations",
                config.destinations(), "pduLimit", config.pduLimit(), "xoffThreshold", config.xoffThreshold(),
                "xonThreshold", config.xonThreshold());
    }
}
