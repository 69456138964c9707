package org.sue.transport.model;

/**
 * Reference of {@link org.sue.transport.ConnectionRouter} (docs/protocol.md 10.6), cycle by cycle: each connection
 * port's route, whether it is moving or fleeing a port that is down, and the count of its decided PDUs that holds a
 * move back.
 */
public final class ConnectionRouterModel {
    private final int ports;
    private final int[] route;
    private final int[] decided;
    private boolean inside;

    public ConnectionRouterModel(int ports) {
        if (ports != 2 && ports != 4) {
            throw new IllegalArgumentException("ports must be 2 or 4, got " + ports);
        }
        this.ports = ports;
        route = new int[ports];
        decided = new int[ports];
        for (int h = 0; h < ports; h++) {
            route[h] = h;
        }
    }

    /** Connection port h's route now. */
    public int route(int h) {
        return route[h];
    }

    /** Where h's route should be with the ports of bit mask {@code up} up: h, else the first up after it, else stay. */
    public int wanted(int h, int up) {
        for (int k = 0; k < ports; k++) {
            int p = (h + k) % ports;
            if ((up >> p & 1) != 0) {
                return p;
            }
        }
        return route[h];
    }

    public boolean moving(int h, int up) {
        return wanted(h, up) != route[h];
    }

    /** Whether h's route moves at the next clock edge away from a port that is down. */
    public boolean fleeing(int h, int up) {
        return movesNow(h, up) && (up >> route[h] & 1) == 0;
    }

    private boolean movesNow(int h, int up) {
        return moving(h, up) && decided[h] == 0 && !inside;
    }

    /**
     * One clock edge: {@code decidedNow[h]} PDUs of connection port h decided this cycle (picked, started),
     * {@code endedNow[h]} ended (returned, charged); a transport output beat if {@code outFire}.
     */
    public void clock(int up, int[] decidedNow, int[] endedNow, boolean outFire, boolean outLast) {
        for (int h = 0; h < ports; h++) {
            if (movesNow(h, up)) {
                route[h] = wanted(h, up);
            }
            decided[h] += decidedNow[h] - endedNow[h];
            if (decided[h] < 0) {
                throw new IllegalStateException("connection port " + h + ": more PDUs ended than were decided");
            }
        }
        if (outFire) {
            inside = !outLast;
        }
    }
}
