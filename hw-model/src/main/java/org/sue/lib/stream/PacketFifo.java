package org.sue.lib.stream;

import java.util.Map;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.lib.SyncFifo;

/**
 * Store-and-forward packet FIFO for a receive path that cannot be stalled, with the verdict on each packet coming
 * after its last beat: a packet is shown at the output only once its verdict has said "keep", and then whole; a
 * packet judged bad never emerges, not even partly. A packet that does not fit in the free space is dropped whole
 * too (its verdict is still consumed). Throughput: one beat in and one beat out per cycle.
 *
 * <p>Input: {@code s_axis_*} without tready or tuser (the writer never waits). Verdicts: {@code v_valid},
 * {@code v_drop}, {@code v_user} (the packet's tuser, held for all its output beats), one per input packet, in packet
 * order, at least two cycles after the packet's last beat. Each packet's end is queued when its last beat arrives;
 * a verdict takes the oldest end and, if the packet left any beats in memory, queues a descriptor {end, keep, user}.
 * The read side follows the descriptors: it streams a kept packet and jumps over a dropped one. So no packet has to
 * be rolled back while the next one is already being written.
 *
 * <p>Counters (saturating): {@code drops_bad}, {@code drops_overflow}. {@code protocol_error} (sticky) reports a
 * verdict without a packet or more packets waiting for their verdicts than {@code pendingDepth} (and, as a check on
 * this block, a full descriptor queue, which cannot happen).
 */
public final class PacketFifo extends Component {
    public record Config(StreamConfig stream, int depth, int pendingDepth) {
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

    public final Port inData;
    public final Port inKeep;
    public final Port inValid;
    public final Port inLast;
    public final Port verdictValid;
    public final Port verdictDrop;
    public final Port verdictUser;
    public final Stream out;
    public final Port dropsBad;
    public final Port dropsOverflow;
    public final Port protocolError;
    private final Config config;

    public PacketFifo(Config config) {
        this.config = config;
        StreamConfig sc = config.stream();
        int w = sc.dataWidth();
        int lanes = sc.lanes();
        int u = sc.userWidth();
        inData = in("s_axis_tdata", w);
        inKeep = in("s_axis_tkeep", lanes);
        inValid = in("s_axis_tvalid", 1);
        inLast = in("s_axis_tlast", 1);
        verdictValid = in("v_valid", 1);
        verdictDrop = in("v_drop", 1);
        verdictUser = in("v_user", u);
        out = Stream.master(this, sc);
        dropsBad = out("drops_bad", 32);
        dropsOverflow = out("drops_overflow", 32);
        protocolError = out("protocol_error", 1);

        Mem ram = mem("ram", config.depth(), w + lanes + 1, ReadUnderWrite.READ_FIRST);
        int aw = ram.addressWidth();
        int pw = aw + 1; // pointers one bit wider than the address: equal = empty, differing only in the top bit = full
        Reg write = reg("wr_ptr", pw, 0);
        Reg start = reg("start_ptr", pw, 0);  // first beat of the packet being written
        Reg read = reg("rd_ptr", pw, 0);
        Reg discarding = reg("discarding", 1, 0); // the packet being written no longer fits
        Reg error = reg("protocol_error_flag", 1, 0);

        // write side
        Expr full = wire("full", write.sub(read).eq(config.depth()));
        Expr store = wire("store", inValid.and(discarding.not()).and(full.not()));
        Expr overflowNow = wire("overflow_now", inValid.and(discarding.not()).and(full));
        Expr nextWrite = wire("next_write", Hw.mux(store, write.add(1), write));
        ram.write(store, write.bits(aw - 1, 0), Hw.cat(inLast, inKeep, inData));
        write.set(nextWrite);
        Expr packetEnd = wire("packet_end", inValid.and(inLast));
        when(packetEnd, () -> {
            start.set(nextWrite);
            discarding.set(0);
        }).elseWhen(overflowNow, () -> discarding.set(1));

        // packets waiting for their verdict: {beats left in memory, overflowed, end}
        SyncFifo pending = child("pending", new SyncFifo(new SyncFifo.Config(pw + 2, config.pendingDepth(), false)));
        pending.push.valid().set(packetEnd);
        pending.push.data().set(Hw.cat(nextWrite.ne(start), discarding.or(overflowNow), nextWrite));
        Expr pendingEnd = pending.pop.data().bits(pw - 1, 0);
        Expr overflowed = pending.pop.data().bit(pw);
        Expr hasBeats = pending.pop.data().bit(pw + 1);
        pending.pop.ready().set(verdictValid);
        when(packetEnd.and(pending.push.ready().not()).or(verdictValid.and(pending.pop.valid().not())),
                () -> error.set(1));
        Expr judged = wire("judged", verdictValid.and(pending.pop.valid()));
        Reg overflowCount = saturatingCounter("drops_overflow_count", 32, judged.and(overflowed));
        Reg badCount = saturatingCounter("drops_bad_count", 32, judged.and(verdictDrop).and(overflowed.not()));

        // packets judged, in order: {user, keep, end}; at most one per beat in memory, so it cannot fill
        SyncFifo judgedQueue = child("judged_queue", new SyncFifo(new SyncFifo.Config(u + 1 + pw, config.depth(), false)));
        judgedQueue.push.valid().set(judged.and(hasBeats));
        when(judged.and(hasBeats).and(judgedQueue.push.ready().not()), () -> error.set(1));
        judgedQueue.push.data().set(Hw.cat(verdictUser, verdictDrop.or(overflowed).not(), pendingEnd));
        Expr descEnd = judgedQueue.pop.data().bits(pw - 1, 0);
        Expr descKeep = judgedQueue.pop.data().bit(pw);
        Expr descUser = judgedQueue.pop.data().bits(pw + u, pw + 1);

        // read side: stream a kept packet into the output register, jump over a dropped one
        Reg outValid = reg("out_valid", 1, 0);
        Reg outUser = regNoReset("out_user", u);
        Expr pop = wire("pop", outValid.and(out.tready()));
        Expr skip = wire("skip", judgedQueue.pop.valid().and(descKeep.not()));
        Expr load = wire("load", judgedQueue.pop.valid().and(descKeep).and(outValid.not().or(pop)));
        Expr lastOfPacket = wire("last_of_packet", read.add(1).eq(descEnd));
        Expr word = ram.readSync("out_word", read.bits(aw - 1, 0), load);
        when(skip, () -> read.set(descEnd)).elseWhen(load, () -> read.set(read.add(1)));
        judgedQueue.pop.ready().set(skip.or(load.and(lastOfPacket)));
        when(load, () -> {
            outValid.set(1);
            outUser.set(descUser);
        }).elseWhen(pop, () -> outValid.set(0));

        out.tvalid().set(outValid);
        out.tdata().set(word.bits(w - 1, 0));
        out.tkeep().set(word.bits(w + lanes - 1, w));
        out.tlast().set(word.bit(w + lanes));
        out.tuser().set(outUser);
        dropsBad.set(badCount);
        dropsOverflow.set(overflowCount);
        protocolError.set(error);
    }

    @Override
    public String moduleName() {
        return "PacketFifo_w" + config.stream().dataWidth() + "_u" + config.stream().userWidth() + "_d" + config.depth()
                + "_p" + config.pendingDepth();
    }

    @Override
    public Map<String, Object> parameters() {
        return Map.of("dataWidth", config.stream().dataWidth(), "userWidth", config.stream().userWidth(),
                "depth", config.depth(), "pendingDepth", config.pendingDepth());
    }
}
