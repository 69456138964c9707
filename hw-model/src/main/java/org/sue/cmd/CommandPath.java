package org.sue.cmd;

import java.util.Map;
import org.sue.core.Component;
import org.sue.core.Port;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamPorts;
import org.sue.net.SueMeta;

/**
 * Transmit command path of one SUE instance: the XPU's command FIFO interface ({@link CommandIngress}, spec Table 1)
 * into the per-{destination, VC} packing buffers and scheduler ({@link PackingBuffer}), PDUs out on {@code m_axis}
 * with SueMeta (dst, vc, len) for the RH inserter. The buffer's releases return the XPU's credits through the
 * ingress, so the credit counts are what keeps the shared buffer from overflowing: the configuration is refused if
 * the credits the XPU can hold on all four VCs at once could need more cells than the buffer has.
 *
 * <p>Ports: {@code m_axis}, and every port of the ingress and of the buffer except the stream and release wires
 * between them.
 */
public final class CommandPath extends Component {
    /**
     * {@code dataWidth}: the XPU's tx_data width (N); cells and the PDU bus are 2N wide. Credits are per VC; one
     * data credit covers one command's up to 256 data bytes.
     */
    public record Config(int dataWidth, CommandTable table, int destinations, int cells, int pduLimit,
                         int xoffThreshold, int xonThreshold, int cmdCredits, int dataCredits) {
        public Config {
            new CommandIngress.Config(dataWidth, table, destinations, cmdCredits, dataCredits); // validates them
            new PackingBuffer.Config(2 * dataWidth, cells, destinations, pduLimit, xoffThreshold, xonThreshold);
            int need = cellsForCredits(2 * dataWidth / 8, cmdCredits, dataCredits);
            if (need > cells) {
                throw new IllegalArgumentException("CommandPath cells (" + cells + ") cannot hold what the credits"
                        + " allow: " + cmdCredits + " command and " + dataCredits + " data credits per VC can fill "
                        + need + " cells");
            }
        }

        /**
         * 512-bit XPU data, 4096 cells of 128 bytes (512 KiB), 1024 destinations, 2 KiB PDUs, xoff at 16 queued
         * commands and xon at 8, 512 command and 256 data credits per VC (all four VCs full need exactly the 4096
         * cells): enough to pack within 2% of the optimum for one VC's traffic to 1 or 8 destinations, and for
         * 256-byte commands to 64 (docs/performance.md).
         */
        public static Config defaults(CommandTable table) {
            return new Config(512, table, 1024, 4096, 2048, 16, 8, 512, 256);
        }

        public CommandIngress.Config ingress() {
            return new CommandIngress.Config(dataWidth, table, destinations, cmdCredits, dataCredits);
        }

        public PackingBuffer.Config packing() {
            return new PackingBuffer.Config(2 * dataWidth, cells, destinations, pduLimit, xoffThreshold,
                    xonThreshold);
        }
    }

    /**
     * Cells the credits can fill on all four VCs at once: a command with data takes at most one 256-byte buffer and
     * ceil(274 / cell bytes) cells; any other command one cell (header and control fit 22 bytes).
     */
    static int cellsForCredits(int cellBytes, int cmdCredits, int dataCredits) {
        int maxCommand = CommandCodec.HEADER_BYTES + 2 * CommandTable.MAX_CONTROL_UNITS + CommandTable.MAX_DATA_BYTES;
        int withData = Math.min(cmdCredits, dataCredits);
        return PackingBuffer.VCS * (withData * ((maxCommand + cellBytes - 1) / cellBytes) + (cmdCredits - withData));
    }

    /** PDUs for the RH inserter: packed commands, SueMeta with dst, vc and len. */
    public final StreamPorts out;
    private final Config config;

    public CommandPath(Config config) {
        this.config = config;
        CommandIngress ingress = child("ingress", new CommandIngress(config.ingress()));
        PackingBuffer packing = child("packing", new PackingBuffer(config.packing()));
        StreamPorts.connect(ingress.out, packing.in);
        out = StreamPorts.master(this::port, new StreamConfig(2 * config.dataWidth(), SueMeta.WIDTH));
        StreamPorts.connect(packing.out, out);
        ingress.relValid.set(packing.relValid);
        ingress.relVc.set(packing.relVc);
        ingress.relData.set(packing.relData);
        for (Port p : ingress.ports()) {
            if (!p.name().startsWith("m_axis_") && !p.name().startsWith("rel_")) {
                expose(p);
            }
        }
        for (Port p : packing.ports()) {
            if (!p.name().startsWith("s_axis_") && !p.name().startsWith("m_axis_") && !p.name().startsWith("rel_")) {
                expose(p);
            }
        }
    }

    public Config config() {
        return config;
    }

    @Override
    public String moduleName() {
        return "CommandPath_n" + config.dataWidth() + "_c" + config.cells() + "_d" + config.destinations();
    }

    @Override
    public Map<String, Object> parameters() {
        return Map.of("dataWidth", config.dataWidth(), "destinations", config.destinations(), "cells",
                config.cells(), "pduLimit", config.pduLimit(), "xoffThreshold", config.xoffThreshold(),
                "xonThreshold", config.xonThreshold(), "cmdCredits", config.cmdCredits(), "dataCredits",
                config.dataCredits());
    }
}
