package org.sue.instance.tb;

import org.sue.cmd.CommandPath;
import org.sue.cmd.CommandTable;
import org.sue.instance.SueInstance;
import org.sue.link.FrameAction;
import org.sue.link.LlrConfig;
import org.sue.net.HeaderFormat;
import org.sue.net.NetConfig;
import org.sue.transport.TransportConfig;

/**
 * The small SUE instance the JVM tests and the instance's golden vectors share, quick to simulate: 256-bit XPU data
 * (512-bit bus), 16 destinations, 1024 cells, 1 KiB PDUs; a 16 KiB retransmit store, window 64 PDUs, timeout 3000
 * cycles, ACK after 200 cycles or 8 PDUs; receive credits 32 commands and 16 buffers per VC, a 256-beat frame FIFO.
 */
public final class SmallInstance {
    private SmallInstance() {
    }

    public static SueInstance.Config config(HeaderFormat format) {
        CommandPath.Config path = new CommandPath.Config(256, CommandTable.example(), 16, 1024, 1024, 16, 8, 32, 16);
        TransportConfig t = new TransportConfig(512, 16, 1, 16384, 64, 3000, 200, 8, 1, 2);
        return new SueInstance.Config(path, NetConfig.defaults(format), t, 32, 16, 256);
    }

    /**
     * The same with Link Layer Retry for a link of about {@code delay} cycles each way: 64 frames / 32 KiB
     * outstanding, replay timer 4 x delay + 200 cycles without a replay limit, frames held during INIT (so every
     * frame is numbered), INIT again after a flush.
     */
    public static SueInstance.Config withLlr(HeaderFormat format, int delay) {
        LlrConfig llr = LlrConfig.defaults(512).withMaxFrameBytes(1536).withLimits(64, 32768, 4 * delay + 200,
                LlrConfig.NO_REPLAY_LIMIT).withFlush(FrameAction.BLOCK, FrameAction.BLOCK, true, 1000, 0);
        return config(format).withLlr(llr);
    }
}
