package org.sue.core;

/** How registers with a reset value are reset; both simulators and the emitted Verilog honour it. */
public enum ResetStyle {
    SYNC_HIGH(false, true), SYNC_LOW(false, false), ASYNC_HIGH(true, true), ASYNC_LOW(true, false);

    private final boolean async;
    private final boolean activeHigh;

    ResetStyle(boolean async, boolean activeHigh) {
        this.async = async;
        this.activeHigh = activeHigh;
    }

    public boolean async() {
        return async;
    }

    public boolean activeHigh() {
        return activeHigh;
    }

    /** Port name of the reset: {@code rst}, or {@code rst_n} when active low. */
    public String portName() {
        return activeHigh ? "rst" : "rst_n";
    }

    /** Port name of the clock. */
    public static final String CLOCK = "clk";
}
