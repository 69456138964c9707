package org.sue.cmd.tb;

import java.math.BigInteger;
import java.util.Random;
import org.sue.sim.Simulator;

/**
 * Drives the eligibility inputs of a packing buffer in a simulation: {@code vc_ready} (link credit per VC) and
 * {@code dst_ready} (transmit window per destination).
 */
public final class Eligibility {
    private Eligibility() {
    }

    /** Every VC and every destination eligible. */
    public static void open(Simulator sim, int destinations) {
        set(sim, null, destinations, false);
    }

    /**
     * With {@code closing}: a third of the time a random set of VCs has credit (else all), and one random destination
     * has no window on any VC; without: everything open. {@code dst_ready} has a bit per queue, vc x destinations +
     * dst.
     */
    public static void set(Simulator sim, Random rnd, int destinations, boolean closing) {
        sim.poke("vc_ready", closing && rnd.nextInt(3) == 0 ? rnd.nextInt(16) : 0xf);
        sim.poke("dst_ready", closing ? allBut(destinations, rnd.nextInt(destinations)) : allBut(destinations, -1));
    }

    /** {@code dst_ready} with every queue open but the four of destination {@code closed} (none for -1). */
    public static BigInteger allBut(int destinations, int closed) {
        BigInteger all = BigInteger.ONE.shiftLeft(4 * destinations).subtract(BigInteger.ONE);
        for (int v = 0; closed >= 0 && v < 4; v++) {
            all = all.clearBit(v * destinations + closed);
        }
        return all;
    }
}
