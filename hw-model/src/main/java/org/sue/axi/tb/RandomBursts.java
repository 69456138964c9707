package org.sue.axi.tb;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.sue.axi.AxiConfig;
import org.sue.axi.model.AxiRequestReference;
import org.sue.axi.model.AxiRequestReference.Ax;
import org.sue.axi.model.AxiRequestReference.WBeat;

/**
 * Random AXI4 requests for one pair's configuration: every burst type, lengths up to 256 beats, narrow and unaligned
 * transfers, partial strobes; legal unless asked otherwise (then one of the AXI4 rules is broken: a reserved burst
 * type, a WRAP of a wrong length or unaligned, a FIXED burst over 16 beats, a size wider than the bus, an INCR across
 * 4 KiB).
 */
public final class RandomBursts {
    private final AxiConfig axi;
    private final Random rnd;
    private final AxiRequestReference rules;

    public RandomBursts(AxiConfig axi, Random rnd) {
        this.axi = axi;
        this.rnd = rnd;
        this.rules = new AxiRequestReference(axi);
    }

    /** A request to XPU {@code dst} (any value of 10 bits), legal or, with {@code illegal}, breaking a rule. */
    public Ax request(int dst, boolean illegal) {
        for (int tries = 0; tries < 10_000; tries++) {
            Ax a = candidate(dst, illegal);
            if (rules.legal(a) != illegal) {
                return a;
            }
        }
        throw new IllegalStateException("no " + (illegal ? "illegal" : "legal") + " request found in 10000 tries");
    }

    private Ax candidate(int dst, boolean illegal) {
        int size = rnd.nextInt(4) == 0 ? rnd.nextInt(axi.fullSize() + (illegal ? 2 : 1)) : axi.fullSize();
        size = Math.min(size, 7);
        int burst = illegal && rnd.nextInt(5) == 0 ? 3 : rnd.nextInt(8) == 0 ? AxiConfig.FIXED
                : rnd.nextInt(5) == 0 ? AxiConfig.WRAP : AxiConfig.INCR;
        int len = switch (burst) {
            case AxiConfig.WRAP -> illegal && rnd.nextBoolean() ? rnd.nextInt(16) : (2 << rnd.nextInt(4)) - 1;
            case AxiConfig.FIXED -> illegal ? 16 + rnd.nextInt(240) : rnd.nextInt(16);
            default -> rnd.nextInt(3) == 0 ? rnd.nextInt(256) : rnd.nextInt(16);
        };
        long page = (rnd.nextLong() & ((1L << axi.addrWidth()) - 1)) & ~0xFFFL;
        long offset = rnd.nextInt(4096);
        long nb = 1L << size;
        if (burst == AxiConfig.WRAP && !(illegal && rnd.nextBoolean())) {
            offset = offset / nb * nb;
        } else if (burst == AxiConfig.INCR && !illegal) {
            len = (int) Math.min(len, 4096 / nb - 1); // the burst stays in its 4 KiB page
            long bytes = (len + 1L) * nb;
            offset = rnd.nextLong((4096 - bytes) / nb + 1) * nb + (rnd.nextBoolean() ? 0 : rnd.nextInt((int) nb));
        }
        long addr = page | offset;
        int user = axi.userWidth() == 0 ? 0 : rnd.nextInt(1 << axi.userWidth());
        if (axi.dstFromUser()) {
            user = user & ~0x3FF | dst;
        } else {
            addr = addr & ~(0x3FFL << axi.dstLsb()) | (long) dst << axi.dstLsb();
        }
        return new Ax(addr, rnd.nextInt(1 << axi.idWidth()), len, size, burst, rnd.nextInt(2), rnd.nextInt(16),
                rnd.nextInt(8), rnd.nextInt(16), rnd.nextInt(16), user);
    }

    /** An INCR burst of {@code bytes} (a multiple of the beat, at most 4 KiB) in full beats, aligned to its size. */
    public Ax sized(int dst, int bytes) {
        Ax page = page(dst);
        long offset = rnd.nextInt(4096 / bytes) * (long) bytes;
        return new Ax(page.addr() | offset, page.id(), bytes / axi.beatBytes() - 1, page.size(), page.burst(), 0, 0, 0,
                0, 0, page.user());
    }

    /** A 4 KiB INCR burst of full beats, page-aligned, to XPU {@code dst}. */
    public Ax page(int dst) {
        long addr = (rnd.nextLong() & ((1L << axi.addrWidth()) - 1)) & ~0xFFFL & ~(0x3FFL << axi.dstLsb());
        boolean user = axi.dstFromUser();
        return new Ax(user ? addr : addr | (long) dst << axi.dstLsb(), rnd.nextInt(1 << axi.idWidth()),
                4096 / axi.beatBytes() - 1, axi.fullSize(), AxiConfig.INCR, 0, 0, 0, 0, 0, user ? dst : 0);
    }

    /**
     * The W beats of a write: random data, WLAST at the end; strobes full, or (unless {@code full}; always for a
     * narrow burst) random within each beat's lanes one write in three.
     */
    public List<WBeat> beats(Ax aw, boolean full) {
        boolean partial = !full && rnd.nextInt(3) == 0 || aw.size() < axi.fullSize();
        List<WBeat> list = new ArrayList<>();
        int lanes = axi.beatBytes();
        for (int n = 0; n < aw.beats(); n++) {
            BigInteger strb = BigInteger.ONE.shiftLeft(lanes).subtract(BigInteger.ONE);
            if (partial) {
                // the lanes of this beat's address window, some of them cleared at random
                long nb = 1L << Math.min(aw.size(), axi.fullSize());
                long lane = AxiRequestReference.beatAddress(aw, n) % lanes / nb * nb;
                long first = AxiRequestReference.beatAddress(aw, n) % lanes;
                BigInteger window = BigInteger.ONE.shiftLeft((int) nb).subtract(BigInteger.ONE).shiftLeft((int) lane);
                BigInteger below = BigInteger.ONE.shiftLeft((int) first).subtract(BigInteger.ONE);
                strb = window.andNot(below).and(new BigInteger(lanes, rnd).or(rnd.nextBoolean() ? window : BigInteger.ZERO));
            }
            list.add(new WBeat(new BigInteger(8 * lanes, rnd), strb, n == aw.len()));
        }
        return list;
    }
}
