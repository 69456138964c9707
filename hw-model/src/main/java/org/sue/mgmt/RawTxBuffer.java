package org.sue.mgmt;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;
import org.sue.core.Status;
import org.sue.core.Tag;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamCrcAppend;
import org.sue.lib.stream.StreamPad;

/**
 * The raw-frame transmit buffer (SUE spec 3.1, docs/management.md "Raw packets"): software writes one Ethernet frame
 * without its FCS, four bytes at a time ({@code words}: the frame's bytes 4k..4k+3 in bits 7:0 up), then sends it
 * ({@code send}: its length in bytes). The buffer pads it to 60 bytes, appends the FCS and streams it on
 * {@code m_axis} at one beat per cycle ({@code tuser} 0). It holds one frame: words and sends while a frame is
 * being sent are refused and counted.
 *
 * <p>A send is refused (counted in {@code rejected}; its words are discarded) when its length is below
 * {@value #MIN_FRAME_BYTES} bytes (the addresses and the EtherType), above {@code frameBytes}, more than the words
 * written since the last send hold, or while a frame is being sent. Words beyond the buffer (the largest frame in
 * whole beats) or while a frame is being sent are dropped and counted ({@code words_dropped}).
 */
public final class RawTxBuffer extends Component {
    /** The smallest frame a send takes: destination, source, EtherType. */
    public static final int MIN_FRAME_BYTES = 14;
    /** Bytes before the FCS of the shortest Ethernet frame: shorter frames are padded with zeros. */
    public static final int PADDED_BYTES = 60;

    /**
     * @param busWidth   bits of the MAC stream
     * @param frameBytes the largest frame without its FCS
     */
    public record Config(@Tag("w") int busWidth, @Tag("f") int frameBytes) {
        public Config {
            StreamConfig.DATA_WIDTH.check("RawTxBuffer", "busWidth", busWidth);
            if (busWidth < 128) {
                throw new ConfigException("RawTxBuffer", "{busWidth} must be at least 128 bits, got " + busWidth);
            }
            if (frameBytes < PADDED_BYTES || frameBytes > 16380) {
                throw new ConfigException("RawTxBuffer", "{frameBytes} must be " + PADDED_BYTES + "..16380 (the"
                        + " largest frame without its FCS), got " + frameBytes);
            }
        }

        /** Beats of the largest frame: the buffer's rows (at least 2, a memory's least depth). */
        public int rows() {
            return Math.max(2, (frameBytes + busWidth / 8 - 1) / (busWidth / 8));
        }

        /** Bits of a frame length. */
        public int lengthWidth() {
            return Hw.log2Up(frameBytes + 1L);
        }
    }

    /** Four bytes of the frame, in order. */
    public final Flow words;
    /** Send the frame of {@code length} bytes written since the last send. */
    public final Flow send;
    /** The frame with its padding and FCS. */
    public final Stream out;
    private final Config config;

    public RawTxBuffer(Config config) {
        super(config);
        this.config = config;
        int w = config.busWidth();
        words = Flow.slave(this, "words", Layout.plain("data", AxiLite.DATA_BITS));
        send = Flow.slave(this, "send", Layout.plain("length", config.lengthWidth()));
        StreamConfig frames = new StreamConfig(w, 1);
        out = Stream.master(this, frames);

        Mem buffer = mem("frame_rows", config.rows(), w, ReadUnderWrite.READ_FIRST);
        Reg busy = reg("sending", 1, 0);
        Reg written = reg("words_written", Hw.log2Up((long) config.rows() * (w / 32) + 1), 0);
        Send sent = sends(busy, written);
        writeWords(buffer, busy, written);
        Stream frame = readFrame(buffer, busy, sent);
        StreamPad pad = child("pad", new StreamPad(new StreamPad.Config(frames, PADDED_BYTES)));
        // the least beat FIFO: one frame at a time needs no back-to-back rate, and each beat held is a bus of flip-flops
        StreamCrcAppend fcs = child("fcs_append", new StreamCrcAppend(new StreamCrcAppend.Config(frames,
                CrcParams.CRC32, 4)));
        frame.into(pad.in);
        pad.out.into(fcs.in);
        fcs.out.into(out);
        status("busy", Status.Kind.STATE, busy, "1 while a frame is being sent: words and sends wait for 0");
    }

    public Config config() {
        return config;
    }

    /** The frame being sent: its last beat and that beat's lanes, set by the send that started it. */
    private record Send(Reg lastBeat, Reg lastLanes, Reg reading) { }

    /** Sends: checked against the words written; an accepted one makes the buffer busy until its last beat leaves. */
    private Send sends(Reg busy, Reg written) {
        Expr length = send.field("length");
        Expr fits = length.ge(MIN_FRAME_BYTES).and(length.le(config.frameBytes()))
                .and(length.resize(written.width() + 2).le(Hw.cat(written, Hw.zeros(2))));
        Expr accepted = wire("send_accepted", send.valid().and(busy.not()).and(fits));
        statusCounter("rejected", send.valid().and(accepted.not()), "Sends refused: a length below "
                + MIN_FRAME_BYTES + " or above the largest frame, beyond the words written, or while a frame was"
                + " being sent (the words are discarded)");
        statusCounter("frames", accepted, "Frames sent");
        int byteLanes = config.busWidth() / 8;
        int laneBits = Hw.log2Up(byteLanes);
        Expr lastByte = length.sub(1);
        Reg lastBeat = regNoReset("last_beat", rowBits());
        Reg lastLanes = regNoReset("last_lanes", laneBits + 1);
        Reg reading = reg("reading", 1, 0);
        when(accepted, () -> {
            busy.set(1);
            reading.set(1); // from the next cycle: after the send's own write of the last row
            lastBeat.set(lastByte.shr(laneBits).resize(rowBits()));
            lastLanes.set(lastByte.bits(laneBits - 1, 0).resize(laneBits + 1).add(1));
        });
        return new Send(lastBeat, lastLanes, reading);
    }

    private int rowBits() {
        return Hw.log2Up(config.rows());
    }

    /**
     * Words go into a row register lane by lane; a full row, and at a send the partial last one, is written to the
     * buffer (one write port: a word and a send never come in the same cycle, each is its own register write).
     */
    private void writeWords(Mem buffer, Reg busy, Reg written) {
        int lanes = config.busWidth() / 32;
        int laneBits = Hw.log2Up(lanes);
        Expr taken = wire("word_taken", words.valid().and(busy.not())
                .and(written.ne(Hw.lit(written.width(), (long) config.rows() * lanes))));
        statusCounter("words_dropped", words.valid().and(taken.not()),
                "Words written while a frame was being sent or beyond the buffer (dropped)");
        Expr lane = written.bits(laneBits - 1, 0);
        List<Expr> partial = new ArrayList<>();
        List<Expr> full = new ArrayList<>();
        for (int l = lanes - 1; l >= 0; l--) {
            int at = l;
            Reg held = regNoReset("row_lane_" + l, 32);
            when(taken.and(lane.eq(at)), () -> held.set(words.field("data")));
            partial.add(held);
            full.add(l == lanes - 1 ? words.field("data") : held);
        }
        Expr rowDone = taken.and(lane.eq(lanes - 1));
        Expr flush = send.valid().and(lane.ne(0)); // harmless on a refused send: its words are discarded anyway
        buffer.write(rowDone.or(flush), written.shr(laneBits).resize(rowBits()), Hw.mux(rowDone, Hw.cat(full),
                Hw.cat(partial)));
        when(send.valid(), () -> written.set(0)).elseWhen(taken, () -> written.set(written.add(1)));
    }

    /** The rows from the buffer while reading, one beat per cycle; the last beat keeps the frame's last lanes. */
    private Stream readFrame(Mem buffer, Reg busy, Send sent) {
        Reg readRow = reg("read_row", rowBits(), 0);
        Reg outRow = reg("out_row", rowBits(), 0);
        Stream.RamRead rows = Stream.fromRam("row", buffer, readRow, sent.reading(), Layout.plain("data",
                config.busWidth()));
        Expr lastRead = readRow.eq(sent.lastBeat());
        when(rows.load(), () -> {
            readRow.set(Hw.mux(lastRead, Hw.zeros(rowBits()), readRow.add(1)));
            when(lastRead, () -> sent.reading().set(0));
        });
        Expr tlast = outRow.eq(sent.lastBeat());
        int byteLanes = config.busWidth() / 8;
        Layout beat = Stream.packet(config.busWidth(), 1);
        Stream frame = rows.out().map("frame", beat, beat.expr().set(Stream.TDATA, rows.out().field("data"))
                .set(Stream.TKEEP, Hw.mux(tlast, Keep.below(sent.lastLanes(), byteLanes), Hw.ones(byteLanes)))
                .set(Stream.TLAST, tlast).set(Stream.TUSER, Hw.zeros(1)).build());
        when(frame.fire(), () -> {
            outRow.set(Hw.mux(tlast, Hw.zeros(rowBits()), outRow.add(1)));
            when(tlast, () -> busy.set(0));
        });
        return frame;
    }
}
