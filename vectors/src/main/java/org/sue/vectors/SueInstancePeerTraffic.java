package org.sue.vectors;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.sue.core.Design;
import org.sue.core.ResetStyle;
import org.sue.instance.SueInstance;
import org.sue.instance.tb.LinkModel;
import org.sue.instance.tb.XpuSide;
import org.sue.sim.Simulator;

/**
 * Drives one {@link SueInstance} (the recorded one, XPU 1) against a scripted peer: a second instance of the same
 * design (XPU 2) in its own simulator, which this stimulus steps, joined through a {@link LinkModel} each way (a short
 * delay, lost frames and bit errors, so the vectors hold NACKs, go-backs, duplicates and FCS drops). Each side's XPU
 * keeps a few random commands queued to the other and returns receive credits with random delays
 * ({@link XpuSide}); every 1000 cycles the XPUs' send and credit-return rates change.
 *
 * <p>Cycle 0 writes both header tables; from cycle 1 both sides are driven. The recorder steps the recorded instance
 * after {@link #drive}; the peer is stepped here, after both sides' inputs are set, so the two see the same cycles.
 */
public final class SueInstancePeerTraffic implements GoldenScenario.Stimulus {
    static final int LOCAL_XPU = 1;
    static final int PEER_XPU = 2;
    private final SueInstance.Config config;
    /** With more ports: the cycles between which port 1's link is down. */
    private static final long PORT_DOWN_FROM = 600;
    private static final long PORT_DOWN_UNTIL = 3000;
    private final ResetStyle resetStyle;
    private final int delay;
    private final LinkModel.Faults faults;
    private XpuSide local;
    private XpuSide peer;
    private int rxReturnMin = 20;
    private int rxReturnMax = 100;

    public SueInstancePeerTraffic(SueInstance.Config config, ResetStyle resetStyle, int delay, LinkModel.Faults faults) {
        this.config = config;
        this.resetStyle = resetStyle;
        this.delay = delay;
        this.faults = faults;
    }

    @Override
    public void drive(Simulator sim, long cycle, Random rnd) {
        if (local == null) {
            start(sim, rnd);
        } else {
            if (cycle == 1) {
                local.endSetUp();
                peer.endSetUp();
            }
            if (cycle % 1000 == 1) {
                for (XpuSide s : new XpuSide[] {local, peer}) {
                    s.txValidPercent(40 + rnd.nextInt(61));
                    s.rxReturnPercent(rxReturnMin + rnd.nextInt(rxReturnMax - rxReturnMin + 1));
                }
            }
            for (XpuSide s : new XpuSide[] {local, peer}) {
                while (s.tx().queued() < 4) {
                    s.add(1);
                }
            }
            if (config.ports() > 1 && (cycle == PORT_DOWN_FROM || cycle == PORT_DOWN_UNTIL)) {
                boolean up = cycle == PORT_DOWN_UNTIL; // port 1 down longer than LLR's PCS-lost timeout, and back
                local.linkUp(1, up);
                peer.linkUp(1, up);
            }
            long now = sim.cycle();
            local.drive(now);
            if (config.llr() == null) { // link_up only makes the port's status: its changes recorded
                sim.poke("link_up", cycle % 2000 < 1900 ? 1 : 0);
            }
            peer.drive(now);
        }
        peer.sim().step();
    }

    /** The peer's simulator, reset as long as the recorded one, and both sides joined. */
    private void start(Simulator sim, Random rnd) {
        Simulator peerSim = Simulator.compile(Design.elaborate(new SueInstance(config), resetStyle));
        peerSim.setReset(true);
        peerSim.step(sim.cycle());
        peerSim.setReset(false);
        local = new XpuSide("recorded", LOCAL_XPU, config, sim, links(rnd), rnd, null);
        peer = new XpuSide("peer", PEER_XPU, config, peerSim, links(rnd), rnd, null);
        local.connect(peer);
        peer.connect(local);
        if (config.ports() > 1) { // the MACs of a port stall (the one-port scenarios were recorded without)
            local.macReadyPercent(90, rnd.nextLong());
            peer.macReadyPercent(90, rnd.nextLong());
        }
    }

    /** A link per port of the instance, each with its own random numbers. */
    private List<LinkModel> links(Random rnd) {
        List<LinkModel> links = new ArrayList<>();
        for (int p = 0; p < config.ports(); p++) {
            links.add(new LinkModel(delay, faults, new Random(rnd.nextLong())));
        }
        return links;
    }

    /** XPUs that return receive credits on {@code min}..{@code max} percent of cycles (default 20..100). */
    public SueInstancePeerTraffic rxReturnPercent(int min, int max) {
        rxReturnMin = min;
        rxReturnMax = max;
        return this;
    }

    /** The recorded instance's side (null before the first cycle). */
    public XpuSide local() {
        return local;
    }

    /** The peer's side (null before the first cycle). */
    public XpuSide peer() {
        return peer;
    }
}
