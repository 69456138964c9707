package org.sue.axi.model;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.sue.axi.AxiConfig;
import org.sue.axi.model.AxiRequestReference.LocalResponse;
import org.sue.core.Layout;

/**
 * Responses of the AXI4 form (docs/protocol.md 13.2, 13.5): the WRITE_RESPONSE and READ_RESPONSE commands a far XPU
 * sends (one per part), and what the slave gives the SoC for them and for the requests SUE answers itself: one B per
 * write burst, its parts' responses merged, and R beats.
 */
public final class AxiResponseReference {
    /** A B. */
    public record B(int id, int resp) {
    }

    /** An R beat. */
    public record R(BigInteger data, int id, int resp, boolean last) {
    }

    private final AxiConfig axi;

    public AxiResponseReference(AxiConfig axi) {
        this.axi = axi;
    }

    /** The WRITE_RESPONSE a far XPU {@code from} sends for one part of a write burst: ID, BRESP, last part. */
    public AxiCommand writeResponse(int from, int id, int resp, boolean last) {
        Layout l = axi.writeResponseControl();
        return AxiCommand.of(AxiConfig.WRITE_RESPONSE, l.word().set("id", id).set("resp", resp)
                .set("last", last ? 1 : 0).toBigInteger(), from, AxiConfig.RESPONSE_VC, new byte[0]);
    }

    /**
     * The worse of two responses, as the parts of a burst merge into its one B: DECERR, then SLVERR, then OKAY, then
     * EXOKAY (an exclusive write succeeded only if every part did).
     */
    public static int worse(int a, int b) {
        return rank(a) >= rank(b) ? a : b;
    }

    private static int rank(int resp) {
        return switch (resp) {
            case AxiConfig.EXOKAY -> 0;
            case AxiConfig.OKAY -> 1;
            case AxiConfig.SLVERR -> 2;
            default -> 3;
        };
    }

    /** The READ_RESPONSE for one READ part: its beats' data (whole bus beats) and their responses. */
    public AxiCommand readResponse(int from, int id, boolean last, int[] resps, byte[] data) {
        if (resps.length * axi.beatBytes() != data.length || resps.length > axi.partBeats()) {
            throw new IllegalArgumentException("a read response carries 1.." + axi.partBeats() + " whole beats, got "
                    + resps.length + " responses and " + data.length + " bytes");
        }
        BigInteger packed = BigInteger.ZERO;
        for (int k = 0; k < resps.length; k++) {
            packed = packed.or(BigInteger.valueOf(resps[k]).shiftLeft(2 * k));
        }
        Layout l = axi.readResponseControl();
        return AxiCommand.of(AxiConfig.READ_RESPONSE, l.word().set("id", id).set("last", last ? 1 : 0)
                .set("resp", packed).toBigInteger(), from, AxiConfig.RESPONSE_VC, data);
    }

    /** The B of a write burst from the WRITE_RESPONSEs of its parts, in order, the last one marked. */
    public B b(List<AxiCommand> parts) {
        Layout l = axi.writeResponseControl();
        int resp = -1;
        for (AxiCommand c : parts) {
            int r = (int) l.field("resp").get(c.bits());
            resp = resp < 0 ? r : worse(resp, r);
        }
        return new B((int) l.field("id").get(parts.get(0).bits()), resp);
    }

    /** The R beats of a READ_RESPONSE: one per data beat, RLAST on the last beat of the burst's last part. */
    public List<R> r(AxiCommand c) {
        Layout l = axi.readResponseControl();
        int id = (int) l.field("id").get(c.bits());
        boolean last = l.field("last").get(c.bits()) == 1;
        BigInteger resps = l.field("resp").getBig(c.bits());
        int lanes = axi.beatBytes();
        int beats = c.data().length / lanes;
        List<R> list = new ArrayList<>();
        for (int k = 0; k < beats; k++) {
            BigInteger data = BigInteger.ZERO;
            for (int i = 0; i < lanes; i++) {
                data = data.or(BigInteger.valueOf(c.data()[k * lanes + i] & 0xFF).shiftLeft(8 * i));
            }
            list.add(new R(data, id, resps.shiftRight(2 * k).intValue() & 3, last && k == beats - 1));
        }
        return list;
    }

    /** What the SoC gets for a request SUE answered: a B, or its beats of zeros. */
    public List<R> r(LocalResponse a) {
        List<R> list = new ArrayList<>();
        for (int k = 0; k < a.beats(); k++) {
            list.add(new R(BigInteger.ZERO, a.id(), a.resp(), k == a.beats() - 1));
        }
        return list;
    }
}
