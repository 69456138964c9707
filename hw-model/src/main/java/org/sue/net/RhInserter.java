package org.sue.net;

import org.sue.core.Tag;
import java.util.ArrayList;
import java.util.List;
import org.sue.core.Component;
import org.sue.core.Expr;
import org.sue.core.Hw;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamPrepend;

/**
 * Transmit side: builds the 8-byte reliability header (docs/protocol.md section 2) from each packet's {@link SueMeta}
 * sideband (ver from the configuration; op, source XPU, PSN, VC, partition, RPSN from tuser) and puts it in front of
 * the packed commands, at one beat per cycle ({@link StreamPrepend} does the insertion).
 */
public final class RhInserter extends Component {
    public record Config(@Tag("w") int dataWidth, @Tag("v") int rhVersion) {
        public Config {
            new StreamConfig(dataWidth, SueMeta.WIDTH); // validates dataWidth
            if (rhVersion < 0 || rhVersion > 3) {
                throw new IllegalArgumentException("RhInserter rhVersion must be 0..3, got " + rhVersion);
            }
        }
    }

    public final Stream in;
    public final Stream out;
    private final Config config;

    public RhInserter(Config config) {
        super(config);
        this.config = config;
        StreamConfig sc = new StreamConfig(config.dataWidth(), SueMeta.WIDTH);
        in = Stream.slave(this, sc);
        out = Stream.master(this, sc);
        StreamPrepend prepend = child("prepend", new StreamPrepend(new StreamPrepend.Config(sc, FrameFormat.RH_BYTES)));

        Expr user = in.tuser();
        Expr src = SueMeta.SRC_XPU.of(user);
        Expr psn = SueMeta.PSN.of(user);
        Expr partition = SueMeta.PARTITION.of(user);
        Expr rpsn = SueMeta.RPSN.of(user);
        // wire order: word0 {ver, op, rsvd, xpuid}, psn, word2 {vc, rsvd, partition}, rpsn; all big-endian
        Expr word0 = Hw.cat(Hw.lit(2, config.rhVersion()), SueMeta.OP.of(user), Hw.zeros(2), src);
        Expr word2 = Hw.cat(SueMeta.VC.of(user), Hw.zeros(4), partition);
        List<Expr> wordsInWireOrder = List.of(word0, psn, word2, rpsn);
        List<Expr> bytesMsbFirst = new ArrayList<>(); // s_hdr byte j sits in bits [8j+7:8j]
        for (int w = 3; w >= 0; w--) {
            Expr word = wordsInWireOrder.get(w);
            bytesMsbFirst.add(word.bits(7, 0));  // second byte of the word on the wire
            bytesMsbFirst.add(word.bits(15, 8)); // first byte
        }
        prepend.header.set(wire("rh", Hw.cat(bytesMsbFirst)));

        in.into(prepend.in);
        prepend.out.into(out);
    }
}
