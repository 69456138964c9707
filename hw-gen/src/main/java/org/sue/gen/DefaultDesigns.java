package org.sue.gen;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.sue.core.Component;
import org.sue.lib.CreditCounter;
import org.sue.lib.SyncFifo;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.crc.ParallelCrc;

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
        return m;
    }
}
