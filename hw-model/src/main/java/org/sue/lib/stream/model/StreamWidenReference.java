package org.sue.lib.stream.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sue.lib.stream.model.StreamNarrowReference.Beat;

/**
 * What {@code StreamWiden} makes of a stream of input beats, from its rules: {@code ratio} consecutive input beats of
 * a packet side by side in one output beat, the first in the lowest lanes; an output beat complete with its
 * {@code ratio}-th piece or with an input beat with tlast, whichever comes first (the next packet starts again at
 * piece 0); its unfilled pieces with tkeep and data zero; tkeep the pieces' tkeep as they came; tlast and tuser the
 * completing input beat's. Beats are {@link StreamNarrowReference.Beat}s, so that the two references compose.
 */
public final class StreamWidenReference {
    private final int ratio;
    private final List<Beat> gathered = new ArrayList<>();

    public StreamWidenReference(int ratio) {
        if (ratio < 1) {
            throw new IllegalArgumentException("ratio must be at least 1, got " + ratio);
        }
        this.ratio = ratio;
    }

    /** Takes the next input beat; gives the output beat it completes, if it completes one. */
    public Optional<Beat> take(Beat in) {
        if (!gathered.isEmpty() && gathered.get(0).data().length != in.data().length) {
            throw new IllegalArgumentException("input beats of one width, got " + gathered.get(0).data().length
                    + " and " + in.data().length + " lanes");
        }
        gathered.add(in);
        if (gathered.size() < ratio && !in.last()) {
            return Optional.empty();
        }
        int lanes = in.data().length;
        byte[] data = new byte[ratio * lanes];
        boolean[] keep = new boolean[ratio * lanes];
        for (int j = 0; j < gathered.size(); j++) {
            System.arraycopy(gathered.get(j).data(), 0, data, j * lanes, lanes);
            System.arraycopy(gathered.get(j).keep(), 0, keep, j * lanes, lanes);
        }
        gathered.clear();
        return Optional.of(new Beat(data, keep, in.last(), in.user()));
    }

    /** Input beats gathered towards the next output beat (0 between output beats). */
    public int pending() {
        return gathered.size();
    }

    /** The output beats of {@code in}, taken in order; beats after the last completed output beat stay pending. */
    public static List<Beat> widen(List<Beat> in, int ratio) {
        StreamWidenReference w = new StreamWidenReference(ratio);
        List<Beat> out = new ArrayList<>();
        in.forEach(b -> w.take(b).ifPresent(out::add));
        return out;
    }
}
