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
     * has no window; without: everything open.
     */
    public static void set(Simulator sim, Random rnd, int destinations, boolean closing) {
        BigInteger all = BigInteger.ONE.shiftLeft(destinations).subtract(BigInteger.ONE);
        sim.poke("vc_ready", closing && rnd.nextInt(3) == 0 ? rnd.nextInt(16) : 0xf);
        sim.poke("dst_ready", closing ? all.clearBit(rnd.nextInt(destinations)) : all);
    }
}
