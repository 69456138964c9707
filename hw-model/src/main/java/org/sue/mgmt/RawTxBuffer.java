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
import org.sue.lib.crc.ParallelCrc;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;

/**
 * The raw-frame transmit buffer (SUE spec 3.1, docs/management.md "Raw packets"): software writes one Ethernet frame
 * without its FCS, four bytes at a time ({@code words}: the frame's bytes 4k..4k+3 in bits 7:0 up), then sends it
 * ({@code send}: its length in bytes). The buffer pads it to 60 bytes, appends the FCS and streams it on
 * {@code m_axis} at one beat per cycle ({@code tuser} 0). It holds one frame.
 *
 * <p>The FCS is computed as the words arrive, 32 bits a write (software writes far slower than a wide CRC would
 * need), and finished after the send a byte a cycle over the last word's bytes and the padding (at most 50 cycles);
 * the padding and the FCS are laid into the beats as they leave. So the buffer needs no bus-wide CRC unit.
 *
 * <p>A send is refused (counted in {@code rejected}; its words are discarded) when its length is below
 * {@value #MIN_FRAME_BYTES} bytes (the addresses and the EtherType), above {@code frameBytes}, when the words written
 * since the last send are not exactly the frame's (length / 4 rounded up), or while a frame is being sent. Words beyond
 * the largest frame or while a frame is being sent are dropped and counted ({@code words_dropped}).
 */
public final class RawTxBuffer extends Component {
    /** The smallest frame a send takes: destination, source, EtherType. */
    public static final int MIN_FRAME_BYTES = 14;
    /** Bytes before the FCS of the shortest Ethernet frame: shorter frames are padded with zeros. */
    public static final int PADDED_BYTES = 60;
    private static final int FCS_BYTES = 4;

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

        /** Beats of the largest frame with its FCS: the buffer's rows (at least 2, a memory's least depth). */
        public int rows() {
            return Math.max(2, (frameBytes + FCS_BYTES + busWidth / 8 - 1) / (busWidth / 8));
        }

        /** Bits of a frame length. */
        public int lengthWidth() {
            return Hw.log2Up(frameBytes + 1L);
        }

        /** Words of the largest frame. */
        int words() {
            return (frameBytes + 3) / 4;
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
        out = Stream.master(this, new StreamConfig(w, 1));

        Mem rows = mem("frame_rows", config.rows(), w, ReadUnderWrite.READ_FIRST);
        Reg busy = reg("sending", 1, 0);
        Reg written = reg("words_written", Hw.log2Up(config.words() + 1L), 0);
        Expr taken = wire("word_taken", words.valid().and(busy.not()).and(written.ne(config.words())));
        statusCounter("words_dropped", words.valid().and(taken.not()),
                "Words written while a frame was being sent or beyond the largest frame (dropped)");
        Frame frame = sends(busy, written);
        writeRows(rows, written, taken);
        Fcs fcs = fcs(written, taken, frame);
        frameOut(rows, busy, frame, fcs).into(out);
        status("busy", Status.Kind.STATE, busy, "1 while a frame is being sent: words and sends wait for 0");
    }

    public Config config() {
        return config;
    }

    /** The frame being sent, as its send set it: its length, and with padding, and the start of its FCS phase. */
    private record Frame(Expr accepted, Reg length, Reg paddedLength) { }

    /** Sends, checked against the words written; an accepted one makes the buffer busy until its last beat leaves. */
    private Frame sends(Reg busy, Reg written) {
        Expr length = send.field("length");
        Expr wordsOfLength = length.resize(length.width() + 1).add(3).shr(2).resize(written.width());
        Expr fits = length.ge(MIN_FRAME_BYTES).and(length.le(config.frameBytes())).and(wordsOfLength.eq(written));
        Expr accepted = wire("send_accepted", send.valid().and(busy.not()).and(fits));
        statusCounter("rejected", send.valid().and(accepted.not()), "Sends refused: a length below "
                + MIN_FRAME_BYTES + " or above the largest frame, other than the words written, or while a frame was"
                + " being sent (the words are discarded)");
        statusCounter("frames", accepted, "Frames sent");
        Reg frameLength = regNoReset("frame_length", config.lengthWidth());
        Reg padded = regNoReset("padded_length", config.lengthWidth());
        when(accepted, () -> {
            busy.set(1);
            frameLength.set(length);
            padded.set(padded(length));
        });
        return new Frame(accepted, frameLength, padded);
    }

    /** {@code length} raised to the least frame before its FCS. */
    private static Expr padded(Expr length) {
        return Hw.mux(length.lt(PADDED_BYTES), Hw.lit(length.width(), PADDED_BYTES), length);
    }

    /**
     * Words go into a row register lane by lane; a full row, and at a send the partial last one, is written to the
     * buffer (one write port: a word and a send never come in the same cycle, each is its own register write).
     */
    private void writeRows(Mem rows, Reg written, Expr taken) {
        int lanes = config.busWidth() / 32;
        int laneBits = Hw.log2Up(lanes);
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
        rows.write(rowDone.or(flush), written.shr(laneBits).resize(Hw.log2Up(config.rows())), Hw.mux(rowDone,
                Hw.cat(full), Hw.cat(partial)));
        when(send.valid(), () -> written.set(0)).elseWhen(taken, () -> written.set(written.add(1)));
    }

    /** The frame's FCS once {@code ready}. */
    private record Fcs(Expr ready, Expr value) { }

    /**
     * The CRC over every word but the last as they arrive; after an accepted send, a byte a cycle over the last word's
     * bytes and then the padding's zeros (the last word shifted down, zeros coming in), then the FCS.
     */
    private Fcs fcs(Reg written, Expr taken, Frame frame) {
        CrcParams p = CrcParams.CRC32;
        Reg crc = regNoReset("crc", 32);
        Reg lastWord = regNoReset("last_word", 32);
        when(taken, () -> {
            crc.set(Hw.mux(written.eq(0), ParallelCrc.initial(p), ParallelCrc.update(p, crc, lastWord)));
            lastWord.set(words.field("data"));
        });
        // bytes after the words before the last: the padded length less 4 x (words - 1), 1 to 50
        Reg finishing = reg("fcs_bytes_left", 6, 0);
        Expr length = send.field("length");
        Expr before = written.sub(1).shl(2).resize(length.width());
        when(frame.accepted(), () -> finishing.set(padded(length).sub(before).resize(6)))
                .elseWhen(finishing.ne(0), () -> {
                    crc.set(ParallelCrc.update(p, crc, lastWord.bits(7, 0)));
                    lastWord.set(lastWord.shr(8));
                    finishing.set(finishing.sub(1));
                });
        Reg ready = reg("fcs_ready", 1, 0);
        ready.set(finishing.eq(1));
        return new Fcs(ready, ParallelCrc.finished(p, crc));
    }

    /**
     * The rows from the buffer, one beat per cycle from the FCS's readiness, each byte the frame's below its length,
     * 0 up to the padded length, then the four FCS bytes; tkeep and tlast where the FCS ends.
     */
    private Stream frameOut(Mem rows, Reg busy, Frame frame, Fcs fcs) {
        int lanes = config.busWidth() / 8;
        int rowBits = Hw.log2Up(config.rows());
        int leftWidth = Hw.log2Up(config.frameBytes() + FCS_BYTES + 1L);
        Reg reading = reg("reading", 1, 0);
        Reg readRow = reg("read_row", rowBits, 0);
        // bytes of the frame, and of the frame with padding and FCS, from this beat's first lane on
        Reg dataLeft = regNoReset("data_left", leftWidth);
        Reg endLeft = regNoReset("end_left", leftWidth);
        Stream.RamRead beats = Stream.fromRam("row", rows, readRow, reading, Layout.plain("data",
                config.busWidth()));
        int endWidth = rowBits + Hw.log2Up(lanes) + 1;
        Expr lastRead = readRow.resize(endWidth).add(1).shl(Hw.log2Up(lanes)).ge(frame.paddedLength()
                .resize(endWidth).add(FCS_BYTES));
        when(fcs.ready(), () -> {
            reading.set(1);
            dataLeft.set(frame.length().resize(leftWidth));
            endLeft.set(frame.paddedLength().resize(leftWidth).add(FCS_BYTES));
        });
        when(beats.load(), () -> {
            readRow.set(Hw.mux(lastRead, Hw.zeros(rowBits), readRow.add(1)));
            when(lastRead, () -> reading.set(0));
        });
        Expr tlast = wire("last_beat", endLeft.le(lanes));
        // lanes past the end of this beat's share, clamped: the per-lane choices compare small numbers
        int clampWidth = Hw.log2Up(lanes + FCS_BYTES + 1L);
        Expr end = wire("end_here", Hw.mux(endLeft.gt(lanes + FCS_BYTES), Hw.lit(clampWidth, lanes + FCS_BYTES),
                endLeft.resize(clampWidth)));
        Expr dataEnd = wire("data_here", Hw.mux(dataLeft.gt(lanes), Hw.lit(clampWidth, lanes),
                dataLeft.resize(clampWidth)));
        Expr row = beats.out().field("data");
        List<Expr> bytes = new ArrayList<>();
        for (int l = lanes - 1; l >= 0; l--) {
            Expr b = Hw.mux(dataEnd.gt(l), row.bits(8 * l + 7, 8 * l), Hw.zeros(8));
            for (int k = 0; k < FCS_BYTES; k++) { // FCS byte k sits at lane end - 4 + k
                if (l + FCS_BYTES - k <= lanes + FCS_BYTES) {
                    b = Hw.mux(end.eq(l + FCS_BYTES - k), fcs.value().bits(8 * k + 7, 8 * k), b);
                }
            }
            bytes.add(b);
        }
        Layout beat = Stream.packet(config.busWidth(), 1);
        Stream frameBeats = beats.out().map("frame", beat, beat.expr().set(Stream.TDATA, Hw.cat(bytes))
                .set(Stream.TKEEP, Keep.below(end, lanes)).set(Stream.TLAST, tlast).set(Stream.TUSER, Hw.zeros(1))
                .build());
        when(frameBeats.fire(), () -> {
            dataLeft.set(Hw.mux(dataLeft.gt(lanes), dataLeft.sub(lanes), Hw.zeros(leftWidth)));
            endLeft.set(endLeft.sub(lanes));
            when(tlast, () -> busy.set(0));
        });
        return frameBeats;
    }
}
