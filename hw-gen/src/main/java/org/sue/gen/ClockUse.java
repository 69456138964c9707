package org.sue.gen;

import java.util.IdentityHashMap;
import java.util.Map;
import org.sue.core.Component;
import org.sue.core.Mem;
import org.sue.core.Reg;

/**
 * Which components need a clock or a reset port: those with registers or memories (or a reset value) somewhere in
 * their subtree. Giving every module both ports would leave unused inputs, which lint rightly flags.
 */
final class ClockUse {
    private final Map<Component, Boolean> clock = new IdentityHashMap<>();
    private final Map<Component, Boolean> reset = new IdentityHashMap<>();

    ClockUse(Component top) {
        visit(top);
    }

    private void visit(Component c) {
        boolean needClock = !c.regs().isEmpty() || !c.memReads().isEmpty();
        for (Mem m : c.mems()) {
            needClock |= m.write() != null;
        }
        boolean needReset = c.regs().stream().anyMatch(Reg::hasReset);
        for (Component child : c.children()) {
            visit(child);
            needClock |= clock.get(child);
            needReset |= reset.get(child);
        }
        clock.put(c, needClock);
        reset.put(c, needReset);
    }

    boolean needsClock(Component c) {
        return clock.get(c);
    }

    boolean needsReset(Component c) {
        return reset.get(c);
    }
}
