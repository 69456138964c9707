package org.sue.mgmt;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.ConfigException;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Status;
import org.sue.core.Tag;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Keep;
import org.sue.lib.stream.PacketFifo;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;

/**
 * The raw-frame receive buffer (SUE spec 3.1, docs/management.md "Raw packets"): the frames the filter took from the
 * MAC ({@code s_axis}, FCS included; {@code tuser} on the last beat: the MAC found the frame bad) are checked and
 * kept whole in a packet FIFO that never stalls the MAC; software reads the oldest one's length ({@code head_length},
 * {@code head_valid}) and then its bytes four at a time from {@code data} (a read of it is {@code data_read}: the
 * next word shows from the next cycle on). Once its last word is read the frame leaves, FCS and all; {@code skip}
 * drops the rest of the oldest frame.
 *
 * <p>Dropped and counted: a frame with a wrong FCS, flagged by the MAC, shorter than 64 bytes or longer than
 * {@code frameBytes} + 4 ({@code bad}); a frame that does not fit in the free space ({@code full}).
 */
public final class RawRxBuffer extends Component {
    private static final long FCS_RESIDUE = 0x2144DF1CL;
    private static final int FCS_BYTES = 4;
    private static final int MIN_FRAME = 64;

    /**
     * @param busWidth    bits of the MAC stream
     * @param frameBytes  the largest frame kept, without its FCS
     * @param bufferBytes bytes of the buffer, a power of two, at least one largest frame's beats
     */
    public record Config(@Tag("w") int busWidth, @Tag("f") int frameBytes, @Tag("b") int bufferBytes) {
        public Config {
            new RawTxBuffer.Config(busWidth, frameBytes); // the same rules for the bus and the frame
            int beats = bufferBytes / (busWidth / 8);
            if (Integer.bitCount(bufferBytes) != 1 || beats < 4 || beats > 65536
                    || bufferBytes < frameBytes + FCS_BYTES) {
                throw new ConfigException("RawRxBuffer", "{bufferBytes} must be a power of two that holds the largest"
                        + " frame with its FCS (" + (frameBytes + FCS_BYTES) + " bytes) and 4 to 65536 beats of "
                        + busWidth / 8 + " bytes, got " + bufferBytes);
            }
        }

        public int lengthWidth() {
            return Hw.log2Up(frameBytes + FCS_BYTES + 1L);
        }
    }

    /** The frames from the filter (a flow: the MAC does not wait). */
    public final Flow in;
    /** The oldest frame's next four bytes; 0 when there is none. */
    public final Port data;
    /** A read of {@link #data}: move on to the next word. */
    public final Port dataRead;
    /** Drop the rest of the oldest frame. */
    public final Flow skip;
    public final Port headValid;
    /** The oldest frame's bytes without its FCS. */
    public final Port headLength;
    /** A frame was kept: high one cycle. */
    public final Port received;
    private final Config config;

    public RawRxBuffer(Config config) {
        super(config);
        this.config = config;
        int w = config.busWidth();
        in = Flow.slave(this, "s_axis", Stream.packet(w, 1));
        dataRead = in("data_read", 1);
        skip = Flow.slave(this, "skip", Layout.plain("value", 1));
        unused("skip_value", skip.field("value")); // any write skips

        PacketFifo fifo = child("fifo", new PacketFifo(new PacketFifo.Config(new StreamConfig(w,
                config.lengthWidth()), config.bufferBytes() / (w / 8))));
        Layout bytes = Stream.packet(w, 0); // the MAC's flag is judged with the FCS, in verdicts
        Flow beats = in.map("beats", bytes, bytes.expr().set(Stream.TDATA, in.tdata()).set(Stream.TKEEP, in.tkeep())
                .set(Stream.TLAST, in.tlast()).build());
        beats.into(fifo.in);
        verdicts(fifo, beats);
        received = out("received", 1);
        received.set(fifo.kept.valid());
        statusCounter("frames", fifo.kept.valid(), "Frames kept for software");
        exposeStatus(fifo.dropsBad, "bad", Status.Kind.COUNTER, "Frames dropped for a wrong FCS, the MAC's"
                + " bad-frame flag, or a length below 64 or above the largest frame (FCS included)");
        exposeStatus(fifo.dropsOverflow, "full", Status.Kind.COUNTER,
                "Frames dropped because the buffer had no room for them");
        status("internal_error", Status.Kind.FLAG, fifo.protocolError, "The buffer's bookkeeping broke (sticky)");
        Reader head = reader(fifo.out);
        data = out("data", AxiLite.DATA_BITS);
        data.set(head.word());
        headValid = out("head_valid", 1);
        headValid.set(head.valid());
        headLength = out("head_length", config.lengthWidth());
        headLength.set(Hw.mux(head.valid(), fifo.out.tuser().sub(FCS_BYTES), Hw.zeros(config.lengthWidth())));
        framesHeld(fifo);
    }

    public Config config() {
        return config;
    }

    /** Each frame's FCS, length and the MAC's flag, judged when its CRC is ready: keep it, or drop it and count. */
    private void verdicts(PacketFifo fifo, Flow frameBeats) {
        int w = config.busWidth();
        int lanes = w / 8;
        int lw = config.lengthWidth();
        ParallelCrc.Config crcConfig = new ParallelCrc.Config(CrcParams.CRC32, w);
        ParallelCrc fcs = child("fcs_check", new ParallelCrc(crcConfig));
        frameBeats.into(fcs.in);
        // beats counted up to one past the longest frame's: a longer frame stays too long
        int beatLimit = (config.frameBytes() + FCS_BYTES) / lanes + 1;
        Reg beats = reg("frame_beats", Hw.log2Up(beatLimit + 1L), 0);
        when(in.valid(), () -> when(in.tlast(), () -> beats.set(0))
                .elseWhen(beats.ne(beatLimit), () -> beats.set(beats.add(1))));
        int bytesWidth = beats.width() + Hw.log2Up(lanes) + 1;
        Expr bytes = wire("frame_bytes", Hw.cat(beats, Hw.zeros(Hw.log2Up(lanes))).resize(bytesWidth)
                .add(Keep.count(in.tkeep(), bytesWidth)));
        Expr wrongSize = bytes.lt(MIN_FRAME).or(bytes.gt(config.frameBytes() + FCS_BYTES));
        // the frame's facts from its last beat, as its CRC result comes
        Expr judged = delay("frame_facts", Hw.cat(wrongSize.or(in.tuser()), bytes.resize(lw)), crcConfig.latency());
        Expr bad = judged.bit(lw).or(fcs.crc.field("value").ne(FCS_RESIDUE));
        fifo.verdict.drive(fcs.crc.valid(), fifo.verdict.layout().expr().set("drop", bad)
                .set("user", judged.bits(lw - 1, 0)).build());
    }

    /** What software sees of the oldest frame. */
    private record Reader(Expr valid, Expr word) { }

    /**
     * The oldest frame's words, one per read; the beat leaves after its last word is read, or, when the frame's
     * last word is read before its last beat (the FCS's), the rest is skipped.
     */
    private Reader reader(Stream frames) {
        int lanes = config.busWidth() / 32;
        int laneBits = Hw.log2Up(lanes);
        int lw = config.lengthWidth();
        Reg skipping = reg("skipping", 1, 0);
        Reg wordInBeat = reg("word_in_beat", laneBits, 0);
        Reg wordInFrame = reg("word_in_frame", lw, 0);
        Expr valid = wire("head", frames.valid().and(skipping.not()));
        Expr lastWord = wordInFrame.eq(frames.tuser().sub(FCS_BYTES).add(3).shr(2).sub(1));
        Expr read = wire("word_read", dataRead.and(valid));
        Expr beatDone = read.and(lastWord.or(wordInBeat.eq(lanes - 1)));
        frames.ready().set(beatDone.or(skipping));
        when(read, () -> {
            wordInBeat.set(Hw.mux(beatDone, Hw.zeros(laneBits), wordInBeat.add(1)));
            wordInFrame.set(Hw.mux(lastWord, Hw.zeros(lw), wordInFrame.add(1)));
            when(lastWord.and(frames.tlast().not()), () -> skipping.set(1));
        }).elseWhen(skip.valid().and(valid), () -> {
            wordInBeat.set(0);
            wordInFrame.set(0);
            skipping.set(1);
        }).elseWhen(skipping.and(frames.fire()).and(frames.tlast()), () -> skipping.set(0));
        List<Expr> words = new ArrayList<>();
        for (int l = 0; l < lanes; l++) {
            words.add(frames.tdata().bits(32 * l + 31, 32 * l));
        }
        Expr word = Hw.selectTree(words, wordInBeat);
        return new Reader(valid, wire("head_word", Hw.mux(valid, word, Hw.zeros(AxiLite.DATA_BITS))));
    }

    /** Frames kept and not yet read or skipped to their end. */
    private void framesHeld(PacketFifo fifo) {
        int width = Hw.log2Up(config.bufferBytes() / 64 + 1L);
        Reg held = reg("frames_held_count", width, 0);
        Expr leaves = fifo.out.fire().and(fifo.out.tlast());
        held.set(Hw.upDown(held, List.of(fifo.kept.valid()), List.of(leaves)));
        status("frames_held", Status.Kind.LEVEL, held, "Frames in the buffer: kept and not yet read to their end");
        unused("kept_user", fifo.kept.field("user"));
        unused("head_keep", fifo.out.tkeep()); // the length says where the frame ends
    }
}
