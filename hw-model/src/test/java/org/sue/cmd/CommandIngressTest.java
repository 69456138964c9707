package org.sue.cmd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sue.core.Design;
import org.sue.lib.stream.Beats;
import org.sue.lib.stream.StreamMonitor;
import org.sue.sim.Simulator;

/**
 * The ingress hands on exactly the commands {@link CommandIngressReference} accepts, byte for byte, and drops and
 * counts the others by the same reasons, under random traffic with every kind of error; commands keep pace with the
 * interface (one beat per cycle in, never more beats out); credits are conserved; reset waits for the buffer.
 */
class CommandIngressTest {
    static final CommandTable TABLE = CommandTable.example();

    @ParameterizedTest
    @ValueSource(ints = {256, 512, 1024})
    void handsOnWhatTheReferenceAccepts(int width) {
        Random rnd = new Random(width);
        Bench b = new Bench(new CommandIngress.Config(width, TABLE, 8, 6, 3, 64), rnd);
        b.releaseDelay = 12; // credits run short now and then: some commands are sent without
        for (int i = 0; i < 1500; i++) {
            b.queueCommand(rnd.nextInt(100) < 25);
        }
        b.run(80, 90);
        CommandIngressReference ref = b.ref;
        assertEquals(ref.accepted(), b.handedOn(), "commands handed on");
        for (CommandIngressReference.Drop d : CommandIngressReference.Drop.values()) {
            assertEquals(ref.drops(d), b.sim.peek("drops_" + d.name().toLowerCase()), d.name());
        }
        assertEquals(ref.accepted().size(), b.sim.peek("commands_accepted"));
        assertEquals(ref.creditError() ? 1 : 0, b.sim.peek("credit_error"));
        System.out.printf("ingress %d: %d accepted, drops %s%n", width, ref.accepted().size(),
                java.util.Arrays.stream(CommandIngressReference.Drop.values()).map(d -> d + "=" + ref.drops(d)).toList());
        assertTrue(ref.drops(CommandIngressReference.Drop.NO_CREDIT) > 0 && ref.accepted().size() > 900,
                "the traffic exercises violations and still carries most commands");
        for (CommandIngressReference.Drop d : CommandIngressReference.Drop.values()) {
            if (d != CommandIngressReference.Drop.OVERFLOW && d != CommandIngressReference.Drop.RESET
                    && d != CommandIngressReference.Drop.NO_CREDIT) {
                assertTrue(ref.drops(d) > 5, d + " exercised " + ref.drops(d) + " times");
            }
        }
        b.assertCreditsBack();
        assertEquals(0, b.sim.peek("internal_error"));
    }

    @Test
    void commandOnlyCommandsPassOnePerCycle() {
        Random rnd = new Random(2);
        Bench b = new Bench(new CommandIngress.Config(512, TABLE, 8, 400, 4), rnd);
        for (int i = 0; i < 300; i++) {
            b.queue(b.beats(new CommandCodec.Command(1, RandomCommands.bytes(rnd, 8), new byte[0]), i % 8, i % 4));
        }
        b.run(100, 100);
        List<StreamMonitor.Packet> p = b.out.packets();
        assertEquals(300, p.size());
        assertEquals(299, p.get(299).cycle() - p.get(0).cycle(), "300 commands in consecutive cycles");
    }

    @ParameterizedTest
    @ValueSource(ints = {256, 512, 1024})
    void dataCommandsKeepPaceWithTheInterface(int width) {
        Random rnd = new Random(width + 1);
        Bench b = new Bench(new CommandIngress.Config(width, TABLE, 8, 100, 100), rnd);
        int inBeats = 0;
        for (int i = 0; i < 200; i++) {
            int len = 1 + rnd.nextInt(256);
            inBeats += (len + width / 8 - 1) / (width / 8);
            b.queue(b.beats(new CommandCodec.Command(2, RandomCommands.bytes(rnd, 8), RandomCommands.bytes(rnd,
                    len)), i % 8, i % 4));
        }
        b.run(100, 100);
        assertEquals(200, b.out.packets().size());
        assertEquals(inBeats, b.lastInput - b.firstInput + 1, "the interface never waited");
        assertTrue(b.out.beats() <= inBeats, b.out.beats() + " output beats for " + inBeats + " input beats");
        long lag = b.out.packets().get(199).cycle() - b.lastInput;
        assertTrue(lag <= 4, "the last command left " + lag + " cycles after its last beat: no backlog");
    }

    @Test
    void resetWaitsForTheBufferAndRestoresCredits() {
        Random rnd = new Random(4);
        Bench b = new Bench(new CommandIngress.Config(256, TABLE, 8, 4, 2), rnd);
        b.releaseDelay = 200; // the buffer holds on to its commands for a while
        for (int i = 0; i < 3; i++) {
            b.queue(b.beats(new CommandCodec.Command(3, RandomCommands.bytes(rnd, 4), RandomCommands.bytes(rnd,
                    100)), 1, 2));
        }
        while (b.pending.size() > 6) { // the first command is in, the second half-way (4 beats each)
            b.cycles(1);
        }
        b.sim.poke("tx_reset_in", 1);
        b.cycles(3);
        b.sim.poke("tx_reset_in", 0);
        b.pending.clear(); // the XPU abandons what it was sending
        b.cycles(20);
        assertEquals(1, b.sim.peek("tx_reset_out"), "held while the buffer still holds a command");
        assertEquals(1, b.sim.peek("drops_reset"));
        b.cycles(300);
        assertEquals(0, b.sim.peek("tx_reset_out"));
        b.xpuReset();
        b.queue(b.beats(new CommandCodec.Command(1, RandomCommands.bytes(rnd, 8), new byte[0]), 2, 2));
        b.run(100, 100);
        assertEquals(2, b.out.packets().size());
        assertEquals(0, b.sim.peek("credit_error"));
        b.assertCreditsBack();
    }

    @Test
    void aFullStagingBufferDropsWholeCommandsAndReturnsTheirCredits() {
        Random rnd = new Random(5);
        Bench b = new Bench(new CommandIngress.Config(512, TABLE, 8, 200, 100, 8), rnd);
        for (int i = 0; i < 40; i++) {
            b.queue(b.beats(new CommandCodec.Command(2, RandomCommands.bytes(rnd, 8), RandomCommands.bytes(rnd,
                    200)), 3, 1));
        }
        b.readyPercent = 0;
        b.cycles(200);
        long overflow = b.sim.peek("drops_overflow");
        assertTrue(overflow > 0, "the staging buffer filled");
        b.run(100, 100);
        assertEquals(40 - overflow, b.out.packets().size(), "every command not dropped came out, whole");
        for (StreamMonitor.Packet p : b.out.packets()) {
            assertEquals(1, CommandCodec.unpack(TABLE, p.bytes()).commands().size());
        }
        b.assertCreditsBack();
    }

    @Test
    void rejectsBadParameters() {
        String[] named = {"dataWidth", "table", "destinations", "cmdCredits", "dataCredits", "stagingBeats"};
        List<Runnable> bad = List.of(() -> new CommandIngress.Config(128, TABLE, 8, 4, 4),
                () -> new CommandIngress.Config(256, new CommandTable(), 8, 4, 4),
                () -> new CommandIngress.Config(256, TABLE, 6, 4, 4),
                () -> new CommandIngress.Config(256, TABLE, 8, 0, 4),
                () -> new CommandIngress.Config(256, TABLE, 8, 4, -1),
                () -> new CommandIngress.Config(256, TABLE, 8, 4, 4, 4));
        for (int i = 0; i < named.length; i++) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bad.get(i)::run);
            assertTrue(e.getMessage().contains(named[i]), e.getMessage());
        }
    }

    /** Plays the XPU (with deliberate mistakes) and the packing buffer's releases around a CommandIngress. */
    static final class Bench {
        final Simulator sim;
        final Random rnd;
        final CommandIngress.Config config;
        final CommandIngressReference ref;
        final StreamMonitor out;
        final ArrayDeque<CommandIngressReference.Beat> pending = new ArrayDeque<>();
        final ArrayDeque<long[]> releases = new ArrayDeque<>(); // {cycle due, vc, has data}
        final int[] cmdCredits = new int[4];
        final int[] dataCredits = new int[4];
        final int beatBytes;
        int readyPercent = 100;
        int releaseDelay = 3;
        long firstInput = -1;
        long lastInput;
        private int handled;

        Bench(CommandIngress.Config config, Random rnd) {
            this.config = config;
            this.rnd = rnd;
            this.beatBytes = config.dataWidth() / 8;
            sim = Simulator.compile(Design.elaborate(new CommandIngress(config)));
            sim.reset();
            ref = new CommandIngressReference(config);
            out = new StreamMonitor(sim, "m_axis", null);
            xpuReset();
        }

        void xpuReset() {
            Arrays.fill(cmdCredits, config.cmdCredits());
            Arrays.fill(dataCredits, config.dataCredits());
            ref.reset();
        }

        List<CommandIngressReference.Accepted> handedOn() {
            List<CommandIngressReference.Accepted> list = new ArrayList<>();
            for (StreamMonitor.Packet p : out.packets()) {
                long u = p.user().longValue();
                assertEquals(p.bytes().length, (u >> 12) & 0x1ff, "packed bytes in tuser");
                list.add(new CommandIngressReference.Accepted((int) (u & 0x3ff), (int) (u >> 10 & 3),
                        (u >> 21 & 1) == 1, p.bytes()));
            }
            return list;
        }

        /** The beats of a well-formed command. */
        List<CommandIngressReference.Beat> beats(CommandCodec.Command c, int dst, int vc) {
            byte[] control = CommandSender.control(c, c.data().length);
            int len = c.data().length;
            int n = Math.max(1, (len + beatBytes - 1) / beatBytes);
            List<CommandIngressReference.Beat> list = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                byte[] data = Arrays.copyOfRange(c.data(), Math.min(len, k * beatBytes), Math.min(len,
                        (k + 1) * beatBytes));
                list.add(new CommandIngressReference.Beat(len > 0 ? 2 : 1, k, vc, dst, control,
                        Arrays.copyOf(data, beatBytes), false));
            }
            return list;
        }

        void queue(List<CommandIngressReference.Beat> beats) {
            pending.addAll(beats);
        }

        /** A random command, well-formed or (when {@code faulty}) with one random mistake; garbage in unused lanes. */
        void queueCommand(boolean faulty) {
            int[] types = TABLE.definedTypes();
            int t = types[rnd.nextInt(types.length)];
            CommandCodec.Command c = new CommandCodec.Command(t, RandomCommands.bytes(rnd, TABLE.controlBytes(t)),
                    RandomCommands.bytes(rnd, TABLE.hasData(t) ? rnd.nextInt(257) : 0));
            List<CommandIngressReference.Beat> beats = new ArrayList<>(beats(c, rnd.nextInt(8), rnd.nextInt(4)));
            for (int k = 0; k < beats.size(); k++) { // garbage beyond the data and the control
                CommandIngressReference.Beat b = beats.get(k);
                byte[] data = b.data().clone();
                int used = Math.max(0, Math.min(beatBytes, c.data().length - k * beatBytes));
                for (int j = used; j < beatBytes; j++) {
                    data[j] = (byte) rnd.nextInt(256);
                }
                byte[] control = b.control().clone();
                for (int j = 3 + c.control().length; j < control.length; j++) {
                    control[j] = (byte) rnd.nextInt(256);
                }
                beats.set(k, new CommandIngressReference.Beat(b.valid(), b.cycle(), b.vc(), b.xpuid(), control, data,
                        false));
            }
            if (faulty) {
                int k = rnd.nextInt(beats.size());
                CommandIngressReference.Beat b = beats.get(k);
                byte[] control = b.control().clone();
                CommandIngressReference.Beat bad = switch (rnd.nextInt(9)) {
                    case 0 -> with(b, 3, b.cycle(), b.xpuid(), control, false);           // reserved tx_valid
                    case 1 -> with(b, b.valid(), b.cycle(), b.xpuid(), control, true);     // tx_err
                    case 2 -> with(beats.get(0), beats.get(0).valid(), 0, 8 + rnd.nextInt(1016), control, false);
                    case 3 -> { // an undefined type
                        byte[] c0 = beats.get(0).control().clone();
                        c0[0] = (byte) (5 + rnd.nextInt(250));
                        yield with(beats.get(0), beats.get(0).valid(), 0, beats.get(0).xpuid(), c0, false);
                    }
                    case 4 -> { // a length the type or tx_valid does not allow
                        byte[] c0 = beats.get(0).control().clone();
                        c0[1] = (byte) (rnd.nextBoolean() ? 1 : 0);
                        c0[2] = (byte) (c0[1] == 1 ? rnd.nextInt(256) : 0);
                        if (c0[1] == 0 && c.data().length == 0) {
                            c0[2] = (byte) (1 + rnd.nextInt(200));
                        }
                        yield with(beats.get(0), beats.get(0).valid(), 0, beats.get(0).xpuid(), c0, false);
                    }
                    case 5 -> with(b, b.valid(), (b.cycle() + 1 + rnd.nextInt(3)) & 15, b.xpuid(), control, false);
                    case 6 -> with(b, 1, b.cycle(), b.xpuid(), control, false); // tx_valid 1 on a data beat
                    default -> null; // stop half-way (the next command interrupts) or a stray beat
                };
                if (bad == null) {
                    if (beats.size() > 1) {
                        beats = beats.subList(0, 1 + rnd.nextInt(beats.size() - 1));
                    } else {
                        beats.add(with(b, 2, 1 + rnd.nextInt(15), b.xpuid(), control, false));
                    }
                } else if (bad.cycle() == 0 && k > 0) {
                    beats.set(0, bad);
                } else {
                    beats.set(k, bad);
                }
            }
            if (rnd.nextInt(100) < 5) { // sent whether or not the XPU holds the credits
                sendAnyway.add(beats.get(0));
            }
            pending.addAll(beats);
        }

        final Set<CommandIngressReference.Beat> sendAnyway = Collections.newSetFromMap(new IdentityHashMap<>());

        static CommandIngressReference.Beat with(CommandIngressReference.Beat b, int valid, int cycle, int xpuid,
                                                 byte[] control, boolean err) {
            return new CommandIngressReference.Beat(valid, cycle, b.vc(), xpuid, control, b.data(), err);
        }

        /** Runs until every beat is sent, every command out and released and every credit back; fails on a hang. */
        void run(int validPercent, int readyPercent) {
            this.readyPercent = readyPercent;
            long quiet = 0;
            while (quiet < 50) {
                int before = out.packets().size();
                step(validPercent);
                boolean busy = !pending.isEmpty() || !releases.isEmpty() || out.packets().size() != before
                        || !creditsBack();
                quiet = busy ? 0 : quiet + 1;
                assertTrue(sim.cycle() < 500_000, "no progress");
            }
        }

        void cycles(int n) {
            for (int i = 0; i < n; i++) {
                step(100);
            }
        }

        private void step(int validPercent) {
            long credit = sim.peek("tx_credit");
            int cmdVc = (credit & 0b100000) != 0 ? (int) (credit >> 3 & 3) : -1;
            int dataVc = (credit & 0b100) != 0 ? (int) (credit & 3) : -1;
            if (cmdVc >= 0) {
                cmdCredits[cmdVc]++;
            }
            if (dataVc >= 0) {
                dataCredits[dataVc]++;
            }
            ref.returned(cmdVc, dataVc);
            CommandIngressReference.Beat b = pending.peek();
            boolean go = b != null && rnd.nextInt(100) < validPercent && sim.peek("tx_reset_out") == 0;
            if (go && b.cycle() == 0 && b.valid() != 3 && !sendAnyway.contains(b)) {
                go = cmdCredits[b.vc()] > 0 && (b.valid() != 2 || dataCredits[b.vc()] > 0);
            }
            if (go && sendAnyway.contains(b)) { // a violation: aim it at a VC whose credit the XPU lacks
                for (int v = 0; v < 4; v++) {
                    if (cmdCredits[v] == 0 || b.valid() == 2 && dataCredits[v] == 0) {
                        b = new CommandIngressReference.Beat(b.valid(), 0, v, b.xpuid(), b.control(), b.data(),
                                b.err());
                    }
                }
            }
            if (go) {
                pending.poll();
                if (b.cycle() == 0 && b.valid() != 3 && cmdCredits[b.vc()] > 0
                        && (b.valid() != 2 || dataCredits[b.vc()] > 0)) {
                    cmdCredits[b.vc()]--; // the XPU spends what it holds
                    if (b.valid() == 2) {
                        dataCredits[b.vc()]--;
                    }
                }
                drive(b);
                ref.cycle(b);
                if (firstInput < 0) {
                    firstInput = sim.cycle();
                }
                lastInput = sim.cycle();
            } else {
                sim.poke("tx_valid", 0);
            }
            sim.poke("m_axis_tready", rnd.nextInt(100) < readyPercent ? 1 : 0);
            // the packing buffer releases each command some cycles after it came out, one per cycle
            while (handled < out.packets().size()) {
                long u = out.packets().get(handled++).user().longValue();
                releases.add(new long[] {sim.cycle() + releaseDelay, u >> 10 & 3, u >> 21 & 1});
            }
            long[] r = releases.peek();
            if (r != null && r[0] <= sim.cycle()) {
                releases.poll();
                sim.poke("rel_valid", 1);
                sim.poke("rel_vc", r[1]);
                sim.poke("rel_data", r[2]);
            } else {
                sim.poke("rel_valid", 0);
            }
            sim.step();
        }

        private void drive(CommandIngressReference.Beat b) {
            sim.poke("tx_valid", b.valid());
            sim.poke("tx_cycle", b.cycle());
            sim.poke("tx_vc", b.vc());
            sim.poke("xpuid", b.xpuid());
            sim.poke("tx_err", b.err() ? 1 : 0);
            sim.poke("tx_control", Beats.data(b.control(), 0, b.control().length, b.control().length));
            sim.poke("tx_data", Beats.data(b.data(), 0, beatBytes, beatBytes));
        }

        boolean creditsBack() {
            for (int v = 0; v < 4; v++) {
                if (cmdCredits[v] != config.cmdCredits() || dataCredits[v] != config.dataCredits()) {
                    return false;
                }
            }
            return true;
        }

        void assertCreditsBack() {
            assertTrue(creditsBack(), "the XPU holds its initial credits: cmd " + Arrays.toString(cmdCredits)
                    + " data " + Arrays.toString(dataCredits));
            for (int v = 0; v < 4; v++) {
                assertEquals(config.cmdCredits(), sim.peek("cmd_avail_" + v), "SUE's view of VC " + v);
                assertEquals(config.dataCredits(), sim.peek("data_avail_" + v), "SUE's view of VC " + v);
            }
        }
    }
}
