package org.sue.axi;

import java.util.ArrayList;
import java.util.List;
import org.sue.cmd.CommandControl;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.lib.stream.Arbiter;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;

/**
 * The responses of the AXI4 slave (docs/protocol.md 13.5): response commands from the far XPUs, and the requests SUE
 * answered itself, given back to the SoC as B and R.
 *
 * <ul>
 *   <li>WRITE_RESPONSEs come one per part of a write burst; their responses merge per ID (the worse wins: DECERR,
 *   SLVERR, OKAY, EXOKAY) into one B, given with the burst's last part's.</li>
 *   <li>A READ_RESPONSE is one R beat per data beat, with its ID, the response the control gives for that beat, and
 *   RLAST on the last beat of the burst's last part. A part's beats follow each other; beats of another ID may come
 *   between two parts (AXI4 allows read data of different IDs to interleave), never within one.</li>
 *   <li>A request answered by SUE ({@code local}): a B, or its AxLEN + 1 R beats of zeros, with its response.</li>
 *   <li>Any other command type is dropped and counted ({@code bad_commands}).</li>
 *   <li>{@code wdone}/{@code rdone}: the ID of each B, and of each R beat with RLAST, given to the SoC: the request
 *   side's outstanding counts go down.</li>
 * </ul>
 */
public final class AxiResponseUnpacker extends Component {
    public record Config(AxiConfig axi) {
        public Config {
            if (axi == null) {
                throw new IllegalArgumentException("AxiResponseUnpacker axi must be given");
            }
        }
    }

    private final AxiConfig axi;
    private final Layout rPart;
    public final Stream rsp;
    public final Stream local;
    public final Stream b;
    public final Stream r;
    public final Flow wdone;
    public final Flow rdone;
    /** Each ID's epoch for writes and for reads (the request side's): a response command of another is stale. */
    public final Port wrEpochs;
    public final Port rdEpochs;
    /** The response command being given: it completes its transaction, so SUE does not answer that one itself. */
    public final Flow committed;
    /** Per ID, a B answered by SUE itself: the ID's merged parts so far (of an abandoned burst) are forgotten. */
    private final List<Reg> partSeen = new ArrayList<>();
    /** Per ID, the R beats of its burst under way given to the SoC. */
    private final List<Reg> beatsGiven = new ArrayList<>();

    public AxiResponseUnpacker(Config config) {
        super(config);
        this.axi = config.axi();
        // an R beat and whether it ends its part (a command, or an answer's beats), so that parts never interleave
        this.rPart = Layout.of("r_part", Layout.nested("r", axi.r()), Layout.bits("tlast", 1));
        rsp = Stream.slave(this, "rsp", axi.commandBeat());
        local = Stream.slave(this, "local", axi.localResponse());
        b = Stream.master(this, "b", axi.b());
        r = Stream.master(this, "r", axi.r());
        Layout id = Layout.plain("id", axi.idWidth());
        wdone = Flow.master(this, "wdone", id);
        rdone = Flow.master(this, "rdone", id);
        int epochs = AxiConfig.EPOCH_BITS << axi.idWidth();
        wrEpochs = in("wr_epochs", epochs);
        rdEpochs = in("rd_epochs", epochs);
        committed = Flow.master(this, "committed", axi.committed());

        for (int i = 0; i < 1 << axi.idWidth(); i++) {
            beatsGiven.add(reg("r_beats_given_" + i, AxiConfig.BEATS_WIDTH, 0));
        }
        Channels remote = unpack(rsp);
        Channels answers = answer(local);
        for (int i = 0; i < partSeen.size(); i++) {
            Reg sr = partSeen.get(i);
            when(answers.b().fire().and(answers.b().get("id").eq(i)), () -> sr.set(0));
        }
        Arbiter.roundRobin("b_arb", List.of(remote.b(), answers.b())).out().into(b);
        Stream rOut = Arbiter.roundRobinPackets("r_arb", List.of(remote.r(), answers.r())).out();
        rOut.map("r_beat", axi.r(), rOut.get("r")).into(r);
        for (int i = 0; i < beatsGiven.size(); i++) {
            Reg g = beatsGiven.get(i);
            when(r.fire().and(r.get("id").eq(i)), () -> g.set(Hw.mux(r.get("last"), Hw.zeros(AxiConfig.BEATS_WIDTH),
                    g.add(1))));
        }
        wdone.drive(b.fire(), b.get("id"));
        rdone.drive(r.fire().and(r.get("last")), r.get("id"));
        lateStatusCounter("write_responses", b.fire(), "B responses given to the SoC");
        lateStatusCounter("read_bursts", r.fire().and(r.get("last")), "R bursts given to the SoC (beats with RLAST)");
    }

    /** What goes to the B and R channels from one source. */
    private record Channels(Stream b, Stream r) {
    }

    /**
     * Response commands: the type on a command's first beat routes it (later beats follow it to R); the control,
     * on the first beat only, is held for the rest of the command.
     */
    private Channels unpack(Stream rsp) {
        // ready registered: the judging (stale) decides this stream's ready, a long path back into the FIFO interface
        Stream in = rsp.skid("rsp_skid");
        Reg first = reg("rsp_at_first", 1, 1);
        Reg held = reg("rsp_held_control", axi.readResponseControl().width(), 0);
        Reg beat = reg("rsp_beat_index", 8, 0);
        Expr word = in.get("control");
        Expr type = CommandControl.LAYOUT.get(word, "type");
        Expr live = CommandControl.LAYOUT.get(word, "control").resize(axi.readResponseControl().width());
        Expr control = Hw.mux(first, live, held);
        // 0: WRITE_RESPONSE, 1: READ_RESPONSE (and every later beat), 2: anything else
        Expr route = Hw.mux(first.not().or(type.eq(AxiConfig.READ_RESPONSE)), Hw.lit(2, 1),
                Hw.mux(type.eq(AxiConfig.WRITE_RESPONSE), Hw.lit(2, 0), Hw.lit(2, 2)));
        Expr stale = stale(in, first, type, live);
        // a held command is a READ_RESPONSE being given: its epoch was judged on its first beat
        unused("rsp_held_epoch", held.bits(axi.commandIdWidth() - 1, axi.idWidth()));
        when(in.fire(), () -> {
            first.set(in.get("tlast"));
            beat.set(Hw.mux(in.get("tlast"), Hw.lit(8, 0), beat.add(1)));
            when(first, () -> held.set(live));
        });
        List<Stream> routes = in.demux("rsp_route", route, 3);
        Stream bs = merged(routes.get(0).throwWhen("rsp_b_stale", stale), live);
        Layout rc = axi.readResponseControl();
        Expr resps = rc.get(control, "resp");
        Expr resp = resps.shr(Hw.cat(beat.bits(Hw.log2Up(axi.partBeats()) - 1, 0), Hw.lit(1, 0))).bits(1, 0);
        Expr last = in.get("tlast");
        Stream rs = routes.get(1).throwWhen("rsp_r_stale", stale).map("rsp_r", rPart, rPart.expr().set("r", axi.r()
                .expr().set("data", in.get("data")).set("id", socId(rc.get(control, "id"))).set("resp", resp)
                .set("last", last.and(rc.get(control, "last"))).build()).set("tlast", last).build());
        Stream bad = routes.get(2);
        bad.ready().set(1);
        lateStatusCounter("bad_commands", bad.fire().and(first), "response commands of a type that is not a response");
        // the length follows from the beats; control bytes past the response's control are zero
        Expr bits = CommandControl.LAYOUT.get(word, "control");
        unused("rsp_rest", in.get("xpuid"), in.get("vc"), CommandControl.length(word),
                bits.bits(bits.width() - 1, axi.readResponseControl().width()));
        return new Channels(bs, rs);
    }

    /** AxID of a command ID (without its epoch). */
    private Expr socId(Expr commandId) {
        return commandId.bits(axi.idWidth() - 1, 0);
    }

    /**
     * Whether the response command on {@code in} is stale: its ID's epoch is not the ID's epoch now, so the request
     * side has answered its transaction itself (docs/protocol.md 13.3); all its beats are dropped, and counted. Judged
     * on its first beat and held for the rest; once a first beat has been offered and found current it stays
     * current until taken, so that a beat offered is never withdrawn. A command being given is {@code committed}.
     */
    private Expr stale(Stream in, Reg first, Expr type, Expr live) {
        Reg held = reg("rsp_stale", 1, 0);
        Reg offered = reg("rsp_offered", 1, 0); // the first beat waits, found current
        Reg heldId = reg("rsp_held_id", axi.idWidth(), 0);
        Expr commandId = axi.writeResponseControl().get(live.resize(axi.writeResponseControl().width()), "id");
        Expr id = socId(commandId);
        Expr epoch = commandId.bits(commandId.width() - 1, axi.idWidth());
        Expr write = type.eq(AxiConfig.WRITE_RESPONSE);
        Expr now = Hw.mux(write, Hw.selectTree(slices(wrEpochs), id), Hw.selectTree(slices(rdEpochs), id));
        Expr response = write.or(type.eq(AxiConfig.READ_RESPONSE));
        Expr stale = wire("rsp_stale_now", Hw.mux(first, response.and(epoch.ne(now)).and(offered.not()), held));
        when(in.fire(), () -> {
            offered.set(0);
            when(first, () -> {
                held.set(stale);
                heldId.set(id);
            });
        }).elseWhen(in.valid().and(first).and(stale.not()), () -> offered.set(1));
        // only a READ_RESPONSE has beats after its first: a command under way is a read's
        committed.drive(Hw.mux(first, in.valid().and(offered), held.not()), axi.committed().expr()
                .set("write", first.and(write)).set("id", Hw.mux(first, id, heldId)).build());
        lateStatusCounter("stale_responses", in.fire().and(first).and(stale), "response commands dropped: their "
                + "transaction was answered SLVERR when the transport gave up on its destination");
        return stale;
    }

    /** A port of an epoch per ID as its slices, ID 0 first. */
    private List<Expr> slices(Port epochs) {
        List<Expr> l = new ArrayList<>();
        for (int i = 0; i < 1 << axi.idWidth(); i++) {
            l.add(epochs.bits(AxiConfig.EPOCH_BITS * i + AxiConfig.EPOCH_BITS - 1, AxiConfig.EPOCH_BITS * i));
        }
        return l;
    }

    /**
     * WRITE_RESPONSEs, one per part, merged per ID into the burst's one B, given with the last part's: the worse
     * response wins (DECERR, SLVERR, OKAY, EXOKAY, in that order).
     */
    private Stream merged(Stream parts, Expr live) {
        Layout wc = axi.writeResponseControl();
        Expr control = live.resize(wc.width());
        Expr id = socId(wc.get(control, "id"));
        Expr resp = wc.get(control, "resp");
        Expr last = wc.get(control, "last");
        List<Reg> worst = new ArrayList<>();
        for (int i = 0; i < 1 << axi.idWidth(); i++) {
            partSeen.add(reg("wr_part_seen_" + i, 1, 0));
            worst.add(reg("wr_part_resp_" + i, 2, 0));
        }
        Expr before = Hw.selectTree(worst, id);
        Expr merged = wire("wr_merged_resp", Hw.mux(Hw.selectTree(partSeen, id).and(rank(before).ge(rank(resp))),
                before, resp));
        for (int i = 0; i < 1 << axi.idWidth(); i++) {
            Reg sr = partSeen.get(i);
            Reg wr = worst.get(i);
            when(parts.fire().and(id.eq(i)), () -> {
                sr.set(last.not());
                wr.set(merged);
            });
        }
        return parts.map("rsp_b", axi.b(), axi.b().expr().set("id", id).set("resp", merged).build())
                .throwWhen("rsp_b_last", last.not());
    }

    /** A response's severity: EXOKAY 0, OKAY 1, SLVERR 2, DECERR 3. */
    private static Expr rank(Expr resp) {
        return Hw.cat(resp.bit(1), resp.bit(0).xor(resp.bit(1).not()));
    }

    /** Requests SUE answered: a B, or the answer's R beats. */
    private Channels answer(Stream in) {
        List<Stream> routes = in.demux("local_route", in.get("write"), 2);
        Stream bs = routes.get(1).map("local_b", axi.b(), axi.b().expr().set("id", in.get("id"))
                .set("resp", in.get("resp")).build());
        Stream reads = routes.get(0);
        // the burst's beats given so far, its part-responses' included (an abandoned read's answer gives the rest)
        Expr given = Hw.selectTree(beatsGiven, reads.get("id"));
        Expr last = given.add(1).eq(reads.get("beats"));
        Stream rs = Stream.of(this, "local_r", reads.valid(), rPart, rPart.expr().set("r", axi.r().expr()
                .set("id", reads.get("id")).set("resp", reads.get("resp")).set("last", last).build())
                .set("tlast", last).build());
        reads.ready().set(rs.ready().and(last));
        return new Channels(bs, rs);
    }
}
