package org.sue.transport.model;

/**
 * Reference of {@link org.sue.transport.ConnectionRouter} (docs/protocol.md 10.6, 10.8), cycle by cycle: each
 * connection port's route and detour route, which of its connections are detoured, whether it is moving or fleeing,
 * and the count of its decided PDUs that holds a move back.
 */
public final class ConnectionRouterModel {
    private final int ports;
    private final int destinations;
    private final int probeCycles;
    private final int[] route;
    private final int[] detourRoute;
    private final boolean[][] detoured;
    private final boolean[][] wants;
    private final boolean[][] aged;
    private final int[] decided;
    /** The wanted detours changed since the last move; some were newly wanted since then. */
    private final boolean[] changed;
    private final boolean[] fresh;
    /** The routes moved at the last clock edge (moving stays high for a cycle). */
    private final boolean[] moved;
    private boolean inside;
    private int probeCount;

    public ConnectionRouterModel(int ports, int destinations, int probeCycles) {
        this(ports, destinations, probeCycles, 0);
    }

    /**
     * A router whose count towards its next probe tick is at {@code probeCount} (the cycles since its reset, modulo
     * {@code probeCycles}), with nothing decided or detoured yet.
     */
    public ConnectionRouterModel(int ports, int destinations, int probeCycles, long probeCount) {
        if (ports != 2 && ports != 4) {
            throw new IllegalArgumentException("ports must be 2 or 4, got " + ports);
        }
        this.ports = ports;
        this.destinations = destinations;
        this.probeCycles = probeCycles;
        route = new int[ports];
        detourRoute = new int[ports];
        detoured = new boolean[ports][destinations];
        wants = new boolean[ports][destinations];
        aged = new boolean[ports][destinations];
        decided = new int[ports];
        changed = new boolean[ports];
        fresh = new boolean[ports];
        moved = new boolean[ports];
        this.probeCount = (int) (probeCount % probeCycles);
        for (int h = 0; h < ports; h++) {
            route[h] = h;
            detourRoute[h] = (h + 1) % ports;
        }
    }

    /** Connection port h's route now. */
    public int route(int h) {
        return route[h];
    }

    /** Connection port h's detour route now. */
    public int detourRoute(int h) {
        return detourRoute[h];
    }

    /** Whether connection {h, xpu} takes its port's detour route now (the XPU id's low bits name the connection). */
    public boolean detoured(int h, int xpu) {
        return detoured[h][xpu & (destinations - 1)];
    }

    /** The port connection {h, xpu}'s PDUs take now. */
    public int routeOf(int h, int xpu) {
        return detoured(h, xpu) ? detourRoute[h] : route[h];
    }

    /** Where h's route should be with the ports of bit mask {@code up} up: h, else the first up after it, else stay. */
    public int wanted(int h, int up) {
        return firstUp(h, up, -1, route[h]);
    }

    /** Where h's detour route should be: the first port up after h other than h, else stay. */
    private int wantedDetour(int h, int up) {
        return firstUp(h + 1, up, h, detourRoute[h]);
    }

    private int firstUp(int from, int up, int except, int otherwise) {
        for (int k = 0; k < ports; k++) {
            int p = (from + k) % ports;
            if (p != except && (up >> p & 1) != 0) {
                return p;
            }
        }
        return otherwise;
    }

    /** Whether h's routes are to move, or moved at the last edge: none of h's PDUs may be decided now. */
    public boolean moving(int h, int up) {
        return away(h, up) || moved[h];
    }

    private boolean away(int h, int up) {
        return wanted(h, up) != route[h] || changed[h] || any(wants[h]) && wantedDetour(h, up) != detourRoute[h];
    }

    private static boolean any(boolean[] bits) {
        for (boolean b : bits) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether h's routes move at the next clock edge away from a port that is down, or with connections newly wanting
     * a detour since the last move.
     */
    public boolean fleeing(int h, int up) {
        return movesNow(h, up) && ((up >> route[h] & 1) == 0 || fresh[h]);
    }

    private boolean movesNow(int h, int up) {
        return away(h, up) && decided[h] == 0 && !inside;
    }

    /**
     * One clock edge: {@code decidedNow[h]} PDUs of connection port h decided this cycle (picked, started),
     * {@code endedNow[h]} ended (returned, charged); a transport output beat if {@code outFire}; connection
     * {@code stuckPort}, {@code stuckXpu} stuck ({@code stuckPort} -1: none).
     */
    public void clock(int up, int[] decidedNow, int[] endedNow, boolean outFire, boolean outLast, int stuckPort,
                      int stuckXpu) {
        boolean tick = probeCount == probeCycles - 1;
        for (int h = 0; h < ports; h++) {
            boolean move = movesNow(h, up);
            moved[h] = move;
            if (move) {
                int wantedRoute = wanted(h, up);
                detourRoute[h] = wantedDetour(h, up);
                route[h] = wantedRoute;
                detoured[h] = wants[h].clone();
            }
            boolean possible = (up >> h & 1) != 0 && (up & ~(1 << h) & ((1 << ports) - 1)) != 0;
            boolean added = possible && stuckPort == h;
            boolean change = added || tick && any(aged[h]) || !possible && any(wants[h]);
            changed[h] = changed[h] && !move || change;
            fresh[h] = (fresh[h] && !move || added) && possible;
            for (int x = 0; x < destinations; x++) {
                boolean kept = tick ? wants[h][x] && !aged[h][x] : wants[h][x];
                boolean next = possible && (kept || stuckPort == h && (stuckXpu & (destinations - 1)) == x);
                aged[h][x] = (tick ? wants[h][x] && !aged[h][x] : aged[h][x]) && next;
                wants[h][x] = next;
            }
            decided[h] += decidedNow[h] - endedNow[h];
            if (decided[h] < 0) {
                throw new IllegalStateException("connection port " + h + ": more PDUs ended than were decided");
            }
        }
        if (outFire) {
            inside = !outLast;
        }
        probeCount = tick ? 0 : probeCount + 1;
    }
}
