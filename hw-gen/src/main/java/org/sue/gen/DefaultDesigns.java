package org.sue.gen;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.sue.core.Component;
import org.sue.lib.CreditCounter;
import org.sue.lib.SyncFifo;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamCrcAppend;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.net.NetHeaderInserter;
import org.sue.net.RhInserter;

/** The designs {@code scripts/generate} writes for the default configuration, by name. */
public final class DefaultDesigns {
    private DefaultDesigns() {
    }

    public static Map<String, Supplier<Component>> all() {
        Map<String, Supplier<Component>> m = new LinkedHashMap<>();
        m.put("command_fifo", () -> new SyncFifo(new SyncFifo.Config(512, 64)));
        m.put("credit_counter", () -> new CreditCounter(new CreditCounter.Config(1024, 8)));
        m.put("crc32_w64", () -> new ParallelCrc(new ParallelCrc.Config(CrcParams.CRC32, 64)));
        m.put("crc32_w512", () -> new ParallelCrc(new ParallelCrc.Config(CrcParams.CRC32, 512)));
        m.put("crc32_w1024", () -> new ParallelCrc(new ParallelCrc.Config(CrcParams.CRC32, 1024)));
        m.put("crc32c_w1024", () -> new ParallelCrc(new ParallelCrc.Config(CrcParams.CRC32C, 1024)));
        // the framing path's pieces so far, 1024-bit bus: RH inserter, Ethernet/IPv4/UDP-sized header insertion, FCS
        m.put("rh_inserter_w1024", () -> new RhInserter(new RhInserter.Config(1024, 1)));
        m.put("ipv4_header_w1024", () -> new NetHeaderInserter(new NetHeaderInserter.Config(1024,
                NetConfig.defaults(HeaderFormat.ETH_IPV4_UDP).withVlan(true), 64)));
        m.put("fcs_append_w1024", () -> new StreamCrcAppend(new StreamCrcAppend.Config(new StreamConfig(1024, 32),
                CrcParams.CRC32, 8)));
        return m;
    }
}
