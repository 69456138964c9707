package org.sue.axi.tb;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.sue.axi.AxiConfig;
import org.sue.axi.model.AxiCommand;
import org.sue.axi.model.AxiRequestReference.LocalResponse;
import org.sue.axi.model.AxiResponseReference;
import org.sue.axi.model.AxiResponseReference.B;
import org.sue.axi.model.AxiResponseReference.R;
import org.sue.core.Layout;
import org.sue.lib.stream.tb.LayoutSink;
import org.sue.lib.stream.tb.LayoutSource;
import org.sue.sim.Simulator;

/**
 * Drives an {@code AxiResponseUnpacker} with random write responses (bursts of 1 to 16 parts), read responses (bursts of 1 to 16 parts of 1 to
 * a part's beats, some beats not OKAY), answers by SUE (DECERR, SLVERR; reads of up to 256 beats) and commands of other
 * types, with random gaps and ready. It checks as things happen: per ID, every B and every R beat
 * {@link AxiResponseReference} gives, in order (remote responses use IDs of the upper half, answers by SUE the lower,
 * as the request side's ID rule keeps them apart); the beats of a part are given back to back; and it counts the
 * completions ({@code wdone}, {@code rdone}).
 */
public final class AxiResponseRun {
    /** An R beat expected, and whether it ends its part. */
    private record Beat(R r, boolean endsPart) {
    }

    private final Simulator sim;
    private final AxiConfig axi;
    private final int validPercent;
    private final int readyPercent;
    private final LayoutSource rsp;
    private final LayoutSource local;
    private final LayoutSink b;
    private final LayoutSink r;
    private final Map<Integer, ArrayDeque<Object>> expected = new HashMap<>();
    private final Map<String, Long> counts = new HashMap<>();
    private long wdone;
    private long rdone;
    private int partOwner = -1;
    private long cycle;

    public AxiResponseRun(Simulator sim, AxiConfig axi, int responses, long seed, int validPercent, int readyPercent) {
        this.sim = sim;
        this.axi = axi;
        this.validPercent = validPercent;
        this.readyPercent = readyPercent;
        rsp = new LayoutSource(sim, "rsp", axi.commandBeat());
        local = new LayoutSource(sim, "local", axi.localResponse());
        b = new LayoutSink(sim, "b", axi.b());
        r = new LayoutSink(sim, "r", axi.r());
        generate(responses, new Random(seed));
    }

    private void generate(int responses, Random rnd) {
        AxiResponseReference ref = new AxiResponseReference(axi);
        AxiCommandBeats beats = new AxiCommandBeats(axi);
        int half = 1 << axi.idWidth() - 1;
        for (int i = 0; i < responses; i++) {
            int kind = rnd.nextInt(10);
            int remoteId = half + rnd.nextInt(half);
            if (kind < 3) { // a write burst of 1 to 16 parts, each answered
                int parts = 1 + rnd.nextInt(rnd.nextBoolean() ? 2 : 16);
                List<AxiCommand> answers = new ArrayList<>();
                for (int p = 0; p < parts; p++) {
                    int resp = rnd.nextInt(4) == 0 ? rnd.nextInt(4) : AxiConfig.OKAY;
                    answers.add(ref.writeResponse(rnd.nextInt(axi.destinations()), remoteId, resp, p == parts - 1));
                }
                answers.forEach(c -> beats.beats(c).forEach(rsp::add));
                queue(remoteId).add(ref.b(answers));
                count("write_responses");
            } else if (kind < 7) {
                int parts = 1 + rnd.nextInt(rnd.nextBoolean() ? 2 : 16);
                for (int p = 0; p < parts; p++) {
                    int n = 1 + rnd.nextInt(axi.partBeats());
                    int[] resps = new int[n];
                    for (int k = 0; k < n; k++) {
                        resps[k] = rnd.nextInt(5) == 0 ? rnd.nextInt(4) : AxiConfig.OKAY;
                    }
                    byte[] data = new byte[n * axi.beatBytes()];
                    rnd.nextBytes(data);
                    AxiCommand c = ref.readResponse(rnd.nextInt(axi.destinations()), remoteId, p == parts - 1, resps,
                            data);
                    beats.beats(c).forEach(rsp::add);
                    addPart(remoteId, ref.r(c));
                }
                count("read_bursts");
            } else if (kind < 9) {
                boolean write = rnd.nextBoolean();
                LocalResponse a = new LocalResponse(write, rnd.nextInt(half), 2 + rnd.nextInt(2),
                        write ? 0 : 1 + rnd.nextInt(rnd.nextBoolean() ? 4 : 256));
                local.add(axi.localResponse().pack(a));
                if (write) {
                    queue(a.id()).add(new B(a.id(), a.resp()));
                } else {
                    addPart(a.id(), ref.r(a));
                }
                count(write ? "write_responses" : "read_bursts");
            } else {
                AxiCommand c = AxiCommand.of(AxiConfig.WRITE, BigInteger.ONE, 3, 0, new byte[axi.beatBytes()]);
                beats.beats(c).forEach(rsp::add);
                count("bad_commands");
            }
        }
    }

    private ArrayDeque<Object> queue(int id) {
        return expected.computeIfAbsent(id, k -> new ArrayDeque<>());
    }

    private void addPart(int id, List<R> beats) {
        for (int k = 0; k < beats.size(); k++) {
            queue(id).add(new Beat(beats.get(k), k == beats.size() - 1));
        }
    }

    private void count(String name) {
        counts.merge(name, 1L, Long::sum);
    }

    /** The counters the responses should have moved: name to value. */
    public Map<String, Long> expectedCounts() {
        return Map.copyOf(counts);
    }

    /** B completions and R completions (RLAST beats) seen on {@code wdone} and {@code rdone}. */
    public long[] completions() {
        return new long[] {wdone, rdone};
    }

    public boolean finished() {
        return rsp.idle() && local.idle() && expected.values().stream().allMatch(ArrayDeque::isEmpty);
    }

    /** One cycle's inputs, then what moves at the edge, checked. Call before each step. */
    public void cycle(Random rnd) {
        rsp.drive(rnd, validPercent);
        local.drive(rnd, validPercent);
        b.drive(rnd, readyPercent);
        r.drive(rnd, readyPercent);
        rsp.taken();
        local.taken();
        BigInteger gotB = b.taken();
        if (gotB != null) {
            Layout l = axi.b();
            B got = new B((int) l.field("id").get(gotB), (int) l.field("resp").get(gotB));
            check(got.equals(queue(got.id()).poll()), "B " + got);
        }
        BigInteger gotR = r.taken();
        if (gotR != null) {
            Layout l = axi.r();
            R got = new R(l.field("data").getBig(gotR), (int) l.field("id").get(gotR), (int) l.field("resp").get(gotR),
                    l.field("last").get(gotR) == 1);
            Object want = queue(got.id()).poll();
            check(want instanceof Beat w && w.r().equals(got), "R " + got + ", expected " + want);
            check(partOwner < 0 || partOwner == got.id(), "R of ID " + got.id() + " inside a part of ID " + partOwner);
            partOwner = ((Beat) want).endsPart() ? -1 : got.id();
        }
        wdone += sim.peek("wdone_valid");
        rdone += sim.peek("rdone_valid");
        cycle++;
    }

    private void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("cycle " + cycle + ": " + what);
        }
    }
}
