package org.sue.lib.stream.model;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What {@code StreamNarrow} makes of one input beat, from its rules: the beat cut into {@code ratio} pieces, lowest
 * lanes first; piece 0 always sent, every other piece when one of its lanes is kept; each piece with its slice of
 * tkeep and the input's tuser; tlast on the last piece sent of a beat with tlast.
 */
public final class StreamNarrowReference {
    private StreamNarrowReference() {
    }

    /** One beat: a byte per lane, tkeep per lane, tlast, tuser. */
    public record Beat(byte[] data, boolean[] keep, boolean last, BigInteger user) {
        public Beat {
            if (data.length != keep.length) {
                throw new IllegalArgumentException("a beat has a keep bit per data lane, got " + data.length
                        + " lanes and " + keep.length + " keep bits");
            }
        }

        /** Lanes [from, to) of this beat, with this beat's tuser and no tlast. */
        Beat lanes(int from, int to) {
            return new Beat(Arrays.copyOfRange(data, from, to), Arrays.copyOfRange(keep, from, to), false, user);
        }

        boolean holdsData() {
            for (boolean k : keep) {
                if (k) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Beat b && Arrays.equals(data, b.data) && Arrays.equals(keep, b.keep) && last == b.last
                    && user.equals(b.user);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(data) * 31 + Arrays.hashCode(keep);
        }

        @Override
        public String toString() {
            StringBuilder k = new StringBuilder();
            for (int i = keep.length - 1; i >= 0; i--) {
                k.append(keep[i] ? '1' : '0');
            }
            return "Beat[keep=" + k + ", last=" + last + ", user=" + user.toString(16) + ", data="
                    + new BigInteger(1, reversed(data)).toString(16) + "]";
        }

        private static byte[] reversed(byte[] a) {
            byte[] r = new byte[a.length];
            for (int i = 0; i < a.length; i++) {
                r[i] = a[a.length - 1 - i];
            }
            return r;
        }
    }

    /** The output beats of one input beat, in the order they leave. */
    public static List<Beat> pieces(Beat in, int ratio) {
        int lanes = in.data().length / ratio;
        List<Beat> sent = new ArrayList<>();
        for (int j = 0; j < ratio; j++) {
            Beat piece = in.lanes(j * lanes, (j + 1) * lanes);
            if (j == 0 || piece.holdsData()) {
                sent.add(piece);
            }
        }
        Beat last = sent.get(sent.size() - 1);
        sent.set(sent.size() - 1, new Beat(last.data(), last.keep(), in.last(), in.user()));
        return sent;
    }
}
