package org.sue.link;

import org.sue.core.Bound;
import org.sue.core.ConfigException;
import org.sue.core.Described;
import org.sue.core.Layout;

/**
 * The link-control channel beside the frames on the MAC interface (docs/protocol.md section 7.2): one message per
 * beat, {@code type} (a code of {@link Codes}), {@code value} (a 20-bit LLR sequence number, or a credit count for
 * CBFC) and {@code vc}. UEC carries these as control ordered sets inserted by the PCS; here they are a channel of
 * their own in each direction.
 */
public final class LinkControl {
    private LinkControl() {
    }

    /** Bits of an LLR sequence number (UEC). */
    public static final int SEQ_WIDTH = 20;
    public static final int TYPE_WIDTH = 8;
    public static final int VC_WIDTH = 5;
    public static final Layout LAYOUT = Layout.of("ctl", Layout.bits("type", TYPE_WIDTH),
            Layout.bits("value", SEQ_WIDTH), Layout.bits("vc", VC_WIDTH));

    /**
     * Message type codes, parameters ([ours] defaults: ACK 0x01, NACK 0x02, INIT 0x03, INIT_ECHO 0x04, CF_Update
     * 0x10).
     */
    public record Codes(int ack, int nack, int init, int initEcho, int cfUpdate) implements Described {
        /** A link-control message type. */
        public static final Bound CODE = Bound.of(1, 255);

        public Codes {
            int[] all = {ack, nack, init, initEcho, cfUpdate};
            String[] names = {"ack", "nack", "init", "initEcho", "cfUpdate"};
            for (int i = 0; i < all.length; i++) {
                CODE.check("LinkControl code", names[i], all[i]);
                for (int j = 0; j < i; j++) {
                    if (all[i] == all[j]) {
                        throw new ConfigException("LinkControl", "codes must differ, {" + names[j] + "} and {"
                                + names[i] + "} are both " + all[i]);
                    }
                }
            }
        }

        public static Codes defaults() {
            return new Codes(0x01, 0x02, 0x03, 0x04, 0x10);
        }

        @Override
        public String moduleTag() {
            return "";
        }
    }
}
