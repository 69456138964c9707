package org.sue.cmd.tb;

import java.util.ArrayDeque;
import java.util.Random;
import org.sue.cmd.CommandUnpacker;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.model.XpuCredits;
import org.sue.lib.stream.model.Beats;
import org.sue.sim.Simulator;

/**
 * Plays the XPU on the transmit side of the command interface (spec Table 1, docs/protocol.md section 11) of a running
 * simulation: sends queued commands in order, one beat per cycle, only while it holds a command credit (and a data
 * credit for a command with data) for the command's VC, and takes back the credits SUE returns on {@code tx_credit}.
 *
 * <p>Beat 0 carries {@code tx_control} (byte 0 type, bytes 1..2 data length big-endian, then the control bytes) and
 * the first {@code dataWidth/8} data bytes; later beats the rest, numbered by {@code tx_cycle}; {@code tx_valid} is
 * 1 for a command without data and 2 on every beat of one with data. Nothing is sent while {@code tx_reset_out} is
 * high. Call {@link #drive} once per cycle before the clock edge.
 *
 * <p>{@link #reset} plays the XPU's side of an interface reset (docs/protocol.md 11.7): {@code tx_reset_in} high for
 * some cycles, the command cut mid-way abandoned, nothing sent until SUE has been through its reset, then the initial
 * credits.
 */
public final class CommandSender {
    private record Queued(int dst, int vc, CommandCodec.Command command) {
    }

    private final Simulator sim;
    private final int beatBytes;
    private final XpuCredits credits;
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    private int beat; // next beat of the head command
    private long sent;
    private long firstBeatCycle = -1;
    private long creditStalls;
    private final java.util.List<long[]> starts = new java.util.ArrayList<>();
    private boolean independentVcs;
    private boolean honorXoff;
    private final java.util.Set<Integer> xoff = new java.util.HashSet<>(); // {destination, VC} under xoff
    private int resetLeft; // cycles tx_reset_in stays high
    private boolean resetSeen; // tx_reset_out went high since the reset began
    private boolean inReset;

    public CommandSender(Simulator sim, int dataWidth, int cmdCredits, int dataCredits) {
        this.sim = sim;
        this.beatBytes = dataWidth / 8;
        this.credits = new XpuCredits(cmdCredits, dataCredits);
    }

    public void add(int dst, int vc, CommandCodec.Command command) {
        queue.add(new Queued(dst, vc, command));
    }

    /**
     * Between commands, send the oldest command of any VC that has credit (each VC's commands stay in order), as an
     * XPU with a queue per VC does; by default the commands leave strictly in the order queued.
     */
    public CommandSender independentVcs(boolean on) {
        independentVcs = on;
        return this;
    }

    /**
     * Between commands, hold the commands of every {destination, VC} that SUE put under xoff until its xon
     * (docs/protocol.md 11.6) and send the oldest of the others, as an XPU with a queue per destination does; by
     * default xoff is ignored.
     */
    public CommandSender honorXoff(boolean on) {
        honorXoff = on;
        return this;
    }

    public boolean idle() {
        return queue.isEmpty();
    }

    /** Commands waiting, the one being sent included. */
    public int queued() {
        return queue.size();
    }

    /** Some beats of the head command are sent, not all. */
    public boolean midCommand() {
        return beat > 0;
    }

    /** Commands fully sent. */
    public long sent() {
        return sent;
    }

    /** Per command sent, in order: {destination, VC, cycle of its first beat}. */
    public java.util.List<long[]> starts() {
        return starts;
    }

    /** The cycle of the first beat sent, -1 before. */
    public long firstBeatCycle() {
        return firstBeatCycle;
    }

    /** Cycles a command was ready and waited for its credits (SUE's buffer had no room for more). */
    public long creditStalls() {
        return creditStalls;
    }

    /** True when the XPU holds exactly its initial credits of both kinds on every VC. */
    public boolean creditsBack() {
        return credits.allBack();
    }

    /**
     * Takes this cycle's credit returns and drives the next beat (or idles: no command, no credit, or a random gap
     * when {@code validPercent} is below 100).
     */
    public void drive(Random rnd, int validPercent) {
        long credit = sim.peek("tx_credit");
        credits.give(XpuCredits.cmdVc(credit), XpuCredits.dataVc(credit));
        if (inReset) {
            driveReset();
            return;
        }
        if (honorXoff && sim.peek("xoff_valid") == 1) {
            int key = xoffKey((int) sim.peek("xoff_xpuid"), (int) sim.peek("xoff_vc"));
            if (sim.peek("xoff_on") == 1) {
                xoff.add(key);
            } else {
                xoff.remove(key);
            }
        }
        boolean sendable = true;
        if ((independentVcs || honorXoff) && beat == 0) {
            sendable = nextFirst();
        }
        Queued q = sendable ? queue.peek() : null;
        boolean go = q != null && sim.peek("tx_reset_out") == 0 // SUE takes nothing while it is in reset
                && (validPercent >= 100 || rnd.nextInt(100) < validPercent);
        int len = go ? q.command().data().length : 0;
        if (go && beat == 0) {
            go = credits.take(q.vc(), len > 0);
            creditStalls += go ? 0 : 1;
        }
        if (!go) {
            sim.poke("tx_valid", 0);
            return;
        }
        if (beat == 0 && firstBeatCycle < 0) {
            firstBeatCycle = sim.cycle();
        }
        if (beat == 0) {
            starts.add(new long[] {q.dst(), q.vc(), sim.cycle()});
        }
        sim.poke("tx_valid", len > 0 ? 2 : 1);
        sim.poke("tx_cycle", beat);
        sim.poke("tx_vc", q.vc());
        sim.poke("xpuid", q.dst());
        sim.poke("tx_err", 0);
        sim.poke("tx_control", Beats.data(control(q.command(), len), 0, 18, 18));
        int off = beat * beatBytes;
        int n = Math.max(0, Math.min(beatBytes, len - off));
        sim.poke("tx_data", Beats.data(q.command().data(), off, n, beatBytes));
        beat++;
        if (beat * beatBytes >= len) {
            queue.poll();
            beat = 0;
            sent++;
        }
    }

    /**
     * Starts an interface reset: {@code tx_reset_in} high for the next {@code cycles} calls of {@link #drive}; the
     * command cut mid-way (some of its beats sent) is taken off the queue, not sent; the commands behind it stay queued
     * and go once SUE is out of reset ({@code tx_reset_out} high, then low again), the XPU then holding its initial
     * credits (returns owed before are void). Commands fully sent before stay sent: SUE keeps them.
     *
     * @return the command abandoned, or null if none was cut
     */
    public Abandoned reset(int cycles) {
        if (cycles < 1) {
            throw new IllegalArgumentException("CommandSender.reset cycles must be at least 1, got " + cycles);
        }
        if (inReset) {
            throw new IllegalStateException("CommandSender.reset: a reset is already under way");
        }
        inReset = true;
        resetLeft = cycles;
        resetSeen = false;
        Abandoned cut = null;
        if (beat > 0) {
            Queued q = queue.poll();
            starts.remove(starts.size() - 1); // its start: the latest
            cut = new Abandoned(q.dst(), q.vc(), q.command());
            beat = 0;
        }
        return cut;
    }

    /** A command a reset cut: its destination, VC and the command. */
    public record Abandoned(int dst, int vc, CommandCodec.Command command) {
    }

    /** True from {@link #reset} until SUE has left its reset and the initial credits are back. */
    public boolean inReset() {
        return inReset;
    }

    /** A cycle of the reset: tx_reset_in while asked, then waiting for tx_reset_out to rise and fall. */
    private void driveReset() {
        sim.poke("tx_valid", 0);
        credits.reset(); // whatever SUE returns meanwhile is void: it restores the initial counts
        if (resetLeft > 0) {
            sim.poke("tx_reset_in", 1);
            resetLeft--;
            return;
        }
        sim.poke("tx_reset_in", 0);
        boolean out = sim.peek("tx_reset_out") == 1;
        resetSeen |= out;
        inReset = !(resetSeen && !out);
    }

    /**
     * Moves the command to send next to the head: the oldest not under xoff (with {@link #honorXoff}) and, with
     * {@link #independentVcs}, the oldest of its VC's and with credit. False when every command is under xoff (the
     * head then waits).
     */
    private boolean nextFirst() {
        boolean[] seen = new boolean[4];
        for (java.util.Iterator<Queued> it = queue.iterator(); it.hasNext(); ) {
            Queued q = it.next();
            if (honorXoff && xoff.contains(xoffKey(q.dst(), q.vc()))) {
                continue;
            }
            if (!independentVcs || !seen[q.vc()] && credits.has(q.vc(), q.command().data().length > 0)) {
                if (q != queue.peek()) {
                    it.remove();
                    queue.addFirst(q);
                }
                return true;
            }
            seen[q.vc()] = true;
        }
        Queued head = queue.peek();
        return !honorXoff || head == null || !xoff.contains(xoffKey(head.dst(), head.vc()));
    }

    private static int xoffKey(int dst, int vc) {
        return dst << 2 | vc;
    }

    /** tx_control bytes: type, data length big-endian, control bytes. */
    static byte[] control(CommandCodec.Command c, int len) {
        byte[] b = new byte[CommandUnpacker.CONTROL_BITS / 8];
        b[0] = (byte) c.type();
        b[1] = (byte) (len >> 8);
        b[2] = (byte) len;
        System.arraycopy(c.control(), 0, b, 3, c.control().length);
        return b;
    }
}
