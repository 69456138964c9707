package org.sue.cmd;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
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
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.SueMeta;

/**
 * Per-queue byte runs in one shared memory of cells: the dense storage a packing buffer needs to drain small
 * commands at one bus beat per cycle. Each queue ({destination, VC}) is one byte stream; its commands follow each
 * other with no gap, so several small commands share a cell and a run of them (a PDU) is read a full beat per cycle
 * whatever the command sizes.
 *
 * <p><b>Writer.</b> Commands arrive one beat per cycle ({@link CommandIngress}'s packed commands, tuser
 * {@link CommandUser}). The {@code queue_tail} table (one row per queue: has a tail cell, the cell, its fill) says
 * where the queue's stream ends; a beat is rotated by the fill and written into the lanes of the tail cell that are
 * still free and the low lanes of one new cell. So the cell memory is one memory per byte lane, each with its own
 * address. A new cell comes from a spare register refilled from the free lists; the tail cell's {@code cell_link}
 * entry points to it. When a command's last beat is written, {@code stored_*} tells where it starts (cell, offset),
 * how long it is and whether it has data. A table read (one cycle before the write) with the previous write forwarded
 * keeps back-to-back beats of one queue exact.
 *
 * <p><b>Reader.</b> A run request ({@code rd_*}: queue, start cell and offset, bytes; whole commands already
 * stored) is read a beat per cycle: lanes at and above the offset come from the current cell, lanes below it from
 * the next one ({@code cell_link}, read a cycle ahead; the next request's first link is read in the previous run's
 * last cycle, so runs follow each other without a gap). The beat is rotated back to byte 0 and leaves on
 * {@code m_axis} (tuser = queue, tlast on the run's last beat).
 *
 * <p><b>Cells go back</b> once read and never written again. A cell the run leaves behind (it goes on into the next
 * cell) is freed by the reader ({@code cell_freed_*}), except the run's first: the run before may have ended in it,
 * and that run's notice must be judged first. The run's first and last cells go to the writer in a notice (queue,
 * first cell, last cell, end offset); the writer judges a notice in every cycle, in order, beside the input beat
 * (the tail table's second read port is the notices'), and frees ({@code cell_returned_*}) the first cell if the run
 * left it, and the last cell if nothing was written after the run (the queue's tail is that cell, filled exactly to
 * the end: the tail is dropped) or if the run ended on the cell's last byte and the stream has moved on; otherwise
 * the bytes after the run belong to a later run, which frees the cell. A drop is a mark in {@code tail_dropped} for
 * the tail row's one-bit generation, so only beats write the tail table; the queue's next beat sees the mark, starts
 * a new cell and flips the generation. {@code cells_in_use} counts cells handed out and not back.
 *
 * <p>Reset: the tail table and the drop marks are RAMs without a reset value, so after reset they are cleared one row
 * per cycle while {@code init_busy} is high and nothing enters.
 */
public final class QueueStore extends Component {
    /** Beats read and not yet taken from {@code m_axis}, at most. */
    static final int OUT_DEPTH = 8;
    /** Reader-to-writer notices of a run's last cell, at most waiting. */
    static final int NOTICE_DEPTH = 16;

    public record Config(@Tag("w") int cellWidth, @Tag("c") int cells, @Tag("d") int destinations) {
        public Config {
            new StreamConfig(cellWidth, 1); // validates cellWidth
            if (cellWidth < 256) {
                throw new IllegalArgumentException("QueueStore cellWidth must be at least 256 bits, got "
                        + cellWidth);
            }
            if (cells < 16 || cells > 65536 || Integer.bitCount(cells) != 1) {
                throw new IllegalArgumentException("QueueStore cells must be a power of two from 16 to 65536, got "
                        + cells);
            }
            if (destinations < 2 || destinations > 1024 || Integer.bitCount(destinations) != 1) {
                throw new IllegalArgumentException("QueueStore destinations must be a power of two from 2 to 1024,"
                        + " got " + destinations);
            }
        }

        public int cellBytes() {
            return cellWidth / 8;
        }

        public int queueWidth() {
            return Hw.log2Up(destinations) + SueMeta.VC_WIDTH;
        }

        /** A run to read ({@code rd_*}): its queue, where it starts, its length in bytes. */
        public Layout run() {
            return Layout.of("run", Layout.bits("queue", queueWidth()), Layout.bits("cell", Hw.log2Up(cells)),
                    Layout.bits("offset", Hw.log2Up(cellBytes())), Layout.bits("bytes", SueMeta.LEN_WIDTH));
        }

        /** A command stored ({@code stored_*}): its queue, length, where it starts, whether it has data. */
        public Layout stored() {
            return Layout.of("stored", Layout.bits("queue", queueWidth()),
                    Layout.bits("bytes", CommandUser.BYTES_WIDTH), Layout.bits("cell", Hw.log2Up(cells)),
                    Layout.bits("offset", Hw.log2Up(cellBytes())), Layout.bits("data", 1));
        }
    }

    private static final Layout VC_ONLY = Layout.plain("vc", SueMeta.VC_WIDTH);
    /** A queue's drop mark: a notice dropped the tail of the row whose {@code gen} this is. */
    private static final Layout DROP_MARK = Layout.of("drop_mark", Layout.bits("gen", 1), Layout.bits("valid", 1));

    public final Stream in;
    public final Stream out;
    /** A command was written whole: {@code stored_*} (a flow: {@link Config#stored}). */
    public final Flow stored;
    /** Runs to read: {@code rd_*} ({@link Config#run}). */
    public final Stream rd;
    /** A cell was handed out, for a queue of this VC: {@code cell_alloc_*}. */
    public final Flow cellAlloc;
    /** The reader freed a cell a run left behind: {@code cell_freed_*}. */
    public final Flow cellFreed;
    public final Port cellReturnedCount;
    public final Port cellReturnedVc;
    public final Port cellsInUse;
    /** High while the tail table is cleared after reset: nothing enters. */
    public final Port initBusy;
    public final Port overflowError;
    private final Config config;

    // sizes
    private final int w;
    private final int cb;
    private final int ow;  // an offset inside a cell
    private final int fw;  // a fill or count of bytes 0..cb
    private final int aw;
    private final int qw;
    /** A queue's row of {@code queue_tail}: where its stream ends. */
    private final Layout tailRow;
    /** A run's notice from the reader to the writer. */
    private final Layout notice;
    /** A beat read, on its way to {@code m_axis}. */
    private final Layout fetched;

    /** The memories: the cells' links, one memory per byte lane, the queues' tails and their drop marks. */
    private record Storage(Mem cellLink, List<Mem> lanes, Mem tailTable, Mem dropTable) {
    }

    /** The tail table's clearing after reset: the row cleared now, and whether it is still going on. */
    private record Clearing(Reg row, Expr busy) {
    }

    /**
     * Free cells: the lists cells come back to (left behind by the reader; a run's first and last, judged by the
     * writer), the spare cell the writer takes next ({@code consume}: it does this cycle) and its next valid.
     */
    private record FreeCells(SyncFifo byReader, SyncFifo first, SyncFifo last, Reg spareValid, Reg spare,
                             Wire consume, Expr spareNext) {
    }

    /** The reader's notices to the writer: as sent ({@code done}, {@code data}), and queued for the writer. */
    private record Notices(Wire done, Wire data, Stream sent, Stream queued) {
    }

    /**
     * Writer stage B's beat: valid, its queue, the tail row and drop mark read; the beat's first, last, bytes (1..cb),
     * data and its command's bytes and has-data.
     */
    private record BeatIn(Reg valid, Reg queue, Expr row, Expr drop, Reg first, Reg last, Reg bytes, Reg cmdBytes,
                          Reg cmdData, Reg data) {
    }

    /**
     * Writer stage B's notice: valid, its queue, the tail row read; its run's first cell left behind, first cell, last
     * cell and its end offset (1..cb).
     */
    private record NoticeIn(Reg valid, Reg queue, Expr row, Reg firstGone, Reg first, Reg cell, Reg end) {
    }

    /** What stage B wrote last cycle, which this cycle's table reads missed: a beat's tail row, a notice's drop. */
    private record Forward(Reg rowValid, Reg rowQueue, Reg row, Reg dropValid, Reg dropQueue) {
    }

    /** Cells a notice gave back this cycle: its run's first cell, its run's last cell. */
    private record CellsBack(Expr firstGone, Expr reclaim) {
    }

    public QueueStore(Config config) {
        super(config);
        this.config = config;
        w = config.cellWidth();
        cb = config.cellBytes();
        ow = Hw.log2Up(cb);
        fw = ow + 1;
        aw = Hw.log2Up(config.cells());
        qw = config.queueWidth();
        tailRow = Layout.of("tail_row", Layout.bits("fill", fw), Layout.bits("cell", aw), Layout.bits("has_tail", 1),
                Layout.bits("gen", 1));
        notice = Layout.of("notice", Layout.bits("end", fw), Layout.bits("last_cell", aw),
                Layout.bits("first_cell", aw), Layout.bits("first_gone", 1), Layout.bits("queue", qw));
        fetched = Layout.of("fetched", Layout.bits("data", w), Layout.bits("bytes", fw), Layout.bits("last", 1),
                Layout.bits("queue", qw));

        in = Stream.slave(this, new StreamConfig(w, CommandUser.WIDTH));
        out = Stream.master(this, new StreamConfig(w, qw));
        stored = Flow.master(this, "stored", config.stored());
        rd = Stream.slave(this, "rd", config.run());
        cellAlloc = Flow.master(this, "cell_alloc", VC_ONLY);
        cellFreed = Flow.master(this, "cell_freed", VC_ONLY);
        cellReturnedCount = out("cell_returned_count", BufferCredits.RETURNED_WIDTH);
        cellReturnedVc = out("cell_returned_vc", SueMeta.VC_WIDTH);
        payloadOf(cellReturnedCount, cellReturnedVc); // the VC of the cells returned, if any
        Reg inUse = reg("cells_in_use_reg", aw + 1, 0);
        cellsInUse = status("cells_in_use", Status.Kind.LEVEL, inUse,
                "Cells handed out to queues and not yet given back.");
        initBusy = out("init_busy", 1);
        Reg overflow = reg("overflow_flag", 1, 0);
        overflowError = status("overflow_error", Status.Kind.FLAG, overflow,
                "Sticky: a beat needed a new cell while no spare cell was ready (the input's ready rules it out).");

        Storage storage = storage();
        FreeCells free = freeCells();
        Clearing clearing = clearing();
        initBusy.set(clearing.busy());
        Notices notices = notices();
        BeatIn beat = writerTakeBeat(storage, free, clearing);
        NoticeIn notice = writerTakeNotice(storage, clearing, notices);
        Forward fwd = new Forward(reg("fwd_valid", 1, 0), reg("fwd_queue", qw, 0), reg("fwd_row", tailRow.width(), 0),
                reg("fwd_drop_valid", 1, 0), reg("fwd_drop_queue", qw, 0));
        Expr alloc = writeBeat(beat, fwd, storage, free, clearing, overflow);
        CellsBack back = judgeNotice(notice, beat, fwd, storage, free, clearing);
        Expr freedByReader = reader(storage, free, clearing, notices);
        inUse.set(Hw.upDown(inUse, List.of(alloc), List.of(freedByReader, back.firstGone(), back.reclaim())));
    }

    private Storage storage() {
        // declared before the lanes: the back end lowers memories in order, and the lanes' read address uses its read
        Mem cellLink = mem("cell_link", config.cells(), aw, ReadUnderWrite.READ_FIRST);
        // one memory per byte lane, so a beat can straddle two cells
        List<Mem> lanes = new ArrayList<>();
        for (int i = 0; i < cb; i++) {
            lanes.add(mem("lane_" + i, config.cells(), 8, ReadUnderWrite.READ_FIRST));
        }
        Mem tailTable = mem("queue_tail", config.destinations() * SueMeta.VCS, tailRow.width(),
                ReadUnderWrite.READ_FIRST);
        Mem dropTable = mem("tail_dropped", config.destinations() * SueMeta.VCS, DROP_MARK.width(),
                ReadUnderWrite.READ_FIRST);
        return new Storage(cellLink, lanes, tailTable, dropTable);
    }

    /**
     * Every cell once from a counter, then the cells the reader and the writer give back: three lists, as up to three
     * cells come back in one cycle (one left behind by the reader, and the first and last cells of a run, judged by
     * the writer).
     */
    private FreeCells freeCells() {
        List<SyncFifo> lists = new ArrayList<>();
        for (String name : List.of("freed_by_reader", "freed_first", "freed_last")) {
            SyncFifo list = child(name, new SyncFifo(new SyncFifo.Config(aw, config.cells(), false)));
            unused(name + "_never_full", list.push.ready()); // a cell is in one list at most once
            lists.add(list);
        }
        Reg spareValid = reg("spare_valid", 1, 0);
        Reg spare = reg("spare_cell", aw, 0);
        Wire consume = wire("consume_spare", 1); // the writer takes the spare this cycle
        Expr next = spareCell(lists, spareValid, spare, consume);
        return new FreeCells(lists.get(0), lists.get(1), lists.get(2), spareValid, spare, consume, next);
    }

    /** The spare cell register, refilled from a counter (each cell once) and then the free lists; its next valid. */
    private Expr spareCell(List<SyncFifo> freeLists, Reg spareValid, Reg spare, Expr consumeSpare) {
        Reg fresh = reg("fresh_cells", aw + 1, 0);
        Expr fromCounter = wire("alloc_from_counter", fresh.bit(aw).not());
        Expr wantCell = wire("want_cell", spareValid.not().or(consumeSpare));
        Expr refillData = fresh.bits(aw - 1, 0);
        Expr taken = fromCounter; // a source before this one gives the cell
        for (SyncFifo list : freeLists) {
            list.pop.ready().set(wantCell.and(taken.not()));
            refillData = Hw.mux(taken, refillData, list.pop.data());
            taken = taken.or(list.pop.valid());
        }
        Expr refill = wire("refill", wantCell.and(taken));
        Expr refillCell = refillData;
        when(refill, () -> {
            spare.set(refillCell);
            when(fromCounter, () -> fresh.set(fresh.add(1)));
        });
        Expr next = wire("spare_next", refill.or(spareValid.and(consumeSpare.not())));
        spareValid.set(next);
        return next;
    }

    /** The tail table is cleared one row per cycle after reset. */
    private Clearing clearing() {
        Reg initRow = reg("init_row", qw + 1, 0);
        Expr initializing = wire("initializing", initRow.bit(qw).not());
        when(initializing, () -> initRow.set(initRow.add(1)));
        return new Clearing(initRow, initializing);
    }

    /** A run's notice, from the reader's last beat of it to the writer, through a FIFO. */
    private Notices notices() {
        Wire runDone = wire("run_done", 1);
        Wire noticeData = wire("notice_data", notice.width());
        Stream sent = Stream.of(this, "notice", runDone, notice, noticeData);
        return new Notices(runDone, noticeData, sent, sent.queue("notices", NOTICE_DEPTH));
    }

    /** Writer stage A for beats: an input beat reads its queue's tail row and drop mark. */
    private BeatIn writerTakeBeat(Storage storage, FreeCells free, Clearing clearing) {
        // a beat goes in only if a spare cell is sure to wait for it in stage B
        in.tready().set(free.spareNext().and(clearing.busy().not()));
        Expr beatIn = wire("beat_in", in.fire());
        Expr inDst = CommandUser.DST.of(in.tuser());
        int dw = qw - SueMeta.VC_WIDTH;
        if (dw < inDst.width()) { // the ingress never sends a destination beyond the configured ones
            unused("dst_high", inDst.bits(inDst.width() - 1, dw));
        }
        Expr aQueue = wire("a_queue", Hw.cat(inDst.bits(dw - 1, 0), CommandUser.VC.of(in.tuser())));
        Expr row = storage.tailTable().readSync("row_read", aQueue, Hw.lit(1, 1));
        Expr drop = storage.dropTable().readSync("drop_read", aQueue, Hw.lit(1, 1));
        Reg aFirst = reg("first_beat", 1, 1);  // the next beat starts a command
        Reg aLeft = reg("bytes_left", CommandUser.BYTES_WIDTH, 0);  // bytes of the command not yet taken
        Expr left = wire("left", Hw.mux(aFirst, CommandUser.BYTES.of(in.tuser()), aLeft));
        Expr beatBytes = wire("beat_bytes", Hw.mux(left.le(cb), left.resize(fw), Hw.lit(fw, cb)));
        when(beatIn, () -> {
            aFirst.set(in.tlast());
            aLeft.set(left.sub(cb));
        });
        unused("keep", in.tkeep());

        BeatIn b = new BeatIn(reg("b_valid", 1, 0), reg("b_queue", qw, 0), row, drop, reg("b_first", 1, 0),
                reg("b_last", 1, 0), reg("b_bytes", fw, 0), reg("b_cmd_bytes", CommandUser.BYTES_WIDTH, 0),
                reg("b_cmd_data", 1, 0), regNoReset("b_data", w));
        b.valid().set(beatIn);
        b.queue().set(aQueue);
        when(beatIn, () -> {
            b.first().set(aFirst);
            b.last().set(in.tlast());
            b.bytes().set(beatBytes);
            b.data().set(in.tdata());
            when(aFirst, () -> {
                b.cmdBytes().set(CommandUser.BYTES.of(in.tuser()));
                b.cmdData().set(CommandUser.HAS_DATA.of(in.tuser()));
            });
        });
        return b;
    }

    /**
     * Writer stage A for notices, beside the beats: a reader's notice reads its queue's tail row through the table's
     * second read port, one notice a cycle, so the input never waits for notices and notices never wait for idle
     * input.
     */
    private NoticeIn writerTakeNotice(Storage storage, Clearing clearing, Notices notices) {
        Stream queued = notices.queued();
        Expr noticeIn = wire("notice_in", queued.valid().and(clearing.busy().not()));
        queued.ready().set(noticeIn);
        Expr row = storage.tailTable().readSync("notice_row_read", queued.field("queue"), Hw.lit(1, 1));
        NoticeIn n = new NoticeIn(reg("n_valid", 1, 0), reg("n_queue", qw, 0), row, reg("n_first_gone", 1, 0),
                reg("n_first_cell", aw, 0), reg("n_last_cell", aw, 0), reg("n_end", fw, 0));
        n.valid().set(noticeIn);
        when(noticeIn, () -> {
            n.queue().set(queued.field("queue"));
            n.firstGone().set(queued.field("first_gone"));
            n.first().set(queued.field("first_cell"));
            n.cell().set(queued.field("last_cell"));
            n.end().set(queued.field("end"));
        });
        return n;
    }

    /**
     * Writer stage B for beats: a beat is rotated to the tail's fill and written into the tail cell's free lanes and
     * the low lanes of a new cell. A tail a notice dropped (its drop mark is for the row's {@code gen}) counts as no
     * tail, and the row written flips {@code gen}, so the mark is stale from then on. Returns whether it took a new
     * cell.
     */
    private Expr writeBeat(BeatIn b, Forward fwd, Storage storage, FreeCells free, Clearing clearing, Reg overflow) {
        Expr fwdHit = wire("fwd_hit", fwd.rowValid().and(fwd.rowQueue().eq(b.queue())));
        Expr read = b.row();
        // a drop last cycle is always of the row read now (a beat of that queue then would have ruled the drop out)
        Expr droppedLast = fwd.dropValid().and(fwd.dropQueue().eq(b.queue()));
        Expr marked = DROP_MARK.get(b.drop(), "valid").and(DROP_MARK.get(b.drop(), "gen")
                .eq(tailRow.get(read, "gen")));
        Expr dropped = wire("dropped", fwdHit.not().and(droppedLast.or(marked)));
        Expr row = wire("row", Hw.mux(fwdHit, fwd.row(), read));
        Expr hasTail = wire("has_tail", tailRow.get(row, "has_tail").and(dropped.not()));
        Expr tail = tailRow.get(row, "cell");
        Expr fill = tailRow.get(row, "fill");
        Expr isBeat = b.valid();
        // room in the tail cell: the beat starts there at lane `fill`; else it starts at lane 0 of a new cell
        Expr room = wire("room", hasTail.and(fill.ne(cb)));
        Expr rot = wire("rot", Hw.mux(room, fill.bits(ow - 1, 0), Hw.zeros(ow)));
        Expr spaceLeft = wire("space_left", Hw.lit(fw + 1, cb).sub(fill.resize(fw + 1)));
        Expr spills = wire("spills", room.not().or(b.bytes().resize(fw + 1).gt(spaceLeft)));
        Expr allocNow = wire("alloc_now", isBeat.and(spills));
        free.consume().set(allocNow);
        when(allocNow.and(free.spareValid().not()), () -> overflow.set(1)); // the input's ready should prevent it
        Expr endPos = wire("end_pos", rot.resize(fw + 1).add(b.bytes().resize(fw + 1))); // one past the beat's end
        Expr lowLanes = wire("low_lanes", // in the new cell
                Hw.mux(endPos.gt(cb), endPos.sub(cb), Hw.zeros(fw + 1)).resize(fw));
        Expr firstCell = wire("first_cell", Hw.mux(room, tail, free.spare())); // where lanes at and above rot go
        Expr doubled = Hw.cat(b.data(), b.data());
        Expr rotated = wire("rotated", doubled.shl(Hw.cat(rot, Hw.lit(3, 0))).bits(2 * w - 1, w));
        // the lanes written are the beat's lanes rotated as its bytes are: those at and above rot go to the first
        // cell, those below it to the new one (masks from the register values, not through endPos and its compares)
        Expr beatLanes = Keep.below(b.bytes(), cb);
        Expr written = wire("lanes_written", Hw.cat(beatLanes, beatLanes).shl(rot).bits(2 * cb - 1, cb));
        Expr atOrAboveRot = wire("lanes_from_rot", Keep.below(rot, cb).not());
        for (int i = 0; i < cb; i++) {
            storage.lanes().get(i).write(isBeat.and(written.bit(i)), Hw.mux(atOrAboveRot.bit(i), firstCell,
                    free.spare()), rotated.bits(8 * i + 7, 8 * i));
        }
        // the stream goes on from the old tail into the new cell
        storage.cellLink().write(allocNow.and(hasTail), tail, free.spare());
        Expr beatTailCell = Hw.mux(spills, free.spare(), tail);
        Expr beatFill = Hw.mux(spills.and(room), lowLanes, endPos.resize(fw)); // endPos <= cb unless it spills
        Expr newRow = wire("new_row", tailRow.expr().set("has_tail", 1).set("cell", beatTailCell).set("fill", beatFill)
                .set("gen", tailRow.get(row, "gen").xor(dropped)).build());
        storage.tailTable().write(isBeat.or(clearing.busy()), Hw.mux(clearing.busy(), clearing.row().bits(qw - 1, 0),
                b.queue()), Hw.mux(clearing.busy(), Hw.zeros(tailRow.width()), newRow));
        fwd.rowValid().set(isBeat);
        fwd.rowQueue().set(b.queue());
        fwd.row().set(newRow);
        reportStored(b, isBeat, firstCell, rot);
        cellAlloc.drive(allocNow, vcOf(b.queue()));
        return allocNow;
    }

    /**
     * Writer stage B for notices: a notice frees the run's first cell if it was left behind, and its last cell unless
     * later bytes of the queue are in it. Nothing written after the run (the queue's tail is where the run ended)
     * drops the tail: a drop mark, not a tail row write, so the beats keep the row's one write port. A notice of the
     * queue a beat writes in the same cycle is judged after that beat: its bytes follow the run, so the run's last
     * cell goes back only if the run filled it.
     */
    private CellsBack judgeNotice(NoticeIn n, BeatIn b, Forward fwd, Storage storage, FreeCells free,
                                  Clearing clearing) {
        Expr isNotice = n.valid();
        Expr withBeat = wire("notice_with_beat", b.valid().and(b.queue().eq(n.queue())));
        Expr row = wire("notice_row", Hw.mux(fwd.rowValid().and(fwd.rowQueue().eq(n.queue())), fwd.row(), n.row()));
        Expr runFilledCell = n.end().eq(cb);
        Expr tailHere = wire("tail_here", tailRow.get(row, "has_tail").and(tailRow.get(row, "cell").eq(n.cell())));
        Expr dropTail = wire("drop_tail", isNotice.and(withBeat.not()).and(tailHere)
                .and(tailRow.get(row, "fill").eq(n.end())));
        Expr reclaim = wire("reclaim", dropTail.or(isNotice.and(runFilledCell)
                .and(withBeat.or(tailHere.not()))));
        storage.dropTable().write(dropTail.or(clearing.busy()), Hw.mux(clearing.busy(),
                clearing.row().bits(qw - 1, 0), n.queue()), Hw.mux(clearing.busy(), Hw.zeros(DROP_MARK.width()),
                DROP_MARK.expr().set("valid", 1).set("gen", tailRow.get(row, "gen")).build()));
        fwd.dropValid().set(dropTail);
        fwd.dropQueue().set(n.queue());
        // the run's first cell, left behind: free now that the notice of the run before, which ended in it, is judged
        Expr firstGone = wire("first_gone", isNotice.and(n.firstGone()));
        free.first().push.valid().set(firstGone);
        free.first().push.data().set(n.first());
        free.last().push.valid().set(reclaim);
        free.last().push.data().set(n.cell());
        cellReturnedCount.set(wire("returned_now", firstGone.resize(BufferCredits.RETURNED_WIDTH)
                .add(reclaim.resize(BufferCredits.RETURNED_WIDTH))));
        cellReturnedVc.set(vcOf(n.queue()));
        return new CellsBack(firstGone, reclaim);
    }

    /** A command's last beat written: {@code stored_*} says where its first beat's first lane is. */
    private void reportStored(BeatIn b, Expr isBeat, Expr firstCell, Expr rot) {
        Reg cmdCell = reg("cmd_cell", aw, 0);
        Reg cmdOffset = reg("cmd_offset", ow, 0);
        when(isBeat.and(b.first()), () -> {
            cmdCell.set(firstCell);
            cmdOffset.set(rot);
        });
        stored.drive(isBeat.and(b.last()), stored.layout().expr().set("queue", b.queue()).set("bytes", b.cmdBytes())
                .set("data", b.cmdData()).set("cell", Hw.mux(b.first(), firstCell, cmdCell))
                .set("offset", Hw.mux(b.first(), rot, cmdOffset)).build());
    }

    /**
     * The reader: runs one after the other, a beat per cycle into a FIFO in front of {@code m_axis}; each run's
     * last beat sends the writer its notice. Lanes at and above the offset come from the current cell, the rest from
     * the next. Returns whether it freed a cell a run left behind.
     */
    private Expr reader(Storage storage, FreeCells free, Clearing clearing, Notices notices) {
        int rw = SueMeta.LEN_WIDTH;
        Reg reading = reg("reading", 1, 0);
        Reg rQueue = reg("read_queue", qw, 0);
        Reg rCell = reg("read_cell", aw, 0);
        Reg rOffset = reg("read_offset", ow, 0);
        Reg rLeft = reg("read_left", rw, 0); // bytes of the run not yet read
        Reg rFirst = reg("read_first_beat", 1, 0);
        Reg rFirstCell = reg("read_first_cell", aw, 0);
        Reg rFirstGone = reg("read_first_gone", 1, 0);
        Reg outstanding = reg("out_outstanding", Hw.log2Up(OUT_DEPTH + 1), 0);
        Wire linkAddr = wire("link_addr", aw);
        Expr nextCell = storage.cellLink().readSync("next_cell", linkAddr, Hw.lit(1, 1));
        Expr lastBeat = wire("read_last_beat", rLeft.le(cb));
        Expr toCellEnd = wire("to_cell_end", Hw.lit(fw, cb).sub(rOffset.resize(fw)));
        Expr passes = wire("passes_cell", rLeft.gt(toCellEnd.resize(rw))); // the run goes on into nextCell
        Expr outRoom = wire("out_room", outstanding.lt(OUT_DEPTH));
        Expr readBeat = wire("read_beat", reading.and(outRoom).and(lastBeat.not().or(notices.sent().ready())));
        notices.done().set(readBeat.and(lastBeat));
        Expr accept = wire("accept_run", rd.valid().and(reading.not().or(notices.done())).and(clearing.busy().not()));
        rd.ready().set(accept);
        // next_cell shows the link of the cell after the current one: the next run's first cell when a run starts,
        // the next link when a beat is read, the same link again while the reader waits
        linkAddr.set(Hw.mux(accept, rd.field("cell"), Hw.mux(readBeat, nextCell, rCell)));
        when(readBeat, () -> {
            rCell.set(nextCell);
            rLeft.set(rLeft.sub(cb));
            rFirst.set(0);
            when(rFirst, () -> rFirstGone.set(passes));
        });
        when(notices.done(), () -> reading.set(0));
        when(accept, () -> {
            reading.set(1);
            rQueue.set(rd.field("queue"));
            rCell.set(rd.field("cell"));
            rOffset.set(rd.field("offset"));
            rLeft.set(rd.field("bytes"));
            rFirst.set(1);
            rFirstCell.set(rd.field("cell"));
        });
        Expr readEnable = wire("read_enable", readBeat);
        List<Expr> laneData = new ArrayList<>(); // lane cb-1 first: Hw.cat puts its first part on top
        Expr lowRead = Keep.below(rOffset.resize(fw), cb);
        for (int i = cb - 1; i >= 0; i--) {
            laneData.add(storage.lanes().get(i).readSync("read_" + i, Hw.mux(lowRead.bit(i), nextCell, rCell),
                    readEnable));
        }
        // a cell left behind goes back, except the run's first: the run before may have ended in it, and its notice
        // must be judged first; so the first and the last cell go to the writer in the run's notice
        free.byReader().push.valid().set(readBeat.and(passes).and(rFirst.not()));
        free.byReader().push.data().set(rCell);
        Expr freed = free.byReader().push.valid();
        cellFreed.drive(freed, vcOf(rQueue));
        notices.data().set(notice.expr().set("queue", rQueue)
                .set("first_gone", Hw.mux(rFirst, passes, rFirstGone)).set("first_cell", rFirstCell)
                .set("last_cell", Hw.mux(passes, nextCell, rCell))
                .set("end", Hw.mux(passes, rLeft.sub(toCellEnd.resize(rw)).resize(fw),
                        rOffset.resize(fw).add(rLeft.resize(fw)))).build());
        Expr beatOut = toOutput(readBeat, lastBeat, rOffset, rLeft, rQueue, laneData);
        outstanding.set(Hw.upDown(outstanding, List.of(readBeat), List.of(beatOut)));
        return freed;
    }

    /**
     * The data comes a cycle after its read: rotated back to byte 0, lanes past the run's end zeroed, queued for
     * {@code m_axis}. Returns whether a beat leaves.
     */
    private Expr toOutput(Expr readBeat, Expr lastBeat, Reg rOffset, Reg rLeft, Reg rQueue, List<Expr> laneData) {
        Reg pValid = reg("p_valid", 1, 0);
        Reg pOffset = reg("p_offset", ow, 0);
        Reg pBytes = reg("p_bytes", fw, 0);
        Reg pLast = reg("p_last", 1, 0);
        Reg pQueue = reg("p_queue", qw, 0);
        pValid.set(readBeat);
        when(readBeat, () -> {
            pOffset.set(rOffset);
            pBytes.set(Hw.mux(lastBeat, rLeft.resize(fw), Hw.lit(fw, cb)));
            pLast.set(lastBeat);
            pQueue.set(rQueue);
        });
        Expr readData = Hw.cat(laneData);
        // lanes past the run's end are zeroed: they may hold anything, even bytes written this cycle
        Expr back = wire("read_rotated", Hw.cat(readData, readData).shr(Hw.cat(pOffset, Hw.lit(3, 0)))
                .bits(w - 1, 0).and(Keep.bytesBelow(pBytes, cb)));
        Stream beat = Stream.of(this, "fetch", pValid, fetched, fetched.expr().set("data", back).set("bytes", pBytes)
                .set("last", pLast).set("queue", pQueue).build());
        Stream queued = beat.queue("out", OUT_DEPTH);
        unused("out_never_full", beat.ready()); // a beat is read only with room for it
        queued.translateInto(out, out.layout().expr().set(Stream.TDATA, queued.field("data"))
                .set(Stream.TKEEP, Keep.below(queued.field("bytes"), cb)).set(Stream.TLAST, queued.field("last"))
                .set(Stream.TUSER, queued.field("queue")).build());
        return wire("beat_out", out.fire());
    }

    /** A queue number's VC (its low bits). */
    private static Expr vcOf(Expr queue) {
        return queue.bits(SueMeta.VC_WIDTH - 1, 0);
    }

    public Config config() {
        return config;
    }
}
