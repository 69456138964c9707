package org.sue.axi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.axi.model.AxiRequestReference;
import org.sue.axi.model.AxiRequestReference.Ax;
import org.sue.axi.model.AxiRequestReference.WBeat;
import org.sue.axi.tb.AxiMemorySlave;
import org.sue.axi.tb.RandomBursts;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Layout;
import org.sue.lib.stream.tb.LayoutSink;
import org.sue.lib.stream.tb.LayoutSource;
import org.sue.sim.Simulator;

/**
 * The AXI4 form end to end without a network: the slave's request side, the far master and the slave's response side
 * joined command to command (docs/protocol.md 13), a random memory slave on the master. Writes of every burst type
 * (narrow, unaligned, partial strobes), each to a page of its own, then reads of the same bursts: every B and every R
 * beat as an independent byte model of the writes says, in order per ID; SUE's own answers (DECERR, SLVERR) among
 * them; the memory holds exactly the bytes written.
 */
class AxiLoopbackTest {
    /** The three blocks of one XPU's AXI4 form, closed on themselves. */
    static final class Loop extends Component {
        record Config(AxiConfig axi, int remapEntries) {
        }

        Loop(Config c) {
            super(c);
            AxiRequestPacker packer = child("packer", new AxiRequestPacker(new AxiRequestPacker.Config(c.axi())));
            AxiRemoteMaster master = child("master", new AxiRemoteMaster(new AxiRemoteMaster.Config(c.axi(),
                    c.remapEntries(), 4)));
            AxiResponseUnpacker unpacker = child("unpacker", new AxiResponseUnpacker(
                    new AxiResponseUnpacker.Config(c.axi())));
            packer.cmd.into(master.req);
            master.rsp.into(unpacker.rsp);
            packer.local.into(unpacker.local);
            unpacker.wdone.into(packer.wdone);
            unpacker.rdone.into(packer.rdone);
            List<org.sue.core.Signal> inside = new ArrayList<>();
            for (var ch : List.of(packer.cmd, packer.local, packer.wdone, packer.rdone, master.req, master.rsp,
                    unpacker.rsp, unpacker.local, unpacker.wdone, unpacker.rdone)) {
                inside.addAll(ch.signals());
            }
            exposeRest(packer, "", inside);
            exposeRest(master, "m_", inside);
            exposeRest(unpacker, "s_", inside);
        }
    }

    @ParameterizedTest
    @CsvSource({"512,80,70", "256,100,100", "1024,60,50"})
    void writesThenReadsReturnExactlyTheBytesWritten(int width, int validPercent, int readyPercent) {
        AxiConfig axi = new AxiConfig(width, 48, 4, 0, 4, false, 36, 4);
        Simulator sim = Simulator.compile(Design.elaborate(new Loop(new Loop.Config(axi, 4))));
        sim.reset();
        Random rnd = new Random(width);
        RandomBursts bursts = new RandomBursts(axi, rnd);
        AxiRequestReference rules = new AxiRequestReference(axi);
        AxiMemorySlave slave = new AxiMemorySlave(sim, axi, "m_", 3, 70, 20, true, 0);
        Map<Long, Byte> model = new HashMap<>();
        List<Ax> writes = new ArrayList<>();
        Map<Integer, ArrayDeque<Object>> expected = new HashMap<>();
        LayoutSource aw = new LayoutSource(sim, "aw", axi.ax());
        LayoutSource w = new LayoutSource(sim, "w", axi.w());
        LayoutSource ar = new LayoutSource(sim, "ar", axi.ax());
        for (int i = 0; i < 150; i++) {
            boolean illegal = rnd.nextInt(25) == 0;
            int dst = rnd.nextInt(12) == 0 ? 4 + rnd.nextInt(1020) : rnd.nextInt(4);
            Ax a = bursts.request(dst, illegal);
            Ax paged = new Ax(a.addr() & ~(0xFFFFFL << 12) | (long) (i + 1) << 12, a.id(), a.len(), a.size(),
                    a.burst(), a.lock(), a.cache(), a.prot(), a.qos(), a.region(), a.user()); // a page of its own
            List<WBeat> beats = bursts.beats(paged, false);
            aw.add(paged.pack(axi));
            beats.forEach(b -> w.add(axi.w().word().set("data", b.data()).set("strb", b.strb())
                    .set("last", b.last() ? 1 : 0).toBigInteger()));
            var answer = rules.answer(paged, true);
            expected.computeIfAbsent(paged.id(), k -> new ArrayDeque<>()).add(new int[] {answer == null
                    ? AxiConfig.OKAY : answer.resp()});
            if (answer == null) {
                for (int k = 0; k < beats.size(); k++) {
                    long at = AxiRequestReference.beatAddress(paged, k) / axi.beatBytes() * axi.beatBytes();
                    for (int lane = 0; lane < axi.beatBytes(); lane++) {
                        if (beats.get(k).strb().testBit(lane)) {
                            model.put(at + lane, beats.get(k).data().shiftRight(8 * lane).byteValue());
                        }
                    }
                }
            }
            writes.add(paged);
        }
        run(sim, rnd, slave, List.of(aw, w, ar), expected, axi, validPercent, readyPercent);
        for (Map.Entry<Long, Byte> e : model.entrySet()) {
            assertEquals(e.getValue(), slave.memory(e.getKey()), "memory byte 0x" + Long.toHexString(e.getKey()));
        }
        assertEquals(model.size(), slave.memory().size(), "bytes written beyond the writes");
        // now read every burst back: each beat's lanes from the model, or what the memory holds unwritten
        for (Ax a : writes) {
            ar.add(a.pack(axi));
            var answer = rules.answer(a, false);
            for (int k = 0; k < a.beats(); k++) {
                BigInteger data = BigInteger.ZERO;
                long at = AxiRequestReference.beatAddress(a, k) / axi.beatBytes() * axi.beatBytes();
                for (int lane = axi.beatBytes() - 1; answer == null && lane >= 0; lane--) {
                    Byte v = model.get(at + lane);
                    data = data.shiftLeft(8).or(BigInteger.valueOf(v == null ? (at + lane) * 7 & 0xFF : v & 0xFF));
                }
                expected.computeIfAbsent(a.id(), x -> new ArrayDeque<>()).add(List.of(data,
                        answer == null ? AxiConfig.OKAY : answer.resp(), k == a.len()));
            }
        }
        run(sim, rnd, slave, List.of(aw, w, ar), expected, axi, validPercent, readyPercent);
        assertTrue(slave.interleaved() > 0 || width == 1024, "R beats interleaved at the far slave");
        assertTrue(sim.peek("wr_decode_errors") > 0 && sim.peek("rd_decode_errors") > 0);
    }

    /** Runs until every expected B and R beat has come, checking each against the head of its ID's list. */
    private static void run(Simulator sim, Random rnd, AxiMemorySlave slave, List<LayoutSource> sources,
                            Map<Integer, ArrayDeque<Object>> expected, AxiConfig axi, int validPercent,
                            int readyPercent) {
        LayoutSink b = new LayoutSink(sim, "s_b", axi.b());
        LayoutSink r = new LayoutSink(sim, "s_r", axi.r());
        Layout bl = axi.b();
        Layout rl = axi.r();
        for (long cycle = 0; expected.values().stream().anyMatch(q -> !q.isEmpty()); cycle++) {
            assertTrue(cycle < 300_000, "the run did not finish");
            sources.forEach(s -> s.drive(rnd, validPercent));
            b.drive(rnd, readyPercent);
            r.drive(rnd, readyPercent);
            slave.drive(rnd);
            sources.forEach(LayoutSource::taken);
            BigInteger gotB = b.taken();
            if (gotB != null) {
                Object want = expected.get((int) bl.field("id").get(gotB)).poll();
                assertTrue(want instanceof int[], "a B where an R beat was expected, cycle " + cycle);
                assertEquals(((int[]) want)[0], bl.field("resp").get(gotB), "B response, cycle " + cycle);
            }
            BigInteger gotR = r.taken();
            if (gotR != null) {
                Object want = expected.get((int) rl.field("id").get(gotR)).poll();
                assertEquals(want, List.of(rl.field("data").getBig(gotR), (int) rl.field("resp").get(gotR),
                        rl.field("last").get(gotR) == 1), "R beat, cycle " + cycle);
            }
            slave.taken(rnd);
            sim.step();
        }
    }
}
