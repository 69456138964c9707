package org.sue.cmd;

import java.util.List;
import org.sue.core.Tag;
import org.sue.core.Component;
import org.sue.core.Port;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.net.SueMeta;

/**
 * Transmit command path of one SUE instance: the XPU's command FIFO interface ({@link CommandIngress}, spec Table 1)
 * into the per-{destination, VC} packing buffers and scheduler ({@link PackingBuffer}), PDUs out on {@code m_axis}
 * with SueMeta (dst, vc, len) for the RH inserter. {@link BufferCredits} returns the XPU's credits through the
 * ingress as soon as the buffer has room for what they could bring (a shared buffer with a reserve per VC), so the
 * XPU's credits only cover the credit loop while one VC's commands can fill the buffer. The configuration is refused
 * if the credits the XPU can hold on all four VCs at once could need more cells than the buffer has.
 *
 * <p>Ports: {@code m_axis}, and every port of the ingress and of the buffer except the stream, cell and release wires
 * between them; {@code tx_reset_out} is also high while the buffer clears its queue table after reset.
 */
public final class CommandPath extends Component {
    /**
     * {@code dataWidth}: the XPU's tx_data width (N); cells and the PDU bus are 2N wide. Credits are per VC; one
     * data credit covers one command's up to 256 data bytes.
     */
    public record Config(@Tag("n") int dataWidth, CommandTable table, @Tag("d") int destinations, @Tag("c") int cells,
                         @Tag("l") int pduLimit, @Tag("xoff") int xoffThreshold, @Tag("xon") int xonThreshold,
                         @Tag("k") int cmdCredits, @Tag("kd") int dataCredits) {
        public Config {
            new CommandIngress.Config(dataWidth, table, destinations, cmdCredits, dataCredits); // validates them
            new PackingBuffer.Config(2 * dataWidth, cells, destinations, pduLimit, xoffThreshold, xonThreshold);
            new BufferCredits.Config(cells, 2 * dataWidth / 8, cmdCredits, dataCredits);
        }

        /**
         * 512-bit XPU data, 4096 cells of 128 bytes (512 KiB), 1024 destinations, 2 KiB PDUs, xoff at 16 queued
         * commands and xon at 8, 64 command and 32 data credits per VC (a reserve of 128 cells per VC; the other 3584
         * cells are shared): one VC's traffic to 64 destinations packs within 2% of the optimum
         * (docs/performance.md).
         */
        public static Config defaults(CommandTable table) {
            return new Config(512, table, 1024, 4096, 2048, 16, 8, 64, 32);
        }

        /** The same with another buffer size. */
        public Config withCells(int newCells) {
            return new Config(dataWidth, table, destinations, newCells, pduLimit, xoffThreshold, xonThreshold,
                    cmdCredits, dataCredits);
        }

        public CommandIngress.Config ingress() {
            return new CommandIngress.Config(dataWidth, table, destinations, cmdCredits, dataCredits);
        }

        public BufferCredits.Config credits() {
            return new BufferCredits.Config(cells, 2 * dataWidth / 8, cmdCredits, dataCredits);
        }

        /** The unpacker that receives this path's PDUs: the PDU bus in, the XPU's data width out. */
        public CommandUnpacker.Config receiver(int rxCmdCredits, int rxDataCredits) {
            return new CommandUnpacker.Config(2 * dataWidth, dataWidth, table, rxCmdCredits, rxDataCredits);
        }

        public PackingBuffer.Config packing() {
            return new PackingBuffer.Config(2 * dataWidth, cells, destinations, pduLimit, xoffThreshold,
                    xonThreshold);
        }
    }

    /** PDUs for the RH inserter: packed commands, SueMeta with dst, vc and len. */
    public final Stream out;
    private final Config config;

    public CommandPath(Config config) {
        super(config);
        this.config = config;
        CommandIngress ingress = child("ingress", new CommandIngress(config.ingress()));
        PackingBuffer packing = child("packing", new PackingBuffer(config.packing()));
        ingress.out.into(packing.in);
        BufferCredits credits = child("credits", new BufferCredits(config.credits()));
        packing.cellUsed.into(credits.cellUsed);
        packing.cmdStored.into(credits.cmdStored);
        packing.cellFreed.into(credits.cellFreed);
        credits.returnedCount.set(packing.cellReturnedCount);
        credits.returnedVc.set(packing.cellReturnedVc);
        out = Stream.master(this, new StreamConfig(2 * config.dataWidth(), SueMeta.WIDTH));
        packing.out.into(out);
        credits.release.into(ingress.release);
        // the XPU's transmit interface and the ingress's status
        for (Port p : List.of(ingress.txCycle, ingress.txValid, ingress.txVc, ingress.xpuid, ingress.txControl,
                ingress.txData, ingress.txErr, ingress.txCredit, ingress.txResetIn)) {
            expose(p);
        }
        exposeStatus(ingress, "");
        // the scheduler's inputs and reports, and the buffer's status
        expose(packing.vcReady);
        packing.picked.into(Flow.master(this, "picked", packing.picked.layout()));
        expose(packing.dstReady);
        packing.xoff.into(Flow.master(this, "xoff", packing.xoff.layout()));
        exposeStatus(packing, "");
        // the XPU waits while the buffer clears its queue table after reset, as during an interface reset
        out("tx_reset_out", 1).set(ingress.txResetOut.or(packing.initBusy));
    }

    public Config config() {
        return config;
    }
}
