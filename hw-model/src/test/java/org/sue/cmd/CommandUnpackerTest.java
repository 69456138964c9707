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
        List<Delivered> expected = new ArrayList<>();
        long[] malformed = new long[CommandCodec.Malformed.values().length];
        for (int p = 0; p < 300; p++) {
            byte[] pdu = RandomCommands.pdu(rnd, TABLE, 1 + rnd.nextInt(12), rnd.nextInt(4) == 0);
            int src = rnd.nextInt(1024);
            int vc = rnd.nextInt(4);
            CommandCodec.Unpacked u = CommandCodec.unpack(TABLE, pdu);
            for (CommandCodec.Command c : u.commands()) {
                expected.add(new Delivered(src, vc, c));
            }
            if (u.error() != null) {
                malformed[u.error().ordinal()]++;
            }
            bench.offer(pdu, src, vc);
        }
        bench.run(70, 60);
        assertEquals(expected, bench.delivered);
        for (CommandCodec.Malformed m : CommandCodec.Malformed.values()) {
            assertEquals(malformed[m.ordinal()], bench.sim.peek("drops_" + m.name().toLowerCase()), m.name());
        }
        assertTrue(Arrays.stream(malformed).sum() > 20, "the random PDUs exercise malformed commands");
        assertEquals(expected.size(), bench.sim.peek("commands_delivered"));
        bench.assertCreditsBack();
    }

    @Test
    void commandOnlyCommandsLeaveOnePerCycle() {
        Random rnd = new Random(5);
        UnpackerBench bench = new UnpackerBench(new CommandUnpacker.Config(1024, 512, TABLE, 4000, 10), rnd);
        List<CommandCodec.Command> cmds = new ArrayList<>();
        for (int i = 0; i < 120; i++) { // 12-byte read requests, 10 per 128-byte beat
            cmds.add(new CommandCodec.Command(1, RandomCommands.bytes(rnd, 8), new byte[0]));
        }
        for (int p = 0; p < 4; p++) {
            bench.offer(CommandCodec.pack(TABLE, cmds), p, p);
        }
        bench.run(100, 100);
        assertEquals(480, bench.delivered.size());
        long span = bench.lastDelivery - bench.firstDelivery;
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
        assertEquals(15 * 8 - 1, bench.lastBeat - bench.firstDelivery, "one data beat per cycle");
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
        bench.xpuReset();
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
    }

    record Delivered(int src, int vc, CommandCodec.Command command) {
    }

    /** Feeds PDUs to a CommandUnpacker and plays the XPU: collects commands, holds and returns credits. */
    static final class UnpackerBench {
        final Simulator sim;
        final Random rnd;
        final CommandUnpacker.Config config;
        final org.sue.lib.stream.StreamSource source;
        final List<Delivered> delivered = new ArrayList<>();
        final int[] cmdHeld = new int[4];
        final int[] dataHeld = new int[4];
        int[] cmdCredits = new int[4];
        int[] dataCredits = new int[4];
        boolean returnCredits = true;
        long firstDelivery = -1;
        long lastDelivery;
        long lastBeat;
        private int validPercent = 100;
        private int returnPercent = 100;
        private int pendingType;
        private int pendingLen;
        private byte[] pendingControl;
        private java.io.ByteArrayOutputStream pendingData;
        private int pendingSrc;
        private int pendingVc;
        private int nextCycle;

        UnpackerBench(CommandUnpacker.Config config, Random rnd) {
            this.config = config;
            this.rnd = rnd;
            sim = Simulator.compile(Design.elaborate(new CommandUnpacker(config)));
            sim.reset();
            source = new org.sue.lib.stream.StreamSource(sim, "s_axis");
            xpuReset();
        }

        void xpuReset() {
            Arrays.fill(cmdCredits, config.cmdCredits());
            Arrays.fill(dataCredits, config.dataCredits());
            Arrays.fill(cmdHeld, 0);
            Arrays.fill(dataHeld, 0);
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
                boolean busy = !source.idle() || Arrays.stream(cmdHeld).sum() > 0 || delivered.size() != before;
                idle = busy ? 0 : idle + 1;
                assertTrue(sim.cycle() < 2_000_000, "no progress");
            }
        }

        void cycles(int n) {
            for (int i = 0; i < n; i++) {
                source.drive(rnd, validPercent);
                sim.poke("rx_credit", returnCredits ? creditReturn() : 0);
                collect();
                source.advance();
                sim.step();
            }
        }

        /** The XPU frees one held slot and one held data buffer per cycle at most, on a random VC. */
        private long creditReturn() {
            long v = 0;
            int c = rnd.nextInt(4);
            if (cmdHeld[c] > 0 && rnd.nextInt(100) < returnPercent) {
                cmdHeld[c]--;
                cmdCredits[c]++;
                v |= 0b100000 | (long) c << 3;
            }
            int d = rnd.nextInt(4);
            if (dataHeld[d] > 0 && rnd.nextInt(100) < returnPercent) {
                dataHeld[d]--;
                dataCredits[d]++;
                v |= 0b100 | d;
            }
            return v;
        }

        private void collect() {
            int valid = (int) sim.peek("rx_valid");
            if (valid == 0) {
                return;
            }
            int beatBytes = config.dataWidth() / 8;
            long[] data = sim.peekWide("rx_data");
            int cycle = (int) sim.peek("rx_cycle");
            lastBeat = sim.cycle();
            if (cycle == 0) {
                byte[] control = lanes(sim.peekWide("rx_control"), 18);
                pendingType = control[0] & 0xff;
                pendingLen = (control[1] & 0xff) << 8 | (control[2] & 0xff);
                int ctl = TABLE.controlBytes(pendingType);
                pendingControl = Arrays.copyOfRange(control, 3, 3 + ctl);
                for (int j = 3 + ctl; j < 18; j++) {
                    assertEquals(0, control[j], "rx_control byte " + j + " beyond the carried control");
                }
                assertEquals(pendingLen > 0 ? 2 : 1, valid, "rx_valid");
                pendingSrc = (int) sim.peek("xpuid");
                pendingVc = (int) sim.peek("rx_vc");
                pendingData = new java.io.ByteArrayOutputStream();
                nextCycle = 0;
                assertTrue(--cmdCredits[pendingVc] >= 0, "delivered without a command credit");
                cmdHeld[pendingVc]++;
                if (pendingLen > 0) {
                    assertTrue(--dataCredits[pendingVc] >= 0, "delivered without a data credit");
                    dataHeld[pendingVc]++;
                }
                if (firstDelivery < 0) {
                    firstDelivery = sim.cycle();
                }
                lastDelivery = sim.cycle();
            } else {
                assertEquals(2, valid, "data beats carry rx_valid = 2");
            }
            assertEquals(nextCycle++, cycle, "rx_cycle");
            byte[] beat = lanes(data, beatBytes);
            int n = Math.min(beatBytes, pendingLen - pendingData.size());
            for (int j = n; j < beatBytes; j++) {
                assertEquals(0, beat[j], "rx_data lane " + j + " beyond the data");
            }
            pendingData.write(beat, 0, Math.max(n, 0));
            if (pendingData.size() == pendingLen) {
                delivered.add(new Delivered(pendingSrc, pendingVc, new CommandCodec.Command(pendingType,
                        pendingControl, pendingData.toByteArray())));
            }
        }

        void assertCreditsBack() {
            for (int v = 0; v < 4; v++) {
                assertEquals(config.cmdCredits(), cmdCredits[v], "XPU command credits of VC " + v);
                assertEquals(config.dataCredits(), dataCredits[v], "XPU data credits of VC " + v);
                assertEquals(config.cmdCredits(), sim.peek("cmd_avail_" + v), "SUE's command credits of VC " + v);
                assertEquals(config.dataCredits(), sim.peek("data_avail_" + v), "SUE's data credits of VC " + v);
            }
            assertEquals(0, sim.peek("credit_error"));
        }

        static byte[] lanes(long[] words, int n) {
            byte[] b = new byte[n];
            for (int j = 0; j < n; j++) {
                b[j] = (byte) (words[j / 8] >>> (8 * (j % 8)));
            }
            return b;
        }
    }
}
