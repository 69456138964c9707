package org.sue.transport.tb;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.sue.sim.Simulator;
import org.sue.transport.ConnectionRouter;
import org.sue.transport.model.ConnectionRouterModel;

/**
 * Follows an instance's {@link ConnectionRouter} (child {@code prefix}), from now (before any PDU or detour, its
 * count towards the next probe tick read from it), with the reference
 * {@link ConnectionRouterModel}, fed the same inputs every cycle; records every cycle whose routes, detoured
 * connections, moving or fled bits differ, and counts the moves, those away from a port that was down, and the
 * cycles with some connection detoured.
 */
public final class ConnectionRouterFollower implements Simulator.CycleListener {
    private static final String[] DECIDED = {"picked", "started"};
    private static final String[] ENDED = {"returned", "charged"};

    private final String prefix;
    private final int ports;
    private final int destinations;
    private final int pw;
    private final ConnectionRouterModel model;
    private final List<String> mismatches = new ArrayList<>();
    private long moves;
    private long fleeings;
    private long detouredCycles;

    public ConnectionRouterFollower(Simulator sim, String prefix, ConnectionRouter.Config config) {
        this.prefix = prefix;
        ports = config.ports();
        destinations = config.destinations();
        pw = Integer.numberOfTrailingZeros(ports);
        model = new ConnectionRouterModel(ports, destinations, config.probeCycles(), sim.peek(prefix + "probe_count"));
        sim.addListener(this);
    }

    @Override
    public void sample(Simulator sim, long cycle) {
        int up = (int) sim.peek(prefix + "port_up");
        long route = sim.peek(prefix + "route");
        long detourRoute = sim.peek(prefix + "detour_route");
        BigInteger detoured = sim.peekBig(prefix + "detoured");
        long moving = sim.peek(prefix + "moving");
        long fled = sim.peek(prefix + "fled");
        detouredCycles += detoured.signum() != 0 ? 1 : 0;
        for (int h = 0; h < ports; h++) {
            int r = (int) (route >> (pw * h)) & (ports - 1);
            int d = (int) (detourRoute >> (pw * h)) & (ports - 1);
            boolean m = (moving >> h & 1) != 0;
            boolean f = (fled >> h & 1) != 0;
            String wrongDetour = null;
            for (int x = 0; x < destinations && wrongDetour == null; x++) {
                if (detoured.testBit(h * destinations + x) != model.detoured(h, x)) {
                    wrongDetour = "connection " + h + "/" + x + " detoured " + model.detoured(h, x) + " in reference";
                }
            }
            if (r != model.route(h) || d != model.detourRoute(h) || m != model.moving(h, up)
                    || f != model.fleeing(h, up) || wrongDetour != null) {
                if (mismatches.size() < 20) {
                    mismatches.add("cycle " + cycle + " connection port " + h + ": route " + r + " detour " + d
                            + " moving " + m + " fled " + f + ", reference " + model.route(h) + " detour "
                            + model.detourRoute(h) + " moving " + model.moving(h, up) + " fled "
                            + model.fleeing(h, up) + (wrongDetour == null ? "" : "; " + wrongDetour));
                }
            }
            fleeings += f ? 1 : 0;
        }
        int[] decided = events(sim, DECIDED);
        int[] ended = events(sim, ENDED);
        int[] before = new int[ports];
        for (int h = 0; h < ports; h++) {
            before[h] = model.route(h);
        }
        boolean stuck = sim.peek(prefix + "stuck_valid") != 0;
        model.clock(up, decided, ended, sim.peek(prefix + "out_fire") != 0, sim.peek(prefix + "out_last") != 0,
                stuck ? (int) sim.peek(prefix + "stuck_port") & (ports - 1) : -1, (int) sim.peek(prefix + "stuck_xpu"));
        for (int h = 0; h < ports; h++) {
            moves += before[h] != model.route(h) ? 1 : 0;
        }
    }

    private int[] events(Simulator sim, String[] flows) {
        int[] n = new int[ports];
        for (String f : flows) {
            if (sim.peek(prefix + f + "_valid") != 0) {
                n[(int) sim.peek(prefix + f + "_port") & (ports - 1)]++;
            }
        }
        return n;
    }

    /** Cycles where the router and its reference differed (the first 20). */
    public List<String> mismatches() {
        return mismatches;
    }

    /** Route moves away from a port that was down, or with connections newly detoured. */
    public long fleeings() {
        return fleeings;
    }

    /** Route moves the reference made. */
    public long moves() {
        return moves;
    }

    /** Cycles in which some connection took its detour route. */
    public long detouredCycles() {
        return detouredCycles;
    }

    @Override
    public void close() {
    }
}
