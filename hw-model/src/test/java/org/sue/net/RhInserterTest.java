package org.sue.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.StreamDriver;
import org.sue.lib.stream.StreamPrependTest;
import org.sue.net.RhInserter;
import org.sue.net.SueMeta;
import org.sue.net.model.ReliabilityHeader;
import org.sue.sim.Simulator;

/** The RH inserter against the plain-Java RH encoder and the published check bytes. */
class RhInserterTest {
    @ParameterizedTest
    @CsvSource({"256", "512", "1024"})
    void everyPacketStartsWithItsReliabilityHeader(int width) {
        Simulator sim = Simulator.compile(Design.elaborate(new RhInserter(new RhInserter.Config(width, 1))));
        Random rnd = new Random(width);
        List<StreamPrependTest.Packet> packets = new ArrayList<>();
        List<SueMeta> metas = new ArrayList<>();
        // the check vector of docs/protocol.md section 2 first
        metas.add(new SueMeta(0x42, 0x123, 3, 0x6789, 1, 0x4567, 0x345, 0, false, 0));
        for (int i = 1; i < 120; i++) {
            metas.add(new SueMeta(rnd.nextInt(1024), rnd.nextInt(1024), rnd.nextInt(4), rnd.nextInt(65536),
                    rnd.nextInt(3), rnd.nextInt(65536), rnd.nextInt(1024), rnd.nextInt(4), false, rnd.nextInt(4096)));
        }
        for (SueMeta m : metas) {
            byte[] p = new byte[1 + rnd.nextInt(1500)];
            rnd.nextBytes(p);
            packets.add(new StreamPrependTest.Packet(new byte[0], p, 0));
        }
        StreamDriver d = new StreamDriver(sim, width / 8, packets);
        d.userOf = i -> metas.get(i).pack();
        long guard = 0;
        while (d.received.size() < packets.size() && guard++ < 200_000) {
            d.cycle(rnd.nextInt(5) > 0, rnd.nextInt(4) > 0);
        }
        assertEquals(packets.size(), d.received.size());
        assertEquals("51236789c3454567", HexFormat.of().formatHex(java.util.Arrays.copyOf(d.received.get(0), 8)),
                "the published RH check bytes");
        for (int i = 0; i < packets.size(); i++) {
            byte[] expected = StreamPrependTest.concat(ReliabilityHeader.of(metas.get(i), 1).encode(),
                    packets.get(i).payload());
            assertArrayEquals(expected, d.received.get(i), "packet " + i);
            assertEquals(metas.get(i).pack(), d.receivedUserBig.get(i), "tuser of packet " + i);
        }
    }
}
