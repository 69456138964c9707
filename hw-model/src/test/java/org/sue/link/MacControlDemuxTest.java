package org.sue.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sue.core.Design;
import org.sue.lib.stream.tb.StreamMonitor;
import org.sue.lib.stream.tb.StreamSource;
import org.sue.sim.Simulator;

/**
 * MAC Control frames apart: PFC and CC_Update frames, data frames, VLAN-tagged frames, frames whose payload happens
 * to hold 0x8808 further on, and runts, with gaps; each arrives whole and in order on the output the Java
 * classification (EtherType bytes 12-13) names, with its tuser.
 */
class MacControlDemuxTest {
    @ParameterizedTest
    @CsvSource({"128,1", "512,2", "1024,3"})
    void controlFramesGoTheirOwnWay(int width, long seed) {
        Simulator sim = Simulator.compile(Design.elaborate(new MacControlDemux(new MacControlDemux.Config(width))));
        sim.reset();
        Random rnd = new Random(seed);
        StreamSource source = new StreamSource(sim, "s_axis");
        StreamMonitor data = new StreamMonitor(sim, "m_axis", null);
        StreamMonitor control = new StreamMonitor(sim, "m_axis_ctl", null);
        List<byte[]> wantData = new ArrayList<>();
        List<byte[]> wantControl = new ArrayList<>();
        List<BigInteger> wantControlUser = new ArrayList<>();
        CbfcConfig cbfc = CbfcConfig.defaults(width < 256 ? 256 : width);
        for (int i = 0; i < 600; i++) {
            byte[] f = switch (rnd.nextInt(6)) {
                case 0 -> PfcFrame.encode(rnd.nextLong() & 0xFFFFFFFFFFFFL, rnd.nextInt(256), new int[8]);
                case 1 -> CcUpdateFrame.encode(cbfc, 7, new long[] {1, 2, 3, 4});
                case 2 -> new byte[1 + rnd.nextInt(13)]; // a runt
                default -> new byte[14 + rnd.nextInt(2000)];
            };
            if (f.length > 16 && rnd.nextInt(3) == 0 && f[12] != (byte) 0x88) {
                rnd.nextBytes(f);
                f[12] = (byte) 0x81; // VLAN tag; the inner EtherType says nothing here
                f[13] = 0;
                f[16] = (byte) 0x88;
                f[17] = 0x08;
            }
            boolean isControl = f.length >= 14 && (f[12] & 0xFF) == 0x88 && (f[13] & 0xFF) == 0x08;
            BigInteger user = BigInteger.valueOf(rnd.nextInt(8) == 0 ? 1 : 0);
            source.add(f, user);
            (isControl ? wantControl : wantData).add(f);
            if (isControl) {
                wantControlUser.add(user);
            }
        }
        for (long c = 0; c < 200_000 && !source.idle(); c++) {
            source.drive(rnd, 70);
            source.advance();
            sim.step();
        }
        sim.poke("s_axis_tvalid", 0);
        sim.step(3);
        assertEquals(wantData.size(), data.packets().size());
        assertEquals(wantControl.size(), control.packets().size());
        for (int i = 0; i < wantData.size(); i++) {
            assertArrayEquals(wantData.get(i), data.packets().get(i).bytes(), "data frame " + i);
        }
        for (int i = 0; i < wantControl.size(); i++) {
            assertArrayEquals(wantControl.get(i), control.packets().get(i).bytes(), "control frame " + i);
            assertEquals(wantControlUser.get(i), control.packets().get(i).user(), "control frame " + i + " tuser");
        }
        assertEquals(wantControl.size(), sim.peek("control_frames"));
    }
}
