package org.sue.lib.stream;

import org.sue.core.Tag;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Reg;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;

/**
 * Appends the 32-bit CRC of each packet (IEEE 802.3 by default: the R-CRC and the Ethernet FCS), least significant
 * byte first, at one beat per cycle.
 *
 * <p>Input beats go into the CRC unit and, in parallel, into a beat FIFO; the CRC unit's results go into a small
 * result FIFO. A packet's last beat leaves the beat FIFO together with its CRC: the four CRC bytes go into the
 * lanes after the last data byte (per lane a choice among four bytes, picked by the one-hot "first free lane"), and
 * when fewer than four lanes are free the rest go into one extra tail beat. A packet's CRC is ready four cycles
 * after its last beat entered (CRC unit 2, result FIFO 2); the beat FIFO absorbs that, so after a four-cycle fill
 * back-to-back packets leave at one beat per cycle and the only extra beats are the tail beats. The result FIFO
 * holds one CRC per packet the beat FIFO can hold, so it never overflows.
 */
public final class StreamCrcAppend extends Component {
    public record Config(StreamConfig stream, CrcParams crc, @Tag("d") int fifoDepth) {
        public Config {
            if (stream == null || crc == null) {
                throw new IllegalArgumentException("StreamCrcAppend stream and crc parameters must be given");
            }
            if (crc.width() != 32) {
                throw new IllegalArgumentException("StreamCrcAppend appends a 32-bit CRC; crc width is " + crc.width());
            }
            if (fifoDepth < 4 || fifoDepth > 64) {
                throw new IllegalArgumentException("StreamCrcAppend fifoDepth must be 4..64 beats, got " + fifoDepth);
            }
        }
    }

    public final Stream in;
    public final Stream out;
    private final Config config;

    public StreamCrcAppend(Config config) {
        super(config);
        this.config = config;
        StreamConfig sc = config.stream();
        int lanes = sc.lanes();
        int w = sc.dataWidth();
        int u = sc.userWidth();
        in = Stream.slave(this, sc);
        out = Stream.master(this, sc);

        ParallelCrc crc = child("crc_unit", new ParallelCrc(new ParallelCrc.Config(config.crc(), w)));
        SyncFifo beats = child("beat_fifo", new SyncFifo(new SyncFifo.Config(w + lanes + 1 + u, config.fifoDepth(), false)));
        SyncFifo crcs = child("crc_fifo", new SyncFifo(new SyncFifo.Config(32, config.fifoDepth() + 4, false)));

        // the result FIFO is sized never to fill; gating on it anyway keeps a sizing mistake from losing a CRC
        Expr room = wire("room", beats.push.ready().and(crcs.push.ready()));
        Expr inFire = wire("in_fire", in.fire());
        in.tready().set(room);
        crc.in.valid().set(inFire);
        crc.in.tdata().set(in.tdata());
        crc.in.tkeep().set(in.tkeep());
        crc.in.tlast().set(in.tlast());
        beats.push.valid().set(inFire); // only when there is room: a push while full would raise the FIFO's overflow flag
        beats.push.data().set(Hw.cat(in.tuser(), in.tlast(), in.tkeep(), in.tdata()));
        crcs.push.valid().set(crc.crc.valid());
        crcs.push.data().set(crc.crc.field("value"));

        Expr data = wire("beat_data", beats.pop.data().bits(w - 1, 0));
        Expr keep = wire("beat_keep", beats.pop.data().bits(w + lanes - 1, w));
        Expr last = wire("beat_last", beats.pop.data().bit(w + lanes));
        Expr user = wire("beat_user", beats.pop.data().bits(w + lanes + u, w + lanes + 1));
        Expr value = wire("crc_value", crcs.pop.data());

        Reg tail = reg("tail", 1, 0);
        Reg tailData = regNoReset("tail_data", 32);
        Reg tailKeep = regNoReset("tail_keep", 4);
        Reg tailUser = regNoReset("tail_user", u);

        // the CRC's bytes land right after the data bytes of a last beat (keep: a thermometer code with lane 0 set):
        // the value shifted up by the data bytes' count, computed on whole words rather than lane by lane
        Expr count = wire("data_bytes", Keep.count(keep, Hw.log2Up(lanes) + 1));
        Expr some = keep.bit(0);
        Expr placed = wire("crc_placed", Hw.mux(some, value.resize(w).shl(Hw.cat(count, Hw.zeros(3))), Hw.zeros(w)));
        Expr mergedData = wire("merged_data", data.and(Keep.byteMask(keep)).or(placed));
        Expr mergedKeep = wire("merged_keep", keep.or(Hw.mux(some, Hw.lit(lanes, 0xF).shl(count), Hw.zeros(lanes))));
        // more than lanes-4 data bytes: CRC bytes m..3 spill into a tail beat, m = free lanes in the last beat
        Expr spill = wire("spill", last.and(keep.bit(lanes - 4)));
        Expr tailShift = Hw.mux(keep.bit(lanes - 1), Hw.lit(2, 0),
                Hw.mux(keep.bit(lanes - 2), Hw.lit(2, 1), Hw.mux(keep.bit(lanes - 3), Hw.lit(2, 2), Hw.lit(2, 3))));

        Expr needsCrc = last;
        Expr beatReady = wire("beat_ready", beats.pop.valid().and(needsCrc.not().or(crcs.pop.valid())));
        out.tvalid().set(tail.or(beatReady));
        out.tdata().set(Hw.mux(tail, tailData.resize(w), Hw.mux(last, mergedData, data)));
        out.tkeep().set(Hw.mux(tail, tailKeep.resize(lanes), Hw.mux(last, mergedKeep, Hw.ones(lanes))));
        out.tlast().set(tail.or(last.and(spill.not())));
        out.tuser().set(Hw.mux(tail, tailUser, user));

        Expr take = wire("take", out.tready().and(tail.not()).and(beatReady));
        beats.pop.ready().set(take);
        crcs.pop.ready().set(take.and(last));
        when(tail.and(out.tready()), () -> tail.set(0));
        when(take.and(spill), () -> {
            tail.set(1);
            tailData.set(value.shr(Hw.cat(tailShift, Hw.zeros(3)).resize(32)));
            tailKeep.set(Hw.ones(4).shr(tailShift.resize(4)));
            tailUser.set(user);
        });
    }

    public Config config() {
        return config;
    }
}
