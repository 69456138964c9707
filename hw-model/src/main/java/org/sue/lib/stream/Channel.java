package org.sue.lib.stream;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sue.core.Component;
import org.sue.core.ConstructionHelper;
import org.sue.core.Expr;
import org.sue.core.HdlException;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.PortDirection;
import org.sue.core.Scope;
import org.sue.core.Signal;
import org.sue.core.SourceLoc;

/**
 * What a {@link Stream} and a {@link Flow} share: a {@code valid} and a payload described by a {@link Layout}, every
 * member a named signal. Ports follow one pattern: {@code <name>_valid}, {@code <name>_<field>}; packet payloads
 * (fields {@code tdata}, {@code tkeep}, {@code tlast} and optional {@code tuser}) keep AXI-Stream names:
 * {@code s_axis_tvalid}, {@code m_axis_tdata}, ...
 */
@ConstructionHelper
public abstract sealed class Channel permits Stream, Flow {
    /** Field names of a packet payload. */
    public static final String TDATA = "tdata";
    public static final String TKEEP = "tkeep";
    public static final String TLAST = "tlast";
    public static final String TUSER = "tuser";

    final String name;
    final boolean axis;
    final Signal valid;
    final Layout layout;
    final Map<String, Signal> fields;

    Channel(String name, boolean axis, Signal valid, Layout layout, Map<String, Signal> fields) {
        this.name = name;
        this.axis = axis;
        this.valid = valid;
        this.layout = layout;
        this.fields = Collections.unmodifiableMap(fields);
    }

    public String name() { return name; }
    public Layout layout() { return layout; }
    public Signal valid() { return valid; }

    /** A beat moves this cycle. */
    public abstract Expr fire();

    /** A payload field by name. */
    public Signal field(String fieldName) {
        Signal s = fields.get(fieldName);
        if (s == null) {
            throw new HdlException("'" + name + "' has no field '" + fieldName + "' (fields: " + fields.keySet()
                    + ")", SourceLoc.here());
        }
        return s;
    }

    /** A field of a field that holds a nested layout ({@code head.cell}), or a plain field. */
    public Expr get(String path) {
        int dot = path.indexOf('.');
        return dot < 0 ? field(path) : layout.field(path.substring(0, dot)).nested()
                .get(field(path.substring(0, dot)), path.substring(dot + 1));
    }

    /** The payload packed by the layout (the field itself when there is one). */
    public Expr payload() {
        Layout.ExprBuilder b = layout.expr();
        fields.forEach(b::set);
        return b.build();
    }

    /** The field of a plain payload ({@code Layout.plain("data", w)}, as a {@code SyncFifo} carries). */
    public Signal data() { return field("data"); }

    public Signal tvalid() { return valid(); }
    public Signal tdata() { return field(TDATA); }
    public Signal tkeep() { return field(TKEEP); }
    public Signal tlast() { return field(TLAST); }
    public Signal tuser() { return field(TUSER); }

    /** The payload of a packet: {@code tdata}, {@code tkeep} (a lane each byte), {@code tlast}, {@code tuser}. */
    public static Layout packet(int dataWidth, int userWidth) {
        List<Layout.Spec> specs = new java.util.ArrayList<>(List.of(Layout.bits(TDATA, dataWidth),
                Layout.bits(TKEEP, dataWidth / 8), Layout.bits(TLAST, 1)));
        if (userWidth > 0) {
            specs.add(Layout.bits(TUSER, userWidth));
        }
        return Layout.of("packet", specs);
    }

    /**
     * Drives {@code sink}'s payload from {@code packedPayload} (in the sink's layout): the part of a connection that
     * does not depend on the handshake.
     */
    void drivePayload(Channel sink, Expr packedPayload) {
        checkWidth(sink.layout, packedPayload, sink.name);
        Map<String, Expr> f = split(sink.layout, packedPayload);
        sink.fields.forEach((n, sig) -> sig.set(f.get(n)));
    }

    /** Drives {@code sink}'s valid and payload from this one's, fields matched by name. */
    void driveSame(Channel sink) {
        if (!fields.keySet().equals(sink.fields.keySet())) {
            throw new HdlException("cannot connect '" + name + "' to '" + sink.name + "': fields " + fields.keySet()
                    + " and " + sink.fields.keySet() + " differ", SourceLoc.here());
        }
        sink.valid.set(valid);
        sink.fields.forEach((f, sig) -> sig.set(fields.get(f)));
    }

    /**
     * This packet channel's beat in another packet layout, {@code user} its tuser (null: none, or zero); the old
     * tuser, if any, declared unused.
     */
    Expr retaggedBeat(String newName, Layout packet, Expr user) {
        Layout.ExprBuilder beat = packet.expr().set(TDATA, tdata()).set(TKEEP, tkeep()).set(TLAST, tlast());
        if (user != null) {
            beat.set(TUSER, user);
        }
        if (fields.containsKey(TUSER)) {
            scope().unused(newName + "_tuser", tuser());
        }
        return beat.build();
    }

    /** Ties off an input of a child: never valid, every payload field zero. */
    void tieOffPayload() {
        for (Layout.Field f : layout.fields()) {
            fields.get(f.name()).set(org.sue.core.Hw.zeros(f.width()));
        }
    }

    // ---- shared construction -------------------------------------------------------------------------------------

    Scope scope() {
        return Scope.reading(valid);
    }

    /** The ports of a stream or flow: valid, ready (null for a flow), the payload fields. */
    record PortSet(Signal valid, Signal ready, Map<String, Signal> fields, boolean axis) {
    }

    static PortSet ports(Component c, String name, Layout payload, boolean withReady, PortDirection forward) {
        Scope s = Scope.of(c);
        PortDirection back = forward == PortDirection.IN ? PortDirection.OUT : PortDirection.IN;
        boolean axis = isPacket(payload);
        Map<String, Signal> fields = new LinkedHashMap<>();
        Signal valid;
        Signal ready = null;
        if (axis) { // AXI-Stream port order: tdata, tkeep, tvalid, tready, tlast, tuser
            fields.put(TDATA, s.port(name + "_" + TDATA, payload.field(TDATA).width(), forward));
            fields.put(TKEEP, s.port(name + "_" + TKEEP, payload.field(TKEEP).width(), forward));
            valid = s.port(name + "_tvalid", 1, forward);
            if (withReady) {
                ready = s.port(name + "_tready", 1, back);
            }
            fields.put(TLAST, s.port(name + "_" + TLAST, 1, forward));
            if (payload.fields().size() > 3) {
                fields.put(TUSER, s.port(name + "_" + TUSER, payload.field(TUSER).width(), forward));
            }
        } else {
            valid = s.port(name + "_valid", 1, forward);
            if (withReady) {
                ready = s.port(name + "_ready", 1, back);
            }
            for (Layout.Field f : payload.fields()) {
                fields.put(f.name(), s.port(name + "_" + f.name(), f.width(), forward));
            }
        }
        s.payloadOf((Port) valid, fields.values().toArray(new Port[0]));
        return new PortSet(valid, ready, ordered(payload, fields), axis);
    }

    static boolean isPacket(Layout l) {
        List<Layout.Field> f = l.fields();
        return f.size() >= 3 && f.get(0).name().equals(TDATA) && f.get(1).name().equals(TKEEP)
                && f.get(2).name().equals(TLAST) && (f.size() == 3 || f.size() == 4 && f.get(3).name().equals(TUSER));
    }

    private static Map<String, Signal> ordered(Layout layout, Map<String, Signal> fields) {
        Map<String, Signal> m = new LinkedHashMap<>();
        for (Layout.Field f : layout.fields()) {
            m.put(f.name(), fields.get(f.name()));
        }
        return m;
    }

    /** The fields of {@code layout} taken from a packed payload (the payload itself for a one-field layout). */
    static Map<String, Expr> split(Layout layout, Expr packed) {
        Map<String, Expr> f = new LinkedHashMap<>();
        for (Layout.Field field : layout.fields()) {
            f.put(field.name(), layout.fields().size() == 1 ? packed : field.of(packed));
        }
        return f;
    }

    static void checkWidth(Layout layout, Expr packed, String what) {
        if (packed.width() != layout.width()) {
            throw new HdlException("'" + what + "': payload is " + packed.width() + " bits, layout '" + layout.name()
                    + "' " + layout.width(), SourceLoc.here());
        }
    }

    static String memberName(String channelName, String what, boolean axis) {
        return channelName + "_" + (axis ? "t" : "") + what;
    }

    /** A valid as a signal: kept when it is one, else a wire {@code <name>_valid}. */
    static Signal validSignal(Scope s, String newName, Expr newValid, boolean axis) {
        return newValid instanceof Signal sig ? sig : s.wire(memberName(newName, "valid", axis), newValid);
    }

    /** Each field as a signal: kept when it is one, else a wire {@code <name>_<field>}. */
    static Map<String, Signal> wires(Scope s, String channelName, Map<String, ? extends Expr> f) {
        Map<String, Signal> m = new LinkedHashMap<>();
        f.forEach((n, e) -> m.put(n, e instanceof Signal sig ? sig : s.wire(channelName + "_" + n, e)));
        return m;
    }
}
