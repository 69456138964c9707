package org.sue.lib.stream;

import org.sue.core.Tag;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;

/**
 * Store-and-forward packet FIFO for a receive path that cannot be stalled, with the verdict on each packet coming
 * after its last beat: a packet is shown at the output only once its verdict has said "keep", and then whole; a
 * packet judged bad never emerges, not even partly. A packet that does not fit in the free space is dropped whole
 * too (its verdict is still consumed). Throughput: one beat in and one beat out per cycle.
 *
 * <p>Input: {@code s_axis_*} without tready or tuser (the writer never waits). Verdicts: {@code verdict_valid},
 * {@code verdict_drop}, {@code verdict_user} (the packet's tuser, held for all its output beats), one per input packet, in packet
 * order, at least two cycles after the packet's last beat. Each packet's end is queued when its last beat arrives;
 * a verdict takes the oldest end and, if the packet left any beats in memory, queues a descriptor {end, keep, user}.
 * The read side follows the descriptors: it streams a kept packet and jumps over a dropped one. So no packet has to
 * be rolled back while the next one is already being written.
 *
 * <p>{@code kept} tells, at the verdict, that a packet will leave: its buffer space stays taken until its last beat
 * leaves (what a receive buffer's flow control counts).
 *
 * <p>Counters (saturating): {@code drops_bad}, {@code drops_overflow}. {@code protocol_error} (sticky) reports a
 * verdict without a packet or more packets waiting for their verdicts than {@code pendingDepth} (and, as a check on
 * this block, a full descriptor queue, which cannot happen).
 */
public final class PacketFifo extends Component {
    public record Config(StreamConfig stream, @Tag("d") int depth, @Tag("p") int pendingDepth) {
        public Config(StreamConfig stream, int depth) {
            this(stream, depth, 8);
        }

        public Config {
            if (stream == null) {
                throw new IllegalArgumentException("PacketFifo stream configuration must be given");
            }
            if (depth < 4 || depth > 65536 || Integer.bitCount(depth) != 1) {
                throw new IllegalArgumentException("PacketFifo depth must be a power of two from 4 to 65536 beats, got "
                        + depth);
            }
            if (pendingDepth < 2 || pendingDepth > 64) {
                throw new IllegalArgumentException("PacketFifo pendingDepth must be 2..64 packets, got " + pendingDepth);
            }
        }
    }

    /** Beats in: {@code s_axis_*} without tready or tuser (the writer never waits). */
    public final Flow in;
    /** One verdict per input packet, in order: {@code verdict_valid}, {@code verdict_drop}, {@code verdict_user}. */
    public final Flow verdict;
    public final Stream out;
    /** A packet was judged to be kept and is in memory: it will leave on {@code out}; its user as the verdict's. */
    public final Flow kept;
    public final Port dropsBad;
    public final Port dropsOverflow;
    public final Port protocolError;
    private final Config config;

    public PacketFifo(Config config) {
        super(config);
        this.config = config;
        StreamConfig sc = config.stream();
        int w = sc.dataWidth();
        int u = sc.userWidth();
        Layout beat = Stream.packet(w, 0);
        in = Flow.slave(this, "s_axis", beat);
        verdict = Flow.slave(this, "verdict", Layout.of("verdict", Layout.bits("drop", 1),
                Layout.bits("user", u)));
        out = Stream.master(this, sc);
        kept = Flow.master(this, "kept", Layout.of("kept", Layout.bits("user", u)));
        dropsBad = out("drops_bad", 32);
        dropsOverflow = out("drops_overflow", 32);
        protocolError = out("protocol_error", 1);

        Mem ram = mem("ram", config.depth(), beat.width(), ReadUnderWrite.READ_FIRST);
        int aw = ram.addressWidth();
        int pw = aw + 1; // pointers one bit wider than the address: equal = empty, differing only in the top bit = full
        Reg write = reg("wr_ptr", pw, 0);
        Reg start = reg("start_ptr", pw, 0);  // first beat of the packet being written
        Reg read = reg("rd_ptr", pw, 0);
        Reg discarding = reg("discarding", 1, 0); // the packet being written no longer fits
        Reg error = reg("protocol_error_flag", 1, 0);

        // write side
        Expr full = wire("full", write.sub(read).eq(config.depth()));
        Expr store = wire("store", in.valid().and(discarding.not()).and(full.not()));
        Expr overflowNow = wire("overflow_now", in.valid().and(discarding.not()).and(full));
        Expr nextWrite = wire("next_write", Hw.mux(store, write.add(1), write));
        ram.write(store, write.bits(aw - 1, 0), in.payload());
        write.set(nextWrite);
        Expr packetEnd = wire("packet_end", in.valid().and(in.tlast()));
        when(packetEnd, () -> {
            start.set(nextWrite);
            discarding.set(0);
        }).elseWhen(overflowNow, () -> discarding.set(1));

        // packets waiting for their verdict
        Layout waiting = Layout.of("waiting", Layout.bits("end", pw), Layout.bits("overflowed", 1),
                Layout.bits("has_beats", 1));
        SyncFifo pending = child("pending", new SyncFifo(new SyncFifo.Config(waiting.width(), config.pendingDepth(),
                false)));
        pending.push.valid().set(packetEnd);
        pending.push.data().set(waiting.expr().set("has_beats", nextWrite.ne(start))
                .set("overflowed", discarding.or(overflowNow)).set("end", nextWrite).build());
        Expr pendingEnd = waiting.get(pending.pop.data(), "end");
        Expr overflowed = waiting.get(pending.pop.data(), "overflowed");
        Expr hasBeats = waiting.get(pending.pop.data(), "has_beats");
        pending.pop.ready().set(verdict.valid());
        when(packetEnd.and(pending.push.ready().not()).or(verdict.valid().and(pending.pop.valid().not())),
                () -> error.set(1));
        Expr judged = wire("judged", verdict.valid().and(pending.pop.valid()));
        Reg overflowCount = saturatingCounter("drops_overflow_count", 32, judged.and(overflowed));
        Reg badCount = saturatingCounter("drops_bad_count", 32, judged.and(verdict.field("drop"))
                .and(overflowed.not()));

        // packets judged, in order; at most one per beat in memory, so it cannot fill
        Layout descriptor = Layout.of("descriptor", Layout.bits("end", pw), Layout.bits("keep", 1),
                Layout.bits("user", u));
        SyncFifo judgedQueue = child("judged_queue", new SyncFifo(new SyncFifo.Config(descriptor.width(),
                config.depth(), false)));
        judgedQueue.push.valid().set(judged.and(hasBeats));
        when(judged.and(hasBeats).and(judgedQueue.push.ready().not()), () -> error.set(1));
        judgedQueue.push.data().set(descriptor.expr().set("user", verdict.field("user"))
                .set("keep", verdict.field("drop").or(overflowed).not()).set("end", pendingEnd).build());
        kept.valid().set(judged.and(hasBeats).and(verdict.field("drop").or(overflowed).not()));
        kept.field("user").set(verdict.field("user"));
        Expr descEnd = descriptor.get(judgedQueue.pop.data(), "end");
        Expr descKeep = descriptor.get(judgedQueue.pop.data(), "keep");
        Expr descUser = descriptor.get(judgedQueue.pop.data(), "user");

        // read side: stream a kept packet through the output register, jump over a dropped one
        Expr skip = wire("skip", judgedQueue.pop.valid().and(descKeep.not()));
        Stream.RamRead word = Stream.fromRam("out", ram, read.bits(aw - 1, 0), judgedQueue.pop.valid().and(descKeep),
                beat);
        Expr load = word.load();
        Expr lastOfPacket = wire("last_of_packet", read.add(1).eq(descEnd));
        when(skip, () -> read.set(descEnd)).elseWhen(load, () -> read.set(read.add(1)));
        judgedQueue.pop.ready().set(skip.or(load.and(lastOfPacket)));
        Reg outUser = regNoReset("out_user", u);
        when(load, () -> outUser.set(descUser));

        out.tvalid().set(word.out().valid());
        out.tdata().set(word.out().tdata());
        out.tkeep().set(word.out().tkeep());
        out.tlast().set(word.out().tlast());
        out.tuser().set(outUser);
        word.out().ready().set(out.tready());
        dropsBad.set(badCount);
        dropsOverflow.set(overflowCount);
        protocolError.set(error);
    }
}
