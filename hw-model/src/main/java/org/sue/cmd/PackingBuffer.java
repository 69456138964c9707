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
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.Stream;
import org.sue.net.SueMeta;

/**
 * Per-{destination, VC} packing buffers in one shared memory, the scheduler that picks them, and PDU assembly (spec
 * 4.4, docs/protocol.md section 4).
 *
 * <p><b>Storage</b> ({@link QueueStore}): each queue ({destination, VC}) is one byte stream in shared cells, its
 * commands ({@link CommandIngress}'s packed commands, one packet each, tuser {has_data, bytes, vc, dst}) following
 * each other with no gap; a PDU is one run of that stream, read a full beat per cycle whatever the command sizes. So
 * area grows with the buffer size; a queue costs a row in two tables.
 *
 * <p><b>PDUs are cut as commands arrive.</b> A PDU always starts at its queue's head and takes the longest run of
 * commands within {@code pduLimit}, so the cuts are known when commands arrive: a queue's commands form closed
 * segments (the next command did not fit) and one open segment. A closed segment's record (bytes, commands, where the
 * next starts) is kept in {@code segments} under the cell it starts in (unique: a closed segment is longer than a
 * cell); the open segment's figures are in the queue's row.
 *
 * <p><b>Queue manager.</b> One operation per cycle changes the {@code queue_state} table, so no row has two writers:
 * APPEND (a stored command joins its queue: it extends the open segment or closes it and opens the next; a queue that
 * was empty joins its VC's active list), TAKE (the scheduler picked the queue: its first closed segment, or else its
 * open one, is the PDU; the queue rejoins the end of its list if commands remain) and SKIP (the queue's destination
 * has no transmit window: back to the end of the list). Three stages (read the row; read the head segment's record;
 * write) with the two previous writes forwarded keep back-to-back operations on one queue exact. Stored commands
 * wait for it in a FIFO as deep as the buffer has cells; {@link CommandPath}'s credits keep it from filling (a
 * command's credits return only once it is appended), and the input waits if it ever would.
 *
 * <p><b>Scheduler.</b> Round robin over the VCs that have link credit ({@code vc_ready}) and active queues; within a
 * VC the active list is a FIFO of queues, so queues take turns. Besides the PDU leaving, at most
 * {@value #PDUS_AHEAD} are picked and not yet leaving, so later arrivals join later PDUs (spec Figure 18: A, B, C+E,
 * D), and PDUs of three beats or more follow each other without a gap (a pick reaches {@code m_axis} about six
 * cycles later). Work-conserving: a queue with one command sends it at once, nothing waits to be packed.
 *
 * <p>Reset: the queue tables are RAMs without a reset value, so after reset they are cleared one row per cycle while
 * {@code init_busy} is high and nothing enters.
 */
public final class PackingBuffer extends Component {
    /** Width of the input tuser: {has_data[21], bytes[20:12], vc[11:10], dst[9:0]}. */
    public static final int COMMAND_USER_WIDTH = 22;

    /** The input tuser of one command: whether it has data, its packed bytes, its VC and destination. */
    public record CommandUser(boolean hasData, int bytes, int vc, int dst) {
        /** Width of the packed-bytes field: a command has at most 274. */
        public static final int BYTES_WIDTH = 9;

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
    /** PDUs picked and not yet leaving {@code m_axis}, at most. */
    static final int PDUS_AHEAD = 2;

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
            // a closed PDU is longer than a cell, so no two waiting PDUs start in one cell (their records' key)
            int least = PackedCommand.MAX_PACKED_BYTES + cellWidth / 8;
            if (pduLimit < least || pduLimit > 4096 - org.sue.net.FrameFormat.RH_BYTES) {
                throw new IllegalArgumentException("PackingBuffer pduLimit must be " + least + ".."
                        + (4096 - org.sue.net.FrameFormat.RH_BYTES) + " bytes (the largest command and a cell must"
                        + " fit; the PDU with its reliability header at most 4096), got " + pduLimit);
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

    }

    public final Stream in;
    public final Stream out;
    public final Port vcReady;
    public final Port dstReady;
    public final Port cellUsedValid;
    public final Port cellUsedVc;
    public final Port cmdStoredValid;
    public final Port cmdStoredVc;
    public final Port cmdStoredData;
    public final Port cellFreedValid;
    public final Port cellFreedVc;
    public final Port cellReturnedCount;
    public final Port cellReturnedVc;
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
        int ow = Hw.log2Up(cb);
        int aw = Hw.log2Up(config.cells());
        int dw = Hw.log2Up(config.destinations());
        int qw = dw + 2;
        int queues = config.destinations() * SueMeta.VCS;
        int cw = Hw.log2Up((long) config.cells() * cb / PackedCommand.HEADER_BYTES + 1); // commands of one queue
        int bw = CommandUser.BYTES_WIDTH;
        int lw = SueMeta.Field.LEN.width;
        in = Stream.slave(this, new StreamConfig(w, COMMAND_USER_WIDTH));
        out = Stream.master(this, new StreamConfig(w, SueMeta.WIDTH));
        vcReady = in("vc_ready", SueMeta.VCS);
        dstReady = in("dst_ready", config.destinations());
        cellUsedValid = out("cell_used_valid", 1);
        cellUsedVc = out("cell_used_vc", 2);
        cmdStoredValid = out("cmd_stored_valid", 1);
        cmdStoredVc = out("cmd_stored_vc", 2);
        cmdStoredData = out("cmd_stored_data", 1);
        cellFreedValid = out("cell_freed_valid", 1);
        cellFreedVc = out("cell_freed_vc", 2);
        cellReturnedCount = out("cell_returned_count", 2);
        cellReturnedVc = out("cell_returned_vc", 2);
        xoffValid = out("xoff_valid", 1);
        xoffOn = out("xoff_on", 1);
        xoffXpuid = out("xoff_xpuid", 10);
        xoffVc = out("xoff_vc", 2);
        overflowError = out("overflow_error", 1);
        dstError = out("dst_error", 1);
        initBusy = out("init_busy", 1);

        // ---- storage: commands in, runs out, cells counted for the credits ------------------------------------------
        QueueStore store = child("store", new QueueStore(new QueueStore.Config(w, config.cells(),
                config.destinations())));
        // stored commands waiting for the queue manager: {has_data, queue, bytes, cell, offset}
        int ew = 1 + qw + bw + aw + ow;
        SyncFifo appends = child("appends", new SyncFifo(new SyncFifo.Config(ew, config.cells())));
        // room for the command being written and the one in the store's last stage
        Expr room = wire("append_room", appends.level.le(config.cells() - 3));
        store.in.tvalid().set(in.tvalid().and(room));
        in.tready().set(store.in.tready().and(room));
        store.in.tdata().set(in.tdata());
        store.in.tkeep().set(in.tkeep());
        store.in.tlast().set(in.tlast());
        store.in.tuser().set(in.tuser());
        Expr inDst = CommandUser.dst(in.tuser());
        if (dw < 10) { // with 1024 destinations every xpuid is one
            Reg badDst = reg("dst_error_flag", 1, 0);
            when(in.tvalid().and(in.tready()).and(inDst.bits(9, dw).orR()), () -> badDst.set(1)); // the ingress
            dstError.set(badDst);                                                               // refuses those
        } else {
            dstError.set(0);
        }
        appends.push.valid().set(store.storedValid);
        appends.push.data().set(Hw.cat(store.storedData, store.storedQueue, store.storedBytes, store.storedCell,
                store.storedOffset));
        unused("appends_status", appends.push.ready(), appends.creditReturn);
        cellUsedValid.set(store.cellAllocValid);
        cellUsedVc.set(store.cellAllocVc);
        cellFreedValid.set(store.cellFreedValid);
        cellFreedVc.set(store.cellFreedVc);
        cellReturnedCount.set(store.cellReturnedCount);
        cellReturnedVc.set(store.cellReturnedVc);
        unused("cells_in_use", store.cellsInUse);
        overflowError.set(store.overflowError.or(appends.overflow));

        // ---- active lists: per VC, the queues that hold commands, in turn ------------------------------------------
        List<SyncFifo> active = new ArrayList<>();
        int listDepth = Math.min(config.destinations(), config.cells());
        for (int v = 0; v < SueMeta.VCS; v++) {
            active.add(child("active_" + v, new SyncFifo(new SyncFifo.Config(dw, Math.max(2, listDepth), false))));
        }
        // never full: a queue is on its list at most once
        unused("never_full", active.get(0).push.ready(), active.get(1).push.ready(), active.get(2).push.ready(),
                active.get(3).push.ready());

        // ---- queue manager: stage A reads the row, B the head segment's record, C writes ----------------------------
        // queue_state row, low to high: head (offset, cell), commands, closed segments, open segment (bytes,
        // commands, start offset, start cell), xoff
        Row rowLayout = new Row(ow, aw, cw, lw);
        Mem queueState = mem("queue_state", queues, rowLayout.width, ReadUnderWrite.READ_FIRST);
        // a closed segment, by the cell it starts in: {bytes, commands, next segment's start (cell, offset)}
        int segWidth = lw + cw + aw + ow;
        Mem segments = mem("segments", config.cells(), segWidth, ReadUnderWrite.READ_FIRST);
        Reg initRow = reg("init_row", qw + 1, 0);
        Expr initializing = wire("initializing", initRow.bit(qw).not());
        when(initializing, () -> initRow.set(initRow.add(1)));
        initBusy.set(initializing.or(store.initBusy));

        Wire takeRequest = wire("take_request", 1); // the scheduler picked: TAKE, or SKIP when take_skip
        Wire takeQueue = wire("take_queue", qw);
        Wire takeSkip = wire("take_skip", 1);
        Expr grantAppend = wire("grant_append", appends.pop.valid().and(takeRequest.not()).and(initializing.not()));
        appends.pop.ready().set(grantAppend);
        Expr entry = appends.pop.data();
        Expr opQueue = wire("op_queue", Hw.mux(takeRequest, takeQueue, entry.bits(ew - 2, bw + aw + ow)));
        Expr rowRead = queueState.readSync("row_read", opQueue, Hw.lit(1, 1));
        Reg bValid = reg("b_valid", 1, 0);
        Reg bTake = reg("b_take", 1, 0);
        Reg bSkip = reg("b_skip", 1, 0);
        Reg bQueue = reg("b_queue", qw, 0);
        int cmdWidth = 1 + bw + aw + ow;
        Reg bEntry = reg("b_entry", cmdWidth, 0); // APPEND: the command {has_data, bytes, cell, offset}
        bValid.set(takeRequest.or(grantAppend));
        bTake.set(takeRequest);
        bSkip.set(takeSkip);
        bQueue.set(opQueue);
        bEntry.set(Hw.cat(entry.bit(ew - 1), entry.bits(bw + aw + ow - 1, 0)));
        Reg cValid = reg("c_valid", 1, 0);
        Reg cTake = reg("c_take", 1, 0);
        Reg cSkip = reg("c_skip", 1, 0);
        Reg cQueue = reg("c_queue", qw, 0);
        Reg cEntry = reg("c_entry", cmdWidth, 0);
        Reg cRow = reg("c_row", rowLayout.width, 0);
        Reg fwdValid = reg("fwd_valid", 1, 0);   // stage C's write of the cycle before
        Reg fwdQueue = reg("fwd_queue", qw, 0);
        Reg fwdRow = reg("fwd_row", rowLayout.width, 0);
        Wire newRow = wire("new_row", rowLayout.width);
        Wire segWrite = wire("seg_write", 1);
        Wire segWriteCell = wire("seg_write_cell", aw);
        Wire segWriteData = wire("seg_write_data", segWidth);
        // stage B: the row with the writes the read missed (stage C now, stage C a cycle ago); the head's record
        Expr rowB = wire("row_b", Hw.mux(cValid.and(cQueue.eq(bQueue)), newRow,
                Hw.mux(fwdValid.and(fwdQueue.eq(bQueue)), fwdRow, rowRead)));
        Expr headCellB = rowLayout.headCell(rowB);
        Expr segRead = segments.readSync("seg_read", headCellB, Hw.lit(1, 1));
        Reg segHit = reg("seg_fwd_hit", 1, 0); // the record was being written as it was read
        Reg segFwd = reg("seg_fwd", segWidth, 0);
        segHit.set(segWrite.and(segWriteCell.eq(headCellB)));
        segFwd.set(segWriteData);
        cValid.set(bValid);
        cTake.set(bTake);
        cSkip.set(bSkip);
        cQueue.set(bQueue);
        cEntry.set(bEntry);
        cRow.set(rowB);

        // stage C
        Expr seg = wire("seg", Hw.mux(segHit, segFwd, segRead));
        Expr row = cRow;
        Expr count = rowLayout.count(row);
        Expr closed = rowLayout.closed(row);
        Expr open = rowLayout.openBytes(row);
        Expr openCmds = rowLayout.openCmds(row);
        Expr xoff = rowLayout.xoff(row);
        Expr isAppend = wire("is_append", cValid.and(cTake.not()));
        Expr isTake = wire("is_take", cValid.and(cTake).and(cSkip.not()));
        Expr isSkip = wire("is_skip", cValid.and(cTake).and(cSkip));
        // APPEND: the command at (cell, offset) of `bytes` bytes
        Expr cmdBytes = cEntry.bits(bw + aw + ow - 1, aw + ow).resize(lw);
        Expr cmdStart = cEntry.bits(aw + ow - 1, 0); // {cell, offset}
        Expr empty = wire("was_empty", count.eq(0));
        Expr closes = wire("closes", empty.not().and(open.add(cmdBytes).gt(config.pduLimit())));
        Expr fresh = empty.or(closes); // the command opens a segment
        Expr appendCount = count.add(1);
        Expr appendRow = rowLayout.pack(Hw.mux(empty, cmdStart, rowLayout.head(row)), appendCount,
                Hw.mux(empty, Hw.zeros(cw), closed.add(closes.resize(cw))),
                Hw.mux(fresh, cmdBytes, open.add(cmdBytes)), Hw.mux(fresh, Hw.lit(cw, 1), openCmds.add(1)),
                Hw.mux(fresh, cmdStart, rowLayout.openStart(row)), Hw.zeros(1));
        segWrite.set(isAppend.and(closes));
        segWriteCell.set(rowLayout.openStartCell(row));
        segWriteData.set(Hw.cat(open, openCmds, cmdStart));
        segments.write(segWrite, segWriteCell, segWriteData);
        // TAKE: the first closed segment, or else the open one
        Expr fromClosed = wire("from_closed", closed.ne(0));
        Expr takeBytes = wire("take_bytes", Hw.mux(fromClosed, seg.bits(segWidth - 1, segWidth - lw), open));
        Expr takeCmds = Hw.mux(fromClosed, seg.bits(segWidth - lw - 1, aw + ow), openCmds);
        Expr takeCount = wire("take_count", count.sub(takeCmds));
        Expr takeRow = rowLayout.pack(Hw.mux(fromClosed, seg.bits(aw + ow - 1, 0), rowLayout.head(row)), takeCount,
                Hw.mux(fromClosed, closed.sub(1), Hw.zeros(cw)), Hw.mux(fromClosed, open, Hw.zeros(lw)),
                Hw.mux(fromClosed, openCmds, Hw.zeros(cw)), rowLayout.openStart(row), Hw.zeros(1));
        Expr xoffNow = wire("xoff_now", isAppend.and(xoff.not()).and(appendCount.ge(config.xoffThreshold())));
        Expr xonNow = wire("xon_now", isTake.and(xoff).and(takeCount.le(config.xonThreshold())));
        Expr newXoff = xoff.or(xoffNow).and(xonNow.not());
        Expr changed = Hw.mux(isAppend, appendRow, Hw.mux(isTake, takeRow, row));
        newRow.set(Hw.cat(newXoff, changed.bits(rowLayout.width - 2, 0)));
        queueState.write(cValid.or(initializing), Hw.mux(initializing, initRow.bits(qw - 1, 0), cQueue),
                Hw.mux(initializing, Hw.zeros(rowLayout.width), newRow));
        fwdValid.set(cValid);
        fwdQueue.set(cQueue);
        fwdRow.set(newRow);
        // the command's credits may come back now that it is in its queue
        cmdStoredValid.set(isAppend);
        cmdStoredVc.set(cQueue.bits(1, 0));
        cmdStoredData.set(cEntry.bit(cmdWidth - 1));
        // a queue joins its list with its first command, and goes back after a turn if it still holds commands
        Expr listPush = wire("list_push", isAppend.and(empty).or(isTake.and(takeCount.ne(0))).or(isSkip));
        Expr cVc = cQueue.bits(1, 0);
        for (int v = 0; v < SueMeta.VCS; v++) {
            active.get(v).push.valid().set(listPush.and(cVc.eq(v)));
            active.get(v).push.data().set(cQueue.bits(qw - 1, 2));
        }
        Reg xoffValidReg = reg("xoff_valid_reg", 1, 0);
        Reg xoffOnReg = reg("xoff_on_reg", 1, 0);
        Reg xoffQueue = reg("xoff_queue", qw, 0);
        xoffValidReg.set(xoffNow.or(xonNow));
        xoffOnReg.set(xoffNow);
        xoffQueue.set(cQueue);
        xoffValid.set(xoffValidReg);
        xoffOn.set(xoffOnReg);
        xoffXpuid.set(xoffQueue.bits(qw - 1, 2).resize(10));
        xoffVc.set(xoffQueue.bits(1, 0));

        // a taken PDU: read its run from the store; its length waits for its last beat on m_axis
        SyncFifo runs = child("runs", new SyncFifo(new SyncFifo.Config(qw + aw + ow + lw, 4)));
        SyncFifo lens = child("lens", new SyncFifo(new SyncFifo.Config(lw, 4, false)));
        unused("never_full_runs", runs.push.ready(), lens.push.ready(), runs.creditReturn, runs.overflow); // PDUS_AHEAD
        // a run goes straight to the store when none waits before it (two cycles sooner than through the FIFO)
        Expr run = Hw.cat(cQueue, rowLayout.head(row), takeBytes);
        Expr direct = wire("run_direct", isTake.and(runs.level.eq(0)));
        Expr rd = Hw.mux(runs.pop.valid(), runs.pop.data(), run);
        runs.push.valid().set(isTake.and(direct.and(store.rdReady).not()));
        runs.push.data().set(run);
        lens.push.valid().set(isTake);
        lens.push.data().set(takeBytes);
        store.rdValid.set(runs.pop.valid().or(direct));
        runs.pop.ready().set(store.rdReady);
        store.rdQueue.set(rd.bits(qw + aw + ow + lw - 1, aw + ow + lw));
        store.rdCell.set(rd.bits(aw + ow + lw - 1, ow + lw));
        store.rdOffset.set(rd.bits(ow + lw - 1, lw));
        store.rdBytes.set(rd.bits(lw - 1, 0).resize(QueueStore.RUN_WIDTH));
        out.tdata().set(store.out.tdata());
        out.tkeep().set(store.out.tkeep());
        out.tvalid().set(store.out.tvalid());
        out.tlast().set(store.out.tlast());
        out.tuser().set(meta(store.out.tuser(), lens.pop.data(), dw)); // the store's tuser is the run's queue
        store.out.tready().set(out.tready());
        unused("len_valid", lens.pop.valid()); // a PDU's length waits before its first beat
        Expr beatOut = wire("beat_out", out.tvalid().and(out.tready()));
        lens.pop.ready().set(beatOut.and(out.tlast()));
        Reg firstOut = reg("first_beat_out", 1, 1); // the next beat on m_axis starts a PDU
        when(beatOut, () -> firstOut.set(out.tlast()));
        Expr pduLeaving = wire("pdu_leaving", beatOut.and(firstOut));

        // ---- scheduler: round robin over the VCs with credit and an active queue, starting after the last served ---
        Reg rrVc = reg("rr_vc", 2, SueMeta.VCS - 1);
        Reg inFlight = reg("pdus_in_flight", 2, 0); // picked and not yet leaving m_axis: at most PDUS_AHEAD
        List<Expr> eligible = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            eligible.add(active.get(v).pop.valid().and(vcReady.bit(v)));
        }
        Expr pickVc = rotatingPick(eligible, rrVc);
        Expr anyEligible = wire("any_eligible", Hw.cat(eligible).orR());
        // a PDU starting to leave makes room at once: the next pick reaches m_axis as the two ahead of it are sent
        Expr pickRoom = wire("pick_room", inFlight.lt(PDUS_AHEAD).or(pduLeaving));
        Expr pick = wire("pick", anyEligible.and(pickRoom).and(initializing.not()));
        Expr pickedDst = wire("picked_dst", Hw.select(active.stream().map(f -> f.pop.data()).toList(), pickVc));
        for (int v = 0; v < SueMeta.VCS; v++) {
            active.get(v).pop.ready().set(pick.and(pickVc.eq(v)));
        }
        Expr windowOpen = wire("window_open", dstReady.shr(pickedDst).bit(0));
        when(pick, () -> rrVc.set(pickVc));
        takeRequest.set(pick);
        takeQueue.set(Hw.cat(pickedDst, pickVc));
        takeSkip.set(windowOpen.not());
        inFlight.set(inFlight.add(pick.and(windowOpen).resize(2)).sub(pduLeaving.resize(2)));
    }

    /** Fields of a {@code queue_state} row; positions low to high as listed in the constructor. */
    private static final class Row {
        final int ow;
        final int aw;
        final int cw;
        final int lw;
        final int width;

        Row(int ow, int aw, int cw, int lw) {
            this.ow = ow;
            this.aw = aw;
            this.cw = cw;
            this.lw = lw;
            this.width = 2 * (aw + ow) + 3 * cw + lw + 1;
        }

        Expr pack(Expr head, Expr count, Expr closed, Expr openBytes, Expr openCmds, Expr openStart, Expr xoff) {
            return Hw.cat(xoff, openStart, openCmds, openBytes, closed, count, head);
        }

        /** {cell, offset} where the head segment starts. */
        Expr head(Expr row) {
            return row.bits(aw + ow - 1, 0);
        }

        Expr headCell(Expr row) {
            return row.bits(aw + ow - 1, ow);
        }

        Expr count(Expr row) {
            return row.bits(aw + ow + cw - 1, aw + ow);
        }

        Expr closed(Expr row) {
            return row.bits(aw + ow + 2 * cw - 1, aw + ow + cw);
        }

        Expr openBytes(Expr row) {
            return row.bits(aw + ow + 2 * cw + lw - 1, aw + ow + 2 * cw);
        }

        Expr openCmds(Expr row) {
            return row.bits(aw + ow + 3 * cw + lw - 1, aw + ow + 2 * cw + lw);
        }

        Expr openStart(Expr row) {
            return row.bits(2 * (aw + ow) + 3 * cw + lw - 1, aw + ow + 3 * cw + lw);
        }

        Expr openStartCell(Expr row) {
            return row.bits(2 * (aw + ow) + 3 * cw + lw - 1, aw + 2 * ow + 3 * cw + lw);
        }

        Expr xoff(Expr row) {
            return row.bit(width - 1);
        }
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
