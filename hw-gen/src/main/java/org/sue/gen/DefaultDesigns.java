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
import org.sue.lib.stream.StreamPrepend;

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
        // header insertion as the framing path uses it: RH (8 B) and Ethernet/IPv4/UDP (42 B), 1024-bit bus
        m.put("rh_prepend_w1024", () -> new StreamPrepend(new StreamPrepend.Config(new StreamConfig(1024, 32), 8)));
        m.put("ipv4_prepend_w1024", () -> new StreamPrepend(new StreamPrepend.Config(new StreamConfig(1024, 32), 42)));
        m.put("fcs_append_w1024", () -> new StreamCrcAppend(new StreamCrcAppend.Config(new StreamConfig(1024, 32),
                CrcParams.CRC32, 8)));
        return m;
    }
}
