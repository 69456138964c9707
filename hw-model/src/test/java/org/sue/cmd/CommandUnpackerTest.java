package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.tb.CommandReceiver;
import org.sue.cmd.tb.RandomCommands;
import org.sue.core.Design;
import org.sue.sim.Simulator;

/**
 * The unpacker delivers exactly the commands {@link CommandCodec#unpack} finds in each PDU, in PDU order, with the
 * PDU's source and VC, never without credit; malformed PDUs are counted by the codec's reason.
 */
class CommandUnpackerTest {
    static final CommandTable TABLE = CommandTable.example();

    @ParameterizedTest
    @CsvSource({"512, 256", "1024, 512", "512, 512", "256, 256", "1024, 1024"})
    void deliversWhatTheCodecUnpacks(int streamWidth, int dataWidth) {
        Random rnd = new Random(streamWidth * 31L + dataWidth);
        UnpackerBench bench = new UnpackerBench(new CommandUnpacker.Config(streamWidth, dataWidth, TABLE, 6, 3), rnd);
        Offered offered = offerRandomPdus(bench, rnd);
        List<CommandReceiver.Delivered> expected = offered.expected();
        bench.run(70, 60);
        assertEquals(expected, bench.delivered);
        offered.assertMalformedCounted(bench);
        assertEquals(expected.size(), bench.sim.peek("commands_delivered"));
        bench.assertCreditsBack();
    }

    /**
     * With per-VC buffers (small FIFOs, an XPU slow to return credit: contexts switch often) each VC's commands are
     * the codec's, in its PDUs' order; every PDU leaves its FIFO once, counted on {@code freed} with its VC and length.
     */
    @ParameterizedTest
    @CsvSource({"512, 256", "1024, 512", "256, 256"})
    void perVcBuffersDeliverEachVcInOrder(int streamWidth, int dataWidth) {
        Random rnd = new Random(streamWidth * 17L + dataWidth);
        UnpackerBench bench = new UnpackerBench(new CommandUnpacker.Config(streamWidth, dataWidth, TABLE, 3, 2, 8),
                rnd);
        Offered offered = offerRandomPdus(bench, rnd);
        List<List<CommandReceiver.Delivered>> expected = perVc();
        offered.expected().forEach(d -> expected.get(d.vc()).add(d));
        bench.run(80, 30);
        List<List<CommandReceiver.Delivered>> got = perVc();
        bench.delivered.forEach(d -> got.get(d.vc()).add(d));
        assertEquals(expected, got);
        offered.assertMalformedCounted(bench);
        assertEquals(300, bench.freedPdus);
        assertEquals(Arrays.toString(offered.bytesPerVc()), Arrays.toString(bench.freedBytes), "PDU bytes freed per VC");
        assertTrue(bench.sim.peek("context_switches") > 50, "contexts switched " + bench.sim.peek("context_switches"));
        bench.assertCreditsBack();
    }

    /**
     * An XPU that returns no credit on VC 0: with per-VC buffers (holding all of VC 0's PDUs, as link flow control
     * would see to) the other VCs' commands all arrive while VC 0's wait, and VC 0's follow once its credit comes
     * back; without them everything behind VC 0's PDU waits.
     */
    @ParameterizedTest
    @CsvSource({"32, true", "0, false"})
    void aVcWithoutCreditDoesNotStopTheOthers(int vcBufferDepth, boolean others) {
        Random rnd = new Random(11);
        UnpackerBench bench = new UnpackerBench(new CommandUnpacker.Config(512, 256, TABLE, 2, 2, vcBufferDepth),
                rnd);
        int[] perVc = new int[4];
        for (int p = 0; p < 40; p++) {
            List<CommandCodec.Command> cmds = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                cmds.add(new CommandCodec.Command(3, RandomCommands.bytes(rnd, 4), RandomCommands.bytes(rnd, 40)));
            }
            perVc[p % 4] += cmds.size();
            bench.offer(CommandCodec.pack(TABLE, cmds), 7, p % 4);
        }
        bench.heldVcs = 1;
        bench.cycles(3000);
        long[] got = new long[4];
        bench.delivered.forEach(d -> got[d.vc()]++);
        assertEquals(2, got[0], "VC 0 takes its two credits' worth");
        if (others) {
            assertEquals(List.of(perVc[1], perVc[2], perVc[3]), List.of((int) got[1], (int) got[2], (int) got[3]));
        } else {
            assertEquals(0, got[1] + got[2] + got[3], "behind VC 0's PDU, nothing");
        }
        bench.heldVcs = 0;
        bench.run(100, 100);
        assertEquals(160, bench.delivered.size());
        bench.assertCreditsBack();
    }

    @ParameterizedTest
    @CsvSource({"0", "64"})
    void commandOnlyCommandsLeaveOnePerCycle(int vcBufferDepth) {
        Random rnd = new Random(5);
        UnpackerBench bench = new UnpackerBench(new CommandUnpacker.Config(1024, 512, TABLE, 4000, 10,
                vcBufferDepth), rnd);
        List<CommandCodec.Command> cmds = new ArrayList<>();
        for (int i = 0; i < 120; i++) { // 12-byte read requests, 10 per 128-byte beat
            cmds.add(new CommandCodec.Command(1, RandomCommands.bytes(rnd, 8), new byte[0]));
        }
        for (int p = 0; p < 4; p++) {
            bench.offer(CommandCodec.pack(TABLE, cmds), p, p);
        }
        bench.run(100, 100);
        assertEquals(480, bench.delivered.size());
        long span = bench.xpu.lastDelivery() - bench.xpu.firstDelivery();
        assertEquals(479, span, "480 commands in consecutive cycles, also across PDU boundaries");
    }

    @Test
    void dataBeatsFollowBackToBack() {
        Random rnd = new Random(6);
        UnpackerBench bench = new UnpackerBench(new CommandUnpacker.Config(512, 256, TABLE, 100, 100), rnd);
        List<CommandCodec.Command> cmds = new ArrayList<>();
        for (int i = 0; i < 15; i++) { // 256 data bytes: 8 beats of 32 bytes each
            cmds.add(new CommandCodec.Command(2, RandomCommands.bytes(rnd, 8), RandomCommands.bytes(rnd, 256)));
        }
        bench.offer(CommandCodec.pack(TABLE, cmds), 1, 2);
        bench.run(100, 100);
        assertEquals(15, bench.delivered.size());
        assertEquals(15 * 8 - 1, bench.xpu.lastBeat() - bench.xpu.firstDelivery(), "one data beat per cycle");
    }

    @Test
    void honoursCreditsAndResetRestoresThem() {
        Random rnd = new Random(7);
        UnpackerBench bench = new UnpackerBench(new CommandUnpacker.Config(512, 256, TABLE, 2, 1), rnd);
        List<CommandCodec.Command> cmds = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            cmds.add(new CommandCodec.Command(3, RandomCommands.bytes(rnd, 4), RandomCommands.bytes(rnd, 10)));
        }
        bench.offer(CommandCodec.pack(TABLE, cmds), 9, 1);
        bench.returnCredits = false;
        bench.cycles(50);
        assertEquals(1, bench.delivered.size(), "one data credit: one command with data");
        bench.sim.poke("rx_reset_in", 1);
        bench.cycles(3);
        assertEquals(1, bench.sim.peek("rx_reset_out"));
        bench.sim.poke("rx_reset_in", 0);
        bench.xpu.reset();
        bench.returnCredits = true;
        bench.run(100, 100);
        assertEquals(5, bench.delivered.size());
        assertEquals(0, bench.sim.peek("credit_error"));
        bench.sim.poke("rx_credit", 0b100000 | (1 << 3)); // a slot the XPU never had
        bench.sim.step();
        bench.sim.poke("rx_credit", 0);
        bench.sim.step();
        assertEquals(1, bench.sim.peek("credit_error"));
    }

    @Test
    void rejectsBadParameters() {
        assertThrows(IllegalArgumentException.class, () -> new CommandUnpacker.Config(512, 128, TABLE, 4, 4));
        assertThrows(IllegalArgumentException.class, () -> new CommandUnpacker.Config(256, 512, TABLE, 4, 4));
        assertThrows(IllegalArgumentException.class, () -> new CommandUnpacker.Config(512, 256, TABLE, 0, 4));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CommandUnpacker.Config(512, 256, new CommandTable(), 4, 4));
        assertTrue(e.getMessage().contains("table"));
        e = assertThrows(IllegalArgumentException.class, () -> new CommandUnpacker.Config(512, 256, TABLE, 4, 4, 1));
        assertTrue(e.getMessage().contains("vcBufferDepth"), e.getMessage());
    }

    /** What {@link #offerRandomPdus} offered: the codec's commands in order, malformed PDUs per reason, bytes per VC. */
    private record Offered(List<CommandReceiver.Delivered> expected, long[] malformed, long[] bytesPerVc) {
        void assertMalformedCounted(UnpackerBench bench) {
            for (PackedCommand.Malformed m : PackedCommand.Malformed.values()) {
                assertEquals(malformed[m.ordinal()], bench.sim.peek("drops_" + m.name().toLowerCase()), m.name());
            }
            assertTrue(Arrays.stream(malformed).sum() > 20, "the random PDUs exercise malformed commands");
        }
    }

    /** 300 random PDUs (a quarter of them malformed, some padded) from random sources on random VCs. */
    private static Offered offerRandomPdus(UnpackerBench bench, Random rnd) {
        Offered o = new Offered(new ArrayList<>(), new long[PackedCommand.Malformed.values().length], new long[4]);
        for (int p = 0; p < 300; p++) {
            byte[] pdu = RandomCommands.pdu(rnd, TABLE, 1 + rnd.nextInt(12), rnd.nextInt(4) == 0);
            int src = rnd.nextInt(1024);
            int vc = rnd.nextInt(4);
            CommandCodec.Unpacked u = CommandCodec.unpack(TABLE, pdu);
            for (CommandCodec.Command c : u.commands()) {
                o.expected().add(new CommandReceiver.Delivered(src, vc, c));
            }
            if (u.error() != null) {
                o.malformed()[u.error().ordinal()]++;
            }
            o.bytesPerVc()[vc] += pdu.length;
            bench.offer(pdu, src, vc);
        }
        return o;
    }

    private static List<List<CommandReceiver.Delivered>> perVc() {
        List<List<CommandReceiver.Delivered>> l = new ArrayList<>();
        for (int v = 0; v < 4; v++) {
            l.add(new ArrayList<>());
        }
        return l;
    }

    /** Feeds PDUs to a CommandUnpacker; a {@link CommandReceiver} plays the XPU. */
    static final class UnpackerBench {
        final Simulator sim;
        final Random rnd;
        final CommandUnpacker.Config config;
        final org.sue.lib.stream.tb.StreamSource source;
        final CommandReceiver xpu;
        final List<CommandReceiver.Delivered> delivered;
        boolean returnCredits = true;
        int heldVcs; // VCs whose credits the XPU keeps
        long freedPdus;
        final long[] freedBytes = new long[4];
        private int validPercent = 100;
        private int returnPercent = 100;

        UnpackerBench(CommandUnpacker.Config config, Random rnd) {
            this.config = config;
            this.rnd = rnd;
            sim = Simulator.compile(Design.elaborate(new CommandUnpacker(config)));
            sim.reset();
            source = new org.sue.lib.stream.tb.StreamSource(sim, "s_axis");
            xpu = new CommandReceiver(sim, config.dataWidth(), TABLE, config.cmdCredits(), config.dataCredits());
            delivered = xpu.delivered();
        }

        void offer(byte[] pdu, int src, int vc) {
            source.add(pdu, new org.sue.net.SueMeta(0, src, vc, 0, 0, 0, 0, 0, false, pdu.length).pack());
        }

        /** Runs until every PDU is in and every delivered command's credit is back; fails on a hang. */
        void run(int validPercent, int returnPercent) {
            this.validPercent = validPercent;
            this.returnPercent = returnPercent;
            long idle = 0;
            while (idle < 200) {
                int before = delivered.size();
                cycles(1);
                boolean busy = !source.idle() || xpu.held() > 0 || delivered.size() != before;
                idle = busy ? 0 : idle + 1;
                assertTrue(sim.cycle() < 2_000_000, "no progress");
            }
        }

        void cycles(int n) {
            for (int i = 0; i < n; i++) {
                source.drive(rnd, validPercent);
                sim.poke("rx_credit", returnCredits ? xpu.creditReturn(rnd, returnPercent, heldVcs) : 0);
                xpu.sample();
                if (config.perVc() && sim.peek("freed_valid") == 1) {
                    freedPdus++;
                    freedBytes[(int) sim.peek("freed_vc")] += sim.peek("freed_len");
                }
                source.advance();
                sim.step();
            }
        }

        void assertCreditsBack() {
            assertTrue(xpu.creditsBack(), "the XPU holds its initial credits again");
            for (int v = 0; v < 4; v++) {
                assertEquals(config.cmdCredits(), sim.peek("cmd_avail_" + v), "SUE's command credits of VC " + v);
                assertEquals(config.dataCredits(), sim.peek("data_avail_" + v), "SUE's data credits of VC " + v);
            }
            assertEquals(0, sim.peek("credit_error"));
        }
    }
}
