package org.sue.transport.tb;

import java.util.ArrayList;
import java.util.List;
import org.sue.sim.Simulator;
import org.sue.transport.model.ConnectionRouterModel;

/**
 * Follows an instance's {@link org.sue.transport.ConnectionRouter} (child {@code prefix}) with the reference
 * {@link ConnectionRouterModel}, fed the same inputs every cycle; records every cycle whose route or moving bit
 * differs, and counts the moves and those away from a port that was down.
 */
public final class ConnectionRouterFollower implements Simulator.CycleListener {
    private static final String[] DECIDED = {"picked", "started"};
    private static final String[] ENDED = {"returned", "charged"};

    private final String prefix;
    private final int ports;
    private final int pw;
    private final ConnectionRouterModel model;
    private final List<String> mismatches = new ArrayList<>();
    private long moves;
    private long fleeings;

    public ConnectionRouterFollower(Simulator sim, String prefix, int ports) {
        this.prefix = prefix;
        this.ports = ports;
        pw = Integer.numberOfTrailingZeros(ports);
        model = new ConnectionRouterModel(ports);
        sim.addListener(this);
    }

    @Override
    public void sample(Simulator sim, long cycle) {
        int up = (int) sim.peek(prefix + "port_up");
        long route = sim.peek(prefix + "route");
        long moving = sim.peek(prefix + "moving");
        long fled = sim.peek(prefix + "fled");
        for (int h = 0; h < ports; h++) {
            int r = (int) (route >> (pw * h)) & (ports - 1);
            boolean m = (moving >> h & 1) != 0;
            boolean f = (fled >> h & 1) != 0;
            if (r != model.route(h) || m != model.moving(h, up) || f != model.fleeing(h, up)) {
                if (mismatches.size() < 20) {
                    mismatches.add("cycle " + cycle + " connection port " + h + ": route " + r + " moving " + m
                            + " fled " + f + ", reference " + model.route(h) + " moving " + model.moving(h, up)
                            + " fled " + model.fleeing(h, up));
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
        model.clock(up, decided, ended, sim.peek(prefix + "out_fire") != 0, sim.peek(prefix + "out_last") != 0);
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

    /** Route moves away from a port that was down. */
    public long fleeings() {
        return fleeings;
    }

    /** Route moves the reference made. */
    public long moves() {
        return moves;
    }

    @Override
    public void close() {
    }
}
