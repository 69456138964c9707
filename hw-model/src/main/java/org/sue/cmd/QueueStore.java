package org.sue.cmd;

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
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.Stream;
import org.sue.net.SueMeta;

/**
 * Per-queue byte runs in one shared memory of cells: the dense storage a packing buffer needs to drain small
 * commands at one bus beat per cycle. Each queue ({destination, VC}) is one byte stream; its commands follow each
 * other with no gap, so several small commands share a cell and a run of them (a PDU) is read a full beat per cycle
 * whatever the command sizes.
 *
 * <p><b>Writer.</b> Commands arrive one beat per cycle ({@link CommandIngress}'s packed commands, tuser
 * {@link PackingBuffer.CommandUser}). The {@code queue_tail} table (one row per queue: has a tail cell, the cell, its
 * fill) says where the queue's stream ends; a beat is rotated by the fill and written into the lanes of the tail cell
 * that are still free and the low lanes of one new cell. So the cell memory is one memory per byte lane, each with
 * its own address. A new cell comes from a spare register refilled from the free lists; the tail cell's
 * {@code cell_link} entry points to it. When a command's last beat is written, {@code stored_*} tells where it
 * starts (cell, offset), how long it is and whether it has data. A table read (one cycle before the write) with the previous write
 * forwarded keeps back-to-back beats of one queue exact.
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
 * first cell, last cell, end offset); the writer judges notices in order, in cycles without an input beat (so the
 * input never waits; a queue that stays busy needs none), and frees ({@code cell_returned_*}) the first cell if the
 * run left it, and the last cell if nothing was written after the run (the queue's tail is that cell, filled exactly
 * to the end: the tail is dropped) or if the run ended on the cell's last byte and the stream has moved on;
 * otherwise the bytes after the run belong to a later run, which frees the cell. {@code cells_in_use} counts cells
 * handed out and not back.
 *
 * <p>Reset: the tail table is a RAM without a reset value, so after reset it is cleared one row per cycle while
 * {@code init_busy} is high and nothing enters.
 */
public final class QueueStore extends Component {
    /** Beats read and not yet taken from {@code m_axis}, at most. */
    static final int OUT_DEPTH = 8;
    /** Reader-to-writer notices of a run's last cell, at most waiting. */
    static final int NOTICE_DEPTH = 16;

    public record Config(int cellWidth, int cells, int destinations) {
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
            return Hw.log2Up(destinations) + 2;
        }
    }

    /** Width of a run length: up to 4096 bytes. */
    public static final int RUN_WIDTH = 13;

    public final Stream in;
    public final Stream out;
    public final Port storedValid;
    public final Port storedQueue;
    public final Port storedBytes;
    public final Port storedCell;
    public final Port storedOffset;
    public final Port storedData;
    public final Port rdValid;
    public final Port rdReady;
    public final Port rdQueue;
    public final Port rdCell;
    public final Port rdOffset;
    public final Port rdBytes;
    public final Port cellAllocValid;
    public final Port cellAllocVc;
    public final Port cellFreedValid;
    public final Port cellFreedVc;
    public final Port cellReturnedCount;
    public final Port cellReturnedVc;
    public final Port cellsInUse;
    public final Port initBusy;
    public final Port overflowError;
    private final Config config;

    public QueueStore(Config config) {
        this.config = config;
        int w = config.cellWidth();
        int cb = config.cellBytes();
        int ow = Hw.log2Up(cb);          // an offset inside a cell
        int fw = ow + 1;                 // a fill or count of bytes 0..cb
        int aw = Hw.log2Up(config.cells());
        int dw = Hw.log2Up(config.destinations());
        int qw = config.queueWidth();
        int bw = PackingBuffer.CommandUser.BYTES_WIDTH;
        in = Stream.slave(this, new StreamConfig(w, PackingBuffer.COMMAND_USER_WIDTH));
        out = Stream.master(this, new StreamConfig(w, qw));
        storedValid = out("stored_valid", 1);
        storedQueue = out("stored_queue", qw);
        storedBytes = out("stored_bytes", bw);
        storedCell = out("stored_cell", aw);
        storedOffset = out("stored_offset", ow);
        storedData = out("stored_data", 1);
        rdValid = in("rd_valid", 1);
        rdReady = out("rd_ready", 1);
        rdQueue = in("rd_queue", qw);
        rdCell = in("rd_cell", aw);
        rdOffset = in("rd_offset", ow);
        rdBytes = in("rd_bytes", RUN_WIDTH);
        cellAllocValid = out("cell_alloc_valid", 1);
        cellAllocVc = out("cell_alloc_vc", 2);
        cellFreedValid = out("cell_freed_valid", 1);
        cellFreedVc = out("cell_freed_vc", 2);
        cellReturnedCount = out("cell_returned_count", 2);
        cellReturnedVc = out("cell_returned_vc", 2);
        cellsInUse = out("cells_in_use", aw + 1);
        initBusy = out("init_busy", 1);
        overflowError = out("overflow_error", 1);

        // declared before the lanes: the back end lowers memories in order, and the lanes' read address uses its read
        Mem cellLink = mem("cell_link", config.cells(), aw, ReadUnderWrite.READ_FIRST);
        // one memory per byte lane, so a beat can straddle two cells
        List<Mem> lanes = new ArrayList<>();
        for (int i = 0; i < cb; i++) {
            lanes.add(mem("lane_" + i, config.cells(), 8, ReadUnderWrite.READ_FIRST));
        }
        int rowWidth = 1 + aw + fw; // {has tail, tail cell, fill 1..cb}
        Mem tailTable = mem("queue_tail", config.destinations() * SueMeta.VCS, rowWidth, ReadUnderWrite.READ_FIRST);

        // ---- free cells: every cell once from a counter, then the cells the reader and the writer give back ---------
        // three lists, as up to three cells come back in one cycle: one left behind by the reader, and the first and
        // last cells of a run, judged by the writer
        List<SyncFifo> freeLists = new ArrayList<>();
        for (String name : List.of("freed_by_reader", "freed_first", "freed_last")) {
            SyncFifo list = child(name, new SyncFifo(new SyncFifo.Config(aw, config.cells(), false)));
            unused(name + "_never_full", list.push.ready()); // a cell is in one list at most once
            freeLists.add(list);
        }
        SyncFifo freedByReader = freeLists.get(0);
        SyncFifo freedFirst = freeLists.get(1);
        SyncFifo freedLast = freeLists.get(2);
        Reg fresh = reg("fresh_cells", aw + 1, 0);
        Expr fromCounter = wire("alloc_from_counter", fresh.bit(aw).not());
        Reg spareValid = reg("spare_valid", 1, 0);
        Reg spare = reg("spare_cell", aw, 0);
        Wire consume = wire("consume_spare", 1); // the writer takes the spare this cycle
        Expr wantCell = wire("want_cell", spareValid.not().or(consume));
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
        Expr spareNext = wire("spare_next", refill.or(spareValid.and(consume.not())));
        spareValid.set(spareNext);

        // ---- writer stage A: take a beat (or, in a cycle without one, a reader's notice) and read its queue's row ----
        SyncFifo notices = child("notices", new SyncFifo(new SyncFifo.Config(qw + 1 + 2 * aw + fw, NOTICE_DEPTH,
                false)));
        Reg initRow = reg("init_row", qw + 1, 0);
        Expr initializing = wire("initializing", initRow.bit(qw).not());
        when(initializing, () -> initRow.set(initRow.add(1)));
        initBusy.set(initializing);
        // a beat goes in only if a spare cell is sure to wait for it in stage B
        in.tready().set(spareNext.and(initializing.not()));
        Expr beatIn = wire("beat_in", in.tvalid().and(in.tready()));
        Expr noticeIn = wire("notice_in", notices.pop.valid().and(beatIn.not()).and(initializing.not()));
        notices.pop.ready().set(noticeIn);
        Expr inQueue = Hw.cat(PackingBuffer.CommandUser.dst(in.tuser()).bits(dw - 1, 0),
                PackingBuffer.CommandUser.vc(in.tuser()));
        // a notice: {queue, first cell left behind, the first cell, last cell, end offset in it 1..cb}
        Expr noticeQueue = notices.pop.data().bits(qw + 2 * aw + fw, 2 * aw + fw + 1);
        Expr aQueue = wire("a_queue", Hw.mux(beatIn, inQueue, noticeQueue));
        Expr rowRead = tailTable.readSync("row_read", aQueue, Hw.lit(1, 1));
        Reg aFirst = reg("first_beat", 1, 1);  // the next beat starts a command
        Reg aLeft = reg("bytes_left", bw, 0);  // bytes of the command not yet taken
        Expr left = wire("left", Hw.mux(aFirst, PackingBuffer.CommandUser.bytes(in.tuser()), aLeft));
        Expr beatBytes = wire("beat_bytes", Hw.mux(left.le(cb), left.resize(fw), Hw.lit(fw, cb)));
        when(beatIn, () -> {
            aFirst.set(in.tlast());
            aLeft.set(left.sub(cb));
        });
        unused("keep", in.tkeep());

        Reg bValid = reg("b_valid", 1, 0);
        Reg bBeat = reg("b_beat", 1, 0);
        Reg bQueue = reg("b_queue", qw, 0);
        Reg bFirst = reg("b_first", 1, 0);
        Reg bLast = reg("b_last", 1, 0);
        Reg bBytes = reg("b_bytes", fw, 0);     // bytes in the beat, 1..cb
        Reg bCmdBytes = reg("b_cmd_bytes", bw, 0);
        Reg bCmdData = reg("b_cmd_data", 1, 0);
        Reg bData = regNoReset("b_data", w);
        Reg bFirstGone = reg("b_notice_first_gone", 1, 0); // notice: the run left its first cell behind
        Reg bFirstCell = reg("b_notice_first", aw, 0);
        Reg bCell = reg("b_notice_cell", aw, 0); // the run's last cell and its end offset 1..cb
        Reg bEnd = reg("b_notice_end", fw, 0);
        bValid.set(beatIn.or(noticeIn));
        bBeat.set(beatIn);
        bQueue.set(aQueue);
        when(beatIn, () -> {
            bFirst.set(aFirst);
            bLast.set(in.tlast());
            bBytes.set(beatBytes);
            bData.set(in.tdata());
            when(aFirst, () -> {
                bCmdBytes.set(PackingBuffer.CommandUser.bytes(in.tuser()));
                bCmdData.set(PackingBuffer.CommandUser.hasData(in.tuser()));
            });
        });
        when(noticeIn, () -> {
            bFirstGone.set(notices.pop.data().bit(2 * aw + fw));
            bFirstCell.set(notices.pop.data().bits(2 * aw + fw - 1, aw + fw));
            bCell.set(notices.pop.data().bits(aw + fw - 1, fw));
            bEnd.set(notices.pop.data().bits(fw - 1, 0));
        });

        // ---- writer stage B: write the beat into the tail cell's free lanes and a new cell, or judge a notice -------
        Reg fwdValid = reg("fwd_valid", 1, 0);
        Reg fwdQueue = reg("fwd_queue", qw, 0);
        Reg fwdRow = reg("fwd_row", rowWidth, 0);
        Expr row = wire("row", Hw.mux(fwdValid.and(fwdQueue.eq(bQueue)), fwdRow, rowRead));
        Expr hasTail = row.bit(rowWidth - 1);
        Expr tail = row.bits(aw + fw - 1, fw);
        Expr fill = row.bits(fw - 1, 0);
        Expr isBeat = wire("is_beat", bValid.and(bBeat));
        Expr isNotice = wire("is_notice", bValid.and(bBeat.not()));
        // room in the tail cell: the beat starts there at lane `fill`; else it starts at lane 0 of a new cell
        Expr room = wire("room", hasTail.and(fill.ne(cb)));
        Expr rot = wire("rot", Hw.mux(room, fill.bits(ow - 1, 0), Hw.zeros(ow)));
        Expr spaceLeft = wire("space_left", Hw.lit(fw + 1, cb).sub(fill.resize(fw + 1)));
        Expr spills = wire("spills", room.not().or(bBytes.resize(fw + 1).gt(spaceLeft)));
        Expr allocNow = wire("alloc_now", isBeat.and(spills));
        consume.set(allocNow);
        Reg overflow = reg("overflow_flag", 1, 0);
        when(allocNow.and(spareValid.not()), () -> overflow.set(1)); // the input's ready should have prevented it
        overflowError.set(overflow);
        Expr endPos = wire("end_pos", rot.resize(fw + 1).add(bBytes.resize(fw + 1))); // one past the beat's last lane
        Expr lowLanes = wire("low_lanes", Hw.mux(endPos.gt(cb), endPos.sub(cb), Hw.zeros(fw + 1))); // in the new cell
        Expr highEnd = wire("high_end", Hw.mux(endPos.gt(cb), Hw.lit(fw + 1, cb), endPos));
        Expr firstCell = wire("first_cell", Hw.mux(room, tail, spare)); // where lanes at and above rot go
        Expr doubled = Hw.cat(bData, bData);
        Expr rotated = wire("rotated", doubled.shl(Hw.cat(rot, Hw.lit(3, 0))).bits(2 * w - 1, w));
        Expr highMask = wire("high_mask", Keep.below(highEnd, cb).and(Keep.below(rot.resize(fw + 1), cb).not()));
        Expr lowMask = wire("low_mask", Keep.below(lowLanes, cb));
        for (int i = 0; i < cb; i++) {
            Expr high = highMask.bit(i);
            lanes.get(i).write(isBeat.and(high.or(lowMask.bit(i))), Hw.mux(high, firstCell, spare),
                    rotated.bits(8 * i + 7, 8 * i));
        }
        // the stream goes on from the old tail into the new cell
        cellLink.write(allocNow.and(hasTail), tail, spare);
        Expr beatTailCell = Hw.mux(spills, spare, tail);
        Expr beatFill = Hw.mux(spills, Hw.mux(room, lowLanes, endPos), endPos);
        // a notice: the run ended at (cell, end); free the cell if nothing follows the run in it and nothing will
        Expr tailHere = wire("tail_here", hasTail.and(tail.eq(bCell)));
        Expr dropTail = wire("drop_tail", isNotice.and(tailHere).and(fill.eq(bEnd)));
        Expr reclaim = wire("reclaim", dropTail.or(isNotice.and(tailHere.not()).and(bEnd.eq(cb))));
        Expr newRow = wire("new_row", Hw.mux(isBeat, Hw.cat(Hw.lit(1, 1), beatTailCell, beatFill.resize(fw)),
                Hw.mux(dropTail, Hw.zeros(rowWidth), row)));
        tailTable.write(bValid.or(initializing), Hw.mux(initializing, initRow.bits(qw - 1, 0), bQueue),
                Hw.mux(initializing, Hw.zeros(rowWidth), newRow));
        fwdValid.set(bValid);
        fwdQueue.set(bQueue);
        fwdRow.set(newRow);
        // the run's first cell, left behind: free now that the notice of the run before, which ended in it, is judged
        Expr firstGone = wire("first_gone", isNotice.and(bFirstGone));
        freedFirst.push.valid().set(firstGone);
        freedFirst.push.data().set(bFirstCell);
        freedLast.push.valid().set(reclaim);
        freedLast.push.data().set(bCell);
        // where the command starts: its first beat's first lane
        Reg cmdCell = reg("cmd_cell", aw, 0);
        Reg cmdOffset = reg("cmd_offset", ow, 0);
        when(isBeat.and(bFirst), () -> {
            cmdCell.set(firstCell);
            cmdOffset.set(rot);
        });
        storedValid.set(isBeat.and(bLast));
        storedQueue.set(bQueue);
        storedBytes.set(bCmdBytes);
        storedData.set(bCmdData);
        storedCell.set(Hw.mux(bFirst, firstCell, cmdCell));
        storedOffset.set(Hw.mux(bFirst, rot, cmdOffset));

        // ---- reader: a beat per cycle; lanes at and above the offset from the current cell, the rest from the next --
        Reg reading = reg("reading", 1, 0);
        Reg rQueue = reg("read_queue", qw, 0);
        Reg rCell = reg("read_cell", aw, 0);
        Reg rOffset = reg("read_offset", ow, 0);
        Reg rLeft = reg("read_left", RUN_WIDTH, 0); // bytes of the run not yet read
        Reg rFirst = reg("read_first_beat", 1, 0);
        Reg rFirstCell = reg("read_first_cell", aw, 0);
        Reg rFirstGone = reg("read_first_gone", 1, 0);
        Reg outstanding = reg("out_outstanding", Hw.log2Up(OUT_DEPTH + 1), 0);
        Wire linkAddr = wire("link_addr", aw);
        Expr nextCell = cellLink.readSync("next_cell", linkAddr, Hw.lit(1, 1));
        Expr lastBeat = wire("read_last_beat", rLeft.le(cb));
        Expr toCellEnd = wire("to_cell_end", Hw.lit(fw, cb).sub(rOffset.resize(fw)));
        Expr passes = wire("passes_cell", rLeft.gt(toCellEnd.resize(RUN_WIDTH))); // the run goes on into nextCell
        Expr outRoom = wire("out_room", outstanding.lt(OUT_DEPTH));
        Expr readBeat = wire("read_beat", reading.and(outRoom).and(lastBeat.not().or(notices.push.ready())));
        Expr runDone = wire("run_done", readBeat.and(lastBeat));
        Expr accept = wire("accept_run", rdValid.and(reading.not().or(runDone)).and(initializing.not()));
        rdReady.set(accept);
        // next_cell shows the link of the cell after the current one: the next run's first cell when a run starts,
        // the next link when a beat is read, the same link again while the reader waits
        linkAddr.set(Hw.mux(accept, rdCell, Hw.mux(readBeat, nextCell, rCell)));
        when(readBeat, () -> {
            rCell.set(nextCell);
            rLeft.set(rLeft.sub(cb));
            rFirst.set(0);
            when(rFirst, () -> rFirstGone.set(passes));
        });
        when(runDone, () -> reading.set(0));
        when(accept, () -> {
            reading.set(1);
            rQueue.set(rdQueue);
            rCell.set(rdCell);
            rOffset.set(rdOffset);
            rLeft.set(rdBytes);
            rFirst.set(1);
            rFirstCell.set(rdCell);
        });
        Expr readEnable = wire("read_enable", readBeat);
        List<Expr> laneData = new ArrayList<>(); // lane cb-1 first: Hw.cat puts its first part on top
        Expr lowRead = Keep.below(rOffset.resize(fw), cb);
        for (int i = cb - 1; i >= 0; i--) {
            laneData.add(lanes.get(i).readSync("read_" + i, Hw.mux(lowRead.bit(i), nextCell, rCell), readEnable));
        }
        // a cell left behind goes back, except the run's first: the run before may have ended in it, and its notice
        // must be judged first; so the first and the last cell go to the writer in the run's notice
        freedByReader.push.valid().set(readBeat.and(passes).and(rFirst.not()));
        freedByReader.push.data().set(rCell);
        notices.push.valid().set(runDone);
        notices.push.data().set(Hw.cat(rQueue, Hw.mux(rFirst, passes, rFirstGone), rFirstCell,
                Hw.mux(passes, nextCell, rCell),
                Hw.mux(passes, rLeft.sub(toCellEnd.resize(RUN_WIDTH)).resize(fw),
                        rOffset.resize(fw).add(rLeft.resize(fw)))));

        // the data comes a cycle later: rotate it back to byte 0 and queue it for m_axis
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
        SyncFifo outFifo = child("out_fifo", new SyncFifo(new SyncFifo.Config(w + fw + 1 + qw, OUT_DEPTH, false)));
        unused("out_never_full", outFifo.push.ready()); // a beat is read only with room for it
        outFifo.push.valid().set(pValid);
        outFifo.push.data().set(Hw.cat(pQueue, pLast, pBytes, back));
        out.tvalid().set(outFifo.pop.valid());
        out.tdata().set(outFifo.pop.data().bits(w - 1, 0));
        out.tkeep().set(Keep.below(outFifo.pop.data().bits(w + fw - 1, w), cb));
        out.tlast().set(outFifo.pop.data().bit(w + fw));
        out.tuser().set(outFifo.pop.data().bits(w + fw + qw, w + fw + 1));
        outFifo.pop.ready().set(out.tready());
        Expr beatOut = wire("beat_out", out.tvalid().and(out.tready()));
        outstanding.set(outstanding.add(readBeat.resize(outstanding.width())).sub(beatOut.resize(outstanding.width())));

        // ---- accounting -------------------------------------------------------------------------------------------
        Reg inUse = reg("cells_in_use_reg", aw + 1, 0);
        Expr returnedNow = wire("returned_now", firstGone.resize(2).add(reclaim.resize(2)));
        Expr freedNow = wire("freed_now", freedByReader.push.valid().resize(2).add(returnedNow));
        inUse.set(inUse.add(allocNow.resize(aw + 1)).sub(freedNow.resize(aw + 1)));
        cellsInUse.set(inUse);
        cellAllocValid.set(allocNow);
        cellAllocVc.set(bQueue.bits(1, 0));
        cellFreedValid.set(freedByReader.push.valid());
        cellFreedVc.set(rQueue.bits(1, 0));
        cellReturnedCount.set(returnedNow);
        cellReturnedVc.set(bQueue.bits(1, 0));
    }

    public Config config() {
        return config;
    }

    @Override
    public String moduleName() {
        return "QueueStore_w" + config.cellWidth() + "_c" + config.cells() + "_d" + config.destinations();
    }

    @Override
    public Map<String, Object> parameters() {
        return Map.of("cellWidth", config.cellWidth(), "cells", config.cells(), "destinations",
                config.destinations());
    }
}
