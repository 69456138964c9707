package org.sue.net;

import org.sue.core.Tag;
import org.sue.core.Component;
import org.sue.core.Expr;
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
        prepend.header.set(wire("rh", FrameFormat.RH.lanes().set("ver", config.rhVersion())
                .set("op", SueMeta.OP.of(user)).set("port", SueMeta.PORT.of(user)).set("xpuid", SueMeta.SRC_XPU.of(user)).set("psn", SueMeta.PSN.of(user))
                .set("vc", SueMeta.VC.of(user)).set("partition", SueMeta.PARTITION.of(user))
                .set("rpsn", SueMeta.RPSN.of(user)).build())); // reserved bits 0

        in.into(prepend.in);
        prepend.out.into(out);
    }
}
