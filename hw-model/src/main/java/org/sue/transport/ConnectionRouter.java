package org.sue.transport;

import java.util.ArrayList;
import java.util.List;
import org.sue.core.Bound;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Status;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Flow;
import org.sue.net.SueMeta;

/**
 * Which port the PDUs of each connection take (docs/protocol.md 10.6): the connections {h, XPU} of port h send on
 * {@code route[h]}, h itself while it is up, else the first port up after it (h + 1, h + 2, ... round); with no port
 * up a route stays where it is. A connection {h, X} that stops answering while port h is up (the far end's way to X
 * through port h is broken) is <em>detoured</em>: it sends on {@code detour_route[h]}, the first other port up after
 * h, until a later probe on its home port finds the way open again (10.8). A connection keeps its PSNs, its
 * retransmit store and its peer's receive state whichever port carries it, so a move loses and duplicates nothing:
 * the connection's go-back-N resends what the old port lost, and its receiver drops what it already has.
 *
 * <p>Connection port h's routes (its route, its detour route and which of its connections are detoured) move only
 * when nothing is outstanding for h: link credit is reserved on the route where a PDU is decided (a pick, a transport
 * start) and charged or returned on the route where it leaves, so the two must be the same port. While
 * {@code moving[h]} (a route is not where it should be) no PDU of h may be decided; the count of h's decided PDUs
 * ({@code picked}, {@code started} minus {@code returned}, {@code charged}) drains, and the routes move in the first
 * cycle it is 0 with no PDU half out of the transport ({@code out_fire}, {@code out_last}: the demultiplexer that
 * reads the route must not change under a PDU). {@code moving[h]} stays high for the cycle after a move: the
 * transport looks a start's detour up a cycle late.
 *
 * <p>Detours: a connection {h, X} the transport reports {@code stuck} ({@link TransportTx#stuck}: a second timeout in
 * a row without progress) wants a detour while port h and another port are up. Every {@code probeCycles} the detours
 * wanted since before the last such tick end: the connection goes home, and stays there if the way is open (its
 * probe), or is stuck again two timeouts later. So a detour lasts between one and two {@code probeCycles}.
 */
public final class ConnectionRouter extends Component {
    public static final Bound PORTS = Bound.powerOfTwo(2, 4);
    /** Bits of a connection port's count of decided PDUs not yet charged: more than the transport can hold. */
    private static final int COUNT_WIDTH = 6;
    /** A decision or its end: the connection port of the PDU. */
    public static final Layout EVENT = Layout.of("route_event", Layout.bits("port", SueMeta.PORT.width()));
    /** A connection's event: its {port, XPU}. */
    public static final Layout CONNECTION = Layout.of("route_connection", Layout.bits("port", SueMeta.PORT.width()),
            Layout.bits("xpu", SueMeta.XPU_WIDTH));

    /**
     * @param ports        ports of the instance, 2 or 4
     * @param destinations connections per port (a power of two, as the transport's)
     * @param probeCycles  how long a detour lasts before its connection tries home again (between one and two of it)
     */
    public record Config(int ports, int destinations, int probeCycles) {
        public Config {
            PORTS.check("ConnectionRouter", "ports", ports);
            SueMeta.DESTINATIONS.check("ConnectionRouter", "destinations", destinations);
            TransportConfig.PROBE_CYCLES.check("ConnectionRouter", "probeCycles", probeCycles);
        }

        /** The router of a transport's connections. */
        public static Config of(TransportConfig transport) {
            return new Config(transport.ports(), transport.destinations(), transport.probeCycles());
        }
    }

    public final Port portUp;
    public final Flow picked;
    public final Flow started;
    public final Flow returned;
    /** A PDU left the transport: its connection {port, XPU}. */
    public final Flow charged;
    /** A connection's second timeout in a row without progress (its {port, XPU}): it wants a detour. */
    public final Flow stuck;
    public final Port outFire;
    public final Port outLast;
    /** Connection port h's route in bits {@code w*h + w-1 .. w*h}, w = log2(ports). */
    public final Port route;
    /** Connection port h's detour route, laid out as {@link #route}. */
    public final Port detourRoute;
    /** Bit {@code h * destinations + x}: connection {h, x} takes its port's detour route. */
    public final Port detoured;
    /** Bit h: connection port h is moving, or moved in the cycle before (decide nothing of it). */
    public final Port moving;
    /**
     * Bit h, for one cycle: h's route moved away from a port that is down, or some of h's connections took a detour;
     * what the old way carried may be lost (its connections go back at once instead of waiting for their timeouts).
     */
    public final Port fled;

    private final Config config;
    private final int ports;
    private final int pw;

    public ConnectionRouter(Config config) {
        super(config);
        this.config = config;
        ports = config.ports();
        pw = Integer.numberOfTrailingZeros(ports);
        int n = config.destinations();
        portUp = in("port_up", ports);
        picked = Flow.slave(this, "picked", EVENT);
        started = Flow.slave(this, "started", EVENT);
        returned = Flow.slave(this, "returned", EVENT);
        charged = Flow.slave(this, "charged", CONNECTION);
        stuck = Flow.slave(this, "stuck", CONNECTION);
        outFire = in("out_fire", 1);
        outLast = in("out_last", 1);

        int xw = Hw.log2Up(n);
        List<Expr> spare = new ArrayList<>();
        for (Flow f : List.of(picked, started, returned, charged, stuck)) {
            if (pw < SueMeta.PORT.width()) { // two ports: the events' high port bit is 0
                spare.add(f.field("port").msb());
            }
        }
        for (Flow f : List.of(charged, stuck)) {
            if (xw < SueMeta.XPU_WIDTH) { // connections are kept by the XPU id's low bits, as the transport's
                spare.add(f.field("xpu").bits(SueMeta.XPU_WIDTH - 1, xw));
            }
        }
        if (!spare.isEmpty()) {
            unused("event_spare_bits", spare.toArray(Expr[]::new));
        }
        Expr halfOut = halfOut();
        Expr tick = probeTick();
        List<Expr> routes = new ArrayList<>();
        List<Expr> detourRoutes = new ArrayList<>();
        List<Expr> detouredRows = new ArrayList<>();
        List<Expr> movingBits = new ArrayList<>();
        List<Expr> fledBits = new ArrayList<>();
        Expr moves = Hw.bool(false);
        Expr detours = Hw.bool(false);
        Expr newDetours = Hw.bool(false);
        Expr probes = Hw.bool(false);
        for (int h = 0; h < ports; h++) {
            Reg now = reg("route_" + h, pw, h);
            Reg alt = reg("detour_route_" + h, pw, (h + 1) % ports);
            Reg taken = reg("detoured_" + h, n, 0);
            Detours d = detourWants(h, tick);
            Expr wanted = wire("wanted_" + h, wanted(h, now));
            Expr wantedAlt = wire("wanted_detour_" + h, wantedDetour(h, alt));
            Expr away = wire("moving_" + h, wanted.ne(now).or(d.changed()).or(d.any().and(wantedAlt.ne(alt))));
            Expr move = wire("move_" + h, away.and(decidedCount(h).eq(0)).and(halfOut.not()));
            when(move, () -> {
                now.set(wanted);
                alt.set(wantedAlt);
                taken.set(d.wants());
            });
            d.settle(move);
            Reg moved = reg("moved_" + h, 1, 0); // a start's detour is looked up a cycle late (TransportTx)
            moved.set(move);
            newDetours = newDetours.or(d.added());
            probes = probes.or(d.probe());
            moves = moves.or(move);
            Expr chargedHere = charged.valid().and(port(charged).eq(h));
            Expr viaDetour = taken.shr(xpu(charged)).bit(0);
            detours = detours.or(chargedHere.and(Hw.mux(viaDetour, alt, now).ne(h)));
            routes.add(0, now);
            detourRoutes.add(0, alt);
            detouredRows.add(0, taken);
            movingBits.add(0, away.or(moved));
            fledBits.add(0, move.and(portUp.shr(now).bit(0).not().or(d.fresh())));
        }
        route = out("route", ports * pw);
        route.set(Hw.cat(routes));
        detourRoute = out("detour_route", ports * pw);
        detourRoute.set(Hw.cat(detourRoutes));
        detoured = out("detoured", ports * n);
        detoured.set(Hw.cat(detouredRows));
        moving = out("moving", ports);
        moving.set(Hw.cat(movingBits));
        fled = out("fled", ports);
        fled.set(Hw.cat(fledBits));
        statusCounter("moves", moves, "Cycles in which a connection port's routes moved (docs/protocol.md 10.6)");
        lateStatusCounter("detoured_pdus", detours, "PDUs sent on another port than their connection's (docs/protocol.md"
                + " 10.6, 10.8)");
        lateStatusCounter("detours", newDetours, "Connections {port, XPU} that stopped answering while their port was"
                + " up and took another port (docs/protocol.md 10.8)");
        statusCounter("home_probes", probes, "Ticks of probeCycles that sent detoured connections home to try their"
                + " own port again (docs/protocol.md 10.8)");
        status("detours_now", Status.Kind.STATE, detoured, "Connections taking another port than their own, bit"
                + " h * destinations + x for {h, x} (docs/protocol.md 10.8)");
    }

    /**
     * A connection port's wanted detours ({@code wants}, a bit per XPU) and flags kept beside them, so that no decision
     * compares all of them: some wanted ({@code any}); changed since the last move ({@code changed}) and some newly
     * wanted since then ({@code fresh}), both kept by {@link #settle}; this cycle, a change ({@code change}), one
     * wanted ({@code added}), a tick sending some home ({@code probe}).
     */
    private record Detours(Reg wants, Reg any, Reg changed, Reg fresh, Expr change, Expr added, Expr probe,
                           Expr possible) {
        /** The flags kept until a move ({@code move}: the routes take the wanted detours now). */
        void settle(Expr move) {
            changed.set(changed.and(move.not()).or(change));
            fresh.set(fresh.and(move.not()).or(added).and(possible));
        }
    }

    /**
     * The detours connection port h's connections want: a stuck connection's while port h and another are up; at a
     * tick those wanted since before the last tick ({@code aged}) end. With port h or every other port down, none.
     */
    private Detours detourWants(int h, Expr tick) {
        int n = config.destinations();
        Reg wants = reg("wants_detour_" + h, n, 0);
        Reg aged = reg("detour_aged_" + h, n, 0);
        Reg any = reg("wants_any_" + h, 1, 0);
        Reg anyAged = reg("detour_aged_any_" + h, 1, 0);
        Expr possible = wire("detour_possible_" + h, portUp.bit(h).and(othersUp(h)));
        Expr stuckHere = stuck.valid().and(port(stuck).eq(h)).and(possible);
        Expr kept = Hw.mux(tick, wants.and(aged.not()), wants);
        Expr stuckBit = Hw.mux(stuckHere, Hw.lit(n, 1).shl(xpu(stuck)), Hw.zeros(n));
        Expr next = wire("wants_detour_next_" + h, Hw.mux(possible, kept.or(stuckBit), Hw.zeros(n)));
        Expr agedNext = Hw.mux(tick, wants.and(aged.not()), aged).and(next);
        wants.set(next);
        aged.set(agedNext);
        any.set(next.ne(0));
        anyAged.set(agedNext.ne(0));
        Expr probe = tick.and(anyAged);
        // one wanted (a connection is stuck once per stall: not looked up, a detour it has already is taken again),
        // aged ones sent home, or all dropped
        Expr change = stuckHere.or(probe).or(possible.not().and(any));
        return new Detours(wants, any, reg("detours_changed_" + h, 1, 0), reg("detours_fresh_" + h, 1, 0), change,
                stuckHere, probe, possible);
    }

    /** High for one cycle every probeCycles (a register: the detours' sums behind it are deep). */
    private Expr probeTick() {
        int w = Hw.log2Up(config.probeCycles());
        Reg count = reg("probe_count", w, 0);
        Reg tick = reg("probe_tick", 1, 0); // high while the count is probeCycles - 1
        count.set(Hw.mux(count.eq(config.probeCycles() - 1), Hw.zeros(w), count.add(1)));
        tick.set(count.eq(config.probeCycles() - 2));
        return tick;
    }

    /** h itself while up, else the first port up after it, else where the route is now. */
    private Expr wanted(int h, Expr now) {
        Expr fromH = Arbiter.rotatingPick(upBits(-1), Hw.lit(pw, (h + ports - 1) % ports)); // first up after h - 1
        return Hw.mux(portUp.ne(0), fromH, now);
    }

    /** The first port up after h other than h, else where the detour route is now. */
    private Expr wantedDetour(int h, Expr alt) {
        Expr afterH = Arbiter.rotatingPick(upBits(h), Hw.lit(pw, h));
        return Hw.mux(othersUp(h), afterH, alt);
    }

    /** Some port other than h is up. */
    private Expr othersUp(int h) {
        return portUp.and(Hw.lit(ports, ((1L << ports) - 1) & ~(1L << h))).ne(0);
    }

    /** The ports' up bits, port {@code except}'s forced low (-1: none). */
    private List<Expr> upBits(int except) {
        List<Expr> up = new ArrayList<>();
        for (int p = 0; p < ports; p++) {
            up.add(p == except ? Hw.bool(false) : portUp.bit(p));
        }
        return up;
    }

    /** PDUs of connection port h decided (picked or started) and not yet charged or returned. */
    private Expr decidedCount(int h) {
        Reg count = reg("decided_" + h, COUNT_WIDTH, 0);
        Expr up = one(picked, h).add(one(started, h));
        Expr down = one(returned, h).add(one(charged, h));
        count.set(count.add(up.resize(COUNT_WIDTH)).sub(down.resize(COUNT_WIDTH)));
        return count;
    }

    /** 1 (2 bits wide) in a cycle {@code events} has an event of connection port h. */
    private Expr one(Flow events, int h) {
        return events.valid().and(port(events).eq(h)).resize(2);
    }

    private Expr port(Flow events) {
        return events.field("port").bits(pw - 1, 0);
    }

    /** The row of a connection event's XPU in its port's table: the id's low bits. */
    private Expr xpu(Flow events) {
        return events.field("xpu").bits(Hw.log2Up(config.destinations()) - 1, 0);
    }

    /** A PDU has left the transport in part (a beat out, not its last). */
    private Expr halfOut() {
        Reg inside = reg("out_inside", 1, 0);
        when(outFire, () -> inside.set(outLast.not()));
        return inside;
    }
}
