package org.sue.link.model;

import org.sue.link.CbfcConfig;
import org.sue.link.CcUpdateFrame;
import org.sue.net.SueMeta;

/**
 * Plain-Java model of {@link org.sue.link.CbfcSender}, cycle by cycle, written from docs/protocol.md section 8: the
 * ETH-X sender rules on 20-bit cyclic counters, the reservation of a largest frame per pick, the CC_Update frame
 * between frames (its bytes and FCS from {@link CcUpdateFrame#encode}). Read the outputs of a cycle, then
 * {@link #step} with that cycle's inputs. The RTL's timing: a charge counts a cycle after it is shown, with the
 * reservation it gives back; its overdraw check and the watermarks follow the counters a cycle later.
 */
public final class CbfcSenderModel {
    private static final long MASK = (1L << CbfcConfig.COUNTER_WIDTH) - 1;

    private final CbfcConfig c;
    private final int n = SueMeta.VCS;
    private final long[] used = new long[n];
    private final long[] reserved = new long[n];
    private final long[] consumed = new long[n];
    private final long[] freed = new long[n];
    private final long[] watermark = new long[n];
    private long portUsed;
    private long portReserved;
    private long cfReceived;
    private long cfErrors;
    private long overdraws;
    private final ControlFrameInserterModel inserter;
    private long timer;
    private boolean due;
    private int frameBeats;
    private Inputs chargeShown; // last cycle's inputs, whose charge counts now
    private boolean overdrawSeen;

    /**
     * One cycle's inputs. {@code reserveVc}, {@code unreserveVc}, {@code chargeVc}, {@code cfVc}: -1 for none;
     * {@code cfVc} only for a CF_Update message; {@code beat*}: a beat offered on s_axis.
     */
    public record Inputs(int reserveVc, int unreserveVc, int chargeVc, int chargeBytes, boolean chargeReserved,
                         int cfVc, long cfValue, boolean beatValid, boolean beatLast, int beatBytes, int beatVc,
                         boolean outReady, long localMac, boolean ccNow) {
    }

    public CbfcSenderModel(CbfcConfig config) {
        this.c = config;
        this.inserter = new ControlFrameInserterModel(config.beatBytes());
    }

    /** vc_ready this cycle. */
    public int vcReady() {
        int largest = c.maxFrameCredits();
        boolean port = portUsed + portReserved + largest <= c.portCreditLimit();
        int r = 0;
        for (int v = 0; v < n; v++) {
            if (!c.lossless(v) || port && used[v] + reserved[v] + largest <= c.vcCreditLimit()) {
                r |= 1 << v;
            }
        }
        return r;
    }

    /** s_axis is held (a CC_Update is due between frames or on its way). */
    public boolean holding() {
        return inserter.holding(due);
    }

    /** m_axis carries a CC_Update beat this cycle. */
    public boolean sendingCc() {
        return inserter.sending();
    }

    /** The CC_Update frame being sent (64 bytes). */
    public byte[] ccFrame() {
        return inserter.frame();
    }

    /** Which beat of it is on m_axis. */
    public int ccBeat() {
        return inserter.beat();
    }

    public void step(Inputs in) {
        int lanes = c.beatBytes();
        int largest = c.maxFrameCredits();
        boolean tick = timer == c.ccTimerCycles() - 1;
        // frames through, S_VC_CC at their last beats
        if (in.beatValid() && !holding() && in.outReady()) {
            int bytes = frameBeats * lanes + in.beatBytes();
            if (in.beatLast() && c.lossless(in.beatVc())) {
                consumed[in.beatVc()] = consumed[in.beatVc()] + c.credits(bytes) & MASK;
            }
            frameBeats = in.beatLast() ? 0 : frameBeats + 1;
        }
        long[] counters = consumed.clone(); // as the inserter takes the CC_Update: before this cycle's frame
        // charges, reservations, CF_Updates
        overdraws += overdrawSeen ? 1 : 0;
        for (int v = 0; v < n; v++) {
            watermark[v] = Math.max(watermark[v], used[v]);
        }
        int chargeVc = chargeShown == null ? -1 : chargeShown.chargeVc();
        boolean overdraw = false;
        boolean cfOk = false;
        boolean cfRefused = false;
        long portDelta = 0;
        long portResDelta = 0;
        for (int v = 0; v < n; v++) {
            if (!c.lossless(v)) {
                continue;
            }
            boolean charged = chargeVc == v;
            long plus = charged ? c.credits(chargeShown.chargeBytes()) : 0;
            long minus = 0;
            if (in.cfVc() == v) {
                long returned = in.cfValue() - freed[v] & MASK;
                if (returned > used[v]) {
                    cfRefused = true;
                } else {
                    cfOk = true;
                    minus = returned;
                    freed[v] = in.cfValue();
                }
            }
            long resPlus = in.reserveVc() == v ? largest : 0;
            long resMinus = (in.unreserveVc() == v ? largest : 0) + (charged && chargeShown.chargeReserved() ? largest
                    : 0);
            used[v] = used[v] + plus - minus & MASK;
            reserved[v] = reserved[v] + resPlus - resMinus & MASK;
            portDelta += plus - minus;
            portResDelta += resPlus - resMinus;
            overdraw |= charged && used[v] + reserved[v] > c.vcCreditLimit();
        }
        portUsed = portUsed + portDelta & MASK;
        portReserved = portReserved + portResDelta & MASK;
        overdraw |= chargeVc >= 0 && c.lossless(chargeVc) && portUsed + portReserved > c.portCreditLimit();
        cfReceived += cfOk ? 1 : 0;
        cfErrors += cfRefused ? 1 : 0;
        overdrawSeen = overdraw;
        chargeShown = in;
        // the CC_Update
        boolean start = inserter.step(due, () -> ccUpdate(counters, in.localMac()), in.beatValid(), in.beatLast(),
                in.outReady());
        if (tick || in.ccNow()) {
            due = true;
        } else if (start) {
            due = false;
        }
        timer = tick ? 0 : timer + 1;
    }

    private byte[] ccUpdate(long[] counters, long localMac) {
        long[] sent = new long[n];
        for (int v = 0; v < n; v++) {
            sent[v] = c.lossless(v) ? counters[v] : 0;
        }
        return CcUpdateFrame.encode(c, localMac, sent);
    }

    /** Status output {@code name} of the RTL, as this model has it. */
    public long status(String name) {
        return switch (name) {
            case "s_p_cu" -> portUsed;
            case "cf_updates_received" -> cfReceived;
            case "cf_update_errors" -> cfErrors;
            case "credit_overdraws" -> overdraws;
            case "cc_updates_sent" -> inserter.inserted();
            case "cc_phase" -> inserter.phase();
            default -> perVc(name);
        };
    }

    private long perVc(String name) {
        int cut = name.lastIndexOf('_');
        int v = Integer.parseInt(name.substring(cut + 1));
        return switch (name.substring(0, cut)) {
            case "s_cu" -> used[v];
            case "s_cc" -> consumed[v];
            case "s_cf" -> freed[v];
            case "reserved" -> reserved[v];
            case "s_cu_watermark" -> watermark[v];
            default -> throw new IllegalArgumentException("CbfcSenderModel has no status " + name);
        };
    }
}
