package org.sue.mgmt;

/**
 * How software and hardware use a register field, in SystemRDL's vocabulary (docs/management.md, "Access types").
 */
public enum Access {
    /** Software reads what the hardware drives; writes are ignored (and counted when the whole register is RO). */
    RO("sw=r; hw=w;"),
    /** Software writes and reads back; the hardware reads it. */
    RW("sw=rw; hw=r;"),
    /** Hardware events set bits; a read returns them and clears them (an event in the same cycle stays set). */
    RC("sw=r; hw=w; rclr; hwset;"),
    /** Hardware events set bits; software clears the bits it writes as 1 (an event in the same cycle wins). */
    W1C("sw=rw; hw=w; woclr; hwset;"),
    /** Software writes a value the hardware sees for one cycle; reads return 0. */
    WO("sw=w; hw=r; singlepulse;"),
    /**
     * Software reads what the hardware drives, and the read tells the hardware (a one-cycle strobe), which then shows
     * the next value: the head of a queue. Writes are ignored (and counted when the whole register is POP or RO).
     */
    POP("sw=r; hw=w; swacc;"),
    /**
     * A count the hardware keeps: a read returns it counted from software's last clear, and any write clears it. The
     * hardware's own count runs on; the register block keeps its value at the clear and subtracts it.
     */
    CNT("sw=rw; hw=w; wclr;");

    private final String rdl;

    Access(String rdl) {
        this.rdl = rdl;
    }

    /** The field's SystemRDL properties. */
    public String rdlProperties() {
        return rdl;
    }

    /** Whether a software write changes the field. */
    public boolean writable() {
        return this == RW || this == W1C || this == WO || this == CNT;
    }

    /** Whether the hardware sets the field's bits by events (RC, W1C). */
    public boolean sticky() {
        return this == RC || this == W1C;
    }
}
