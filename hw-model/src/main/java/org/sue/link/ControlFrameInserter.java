package org.sue.link;

import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.State;
import org.sue.core.Status;
import org.sue.core.Tag;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;

/**
 * Puts 64-byte link-control frames (CC_Update, PFC) between the frames going to the MAC (docs/protocol.md sections 8
 * and 9): frames pass from {@code s_axis} to {@code m_axis} without a register; a control frame offered on
 * {@code frame} (its first 60 bytes, byte i in bits [8i+7:8i]) is taken at the next frame boundary, and from then
 * the frames wait: a cycle to compute its FCS into a register, then its beats ({@code m_axis_tuser} high: not an
 * LLR-eligible frame). So it follows exactly the frames that passed before the cycle it was taken in, which is what a
 * CC_Update's counts need.
 */
public final class ControlFrameInserter extends Component {
    /** Where the inserter is: frames pass, a taken control frame's FCS is computed, its beats leave. */
    public enum InserterPhase { PASS, FCS, SEND }

    /** Bytes of a control frame before its FCS. */
    public static final int BODY_BYTES = 60;
    public static final int FRAME_BYTES = 64;
    /** Bits of a MAC address (a control frame's source, {@code local_mac}). */
    public static final int MAC_WIDTH = 48;

    public record Config(@Tag("w") int dataWidth) {
        public Config {
            new StreamConfig(dataWidth, 1); // validates the bus width
        }
    }

    public static final Layout BODY = Layout.plain("body", 8 * BODY_BYTES);

    public final Stream in;
    public final Stream out;
    public final Stream frame;
    /** The {@link InserterPhase}, a status output. */
    public final Port state;
    public final Port framesInserted;

    public ControlFrameInserter(Config config) {
        super(config);
        int w = config.dataWidth();
        in = Stream.slave(this, "s_axis", Stream.packet(w, 0));
        out = Stream.master(this, "m_axis", Stream.packet(w, 1));
        frame = Stream.slave(this, "frame", BODY);
        State<InserterPhase> phase = state("state", InserterPhase.PASS);
        state = status("phase", Status.Kind.STATE, phase.reg(),
                "Control frame inserter phase: 0 frames pass, 1 a taken control frame's FCS, 2 its beats leave");

        Passing passing = passing(phase);
        Expr sending = phase.is(InserterPhase.SEND);
        Stream control = controlBeats(phase, sending, passing.start(), w);
        Stream.mux("to_mac", List.of(passing.frames().retagged("passing", out.layout(), Hw.bool(false)), control),
                sending).into(out);
        framesInserted = statusCounter("frames_inserted", control.fire().and(control.tlast()),
                "Control frames sent between the frames");
    }

    /** The frames that pass, and the cycle a control frame is taken ({@code start}). */
    private record Passing(Stream frames, Expr start) {
    }

    /**
     * Frames pass unless a control frame is taken at this boundary or is on its way. A frame's first beat already
     * offered to the MAC is not withdrawn: a control frame waits for the boundary after it (the stream rule).
     */
    private Passing passing(State<InserterPhase> phase) {
        Reg midFrame = reg("mid_frame", 1, 0); // a frame's first beat has passed, its last not yet
        Reg firstOffered = reg("first_offered", 1, 0); // a frame's first beat was offered and not yet taken
        Expr start = wire("start", phase.is(InserterPhase.PASS).and(frame.valid()).and(midFrame.not())
                .and(firstOffered.not()));
        frame.ready().set(start);
        Stream frames = in.haltWhen("frames", phase.reg().ne(phase.code(InserterPhase.PASS)).or(start));
        when(frames.fire(), () -> midFrame.set(frames.tlast().not()));
        firstOffered.set(frames.valid().and(frames.ready().not()));
        return new Passing(frames, start);
    }

    /** The control frame: its body held, the FCS in the next cycle, then its beats (tuser high). */
    private Stream controlBeats(State<InserterPhase> phase, Expr sending, Expr start, int w) {
        int lanes = w / 8;
        int beats = (FRAME_BYTES + lanes - 1) / lanes;
        Reg body = regNoReset("held_body", 8 * BODY_BYTES);
        Reg whole = regNoReset("held_frame", 8 * FRAME_BYTES);
        Reg beat = reg("beat", Hw.log2Up(beats + 1L), 0);
        when(start, () -> {
            body.set(frame.field("body"));
            phase.set(InserterPhase.FCS);
        });
        when(phase.is(InserterPhase.FCS), () -> {
            whole.set(Hw.cat(ParallelCrc.ofWord(CrcParams.CRC32, body), body)); // FCS least significant byte first
            beat.set(0);
            phase.set(InserterPhase.SEND);
        });
        Expr word = beats * w == whole.width() ? whole : whole.resize(beats * w);
        List<Expr> parts = new ArrayList<>();
        for (int b = 0; b < beats; b++) {
            parts.add(word.bits((b + 1) * w - 1, b * w));
        }
        Expr data = beats == 1 ? parts.get(0) : Hw.select(parts, beat.resize(Hw.log2Up(beats)));
        Expr last = beat.eq(beats - 1);
        int lastLanes = FRAME_BYTES - (beats - 1) * lanes;
        Expr keep = Hw.mux(last, Hw.ones(lanes).shr(lanes - lastLanes), Hw.ones(lanes));
        Layout pkt = out.layout();
        Stream control = Stream.of(this, "control_beats", sending, pkt, pkt.expr()
                .set(Stream.TDATA, data).set(Stream.TKEEP, keep).set(Stream.TLAST, last)
                .set(Stream.TUSER, Hw.bool(true)).build());
        when(control.fire(), () -> {
            beat.set(beat.add(1));
            when(last, () -> phase.set(InserterPhase.PASS));
        });
        return control;
    }

    /** A big-endian value (first byte most significant) in lane order (first byte in bits [7:0]), and back. */
    static Expr laneOrder(Expr value) {
        List<Expr> bytes = new ArrayList<>();
        for (int b = 0; b < value.width() / 8; b++) {
            bytes.add(value.bits(8 * b + 7, 8 * b)); // cat puts the first most significant
        }
        return Hw.cat(bytes);
    }

    /** Writes {@code value} big-endian into bytes {@code at .. at+n-1}. */
    static void put(byte[] f, int at, int n, long value) {
        for (int i = 0; i < n; i++) {
            f[at + i] = (byte) (value >> (8 * (n - 1 - i)));
        }
    }

    /** A 64-byte frame whose first 60 bytes are set: its FCS (by {@link CRC32}) in the last 4, least significant first. */
    static byte[] withFcs(byte[] f) {
        CRC32 crc = new CRC32();
        crc.update(f, 0, BODY_BYTES);
        put(f, BODY_BYTES, 4, Long.reverseBytes(crc.getValue()) >>> 32);
        return f;
    }
}
