package org.sue.instance.tb;

import org.sue.cmd.CommandTable;
import org.sue.cmd.model.CommandCodec;
import org.sue.instance.SueInstance;
import org.sue.net.FrameFormat;

/**
 * Saturated throughput of a pair of instances: XPU A sends commands of one size back to back (as its credits allow)
 * to XPU B, which returns every receive credit at once; what B's XPU receives per cycle against what the port can
 * carry for that command size.
 *
 * <p><b>Capacity.</b> A saturated packing buffer fills each PDU with as many whole commands as its limit takes,
 * {@code k = floor(pduLimit / packed)} with {@code packed} = 4 + control + data bytes, rounded up to even; the frame
 * is {@code F = FrameFormat.frameBytes(k x packed)} bytes (network headers, RH, the commands, R-CRC, FCS) and takes
 * {@code ceil(F / busBytes)} beats of the port's bus, back to back: the MAC stream has no gap between frames
 * (preamble and inter-frame gap are added by the MAC on the wire, outside the bus). So the port carries at most
 * {@code k x (control + data) / ceil(F / busBytes)} command bytes per cycle, the bytes an XPU counts.
 */
public final class LineRate {
    private LineRate() {
    }

    /** Command bytes per cycle B's XPU received, and the port's capacity for them. */
    public record Result(double bytesPerCycle, double capacity, TwoXpuRun.Result run) {
        public double ratio() {
            return bytesPerCycle / capacity;
        }
    }

    /** The port's capacity in command bytes (control and data) per cycle for commands of {@code dataBytes}. */
    public static double capacity(SueInstance.Config config, int dataBytes) {
        int type = TwoXpuRun.firstTypeWithData(config.path().table());
        int control = controlBytes(config);
        int packed = CommandCodec.packedBytes(new CommandCodec.Command(type, new byte[control], new byte[dataBytes]));
        int k = config.path().pduLimit() / packed;
        int frame = FrameFormat.frameBytes(config.net(), k * packed);
        int busBytes = config.busWidth() / 8;
        int beats = (frame + busBytes - 1) / busBytes;
        return (double) k * (control + dataBytes) / beats;
    }

    /**
     * Command bytes per cycle the XPU interface can offer for commands of {@code dataBytes}: a command's beats carry
     * its data only, so (control + data) / ceil(data / (N / 8)); small commands are bounded by it, not by the port.
     */
    public static double xpuOffer(SueInstance.Config config, int dataBytes) {
        int beatBytes = config.path().dataWidth() / 8;
        return (double) (controlBytes(config) + dataBytes) / Math.max(1, (dataBytes + beatBytes - 1) / beatBytes);
    }

    /** Control bytes of the command type {@link TwoXpuRun#fixed} sends. */
    private static int controlBytes(SueInstance.Config config) {
        CommandTable table = config.path().table();
        return table.controlBytes(TwoXpuRun.firstTypeWithData(table));
    }

    /**
     * Sends {@code commands} commands of {@code dataBytes} from A to B over links of {@code delay} cycles each way,
     * on VCs 0 .. {@code vcs} - 1 in turn, both XPUs never holding back and both MACs taking every beat (the port's
     * capacity is measured); throws if a command is lost or reordered.
     */
    public static Result measure(SueInstance.Config config, int dataBytes, int vcs, int delay, LinkModel.Faults faults,
                                 int commands, long seed) {
        TwoXpuRun.Result r = new TwoXpuRun(config, delay, faults, seed, null).txValidPercent(100)
                .macReadyPercent(100).rxReturnPercent(100)
                .run(commands, 0, TwoXpuRun.fixed(dataBytes, vcs), 200_000, null);
        if (!r.ok()) {
            throw new IllegalStateException("line-rate run (" + TwoXpuRun.describe(config) + ", " + dataBytes
                    + "-byte commands on " + vcs + " VCs) lost or reordered commands");
        }
        return new Result(r.aToB().bytesPerCycle(), capacity(config, dataBytes), r);
    }
}
