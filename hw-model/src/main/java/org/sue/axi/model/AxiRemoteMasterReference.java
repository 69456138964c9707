package org.sue.axi.model;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.sue.axi.AxiConfig;
import org.sue.axi.model.AxiRequestReference.Ax;
import org.sue.axi.model.AxiRequestReference.WBeat;

/**
 * What the far side's AXI4 master does with the commands of remote XPUs (docs/protocol.md 13), at transaction level,
 * written from the command mapping, not from the RTL: every WRITE, WRITE_STROBED and READ command is one burst of its
 * own with the control's fields; a WRITE's data are its W beats, all strobes high; a WRITE_STROBED's first data beat
 * holds the strobes of the beats after it (data beat k's N/8 strobe bits at bits [k*N/8, (k+1)*N/8)); a command of
 * another type is dropped. The bursts' IDs are the source's (the master's remapping is not modelled). Answers: the B
 * of every write part is one WRITE_RESPONSE with its BRESP unchanged and the part's {@code last} flag (the requester
 * merges them); every read part's R beats make one READ_RESPONSE with each beat's response. Both are encoded by
 * {@link AxiResponseReference}, as the requester decodes them.
 */
public final class AxiRemoteMasterReference {
    /** A burst as the SoC's slave sees it: the source that asked, its AW/AR (source ID), last part, the W beats. */
    public record Part(int source, boolean write, Ax ax, boolean last, List<WBeat> beats) {
        public long key() {
            return (long) source << 16 | ax.id();
        }
    }

    private final AxiConfig axi;
    private final AxiResponseReference responses;
    private int badCommands;
    private int strobedCommands;

    public AxiRemoteMasterReference(AxiConfig axi) {
        this.axi = axi;
        this.responses = new AxiResponseReference(axi);
    }

    /** Takes a command of source {@code command.xpuid()}: the burst it issues, or null (a command dropped). */
    public Part take(AxiCommand command) {
        int source = command.xpuid();
        int type = command.type();
        if (type != AxiConfig.WRITE && type != AxiConfig.WRITE_STROBED && type != AxiConfig.READ) {
            badCommands++;
            return null;
        }
        BigInteger control = command.bits();
        Ax ax = Ax.ofControl(axi, control);
        boolean last = axi.requestControl().field("last").get(control) == 1;
        if (type == AxiConfig.READ) {
            return new Part(source, false, ax, last, List.of());
        }
        int bb = axi.beatBytes();
        BigInteger lane = BigInteger.ONE.shiftLeft(bb).subtract(BigInteger.ONE);
        boolean strobed = type == AxiConfig.WRITE_STROBED;
        strobedCommands += strobed ? 1 : 0;
        BigInteger strobes = strobed ? value(command.data(), 0, bb) : null;
        int from = strobed ? bb : 0;
        List<WBeat> beats = new ArrayList<>();
        for (int k = 0; k <= ax.len(); k++) {
            BigInteger data = value(command.data(), from + k * bb, bb);
            BigInteger strb = strobed ? strobes.shiftRight(k * bb).and(lane) : lane;
            beats.add(new WBeat(data, strb, k == ax.len()));
        }
        return new Part(source, true, ax, last, beats);
    }

    public int badCommands() {
        return badCommands;
    }

    public int strobedCommands() {
        return strobedCommands;
    }

    /** The B of a write part: its WRITE_RESPONSE (the source's ID, the BRESP, the part's last flag). */
    public AxiCommand writeAnswered(Part part, int resp) {
        return responses.writeResponse(part.source(), part.ax().id(), resp, part.last());
    }

    /** The R beats of a read part (data, response each): its READ_RESPONSE. */
    public AxiCommand readAnswered(Part part, List<BigInteger> data, List<Integer> resps) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int[] r = new int[data.size()];
        for (int k = 0; k < data.size(); k++) {
            r[k] = resps.get(k);
            bytes.writeBytes(AxiRequestReference.bytes(data.get(k), axi.beatBytes()));
        }
        return responses.readResponse(part.source(), part.ax().id(), part.last(), r, bytes.toByteArray());
    }

    /** Bytes [from, from + n) as a number, the first least significant (missing bytes zero). */
    private static BigInteger value(byte[] bytes, int from, int n) {
        BigInteger v = BigInteger.ZERO;
        for (int i = Math.min(bytes.length, from + n) - 1; i >= from; i--) {
            v = v.shiftLeft(8).or(BigInteger.valueOf(bytes[i] & 0xFF));
        }
        return v;
    }
}
