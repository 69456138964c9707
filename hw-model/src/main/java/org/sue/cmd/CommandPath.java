package org.sue.cmd;

import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Port;
import org.sue.core.Tag;
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
        private static final String NAME = "CommandPath";

        /** The ingress's, packing buffer's and buffer credits' rules, on this record's parameters of the same names. */
        public Config {
            CommandIngress.Config.DATA_WIDTH.check(NAME, "dataWidth", dataWidth);
            CommandTable.checkDefined(NAME, "table", table);
            SueMeta.DESTINATIONS.check(NAME, "destinations", destinations);
            CommandIngress.Config.DATA_CREDITS.check(NAME, "dataCredits", dataCredits);
            BufferCredits.Config.checkCredits(NAME, cells, 2 * dataWidth / 8, cmdCredits, dataCredits);
            PackingBuffer.Config.checkQueues(NAME, 2 * dataWidth, cells, pduLimit, xoffThreshold, xonThreshold);
        }

        /**
         * 512-bit XPU data, 4096 cells of 128 bytes (512 KiB), 1024 destinations, 2 KiB PDUs, xoff at 16 queued
         * commands and xon at 8, 64 command and 32 data credits per VC (a reserve of 128 cells per VC; the other 3584
         * cells are shared): one VC's traffic to 64 destinations packs within 2% of the optimum
         * (docs/performance.md).
         */
        public static Config defaults(CommandTable table) {
            return builder(table).build();
        }

        /** The defaults ({@link #defaults}) for a command table, to change by name. */
        public static Builder builder(CommandTable table) {
            return new Builder(table);
        }

        /** This configuration, to change by name. */
        public Builder toBuilder() {
            return builder(table).dataWidth(dataWidth).destinations(destinations).cells(cells).pduLimit(pduLimit)
                    .xoffThreshold(xoffThreshold).xonThreshold(xonThreshold).cmdCredits(cmdCredits)
                    .dataCredits(dataCredits);
        }

        /** The same with another buffer size. */
        public Config withCells(int newCells) {
            return toBuilder().cells(newCells).build();
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

        /** Parameters by name; what is not set keeps its default ({@link #defaults}). */
        public static final class Builder {
            /** The packing buffer's own defaults: its PDU limit and thresholds. */
            private static final PackingBuffer.Config PACKING = PackingBuffer.Config.defaults(1024, 4096, 1024);

            private CommandTable table;
            private int dataWidth = PACKING.cellWidth() / 2;
            private int destinations = PACKING.destinations();
            private int cells = PACKING.cells();
            private int pduLimit = PACKING.pduLimit();
            private int xoffThreshold = PACKING.xoffThreshold();
            private int xonThreshold = PACKING.xonThreshold();
            private int cmdCredits = 64;
            private int dataCredits = 32;

            private Builder(CommandTable table) {
                this.table = table;
            }

            public Builder table(CommandTable v) {
                table = v;
                return this;
            }

            public Builder dataWidth(int v) {
                dataWidth = v;
                return this;
            }

            public Builder destinations(int v) {
                destinations = v;
                return this;
            }

            public Builder cells(int v) {
                cells = v;
                return this;
            }

            public Builder pduLimit(int v) {
                pduLimit = v;
                return this;
            }

            public Builder xoffThreshold(int v) {
                xoffThreshold = v;
                return this;
            }

            public Builder xonThreshold(int v) {
                xonThreshold = v;
                return this;
            }

            public Builder cmdCredits(int v) {
                cmdCredits = v;
                return this;
            }

            public Builder dataCredits(int v) {
                dataCredits = v;
                return this;
            }

            public Config build() {
                return new Config(dataWidth, table, destinations, cells, pduLimit, xoffThreshold, xonThreshold,
                        cmdCredits, dataCredits);
            }
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
        for (Port p : ingress.ports()) {
            if (!p.name().startsWith("m_axis_") && !p.name().startsWith("rel_") && p != ingress.txResetOut) {
                expose(p);
            }
        }
        for (Port p : packing.ports()) {
            if (!p.name().startsWith("s_axis_") && !p.name().startsWith("m_axis_")
                    && !p.name().startsWith("cell_") && !p.name().startsWith("cmd_stored_")
                    && p != packing.initBusy) {
                expose(p);
            }
        }
        // the XPU waits while the buffer clears its queue table after reset, as during an interface reset
        out("tx_reset_out", 1).set(ingress.txResetOut.or(packing.initBusy));
    }

    public Config config() {
        return config;
    }
}
