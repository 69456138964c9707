package org.sue.cmd.tb;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.sue.cmd.CommandTable;
import org.sue.cmd.CommandUnpacker;
import org.sue.cmd.model.CommandCodec;
import org.sue.cmd.model.XpuCredits;
import org.sue.sim.Simulator;

/**
 * Plays the XPU on the receive side of the command interface (spec Table 2) of a running simulation: collects the
 * commands delivered on {@code rx_*}, checks every rule of the interface (credits held, rx_valid and rx_cycle
 * numbering, zero control and data lanes beyond the command) and returns the credits it holds, at most one command
 * slot and one data buffer per cycle. A broken rule throws {@link IllegalStateException} naming the cycle.
 *
 * <p>Per cycle: {@link #sample} after the inputs settle, then {@link #creditReturn} for the value to poke on
 * {@code rx_credit} before the clock edge.
 */
public final class CommandReceiver {
    /** A command as the XPU received it: source XPU, VC and the command. */
    public record Delivered(int src, int vc, CommandCodec.Command command) {
    }

    private final Simulator sim;
    private final String xpuidPort;
    private final CommandTable table;
    private final int beatBytes;
    private final XpuCredits credits;
    private final int[] cmdHeld = new int[4];
    private final int[] dataHeld = new int[4];
    private final List<Delivered> delivered = new ArrayList<>();
    private final List<Long> deliveryCycles = new ArrayList<>();
    private long firstDelivery = -1;
    private long lastDelivery;
    private long lastBeat;
    private int pendingType;
    private int pendingLen;
    private byte[] pendingControl;
    private ByteArrayOutputStream pendingData;
    private int pendingSrc;
    private int pendingVc;
    private int nextCycle;

    public CommandReceiver(Simulator sim, int dataWidth, CommandTable table, int cmdCredits, int dataCredits) {
        this(sim, dataWidth, table, cmdCredits, dataCredits, "xpuid");
    }

    /** {@code xpuidPort}: the name the source XPU output has in this design. */
    public CommandReceiver(Simulator sim, int dataWidth, CommandTable table, int cmdCredits, int dataCredits,
                           String xpuidPort) {
        this.sim = sim;
        this.xpuidPort = xpuidPort;
        this.table = table;
        this.beatBytes = dataWidth / 8;
        this.credits = new XpuCredits(cmdCredits, dataCredits);
        reset();
    }

    /** A command an {@code rx_reset_in} cut after some of its beats: its source XPU and VC. */
    public record Cut(int src, int vc) {
    }

    /**
     * The XPU's side of an interface reset (docs/protocol.md 11.7), after {@link #sample} in a cycle with
     * {@code rx_reset_in} high: it holds nothing and has its initial credits again, and a command whose data beats
     * were still owed is cut: SUE drops its remaining beats and the rest of its PDU.
     *
     * @return the command cut, or null
     */
    public Cut reset() {
        credits.reset();
        Arrays.fill(cmdHeld, 0);
        Arrays.fill(dataHeld, 0);
        Cut cut = pendingData != null && pendingData.size() < pendingLen ? new Cut(pendingSrc, pendingVc) : null;
        pendingData = null;
        return cut;
    }

    public List<Delivered> delivered() {
        return delivered;
    }

    /** The cycle each delivered command's first beat came out, in the order of {@link #delivered}. */
    public List<Long> deliveryCycles() {
        return deliveryCycles;
    }

    /** Commands whose slot the XPU still holds (not yet returned). */
    public int held() {
        return Arrays.stream(cmdHeld).sum() + Arrays.stream(dataHeld).sum();
    }

    /** Data bytes still owed of the command being delivered (0 between commands). */
    public int bytesOwed() {
        return pendingData == null ? 0 : pendingLen - pendingData.size();
    }

    public long firstDelivery() {
        return firstDelivery;
    }

    public long lastDelivery() {
        return lastDelivery;
    }

    public long lastBeat() {
        return lastBeat;
    }

    /** True when the XPU holds exactly its initial credits of both kinds on every VC. */
    public boolean creditsBack() {
        return credits.allBack();
    }

    /** The rx_credit value for this cycle: frees one held slot and one held buffer, each on a random VC. */
    public long creditReturn(Random rnd, int percent) {
        return creditReturn(rnd, percent, 0);
    }

    /** Like {@link #creditReturn(Random, int)}, but the VCs of {@code heldVcs} (bit v: VC v) keep their credits. */
    public long creditReturn(Random rnd, int percent, int heldVcs) {
        int c = rnd.nextInt(4);
        int cmdVc = cmdHeld[c] > 0 && (heldVcs >> c & 1) == 0 && rnd.nextInt(100) < percent ? c : -1;
        int d = rnd.nextInt(4);
        int dataVc = dataHeld[d] > 0 && (heldVcs >> d & 1) == 0 && rnd.nextInt(100) < percent ? d : -1;
        return release(cmdVc, dataVc);
    }

    /** The rx_credit value of an XPU that never holds a command: frees the oldest VC's held slot and buffer. */
    public long creditReturnPrompt() {
        int cmdVc = -1;
        int dataVc = -1;
        for (int v = 3; v >= 0; v--) {
            cmdVc = cmdHeld[v] > 0 ? v : cmdVc;
            dataVc = dataHeld[v] > 0 ? v : dataVc;
        }
        return release(cmdVc, dataVc);
    }

    /** Gives back a held slot on {@code cmdVc} and a held buffer on {@code dataVc} (-1: none): the rx_credit word. */
    private long release(int cmdVc, int dataVc) {
        if (cmdVc >= 0) {
            cmdHeld[cmdVc]--;
        }
        if (dataVc >= 0) {
            dataHeld[dataVc]--;
        }
        credits.give(cmdVc, dataVc);
        return XpuCredits.word(cmdVc, dataVc);
    }

    /** Reads this cycle's rx_* outputs. */
    public void sample() {
        int valid = (int) sim.peek("rx_valid");
        if (valid == 0) {
            return;
        }
        long[] data = sim.peekWide("rx_data");
        int cycle = (int) sim.peek("rx_cycle");
        lastBeat = sim.cycle();
        if (cycle == 0) {
            byte[] control = lanes(sim.peekWide("rx_control"), CommandUnpacker.CONTROL_BITS / 8);
            pendingType = control[0] & 0xff;
            pendingLen = (control[1] & 0xff) << 8 | (control[2] & 0xff);
            int ctl = table.controlBytes(pendingType);
            pendingControl = Arrays.copyOfRange(control, 3, 3 + ctl);
            for (int j = 3 + ctl; j < control.length; j++) {
                check(control[j] == 0, "rx_control byte " + j + " beyond the carried control is not zero");
            }
            check(valid == (pendingLen > 0 ? 2 : 1), "rx_valid " + valid + " for data length " + pendingLen);
            pendingSrc = (int) sim.peek(xpuidPort);
            pendingVc = (int) sim.peek("rx_vc");
            pendingData = new ByteArrayOutputStream();
            nextCycle = 0;
            check(credits.has(pendingVc, false), "delivered without a command credit on VC " + pendingVc);
            check(credits.has(pendingVc, pendingLen > 0), "delivered without a data credit on VC " + pendingVc);
            credits.take(pendingVc, pendingLen > 0);
            cmdHeld[pendingVc]++;
            if (pendingLen > 0) {
                dataHeld[pendingVc]++;
            }
            if (firstDelivery < 0) {
                firstDelivery = sim.cycle();
            }
            lastDelivery = sim.cycle();
        } else {
            check(valid == 2, "data beat with rx_valid " + valid);
            check(pendingData != null, "data beat with no command begun (after a receive reset)");
        }
        check(cycle == nextCycle, "rx_cycle " + cycle + ", expected " + nextCycle);
        nextCycle++;
        byte[] beat = lanes(data, beatBytes);
        int n = Math.max(0, Math.min(beatBytes, pendingLen - pendingData.size()));
        for (int j = n; j < beatBytes; j++) {
            check(beat[j] == 0, "rx_data lane " + j + " beyond the data is not zero");
        }
        pendingData.write(beat, 0, n);
        if (pendingData.size() == pendingLen) {
            delivered.add(new Delivered(pendingSrc, pendingVc,
                    new CommandCodec.Command(pendingType, pendingControl, pendingData.toByteArray())));
            deliveryCycles.add(lastDelivery);
        }
    }

    private void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("cycle " + sim.cycle() + ": " + what);
        }
    }

    static byte[] lanes(long[] words, int n) {
        byte[] b = new byte[n];
        for (int j = 0; j < n; j++) {
            b[j] = (byte) (words[j / 8] >>> (8 * (j % 8)));
        }
        return b;
    }
}
