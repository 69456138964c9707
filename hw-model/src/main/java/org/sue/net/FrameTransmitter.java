package org.sue.net;

import org.sue.core.Tag;
import org.sue.core.Component;
import org.sue.lib.crc.CrcParams;
import org.sue.lib.stream.Flow;
import org.sue.lib.stream.Stream;
import org.sue.lib.stream.StreamConfig;
import org.sue.lib.stream.StreamCrcAppend;
import org.sue.lib.stream.StreamPad;

/**
 * Transmit side of SUE framing: packed commands with their {@link SueMeta} in, complete Ethernet frames out, as
 * {@link FrameCodec#encode} builds them: RH ({@link RhInserter}), zero padding up to the format's minimum PDU
 * ({@link StreamPad}), R-CRC ({@link StreamCrcAppend}), network header from the per-destination table
 * ({@link NetHeaderInserter}, written through {@code tbl_wr_*}), over IPv6 the UDP checksum
 * ({@link UdpChecksumInserter}, unless the zero-checksum mode is chosen), FCS ({@link StreamCrcAppend}). Every stage
 * runs at one beat per cycle, so back-to-back PDUs leave without bubbles; tuser rides along with each frame.
 */
public final class FrameTransmitter extends Component {
    public record Config(@Tag("w") int dataWidth, NetConfig net, @Tag("t") int tableDepth) {
        public Config {
            new NetHeaderInserter.Config(dataWidth, net, tableDepth); // validates all three
        }
    }

    public final Stream in;
    public final Stream out;
    /** Header table writes: {@code tbl_wr_valid}, {@code tbl_wr_addr}, {@code tbl_wr_data}. */
    public final Flow tableWrite;
    private final Config config;

    public FrameTransmitter(Config config) {
        super(config);
        this.config = config;
        NetConfig net = config.net();
        int w = config.dataWidth();
        StreamConfig sc = new StreamConfig(w, SueMeta.WIDTH);
        in = Stream.slave(this, sc);
        out = Stream.master(this, sc);

        RhInserter rh = child("rh_inserter", new RhInserter(new RhInserter.Config(w, net.rhVersion())));
        StreamPad pad = child("pdu_pad", new StreamPad(new StreamPad.Config(sc, FrameFormat.minPdu(net))));
        StreamCrcAppend rcrc = child("rcrc_append", new StreamCrcAppend(new StreamCrcAppend.Config(sc, CrcParams.CRC32, 8)));
        NetHeaderInserter header = child("header_inserter", new NetHeaderInserter(
                new NetHeaderInserter.Config(w, net, config.tableDepth())));
        StreamCrcAppend fcs = child("fcs_append", new StreamCrcAppend(new StreamCrcAppend.Config(sc, CrcParams.CRC32, 8)));
        in.into(rh.in);
        rh.out.into(pad.in);
        pad.out.into(rcrc.in);
        rcrc.out.into(header.in);
        if (net.sendsUdpChecksum()) {
            UdpChecksumInserter checksum = child("udp_checksum", new UdpChecksumInserter(
                    new UdpChecksumInserter.Config(w, net)));
            header.out.into(checksum.in);
            checksum.out.into(fcs.in);
        } else {
            header.out.into(fcs.in);
        }
        fcs.out.into(out);
        tableWrite = Flow.slave(this, "tbl_wr", header.tableWrite.layout());
        tableWrite.into(header.tableWrite);
    }

    public Config config() {
        return config;
    }
}
