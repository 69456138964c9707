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
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Flow;
import org.sue.net.SueMeta;

/**
 * Which port the PDUs of each connection port take (docs/protocol.md 10.6): the connections {h, XPU} of port h send on
 * {@code route[h]}, h itself while it is up, else the first port up after it (h + 1, h + 2, ... round); with no port
 * up a route stays where it is. A connection keeps its PSNs, its retransmit store and its peer's receive state
 * whichever port carries it, so a move loses and duplicates nothing: the connection's go-back-N resends what the old
 * port lost, and its receiver drops what it already has.
 *
 * <p>A route moves only when nothing is outstanding for its connection port: link credit is reserved on the route
 * where a PDU is decided (a pick, a transport start) and charged or returned on the route where it leaves, so the
 * two must be the same port. While {@code moving[h]} (the route is not where it should be) no PDU of h may be decided;
 * the count of h's decided PDUs ({@code picked}, {@code started} minus {@code returned}, {@code charged}) drains, and
 * the route moves in the first cycle it is 0 with no PDU half out of the transport ({@code out_fire},
 * {@code out_last}: the demultiplexer that reads the route must not change under a PDU).
 */
public final class ConnectionRouter extends Component {
    public static final Bound PORTS = Bound.powerOfTwo(2, 4);
    /** Bits of a connection port's count of decided PDUs not yet charged: more than the transport can hold. */
    private static final int COUNT_WIDTH = 6;
    /** A decision or its end: the connection port of the PDU. */
    public static final Layout EVENT = Layout.of("route_event", Layout.bits("port", SueMeta.PORT.width()));

    public final Port portUp;
    public final Flow picked;
    public final Flow started;
    public final Flow returned;
    public final Flow charged;
    public final Port outFire;
    public final Port outLast;
    /** Connection port h's route in bits {@code w*h + w-1 .. w*h}, w = log2(ports). */
    public final Port route;
    /** Bit h: connection port h is moving (decide nothing of it). */
    public final Port moving;
    /**
     * Bit h, for one cycle: h's route moved away from a port that is down, which may have lost what it carried (its
     * connections go back at once instead of waiting for their timeouts).
     */
    public final Port fled;

    private final int ports;
    private final int pw;

    public ConnectionRouter(int ports) {
        PORTS.check("ConnectionRouter", "ports", ports);
        this.ports = ports;
        pw = Integer.numberOfTrailingZeros(ports);
        portUp = in("port_up", ports);
        picked = Flow.slave(this, "picked", EVENT);
        started = Flow.slave(this, "started", EVENT);
        returned = Flow.slave(this, "returned", EVENT);
        charged = Flow.slave(this, "charged", EVENT);
        outFire = in("out_fire", 1);
        outLast = in("out_last", 1);

        if (pw < SueMeta.PORT.width()) { // two ports: the events' high port bit is 0
            unused("event_high_port", picked.field("port").msb(), started.field("port").msb(),
                    returned.field("port").msb(), charged.field("port").msb());
        }
        Expr halfOut = halfOut();
        List<Expr> routes = new ArrayList<>();
        List<Expr> movingBits = new ArrayList<>();
        List<Expr> fledBits = new ArrayList<>();
        Expr moves = Hw.bool(false);
        Expr detours = Hw.bool(false);
        for (int h = 0; h < ports; h++) {
            Reg now = reg("route_" + h, pw, h);
            Expr wanted = wire("wanted_" + h, wanted(h, now));
            Expr away = wire("moving_" + h, wanted.ne(now));
            Expr move = wire("move_" + h, away.and(decidedCount(h).eq(0)).and(halfOut.not()));
            when(move, () -> now.set(wanted));
            moves = moves.or(move);
            detours = detours.or(charged.valid().and(port(charged).eq(h)).and(now.ne(h)));
            routes.add(0, now);
            movingBits.add(0, away);
            fledBits.add(0, move.and(portUp.shr(now).bit(0).not()));
        }
        route = out("route", ports * pw);
        route.set(Hw.cat(routes));
        moving = out("moving", ports);
        moving.set(Hw.cat(movingBits));
        fled = out("fled", ports);
        fled.set(Hw.cat(fledBits));
        statusCounter("moves", moves, "Cycles in which a connection port's route moved (docs/protocol.md"
                + " 10.6)");
        statusCounter("detoured_pdus", detours, "PDUs sent on another port than their connection's (docs/protocol.md"
                + " 10.6)");
    }

    /** h itself while up, else the first port up after it, else where the route is now. */
    private Expr wanted(int h, Expr now) {
        List<Expr> up = new ArrayList<>();
        for (int p = 0; p < ports; p++) {
            up.add(portUp.bit(p));
        }
        Expr fromH = Arbiter.rotatingPick(up, Hw.lit(pw, (h + ports - 1) % ports)); // the first up after h - 1
        return Hw.mux(portUp.ne(0), fromH, now);
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

    /** A PDU has left the transport in part (a beat out, not its last). */
    private Expr halfOut() {
        Reg inside = reg("out_inside", 1, 0);
        when(outFire, () -> inside.set(outLast.not()));
        return inside;
    }
}
