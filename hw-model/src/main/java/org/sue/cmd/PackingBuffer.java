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
import org.sue.core.Status;
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
 * cycles later). Work-conserving: a queue with one command sends it at once, nothing waits to be packed, except that
 * a pick waits for stored commands waiting for the queue manager (an APPEND a cycle when commands arrive every
 * cycle; the pick then takes them along) unless the link would idle, and at most {@value #PICK_SPACING} cycles.
 * Each pick
 * that makes a PDU is reported on {@code picked} (its VC and destination), where link credit is reserved for it.
 *
 * <p>Reset: the queue tables are RAMs without a reset value, so after reset they are cleared one row per cycle while
 * {@code init_busy} is high and nothing enters.
 */
public final class PackingBuffer extends Component {
    /** PDUs picked and not yet leaving {@code m_axis}, at most. */
    static final int PDUS_AHEAD = 2;
    /** Cycles at least between two picks that go before waiting appends while PDUs are picked ahead. */
    static final int PICK_SPACING = 16;

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
    /** A command in the store ({@link QueueStore.Config#stored}), waiting for APPEND. */
    private final Layout stored;
    /** A run for the store to read ({@link QueueStore.Config#run}): a taken PDU. */
    private final Layout run;

    public final Stream in;
    public final Stream out;
    public final Port vcReady;
    /**
     * A PDU was picked and will be made (its destination's window was open): its VC and destination, for link credit
     * reservations on the destination's port.
     */
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
    /** High while the queue tables are cleared after reset: nothing enters. */
    public final Port initBusy;
    private final Config config;

    /** Bits of a queue number: {destination, VC}. */
    private final int qw;
    /** Bits of a queue's command count. */
    private final int cw;
    private final int lw = SueMeta.LEN_WIDTH;

    /** The queue tables' clearing after reset: the row cleared now, and whether it is still going on. */
    private record Clearing(Reg row, Expr busy) {
    }

    /** Beats leaving {@code m_axis}, and those that start a PDU. */
    private record Leaving(Expr beat, Expr pdu) {
    }

    /** The scheduler's request to the queue manager: TAKE {@code queue}, or SKIP it (no transmit window). */
    private record Take(Expr request, Expr queue, Expr skip) {
    }

    /** A queue manager stage's operation: valid, TAKE or SKIP (else APPEND), the queue, APPEND's command. */
    private record Operation(Reg valid, Reg take, Reg skip, Reg queue, Reg entry) {
    }

    /** Stage B's input: the operation and its row as read (without the writes the read missed). */
    private record RowRead(Operation op, Expr row) {
    }

    /**
     * Stage C's input: the operation, its row with every earlier write, APPEND's room ({@code pduLimit} - the
     * command's bytes) and the head segment's record.
     */
    private record RowAndSegment(Operation op, Reg row, Reg room, Expr segment) {
    }

    /** Stage C's writes, forwarded to stage B: the new row, and the closed segment's record written. */
    private record Writes(Wire row, Wire segment, Wire segmentCell, Wire segmentData) {
    }

    /** A TAKE's segment: the row after it, its bytes, commands, and the commands left in the queue. */
    private record Taking(Expr row, Expr bytes, Expr cmds, Expr count) {
    }

    /** An APPEND: the row after it, and whether the queue was empty. */
    private record Appending(Expr row, Expr wasEmpty) {
    }

    /** A TAKE leaving the queue manager: the PDU's run for the store. */
    private record Taken(Expr valid, Expr run) {
    }

    public PackingBuffer(Config config) {
        super(config);
        this.config = config;
        int w = config.cellWidth();
        qw = Hw.log2Up(config.destinations()) + SueMeta.VC_WIDTH;
        cw = Hw.log2Up((long) config.cells() * config.cellBytes() / PackedCommand.HEADER_BYTES + 1);
        place = Layout.of("place", Layout.bits("offset", Hw.log2Up(config.cellBytes())),
                Layout.bits("cell", Hw.log2Up(config.cells())));
        row = Layout.of("queue_row", Layout.nested("head", place), Layout.bits("count", cw),
                Layout.bits("closed", cw), Layout.bits("open_bytes", lw), Layout.bits("open_cmds", cw),
                Layout.nested("open_start", place), Layout.bits("xoff", 1));
        segment = Layout.of("segment", Layout.nested("next", place), Layout.bits("cmds", cw), Layout.bits("bytes", lw));
        command = Layout.of("command", Layout.nested("start", place), Layout.bits("bytes", CommandUser.BYTES_WIDTH),
                Layout.bits("data", 1));
        QueueStore.Config storeConfig = new QueueStore.Config(w, config.cells(), config.destinations());
        stored = storeConfig.stored();
        run = storeConfig.run();

        in = Stream.slave(this, new StreamConfig(w, CommandUser.WIDTH));
        out = Stream.master(this, new StreamConfig(w, SueMeta.WIDTH));
        vcReady = in("vc_ready", SueMeta.VCS);
        picked = Flow.master(this, "picked", Layout.of("picked", Layout.bits("vc", SueMeta.VC_WIDTH),
                Layout.bits("dst", Hw.log2Up(config.destinations()))));
        // one bit per queue {destination, VC}, VC v's destinations in bits (v + 1) x d - 1 .. v x d: with several
        // ports a VC of a destination may wait on its own port's window or credit while the others go on
        dstReady = in("dst_ready", config.destinations() * SueMeta.VCS);
        cellUsed = Flow.master(this, "cell_used", BufferCredits.CELL_EVENT);
        cmdStored = Flow.master(this, "cmd_stored", BufferCredits.COMMAND_EVENT);
        cellFreed = Flow.master(this, "cell_freed", BufferCredits.CELL_EVENT);
        cellReturnedCount = out("cell_returned_count", BufferCredits.RETURNED_WIDTH);
        cellReturnedVc = out("cell_returned_vc", SueMeta.VC_WIDTH);
        payloadOf(cellReturnedCount, cellReturnedVc); // the VC of the cells returned, if any
        xoff = Flow.master(this, "xoff", Layout.of("xoff", Layout.bits("on", 1),
                Layout.bits("xpuid", SueMeta.XPU_WIDTH), Layout.bits("vc", SueMeta.VC_WIDTH)));

        QueueStore store = child("store", new QueueStore(storeConfig));
        // stored commands waiting for the queue manager
        SyncFifo appends = child("appends", new SyncFifo(new SyncFifo.Config(stored.width(), config.cells())));
        overflowError = status("overflow_error", Status.Kind.FLAG, store.overflowError.or(appends.overflow),
                "Sticky: a stored command found the queue manager's FIFO full, or the store no spare cell (the"
                        + " credits rule both out).");
        dstError = status("dst_error", Status.Kind.FLAG, destinationCheck(),
                "Sticky: a command arrived for a destination beyond the configured ones (the ingress refuses"
                        + " those).");
        initBusy = out("init_busy", 1);
        Clearing clearing = clearing();
        initBusy.set(clearing.busy().or(store.initBusy));

        storage(store, appends);
        List<SyncFifo> lists = activeLists();
        Leaving leaving = leaving();
        Take take = scheduler(lists, clearing, leaving.pdu(), appends.pop.valid());
        Taken taken = queueManager(appends, take, clearing, lists);
        pduReader(store, taken, leaving);
    }

    /** A command for a destination beyond the configured ones, sticky (with 1024 destinations every xpuid is one). */
    private Expr destinationCheck() {
        int dw = qw - SueMeta.VC_WIDTH;
        if (dw >= SueMeta.XPU_WIDTH) {
            return Hw.lit(1, 0);
        }
        Expr inDst = CommandUser.DST.of(in.tuser());
        Reg badDst = reg("dst_error_flag", 1, 0);
        when(in.fire().and(inDst.bits(SueMeta.XPU_WIDTH - 1, dw).orR()), () -> badDst.set(1));
        return badDst;
    }

    /** The queue tables are cleared one row per cycle after reset. */
    private Clearing clearing() {
        Reg initRow = reg("init_row", qw + 1, 0);
        Expr initializing = wire("initializing", initRow.bit(qw).not());
        when(initializing, () -> initRow.set(initRow.add(1)));
        return new Clearing(initRow, initializing);
    }

    /** Commands into the store, the store's events out (cells for the credits, stored commands for the manager). */
    private void storage(QueueStore store, SyncFifo appends) {
        // room for the command being written and the one in the store's last stage
        Expr room = wire("append_room", appends.level.le(config.cells() - 3));
        in.continueWhen(room).into(store.in);
        appends.push.valid().set(store.stored.valid());
        appends.push.data().set(store.stored.payload());
        unused("appends_status", appends.push.ready(), appends.creditReturn);
        store.cellAlloc.into(cellUsed);
        store.cellFreed.into(cellFreed);
        cellReturnedCount.set(store.cellReturnedCount);
        cellReturnedVc.set(store.cellReturnedVc);
        unused("cells_in_use", store.cellsInUse);
    }

    /** Per VC, the queues that hold commands, in turn: a FIFO of destinations each. */
    private List<SyncFifo> activeLists() {
        int listDepth = Math.min(config.destinations(), config.cells());
        List<SyncFifo> lists = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            lists.add(child("active_" + v, new SyncFifo(new SyncFifo.Config(qw - SueMeta.VC_WIDTH,
                    Math.max(2, listDepth), false))));
        }
        return lists;
    }

    /** Beats leaving {@code m_axis}; a PDU leaves with its first. */
    private Leaving leaving() {
        Expr beatOut = wire("beat_out", out.fire());
        Reg firstOut = reg("first_beat_out", 1, 1); // the next beat on m_axis starts a PDU
        when(beatOut, () -> firstOut.set(out.tlast()));
        return new Leaving(beatOut, wire("pdu_leaving", beatOut.and(firstOut)));
    }

    /**
     * Round robin over the VCs with credit and an active queue, starting after the last served: the head queue of
     * the picked VC's list is TAKEn, or SKIPped when its destination has no transmit window. A pick goes before
     * stored commands waiting to be appended only when nothing is picked behind the PDU leaving (the link would
     * idle) or once in {@value #PICK_SPACING} cycles; else it waits for them: each operation of the queue manager
     * is a cycle, so a pick per tiny PDU would leave no cycle for the appends of commands arriving every cycle, and
     * their credits would stop.
     */
    private Take scheduler(List<SyncFifo> lists, Clearing clearing, Expr pduLeaving, Expr appendWaiting) {
        Reg rrVc = reg("rr_vc", SueMeta.VC_WIDTH, SueMeta.VCS - 1);
        Reg inFlight = reg("pdus_in_flight", Hw.log2Up(PDUS_AHEAD + 1), 0); // picked and not yet leaving m_axis
        List<Expr> eligible = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            eligible.add(lists.get(v).pop.valid().and(vcReady.bit(v)));
        }
        Expr pickVc = Arbiter.rotatingPick(eligible, rrVc);
        Expr anyEligible = wire("any_eligible", Hw.cat(eligible).orR());
        // a PDU starting to leave makes room at once: the next pick reaches m_axis as the two ahead of it are sent
        Expr pickRoom = wire("pick_room", inFlight.lt(PDUS_AHEAD).or(pduLeaving));
        Expr canPick = wire("can_pick", anyEligible.and(pickRoom).and(clearing.busy().not()));
        Reg since = reg("since_pick_before_appends", Hw.log2Up(PICK_SPACING + 1), PICK_SPACING);
        Expr linkStarving = wire("link_starving", inFlight.eq(0)); // nothing picked behind the PDU leaving
        Expr pick = wire("pick", canPick.and(appendWaiting.not().or(since.eq(PICK_SPACING)).or(linkStarving)));
        when(pick.and(appendWaiting), () -> since.set(0))
                .elseWhen(since.ne(PICK_SPACING), () -> since.set(since.add(1)));
        Stream head = Stream.mux("list_head", lists.stream().map(f -> f.pop).toList(), pickVc);
        head.ready().set(pick);
        unused("list_head_valid", head.valid()); // a VC is picked only when its list has a head
        // each list head's window looked up beside the pick (the heads are registers), not after it
        List<Expr> headWindowOpen = new ArrayList<>();
        for (int v = 0; v < SueMeta.VCS; v++) {
            int d = config.destinations();
            Expr vcRow = dstReady.bits((v + 1) * d - 1, v * d);
            headWindowOpen.add(wire("head_window_open_" + v, vcRow.shr(lists.get(v).pop.data()).bit(0)));
        }
        Expr windowOpen = wire("window_open", Hw.select(headWindowOpen, pickVc));
        when(pick, () -> rrVc.set(pickVc));
        picked.drive(pick.and(windowOpen), picked.layout().expr().set("vc", pickVc).set("dst", head.data()).build());
        inFlight.set(Hw.upDown(inFlight, List.of(pick.and(windowOpen)), List.of(pduLeaving)));
        return new Take(pick, wire("take_queue", Hw.cat(head.data(), pickVc)), wire("take_skip", windowOpen.not()));
    }

    /**
     * One operation a cycle on {@code queue_state}: stage A reads the row (TAKE/SKIP from the scheduler before an
     * APPEND), B the head segment's record, C computes and writes the new row, with the two previous writes
     * forwarded.
     */
    private Taken queueManager(SyncFifo appends, Take take, Clearing clearing, List<SyncFifo> lists) {
        Mem queueState = mem("queue_state", config.destinations() * SueMeta.VCS, row.width(),
                ReadUnderWrite.READ_FIRST);
        Mem segments = mem("segments", config.cells(), segment.width(), ReadUnderWrite.READ_FIRST);
        Writes writes = new Writes(wire("new_row", row.width()), wire("seg_write", 1),
                wire("seg_write_cell", place.field("cell").width()), wire("seg_write_data", segment.width()));
        RowRead a = readRow(appends, take, clearing, queueState);
        RowAndSegment b = readSegment(a, writes, segments);
        return writeRow(b, writes, clearing, queueState, segments, lists);
    }

    /** Stage A: the scheduler's TAKE or SKIP, else a stored command's APPEND, reads its queue's row. */
    private RowRead readRow(SyncFifo appends, Take take, Clearing clearing, Mem queueState) {
        Expr grantAppend = wire("grant_append", appends.pop.valid().and(take.request().not())
                .and(clearing.busy().not()));
        appends.pop.ready().set(grantAppend);
        Expr entry = appends.pop.data();
        Expr opQueue = wire("op_queue", Hw.mux(take.request(), take.queue(), stored.get(entry, "queue")));
        Expr rowRead = queueState.readSync("row_read", opQueue, Hw.lit(1, 1));
        Operation b = operation("b");
        b.valid().set(take.request().or(grantAppend));
        b.take().set(take.request());
        b.skip().set(take.skip());
        b.queue().set(opQueue);
        b.entry().set(command.expr().set("start", place.expr().set("offset", stored.get(entry, "offset"))
                .set("cell", stored.get(entry, "cell")).build()).set("bytes", stored.get(entry, "bytes"))
                .set("data", stored.get(entry, "data")).build());
        return new RowRead(b, rowRead);
    }

    /** The registers of a queue manager stage's operation: {@code <stage>_valid}, ... */
    private Operation operation(String stage) {
        return new Operation(reg(stage + "_valid", 1, 0), reg(stage + "_take", 1, 0), reg(stage + "_skip", 1, 0),
                reg(stage + "_queue", qw, 0), reg(stage + "_entry", command.width(), 0));
    }

    /**
     * Stage B: the row with the writes the read missed (stage C's now, and stage C's a cycle ago); the head
     * segment's record is read, with the write it would miss forwarded.
     */
    private RowAndSegment readSegment(RowRead a, Writes writes, Mem segments) {
        Operation b = a.op();
        Operation c = operation("c");
        Reg cRow = reg("c_row", row.width(), 0);
        Reg cRoom = reg("c_room", lw, 0); // APPEND: pduLimit - the command's bytes (the limit fits every command)
        Reg fwdValid = reg("fwd_valid", 1, 0);   // stage C's write of the cycle before
        Reg fwdQueue = reg("fwd_queue", qw, 0);
        Reg fwdRow = reg("fwd_row", row.width(), 0);
        Expr rowB = wire("row_b", Hw.mux(c.valid().and(c.queue().eq(b.queue())), writes.row(),
                Hw.mux(fwdValid.and(fwdQueue.eq(b.queue())), fwdRow, a.row())));
        Expr headCellB = row.get(rowB, "head.cell");
        Expr segRead = segments.readSync("seg_read", headCellB, Hw.lit(1, 1));
        Reg segHit = reg("seg_fwd_hit", 1, 0); // the record was being written as it was read
        Reg segFwd = reg("seg_fwd", segment.width(), 0);
        segHit.set(writes.segment().and(writes.segmentCell().eq(headCellB)));
        segFwd.set(writes.segmentData());
        c.valid().set(b.valid());
        c.take().set(b.take());
        c.skip().set(b.skip());
        c.queue().set(b.queue());
        c.entry().set(b.entry());
        cRoom.set(Hw.lit(lw, config.pduLimit()).sub(command.get(b.entry(), "bytes").resize(lw)));
        cRow.set(rowB);
        fwdValid.set(c.valid());
        fwdQueue.set(c.queue());
        fwdRow.set(writes.row());
        return new RowAndSegment(c, cRow, cRoom, wire("seg", Hw.mux(segHit, segFwd, segRead)));
    }

    /**
     * Stage C: APPEND, TAKE or SKIP changes the row, which is written back (or cleared after reset); the queue goes
     * (back) on its VC's list, the command's credits may come back, xoff changes are reported.
     */
    private Taken writeRow(RowAndSegment c, Writes writes, Clearing clearing, Mem queueState, Mem segments,
                           List<SyncFifo> lists) {
        Operation op = c.op();
        Expr count = row.get(c.row(), "count");
        Expr xoffState = row.get(c.row(), "xoff");
        Expr isAppend = wire("is_append", op.valid().and(op.take().not()));
        Expr isTake = wire("is_take", op.valid().and(op.take()).and(op.skip().not()));
        Expr isSkip = wire("is_skip", op.valid().and(op.take()).and(op.skip()));
        Appending appending = append(c, isAppend, writes, segments);
        Taking taking = take(c);
        // compares against the row as read, not after the arithmetic: appendCount >= xoff is count >= xoff - 1
        Expr xoffNow = wire("xoff_now", isAppend.and(xoffState.not()).and(count.ge(config.xoffThreshold() - 1)));
        Expr xonNow = wire("xon_now", isTake.and(xoffState).and(taking.count().le(config.xonThreshold())));
        Expr newXoff = xoffState.or(xoffNow).and(xonNow.not());
        Expr changed = Hw.mux(isAppend, appending.row(), Hw.mux(isTake, taking.row(), c.row()));
        writes.row().set(row.with(changed, "xoff", newXoff));
        queueState.write(op.valid().or(clearing.busy()), Hw.mux(clearing.busy(), clearing.row().bits(qw - 1, 0),
                op.queue()), Hw.mux(clearing.busy(), Hw.zeros(row.width()), writes.row()));
        // the command's credits may come back now that it is in its queue
        cmdStored.drive(isAppend, cmdStored.layout().expr().set("vc", vcOf(op.queue()))
                .set("data", command.get(op.entry(), "data")).build());
        // a queue joins its list with its first command, and goes back after a turn if it still holds commands
        Expr listPush = wire("list_push", isAppend.and(appending.wasEmpty()).or(isTake.and(count.ne(taking.cmds())))
                .or(isSkip));
        Stream pushed = Stream.of(this, "list_push", listPush, lists.get(0).push.layout(), dstOf(op.queue()));
        List<Stream> pushes = pushed.demux("list_push", vcOf(op.queue()), SueMeta.VCS);
        for (int v = 0; v < SueMeta.VCS; v++) {
            pushes.get(v).into(lists.get(v).push);
        }
        unused("never_full", pushed.ready()); // a queue is on its list at most once
        reportXoff(xoffNow, xonNow, op.queue());
        return new Taken(isTake, run.expr().set("queue", op.queue()).set("cell", row.get(c.row(), "head.cell"))
                .set("offset", row.get(c.row(), "head.offset")).set("bytes", taking.bytes()).build());
    }

    /**
     * APPEND: the command at {@code start} of {@code bytes} bytes extends the open segment, or closes it (its record
     * written under the cell it starts in) and opens the next.
     */
    private Appending append(RowAndSegment c, Expr isAppend, Writes writes, Mem segments) {
        Expr count = row.get(c.row(), "count");
        Expr closed = row.get(c.row(), "closed");
        Expr open = row.get(c.row(), "open_bytes");
        Expr openCmds = row.get(c.row(), "open_cmds");
        Expr openStart = row.get(c.row(), "open_start");
        Expr cmdBytes = command.get(c.op().entry(), "bytes").resize(lw);
        Expr cmdStart = command.get(c.op().entry(), "start");
        Expr empty = wire("was_empty", count.eq(0));
        // open + bytes > pduLimit, against the room formed a stage early: the row's loop has no adder before it
        Expr closes = wire("closes", empty.not().and(open.gt(c.room())));
        Expr fresh = empty.or(closes); // the command opens a segment
        Expr appendRow = row.expr().set("head", Hw.mux(empty, cmdStart, row.get(c.row(), "head")))
                .set("count", count.add(1))
                .set("closed", Hw.mux(empty, Hw.zeros(cw), Hw.upDown(closed, List.of(closes), List.of())))
                .set("open_bytes", Hw.mux(fresh, cmdBytes, open.add(cmdBytes)))
                .set("open_cmds", Hw.mux(fresh, Hw.lit(cw, 1), openCmds.add(1)))
                .set("open_start", Hw.mux(fresh, cmdStart, openStart)).build();
        writes.segment().set(isAppend.and(closes));
        writes.segmentCell().set(place.get(openStart, "cell"));
        writes.segmentData().set(segment.expr().set("bytes", open).set("cmds", openCmds).set("next", cmdStart)
                .build());
        segments.write(writes.segment(), writes.segmentCell(), writes.segmentData());
        return new Appending(appendRow, empty);
    }

    /** TAKE: the first closed segment is the PDU, or else the open one. */
    private Taking take(RowAndSegment c) {
        Expr seg = c.segment();
        Expr count = row.get(c.row(), "count");
        Expr closed = row.get(c.row(), "closed");
        Expr open = row.get(c.row(), "open_bytes");
        Expr openCmds = row.get(c.row(), "open_cmds");
        Expr fromClosed = wire("from_closed", closed.ne(0));
        Expr takeBytes = wire("take_bytes", Hw.mux(fromClosed, segment.get(seg, "bytes"), open));
        Expr takeCmds = Hw.mux(fromClosed, segment.get(seg, "cmds"), openCmds);
        // both subtractions beside the choice of segment, not after it
        Expr takeCount = wire("take_count", Hw.mux(fromClosed, count.sub(segment.get(seg, "cmds")),
                count.sub(openCmds)));
        Expr takeRow = row.expr().set("head", Hw.mux(fromClosed, segment.get(seg, "next"), row.get(c.row(), "head")))
                .set("count", takeCount).set("closed", Hw.mux(fromClosed, closed.sub(1), Hw.zeros(cw)))
                .set("open_bytes", Hw.mux(fromClosed, open, Hw.zeros(lw)))
                .set("open_cmds", Hw.mux(fromClosed, openCmds, Hw.zeros(cw)))
                .set("open_start", row.get(c.row(), "open_start")).build();
        return new Taking(takeRow, takeBytes, takeCmds, takeCount);
    }

    /** A queue's xoff change, a cycle later on {@code xoff}. */
    private void reportXoff(Expr xoffNow, Expr xonNow, Expr queue) {
        Reg xoffValidReg = reg("xoff_valid_reg", 1, 0);
        Reg xoffOnReg = reg("xoff_on_reg", 1, 0);
        Reg xoffQueue = reg("xoff_queue", qw, 0);
        xoffValidReg.set(xoffNow.or(xonNow));
        xoffOnReg.set(xoffNow);
        xoffQueue.set(queue);
        xoff.drive(xoffValidReg, xoff.layout().expr().set("on", xoffOnReg)
                .set("xpuid", dstOf(xoffQueue).resize(SueMeta.XPU_WIDTH)).set("vc", vcOf(xoffQueue)).build());
    }

    /** A taken PDU: its run is read from the store; its length waits for its last beat on {@code m_axis}. */
    private void pduReader(QueueStore store, Taken taken, Leaving leaving) {
        SyncFifo runs = child("runs", new SyncFifo(new SyncFifo.Config(run.width(), 4)));
        SyncFifo lens = child("lens", new SyncFifo(new SyncFifo.Config(lw, 4, false)));
        unused("never_full_runs", runs.push.ready(), lens.push.ready(), runs.creditReturn, runs.overflow); // PDUS_AHEAD
        // a run goes straight to the store when none waits before it (two cycles sooner than through the FIFO)
        Expr direct = wire("run_direct", taken.valid().and(runs.level.eq(0)));
        runs.push.valid().set(taken.valid().and(direct.and(store.rd.ready()).not()));
        runs.push.data().set(taken.run());
        lens.push.valid().set(taken.valid());
        lens.push.data().set(run.get(taken.run(), "bytes"));
        Stream next = Stream.of(this, "run_next", runs.pop.valid().or(direct), run,
                Hw.mux(runs.pop.valid(), runs.pop.data(), taken.run()));
        next.into(store.rd);
        runs.pop.ready().set(next.ready());
        // the store's beats with the PDU's SueMeta (the store's tuser is the run's queue)
        store.out.translateInto(out, out.layout().expr().set(Stream.TDATA, store.out.tdata())
                .set(Stream.TKEEP, store.out.tkeep()).set(Stream.TLAST, store.out.tlast())
                .set(Stream.TUSER, meta(store.out.tuser(), lens.pop.data())).build());
        unused("len_valid", lens.pop.valid()); // a PDU's length waits before its first beat
        lens.pop.ready().set(leaving.beat().and(out.tlast()));
    }

    /** A queue number's VC (its low bits). */
    private static Expr vcOf(Expr queue) {
        return queue.bits(SueMeta.VC_WIDTH - 1, 0);
    }

    /** A queue number's destination (its high bits). */
    private static Expr dstOf(Expr queue) {
        return queue.bits(queue.width() - 1, SueMeta.VC_WIDTH);
    }

    /** SueMeta for an assembled PDU: destination, VC and length; the rest is filled in further down the path. */
    private static Expr meta(Expr queue, Expr len) {
        return SueMeta.LAYOUT.expr().set(SueMeta.DST_XPU, dstOf(queue).resize(SueMeta.XPU_WIDTH))
                .set(SueMeta.VC, vcOf(queue)).set(SueMeta.LEN, len).build();
    }

    public Config config() {
        return config;
    }
}
