package org.sue.instance.tb;

import org.sue.link.LlrConfig;

/**
 * A switch between the two sides of a {@link TwoXpuRun}, for runs whose transport round trip is longer than one
 * link's: each side's link ends at a port of the relay, and a frame a port takes in crosses the relay in
 * {@code fabricDelay} cycles to the other port, which sends it on at one beat per cycle. The fabric loses nothing and
 * holds what a port cannot send yet. With Link Layer Retry each port is an LLR endpoint configured like the
 * instances, so each hop repairs its own losses, as LLR works hop by hop. Either way a port drops what arrives bad (a
 * store-and-forward switch checks the FCS): with LLR the good copy follows, replayed. The ports are
 * {@link SwitchPort}s, as those of the N-port {@link SwitchModel}.
 */
public final class Relay {
    private final SwitchPort towardsA;
    private final SwitchPort towardsB;

    /**
     * @param llr         the instances' Link Layer Retry, or null for none
     * @param busWidth    bits a cycle on each port
     * @param fabricDelay cycles from a frame's last beat in at one port to its first beat out at the other
     * @param fromA       the link from side A to the relay; {@code toA} the one back, and likewise for B
     */
    public Relay(LlrConfig llr, int busWidth, int fabricDelay, LinkModel fromA, LinkModel toA, LinkModel fromB,
                 LinkModel toB) {
        if (fabricDelay < 0) {
            throw new IllegalArgumentException("Relay fabricDelay must be at least 0 cycles, got " + fabricDelay);
        }
        towardsA = new SwitchPort(llr, busWidth, 0, fromA, toA);
        towardsB = new SwitchPort(llr, busWidth, 0, fromB, toB);
        towardsA.forwardTo((frame, cycle) -> towardsB.enqueue(frame, cycle + fabricDelay));
        towardsB.forwardTo((frame, cycle) -> towardsA.enqueue(frame, cycle + fabricDelay));
    }

    /** Inputs of one cycle, before the clock edge. */
    public void drive(long now) {
        towardsA.drive(now);
        towardsB.drive(now);
    }

    public void step() {
        towardsA.step();
        towardsB.step();
    }

    /** No frame in the fabric, in a port or on the links out of the relay. */
    public boolean noDataInFlight() {
        return towardsA.idle() && towardsB.idle();
    }

    /** Frames that arrived bad (FCS or the MAC's flag) and were dropped: a store-and-forward switch. */
    public long dropped() {
        return towardsA.dropped() + towardsB.dropped();
    }
}
