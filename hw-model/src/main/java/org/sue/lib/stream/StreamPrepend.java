package org.sue.lib.stream;

import org.sue.core.Tag;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Port;
import org.sue.core.Reg;

/**
 * Prepends a header of a fixed number of bytes H to every packet of a stream, at one output beat per cycle.
 *
 * <p>With B byte lanes, H = q*B + r. The header comes on the {@code s_hdr} sideband with the packet's first beat
 * (header byte j in bits [8j+7:8j], byte 0 first on the wire) and must stay valid until that beat is taken. The
 * block emits q full header beats (holding the input), then every output beat is the low B-r bytes of the input
 * beat above r carried bytes: the header's last r bytes for the first payload beat, the previous input beat's top r
 * bytes after that. Since r is fixed by the configuration, the byte shift is wiring, not a barrel shifter. A packet
 * whose last beat holds more than B-r bytes spills into one extra tail beat. So a packet of L bytes takes exactly
 * ceil((H+L)/B) cycles when both sides are ready: no bubbles beyond the beats the longer packet needs.
 *
 * <p>Outputs are combinational from the input and the state (tvalid never depends on tready); put a register slice
 * behind it where timing needs one.
 */
public final class StreamPrepend extends Component {
    public record Config(StreamConfig stream, @Tag("h") int headerBytes) {
        public Config {
            if (stream == null) {
                throw new IllegalArgumentException("StreamPrepend stream configuration must be given");
            }
            if (headerBytes < 1 || headerBytes > 512) {
                throw new IllegalArgumentException("StreamPrepend headerBytes must be 1..512, got " + headerBytes);
            }
        }
    }

    public final Stream in;
    public final Stream out;
    public final Port header;
    private final Config config;

    public StreamPrepend(Config config) {
        super(config);
        this.config = config;
        StreamConfig sc = config.stream();
        int lanes = sc.lanes();
        int h = config.headerBytes();
        int q = h / lanes;
        int r = h % lanes;
        in = Stream.slave(this, sc);
        header = in("s_hdr", 8 * h);
        out = Stream.master(this, sc);

        // header beats already sent for this packet (none to send when the header is shorter than a beat)
        Reg headerBeat = q == 0 ? null : reg("header_beat", Hw.log2Up(q + 1L), 0);
        Reg inBody = reg("in_body", 1, 0);                  // past the first payload beat
        Reg tail = reg("tail", 1, 0);                       // the spill beat of the last input beat is pending
        Reg userHeld = regNoReset("user_held", sc.userWidth());

        Expr inHeader = wire("in_header", q == 0 ? Hw.bool(false) : headerBeat.ne(q).and(inBody.not()).and(tail.not()));
        Expr passing = wire("passing", inHeader.not().and(tail.not()));
        Expr outFire = wire("out_fire", out.fire());
        Expr inFire = wire("in_fire", in.fire());

        // the header beat being sent now
        Expr headerData = Hw.zeros(sc.dataWidth());
        if (q > 0) {
            headerData = header.bits(8 * lanes - 1, 0).resize(sc.dataWidth());
            for (int k = 1; k < q; k++) {
                headerData = Hw.mux(headerBeat.eq(k), header.bits(8 * lanes * (k + 1) - 1, 8 * lanes * k), headerData);
            }
        }
        Expr allLanes = Hw.ones(lanes);
        Expr outData;
        Expr outKeep;
        Expr spills;
        if (r == 0) {
            outData = in.tdata();
            outKeep = Hw.mux(in.tlast(), in.tkeep(), allLanes);
            spills = Hw.bool(false);
        } else {
            Reg carry = regNoReset("carry", 8 * r);
            Reg carryKeep = regNoReset("carry_keep", r);
            Expr low = Hw.mux(inBody, carry, header.bits(8 * h - 1, 8 * q * lanes));
            outData = Hw.cat(in.tdata().bits(8 * (lanes - r) - 1, 0), low);
            outKeep = Hw.mux(in.tlast(), Hw.cat(in.tkeep().bits(lanes - r - 1, 0), Hw.ones(r)), allLanes);
            // the last beat holds more than B - r bytes: its top r lanes spill into a tail beat
            spills = in.tkeep().bit(lanes - r);
            when(inFire, () -> {
                carry.set(in.tdata().bits(8 * lanes - 1, 8 * (lanes - r)));
                carryKeep.set(in.tkeep().bits(lanes - 1, lanes - r));
            });
            outData = Hw.mux(tail, carry.resize(sc.dataWidth()), Hw.mux(inHeader, headerData, outData));
            outKeep = Hw.mux(tail, carryKeep.resize(lanes), Hw.mux(inHeader, allLanes, outKeep));
        }
        if (r == 0) {
            outData = Hw.mux(inHeader, headerData, outData);
            outKeep = Hw.mux(inHeader, allLanes, outKeep);
        }
        Expr spill = wire("spill", in.tlast().and(spills));

        out.tvalid().set(tail.or(in.tvalid()));
        out.tdata().set(outData);
        out.tkeep().set(outKeep);
        out.tlast().set(tail.or(passing.and(in.tlast()).and(spill.not())));
        out.tuser().set(Hw.mux(tail, userHeld, in.tuser()));
        in.tready().set(passing.and(out.tready()));

        when(inFire, () -> userHeld.set(in.tuser()));
        Runnable packetDone = () -> {
            if (headerBeat != null) {
                headerBeat.set(0);
            }
        };
        when(outFire, () -> {
            when(tail, () -> {
                tail.set(0);
                packetDone.run();
            }).elseWhen(passing, () -> {
                // a payload beat was taken
                when(in.tlast(), () -> {
                    inBody.set(0);
                    when(spill, () -> tail.set(1)).otherwise(packetDone);
                }).otherwise(() -> inBody.set(1));
            }).otherwise(() -> {
                if (headerBeat != null) { // a header beat was sent
                    headerBeat.set(headerBeat.add(1));
                }
            });
        });
    }

    public Config config() {
        return config;
    }
}
