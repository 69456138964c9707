package org.sue.axi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.axi.tb.AxiMonitor;
import org.sue.axi.tb.AxiWriteReadRun;
import org.sue.core.Component;
import org.sue.core.Design;
import org.sue.core.Signal;
import org.sue.lib.stream.Channel;
import org.sue.sim.Simulator;

/**
 * The AXI4 form end to end without a network: the slave's request side, the far master and the slave's response side
 * joined command to command (docs/protocol.md 13), a random memory slave on the master ({@link AxiWriteReadRun}:
 * writes of every burst type, then reads of the same bursts, against an independent byte model).
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
            List<Signal> inside = new ArrayList<>(packer.join(unpacker));
            for (Channel ch : List.of(packer.cmd, master.req, master.rsp, unpacker.rsp)) {
                inside.addAll(ch.signals());
            }
            exposeRest(packer, "s_", inside);
            exposeRest(master, "m_", inside);
            exposeRest(unpacker, "s_", inside);
        }
    }

    @ParameterizedTest
    @CsvSource({"512,80,70", "256,100,100", "1024,60,50"})
    void writesThenReadsReturnExactlyTheBytesWritten(int width, int validPercent, int readyPercent) {
        AxiConfig axi = new AxiConfig(width, 48, 4, 0, 4, false, 36, 4);
        int requests = 150;
        Simulator sim = Simulator.compile(Design.elaborate(new Loop(new Loop.Config(axi, 4))));
        sim.reset();
        AxiWriteReadRun run = new AxiWriteReadRun(sim, axi, 2, requests, width, validPercent, readyPercent);
        Random rnd = new Random(width);
        for (long cycle = 0; !run.finished(); cycle++) {
            run.cycle(rnd);
            sim.step();
            assertTrue(cycle < 300_000, "the run did not finish");
        }
        run.assertQuiet();
        AxiMonitor.Counts seen = run.monitor().counts(); // every burst went through the monitored slave
        assertEquals(List.of((long) requests, (long) requests, (long) requests, (long) requests),
                List.of(seen.aw(), seen.b(), seen.ar(), seen.rBursts()), seen.toString());
        assertTrue(run.interleaved() > 0 || width == 1024, "R beats interleaved at the far slave");
        assertTrue(sim.peek("s_wr_decode_errors") > 0 && sim.peek("s_rd_decode_errors") > 0);
    }
}
