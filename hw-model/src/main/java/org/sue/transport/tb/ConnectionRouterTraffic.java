package org.sue.transport.tb;

import java.util.Random;
import org.sue.net.SueMeta;
import org.sue.sim.Simulator;

/**
 * Random inputs of a {@link org.sue.transport.ConnectionRouter} alone (its ports at the top): ports going down and up
 * (each flips with probability 1/150 a cycle), PDUs decided (picked, started) for random connection ports, and ended
 * (returned, charged) only while some are outstanding, as the instance's events are; transport output beats with
 * random last beats; a connection stuck with probability 1/100 a cycle (random port and XPU id, high bits included).
 * In cycles 300 to 499 of every 500 nothing is decided, so the counts drain and routes move.
 */
public final class ConnectionRouterTraffic {
    private final int ports;
    private final int[] outstanding;
    private int up;

    public ConnectionRouterTraffic(int ports) {
        this.ports = ports;
        outstanding = new int[ports];
        up = (1 << ports) - 1;
    }

    public void drive(Simulator sim, long cycle, Random rnd) {
        for (int p = 0; p < ports; p++) {
            if (rnd.nextInt(150) == 0) {
                up ^= 1 << p;
            }
        }
        sim.poke("port_up", up);
        boolean deciding = cycle % 500 < 300;
        decide(sim, "picked", deciding && rnd.nextInt(100) < 40, rnd);
        decide(sim, "started", deciding && rnd.nextInt(100) < 15, rnd);
        end(sim, "returned", rnd.nextInt(100) < 10, rnd);
        end(sim, "charged", rnd.nextInt(100) < 50, rnd);
        sim.poke("charged_xpu", rnd.nextInt(1 << SueMeta.XPU_WIDTH));
        sim.poke("stuck_valid", rnd.nextInt(100) == 0 ? 1 : 0);
        sim.poke("stuck_port", rnd.nextInt(ports));
        sim.poke("stuck_xpu", rnd.nextInt(1 << SueMeta.XPU_WIDTH));
        sim.poke("out_fire", rnd.nextInt(100) < 60 ? 1 : 0);
        sim.poke("out_last", rnd.nextInt(100) < 30 ? 1 : 0);
    }

    private void decide(Simulator sim, String flow, boolean valid, Random rnd) {
        int h = rnd.nextInt(ports);
        outstanding[h] += valid ? 1 : 0;
        sim.poke(flow + "_valid", valid ? 1 : 0);
        sim.poke(flow + "_port", h);
    }

    private void end(Simulator sim, String flow, boolean want, Random rnd) {
        int h = rnd.nextInt(ports);
        boolean valid = want && outstanding[h] > 0;
        outstanding[h] -= valid ? 1 : 0;
        sim.poke(flow + "_valid", valid ? 1 : 0);
        sim.poke(flow + "_port", h);
    }
}
