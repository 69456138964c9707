package org.sue.link;

import org.sue.core.Component;
import org.sue.core.Port;
import org.sue.core.Reg;
import org.sue.core.Status;

/**
 * The status of one port (SUE spec 3.4.8, docs/protocol.md 7.8): up while its link carries frames, a cycle after
 * {@code usable} says so, and its changes counted. {@code usable} is LLR's judgement of the link with LLR
 * ({@link LlrTx#usable}: a PCS blip LLR repairs does not take the port down, a flush does until INIT_ECHO comes
 * back), the MAC's {@code link_up} without it.
 */
public final class PortStatus extends Component {
    /** The link carries frames now. */
    public final Port usable;
    /** The port is up (the status). */
    public final Port up;

    public PortStatus() {
        usable = in("usable", 1);
        Reg now = reg("up_now", 1, 0);
        now.set(usable);
        up = status("up", Status.Kind.STATE, now, "1: the port carries frames (its link is up and, with LLR, LLR is"
                + " in ADVANCE or REPLAY, or off)");
        statusCounter("went_down", now.and(usable.not()), "Times the port went down");
        statusCounter("came_up", now.not().and(usable), "Times the port came up (the first time after reset too)");
    }
}
