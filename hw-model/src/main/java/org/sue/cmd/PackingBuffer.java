package org.sue.cmd;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.Wire;
import org.sue.lib.stream.SyncFifo;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.FrameFormat;
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
 * cycles later). Work-conserving: a queue with one command sends it at once, nothing waits to be packed. Each pick
 * that makes a PDU is reported on {@code picked} (its VC), where link credit is reserved for it.
 *
 * <p>Reset: the queue tables are RAMs without a reset value, so after reset they are cleared one row per cycle while
 * {@code init_busy} is high and nothing enters.
 */
public final class PackingBuffer extends Component {
    /** PDUs picked and not yet leaving {@code m_axis}, at most. */
    static final int PDUS_AHEAD = 2;

    public record Config(@Tag("w") int cellWidth, @Tag("c") int cells, @Tag("d") int destinations,
                         @Tag("l") int pduLimit, @Tag("xoff") int xoffThreshold, @Tag("xon") int xonThreshold) {
        private static final String NAME = "PackingBuffer";
        public static final Bound CELLS = Bound.powerOfTwo(16, 65536);
        /** At least the largest command and a cell (a rule); with the RH at most the largest PDU. */
        public static final Bound PDU_LIMIT = Bound.of(PackedCommand.MAX_PACKED_BYTES + 32,
                FrameFormat.MAX_PDU_BYTES - FrameFormat.RH_BYTES);
        /** At most {@code cells} (a rule). */
        public static final Bound XOFF_THRESHOLD = Bound.of(1, 65536);
        /** Below {@code xoffThreshold} (a rule). */
        public static final Bound XON_THRESHOLD = Bound.of(0, 65535);

        public Config {
            StreamConfig.DATA_WIDTH.check(NAME, "cellWidth", cellWidth);
            if (cellWidth < 256) {
                throw new ConfigException(NAME, "{cellWidth} must be at least 256 bits (a command header fits one"
                        + " cell), got " + cellWidth);
            }
            SueMeta.DESTINATIONS.check(NAME, "destinations", destinations);
            checkQueues(NAME, cellWidth, cells, pduLimit, xoffThreshold, xonThreshold);
        }

        /**
         * The rules of the cells, the PDU limit and the thresholds, for this record and for one that holds them
         * under the same names ({@link CommandPath.Config}).
         */
        public static void checkQueues(String record, int cellWidth, int cells, int pduLimit, int xoffThreshold,
                                       int xonThreshold) {
            CELLS.check(record, "cells", cells);
            // a closed PDU is longer than a cell, so no two waiting PDUs start in one cell (their records' key)
            int least = PackedCommand.MAX_PACKED_BYTES + cellWidth / 8;
            if (pduLimit < least || !PDU_LIMIT.contains(pduLimit)) {
                throw new ConfigException(record, "{pduLimit} must be " + least + ".." + PDU_LIMIT.max() + " bytes"
                        + " (the largest command and a cell must fit; the PDU with its reliability header at most "
                        + FrameFormat.MAX_PDU_BYTES + "), got " + pduLimit);
            }
            XOFF_THRESHOLD.check(record, "xoffThreshold", xoffThreshold);
            if (xoffThreshold > cells) {
                throw new ConfigException(record, "{xoffThreshold} must be at most {cells} (" + cells
                        + ") commands, got " + xoffThreshold);
            }
            XON_THRESHOLD.check(record, "xonThreshold", xonThreshold);
            if (xonThreshold >= xoffThreshold) {
                throw new ConfigException(record, "{xonThreshold} must be below {xoffThreshold} (at most "
                        + (xoffThreshold - 1) + "), got " + xonThreshold);
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

    /** Where a queue's bytes are: offset in the cell, cell. */
    private final Layout place;
    /** A {@code queue_state} row: head, commands, closed segments, the open segment, xoff. */
    private final Layout row;
    /** A closed segment's record, under the cell it starts in: where the next starts, commands, bytes. */
    private final Layout segment;
    /** A command for APPEND: where it starts, its bytes, whether it has data. */
    private final Layout command;

    public final Stream in;
    public final Stream out;
    public final Port vcReady;
    /** A PDU was picked and will be made (its destination's window was open): its VC, for link credit reservations. */
    public final Flow picked;
    public final Port dstReady;
    public final Flow cellUsed;
    /** A command is in its queue: its credits may come back ({@link BufferCredits}). */
    public final Flow cmdStored;
    public final Flow cellFreed;
    public final Port cellReturnedCount;
    public final Port cellReturnedVc;
    /** A queue passed its xoff threshold ({@code xoff_on}) or drained to its xon threshold. */
    public final Flow xoff;
    public final Port overflowError;
    public final Port dstError;
    public final Port initBusy;
    private final Config config;

    private final int qw;
    private final int cw;
    private final int lw = SueMeta.LEN_WIDTH;
    private final QueueStore store;
    private final SyncFifo appends;
    private final List<SyncFifo> active = new ArrayList<>();
    private final Expr initializing;
    /** The scheduler's request to the queue manager: TAKE the queue, or SKIP it (no transmit window). */
    private final Wire takeRequest;
    private final Wire takeQueue;
    private final Wire takeSkip;
    /** Stage C of the queue manager: a TAKE of {@code cQueue} whose PDU is {@code run}. */
    private Expr isTake;
    private Reg cQueue;
    private Expr takeRun;
    private Expr pduLeaving;

    public PackingBuffer(Config config) {
        super(config);
        this.config = config;
        int w = config.cellWidth();
        int dw = Hw.log2Up(config.destinations());
        qw = dw + SueMeta.VC_WIDTH;
        cw = Hw.log2Up((long) config.cells() * config.cellBytes() / PackedCommand.HEADER_BYTES + 1); // commands of a queue
        place = Layout.of("place", Layout.bits("offset", Hw.log2Up(config.cellBytes())),
                Layout.bits("cell", Hw.log2Up(config.cells())));
        row = Layout.of("queue_row", Layout.nested("head", place), Layout.bits("count", cw),
                Layout.bits("closed", cw), Layout.bits("open_bytes", lw), Layout.bits("open_cmds", cw),
                Layout.nested("open_start", place), Layout.bits("xoff", 1));
        segment = Layout.of("segment", Layout.nested("next", place), Layout.bits("cmds", cw), Layout.bits("bytes", lw));
        command = Layout.of("command", Layout.nested("start", place), Layout.bits("bytes", CommandUser.BYTES_WIDTH),
                Layout.bits("data", 1));

        in = Stream.slave(this, new StreamConfig(w, CommandUser.WIDTH));
        out = Stream.master(this, new StreamConfig(w, SueMeta.WIDTH));
        vcReady = in("vc_ready", SueMeta.VCS);
        picked = Flow.master(this, "picked", Layout.of("picked", Layout.bits("vc", SueMeta.VC_WIDTH)));
        dstReady = in("dst_ready", config.destinations());
        cellUsed = Flow.master(this, "cell_used", BufferCredits.CELL_EVENT);
        cmdStored = Flow.master(this, "cmd_stored", BufferCredits.COMMAND_EVENT);
        cellFreed = Flow.master(this, "cell_freed", BufferCredits.CELL_EVENT);
        cellReturnedCount = out("cell_returned_count", 2);
        cellReturnedVc = out("cell_returned_vc", 2);
        payloadOf(cellReturnedCount, cellReturnedVc); // the VC of the cells returned, if any
        xoff = Flow.master(this, "xoff", Layout.of("xoff", Layout.bits("on", 1),
                Layout.bits("xpuid", SueMeta.XPU_WIDTH), Layout.bits("vc", SueMeta.VC_WIDTH)));
        overflowError = out("overflow_error", 1);
        dstError = out("dst_error", 1);
        initBusy = out("init_busy", 1);

        store = child("store", new QueueStore(new QueueStore.Config(w, config.cells(), config.destinations())));
        // stored commands waiting for the queue manager
        appends = child("appends", new SyncFifo(new SyncFifo.Config(store.stored.layout().width(), config.cells())));
        // the queue tables are cleared one row per cycle after reset
        Reg initRow = reg("init_row", qw + 1, 0);
        initializing = wire("initializing", initRow.bit(qw).not());
        when(initializing, () -> initRow.set(initRow.add(1)));
        initBusy.set(initializing.or(store.initBusy));
        takeRequest = wire("take_request", 1);
        takeQueue = wire("take_queue", qw);
        takeSkip = wire("take_skip", 1);

        storage(dw);
        activeLists();
        queueManager(initRow);
        pduReader();
        scheduler();
    }

    /** Commands into the store, the store's events out (cells for the credits, stored commands for the manager). */
    private void storage(int dw) {
        // room for the command being written and the one in the store's last stage
        Expr room = wire("append_room", appends.level.le(config.cells() - 3));
        in.continueWhen(room).into(store.in);
        Expr inDst = CommandUser.DST.of(in.tuser());
        if (dw < SueMeta.XPU_WIDTH) { // with 1024 destinations every xpuid is one
            Reg badDst = reg("dst_error_flag", 1, 0);
            when(in.fire().and(inDst.bits(SueMeta.XPU_WIDTH - 1, dw).orR()), () -> badDst.set(1)); // the ingress
            dstError.set(badDst);                                                               // refuses those
        } else {
            dstError.set(0);
        }
        appends.push.valid().set(store.stored.valid());
        appends.push.data().set(store.stored.payload());
        unused("appends_status", appends.push.ready(), appends.creditReturn);
        store.cellAlloc.into(cellUsed);
        store.cellFreed.into(cellFreed);
        cellReturnedCount.set(store.cellReturnedCount);
        cellReturnedVc.set(store.cellReturnedVc);
        unused("cells_in_use", store.cellsInUse);
        overflowError.set(store.overflowError.or(appends.overflow));
    }

    /** Per VC, the queues that hold commands, in turn: a FIFO of destinations each. */
    private void activeLists() {
        int listDepth = Math.min(config.destinations(), config.cells());
        List<Expr> neverFull = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            SyncFifo list = child("active_" + v, new SyncFifo(new SyncFifo.Config(qw - SueMeta.VC_WIDTH,
                    Math.max(2, listDepth), false)));
            active.add(list);
            neverFull.add(list.push.ready());
        }
        unused("never_full", neverFull.toArray(new Expr[0])); // a queue is on its list at most once
    }

    /**
     * One operation a cycle on {@code queue_state}: stage A reads the row (TAKE/SKIP from the scheduler before an
     * APPEND), B the head segment's record, C computes and writes the new row, with the two previous writes
     * forwarded.
     */
    private void queueManager(Reg initRow) {
        int queues = config.destinations() * SueMeta.VCS;
        Mem queueState = mem("queue_state", queues, row.width(), ReadUnderWrite.READ_FIRST);
        Mem segments = mem("segments", config.cells(), segment.width(), ReadUnderWrite.READ_FIRST);
        Layout stored = store.stored.layout();

        // stage A
        Expr grantAppend = wire("grant_append", appends.pop.valid().and(takeRequest.not()).and(initializing.not()));
        appends.pop.ready().set(grantAppend);
        Expr entry = appends.pop.data();
        Expr opQueue = wire("op_queue", Hw.mux(takeRequest, takeQueue, stored.get(entry, "queue")));
        Expr rowRead = queueState.readSync("row_read", opQueue, Hw.lit(1, 1));
        Reg bValid = reg("b_valid", 1, 0);
        Reg bTake = reg("b_take", 1, 0);
        Reg bSkip = reg("b_skip", 1, 0);
        Reg bQueue = reg("b_queue", qw, 0);
        Reg bEntry = reg("b_entry", command.width(), 0); // APPEND: the command
        bValid.set(takeRequest.or(grantAppend));
        bTake.set(takeRequest);
        bSkip.set(takeSkip);
        bQueue.set(opQueue);
        bEntry.set(command.expr().set("start", place.expr().set("offset", stored.get(entry, "offset"))
                .set("cell", stored.get(entry, "cell")).build()).set("bytes", stored.get(entry, "bytes"))
                .set("data", stored.get(entry, "data")).build());

        // stage B: the row with the writes the read missed (stage C now, stage C a cycle ago); the head's record
        Reg cValid = reg("c_valid", 1, 0);
        Reg cTake = reg("c_take", 1, 0);
        Reg cSkip = reg("c_skip", 1, 0);
        cQueue = reg("c_queue", qw, 0);
        Reg cEntry = reg("c_entry", command.width(), 0);
        Reg cRow = reg("c_row", row.width(), 0);
        Reg cRoom = reg("c_room", lw, 0); // APPEND: pduLimit - the command's bytes (the limit fits every command)
        Reg fwdValid = reg("fwd_valid", 1, 0);   // stage C's write of the cycle before
        Reg fwdQueue = reg("fwd_queue", qw, 0);
        Reg fwdRow = reg("fwd_row", row.width(), 0);
        Wire newRow = wire("new_row", row.width());
        Wire segWrite = wire("seg_write", 1);
        Wire segWriteCell = wire("seg_write_cell", place.field("cell").width());
        Wire segWriteData = wire("seg_write_data", segment.width());
        Expr rowB = wire("row_b", Hw.mux(cValid.and(cQueue.eq(bQueue)), newRow,
                Hw.mux(fwdValid.and(fwdQueue.eq(bQueue)), fwdRow, rowRead)));
        Expr headCellB = row.get(rowB, "head.cell");
        Expr segRead = segments.readSync("seg_read", headCellB, Hw.lit(1, 1));
        Reg segHit = reg("seg_fwd_hit", 1, 0); // the record was being written as it was read
        Reg segFwd = reg("seg_fwd", segment.width(), 0);
        segHit.set(segWrite.and(segWriteCell.eq(headCellB)));
        segFwd.set(segWriteData);
        cValid.set(bValid);
        cTake.set(bTake);
        cSkip.set(bSkip);
        cQueue.set(bQueue);
        cEntry.set(bEntry);
        cRoom.set(Hw.lit(lw, config.pduLimit()).sub(command.get(bEntry, "bytes").resize(lw)));
        cRow.set(rowB);

        // stage C
        Expr seg = wire("seg", Hw.mux(segHit, segFwd, segRead));
        Expr count = row.get(cRow, "count");
        Expr closed = row.get(cRow, "closed");
        Expr open = row.get(cRow, "open_bytes");
        Expr openCmds = row.get(cRow, "open_cmds");
        Expr xoffState = row.get(cRow, "xoff");
        Expr head = row.get(cRow, "head");
        Expr openStart = row.get(cRow, "open_start");
        Expr isAppend = wire("is_append", cValid.and(cTake.not()));
        isTake = wire("is_take", cValid.and(cTake).and(cSkip.not()));
        Expr isSkip = wire("is_skip", cValid.and(cTake).and(cSkip));
        // APPEND: the command at `start` of `bytes` bytes
        Expr cmdBytes = command.get(cEntry, "bytes").resize(lw);
        Expr cmdStart = command.get(cEntry, "start");
        Expr empty = wire("was_empty", count.eq(0));
        // open + bytes > pduLimit, against the room formed a stage early: the row's loop has no adder before it
        Expr closes = wire("closes", empty.not().and(open.gt(cRoom)));
        Expr fresh = empty.or(closes); // the command opens a segment
        Expr appendCount = count.add(1);
        Expr appendRow = row.expr().set("head", Hw.mux(empty, cmdStart, head)).set("count", appendCount)
                .set("closed", Hw.mux(empty, Hw.zeros(cw), Hw.upDown(closed, List.of(closes), List.of())))
                .set("open_bytes", Hw.mux(fresh, cmdBytes, open.add(cmdBytes)))
                .set("open_cmds", Hw.mux(fresh, Hw.lit(cw, 1), openCmds.add(1)))
                .set("open_start", Hw.mux(fresh, cmdStart, openStart)).build();
        segWrite.set(isAppend.and(closes));
        segWriteCell.set(place.get(openStart, "cell"));
        segWriteData.set(segment.expr().set("bytes", open).set("cmds", openCmds).set("next", cmdStart).build());
        segments.write(segWrite, segWriteCell, segWriteData);
        // TAKE: the first closed segment, or else the open one
        Expr fromClosed = wire("from_closed", closed.ne(0));
        Expr takeBytes = wire("take_bytes", Hw.mux(fromClosed, segment.get(seg, "bytes"), open));
        Expr takeCmds = Hw.mux(fromClosed, segment.get(seg, "cmds"), openCmds);
        // both subtractions beside the choice of segment, not after it
        Expr takeCount = wire("take_count", Hw.mux(fromClosed, count.sub(segment.get(seg, "cmds")),
                count.sub(openCmds)));
        Expr takeRow = row.expr().set("head", Hw.mux(fromClosed, segment.get(seg, "next"), head))
                .set("count", takeCount).set("closed", Hw.mux(fromClosed, closed.sub(1), Hw.zeros(cw)))
                .set("open_bytes", Hw.mux(fromClosed, open, Hw.zeros(lw)))
                .set("open_cmds", Hw.mux(fromClosed, openCmds, Hw.zeros(cw))).set("open_start", openStart).build();
        // compares against the row as read, not after the arithmetic: appendCount >= xoff is count >= xoff - 1
        Expr xoffNow = wire("xoff_now", isAppend.and(xoffState.not()).and(count.ge(config.xoffThreshold() - 1)));
        Expr xonNow = wire("xon_now", isTake.and(xoffState).and(takeCount.le(config.xonThreshold())));
        Expr newXoff = xoffState.or(xoffNow).and(xonNow.not());
        Expr changed = Hw.mux(isAppend, appendRow, Hw.mux(isTake, takeRow, cRow));
        newRow.set(row.with(changed, "xoff", newXoff));
        queueState.write(cValid.or(initializing), Hw.mux(initializing, initRow.bits(qw - 1, 0), cQueue),
                Hw.mux(initializing, Hw.zeros(row.width()), newRow));
        fwdValid.set(cValid);
        fwdQueue.set(cQueue);
        fwdRow.set(newRow);
        // the command's credits may come back now that it is in its queue
        cmdStored.valid().set(isAppend);
        cmdStored.field("vc").set(cQueue.bits(1, 0));
        cmdStored.field("data").set(command.get(cEntry, "data"));
        // a queue joins its list with its first command, and goes back after a turn if it still holds commands
        Expr listPush = wire("list_push", isAppend.and(empty).or(isTake.and(count.ne(takeCmds))).or(isSkip));
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
        xoff.valid().set(xoffValidReg);
        xoff.field("on").set(xoffOnReg);
        xoff.field("xpuid").set(xoffQueue.bits(qw - 1, 2).resize(SueMeta.XPU_WIDTH));
        xoff.field("vc").set(xoffQueue.bits(1, 0));
        takeRun = store.rd.layout().expr().set("queue", cQueue).set("cell", row.get(cRow, "head.cell"))
                .set("offset", row.get(cRow, "head.offset")).set("bytes", takeBytes).build();
    }

    /** A taken PDU: its run is read from the store; its length waits for its last beat on {@code m_axis}. */
    private void pduReader() {
        Layout run = store.rd.layout();
        SyncFifo runs = child("runs", new SyncFifo(new SyncFifo.Config(run.width(), 4)));
        SyncFifo lens = child("lens", new SyncFifo(new SyncFifo.Config(lw, 4, false)));
        unused("never_full_runs", runs.push.ready(), lens.push.ready(), runs.creditReturn, runs.overflow); // PDUS_AHEAD
        // a run goes straight to the store when none waits before it (two cycles sooner than through the FIFO)
        Expr direct = wire("run_direct", isTake.and(runs.level.eq(0)));
        Expr rd = Hw.mux(runs.pop.valid(), runs.pop.data(), takeRun);
        runs.push.valid().set(isTake.and(direct.and(store.rd.ready()).not()));
        runs.push.data().set(takeRun);
        lens.push.valid().set(isTake);
        lens.push.data().set(run.get(takeRun, "bytes"));
        store.rd.valid().set(runs.pop.valid().or(direct));
        runs.pop.ready().set(store.rd.ready());
        for (Layout.Field f : run.fields()) {
            store.rd.field(f.name()).set(f.of(rd));
        }
        out.tdata().set(store.out.tdata());
        out.tkeep().set(store.out.tkeep());
        out.tvalid().set(store.out.tvalid());
        out.tlast().set(store.out.tlast());
        out.tuser().set(meta(store.out.tuser(), lens.pop.data())); // the store's tuser is the run's queue
        store.out.tready().set(out.tready());
        unused("len_valid", lens.pop.valid()); // a PDU's length waits before its first beat
        Expr beatOut = wire("beat_out", out.fire());
        lens.pop.ready().set(beatOut.and(out.tlast()));
        Reg firstOut = reg("first_beat_out", 1, 1); // the next beat on m_axis starts a PDU
        when(beatOut, () -> firstOut.set(out.tlast()));
        pduLeaving = wire("pdu_leaving", beatOut.and(firstOut));
    }

    /** Round robin over the VCs with credit and an active queue, starting after the last served. */
    private void scheduler() {
        Reg rrVc = reg("rr_vc", SueMeta.VC_WIDTH, SueMeta.VCS - 1);
        Reg inFlight = reg("pdus_in_flight", 2, 0); // picked and not yet leaving m_axis: at most PDUS_AHEAD
        List<Expr> eligible = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            eligible.add(active.get(v).pop.valid().and(vcReady.bit(v)));
        }
        Expr pickVc = Arbiter.rotatingPick(eligible, rrVc);
        Expr anyEligible = wire("any_eligible", Hw.cat(eligible).orR());
        // a PDU starting to leave makes room at once: the next pick reaches m_axis as the two ahead of it are sent
        Expr pickRoom = wire("pick_room", inFlight.lt(PDUS_AHEAD).or(pduLeaving));
        Expr pick = wire("pick", anyEligible.and(pickRoom).and(initializing.not()));
        Expr pickedDst = wire("picked_dst", Hw.select(active.stream().map(f -> (Expr) f.pop.data()).toList(), pickVc));
        for (int v = 0; v < SueMeta.VCS; v++) {
            active.get(v).pop.ready().set(pick.and(pickVc.eq(v)));
        }
        // each list head's window looked up beside the pick (the heads are registers), not after it
        List<Expr> headWindowOpen = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            headWindowOpen.add(wire("head_window_open_" + v, dstReady.shr(active.get(v).pop.data()).bit(0)));
        }
        Expr windowOpen = wire("window_open", Hw.select(headWindowOpen, pickVc));
        when(pick, () -> rrVc.set(pickVc));
        takeRequest.set(pick);
        takeQueue.set(Hw.cat(pickedDst, pickVc));
        takeSkip.set(windowOpen.not());
        picked.valid().set(pick.and(windowOpen));
        picked.field("vc").set(pickVc);
        inFlight.set(Hw.upDown(inFlight, List.of(pick.and(windowOpen)), List.of(pduLeaving)));
    }

    /** SueMeta for an assembled PDU: destination, VC and length; the rest is filled in further down the path. */
    private static Expr meta(Expr queue, Expr len) {
        return SueMeta.LAYOUT.expr().set(SueMeta.DST_XPU, queue.bits(queue.width() - 1, 2).resize(SueMeta.XPU_WIDTH))
                .set(SueMeta.VC, queue.bits(1, 0)).set(SueMeta.LEN, len).build();
    }

    public Config config() {
        return config;
    }
}
