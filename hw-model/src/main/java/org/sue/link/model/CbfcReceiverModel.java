package org.sue.link.model;

import java.util.ArrayDeque;
import java.util.Arrays;
import org.sue.link.CbfcConfig;
import org.sue.link.CcUpdateFrame;
import org.sue.net.SueMeta;

/**
 * Plain-Java model of {@link org.sue.link.CbfcReceiver}, cycle by cycle, written from docs/protocol.md section 8: the
 * ETH-X receiver rules (R_VC_CC on enqueue, R_VC_CF on dequeue and discard, the CC_Update's lost-credit recovery)
 * and the CF_Update spacing. A CC_Update frame is judged as bytes ({@link CcUpdateFrame#counter}). Read the outputs
 * of a cycle ({@link #offered}), then {@link #step} with that cycle's inputs. The RTL's timing: an enqueue counts a
 * cycle after it is shown and a CC_Update {@code ccDelay + 1} cycles after its last beat; a dequeue or discard frees
 * its credits two cycles after it is shown; the recovered-credits statistic follows the counters by two cycles.
 */
public final class CbfcReceiverModel {
    private static final long MASK = (1L << CbfcConfig.COUNTER_WIDTH) - 1;
    private final CbfcConfig c;
    private final int n = SueMeta.VCS;
    private final long[] consumed = new long[n];
    private final long[] freed = new long[n];
    private final long[] lastSent = new long[n];
    private final long[] age = new long[n];
    private int lastVc = SueMeta.VCS - 1;
    private long recovered;
    // the RTL's registers between an event and the counters: last cycle's events, the credits they free per VC, and
    // the recovered-credits statistic's two stages
    private int[] enqueued;
    private int[] dequeued;
    private int[] discarded;
    private final long[] freeing = new long[n];
    private final long[] recoveredByVc = new long[n];
    private long recoveredSum;
    private long ccReceived;
    private long ccDropped;
    private long cfSent;
    // the output stage
    private boolean stageValid;
    private long stageValue;
    private int stageVc;

    /** Judged CC_Updates (their counters, or {@link #NONE}) on their way to applying, one per cycle. */
    private final ArrayDeque<long[]> ccDelayLine = new ArrayDeque<>();
    private static final long[] NONE = new long[0];
    private final int ccDelay;

    public CbfcReceiverModel(CbfcConfig config) {
        this(config, 0);
    }

    /** With CC_Updates applied {@code ccDelay} cycles after their last beat. */
    public CbfcReceiverModel(CbfcConfig config, int ccDelay) {
        this.c = config;
        this.ccDelay = ccDelay;
    }

    /** {vc, value} on ctl_out this cycle, or null. */
    public long[] offered() {
        return stageValid ? new long[] {stageVc, stageValue} : null;
    }

    /**
     * One cycle: {@code enqueue}/{@code dequeue}/{@code discard} as {vc, bytes} or null; {@code ccFrame} the bytes of
     * a frame whose last beat is on s_axis_cc this cycle, or null, {@code ccBad} its tuser; {@code outReady}
     * ctl_out_ready.
     */
    public void step(int[] enqueue, int[] dequeue, int[] discard, byte[] ccFrame, boolean ccBad, boolean outReady) {
        int minCycles = c.cycles(c.cfMinSpacingBytes());
        int maxCycles = c.cycles(c.cfMaxSpacingBytes());
        // the CF_Update offered to the stage this cycle, from the counters before the edge
        boolean[] due = new boolean[n];
        boolean any = false;
        for (int v = 0; v < n; v++) {
            due[v] = c.lossless(v) && (freed[v] != lastSent[v] && age[v] >= minCycles || age[v] >= maxCycles);
            any |= due[v];
        }
        int pick = 0;
        for (int k = 1; k <= n && any; k++) {
            int v = (lastVc + k) % n;
            if (due[v]) {
                pick = v;
                break;
            }
        }
        boolean pushed = any && (!stageValid || outReady);
        if (stageValid && outReady) {
            stageValid = false;
        }
        if (pushed) {
            stageValid = true;
            stageValue = freed[pick];
            stageVc = pick;
            cfSent++;
            lastVc = pick;
        }
        for (int v = 0; v < n; v++) {
            if (pushed && pick == v) {
                lastSent[v] = freed[v];
                age[v] = 0;
            } else if (age[v] != maxCycles) {
                age[v]++;
            }
        }
        // the CC_Update, then the cycle's enqueue, dequeue and discard
        long[] judged = NONE;
        if (ccFrame != null) {
            boolean ok = !ccBad && ccFrame.length == CbfcConfig.CC_FRAME_BYTES && headerOk(ccFrame);
            if (ok) {
                ccReceived++;
                judged = new long[n];
                for (int v = 0; v < n; v++) {
                    judged[v] = CcUpdateFrame.counter(ccFrame, v);
                }
            } else {
                ccDropped++;
            }
        }
        ccDelayLine.addLast(judged);
        long[] applies = ccDelayLine.size() > ccDelay + 1 ? ccDelayLine.pollFirst() : NONE;
        recovered += recoveredSum;
        recoveredSum = 0;
        for (int v = 0; v < n; v++) {
            recoveredSum += recoveredByVc[v];
            recoveredByVc[v] = 0;
        }
        for (int v = 0; v < applies.length; v++) {
            long lost = applies[v] - consumed[v] & MASK;
            if (c.lossless(v) && lost != 0 && lost < 1L << (CbfcConfig.COUNTER_WIDTH - 1)) {
                freed[v] = freed[v] + lost & MASK;
                consumed[v] = consumed[v] + lost & MASK;
                recoveredByVc[v] = lost;
            }
        }
        count(consumed, enqueued);
        for (int v = 0; v < n; v++) {
            freed[v] = freed[v] + freeing[v] & MASK;
            freeing[v] = 0;
        }
        count(freeing, dequeued);
        count(freeing, discarded);
        enqueued = enqueue;
        dequeued = dequeue;
        discarded = discard;
    }

    /** Adds the credits of {@code frame} ({vc, bytes} or null) to its VC's counter, lossless VCs only. */
    private void count(long[] counters, int[] frame) {
        if (frame != null && c.lossless(frame[0])) {
            counters[frame[0]] = counters[frame[0]] + c.credits(frame[1]) & MASK;
        }
    }

    private boolean headerOk(byte[] f) {
        byte[] expected = CcUpdateFrame.encode(c, 0, new long[0]);
        return Arrays.equals(f, 12, CcUpdateFrame.COUNTERS_AT, expected, 12, CcUpdateFrame.COUNTERS_AT);
    }

    /** Status output {@code name} of the RTL, as this model has it. */
    public long status(String name) {
        switch (name) {
            case "cc_credits_recovered":
                return recovered & 0xFFFFFFFFL;
            case "cc_updates_received":
                return ccReceived;
            case "cc_frames_dropped":
                return ccDropped;
            case "cf_updates_sent":
                return cfSent;
            default:
                int cut = name.lastIndexOf('_');
                int v = Integer.parseInt(name.substring(cut + 1));
                return switch (name.substring(0, cut)) {
                    case "r_cc" -> consumed[v];
                    case "r_cf" -> freed[v];
                    default -> throw new IllegalArgumentException("CbfcReceiverModel has no status " + name);
                };
        }
    }

    /** Credits in the receive buffer of VC v as the counters see them: consumed and not yet freed. */
    public long inBuffer(int v) {
        return consumed[v] - freed[v] & MASK;
    }
}
