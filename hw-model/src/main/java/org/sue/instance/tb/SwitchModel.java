package org.sue.instance.tb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sue.core.ByteLayout;
import org.sue.link.LlrConfig;
import org.sue.net.FrameFormat;
import org.sue.net.LocalIdentity;
import org.sue.net.NetConfig;

/**
 * An N-port store-and-forward switch between SUE instances, for simulation: a frame that arrives good at a port
 * crosses the fabric in {@code fabricDelay} cycles into the output queue of the port its destination is attached to,
 * and leaves it at a beat a cycle. The destination is what the format addresses (docs/protocol.md 5.3-5.6): the
 * Ethernet DA for the standard formats, the destination XPU address for the AFH formats ({@link #address}). Each port
 * has its own links (so its own delay and {@link LinkModel} faults, link down included), its own output queue (drop
 * tail when full) and, with Link Layer Retry, its own LLR endpoint ({@link SwitchPort}). A port can be made to drop
 * everything to and from it ({@link #dropAll}), as if its XPU were gone. MAC Control frames are link-local and the
 * switch has no link flow control: it drops them (the instances may have neither CBFC nor PFC).
 */
public final class SwitchModel {
    private final NetConfig net;
    private final LlrConfig llr;
    private final int busWidth;
    private final int fabricDelay;
    private final long queueBytes;
    private final List<SwitchPort> ports = new ArrayList<>();
    private final List<Boolean> dropsAll = new ArrayList<>();
    private final Map<Long, Integer> table = new HashMap<>();
    private long unknownDestination;
    private long macControl;
    private long droppedDead;

    /**
     * @param net         the instances' network format: where the destination is
     * @param llr         the instances' Link Layer Retry, or null for none
     * @param busWidth    bits a cycle on each port
     * @param fabricDelay cycles from a frame's last beat in at one port to its first beat out at another
     * @param queueBytes  each output queue's size in bytes, 0 for no limit
     */
    public SwitchModel(NetConfig net, LlrConfig llr, int busWidth, int fabricDelay, long queueBytes) {
        if (fabricDelay < 0) {
            throw new IllegalArgumentException("SwitchModel fabricDelay must be at least 0 cycles, got " + fabricDelay);
        }
        this.net = net;
        this.llr = llr;
        this.busWidth = busWidth;
        this.fabricDelay = fabricDelay;
        this.queueBytes = queueBytes;
    }

    /** What the switch forwards on for an instance of {@code id}: its MAC, or for AFH its XPU address. */
    public static long address(NetConfig net, LocalIdentity id) {
        return net.format().ip() ? id.mac() : id.xpu() & ((1L << xpuBits(net)) - 1);
    }

    private static int xpuBits(NetConfig net) {
        return FrameFormat.networkHeader(net).slot("addr.dst_xpu").width();
    }

    /** The destination {@link #address} a frame carries. */
    public static long destination(NetConfig net, byte[] frame) {
        ByteLayout hdr = FrameFormat.networkHeader(net);
        return hdr.get(frame, 0, net.format().ip() ? "addr.da" : "addr.dst_xpu");
    }

    /**
     * Adds a port for the instance at {@code address}, with the link {@code in} from it and {@code out} to it.
     *
     * @return the port's number, 0 first
     */
    public int attach(long address, LinkModel in, LinkModel out) {
        if (table.containsKey(address)) {
            throw new IllegalArgumentException("SwitchModel.attach: address " + Long.toHexString(address)
                    + " is already at port " + table.get(address));
        }
        int n = ports.size();
        SwitchPort p = new SwitchPort(llr, busWidth, queueBytes, in, out);
        p.forwardTo((frame, cycle) -> forward(n, frame, cycle));
        ports.add(p);
        dropsAll.add(false);
        table.put(address, n);
        return n;
    }

    private void forward(int from, byte[] frame, long cycle) {
        if (dropsAll.get(from)) {
            droppedDead++;
            return;
        }
        if (LinkModel.macControl(frame)) {
            macControl++;
            return;
        }
        Integer to = table.get(destination(net, frame));
        if (to == null) {
            unknownDestination++;
        } else if (dropsAll.get(to)) {
            droppedDead++;
        } else {
            ports.get(to).enqueue(frame, cycle + fabricDelay);
        }
    }

    /**
     * Port {@code port} drops every frame from it and to it ({@code true}; what its output queue holds goes at once)
     * or forwards again: its XPU as if gone, its links and LLR still up.
     */
    public SwitchModel dropAll(int port, boolean on) {
        dropsAll.set(port, on);
        if (on) {
            droppedDead += port(port).flush();
        }
        return this;
    }

    /** With LLR: the PCS status port {@code port}'s transmitter sees (the links themselves: {@link LinkModel#up}). */
    public SwitchModel linkUp(int port, boolean up) {
        port(port).linkUp(up);
        return this;
    }

    private SwitchPort port(int port) {
        if (port < 0 || port >= ports.size()) {
            throw new IllegalArgumentException("SwitchModel port must be 0.." + (ports.size() - 1) + ", got " + port);
        }
        return ports.get(port);
    }

    /** Inputs of one cycle, before the clock edge. */
    public void drive(long now) {
        for (SwitchPort p : ports) {
            p.drive(now);
        }
    }

    public void step() {
        for (SwitchPort p : ports) {
            p.step();
        }
    }

    /** No frame in the fabric, in a port or on the links out of the switch. */
    public boolean noDataInFlight() {
        return ports.stream().allMatch(SwitchPort::idle);
    }

    public int ports() {
        return ports.size();
    }

    /** Frames that arrived bad at the ports (FCS or the MAC's flag) and were dropped. */
    public long droppedBad() {
        return ports.stream().mapToLong(SwitchPort::dropped).sum();
    }

    /** Frames full output queues dropped. */
    public long queueDrops() {
        return ports.stream().mapToLong(SwitchPort::queueDrops).sum();
    }

    /** Frames to or from a port that {@link #dropAll}. */
    public long droppedDead() {
        return droppedDead;
    }

    /** Frames to an address no port has. */
    public long unknownDestination() {
        return unknownDestination;
    }

    /** MAC Control frames dropped (link-local). */
    public long macControlDropped() {
        return macControl;
    }
}
