package org.sue.lib.stream;

import org.sue.core.Tag;
import org.sue.core.Component;
import org.sue.core.Hw;
import org.sue.core.Layout;
import org.sue.core.Mem;
import org.sue.core.Port;
import org.sue.core.ReadUnderWrite;
import org.sue.core.Reg;

/**
 * Synchronous first-word-fall-through FIFO on a block-RAM-style memory (synchronous read), one push and one pop per
 * cycle. The memory's read register is the output stage, so {@code pop_data} comes straight from a flop. A word
 * pushed into an empty FIFO shows on the output two cycles later. Its control is a {@link FifoControl}, which FIFOs
 * that keep their words elsewhere share.
 *
 * <p>Credit use: the sender starts with {@code depth} credits, spends one per push, and gets one back for every
 * {@code credit_return} pulse (one cycle after each pop). A push while full violates that protocol: the word is
 * dropped and the sticky {@code overflow} flag is raised, so nothing already stored is corrupted.
 */
public final class SyncFifo extends Component {
    /**
     * Parameters, checked at construction. {@code statusPorts}: the level, credit-return and overflow outputs; a FIFO
     * used inside a block that needs none of them leaves them out (an unread output would be a dangling wire).
     */
    public record Config(@Tag("w") int width, @Tag("d") int depth, @Tag("status") boolean statusPorts) {
        public Config(int width, int depth) {
            this(width, depth, true);
        }

        public Config {
            if (width < 1 || width > 4096) {
                throw new IllegalArgumentException("SyncFifo width must be 1..4096 bits, got " + width);
            }
            if (depth < 2 || depth > (1 << 20)) {
                throw new IllegalArgumentException("SyncFifo depth must be 2..1048576 entries, got " + depth);
            }
        }
    }

    /** Words in: {@code push_valid}, {@code push_ready} (not full), {@code push_data}. */
    public final Stream push;
    /** Words out, first in first out: {@code pop_valid}, {@code pop_ready}, {@code pop_data}. */
    public final Stream pop;
    public final Port level;
    public final Port creditReturn;
    public final Port overflow;
    private final Config config;

    public SyncFifo(Config config) {
        super(config);
        this.config = config;
        int w = config.width();
        int depth = config.depth();
        int levelWidth = Hw.log2Up(depth + 1);
        Layout word = Layout.plain("data", w);
        push = Stream.slave(this, "push", word);
        pop = Stream.master(this, "pop", word);
        level = config.statusPorts() ? out("level", levelWidth) : null;
        creditReturn = config.statusPorts() ? out("credit_return", 1) : null;
        overflow = config.statusPorts() ? out("overflow", 1) : null;

        Mem ram = mem("ram", depth, w, ReadUnderWrite.READ_FIRST);
        FifoControl fifo = FifoControl.of("", depth, push);
        ram.write(fifo.write(), fifo.wrPtr(), push.data());
        // the memory's read register is the output register
        fifo.output("out", word, ram.readSync("out_word", fifo.rdPtr(), fifo.load())).into(pop);
        if (config.statusPorts()) {
            Reg creditPulse = reg("credit_pulse", 1, 0);
            Reg overflowFlag = reg("overflow_flag", 1, 0);
            creditPulse.set(pop.fire());
            when(push.valid().and(fifo.full()), () -> overflowFlag.set(1));
            level.set(fifo.occupancy());
            creditReturn.set(creditPulse);
            overflow.set(overflowFlag);
        }
    }

    public Config config() {
        return config;
    }
}
