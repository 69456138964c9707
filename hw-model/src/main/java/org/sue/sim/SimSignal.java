package org.sue.sim;

import org.sue.core.Signal;

/** A signal visible to the testbench and the waveform: its number in the compiled model and where it sits. */
public record SimSignal(int id, Signal signal, String path, int width, boolean settable) {
    public boolean wide() {
        return width > 64;
    }
}
