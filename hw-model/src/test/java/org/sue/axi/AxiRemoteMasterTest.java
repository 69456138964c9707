package org.sue.axi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.axi.model.AxiCommand;
import org.sue.axi.model.AxiRemoteMasterReference;
import org.sue.axi.model.AxiRemoteMasterReference.Part;
import org.sue.axi.model.AxiRequestReference;
import org.sue.axi.model.AxiRequestReference.Ax;
import org.sue.axi.model.AxiRequestReference.WBeat;
import org.sue.axi.model.AxiResponseReference;
import org.sue.axi.tb.AxiRemoteMasterRun;
import org.sue.axi.tb.AxiRemoteMasterRun.Options;
import org.sue.axi.tb.AxiRemoteMasterRun.Traffic;
import org.sue.core.ConfigException;
import org.sue.core.Design;
import org.sue.sim.Simulator;

class AxiRemoteMasterTest {
    private static final String[] COUNTERS = {"writes_issued", "reads_issued", "write_responses", "read_responses",
        "bad_commands", "strobed_commands"};

    private static Simulator simulator(AxiRemoteMaster.Config config) {
        Simulator sim = Simulator.compile(Design.elaborate(new AxiRemoteMaster(config)));
        sim.reset();
        return sim;
    }

    /** Runs to the end, checking as it goes; then the memory, the counters and the remap tables. */
    private static AxiRemoteMasterRun run(Simulator sim, AxiRemoteMaster.Config config, Options options) {
        AxiRemoteMasterRun run = new AxiRemoteMasterRun(sim, config.axi(), config.masterIdWidth(),
                config.maxPartsPerEntry(), options);
        Random rnd = new Random(options.seed() * 7 + 1);
        while (!run.finished()) {
            run.cycle(rnd);
            sim.step();
            assertTrue(run.stalled() < 5_000, "cycle " + run.cycles() + ": nothing moved for 5000 cycles (deadlock)");
            assertTrue(run.cycles() < 400_000, "the run did not finish");
        }
        for (int i = 0; i < 4; i++) { // the last response's effects settle
            run.cycle(rnd);
            sim.step();
        }
        run.checkMemory();
        run.assertQuiet();
        for (String name : COUNTERS) {
            assertEquals(run.expectedCounts().getOrDefault(name, 0L), sim.peek(name), name);
        }
        assertEquals(0, sim.peek("wr_entries_used"), "write remap entries left in use");
        assertEquals(0, sim.peek("rd_entries_used"), "read remap entries left in use");
        return run;
    }

    @ParameterizedTest
    @CsvSource({"512,8,4,true,false", "256,4,2,true,true", "1024,16,3,false,false", "512,4,1,true,false"})
    void everyCommandIssuesTheReferenceBurstsAndEveryAnswerComesBack(int width, int entries, int maxParts,
                                                                     boolean interleave, boolean user) {
        AxiConfig axi = user ? new AxiConfig(width, 40, 4, 12, 1024, true, 36, 3) : AxiConfig.defaults(width, 1024);
        AxiRemoteMaster.Config config = new AxiRemoteMaster.Config(axi, entries, maxParts);
        Simulator sim = simulator(config);
        Options o = new Options(500, width + entries, 3, 70, 70, 70, 30, interleave, 10, Traffic.MIXED);
        AxiRemoteMasterRun run = run(sim, config, o);
        Map<String, Long> c = run.expectedCounts();
        assertTrue(c.get("strobed_commands") > 0 && c.get("bad_commands") > 0 && c.get("writes_issued") > 100
                && c.get("reads_issued") > 100, "the cases that matter happened: " + c);
        assertEquals(c.get("writes_issued"), c.get("write_responses"), "one WRITE_RESPONSE per write part: " + c);
        Map<String, Long> cases = run.cases();
        assertTrue(cases.get("error_responses") > 0 && cases.get("multi_part_writes") > 0
                && cases.get("read_hits") > 0 && (!interleave || cases.get("interleaved") > 0),
                "the cases that matter happened: " + cases);
    }

    /**
     * The deadlock regression: eight source XPUs writing and reading at once, their commands interleaved one at a
     * time, through two remap entries per direction and a slow slave. Every command is self-contained, so parts only
     * wait for entries and the run finishes.
     */
    @ParameterizedTest
    @CsvSource({"512,2,2", "256,2,1", "1024,1,4"})
    void manySourcesThroughFewEntriesFinish(int width, int entries, int maxParts) {
        AxiConfig axi = AxiConfig.defaults(width, 1024);
        AxiRemoteMaster.Config config = new AxiRemoteMaster.Config(axi, entries, maxParts);
        Simulator sim = simulator(config);
        Options o = new Options(400, 31 + width, 8, 90, 80, 60, 40, true, 10, Traffic.MIXED);
        AxiRemoteMasterRun run = run(sim, config, o);
        assertTrue(sim.peek("remap_waits") > 100, "parts waited for an entry: " + sim.peek("remap_waits"));
        assertTrue(run.cases().get("multi_part_writes") > 50 && run.expectedCounts().get("strobed_commands") > 10,
                "bursts of several parts and strobed writes interleaved: " + run.cases() + run.expectedCounts());
    }

    @Test
    void theRemapTableWaitsWhenItsEntriesAreInUse() {
        AxiConfig axi = AxiConfig.defaults(512, 1024);
        AxiRemoteMaster.Config config = new AxiRemoteMaster.Config(axi, 2, 2);
        Simulator sim = simulator(config);
        // two sources with 16 IDs each through two entries, a slow slave
        Options o = new Options(300, 11, 2, 90, 80, 60, 60, true, 10, Traffic.MIXED);
        run(sim, config, o);
        assertTrue(sim.peek("remap_waits") > 100, "parts waited for an entry: " + sim.peek("remap_waits"));
    }

    @Test
    void oneEntryServesEverything() {
        AxiConfig axi = AxiConfig.defaults(256, 1024);
        AxiRemoteMaster.Config config = new AxiRemoteMaster.Config(axi, 1, 3);
        Simulator sim = simulator(config);
        run(sim, config, new Options(150, 3, 1, 80, 80, 80, 10, false, 10, Traffic.MIXED));
        assertTrue(sim.peek("remap_waits") > 0);
    }

    @ParameterizedTest
    @CsvSource({"512", "256", "1024"})
    void fullWritesStreamOneWBeatACycle(int width) {
        AxiConfig axi = AxiConfig.defaults(width, 1024);
        AxiRemoteMaster.Config config = new AxiRemoteMaster.Config(axi);
        Simulator sim = simulator(config);
        AxiRemoteMasterRun run = new AxiRemoteMasterRun(sim, axi, config.masterIdWidth(), config.maxPartsPerEntry(),
                new Options(20, 5, 1, 100, 100, 100, 0, false, 0, Traffic.PAGE_WRITES));
        Random rnd = new Random(1);
        long first = -1;
        long last = 0;
        long beats = 0;
        for (long cycle = 0; !run.finished(); cycle++) {
            run.cycle(rnd);
            if (sim.peek("m_w_valid") == 1) {
                first = first < 0 ? cycle : first;
                last = cycle;
                beats++;
            }
            sim.step();
            assertTrue(cycle < 100_000, "the run did not finish");
        }
        assertEquals(20L * 4096 / axi.beatBytes(), beats);
        assertEquals(last - first + 1, beats, "a W beat every cycle from the first to the last");
    }

    /** Strobed 4 KiB writes: every part as WRITE_STROBED commands, and {@code req} still takes a beat every cycle. */
    @ParameterizedTest
    @CsvSource({"512", "256", "1024"})
    void strobedWritesTakeAReqBeatEveryCycle(int width) {
        AxiConfig axi = AxiConfig.defaults(width, 1024);
        AxiRemoteMaster.Config config = new AxiRemoteMaster.Config(axi);
        Simulator sim = simulator(config);
        AxiRemoteMasterRun run = new AxiRemoteMasterRun(sim, axi, config.masterIdWidth(), config.maxPartsPerEntry(),
                new Options(20, 7, 1, 100, 100, 100, 0, false, 0, Traffic.PAGE_STROBED_WRITES));
        Random rnd = new Random(3);
        long beats = 0;
        for (long cycle = 0; !run.finished(); cycle++) {
            run.cycle(rnd);
            if (sim.peek("req_valid") == 1) {
                assertEquals(1, sim.peek("req_ready"), "cycle " + cycle + ": a req beat held back");
            }
            beats += sim.peek("m_w_valid") == 1 && sim.peek("m_w_ready") == 1 ? 1 : 0;
            sim.step();
            assertTrue(cycle < 100_000, "the run did not finish");
        }
        assertEquals(20L * 4096 / axi.beatBytes(), beats);
        long strobed = sim.peek("strobed_commands");
        int pb = axi.partBeats();
        assertEquals(20L * (4096 / axi.beatBytes() / pb) * ((pb + axi.strobedBeats() - 1) / axi.strobedBeats()),
                strobed, "every part as WRITE_STROBED commands");
    }

    @ParameterizedTest
    @CsvSource({"512", "256", "1024"})
    void fullReadsTakeAnRBeatEveryCycleTheSlaveOffersOne(int width) {
        AxiConfig axi = AxiConfig.defaults(width, 1024);
        AxiRemoteMaster.Config config = new AxiRemoteMaster.Config(axi);
        Simulator sim = simulator(config);
        AxiRemoteMasterRun run = new AxiRemoteMasterRun(sim, axi, config.masterIdWidth(), config.maxPartsPerEntry(),
                new Options(20, 6, 2, 100, 100, 100, 0, true, 0, Traffic.PAGE_READS));
        Random rnd = new Random(2);
        long beats = 0;
        for (long cycle = 0; !run.finished(); cycle++) {
            run.cycle(rnd);
            if (sim.peek("m_r_valid") == 1) {
                assertEquals(1, sim.peek("m_r_ready"), "cycle " + cycle + ": an R beat held back");
                beats++;
            }
            sim.step();
            assertTrue(cycle < 100_000, "the run did not finish");
        }
        assertEquals(20L * 4096 / axi.beatBytes(), beats);
    }

    @Test
    void theReferenceIssuesEachCommandAsItsOwnBurstAndAnswersEachPart() {
        AxiConfig axi = AxiConfig.defaults(256, 1024); // 32-byte beats: a part of 8, a WRITE_STROBED of 7
        AxiRequestReference requests = new AxiRequestReference(axi);
        AxiRemoteMasterReference ref = new AxiRemoteMasterReference(axi);
        Ax aw = new Ax(0x1000, 5, 8, axi.fullSize(), AxiConfig.INCR, 0, 0, 0, 0, 0, 0); // 9 beats: parts of 8 and 1
        BigInteger full = BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE);
        List<WBeat> beats = new ArrayList<>();
        for (int k = 0; k < 9; k++) {
            beats.add(new WBeat(BigInteger.valueOf(100 + k), k == 2 ? BigInteger.valueOf(0xF0) : full, k == 8));
        }
        // the first part has a strobe low: WRITE_STROBED of 7 beats and of 1; the second part a WRITE
        List<AxiCommand> cmds = requests.write(aw, beats).commands();
        assertEquals(List.of(AxiConfig.WRITE_STROBED, AxiConfig.WRITE_STROBED, AxiConfig.WRITE),
                cmds.stream().map(AxiCommand::type).toList());
        Part first = ref.take(cmds.get(0));
        assertEquals(6, first.ax().len());
        assertEquals(0x1000, first.ax().addr());
        assertEquals(BigInteger.valueOf(0xF0), first.beats().get(2).strb(), "strobes from the strobes beat");
        assertEquals(BigInteger.valueOf(102), first.beats().get(2).data(), "the strobes beat is not a W beat");
        assertEquals(full, first.beats().get(3).strb());
        Part second = ref.take(cmds.get(1));
        assertEquals(0x1000 + 7 * 32, second.ax().addr());
        assertEquals(List.of(new WBeat(BigInteger.valueOf(107), full, true)), second.beats());
        Part third = ref.take(cmds.get(2));
        assertEquals(List.of(new WBeat(BigInteger.valueOf(108), full, true)), third.beats());
        assertTrue(!first.last() && !second.last() && third.last());
        assertNull(ref.take(new AxiCommand(BigInteger.valueOf(9), 1, 0, new byte[0])));
        assertEquals(1, ref.badCommands());
        assertEquals(2, ref.strobedCommands());
        // each part answered on its own, BRESP unchanged; the requester merges them
        AxiResponseReference responses = new AxiResponseReference(axi);
        AxiCommand a = ref.writeAnswered(first, AxiConfig.SLVERR);
        AxiCommand b = ref.writeAnswered(third, AxiConfig.OKAY);
        assertEquals(responses.writeResponse(0, 5, AxiConfig.SLVERR, false), a);
        assertEquals(responses.writeResponse(0, 5, AxiConfig.OKAY, true), b);
        assertEquals(new AxiResponseReference.B(5, AxiConfig.SLVERR), responses.b(List.of(a, b)));
        assertEquals(AxiConfig.RESPONSE_VC, b.vc());
    }

    @Test
    void configurationErrorsNameTheParameter() {
        AxiConfig axi = AxiConfig.defaults(512, 8);
        Exception e = assertThrows(ConfigException.class, () -> new AxiRemoteMaster.Config(axi, 3, 4));
        assertTrue(e.getMessage().contains("remapEntries"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> new AxiRemoteMaster.Config(axi, 4, 0));
        assertTrue(e.getMessage().contains("maxPartsPerEntry"), e.getMessage());
    }
}
